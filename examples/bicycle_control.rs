//! The Whipple bicycle ridden by a controller: at 3 m/s, below the weave speed, the
//! uncontrolled bicycle falls; a linear-quadratic regulator on lean and steer, with the
//! steer torque as its only input, designed from the exact linearization and run as a
//! 100 Hz sampled-data controller (zero-order hold) on the nonlinear model, keeps it up.
//!
//! 1. Linearize upright at 3 m/s (`linearize`, input `t_steer`) and print the open-loop
//!    eigenvalues: the weave pair is unstable.
//! 2. Design: `control::lqr` (continuous) and `control::dlqr` on the exact zero-order-hold
//!    discretization at 100 Hz (`control::discretize`); print the gains and closed-loop
//!    eigenvalues.
//! 3. Ride: a lean-rate kick of 0.5 rad/s, open loop (it falls) and closed loop (it
//!    recovers); then a commanded lean of 0.1 rad into a steady right turn, where the steer
//!    torque first goes the "wrong" way (counter-steering). A proportional pedalling
//!    torque `t_rear` holds the speed in both rides.
//!
//! `cargo run --release --example bicycle_control` prints this;
//! `cargo run --release --features plot --example bicycle_control` also draws roll, steer
//! and the steer torque against time into `target/plots/bicycle_control_kick.png` and
//! `target/plots/bicycle_control_turn.png` (or the folder named by `NONHOLO_PLOTS`).
use nonholo::control::{discretize, dlqr, lqr};
use nonholo::models::WhippleBicycle;
use nonholo::nalgebra::{Complex, DMatrix, DVector};
use nonholo::prelude::*;

const NQ: usize = WhippleBicycle::NQ;
/// The speed, below the weave speed 4.29 m/s.
const V: f64 = 3.0;
/// The controller's period: 100 Hz.
const DT: f64 = 0.01;

/// Upright straight running at `V` (pitch from the front contact), lean rate `roll_rate`.
fn upright(bike: &WhippleBicycle, roll_rate: f64) -> Result<[f64; 11], Error> {
    let mut state = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut state[..NQ])?;
    state[NQ] = roll_rate;
    state[NQ + 1] = -V / bike.r_r;
    Ok(state)
}

/// The reduced state of the design: roll, steer and their rates.
fn lean_and_steer(x: &[f64]) -> [f64; 4] {
    [x[3], x[6], x[NQ], x[NQ + 2]]
}

/// The rider: the sampled LQR on lean and steer about a reference `(x_ref, u_ref)`, and
/// a proportional pedalling torque that holds the speed.
struct Rider {
    gain: [f64; 4],
    x_ref: [f64; 4],
    u_ref: f64,
    r_r: f64,
}

impl Controller for Rider {
    fn control(&mut self, _t: f64, x: &[f64], u: &mut [f64]) -> Result<(), Error> {
        let y = lean_and_steer(x);
        let feedback: f64 = (0..4).map(|i| self.gain[i] * (y[i] - self.x_ref[i])).sum();
        let speed = -x[NQ + 1] * self.r_r;
        // u = [t_roll, t_steer, t_rear]: no lean torque (a rider steers)
        u[0] = 0.0;
        u[1] = self.u_ref - feedback;
        u[2] = 20.0 * (V - speed);
        Ok(())
    }
}

