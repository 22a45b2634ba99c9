//! Optimal motions (`nonholo::optimal`): whole solves beside CasADi + IPOPT on the same
//! transcription (`bench/python/optimal_casadi.py` times the same problems), and the
//! robot's model-predictive control step.
//!
//! Groups:
//! - `optimal_skate_park`: the knife edge parked 0.5 m beside itself (separated
//!   Hermite–Simpson, 41 nodes: 567 variables, 400 constraints), functions `exact_hessian`
//!   and `lbfgs`;
//! - `optimal_oscillator`: the driven oscillator from rest to rest (81 nodes), function
//!   `exact_hessian`;
//! - `optimal_lane_change`: the Whipple bicycle's lane change of
//!   `examples/bicycle_lane_change.rs` (41 nodes, 1 134 variables), function
//!   `exact_hessian` (`bench/python/optimal_casadi_bicycle.py` times it in CasADi);
//! - `optimal_parking`: the robot's parallel parking of `examples/robot_parking.rs` (61
//!   nodes, 1 331 variables, the adaptive barrier), function `exact_hessian`
//!   (`bench/python/optimal_casadi_parking.py`);
//! - `mpc_robot`: the differential-drive robot (9 states, 2 inputs) following a line at
//!   0.3 m/s under MPC at 50 Hz with a 1 s horizon of 20 nodes (trapezoidal): function
//!   `closed_loop_2s` (100 solves). The worst and median solve of that run are printed.
//!
//! `cargo bench -p nonholo-benches --bench optimal`

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::optimal::{Cost, Hessian, Mpc, PathConstraint, Problem, Scheme};
use nonholo::prelude::*;
use nonholo_test_models::optimal::{DrivenOscillator, SteeredSkate};
use std::hint::black_box;
use std::time::Duration;

fn skate_guess(skate: &SteeredSkate) -> Trajectory {
    let mut wiggle = |t: f64, _x: &[f64], u: &mut [f64]| {
        u[0] = 0.5 * (1.5 * t).cos();
        u[1] = 0.5 * (0.8 * t).sin();
    };
    simulate_controlled(skate, &mut wiggle, &[0.0; 5], 0.0..4.0, &Options::default()).unwrap()
}

fn skate_park<'m>(
    skate: &'m SteeredSkate,
    guess: &Trajectory,
    hessian: Hessian,
) -> Problem<'m, SteeredSkate> {
    Problem::new(skate, 41)
        .scheme(Scheme::HermiteSimpson)
        .duration(4.0)
        .initial_state(&[0.0; 5])
        .final_coordinates(&[("x", 0.0), ("y", 0.5), ("theta", 0.0)])
        .final_speeds(&[0.0, 0.0])
        .input_bounds("push", -2.0, 2.0)
        .input_bounds("turn", -1.0, 1.0)
        .minimize_input_effort(&[1.0, 1.0])
        .guess(guess)
        .hessian(hessian)
}

/// Follow the line `y = 0` at 0.3 m/s: the axle's distance to the moving reference point,
/// the heading, and the torques.
struct FollowLine;
impl Cost for FollowLine {
    fn running<S: Scalar>(&self, t: S, x: &[S], u: &[S]) -> S {
        let ex = x[0] - t * S::from_f64(0.3);
        (ex * ex + x[1] * x[1]) * S::from_f64(20.0)
            + x[2] * x[2]
            + (u[0] * u[0] + u[1] * u[1]) * S::from_f64(0.1)
    }
    fn terminal<S: Scalar>(&self, t: S, x: &[S]) -> S {
        let ex = x[0] - t * S::from_f64(0.3);
        (ex * ex + x[1] * x[1]) * S::from_f64(50.0)
    }
}

/// The lane change of `examples/bicycle_lane_change.rs`: upright at 5 m/s, 1 m to the
/// right in 3 s, least integral of the steer torque squared, the rider steering only.
fn lane_change(bike: &WhippleBicycle) -> Problem<'_, WhippleBicycle> {
    let mut x0 = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut x0[..8]).unwrap();
    x0[9] = -5.0 / bike.r_r;
    let coast = Options::default().rtol(1e-10).atol(1e-10);
    let guess = simulate(bike, &x0, 0.0..3.0, &coast).unwrap();
    let [roll_rate, _, steer_rate] = WhippleBicycle::SPEEDS else {
        unreachable!()
    };
    Problem::new(bike, 41)
        .scheme(Scheme::HermiteSimpson)
        .duration(3.0)
        .initial_state(&x0)
        .final_coordinates(&[
            ("y", 1.0),
            ("yaw", 0.0),
            ("roll", 0.0),
            ("steer", 0.0),
            (roll_rate, 0.0),
            (steer_rate, 0.0),
        ])
        .input_bounds("t_roll", 0.0, 0.0)
        .input_bounds("t_rear", 0.0, 0.0)
        .input_bounds("t_steer", -20.0, 20.0)
        .minimize_input_effort(&[0.0, 1.0, 0.0])
        .guess(&guess)
}

/// The parked robots of `examples/robot_parking.rs`: the squared distances of the axle's
/// midpoint to their centres.
struct ParkedRobots;
impl PathConstraint for ParkedRobots {
    fn len(&self) -> usize {
        2
    }
    fn values<S: Scalar>(&self, _t: S, state: &[S], _u: &[S], out: &mut [S]) {
        for (o, cx) in out.iter_mut().zip([-0.75, 0.75]) {
            let dx = state[0] - S::from_f64(cx);
            let dy = state[1] - S::from_f64(0.6);
            *o = dx * dx + dy * dy;
        }
    }
}

