//! The force at one contact and its parts in the contact's frame.

/// The force that the ground exerts on a wheel at its contact point, and its parts in the
/// contact's frame: the plane's `up` (normal), the rolling direction `axle x up`
/// (longitudinal) and the axle projected on the plane (lateral).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactLoad {
    /// The force on the wheel, root components.
    pub force: [f64; 3],
    /// The material contact point, root components.
    pub point: [f64; 3],
    /// `N = force . up`: positive while the ground pushes.
    pub normal: f64,
    /// Along the rolling direction `axle x up` (normalized): traction when positive.
    pub longitudinal: f64,
    /// Along the axle projected on the plane.
    pub lateral: f64,
    /// `|F_t| / (mu N)` for a contact that declares `friction: mu` (`NaN` without one):
    /// the wheel grips while it stays below 1.
    pub utilization: f64,
    /// The margin `mu N - |F_t|` of a contact with `friction` (`NaN` without one):
    /// continuous through `N = 0`, so it is what the slip check locates.
    pub friction_margin: f64,
}

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
    };

    /// The tangential part `|F_t|`, the friction the contact needs.
    pub fn tangential(&self) -> f64 {
        libm::hypot(self.longitudinal, self.lateral)
    }
}
