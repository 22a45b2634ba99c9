//! A first-order dual number, `re + eps ε` with `ε² = 0`, over any [`Scalar`] (`f64` by
//! default): the scalar generated models evaluate `rhs_generic` in for
//! [`Model::rhs_jvp`](crate::Model::rhs_jvp) and
//! [`Model::rhs_param_jvp`](crate::Model::rhs_param_jvp) (forward-mode automatic
//! differentiation of the emitted straight-line code), and over another scalar for the
//! rates of the momenta in [`Contacts::contact_loads_scalar`](crate::Contacts::contact_loads_scalar)
//! (a time derivative inside a function that is itself differentiated). Here rather than
//! num-dual's `Dual64` because generated code must build without the `dual` feature and
//! under `no_std`; the elementary functions go through the inner scalar's [`Scalar`]
//! methods (libm's for `f64` without `std`).

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
/// // nested: d/dy of d/dx (x^2 y) at (3, 2) is 2 x = 6
/// let (x, y) = (Dual::new(Dual::new(3.0, 0.0), Dual::new(1.0, 0.0)), Dual::new(Dual::new(2.0, 1.0), Dual::new(0.0, 0.0)));
/// assert_eq!((x * x * y).eps.eps, 6.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Dual<S = f64> {
    /// The value.
    pub re: S,
    /// The derivative part (the directional derivative along the seed).
    pub eps: S,
}

impl<S: Scalar> Dual<S> {
    /// `re + eps ε`.
    #[inline(always)]
    pub const fn new(re: S, eps: S) -> Self {
        Dual { re, eps }
    }

    /// `re + 0 ε`: a constant.
    #[inline(always)]
    pub fn constant(re: S) -> Self {
        Dual::new(re, S::from_f64(0.0))
    }

    /// `f(re) + f'(re) eps ε` from `f(re)` and `f'(re)`.
    #[inline(always)]
    fn chain(self, f: S, df: S) -> Self {
        Dual::new(f, df * self.eps)
    }
}

/// `1` in the scalar `S`.
#[inline(always)]
fn one<S: Scalar>() -> S {
    S::from_f64(1.0)
}

impl<S: Scalar> Add for Dual<S> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Dual::new(self.re + o.re, self.eps + o.eps)
    }
}

impl<S: Scalar> Sub for Dual<S> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Dual::new(self.re - o.re, self.eps - o.eps)
    }
}

impl<S: Scalar> Mul for Dual<S> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        Dual::new(self.re * o.re, self.eps * o.re + self.re * o.eps)
    }
}

impl<S: Scalar> Div for Dual<S> {
    type Output = Self;
    /// One division: `(a/b)' = (a' - (a/b) b') / b`. The value is `a * (1/b)`, which can
    /// differ from `f64`'s `a / b` in the last bit (exactly `1/b` for the emitter's
    /// reciprocals); generated code reads values only for its checks.
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        let inv = one::<S>() / o.re;
        let re = self.re * inv;
        Dual::new(re, (self.eps - re * o.eps) * inv)
    }
}

impl<S: Scalar> Neg for Dual<S> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Dual::new(-self.re, -self.eps)
    }
}

macro_rules! assign_ops {
    ($($tr:ident $m:ident $op:tt),*) => {$(
        impl<S: Scalar> $tr for Dual<S> {
            #[inline(always)]
            fn $m(&mut self, o: Self) {
                *self = *self $op o;
            }
        }
    )*};
}
assign_ops!(AddAssign add_assign +, SubAssign sub_assign -, MulAssign mul_assign *, DivAssign div_assign /);

impl<S: Scalar> Scalar for Dual<S> {
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        Dual::constant(S::from_f64(x))
    }
    #[inline(always)]
    fn re(self) -> f64 {
        self.re.re()
    }
    #[inline]
    fn sin(self) -> Self {
        let (s, c) = self.re.sin_cos();
        self.chain(s, c)
    }
    #[inline]
    fn cos(self) -> Self {
        let (s, c) = self.re.sin_cos();
        self.chain(c, -s)
    }
    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.re.sin_cos();
        (self.chain(s, c), self.chain(c, -s))
    }
    #[inline]
    fn tan(self) -> Self {
        let t = self.re.tan();
        self.chain(t, one::<S>() + t * t)
    }
    #[inline]
    fn asin(self) -> Self {
        self.chain(
            self.re.asin(),
            one::<S>() / (one::<S>() - self.re * self.re).sqrt(),
        )
    }
    #[inline]
    fn acos(self) -> Self {
        self.chain(
            self.re.acos(),
            -one::<S>() / (one::<S>() - self.re * self.re).sqrt(),
        )
    }
    #[inline]
    fn atan(self) -> Self {
        self.chain(
            self.re.atan(),
            one::<S>() / (one::<S>() + self.re * self.re),
        )
    }
    #[inline]
    fn atan2(self, x: Self) -> Self {
        // d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
        let r2 = x.re * x.re + self.re * self.re;
        Dual::new(
            self.re.atan2(x.re),
            (x.re * self.eps - self.re * x.eps) / r2,
        )
    }
    #[inline]
    fn sinh(self) -> Self {
        self.chain(self.re.sinh(), self.re.cosh())
    }
    #[inline]
    fn cosh(self) -> Self {
        self.chain(self.re.cosh(), self.re.sinh())
    }
    #[inline]
    fn tanh(self) -> Self {
        let t = self.re.tanh();
        self.chain(t, one::<S>() - t * t)
    }
    #[inline]
    fn exp(self) -> Self {
        let e = self.re.exp();
        self.chain(e, e)
    }
    #[inline]
    fn ln(self) -> Self {
        self.chain(self.re.ln(), one::<S>() / self.re)
    }
    #[inline]
    fn sqrt(self) -> Self {
        let s = self.re.sqrt();
        self.chain(s, S::from_f64(0.5) / s)
    }
    #[inline]
    fn abs(self) -> Self {
        self * self.signum0()
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        match n {
            0 => Dual::from_f64(1.0),
            1 => self,
            2 => self * self,
            // the value as the scalar's powi computes it (not `p * re`, one rounding more)
            _ => self.chain(
                self.re.powi(n),
                S::from_f64(f64::from(n)) * self.re.powi(n - 1),
            ),
        }
    }
    #[inline]
    fn powf(self, y: Self) -> Self {
        // d(x^y) = y x^(y-1) dx + x^y ln(x) dy; the dy part only where x > 0 (as num-dual)
        let zero = S::from_f64(0.0);
        let v = self.re.powf(y.re);
        let dx = if self.eps == zero {
            zero
        } else {
            y.re * self.re.powf(y.re - one::<S>()) * self.eps
        };
        let dy = if y.eps != zero && self.re.re() > 0.0 {
            v * self.re.ln() * y.eps
        } else {
            zero
        };
        Dual::new(v, dx + dy)
    }
}

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
