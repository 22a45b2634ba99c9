//! A first-order dual number over `f64`, `re + eps ε` with `ε² = 0`: the scalar generated
//! models evaluate `rhs_generic` in for [`Model::rhs_jvp`](crate::Model::rhs_jvp) and
//! [`Model::rhs_param_jvp`](crate::Model::rhs_param_jvp) (forward-mode automatic
//! differentiation of the emitted straight-line code). Here rather than num-dual's
//! `Dual64` because generated code must build without the `dual` feature and under
//! `no_std`; the elementary functions go through `f64`'s [`Scalar`] methods (libm
//! without `std`).

use crate::Scalar;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// `re + eps ε`, `ε² = 0`: `f(re + eps ε) = f(re) + f'(re) eps ε`.
///
/// ```
/// use nonholo_runtime::__private::Dual;
/// use nonholo_runtime::Scalar;
/// // d/dx (x sin x) at x = 0.5 is sin 0.5 + 0.5 cos 0.5
/// let x = Dual::new(0.5, 1.0);
/// let y = x * x.sin();
/// assert_eq!(y.re, 0.5 * 0.5f64.sin());
/// assert!((y.eps - (0.5f64.sin() + 0.5 * 0.5f64.cos())).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Dual {
    /// The value.
    pub re: f64,
    /// The derivative part (the directional derivative along the seed).
    pub eps: f64,
}

impl Dual {
    /// `re + eps ε`.
    #[inline(always)]
    pub const fn new(re: f64, eps: f64) -> Self {
        Dual { re, eps }
    }
}

/// `d` tangent directions at once, `re + sum_k eps_k ε_k` with `ε_j ε_k = 0`: one
/// evaluation of `rhs_generic` gives `L` columns of a Jacobian
/// ([`Model::jacobians`](crate::Model::jacobians): forward mode in chunks, as
/// ForwardDiff's chunk mode).
///
/// ```
/// use nonholo_runtime::__private::Lanes;
/// use nonholo_runtime::Scalar;
/// // f(x, y) = x sin y: the gradient at (2, 0.5) in one evaluation
/// let x = Lanes::<2>::seeded(2.0, 0);
/// let y = Lanes::<2>::seeded(0.5, 1);
/// let f = x * y.sin();
/// assert_eq!(f.eps, [0.5f64.sin(), 2.0 * 0.5f64.cos()]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lanes<const L: usize> {
    /// The value.
    pub re: f64,
    /// The derivative along each of the `L` seeds.
    pub eps: [f64; L],
}

impl<const L: usize> Lanes<L> {
    /// `x` with derivative 1 along seed `k` (0 along the others; none if `k >= L`).
    #[inline(always)]
    pub fn seeded(x: f64, k: usize) -> Self {
        let mut eps = [0.0; L];
        if let Some(e) = eps.get_mut(k) {
            *e = 1.0;
        }
        Lanes { re: x, eps }
    }
}

impl<const L: usize> Default for Lanes<L> {
    #[inline(always)]
    fn default() -> Self {
        Lanes {
            re: 0.0,
            eps: [0.0; L],
        }
    }
}

/// What the chain rules need of a first-order dual type.
trait Tangent: Copy {
    fn value(self) -> f64;
    fn constant(x: f64) -> Self;
    /// `f + df * self.eps`.
    fn chain(self, f: f64, df: f64) -> Self;
    /// `f + a * self.eps + b * o.eps`.
    fn chain2(self, o: Self, f: f64, a: f64, b: f64) -> Self;
    fn plus(self, o: Self) -> Self;
    fn minus(self, o: Self) -> Self;
    fn times(self, o: Self) -> Self;
    fn negated(self) -> Self;
}

impl Tangent for Dual {
    #[inline(always)]
    fn value(self) -> f64 {
        self.re
    }
    #[inline(always)]
    fn constant(x: f64) -> Self {
        Dual::new(x, 0.0)
    }
    #[inline(always)]
    fn chain(self, f: f64, df: f64) -> Self {
        Dual::new(f, df * self.eps)
    }
    #[inline(always)]
    fn chain2(self, o: Self, f: f64, a: f64, b: f64) -> Self {
        Dual::new(f, a * self.eps + b * o.eps)
    }
    #[inline(always)]
    fn plus(self, o: Dual) -> Dual {
        Dual::new(self.re + o.re, self.eps + o.eps)
    }
    #[inline(always)]
    fn minus(self, o: Dual) -> Dual {
        Dual::new(self.re - o.re, self.eps - o.eps)
    }
    #[inline(always)]
    fn times(self, o: Dual) -> Dual {
        Dual::new(self.re * o.re, self.eps * o.re + self.re * o.eps)
    }
    #[inline(always)]
    fn negated(self) -> Dual {
        Dual::new(-self.re, -self.eps)
    }
}

