//! Cyclic state components left to quadrature (`Problem::cyclic_by_quadrature`): which
//! components are cyclic, the same optimum as the transcription as written, and the
//! reconstructed components solving the scheme's defects.

use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::optimal::Solution;
use nonholo::prelude::*;
use nonholo_test_models::optimal::{dash, lane_change, robot_line_horizon};

/// The same objective (relative), states and inputs at every node.
fn same_optimum(a: &Solution, b: &Solution, nodes: usize, tol: f64) {
    assert!(
        (a.objective() - b.objective()).abs() <= 1e-9 * b.objective().abs(),
        "{} {}",
        a.objective(),
        b.objective()
    );
    for k in 0..nodes {
        let pairs = a.state(k).unwrap().iter().zip(b.state(k).unwrap());
        let inputs = a.input(k).unwrap().iter().zip(b.input(k).unwrap());
        for (x, y) in pairs.chain(inputs) {
            assert!((x - y).abs() <= tol * (1.0 + y.abs()), "node {k}: {x} {y}");
        }
    }
}

#[test]
fn what_nothing_reads_is_cyclic() {
    let robot = DiffDriveRobot::default();
    // the wheels' rolling angles; x, y, th are in the final conditions
    assert_eq!(dash(&robot, 5).cyclic(), ["phi_l", "phi_r", "phi_c"]);
    // the friction margin reads the loads, which do not depend on the rolling angles
    let margin = dash(&robot, 5).friction_margin_at_least(0.05);
    assert_eq!(margin.cyclic(), ["phi_l", "phi_r", "phi_c"]);
    // a final condition, a bound or a cost on a component keeps it
    let kept = dash(&robot, 5)
        .final_coordinates(&[("phi_l", 3.0)])
        .state_bounds("phi_r", -10.0, 10.0);
    assert_eq!(kept.cyclic(), ["phi_c"]);
    struct Spin;
    impl nonholo::optimal::Cost for Spin {
        fn running<S: Scalar>(&self, _t: S, x: &[S], _u: &[S]) -> S {
            x[6] * x[6]
        }
    }
    assert_eq!(dash(&robot, 5).cost(Spin).cyclic(), ["phi_l", "phi_r"]);
    // the line MPC's cost reads x (the reference runs along it)
    assert_eq!(
        robot_line_horizon(&robot).cyclic(),
        ["phi_l", "phi_r", "phi_c"]
    );
    // the bicycle: x (only y is asked for) and both wheels' angles; the pitch is solved
    // by the configuration constraint, not integrated
    let bike = WhippleBicycle::default();
    assert_eq!(lane_change(&bike, 5).cyclic(), ["x", "th_r", "th_f"]);
}

#[test]
fn left_to_quadrature_the_optimum_is_the_transcription_as_written() {
    let robot = DiffDriveRobot::default();
    let nodes = 11;
    let reduced = dash(&robot, nodes)
        .cyclic_by_quadrature(true)
        .solve()
        .unwrap();
    let written = dash(&robot, nodes).solve().unwrap();
    assert_eq!(reduced.cyclic(), ["phi_l", "phi_r", "phi_c"]);
    assert!(written.cyclic().is_empty());
    same_optimum(&reduced, &written, nodes, 1e-6);
    // the lane change (Hermite–Simpson, a configuration constraint at every point)
    let bike = WhippleBicycle::default();
    let nodes = 11;
    let reduced = lane_change(&bike, nodes)
        .cyclic_by_quadrature(true)
        .solve()
        .unwrap();
    let written = lane_change(&bike, nodes).solve().unwrap();
    assert_eq!(reduced.cyclic(), ["x", "th_r", "th_f"]);
    same_optimum(&reduced, &written, nodes, 1e-6);
    // about 15 m along at 5 m/s, by quadrature of the plan's own speeds
    let end = reduced.state(nodes - 1).unwrap();
    assert!((end[0] - 15.0).abs() < 0.1, "{}", end[0]);
}

#[test]
fn the_reconstructed_components_solve_the_trapezoidal_defects() {
    let robot = DiffDriveRobot::default();
    let mut x0 = [0.0; DiffDriveRobot::DIM];
    x0[1] = 0.2;
    x0[3] = 1.0; // a wheel angle to start from
    let plan = robot_line_horizon(&robot)
        .initial_state(&x0)
        .solve()
        .unwrap();
    assert_eq!(plan.cyclic(), ["phi_l", "phi_r", "phi_c"]);
    let nodes = plan.times().len();
    let h = plan.duration() / (nodes - 1) as f64;
    let f = |k: usize| {
        let mut dx = [0.0; DiffDriveRobot::DIM];
        robot
            .rhs_u(
                plan.times()[k],
                plan.state(k).unwrap(),
                plan.input(k).unwrap(),
                &mut dx,
            )
            .unwrap();
        dx
    };
    let mut spun = 0.0f64;
    for k in 0..nodes - 1 {
        let (a, b) = (plan.state(k).unwrap(), plan.state(k + 1).unwrap());
        let (fa, fb) = (f(k), f(k + 1));
        for j in [3, 4, 6] {
            let defect = b[j] - a[j] - 0.5 * h * (fa[j] + fb[j]);
            assert!(
                defect.abs() < 1e-12,
                "interval {k}, component {j}: {defect:e}"
            );
        }
        spun = spun.max((b[3] - x0[3]).abs());
    }
    assert_eq!(plan.state(0).unwrap()[3], 1.0);
    // the wheels do turn over the horizon
    assert!(spun > 0.5, "{spun}");
}
