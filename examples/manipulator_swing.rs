//! An arm swung fast on a base whose wheels must not slip: the mobile manipulator
//! (`nonholo::models::MobileManipulator`, a differential-drive base with a caster and a
//! six-joint arm; 13 coordinates, 8 speeds, 8 motor torques) on a slippery floor
//! (`mu = 0.1`), its base made heavier (30 kg, centre 0.15 m ahead of the axle) so that the
//! caster stays down, turns its arm about the vertical from -0.8 to 0.8 rad in 1 s, rest to
//! rest, the arm leaning back (shoulder -0.5, elbow 0.5), with the least integral of the
//! torques squared (the wrist's weighted 100) and the base back where it started. The swing
//! twists the base: the drive wheels must hold it with friction.
//!
//! Planned twice on 41 trapezoidal nodes: free, and with `.friction_margin_at_least(0.05)`,
//! every contact inside its cone, `(mu N)^2 - |F_t|^2 >= (0.05 mu N)^2` and `N >= 0`, at
//! every node. The free plan asks the drive wheels for about 2.3 times `mu N` as the swing
//! starts; the limited one spreads the swing's start and stop over time, keeps every contact
//! at most at 0.99875 of `mu N`, and costs 0.5% more.
//!
//! Each plan is replayed on the continuous model by `simulate_controlled`: its torques, plus
//! a PD law on the wheel and joint angles and rates towards the plan's own motion (the base's
//! place has no stiffness of its own: the limited plan's torques alone let it drift 3 cm
//! and a wheel slips at 0.56 s). The free plan's replay stops at once, a wheel slipping
//! (`Error::ContactLost`); the limited plan's rolls to the end.
//!
//! `cargo run --release --features optimal --example manipulator_swing` prints both plans,
//! each contact's largest friction use and least normal force, and how the replays end;
//! writes the limited plan as CSV (`manipulator_swing.csv`) into `target/plots` under the
//! crate's folder, or into the folder named by `NONHOLO_PLOTS`; with `--features
//! optimal,plot` it plots the left wheel's friction use in both plans
//! (`manipulator_swing_friction.svg`), with `--features optimal,viz` writes
//! `manipulator_swing.html`, where the limited plan's replay moves.
use nonholo::models::MobileManipulator as Robot;
use nonholo::optimal::{Problem, Scheme, Solution};
use nonholo::prelude::*;
use nonholo::InputSeries;

/// Where the joint angles start among the coordinates.
const ARM_Q: usize = 7;
/// The arm's pose during the swing: shoulder, elbow and wrist (q2..q6).
const POSE: [f64; 5] = [-0.5, 0.5, 0.0, 0.0, 0.0];

/// The plan's torques plus a PD law on the driven angles (wheels, joints) and their rates
/// towards the plan's motion: how a robot executes a plan.
struct Tracking {
    torques: InputSeries,
    plan: Trajectory,
    reference: Vec<f64>,
    /// The loop's bandwidth, rad/s: the gains are `w^2` and `2 w` (N m per rad).
    w: f64,
}

