//! A driver for profiles and for builds the criterion bench does not cover (other
//! `RUSTFLAGS`, `perf record`): the optimal bench's whole solves, one problem `n` times,
//! each solve's iterations, wall time and objective printed.
//!
//! ```text
//! cargo run --profile bench -p nonholo-benches --example optimal_solves -- <skate|osc|bike|park|dash|swing|swing-zero|mpc> [n] [ripopt|ipopt]
//! RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
//!     cargo run --profile bench -p nonholo-benches --example optimal_solves -- bike 5
//! ```
//!
//! `skate`, `osc`, `bike`, `park` and `mpc` are the groups of `benches/optimal.rs` (`mpc`:
//! each closed-loop run's worst and median solve and its five slowest); `dash` is the
//! robot's dash within the friction margin 0.05 (`examples/robot_dash.rs`), `swing` the
//! manipulator's (`examples/manipulator_swing.rs`; `swing-zero` from zero multipliers).
//! `ipopt` solves with the system library's IPOPT (`--features ipopt`), with IPOPT's own
//! options from `IPOPT_OPTIONS=name=value,...`. `CYCLIC=on` leaves every problem's cyclic
//! components to quadrature (`Problem::cyclic_by_quadrature`), `CYCLIC=off` keeps them
//! (the MPC's horizon leaves them unless `off`).

use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::optimal::{Cost, PathConstraint, Problem, Solver};
use nonholo::prelude::*;
use nonholo_test_models::optimal::{
    dash, lane_change, oscillator_transfer, parking, robot_line_horizon, robot_line_mpc_over,
    skate_guess, skate_park, swing, swing_robot, DrivenOscillator, SteeredSkate,
};
use std::time::Instant;

fn solves<M: Model + Sync, C: Cost, P: PathConstraint>(p: Problem<'_, M, C, P>, n: usize) {
    let p = with_options(p.solver(solver()));
    if !p.cyclic().is_empty() {
        println!("cyclic: {:?}", p.cyclic());
    }
    for _ in 0..n {
        let start = Instant::now();
        let sol = p.solve().expect("the problem solves");
        println!(
            "{} iterations, {:.2} ms, objective {:.14}",
            sol.iterations(),
            start.elapsed().as_secs_f64() * 1e3,
            sol.objective()
        );
    }
}

/// The problem with IPOPT's own options from `IPOPT_OPTIONS` (`name=value,...`; a value
/// that parses as an integer is one, then a number, else a string).
#[cfg(feature = "ipopt")]
fn with_options<M: Model + Sync, C: Cost, P: PathConstraint>(
    p: Problem<'_, M, C, P>,
) -> Problem<'_, M, C, P> {
    let mut p = cyclic(p);
    let options = std::env::var("IPOPT_OPTIONS").unwrap_or_default();
    for pair in options.split(',').filter(|s| !s.is_empty()) {
        let (name, value) = pair.split_once('=').expect("IPOPT_OPTIONS: name=value,...");
        p = if let Ok(i) = value.parse::<i32>() {
            p.ipopt_option(name, i)
        } else if let Ok(x) = value.parse::<f64>() {
            p.ipopt_option(name, x)
        } else {
            p.ipopt_option(name, value)
        };
    }
    p
}

#[cfg(not(feature = "ipopt"))]
fn with_options<M: Model + Sync, C: Cost, P: PathConstraint>(
    p: Problem<'_, M, C, P>,
) -> Problem<'_, M, C, P> {
    cyclic(p)
}

/// The problem with its cyclic components left to quadrature (`CYCLIC=on`) or kept
/// (`CYCLIC=off`); unset, as the problem states it (the MPC's horizon: on).
fn cyclic<M: Model + Sync, C: Cost, P: PathConstraint>(
    p: Problem<'_, M, C, P>,
) -> Problem<'_, M, C, P> {
    match std::env::var("CYCLIC").as_deref() {
        Ok("on") => p.cyclic_by_quadrature(true),
        Ok("off") => p.cyclic_by_quadrature(false),
        _ => p,
    }
}

/// The solver the third argument names.
fn solver() -> Solver {
    match std::env::args().nth(3).as_deref() {
        None | Some("ripopt") => Solver::Ripopt,
        #[cfg(feature = "ipopt")]
        Some("ipopt") => Solver::Ipopt,
        Some(other) => panic!("{other}: ripopt, or ipopt with --features ipopt"),
    }
}

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "bike".into());
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().expect("n: a count"))
        .unwrap_or(3);
    match what.as_str() {
        "skate" => {
            let skate = SteeredSkate::default();
            let guess = skate_guess(&skate);
            solves(skate_park(&skate, &guess, 41), n);
        }
        "osc" => {
            let osc = DrivenOscillator::default();
            solves(oscillator_transfer(&osc), n);
        }
        "bike" => {
            let bike = WhippleBicycle::default();
            solves(lane_change(&bike, 41), n);
        }
        "park" => {
            let robot = DiffDriveRobot::default();
            solves(parking(&robot), n);
        }
        "dash" => {
            let robot = DiffDriveRobot::default().with_mu(0.4);
            let p = dash(&robot, 21)
                .friction_margin_at_least(0.05)
                .solver_options(|o| o.least_squares_mult_init = false);
            solves(p, n);
        }
        "swing" | "swing-zero" => {
            // the manipulator's swing within the friction margin 0.05, from ripopt's
            // least-squares multipliers or from zero
            let robot = swing_robot();
            let zero = what == "swing-zero";
            let p = swing(&robot)
                .friction_margin_at_least(0.05)
                .solver_options(move |o| o.least_squares_mult_init = !zero);
            solves(p, n);
        }
        "mpc" => {
            let robot = DiffDriveRobot::default();
            for _ in 0..n {
                let (mpc, _) = robot_line_mpc_over(
                    &robot,
                    with_options(robot_line_horizon(&robot).solver(solver())),
                );
                let (worst, median) = mpc.worst_and_median_seconds().unwrap();
                println!(
                    "{} solves, worst {:.2} ms, median {:.2} ms",
                    mpc.solve_seconds().len(),
                    worst * 1e3,
                    median * 1e3
                );
                let slowest: Vec<String> = {
                    let mut by_time: Vec<(f64, usize, usize)> = mpc
                        .solve_seconds()
                        .iter()
                        .zip(mpc.iterations())
                        .enumerate()
                        .map(|(k, (s, it))| (*s, *it, k))
                        .collect();
                    by_time.sort_by(|a, b| b.0.total_cmp(&a.0));
                    by_time
                        .iter()
                        .take(5)
                        .map(|(s, it, k)| format!("#{k} {:.2} ms {it} it", s * 1e3))
                        .collect()
                };
                println!("  slowest: {}", slowest.join(", "));
            }
        }
        other => panic!("{other}: one of skate, osc, bike, park, dash, swing, swing-zero, mpc"),
    }
}
