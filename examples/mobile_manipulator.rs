//! A mobile manipulator (`nonholo::models::MobileManipulator`: a differential-drive base
//! with a castor, three rolling contacts, and a six-joint arm; 13 coordinates, 8 speeds,
//! 8 motor torques) picking up speed while its arm swings from upright to a reaching pose
//! and back.
//!
//! 1. The holding torques of the reaching pose: the joint torques `u0` with zero
//!    acceleration at rest, from the exact `jacobians` (`f(x, u) = f(x, 0) + B u`).
//! 2. The arm linearized about that pose (`linearize` keeping the joint angles and rates,
//!    with the joint torques as inputs at `u0`): the open loop is unstable (the arm falls);
//!    `control::discretize` and `control::dlqr` give the 100 Hz gain and its poles.
//! 3. The same at eleven poses from upright to reaching, a gain for each: the arm's
//!    inertia changes along the way (upright, the wrist's rolls turn about one axis and
//!    carry almost nothing), and the reaching pose's gain makes the upright loop unstable.
//! 4. A 100 Hz sampled controller: wheel-rate PI driving the base at 0.4 m/s on a gentle
//!    curve, and for the arm the holding torques of the current configuration plus the
//!    scheduled LQR gain on the error to a reference that moves between the poses.
//!
//! `cargo run --release --example mobile_manipulator`; with `--features viz` it also writes
//! `target/plots/mobile_manipulator.html` (open it in a browser), a `.gif` and a still of
//! the arm reaching at 3 s (`.png`).
use nonholo::control::{discretize, dlqr, Lqr};
use nonholo::models::MobileManipulator as Robot;
use nonholo::nalgebra::{DMatrix, DVector};
use nonholo::prelude::*;
use nonholo::Linearization;

const NQ: usize = Robot::NQ;
const DIM: usize = Robot::DIM;
const NU: usize = Robot::NU;
/// Where the joint angles start among the coordinates and the joint rates among the state.
const ARM_Q: usize = 7;
const ARM_Z: usize = NQ + 2;

/// The reaching pose: the arm turned a little, shoulder and elbow bent forward, the wrist
/// pitched down.
const REACH: [f64; 6] = [0.3, 0.7, 0.9, 0.2, 0.6, 0.0];

/// The joint torques that hold the arm still at `state`'s configuration (speeds zeroed):
/// `f(x, 0) + B u = 0` on the joint-rate rows, wheels unpowered.
fn holding_torques(robot: &Robot, state: &[f64]) -> Result<[f64; 6], Error> {
    let mut x = [0.0; DIM];
    x[..NQ].copy_from_slice(&state[..NQ]);
    let mut f = [0.0; DIM];
    robot.rhs_u(0.0, &x, &[0.0; NU], &mut f)?;
    let (mut a, mut b) = ([0.0; DIM * DIM], [0.0; DIM * NU]);
    robot.jacobians(0.0, &x, &[0.0; NU], &mut a, &mut b)?;
    let rows = DMatrix::from_fn(6, 6, |i, j| b[(ARM_Z + i) * NU + 2 + j]);
    let rhs = DVector::from_fn(6, |i, _| -f[ARM_Z + i]);
    let u = rows.lu().solve(&rhs).ok_or(Error::SingularMassMatrix {
        t: 0.0,
        state: x.to_vec(),
    })?;
    Ok([u[0], u[1], u[2], u[3], u[4], u[5]])
}

/// How far along from upright (0) to `REACH` (1) the arm's reference is at time t: out
/// and back, smoothly.
fn progress(t: f64) -> f64 {
    let s = |a: f64, b: f64| {
        let x = ((t - a) / (b - a)).clamp(0.0, 1.0);
        x * x * (3.0 - 2.0 * x)
    };
    s(0.5, 2.5) - s(4.5, 6.5)
}

/// The arm's reference at time t.
fn reference(t: f64) -> [f64; 6] {
    let w = progress(t);
    REACH.map(|r| w * r)
}

const JOINTS: [&str; 6] = ["q1", "q2", "q3", "q4", "q5", "q6"];
const RATES: [&str; 6] = [
    "dot(q1)", "dot(q2)", "dot(q3)", "dot(q4)", "dot(q5)", "dot(q6)",
];
const TORQUES: [&str; 6] = ["tau1", "tau2", "tau3", "tau4", "tau5", "tau6"];

