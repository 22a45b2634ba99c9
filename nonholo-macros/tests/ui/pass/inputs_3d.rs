#![deny(warnings)]
//! Inputs in every place loads enter: per coordinate, at a point, on a body, between two
//! bodies and in the potential; `rhs_u` at u = 0 is `rhs`.
use nonholo::prelude::*;

nonholonomic! {
    /// A two-link arm on a turntable, driven by its motors.
    pub struct Arm;
    parameters { m = 1.0, l = 0.5, k = 2.0, g = 9.81 }
    inputs { t_base, t_elbow, push, rest }
    coordinates { base, shoulder, elbow }
    frame N;
    point O;
    frame B = N.rotate(z, base);
    frame U = B.rotate(y, shoulder);
    frame F = U.rotate(y, elbow);
    point E = O + l * U.x;
    point H = E + l * F.x;
    body upper { frame: U, center: O + 0.5 * l * U.x, mass: m, inertia: inertia(U, 0.01, 0.02, 0.02) }
    body fore { frame: F, center: E + 0.5 * l * F.x, mass: m, inertia: inertia(F, 0.01, 0.02, 0.02) }
    gravity = -g * N.z;
    potential_energy = 0.5 * k * (shoulder - rest).powi(2);
    forces {
        base: t_base;
        at H: push * N.x;
        between fore, upper: t_elbow * U.y;
        on upper: -0.1 * angular_velocity(U);
    }
}

fn main() -> Result<(), nonholo::Error> {
    let arm = Arm::default();
    assert_eq!(Arm::INPUTS, ["t_base", "t_elbow", "push", "rest"]);
    assert_eq!(Arm::NU, 4);
    let x = [0.1, 0.2, 0.3, 0.4, -0.5, 0.6];
    let (mut d0, mut d1) = ([0.0; 6], [0.0; 6]);
    arm.rhs(0.0, &x, &mut d0)?;
    arm.rhs_u(0.0, &x, &[0.0; 4], &mut d1)?;
    assert_eq!(d0, d1);
    arm.rhs_u(0.0, &x, &[1.0, 0.5, 2.0, 0.3], &mut d1)?;
    assert!(d0 != d1);
    assert!(arm.rhs_u(0.0, &x, &[1.0], &mut d1).is_err());
    Ok(())
}
