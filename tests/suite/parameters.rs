//! Bad parameters are named before a run starts (`Model::check_parameters`), as a new user
//! meets them: a thin disk with friction thrown at 3 m/s, given a negative friction
//! coefficient, a negative mass, moments of inertia no body has, or a radius of zero.

use nonholo::models::{Rattleback, TippeTop};
use nonholo::prelude::*;
use nonholo::Error;
use nonholo_test_models::contact_forces::DiskOnSlope;
use nonholo_test_models::hybrid_events::PainleveRod;

/// The disk thrown along its heading on level ground at 3 m/s, upright.
#[allow(clippy::result_large_err)]
fn throw(d: &DiskOnSlope) -> Result<Trajectory, nonholo::SimulationError> {
    let q0 = [0.0; 5];
    let qd0 = [3.0, 0.0, 0.0, 0.0, 0.0];
    simulate_hybrid(d, &q0, &qd0, 0.0..1.0, &Options::default())
}

fn level() -> DiskOnSlope {
    DiskOnSlope {
        alpha: 0.0,
        mu: 0.3,
        ..DiskOnSlope::default()
    }
}

/// The error a run of `d` ends with: a parameter error, before any step.
fn parameter_error(d: &DiskOnSlope) -> (&'static str, Vec<f64>, &'static str) {
    let e = throw(d).expect_err("a bad parameter");
    assert!(e.partial.is_empty(), "no step taken: {:?}", e.partial.len());
    match e.error {
        Error::Parameter {
            what,
            values,
            requirement,
        } => (what, values, requirement),
        other => panic!("not a parameter error: {other}"),
    }
}

#[test]
fn good_parameters_pass_and_the_disk_runs() {
    assert_eq!(level().check_parameters(), Ok(()));
    assert_eq!(Rattleback::default().check_parameters(), Ok(()));
    assert_eq!(TippeTop::default().check_parameters(), Ok(()));
    throw(&level()).expect("a throw");
}

#[test]
fn a_negative_friction_coefficient_is_named() {
    let d = DiskOnSlope {
        mu: -0.3,
        ..level()
    };
    let (what, values, requirement) = parameter_error(&d);
    assert_eq!(
        what,
        "the friction coefficient of contact `disk on slope` (mu)"
    );
    assert_eq!(values, [-0.3]);
    assert_eq!(requirement, "it must be zero or positive");
}

#[test]
fn a_negative_mass_is_named_not_taken_for_a_lift_off() {
    let d = DiskOnSlope { m: -1.3, ..level() };
    let (what, values, _) = parameter_error(&d);
    assert_eq!(what, "the mass of body `disk` (m)");
    assert_eq!(values, [-1.3]);
    // and before a plain run or a linearization too
    let state = [0.0; 8];
    let e = simulate(&d, &state, 0.0..1.0, &Options::default()).expect_err("a bad mass");
    assert!(matches!(e.error, Error::Parameter { .. }), "{}", e.error);
    let spec = Linearize::default();
    let e = linearize(&d, 0.0, &state, &spec).expect_err("a bad mass");
    assert!(matches!(e, Error::Parameter { .. }), "{e}");
}

#[test]
fn moments_no_body_has_and_a_zero_radius_are_named() {
    // the rattleback's moments with one too large for the other two: 2e-4 + 1.6e-3 < 2e-3
    let shell = Rattleback {
        i_c: 2.0e-3,
        ..Rattleback::default()
    };
    let Err(Error::Parameter {
        what,
        values,
        requirement,
    }) = shell.check_parameters()
    else {
        panic!("moments that break the triangle inequality")
    };
    assert_eq!(
        what,
        "the principal moments of inertia of body `shell` about its centre of mass"
    );
    assert_eq!(values.len(), 3);
    assert_eq!(
        requirement,
        "each principal moment must be at most the sum of the other two"
    );
    let d = DiskOnSlope { r: 0.0, ..level() };
    let (what, _, requirement) = parameter_error(&d);
    // its moments m r^2 / 4, m r^2 / 2 are then zero, which a point mass has: the radius
    // is what is named
    assert_eq!(what, "the radius of contact `disk on slope` (r)");
    assert_eq!(requirement, "it must be positive");
    let top = TippeTop {
        r: -0.015,
        ..TippeTop::default()
    };
    assert!(matches!(
        top.check_parameters(),
        Err(Error::Parameter { what, .. }) if what.starts_with("the sphere's radius of contact `top on ground`")
    ));
}

