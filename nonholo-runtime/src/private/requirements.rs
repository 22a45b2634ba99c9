//! What a model's parameters must satisfy before a run starts
//! ([`Model::check_parameters`](crate::Model::check_parameters), emitted for models with
//! bodies): each check names the quantity and the expression that gives it.

use crate::Error;
use alloc::vec;

/// `value > 0`, finite: a mass, a radius, a semi-axis.
pub fn require_positive(what: &'static str, value: f64) -> Result<(), Error> {
    require(what, value, value > 0.0, "it must be positive")
}

/// `value >= 0`, finite: a friction coefficient, a torus's crown radius.
pub fn require_not_negative(what: &'static str, value: f64) -> Result<(), Error> {
    require(what, value, value >= 0.0, "it must be zero or positive")
}

/// `Ok` where `holds` and `value` is finite, else the error naming `what`.
fn require(
    what: &'static str,
    value: f64,
    holds: bool,
    requirement: &'static str,
) -> Result<(), Error> {
    if holds && value.is_finite() {
        Ok(())
    } else {
        Err(Error::Parameter {
            what,
            values: vec![value],
            requirement,
        })
    }
}

/// An inertia matrix about the centre of mass from its entries `[ixx, iyy, izz, ixy, iyz,
/// izx]`: a body has one iff its principal moments `I_k` are not negative and each is at
/// most the sum of the other two (`I_1 + I_2 - I_3 = 2 int z^2 dm >= 0` along the principal
/// axes). Equality is a body without thickness (a rod, a thin disk); the bounds allow
/// round-off of `1e-12` of the trace.
///
/// ```
/// use nonholo_runtime::__private::require_inertia;
/// // a thin disk of mass 2 and radius 0.5: I_axis = m r^2 / 2 = 2 I_diameter
/// assert!(require_inertia("disk", [0.125, 0.125, 0.25, 0.0, 0.0, 0.0]).is_ok());
/// // no body has moments 1, 1, 3
/// assert!(require_inertia("wrong", [1.0, 1.0, 3.0, 0.0, 0.0, 0.0]).is_err());
/// ```
pub fn require_inertia(what: &'static str, c: [f64; 6]) -> Result<(), Error> {
    let [xx, yy, zz, xy, yz, zx] = c;
    let m = nalgebra::Matrix3::new(xx, xy, zx, xy, yy, yz, zx, yz, zz);
    let fail = |values, requirement| {
        Err(Error::Parameter {
            what,
            values,
            requirement,
        })
    };
    if c.iter().any(|v| !v.is_finite()) {
        return fail(c.to_vec(), "its entries must be finite");
    }
    let e = m.symmetric_eigenvalues();
    let moments = vec![e[0], e[1], e[2]];
    let slack = 1e-12 * (e[0].abs() + e[1].abs() + e[2].abs());
    if e.iter().any(|&k| k < -slack) {
        return fail(moments, "its principal moments must not be negative");
    }
    let sum = e[0] + e[1] + e[2];
    if e.iter().any(|&k| k > sum - k + slack) {
        return fail(
            moments,
            "each principal moment must be at most the sum of the other two",
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_pass_and_impossible_ones_are_named() {
        // a rod along x: (0, I, I); a box 1 x 2 x 3 of mass 12: (13, 10, 5)
        assert!(require_inertia("rod", [0.0, 1.0, 1.0, 0.0, 0.0, 0.0]).is_ok());
        assert!(require_inertia("box", [13.0, 10.0, 5.0, 0.0, 0.0, 0.0]).is_ok());
        // the rattleback's, with its product of inertia
        assert!(require_inertia("shell", [2e-4, 1.6e-3, 1.7e-3, -2e-5, 0.0, 0.0]).is_ok());
        let Err(Error::Parameter { what, values, .. }) =
            require_inertia("the inertia of body `b`", [1.0, 1.0, -0.5, 0.0, 0.0, 0.0])
        else {
            panic!("a negative moment")
        };
        assert_eq!(what, "the inertia of body `b`");
        assert!(values.iter().any(|v| (v + 0.5).abs() < 1e-15));
        // products large enough that the diagonal is fine but the principal moments are not
        assert!(require_inertia("tilted", [1.0, 1.0, 1.0, 1.5, 0.0, 0.0]).is_err());
        assert!(require_positive("mass", 0.0).is_err());
        assert!(require_positive("mass", f64::NAN).is_err());
        assert!(require_not_negative("mu", -0.3).is_err());
        assert!(require_not_negative("mu", 0.0).is_ok());
    }
}