fn show(eig: &[Complex<f64>]) -> String {
    let parts: Vec<String> = eig
        .iter()
        .map(|e| format!("{:8.4} {:+8.4}i", e.re, e.im))
        .collect();
    parts.join(",  ")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bike = WhippleBicycle::default();
    let x0 = upright(&bike, 0.0)?;

    // 1. the exact linearization at 3 m/s, the steer torque as the input
    let spec = Linearize::new()
        .keep(&["roll", "steer", "dot(roll)", "dot(steer)"])
        .inputs(&["t_steer"]);
    let lin = linearize(&bike, 0.0, &x0, &spec)?;
    println!("the Whipple bicycle at {V} m/s (weave speed 4.29 m/s), x = [roll, steer, rates]");
    println!("open-loop eigenvalues:   {}", show(&lin.eigenvalues()?));

    // 2. the regulator: Bryson's rule (0.1 rad of lean, 0.2 rad of steer, 1 rad/s, 5 N m)
    let q = DMatrix::from_diagonal(&DVector::from_vec(vec![100.0, 25.0, 1.0, 1.0]));
    let r = DMatrix::from_element(1, 1, 1.0 / 25.0);
    let continuous = lqr(&lin.a, &lin.b, &q, &r)?;
    println!(
        "lqr gain K = {:.3?}  (Riccati residual {:.1e})",
        continuous.k.as_slice(),
        continuous.residual
    );
    println!("closed loop, continuous: {}", show(&continuous.poles));
    let (ad, bd) = discretize(&lin.a, &lin.b, DT)?;
    let sampled = dlqr(&ad, &bd, &q, &r)?;
    // the discrete poles z as continuous rates ln(z) / dt, to compare
    let rates: Vec<Complex<f64>> = sampled.poles.iter().map(|z| z.ln() / DT).collect();
    println!(
        "dlqr gain at {} Hz  K = {:.3?}",
        1.0 / DT,
        sampled.k.as_slice()
    );
    println!("closed loop, sampled:    {}  (ln z / dt)", show(&rates));

    let gain = [
        sampled.k[(0, 0)],
        sampled.k[(0, 1)],
        sampled.k[(0, 2)],
        sampled.k[(0, 3)],
    ];
    let options = Options::default()
        .method(Method::Dop853)
        .control_period(DT)
        .sample_every(DT)
        .stop_when(|_t, x| 1.2 - x[3].abs()); // fallen: |roll| > 1.2 rad

    // 3a. a lean-rate kick, open loop and closed loop
    let kicked = upright(&bike, 0.5)?;
    let mut nobody = |_t: f64, _x: &[f64], u: &mut [f64]| u.fill(0.0);
    // falling, it ends where |roll| passes 1.2 rad or where a wheel would leave the ground
    let open = match simulate_controlled(&bike, &mut nobody, &kicked, 0.0..5.0, &options) {
        Ok(tr) => tr,
        Err(nonholo::SimulationError {
            error: Error::ContactLost {
                contact, event, t, ..
            },
            partial,
        }) => {
            println!("\n(falling, the {contact} contact {event} at t = {t:.2} s)");
            partial
        }
        Err(e) => return Err(e.into()),
    };
    match open.event_time() {
        Some(t) => println!("\nkick 0.5 rad/s, nobody steering: falls at t = {t:.2} s"),
        None => println!("\nkick 0.5 rad/s, nobody steering: still up after 5 s"),
    }
    let mut rider = Rider {
        gain,
        x_ref: [0.0; 4],
        u_ref: 0.0,
        r_r: bike.r_r,
    };
    let start = std::time::Instant::now();
    let kick = simulate_controlled(&bike, &mut rider, &kicked, 0.0..5.0, &options)?;
    let elapsed = start.elapsed();
    let roll = kick.column("roll").ok_or("no roll column")?;
    let torque = kick.column("t_steer").ok_or("no t_steer column")?;
    let peak_roll = roll.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let peak_torque = torque.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let (t_end, x_end) = kick.last().ok_or("empty run")?;
    println!(
        "kick 0.5 rad/s, the 100 Hz LQR steering: peak roll {peak_roll:.4} rad, peak steer \
         torque {peak_torque:.2} N m; at t = {t_end} s roll {:.1e} rad, steer {:.1e} rad \
         ({} samples, {:.1} ms)",
        x_end[3],
        x_end[6],
        kick.len(),
        elapsed.as_secs_f64() * 1e3
    );

    // 3b. a commanded lean of 0.1 rad (to the right) into a steady turn: the steady steer
    // and torque from the linear model (A x_ss + B u_ss = 0 with roll fixed)
    let lean = 0.1;
    let (a, b) = (&lin.a, &lin.b);
    let m = DMatrix::from_row_slice(2, 2, &[a[(2, 1)], b[(2, 0)], a[(3, 1)], b[(3, 0)]]);
    let rhs = DMatrix::from_row_slice(2, 1, &[-a[(2, 0)] * lean, -a[(3, 0)] * lean]);
    let steady = m.lu().solve(&rhs).ok_or("no steady turn")?;
    let (steer_ss, torque_ss) = (steady[0], steady[1]);
    let mut rider = Rider {
        gain,
        x_ref: [lean, steer_ss, 0.0, 0.0],
        u_ref: torque_ss,
        r_r: bike.r_r,
    };
    let turn = simulate_controlled(&bike, &mut rider, &x0, 0.0..5.0, &options)?;
    let steer = turn.column("steer").ok_or("no steer column")?;
    let torque = turn.column("t_steer").ok_or("no t_steer column")?;
    let first = |v: &[f64]| {
        v.iter()
            .take(50)
            .fold(0.0f64, |m, x| if x.abs() > m.abs() { *x } else { m })
    };
    let (_, x_turn) = turn.last().ok_or("empty run")?;
    println!(
        "\ncommanded lean {lean} rad: steady steer {steer_ss:.4} rad, steer torque \
         {torque_ss:.3} N m (linear model)"
    );
    println!(
        "  counter-steering: in the first 0.5 s the steer torque reaches {:.2} N m and the \
         front wheel turns to {:.4} rad, to the left, before it steers right into the turn",
        first(&torque),
        first(&steer)
    );
    println!(
        "  after 5 s: roll {:.4} rad, steer {:.4} rad, steer torque {:.3} N m, speed {:.3} m/s",
        x_turn[3],
        x_turn[6],
        torque.last().copied().unwrap_or(f64::NAN),
        -x_turn[NQ + 1] * bike.r_r
    );

    #[cfg(feature = "plot")]
    {
        let dir = nonholo::plot::plots_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots"))?;
        for (name, title, tr) in [
            ("kick", "lean-rate kick at 3 m/s, 100 Hz LQR", &kick),
            (
                "turn",
                "commanded lean 0.1 rad at 3 m/s: counter-steering",
                &turn,
            ),
        ] {
            let path = dir.join(format!("bicycle_control_{name}.png"));
            let tenth: Vec<f64> = tr
                .column("t_steer")
                .ok_or("no t_steer column")?
                .iter()
                .map(|x| 0.1 * x)
                .collect();
            let roll = tr.column("roll").ok_or("no roll column")?;
            let steer = tr.column("steer").ok_or("no steer column")?;
            nonholo::plot::plot_series_png(
                &path,
                title,
                tr.times(),
                &[
                    ("roll [rad]", &roll),
                    ("steer [rad]", &steer),
                    ("steer torque / 10 [N m]", &tenth),
                ],
            )?;
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}