/// The arm linearized at rest at `joints` (joint angles and rates kept, joint torques as
/// inputs at the holding torques) and its 100 Hz LQR design.
fn design(robot: &Robot, joints: &[f64; 6], dt: f64) -> Result<(Linearization, Lqr), Error> {
    let mut pose = [0.0; DIM];
    pose[ARM_Q..ARM_Q + 6].copy_from_slice(joints);
    let mut u0 = [0.0; NU];
    u0[2..].copy_from_slice(&holding_torques(robot, &pose)?);
    let keep: Vec<&str> = JOINTS.iter().chain(&RATES).copied().collect();
    let spec = Linearize::new().keep(&keep).inputs(&TORQUES).at_inputs(&u0);
    let lin = linearize(robot, 0.0, &pose, &spec)?;
    let (ad, bd) = discretize(&lin.a, &lin.b, dt)?;
    // stiff on the angles, light on the rates; the wrist's rolls (q4, q6) carry little
    // inertia about their axes, so their torque costs a little more
    let q = DMatrix::from_diagonal(&DVector::from_fn(
        12,
        |i, _| if i < 6 { 400.0 } else { 4.0 },
    ));
    let r = DMatrix::from_diagonal(&DVector::from_row_slice(&[1.0, 1.0, 1.0, 2.0, 1.0, 2.0]));
    let lqr = dlqr(&ad, &bd, &q, &r)?;
    Ok((lin, lqr))
}

struct Driver {
    /// The gains designed at `progress` 0, 0.1, .., 1.
    gains: Vec<DMatrix<f64>>,
    integral: [f64; 2],
    dt: f64,
    robot: Robot,
}