#[test]
fn a_disk_lying_flat_is_a_singular_contact_named_not_painleve() {
    // lean = 90 degrees: the axle along the normal, the contact point undetermined
    let d = level();
    let q0 = [0.0, 0.0, 0.0, core::f64::consts::FRAC_PI_2, 0.0];
    let qd0 = [3.0, 0.0, 0.0, 0.0, 0.0];
    let e = simulate_hybrid(&d, &q0, &qd0, 0.0..1.0, &Options::default()).expect_err("flat");
    match e.error {
        Error::SingularContact { contact, t, .. } => {
            assert_eq!(contact, "disk on slope");
            assert_eq!(t, 0.0);
        }
        other => panic!("not a singular contact: {other}"),
    }
    // flat to round-off, sliding or starting to roll, spinning: named too, before any
    // solve that round-off (cos(pi/2) = 6e-17) would let pass
    let half_pi = core::f64::consts::FRAC_PI_2;
    for (lean, qd0) in [
        (half_pi - 1e-12, [3.0, 0.0, 0.0, 0.0, 0.0]),
        (-half_pi, [3.0, 1.0, 0.0, 0.0, 0.0]),
        (half_pi, [0.0; 5]),
        (half_pi + 1e-13, [0.0, 0.0, 0.0, 0.0, 2.0]),
    ] {
        let q0 = [0.0, 0.0, 0.0, lean, 0.0];
        let e = simulate_hybrid(&d, &q0, &qd0, 0.0..1.0, &Options::default())
            .expect_err("flat")
            .error;
        assert!(
            matches!(e, Error::SingularContact { contact: "disk on slope", t, .. } if t == 0.0),
            "{lean} {qd0:?}: {e}"
        );
    }
    // its loads: the rolling model's mass matrix is singular there already (to 1e-8 of
    // flat), a clear error with the time and the state
    let mut loads = [nonholo::ContactLoad::ZERO];
    let mut state = vec![0.0; DiskOnSlope::DIM];
    for off in [0.0, 1e-12, 1e-8] {
        state[3] = half_pi - off;
        let e = d.contact_loads(0.0, &state, &[], &mut loads);
        assert!(matches!(e, Err(Error::SingularMassMatrix { .. })), "{e:?}");
    }
}

/// The friction coefficient above which Painlevé's rod cannot slide with its foot moving
/// away from its centre of mass's side (`PainleveRod`'s doc: `k = 0`).
fn painleve_threshold(rod: &PainleveRod, theta: f64) -> f64 {
    let (s, c) = theta.sin_cos();
    (1.0 + 3.0 * c * c) / (3.0 * c * (s + rod.rho / rod.l))
}

/// Thrown with its foot sliding at `v` along `x` (negative: away from G's side), at rest in
/// `theta`, for `t1`.
#[allow(clippy::result_large_err)]
fn slide_rod(
    rod: &PainleveRod,
    theta: f64,
    v: f64,
    t1: f64,
) -> Result<Trajectory, nonholo::SimulationError> {
    simulate_hybrid(
        rod,
        &[0.0, 0.0, theta],
        &[v, 0.0, 0.0],
        0.0..t1,
        &Options::default(),
    )
}

#[test]
fn painleves_rod_is_named_inside_its_region_and_slides_outside() {
    // tan(theta) = 2, where the point rod's threshold is lowest (4/3); the sphere's radius
    // lowers it
    let theta = 2.0f64.atan();
    let base = PainleveRod::default();
    let mu_star = painleve_threshold(&base, theta);
    let point = PainleveRod { rho: 0.0, ..base };
    assert!((painleve_threshold(&point, theta) - 4.0 / 3.0).abs() < 1e-12);
    assert!(mu_star < 4.0 / 3.0, "{mu_star}");
    // inside: sliding would need a negative normal force
    let inside = PainleveRod {
        mu: 1.02 * mu_star,
        ..base
    };
    let e = slide_rod(&inside, theta, -1.0, 0.2).expect_err("Painlevé");
    match e.error {
        Error::Painleve { contact, t, state } => {
            assert_eq!(contact, "rod on ground");
            assert_eq!(t, 0.0);
            assert_eq!(state.len(), 6);
            assert!((state[2] - theta).abs() < 1e-15 && state[3] == -1.0);
        }
        other => panic!("not Painlevé: {other}"),
    }
    // just outside it slides, pressing on the ground
    let outside = PainleveRod {
        mu: 0.98 * mu_star,
        ..base
    };
    let tr = slide_rod(&outside, theta, -1.0, 0.01).expect("sliding below the threshold");
    assert!(tr.sliding(0).unwrap()[0]);
    let loads = tr.contact_loads(&outside).expect("loads");
    assert!(loads[0][0].normal > 0.0, "{}", loads[0][0].normal);
    // and the other way, towards G's side, friction helps: no paradox at any mu
    let towards = slide_rod(&inside, theta, 1.0, 0.01).expect("sliding towards G's side");
    assert!(towards.sliding(0).unwrap()[0]);
}

nonholonomic! {
    /// A thin disk whose centre is given by coordinates, its height solved from the
    /// contact: the contact point follows from the lean (`1 / cos(lean)` in its rows).
    pub struct FreeDisk;
    parameters { m = 1.3, r = 0.4, g = 9.81, mu = 0.3 }
    coordinates { x, y, z, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point C = O + N[x, y, z];
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, solve: z, friction: mu }
    dependent { x, y, z }
}

#[test]
fn a_free_disk_lying_flat_is_a_singular_contact() {
    // its contact point, rows and released terms are 0/0 there: the flat contact is
    // named, not the terms' NaNs
    let d = FreeDisk::default();
    let half_pi = core::f64::consts::FRAC_PI_2;
    for (lean, qd0) in [
        (half_pi, [3.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        (half_pi - 1e-12, [3.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        (half_pi - 1e-12, [0.0; 6]),
        (half_pi + 1e-13, [0.0, 0.0, 0.0, 0.0, 0.0, 2.0]),
    ] {
        let mut q0 = [0.0, 0.0, 0.0, 0.0, lean, 0.0];
        d.solve_configuration(0.0, &mut q0).unwrap();
        let e = simulate_hybrid(&d, &q0, &qd0, 0.0..1.0, &Options::default())
            .expect_err("flat")
            .error;
        assert!(
            matches!(e, Error::SingularContact { contact: "disk on ground", t, .. } if t == 0.0),
            "{lean} {qd0:?}: {e}"
        );
    }
}
