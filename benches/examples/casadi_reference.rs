//! The reference dumps that `bench/python/optimal_casadi_bicycle.py` and
//! `optimal_casadi_parking.py` read: each model's parameters, 20 samples of its right-hand
//! side (and the bicycle's configuration residual) for the CasADi derivation to be checked
//! against, and the problem's starting point, solution, iterations and best solve time.
//!
//! ```text
//! cargo run --profile bench -p nonholo-benches --example casadi_reference -- /tmp/casadi_ref
//! python bench/python/optimal_casadi_bicycle.py /tmp/casadi_ref/whipple_reference.json
//! python bench/python/optimal_casadi_parking.py /tmp/casadi_ref/nonholo_reference.json
//! ```

use nonholo::models::{DiffDriveRobot, WhippleBicycle};
use nonholo::optimal::{Cost, PathConstraint, Problem, Solution};
use nonholo::prelude::*;
use nonholo_test_models::optimal::{lane_change, parking};
use std::fmt::Write as _;
use std::time::Instant;

/// `[a, b, ...]` with every digit of each number.
fn list(v: &[f64]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", items.join(", "))
}

fn names(v: &[&str]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("\"{x}\"")).collect();
    format!("[{}]", items.join(", "))
}

/// A pseudo-random number in `[-1, 1)` (xorshift), the same on every run.
fn draw(s: &mut u64) -> f64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    (*s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// The starting point as `{"state", "u"}` per point, the solution's node states and inputs
/// (flat), its objective and iterations, and the best of five solves' wall time.
fn problem_json<M: Model + Sync, C: Cost, P: PathConstraint>(
    p: &Problem<'_, M, C, P>,
    dim: usize,
) -> (String, Solution) {
    let start = p.__start().expect("a starting point");
    let nz = dim + M::INPUTS.len();
    let guess: Vec<String> = start
        .chunks(nz)
        .map(|pt| {
            format!(
                "{{\"state\": {}, \"u\": {}}}",
                list(&pt[..dim]),
                list(&pt[dim..])
            )
        })
        .collect();
    let mut best = f64::INFINITY;
    let mut sol = None;
    for _ in 0..5 {
        let t = Instant::now();
        let s = p.solve().expect("the problem solves");
        best = best.min(t.elapsed().as_secs_f64());
        sol = Some(s);
    }
    let sol = sol.expect("five solves");
    let nodes = sol.times().len();
    let states: Vec<f64> = (0..nodes)
        .flat_map(|k| sol.state(k).expect("a node").to_vec())
        .collect();
    let inputs: Vec<f64> = (0..nodes)
        .flat_map(|k| sol.input(k).expect("a node").to_vec())
        .collect();
    let json = format!(
        "\"guess\": [{}], \"states\": {}, \"inputs\": {}, \"objective\": {:?}, \"iterations\": {}, \"solve_seconds_best\": {:?}",
        guess.join(", "),
        list(&states),
        list(&inputs),
        sol.objective(),
        sol.iterations(),
        best
    );
    println!(
        "{} iterations, objective {:.14}, best of 5 {:.1} ms",
        sol.iterations(),
        sol.objective(),
        best * 1e3
    );
    (json, sol)
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/casadi_ref".into());
    std::fs::create_dir_all(&dir).expect("the output folder");
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;

    // the Whipple bicycle: rhs at states with the pitch solved, the residual before and after
    let bike = WhippleBicycle::default();
    let mut samples = Vec::new();
    for _ in 0..20 {
        let mut x = [0.0; WhippleBicycle::DIM];
        for v in x.iter_mut() {
            *v = 0.5 * draw(&mut seed);
        }
        let u: Vec<f64> = (0..3).map(|_| 2.0 * draw(&mut seed)).collect();
        let unsolved_q = x[..WhippleBicycle::NQ].to_vec();
        let mut unsolved_conf = [0.0];
        bike.configuration_residual(0.0, &unsolved_q, &mut unsolved_conf)
            .expect("a residual");
        bike.solve_configuration(0.0, &mut x[..WhippleBicycle::NQ])
            .expect("the pitch");
        let mut conf = [0.0];
        bike.configuration_residual(0.0, &x[..WhippleBicycle::NQ], &mut conf)
            .expect("a residual");
        let mut dx = [0.0; WhippleBicycle::DIM];
        bike.rhs_u(0.0, &x, &u, &mut dx).expect("the rhs");
        samples.push(format!(
            "{{\"state\": {}, \"u\": {}, \"rhs\": {}, \"unsolved_q\": {}, \"unsolved_conf\": {}, \"conf\": {}}}",
            list(&x),
            list(&u),
            list(&dx),
            list(&unsolved_q),
            list(&unsolved_conf),
            list(&conf)
        ));
    }
    let p = lane_change(&bike, 41);
    let (problem, sol) = problem_json(&p, WhippleBicycle::DIM);
    let mut out = String::new();
    write!(
        out,
        "{{\"whipple\": {{\"coordinates\": {}, \"inputs\": {}, \"parameter_names\": {}, \"parameters\": {}, \"samples\": [{}], \"lane_change\": {{\"x0\": {}, {}}}}}}}",
        names(WhippleBicycle::COORDINATES),
        names(WhippleBicycle::INPUTS),
        names(WhippleBicycle::PARAMETERS),
        list(&bike.parameters()),
        samples.join(", "),
        list(sol.state(0).expect("the first node")),
        problem
    )
    .expect("a string");
    let path = format!("{dir}/whipple_reference.json");
    std::fs::write(&path, out).expect("the bicycle's dump");
    println!("wrote {path}");

    // the robot: rhs at random states and torques
    let robot = DiffDriveRobot::default();
    let mut samples = Vec::new();
    for _ in 0..20 {
        let x: Vec<f64> = (0..DiffDriveRobot::DIM).map(|_| draw(&mut seed)).collect();
        let u: Vec<f64> = (0..2).map(|_| draw(&mut seed)).collect();
        let mut dx = [0.0; DiffDriveRobot::DIM];
        robot.rhs_u(0.0, &x, &u, &mut dx).expect("the rhs");
        samples.push(format!(
            "{{\"state\": {}, \"u\": {}, \"rhs\": {}}}",
            list(&x),
            list(&u),
            list(&dx)
        ));
    }
    let p = parking(&robot);
    let (problem, _) = problem_json(&p, DiffDriveRobot::DIM);
    let out = format!(
        "{{\"robot\": {{\"coordinates\": {}, \"inputs\": {}, \"parameter_names\": {}, \"parameters\": {}, \"samples\": [{}], \"parking\": {{{}}}}}}}",
        names(DiffDriveRobot::COORDINATES),
        names(DiffDriveRobot::INPUTS),
        names(DiffDriveRobot::PARAMETERS),
        list(&robot.parameters()),
        samples.join(", "),
        problem
    );
    let path = format!("{dir}/nonholo_reference.json");
    std::fs::write(&path, out).expect("the robot's dump");
    println!("wrote {path}");
}
