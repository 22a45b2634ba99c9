//! The force at one contact and its parts in the contact's frame.

use crate::Scalar;

/// The force that the ground exerts on a wheel at its contact point, and its parts in the
/// contact's frame: the plane's `up` (normal), the rolling direction `axle x up`
/// (longitudinal) and the axle projected on the plane (lateral). In `f64`
/// ([`ContactLoad`]) from [`Contacts::contact_loads`](crate::Contacts::contact_loads); in any
/// [`Scalar`] (dual numbers for exact derivatives) from
/// [`Contacts::contact_loads_scalar`](crate::Contacts::contact_loads_scalar).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactLoadOf<S> {
    /// The force on the wheel, root components.
    pub force: [S; 3],
    /// The material contact point, root components.
    pub point: [S; 3],
    /// `N = force . up`: positive while the ground pushes.
    pub normal: S,
    /// Along the rolling direction `axle x up` (normalized): traction when positive.
    pub longitudinal: S,
    /// Along the axle projected on the plane.
    pub lateral: S,
    /// `|F_t| / (mu N)` for a contact that declares `friction: mu` (`NaN` without one):
    /// the wheel grips while it stays below 1.
    pub utilization: S,
    /// The margin `mu N - |F_t|` of a contact with `friction` (`NaN` without one):
    /// continuous through `N = 0`, so it is what the slip check locates.
    pub friction_margin: S,
    /// The friction coefficient `mu` the contact declares (`friction: mu`; `NaN` without).
    pub mu: S,
}

/// The loads in `f64`, what [`Contacts::contact_loads`](crate::Contacts::contact_loads)
/// gives.
pub type ContactLoad = ContactLoadOf<f64>;

impl ContactLoad {
    /// All zero, `utilization` and `friction_margin` `NaN` (a buffer's initial value).
    pub const ZERO: ContactLoad = ContactLoad {
        force: [0.0; 3],
        point: [0.0; 3],
        normal: 0.0,
        longitudinal: 0.0,
        lateral: 0.0,
        utilization: f64::NAN,
        friction_margin: f64::NAN,
        mu: f64::NAN,
    };

    /// The tangential part `|F_t|`, the friction the contact needs.
    pub fn tangential(&self) -> f64 {
        libm::hypot(self.longitudinal, self.lateral)
    }
}

impl<S: Scalar> ContactLoadOf<S> {
    /// All zero, `utilization` and `friction_margin` `NaN`, in `S`.
    ///
    /// ```
    /// use nonholo_runtime::{ContactLoad, ContactLoadOf};
    /// let z = ContactLoadOf::<f64>::zero();
    /// assert_eq!(z.force, ContactLoad::ZERO.force);
    /// assert!(z.utilization.is_nan());
    /// ```
    pub fn zero() -> Self {
        let (zero, nan) = (S::from_f64(0.0), S::from_f64(f64::NAN));
        ContactLoadOf {
            force: [zero; 3],
            point: [zero; 3],
            normal: zero,
            longitudinal: zero,
            lateral: zero,
            utilization: nan,
            friction_margin: nan,
            mu: nan,
        }
    }

    /// `|F_t|^2`, the square of the friction the contact needs: smooth where `|F_t|` is not
    /// (at `F_t = 0`), which is why a friction constraint is stated with it.
    pub fn tangential_squared(&self) -> S {
        self.longitudinal * self.longitudinal + self.lateral * self.lateral
    }

    /// The values ([`Scalar::re`]) in `f64`.
    pub fn re(&self) -> ContactLoad {
        let v = |x: [S; 3]| [x[0].re(), x[1].re(), x[2].re()];
        ContactLoad {
            force: v(self.force),
            point: v(self.point),
            normal: self.normal.re(),
            longitudinal: self.longitudinal.re(),
            lateral: self.lateral.re(),
            utilization: self.utilization.re(),
            friction_margin: self.friction_margin.re(),
            mu: self.mu.re(),
        }
    }
}