impl<const L: usize> Tangent for Lanes<L> {
    #[inline(always)]
    fn value(self) -> f64 {
        self.re
    }
    #[inline(always)]
    fn constant(x: f64) -> Self {
        Lanes {
            re: x,
            eps: [0.0; L],
        }
    }
    #[inline(always)]
    fn chain(self, f: f64, df: f64) -> Self {
        Lanes {
            re: f,
            eps: self.eps.map(|e| df * e),
        }
    }
    #[inline(always)]
    fn chain2(self, o: Self, f: f64, a: f64, b: f64) -> Self {
        Lanes {
            re: f,
            eps: core::array::from_fn(|k| a * self.eps[k] + b * o.eps[k]),
        }
    }
    #[inline(always)]
    fn plus(self, o: Self) -> Self {
        Lanes {
            re: self.re + o.re,
            eps: core::array::from_fn(|k| self.eps[k] + o.eps[k]),
        }
    }
    #[inline(always)]
    fn minus(self, o: Self) -> Self {
        Lanes {
            re: self.re - o.re,
            eps: core::array::from_fn(|k| self.eps[k] - o.eps[k]),
        }
    }
    #[inline(always)]
    fn times(self, o: Self) -> Self {
        Lanes {
            re: self.re * o.re,
            eps: core::array::from_fn(|k| self.eps[k] * o.re + self.re * o.eps[k]),
        }
    }
    #[inline(always)]
    fn negated(self) -> Self {
        Lanes {
            re: -self.re,
            eps: self.eps.map(|e| -e),
        }
    }
}

/// The arithmetic and [`Scalar`] of a [`Tangent`] type, written once.
macro_rules! first_order {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.plus(o)
            }
        }
        impl<$($g)*> Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self.minus(o)
            }
        }
        impl<$($g)*> Mul for $t {
            type Output = Self;
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self.times(o)
            }
        }
        impl<$($g)*> Div for $t {
            type Output = Self;
            /// One division: `(a/b)' = (a' - (a/b) b') / b`. The value is `a * (1/b)`, which
            /// can differ from `f64`'s `a / b` in the last bit (exactly `1/b` for the
            /// emitter's reciprocals); generated code reads values only for its checks.
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                let inv = 1.0 / o.re;
                let re = self.re * inv;
                self.chain2(o, re, inv, -re * inv)
            }
        }
        impl<$($g)*> Neg for $t {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                self.negated()
            }
        }
        impl<$($g)*> AddAssign for $t {
            #[inline(always)]
            fn add_assign(&mut self, o: Self) {
                *self = *self + o;
            }
        }
        impl<$($g)*> SubAssign for $t {
            #[inline(always)]
            fn sub_assign(&mut self, o: Self) {
                *self = *self - o;
            }
        }
        impl<$($g)*> MulAssign for $t {
            #[inline(always)]
            fn mul_assign(&mut self, o: Self) {
                *self = *self * o;
            }
        }
        impl<$($g)*> DivAssign for $t {
            #[inline(always)]
            fn div_assign(&mut self, o: Self) {
                *self = *self / o;
            }
        }

        impl<$($g)*> Scalar for $t {
            #[inline(always)]
            fn from_f64(x: f64) -> Self {
                Self::constant(x)
            }
            #[inline(always)]
            fn re(self) -> f64 {
                self.value()
            }
            #[inline]
            fn sin(self) -> Self {
                let (s, c) = Scalar::sin_cos(self.re);
                self.chain(s, c)
            }
            #[inline]
            fn cos(self) -> Self {
                let (s, c) = Scalar::sin_cos(self.re);
                self.chain(c, -s)
            }
            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                let (s, c) = Scalar::sin_cos(self.re);
                (self.chain(s, c), self.chain(c, -s))
            }
            #[inline]
            fn tan(self) -> Self {
                let t = Scalar::tan(self.re);
                self.chain(t, 1.0 + t * t)
            }
            #[inline]
            fn asin(self) -> Self {
                self.chain(
                    Scalar::asin(self.re),
                    1.0 / Scalar::sqrt(1.0 - self.re * self.re),
                )
            }
            #[inline]
            fn acos(self) -> Self {
                self.chain(
                    Scalar::acos(self.re),
                    -1.0 / Scalar::sqrt(1.0 - self.re * self.re),
                )
            }
            #[inline]
            fn atan(self) -> Self {
                self.chain(Scalar::atan(self.re), 1.0 / (1.0 + self.re * self.re))
            }
            #[inline]
            fn atan2(self, x: Self) -> Self {
                // d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
                let r2 = x.re * x.re + self.re * self.re;
                self.chain2(x, Scalar::atan2(self.re, x.re), x.re / r2, -self.re / r2)
            }
            #[inline]
            fn sinh(self) -> Self {
                self.chain(Scalar::sinh(self.re), Scalar::cosh(self.re))
            }
            #[inline]
            fn cosh(self) -> Self {
                self.chain(Scalar::cosh(self.re), Scalar::sinh(self.re))
            }
            #[inline]
            fn tanh(self) -> Self {
                let t = Scalar::tanh(self.re);
                self.chain(t, 1.0 - t * t)
            }
            #[inline]
            fn exp(self) -> Self {
                let e = Scalar::exp(self.re);
                self.chain(e, e)
            }
            #[inline]
            fn ln(self) -> Self {
                self.chain(Scalar::ln(self.re), 1.0 / self.re)
            }
            #[inline]
            fn sqrt(self) -> Self {
                let s = Scalar::sqrt(self.re);
                self.chain(s, 0.5 / s)
            }
            #[inline]
            fn abs(self) -> Self {
                self * self.signum0()
            }
            #[inline]
            fn powi(self, n: i32) -> Self {
                match n {
                    0 => Self::constant(1.0),
                    1 => self,
                    2 => self * self,
                    // the value as f64's powi computes it (not `p * re`, one rounding more)
                    _ => self.chain(
                        Scalar::powi(self.re, n),
                        f64::from(n) * Scalar::powi(self.re, n - 1),
                    ),
                }
            }
            #[inline]
            fn powf(self, y: Self) -> Self {
                // d(x^y) = y x^(y-1) dx + x^y ln(x) dy; the dy part only where x > 0 (as
                // num-dual), and x^(y-1) only where x carries a derivative
                let v = Scalar::powf(self.re, y.re);
                let a = if self.chain(0.0, 1.0) == Self::constant(0.0) {
                    0.0
                } else {
                    y.re * Scalar::powf(self.re, y.re - 1.0)
                };
                let b = if self.re > 0.0 && y.chain(0.0, 1.0) != Self::constant(0.0) {
                    v * Scalar::ln(self.re)
                } else {
                    0.0
                };
                self.chain2(y, v, a, b)
            }
        }
    )*};
}
first_order!([] Dual, [const L: usize] Lanes<L>);