impl Controller for Tracking {
    fn control(&mut self, t: f64, state: &[f64], u: &mut [f64]) -> Result<(), Error> {
        self.torques.control(t, state, u)?;
        let end = *self.plan.times().last().unwrap_or(&0.0);
        self.plan.at_into(t.min(end), &mut self.reference)?;
        let (kp, kd) = (self.w * self.w, 2.0 * self.w);
        // input k drives angle `driven[k]`, whose rate is speed k
        let driven = [3, 4, 7, 8, 9, 10, 11, 12];
        for (k, &q) in driven.iter().enumerate() {
            let z = Robot::NQ + k;
            u[k] += kp * (self.reference[q] - state[q]) + kd * (self.reference[z] - state[z]);
        }
        Ok(())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let robot = Robot::default().with_m_c(30.0).with_c(0.15).with_mu(0.1);
    let (t_f, nodes, margin) = (1.0, 41, 0.05);
    let mut x0 = [0.0; Robot::DIM];
    x0[ARM_Q] = -0.8;
    x0[ARM_Q + 1..ARM_Q + 6].copy_from_slice(&POSE);
    let swing = || {
        let mut p = Problem::new(&robot, nodes)
            .scheme(Scheme::Trapezoidal)
            .duration(t_f)
            .initial_state(&x0)
            .final_coordinates(&[
                ("x", 0.0),
                ("y", 0.0),
                ("th", 0.0),
                ("q1", 0.8),
                ("q2", POSE[0]),
                ("q3", POSE[1]),
                ("q4", POSE[2]),
                ("q5", POSE[3]),
                ("q6", POSE[4]),
            ])
            .final_speeds(&[0.0; Robot::NZ])
            .minimize_input_effort(&[1.0, 1.0, 1.0, 1.0, 1.0, 100.0, 100.0, 100.0])
            .state_bounds("x", -0.05, 0.05)
            .state_bounds("y", -0.05, 0.05)
            .state_bounds("th", -0.2, 0.2);
        for (name, c) in ["q2", "q3", "q4", "q5", "q6"].into_iter().zip(POSE) {
            p = p.state_bounds(name, c - 0.2, c + 0.2);
        }
        for (j, name) in [
            "dot(q1)", "dot(q2)", "dot(q3)", "dot(q4)", "dot(q5)", "dot(q6)",
        ]
        .into_iter()
        .enumerate()
        {
            let rate = if j < 3 { 6.0 } else { 3.0 };
            p = p.state_bounds(name, -rate, rate);
        }
        p
    };
    let free = swing().solve()?;
    let limited = swing().friction_margin_at_least(margin).solve()?;
    let options = Options::default().rtol(1e-10).atol(1e-10);
    let mut replays = Vec::new();
    for (name, plan) in [("free", &free), ("limited", &limited)] {
        println!(
            "{name}: {} after {} iterations in {:.2} s, objective {:.4}, largest violation {:.1e}",
            plan.status(),
            plan.iterations(),
            plan.solve_seconds(),
            plan.objective(),
            plan.violation()
        );
        let (use_, least) = friction_use(&robot, plan)?;
        for (c, contact) in Robot::CONTACTS.iter().enumerate() {
            println!(
                "    {contact}: largest |F_t| / (mu N) {:.4}, least N {:.1} N",
                use_[c].iter().fold(0.0f64, |a, &b| a.max(b)),
                least[c]
            );
        }
        let mut tracking = Tracking {
            torques: plan.input_series()?,
            plan: plan.trajectory().clone(),
            reference: vec![0.0; Robot::DIM],
            w: 10.0,
        };
        match simulate_controlled(&robot, &mut tracking, &x0, 0.0..t_f, &options) {
            Ok(run) => {
                let loads = run.contact_loads(&robot)?;
                let worst = loads
                    .iter()
                    .flatten()
                    .fold(0.0f64, |a, l| a.max(l.utilization));
                let (_, end) = run.last().unwrap();
                println!(
                    "    replayed: rolls all the way, largest friction use {worst:.4}, ends at \
                     q1 = {:.4} rad with the base {:.1} mm from its start",
                    end[ARM_Q],
                    1e3 * end[0].hypot(end[1])
                );
                replays.push(run);
            }
            Err(stop) => println!("    replayed: {}", stop.error),
        }
    }
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots");
    let dir = nonholo::files::plots_dir(target)?;
    limited
        .trajectory()
        .write_csv(dir.join("manipulator_swing.csv"))?;
    println!("wrote {}", dir.join("manipulator_swing.csv").display());
    #[cfg(feature = "plot")]
    {
        let (free_use, _) = friction_use(&robot, &free)?;
        let (limited_use, _) = friction_use(&robot, &limited)?;
        let svg = dir.join("manipulator_swing_friction.svg");
        nonholo::plot::plot_series_svg(
            &svg,
            "|F_t| / (mu N) of the left wheel: free plan, limited plan",
            free.trajectory().times(),
            &[("free", &free_use[0]), ("limited", &limited_use[0])],
        )?;
        println!("wrote {}", svg.display());
    }
    #[cfg(feature = "viz")]
    if let Some(run) = replays.last() {
        use nonholo::viz::Animation;
        let page = dir.join("manipulator_swing.html");
        let look = Animation::default().title("an arm swung within the friction margin 0.05");
        run.animate_html(&robot, &page, &look)?;
        println!("wrote {}", page.display());
    }
    Ok(())
}

/// Per contact, the friction use `|F_t| / (mu N)` at every node of a plan.
type FrictionUse = Vec<Vec<f64>>;

/// Each contact's friction use at every node of the plan, and its least normal force.
fn friction_use(
    robot: &Robot,
    plan: &Solution,
) -> Result<(FrictionUse, Vec<f64>), Box<dyn std::error::Error>> {
    let loads = plan.trajectory().contact_loads(robot)?;
    let k = Robot::CONTACTS.len();
    let mut use_ = vec![Vec::new(); k];
    let mut least = vec![f64::INFINITY; k];
    for at in &loads {
        for (c, load) in at.iter().enumerate() {
            use_[c].push(load.utilization);
            least[c] = least[c].min(load.normal);
        }
    }
    Ok((use_, least))
}
