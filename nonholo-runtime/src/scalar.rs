//! The number type of generated models: [`Scalar`].
//!
//! `nonholonomic!` emits every model generic over its scalar (`SkateOf<S>`, with
//! `type Skate = SkateOf<f64>`), and its `rhs_generic`, `qdot_generic` and
//! `energy_generic` are straight-line code over `S: Scalar`: the four arithmetic operations,
//! the DSL's elementary functions and literals through [`Scalar::from_f64`]. Nothing else,
//! so the same code runs in
//!
//! - `f64`: what [`Model`](crate::Model) integrates;
//! - `f32`: single precision for microcontrollers with an FPU;
//! - dual numbers (feature `dual`, num-dual's [`Dual64`](num_dual::Dual64),
//!   [`HyperDual64`](num_dual::HyperDual64), [`Dual2_64`](num_dual::Dual2_64), nested
//!   `Dual<Dual64>`, ...): exact derivatives of the right-hand side with respect to a
//!   parameter or a state component, by forward-mode automatic differentiation.
//!
//! Sines and cosines of `f64` and `f32` are always [`libm`]'s (`sin`, `cos`, `sincos`), with
//! or without `std`: a model computes the same bits on a desktop and in a `no_std` build,
//! and on every platform. libm's `sincos` is also the faster one in generated code. glibc's
//! saves the MXCSR register on every call, and that read waits for the floating-point work
//! in flight. The rolling models' rhs calls one to four of them, and in `benches/rhs.rs`
//! they run 3–35 % faster with libm's. Both are below one ulp of error. On 60 000 random
//! arguments, glibc's was at most 0.52 ulp off and libm's at most 0.75 ulp
//! (BENCHMARKS.md). The other functions, with `std`, are the floats' inherent methods (the
//! platform's); without it, libm's. So the emitted code names no `std` item and builds in
//! `#![no_std]` crates.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// A real number type the generated equations can be evaluated in.
///
/// The elementary functions are the DSL's (`sin`, `cos`, `tan`, `asin`, `acos`, `atan`,
/// `atan2`, `sinh`, `cosh`, `tanh`, `exp`, `ln`, `sqrt`, `abs`, `powi`, `powf`), with the
/// meaning of `f64`'s methods of the same names. [`Scalar::re`] is the value itself (the
/// real part of a dual number): generated code uses it for decisions only (is the mass
/// matrix positive definite, is the result finite), never inside the arithmetic, so
/// derivatives carried by a dual number pass through untouched.
///
/// ```
/// use nonholo_runtime::Scalar;
///
/// fn pendulum_acceleration<S: Scalar>(g: S, l: S, theta: S) -> S {
///     -(g / l) * theta.sin()
/// }
/// let a64 = pendulum_acceleration(9.81f64, 2.0, 0.3);
/// let a32 = pendulum_acceleration(9.81f32, 2.0, 0.3);
/// assert_eq!(a64, -(9.81f64 / 2.0) * 0.3f64.sin());
/// assert!((a32.re() - a64).abs() < 1e-6);
/// ```
pub trait Scalar:
    Copy
    + Debug
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + 'static
{
    /// The scalar nearest to `x` (a literal of the model; derivative parts zero).
    fn from_f64(x: f64) -> Self;
    /// The value as `f64` (for a dual number its real part).
    fn re(self) -> f64;
    /// Sine.
    fn sin(self) -> Self;
    /// Cosine.
    fn cos(self) -> Self;
    /// `(sin, cos)` at once: the generated code asks for both where a model uses both,
    /// which costs one call of `sincos` instead of two. For `f64` and `f32` it equals
    /// [`Scalar::sin`] and [`Scalar::cos`] bit for bit (libm's kernels).
    ///
    /// ```
    /// use nonholo_runtime::Scalar;
    /// let (s, c) = Scalar::sin_cos(0.5_f64);
    /// assert_eq!((s, c), (Scalar::sin(0.5_f64), Scalar::cos(0.5_f64)));
    /// assert!((s - 0.5_f64.sin()).abs() <= f64::EPSILON * s);
    /// ```
    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        (self.sin(), self.cos())
    }
    /// Tangent.
    fn tan(self) -> Self;
    /// Arcsine.
    fn asin(self) -> Self;
    /// Arccosine.
    fn acos(self) -> Self;
    /// Arctangent.
    fn atan(self) -> Self;
    /// Four-quadrant arctangent of `self / x`.
    fn atan2(self, x: Self) -> Self;
    /// Hyperbolic sine.
    fn sinh(self) -> Self;
    /// Hyperbolic cosine.
    fn cosh(self) -> Self;
    /// Hyperbolic tangent.
    fn tanh(self) -> Self;
    /// `e^self`.
    fn exp(self) -> Self;
    /// Natural logarithm.
    fn ln(self) -> Self;
    /// Square root.
    fn sqrt(self) -> Self;
    /// Absolute value (derivative `signum0`).
    fn abs(self) -> Self;
    /// `self^n` for an integer `n`.
    fn powi(self, n: i32) -> Self;
    /// `self^y` for a real `y` (for dual numbers, `d/dy` is carried where `self > 0`).
    fn powf(self, y: Self) -> Self;
    /// The sign `-1, 0, 1` (`0` at zero, unlike `f64::signum`): the derivative of `abs`.
    /// A constant: its derivative parts are zero.
    #[inline]
    fn signum0(self) -> Self {
        let x = self.re();
        Self::from_f64(if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        })
    }
}

