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
//!   `closed_loop_2s` (101 solves, t = 0 to 2 s, after the cold one of `Mpc::prepare`). The worst and
//!   median solve of that run are printed.
//!
//! With `--features ipopt` the lane change, the parking and the MPC run again with IPOPT
//! itself (the system library) as the NLP solver: functions `ipopt` and
//! `closed_loop_2s_ipopt`.
//!
//! `cargo bench -p nonholo-benches --bench optimal [--features ipopt]`

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::optimal::{Hessian, Solver};
use nonholo::prelude::*;
use nonholo_test_models::optimal::{
    lane_change, oscillator_transfer, parking, robot_line_mpc, skate_guess, skate_park,
    DrivenOscillator, SteeredSkate,
};
use std::hint::black_box;
use std::time::Duration;

/// The solvers each large problem is timed with, by the bench function's name.
fn solvers() -> Vec<(&'static str, Solver)> {
    #[cfg_attr(not(feature = "ipopt"), allow(unused_mut))]
    let mut v = vec![("exact_hessian", Solver::Ripopt)];
    #[cfg(feature = "ipopt")]
    v.push(("ipopt", Solver::Ipopt));
    v
}

/// The closed-loop run's solves, their worst and median time, and the run.
fn robot_mpc_run(robot: &DiffDriveRobot, solver: Solver) -> (usize, f64, f64, Trajectory) {
    let (mpc, run) = robot_line_mpc(robot, solver);
    let (worst, median) = mpc.worst_and_median_seconds().unwrap();
    (mpc.solve_seconds().len(), worst, median, run)
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
        let p = skate_park(&skate, &guess, 41).hessian(h);
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
    let p = oscillator_transfer(&osc);
    g.bench_function("exact_hessian", |b| {
        b.iter(|| black_box(p.solve().unwrap()))
    });
    g.finish();

    let bike = WhippleBicycle::default();
    let mut g = c.benchmark_group("optimal_lane_change");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (name, solver) in solvers() {
        let p = lane_change(&bike, 41).solver(solver);
        let sol = p.solve().unwrap();
        println!(
            "lane_change {name}: {} iterations, objective {:.14}",
            sol.iterations(),
            sol.objective()
        );
        g.bench_function(name, |b| b.iter(|| black_box(p.solve().unwrap())));
    }
    g.finish();

    let robot = DiffDriveRobot::default();
    let mut g = c.benchmark_group("optimal_parking");
    g.sample_size(10).measurement_time(Duration::from_secs(60));
    for (name, solver) in solvers() {
        let p = parking(&robot).solver(solver);
        let sol = p.solve().unwrap();
        println!(
            "parking {name}: {} iterations, objective {:.14}",
            sol.iterations(),
            sol.objective()
        );
        g.bench_function(name, |b| b.iter(|| black_box(p.solve().unwrap())));
    }
    g.finish();

    let mut g = c.benchmark_group("mpc_robot");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, solver) in solvers() {
        let (solves, worst, median, run) = robot_mpc_run(&robot, solver);
        let (_, end) = run.last().unwrap();
        println!(
            "mpc_robot {name}: {solves} solves at 50 Hz, worst {:.2} ms, median {:.2} ms; after 2 s the axle is {:.3} m off the line",
            worst * 1e3,
            median * 1e3,
            end[1].abs()
        );
        let function = match solver {
            Solver::Ripopt => "closed_loop_2s",
            _ => "closed_loop_2s_ipopt",
        };
        g.bench_function(function, |b| {
            b.iter(|| black_box(robot_mpc_run(&robot, solver)))
        });
    }
    g.finish();
}

criterion_group!(benches, optimal);
criterion_main!(benches);
