//! A driver for instruction counts, which unlike times repeat exactly from run to run:
//! `rhs`, `contact_loads` or `jacobians` of the Whipple bicycle called `n` times, or the 3 s runs of the
//! `contacts` bench with the contact checks on or off.
//!
//! ```text
//! cargo build --profile bench -p nonholo-benches --example contact_counts
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/contact_counts <rhs|loads|jac|bike-on|bike-off|robot-on|robot-off> [n]
//! ```
//!
//! Subtract a run with `n = 0` (the process's own start) before dividing by `n`.

use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::prelude::*;
use nonholo::ContactLoad;
use std::hint::black_box;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "loads".into());
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().expect("n: a count"))
        .unwrap_or(1);
    let bike = WhippleBicycle::default();
    let mut bx = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut bx[..WhippleBicycle::NQ])
        .unwrap();
    bx[WhippleBicycle::NQ] = 0.5;
    bx[WhippleBicycle::NQ + 1] = -5.0 / bike.r_r;
    let robot = DiffDriveRobot::default();
    let mut rx = DiffDriveRobot::ZERO_STATE;
    rx[5] = 0.2;
    rx[DiffDriveRobot::NQ] = 8.0;
    rx[DiffDriveRobot::NQ + 1] = 10.0;
    let run = |on: bool| {
        Options::default()
            .rtol(1e-8)
            .atol(1e-8)
            .sample_every(0.01)
            .contact_checks(on)
    };
    let (u, mut d, mut l) = (
        [0.0; WhippleBicycle::NU],
        [0.0; WhippleBicycle::DIM],
        [ContactLoad::ZERO; 2],
    );
    let (mut a, mut b) = (
        [0.0; WhippleBicycle::DIM * WhippleBicycle::DIM],
        [0.0; WhippleBicycle::DIM * WhippleBicycle::NU],
    );
    for _ in 0..n {
        match what.as_str() {
            "rhs" => black_box(&bike)
                .rhs_u(0.0, black_box(&bx), &u, &mut d)
                .unwrap(),
            "jac" => black_box(&bike)
                .jacobians(0.0, black_box(&bx), &u, &mut a, &mut b)
                .unwrap(),
            "loads" => black_box(&bike)
                .contact_loads(0.0, black_box(&bx), &u, &mut l)
                .unwrap(),
            "bike-on" | "bike-off" => {
                black_box(simulate(&bike, &bx, 0.0..3.0, &run(what == "bike-on")).unwrap());
            }
            "robot-on" | "robot-off" => {
                black_box(simulate(&robot, &rx, 0.0..3.0, &run(what == "robot-on")).unwrap());
            }
            other => panic!("unknown measurement {other}"),
        }
    }
}