/// `Scalar` for a float: sine and cosine from libm always; the other functions the
/// inherent methods with `std`, libm's without.
macro_rules! float_scalar {
    ($t:ty, $($trig:ident => $libm_trig:ident),* ; $($m:ident => $libm:ident),* ; $sincos:ident, $atan2:ident, $powi:ident, $powf:ident) => {
        impl Scalar for $t {
            $(
                #[inline(always)]
                fn $trig(self) -> Self {
                    libm::$libm_trig(self)
                }
            )*
            #[inline(always)]
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn re(self) -> f64 {
                self as f64
            }
            $(
                #[inline(always)]
                fn $m(self) -> Self {
                    #[cfg(feature = "std")]
                    {
                        <$t>::$m(self)
                    }
                    #[cfg(not(feature = "std"))]
                    {
                        libm::$libm(self)
                    }
                }
            )*
            #[inline(always)]
            fn sin_cos(self) -> (Self, Self) {
                libm::$sincos(self)
            }
            #[inline(always)]
            fn atan2(self, x: Self) -> Self {
                #[cfg(feature = "std")]
                {
                    <$t>::atan2(self, x)
                }
                #[cfg(not(feature = "std"))]
                {
                    libm::$atan2(self, x)
                }
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self {
                #[cfg(feature = "std")]
                {
                    <$t>::powi(self, n)
                }
                #[cfg(not(feature = "std"))]
                {
                    $powi(self, n)
                }
            }
            #[inline(always)]
            fn powf(self, y: Self) -> Self {
                #[cfg(feature = "std")]
                {
                    <$t>::powf(self, y)
                }
                #[cfg(not(feature = "std"))]
                {
                    libm::$powf(self, y)
                }
            }
        }
    };
}

float_scalar!(f64,
    sin => sin, cos => cos; tan => tan, asin => asin, acos => acos, atan => atan,
    sinh => sinh, cosh => cosh, tanh => tanh, exp => exp, ln => log, sqrt => sqrt, abs => fabs;
    sincos, atan2, powi_f64, pow);
float_scalar!(f32,
    sin => sinf, cos => cosf; tan => tanf, asin => asinf, acos => acosf, atan => atanf,
    sinh => sinhf, cosh => coshf, tanh => tanhf, exp => expf, ln => logf, sqrt => sqrtf,
    abs => fabsf;
    sincosf, atan2f, powi_f32, powf);

/// `x^n` by repeated squaring (what `f64::powi` computes; libm has no integer power).
macro_rules! powi_by_squaring {
    ($name:ident, $t:ty) => {
        #[cfg(not(feature = "std"))]
        #[inline]
        fn $name(x: $t, n: i32) -> $t {
            let mut base = if n < 0 { 1.0 / x } else { x };
            let mut e = n.unsigned_abs();
            let mut acc: $t = 1.0;
            while e > 0 {
                if e & 1 == 1 {
                    acc *= base;
                }
                base *= base;
                e >>= 1;
            }
            acc
        }
    };
}
powi_by_squaring!(powi_f64, f64);
powi_by_squaring!(powi_f32, f32);

/// `Scalar` for num-dual's number types over `f64` (each is generic over an inner dual
/// number, so nested types such as `Dual<Dual64>` are covered too).
#[cfg(feature = "dual")]
mod dual {
    use super::Scalar;
    use num_dual::{Dual, Dual2, Dual3, DualNum, HyperDual, HyperHyperDual};

    macro_rules! dual_scalar {
        ($($d:ident),*) => {$(
            impl<T> Scalar for $d<T>
            where
                T: DualNum<Primitive = f64> + Copy,
                $d<T>: DualNum<Primitive = f64> + Copy,
            {
                #[inline]
                fn from_f64(x: f64) -> Self {
                    <$d<T> as From<f64>>::from(x)
                }
                #[inline]
                fn re(self) -> f64 {
                    num_dual::DualStruct::re(&self)
                }
                #[inline]
                fn sin(self) -> Self { DualNum::sin(&self) }
                #[inline]
                fn cos(self) -> Self { DualNum::cos(&self) }
                #[inline]
                fn sin_cos(self) -> (Self, Self) { DualNum::sin_cos(&self) }
                #[inline]
                fn tan(self) -> Self { DualNum::tan(&self) }
                #[inline]
                fn asin(self) -> Self { DualNum::asin(&self) }
                #[inline]
                fn acos(self) -> Self { DualNum::acos(&self) }
                #[inline]
                fn atan(self) -> Self { DualNum::atan(&self) }
                #[inline]
                fn atan2(self, x: Self) -> Self { DualNum::atan2(&self, x) }
                #[inline]
                fn sinh(self) -> Self { DualNum::sinh(&self) }
                #[inline]
                fn cosh(self) -> Self { DualNum::cosh(&self) }
                #[inline]
                fn tanh(self) -> Self { DualNum::tanh(&self) }
                #[inline]
                fn exp(self) -> Self { DualNum::exp(&self) }
                #[inline]
                fn ln(self) -> Self { DualNum::ln(&self) }
                #[inline]
                fn sqrt(self) -> Self { DualNum::sqrt(&self) }
                #[inline]
                fn abs(self) -> Self { self * self.signum0() }
                #[inline]
                fn powi(self, n: i32) -> Self { DualNum::powi(&self, n) }
                #[inline]
                fn powf(self, y: Self) -> Self {
                    // x^y = exp(y ln x) carries d/dy, but only for x > 0; at x <= 0 (where
                    // f64::powf is real only for integral y) y is taken as a constant.
                    if self.re() > 0.0 {
                        DualNum::powd(&self, y)
                    } else {
                        DualNum::powf(&self, y.re())
                    }
                }
            }
        )*};
    }
    dual_scalar!(Dual, HyperDual, Dual2, Dual3, HyperHyperDual);
}
