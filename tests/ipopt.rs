//! The optional IPOPT backend (`cargo test --features ipopt --test ipopt`; the system
//! library, Debian's `coinor-libipopt-dev`): the programs ripopt solves, solved by IPOPT
//! itself through its C interface, reach the same optima; its failures are the
//! problem's errors with IPOPT's status; a panicking cost is the caller's panic again.

use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::optimal::{Cost, Problem, Scheme, Solution, Solver, Status};
use nonholo::prelude::*;
use nonholo_test_models::optimal::{lane_change, parking, robot_line_mpc, DrivenMass};

#[test]
fn ipopt_moves_a_mass_rest_to_rest_exactly() {
    // x = 3t^2 - 2t^3, f = 6 - 12t, cost 12: exact under Hermite-Simpson
    let sol = Problem::new(&DrivenMass::default(), 11)
        .scheme(Scheme::HermiteSimpson)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .minimize_input_effort(&[1.0])
        .solver(Solver::Ipopt)
        .solve()
        .unwrap();
    assert_eq!(sol.status(), Status::Optimal);
    assert!((sol.objective() - 12.0).abs() < 1e-9, "{}", sol.objective());
    for (k, &t) in sol.times().iter().enumerate() {
        let x = sol.state(k).unwrap();
        assert!((x[0] - (3.0 * t * t - 2.0 * t.powi(3))).abs() < 1e-9);
        assert!((sol.input(k).unwrap()[0] - (6.0 - 12.0 * t)).abs() < 1e-9);
    }
    // a quadratic program with the exact Hessian: one Newton step
    assert!(sol.exact_hessian() && sol.iterations() <= 2);
}

/// Asserts that two plans of one problem agree: the objectives to 1e-6 relative, the
/// states and inputs to 1e-5 relative to their sizes.
fn agree(a: &Solution, b: &Solution) {
    let rel = (a.objective() - b.objective()).abs() / b.objective().abs();
    assert!(rel < 1e-6, "objectives {} {}", a.objective(), b.objective());
    let worst = |x: &[f64], y: &[f64]| {
        assert_eq!(x.len(), y.len());
        x.iter()
            .zip(y)
            .map(|(p, q)| (p - q).abs() / (1.0 + q.abs()))
            .fold(0.0, f64::max)
    };
    let d = worst(a.states(), b.states()).max(worst(a.inputs(), b.inputs()));
    assert!(d < 1e-5, "plans {d:e} apart");
}

#[test]
fn ipopt_and_ripopt_change_lanes_alike() {
    let bike = WhippleBicycle::default();
    let ripopt = lane_change(&bike, 21).solve().unwrap();
    let ipopt = lane_change(&bike, 21)
        .solver(Solver::Ipopt)
        .solve()
        .unwrap();
    agree(&ipopt, &ripopt);
    assert!(ipopt.violation() < 1e-8 && ipopt.exact_hessian());
}

#[test]
fn ipopt_parks_the_robot_where_ripopt_does() {
    let robot = DiffDriveRobot::default();
    let ripopt = parking(&robot).solve().unwrap();
    let ipopt = parking(&robot).solver(Solver::Ipopt).solve().unwrap();
    agree(&ipopt, &ripopt);
}

#[test]
fn ipopt_drives_the_robot_onto_the_line_by_mpc() {
    let robot = DiffDriveRobot::default();
    let (mpc, run) = robot_line_mpc(&robot, Solver::Ipopt);
    // 2 s at 50 Hz: 101 solves, warm-started (a few iterations each)
    assert_eq!(mpc.iterations().len(), 101);
    let mean = mpc.iterations().iter().sum::<usize>() as f64 / 101.0;
    assert!(mean < 6.0, "{mean} iterations a solve");
    let (_, end) = run.last().unwrap();
    assert!(end[1].abs() < 0.02, "y at the end: {}", end[1]);
}

#[test]
fn an_infeasible_problem_is_ipopts_status() {
    // 1 m in 1 s from rest to rest needs |f| = 6 at the ends: 0.5 cannot
    let e = Problem::new(&DrivenMass::default(), 11)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .input_bounds("f", -0.5, 0.5)
        .minimize_input_effort(&[1.0])
        .solver(Solver::Ipopt)
        .solve()
        .unwrap_err();
    match e {
        Error::NotSolved { status, .. } => assert!(
            status == "Infeasible_Problem_Detected" || status == "Restoration_Failed",
            "{status}"
        ),
        other => panic!("{other}"),
    }
}

/// `f^2`, which panics past `|f| = 2`: the solver's first step goes to the optimum's
/// `|f| = 6`, the probes before it stay within `|f| < 0.5` of the guess's zero.
struct Panics;
impl Cost for Panics {
    fn running<S: Scalar>(&self, _t: S, _x: &[S], u: &[S]) -> S {
        assert!(u[0].re().abs() <= 2.0, "a cost that panics");
        u[0] * u[0]
    }
}

#[test]
fn a_panicking_cost_panics_through_ipopt() {
    // unwinding may not cross IPOPT's C frames: the panic is caught in the callback,
    // IPOPT stopped, and the panic raised again in the caller
    let mass = DrivenMass::default();
    let p = Problem::new(&mass, 5)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .cost(Panics)
        .solver(Solver::Ipopt);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| p.solve()));
    let payload = caught.unwrap_err();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned());
    assert_eq!(message.as_deref(), Some("a cost that panics"));
}

#[test]
fn ipopts_own_options_pass_through_and_a_wrong_one_is_an_error() {
    let mass = DrivenMass::default();
    let p = Problem::new(&mass, 11)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .minimize_input_effort(&[1.0])
        .solver(Solver::Ipopt)
        .ipopt_option("mu_strategy", "adaptive")
        .ipopt_option("max_iter", 0)
        .ipopt_option("tol", 1e-10);
    // not one iteration from the straight-line guess: the cap took, over the problem's 3000
    let e = p.solve().unwrap_err();
    assert!(
        matches!(&e, Error::NotSolved { status, .. } if status == "Maximum_Iterations_Exceeded"),
        "{e}"
    );
    for wrong in [
        Problem::new(&mass, 11)
            .solver(Solver::Ipopt)
            .ipopt_option("no_such_option", 1.0),
        // a string option given a number
        Problem::new(&mass, 11)
            .solver(Solver::Ipopt)
            .ipopt_option("mu_strategy", 1.0),
        Problem::new(&mass, 11)
            .solver(Solver::Ipopt)
            .ipopt_option("mu_strategy", "nonsense"),
        Problem::new(&mass, 11)
            .solver(Solver::Ipopt)
            .ipopt_option("bad\0name", 1),
        // a string value with a NUL byte, refused when stated
        Problem::new(&mass, 11)
            .solver(Solver::Ipopt)
            .ipopt_option("mu_strategy", "adap\0tive"),
    ] {
        let e = wrong
            .initial_state(&[0.0, 0.0])
            .minimize_input_effort(&[1.0])
            .solve();
        assert!(matches!(e, Err(Error::InvalidOptions(_))), "{e:?}");
    }
}