/// The parallel parking of `examples/robot_parking.rs`.
fn parking(
    robot: &DiffDriveRobot,
) -> Problem<'_, DiffDriveRobot, nonholo::optimal::NoCost, ParkedRobots> {
    let t_f = 8.0;
    let mut wiggle = |t: f64, _x: &[f64], u: &mut [f64]| {
        let turn = 0.15 * (std::f64::consts::PI * t / t_f * 2.0).sin();
        u[0] = 0.05 * (std::f64::consts::PI * t / t_f).cos() - turn;
        u[1] = 0.05 * (std::f64::consts::PI * t / t_f).cos() + turn;
    };
    let x0 = [0.0; DiffDriveRobot::DIM];
    let guess =
        simulate_controlled(robot, &mut wiggle, &x0, 0.0..t_f, &Options::default()).unwrap();
    Problem::new(robot, 61)
        .scheme(Scheme::HermiteSimpson)
        .duration(t_f)
        .initial_state(&x0)
        .final_coordinates(&[("x", 0.0), ("y", 0.6), ("th", 0.0)])
        .final_speeds(&[0.0, 0.0])
        .state_bounds("y", -0.5, 0.7)
        .input_bounds("t_l", -0.5, 0.5)
        .input_bounds("t_r", -0.5, 0.5)
        .minimize_input_effort(&[1.0, 1.0])
        .path(ParkedRobots, &[0.45 * 0.45; 2], &[f64::INFINITY; 2])
        .guess(&guess)
        .solver_options(|o| o.mu_strategy_adaptive = true)
}

fn robot_mpc_run(robot: &DiffDriveRobot) -> (f64, f64, Trajectory) {
    let problem = Problem::new(robot, 20)
        .duration(1.0)
        .input_bounds("t_l", -1.0, 1.0)
        .input_bounds("t_r", -1.0, 1.0)
        .cost(FollowLine);
    let mut mpc = Mpc::new(problem);
    let mut x0 = vec![0.0; DiffDriveRobot::DIM];
    x0[1] = 0.2; // 20 cm off the line
    let options = Options::default().control_period(0.02);
    let run = simulate_controlled(robot, &mut mpc, &x0, 0.0..2.0, &options).unwrap();
    let (worst, median) = mpc.worst_and_median_seconds().unwrap();
    (worst, median, run)
}

fn optimal(c: &mut Criterion) {
    let skate = SteeredSkate::default();
    let guess = skate_guess(&skate);
    let mut g = c.benchmark_group("optimal_skate_park");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    for (name, h) in [
        ("exact_hessian", Hessian::Exact),
        ("lbfgs", Hessian::LimitedMemory),
    ] {
        let p = skate_park(&skate, &guess, h);
        let sol = p.solve().unwrap();
        println!(
            "skate_park {name}: {} iterations, objective {:.14}",
            sol.iterations(),
            sol.objective()
        );
        g.bench_function(name, |b| b.iter(|| black_box(p.solve().unwrap())));
    }
    g.finish();

    let osc = DrivenOscillator::default();
    let mut g = c.benchmark_group("optimal_oscillator");
    g.sample_size(20);
    let p = Problem::new(&osc, 81)
        .scheme(Scheme::HermiteSimpson)
        .duration(3.0)
        .initial_state(&[0.0, 0.0])
        .final_state(&[1.0, 0.0])
        .minimize_input_effort(&[1.0]);
    g.bench_function("exact_hessian", |b| {
        b.iter(|| black_box(p.solve().unwrap()))
    });
    g.finish();

    let bike = WhippleBicycle::default();
    let p = lane_change(&bike);
    let sol = p.solve().unwrap();
    println!(
        "lane_change: {} iterations, objective {:.14}",
        sol.iterations(),
        sol.objective()
    );
    let mut g = c.benchmark_group("optimal_lane_change");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("exact_hessian", |b| {
        b.iter(|| black_box(p.solve().unwrap()))
    });
    g.finish();

    let robot = DiffDriveRobot::default();
    let p = parking(&robot);
    let sol = p.solve().unwrap();
    println!(
        "parking: {} iterations, objective {:.14}",
        sol.iterations(),
        sol.objective()
    );
    let mut g = c.benchmark_group("optimal_parking");
    g.sample_size(10).measurement_time(Duration::from_secs(60));
    g.bench_function("exact_hessian", |b| {
        b.iter(|| black_box(p.solve().unwrap()))
    });
    g.finish();

    let (worst, median, run) = robot_mpc_run(&robot);
    let (_, end) = run.last().unwrap();
    println!(
        "mpc_robot: 100 solves at 50 Hz, worst {:.2} ms, median {:.2} ms; after 2 s the axle is {:.3} m off the line",
        worst * 1e3,
        median * 1e3,
        end[1].abs()
    );
    let mut g = c.benchmark_group("mpc_robot");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("closed_loop_2s", |b| {
        b.iter(|| black_box(robot_mpc_run(&robot)))
    });
    g.finish();
}

criterion_group!(benches, optimal);
criterion_main!(benches);