impl Controller for Driver {
    fn control(&mut self, t: f64, x: &[f64], u: &mut [f64]) -> Result<(), Error> {
        // the base: 0.4 m/s on a 3 m curve, wheel-rate PI
        let v = 0.4 * (t / 1.0).min(1.0);
        let w = v / 3.0;
        let (r, b) = (self.robot.r, self.robot.b);
        let want = [(v - w * b) / r, (v + w * b) / r];
        for k in 0..2 {
            let error = want[k] - x[NQ + k];
            self.integral[k] += error * self.dt;
            u[k] = 2.0 * error + 10.0 * self.integral[k];
        }
        // the arm: hold the current configuration, LQR on the error to the reference
        let hold = holding_torques(&self.robot, x)?;
        let goal = reference(t);
        let error = DVector::from_fn(12, |i, _| {
            if i < 6 {
                x[ARM_Q + i] - goal[i]
            } else {
                x[ARM_Z + i - 6]
            }
        });
        let k = &self.gains[(progress(t) * 10.0).round() as usize];
        let tau = -k * error;
        for j in 0..6 {
            u[2 + j] = hold[j] + tau[j];
        }
        Ok(())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let robot = Robot::default();
    // 1. the reaching pose and its holding torques
    let mut pose = [0.0; DIM];
    pose[ARM_Q..ARM_Q + 6].copy_from_slice(&REACH);
    let hold = holding_torques(&robot, &pose)?;
    println!("holding torques at the reaching pose (N m): {hold:.3?}");
    let mut u0 = [0.0; NU];
    u0[2..].copy_from_slice(&hold);
    let mut check = [0.0; DIM];
    robot.rhs_u(0.0, &pose, &u0, &mut check)?;
    let worst = check.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    println!("  largest acceleration with them applied: {worst:.1e}");

    // 2. the arm linearized about the pose
    let dt = 0.01;
    let (lin, reach) = design(&robot, &REACH, dt)?;
    let open = lin.eigenvalues()?;
    let unstable: Vec<_> = open.iter().filter(|e| e.re > 1e-6).collect();
    println!(
        "arm linearized at the pose: {} states, {} inputs; unstable open-loop poles {unstable:.3?}",
        lin.a.nrows(),
        lin.b.ncols()
    );
    let modulus = |l: &Lqr| l.poles.iter().map(|p| p.norm()).fold(0.0, f64::max);
    println!(
        "100 Hz LQR there: largest closed-loop pole modulus {:.4} (time constant {:.3} s)",
        modulus(&reach),
        -dt / modulus(&reach).ln()
    );

    // 3. a gain for every tenth of the way
    let mut gains = Vec::with_capacity(11);
    for k in 0..=10 {
        let w = f64::from(k) / 10.0;
        let (lin, lqr) = design(&robot, &REACH.map(|r| w * r), dt)?;
        if k == 0 {
            let (ad, bd) = discretize(&lin.a, &lin.b, dt)?;
            let crossed = nonholo::eigenvalues(&(&ad - &bd * &reach.k))?;
            let worst = crossed.iter().map(|p| p.norm()).fold(0.0, f64::max);
            println!(
                "upright: its own gain's largest pole modulus {:.4}; the reaching pose's gain \
                 would give {worst:.2} (unstable)",
                modulus(&lqr)
            );
        }
        gains.push(lqr.k);
    }

    // 4. ride with the arm moving
    let mut driver = Driver {
        gains,
        integral: [0.0; 2],
        dt,
        robot,
    };
    let x0 = [0.0; DIM];
    let options = Options::default().control_period(dt).sample_every(0.02);
    // With the wheels' friction mu = 0.8 the run stops where a wheel would slip or lift
    // (Options::contact_checks); the rest of the ride assumes they grip.
    let fresh = |driver: &Driver| Driver {
        gains: driver.gains.clone(),
        integral: [0.0; 2],
        dt,
        robot,
    };
    let mut checked = fresh(&driver);
    match simulate_controlled(&robot, &mut checked, &x0, 0.0..8.0, &options) {
        Ok(_) => println!("the wheels grip all the way (mu = {})", robot.mu),
        Err(nonholo::SimulationError {
            error:
                Error::ContactLost {
                    contact,
                    event,
                    t,
                    state,
                },
            partial,
        }) => {
            // the inputs held there: the last sample's
            let u = partial.input(partial.len() - 1).ok_or("no inputs")?;
            let mut loads = [nonholo::ContactLoad::ZERO; 3];
            robot.contact_loads(t, &state, u, &mut loads)?;
            let l = loads[Robot::CONTACTS
                .iter()
                .position(|c| *c == contact)
                .unwrap_or(0)];
            println!(
                "with mu = {}: at t = {t:.3} s the {contact} contact {event} (normal {:.1} N, \
                 longitudinal {:.1} N, lateral {:.1} N); the ride below assumes it grips",
                robot.mu, l.normal, l.longitudinal, l.lateral,
            );
        }
        Err(e) => return Err(e.into()),
    }
    let options = options.contact_checks(false);
    let tr = simulate_controlled(&robot, &mut driver, &x0, 0.0..8.0, &options)?;
    let times = tr.times();
    let mut worst_track = [0.0f64; 6];
    for (i, t) in times.iter().enumerate() {
        let x = tr.state(i).ok_or("no state")?;
        let goal = reference(*t);
        for j in 0..6 {
            worst_track[j] = worst_track[j].max((x[ARM_Q + j] - goal[j]).abs());
        }
    }
    let (_, x_end) = tr.last().ok_or("empty run")?;
    let mut qd = [0.0; NQ];
    robot.qdot(0.0, &x_end[..NQ], &x_end[NQ..], &mut qd)?;
    println!(
        "after 8 s: base at ({:.3}, {:.3}) m heading {:.3} rad, speed {:.4} m/s (commanded 0.4); \
         largest tracking error of each joint {worst_track:.3?} rad",
        x_end[0],
        x_end[1],
        x_end[2],
        (qd[0] * qd[0] + qd[1] * qd[1]).sqrt()
    );
    let e = robot.position("E", 8.0, &x_end[..NQ])?;
    println!("end effector at ({:.3}, {:.3}, {:.3}) m", e[0], e[1], e[2]);
    #[cfg(feature = "viz")]
    {
        let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
        let dir = nonholo::viz::plots_dir(target)?;
        let animation = nonholo::viz::Animation::default()
            .title("mobile manipulator: reaching while it drives")
            .trail("E", [214, 39, 40]);
        tr.animate_html(&robot, dir.join("mobile_manipulator.html"), &animation)?;
        tr.animate_gif(
            &robot,
            dir.join("mobile_manipulator.gif"),
            &animation.clone().size(480, 360),
        )?;
        tr.snapshot_png(&robot, 3.0, dir.join("mobile_manipulator.png"), &animation)?;
        println!(
            "animation: {}",
            dir.join("mobile_manipulator.html").display()
        );
    }
    Ok(())
}
