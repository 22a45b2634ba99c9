//! A driver for profiles and for builds the criterion bench does not cover (other
//! `RUSTFLAGS`, `perf record`): the optimal bench's whole solves, one problem `n` times,
//! each solve's iterations, wall time and objective printed.
//!
//! ```text
//! cargo run --profile bench -p nonholo-benches --example optimal_solves -- <skate|osc|bike|park|dash> [n]
//! RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
//!     cargo run --profile bench -p nonholo-benches --example optimal_solves -- bike 5
//! ```
//!
//! `skate`, `osc`, `bike` and `park` are the groups of `benches/optimal.rs`; `dash` is the
//! robot's dash within the friction margin 0.05 (`examples/robot_dash.rs`).

use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::optimal::{Cost, PathConstraint, Problem, Scheme};
use nonholo::prelude::*;
use nonholo_test_models::optimal::{
    lane_change, parking, skate_guess, skate_park, DrivenOscillator, SteeredSkate,
};
use std::time::Instant;

fn solves<M: Model, C: Cost, P: PathConstraint>(p: &Problem<'_, M, C, P>, n: usize) {
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
            solves(&skate_park(&skate, &guess, 41), n);
        }
        "osc" => {
            let osc = DrivenOscillator::default();
            let p = Problem::new(&osc, 81)
                .scheme(Scheme::HermiteSimpson)
                .duration(3.0)
                .initial_state(&[0.0, 0.0])
                .final_state(&[1.0, 0.0])
                .minimize_input_effort(&[1.0]);
            solves(&p, n);
        }
        "bike" => {
            let bike = WhippleBicycle::default();
            solves(&lane_change(&bike, 41), n);
        }
        "park" => {
            let robot = DiffDriveRobot::default();
            solves(&parking(&robot), n);
        }
        "dash" => {
            let robot = DiffDriveRobot::default().with_mu(0.4);
            let p = Problem::new(&robot, 21)
                .scheme(Scheme::HermiteSimpson)
                .duration(1.0)
                .initial_state(&[0.0; DiffDriveRobot::DIM])
                .final_coordinates(&[("x", 0.5), ("y", 0.0), ("th", 0.0)])
                .final_speeds(&[0.0, 0.0])
                .minimize_input_effort(&[1.0, 1.0])
                .friction_margin_at_least(0.05);
            solves(&p, n);
        }
        other => panic!("{other}: one of skate, osc, bike, park, dash"),
    }
}