#[cfg(test)]
mod tests {
    use super::*;

    /// `f'(x)` by a central difference (Richardson-extrapolated).
    fn numeric(f: impl Fn(f64) -> f64, x: f64) -> f64 {
        let d = |h: f64| (f(x + h) - f(x - h)) / (2.0 * h);
        let h = 1e-3 * x.abs().max(1.0);
        (4.0 * d(h / 2.0) - d(h)) / 3.0
    }

    #[test]
    fn elementary_derivatives_match_differences() {
        type F = (&'static str, fn(Dual) -> Dual, fn(f64) -> f64);
        let fs: [F; 17] = [
            // sines and cosines are libm's (`Scalar`), not `f64::sin`'s
            ("sin", |x| x.sin(), <f64 as Scalar>::sin),
            ("cos", |x| x.cos(), <f64 as Scalar>::cos),
            ("sin_cos.0", |x| x.sin_cos().0, <f64 as Scalar>::sin),
            ("sin_cos.1", |x| x.sin_cos().1, <f64 as Scalar>::cos),
            ("tan", |x| x.tan(), f64::tan),
            ("asin", |x| x.asin(), f64::asin),
            ("acos", |x| x.acos(), f64::acos),
            ("atan", |x| x.atan(), f64::atan),
            ("sinh", |x| x.sinh(), f64::sinh),
            ("cosh", |x| x.cosh(), f64::cosh),
            ("tanh", |x| x.tanh(), f64::tanh),
            ("exp", |x| x.exp(), f64::exp),
            ("ln", |x| x.ln(), f64::ln),
            ("sqrt", |x| x.sqrt(), f64::sqrt),
            ("abs", |x| (-x).abs(), |x| (-x).abs()),
            (
                "powi",
                |x| x.powi(-3) + x.powi(5) + x.powi(2),
                |x| x.powi(-3) + x.powi(5) + x.powi(2),
            ),
            (
                "div",
                |x| (x * x + Dual::from_f64(1.0)) / (x - Dual::from_f64(2.0)),
                |x| (x * x + 1.0) / (x - 2.0),
            ),
        ];
        for (name, fd, f) in fs {
            for x in [0.3, 0.7, -0.4] {
                if (name == "ln" || name == "sqrt") && x < 0.0 {
                    continue;
                }
                let y = fd(Dual::new(x, 1.0));
                if name == "div" {
                    // a * (1/b) against a / b: one rounding apart at most
                    assert!(
                        (y.re - f(x)).abs() <= 2.0 * f64::EPSILON * f(x).abs(),
                        "div({x})"
                    );
                } else {
                    assert_eq!(y.re, f(x), "{name}({x})");
                }
                let want = numeric(f, x);
                assert!(
                    (y.eps - want).abs() < 1e-8 * want.abs().max(1.0),
                    "{name}'({x}) = {} against {want}",
                    y.eps
                );
            }
        }
    }

    #[test]
    fn two_argument_functions_carry_both_derivatives() {
        // along (dy, dx) = (0.3, -0.2)
        let (y, x) = (Dual::new(0.8, 0.3), Dual::new(-0.5, -0.2));
        let at = |h: f64| (0.8 + 0.3 * h).atan2(-0.5 - 0.2 * h);
        let pw = |h: f64| (1.3 + 0.3 * h).powf(0.7 - 0.2 * h);
        assert!((y.atan2(x).eps - numeric(at, 0.0)).abs() < 1e-9);
        let p = Dual::new(1.3, 0.3).powf(Dual::new(0.7, -0.2));
        assert!((p.eps - numeric(pw, 0.0)).abs() < 1e-9);
        assert_eq!(p.re, 1.3f64.powf(0.7));
    }
}
