//! Wheel loads: how hard the ground must push on each wheel to keep it rolling
//! (`Contacts::contact_loads`: the normal force `N`, the longitudinal and lateral friction
//! forces, and the friction utilization `|F_t| / (mu N)`), and the run stopping where a
//! wheel would lift off or slip (`Error::ContactLost`).
//!
//! 1. The Whipple bicycle (`nonholo::models::WhippleBicycle`) at 5 m/s: upright, its
//!    weight split between the wheels by its centre of mass; pedalling hard moves load to
//!    the rear wheel (load transfer), braking with the rear wheel moves it to the front;
//!    pedalling harder and harder lifts the front wheel (a wheelie) and the run stops.
//! 2. A differential-drive robot (`nonholo::models::DiffDriveRobot`, `mu = 0.8`) on a
//!    circle: the friction a steady turn needs against what each wheel can give, at
//!    increasing speeds, then speeding up on the circle until a wheel slips.
//! 3. A mobile manipulator (`nonholo::models::MobileManipulator`) swinging its arm while
//!    its wheels brake, until a wheel would slip or lift: the loads of all three there.
//!
//! `cargo run --release --example wheel_loads` prints the tables and writes the bicycle's
//! loads as CSV (`wheel_loads_bicycle.csv`) into `target/plots` under the crate's folder,
//! or into the folder named by `NONHOLO_PLOTS`. `--features plot` also plots them
//! (`wheel_loads_bicycle.svg`, `.png`); `--features viz` writes the bicycle's and the
//! manipulator's runs as pages with the forces on the wheels drawn as arrows
//! (`wheel_loads_bicycle.html`, `wheel_loads_manipulator.html`; open them in a browser).
//! `cargo run --release --features plot,viz --example wheel_loads` does it all.
use nonholo::models::{DiffDriveRobot, MobileManipulator, WhippleBicycle};
use nonholo::nalgebra::{DMatrix, DVector};
use nonholo::prelude::*;
use nonholo::{ContactEvent, ContactLoad, SimulationError};
use std::path::Path;

/// Where a run stopped because the ground could not hold a wheel: the contact, lift-off
/// or slip, the time and the state.
type Lost = (&'static str, ContactEvent, f64, Vec<f64>);

/// The trajectory of a run, and the contact it lost if it stopped at one.
fn until_lost(
    run: Result<Trajectory, SimulationError>,
) -> Result<(Trajectory, Option<Lost>), Error> {
    match run {
        Ok(tr) => Ok((tr, None)),
        Err(SimulationError {
            error:
                Error::ContactLost {
                    contact,
                    event,
                    t,
                    state,
                },
            partial,
        }) => Ok((partial, Some((contact, event, t, state)))),
        Err(e) => Err(e.error),
    }
}

/// The loads on the contacts of `model` at `(t, state)` with the inputs `u`.
fn loads<M: Contacts>(
    model: &M,
    t: f64,
    state: &[f64],
    u: &[f64],
) -> Result<Vec<ContactLoad>, Error> {
    let mut out = vec![ContactLoad::ZERO; M::CONTACTS.len()];
    model.contact_loads(t, state, u, &mut out)?;
    Ok(out)
}

/// One line per wheel (`W` of the contact `"W on G"`): N, longitudinal, lateral, |F_t|,
/// utilization.
fn print_wheels<M: Contacts>(loads: &[ContactLoad]) {
    println!(
        "    {:<8} {:>8} {:>9} {:>8} {:>10} {:>6}",
        "wheel", "N (N)", "long (N)", "lat (N)", "|F_t| (N)", "util"
    );
    for (name, l) in M::CONTACTS.iter().zip(loads) {
        let wheel = name.split(" on ").next().unwrap_or(name);
        println!(
            "    {wheel:<8} {:8.2} {:9.2} {:8.2} {:10.2} {:6.3}",
            l.normal,
            l.longitudinal,
            l.lateral,
            l.tangential(),
            l.utilization
        );
    }
}

/// The pedalling torque (N m) at time t: coast, pedal, brake, then harder and harder.
fn pedal(t: f64) -> f64 {
    match t {
        t if t < 0.5 => 0.0,
        t if t < 1.5 => 60.0,
        t if t < 2.5 => -60.0,
        t => 150.0 * (t - 2.5),
    }
}

fn bicycle(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    const NQ: usize = WhippleBicycle::NQ;
    let bike = WhippleBicycle::default();
    // upright at 5 m/s (pitch from the front contact); dot(th_r) = -v / r_r
    let mut upright = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut upright[..NQ])?;
    upright[NQ + 1] = -5.0 / bike.r_r;
    let speed = |x: &[f64]| -x[NQ + 1] * bike.r_r;
    // a small sideways push (lean rate 0.05 rad/s): at these speeds the bicycle is
    // self-stable and rights itself without a rider's help
    let mut x0 = upright;
    x0[NQ] = 0.05;
    let mut rider = |t: f64, _x: &[f64], u: &mut [f64]| u[2] = pedal(t);
    let options = Options::default().rtol(1e-9).atol(1e-9).sample_every(0.01);
    let run = simulate_controlled(&bike, &mut rider, &x0, 0.0..6.0, &options);
    let (tr, lost) = until_lost(run)?;

    let weight = (bike.m_r + bike.m_b + bike.m_h + bike.m_f) * bike.g;
    println!("1. Whipple bicycle at 5 m/s, rear-wheel drive (weight {weight:.2} N)");
    // `longitudinal` points along axle x up: for the bicycle (axle B.y, up -N.z) that is
    // backward, so the force that drives it forward is -longitudinal, "traction" here
    println!(
        "  {:<24} {:>5} {:>8} {:>10} {:>11} {:>13} {:>14}",
        "phase", "t (s)", "v (m/s)", "rear N (N)", "front N (N)", "rear traction", "front traction"
    );
    let row = |label: &str, t: f64, x: &[f64]| -> Result<(), Error> {
        let l = loads(&bike, t, x, &[0.0, 0.0, pedal(t)])?;
        println!(
            "  {label:<24} {t:5.2} {:8.3} {:10.2} {:11.2} {:13.2} {:14.2}",
            speed(x),
            l[0].normal,
            l[1].normal,
            -l[0].longitudinal,
            -l[1].longitudinal
        );
        Ok(())
    };
    let sample = |t: f64| {
        let i = tr.times().iter().position(|&s| s >= t - 1e-9)?;
        Some((tr.times()[i], tr.state(i)?))
    };
    row("upright, coasting", 0.0, &upright)?;
    for (label, t) in [
        ("pedalling, 60 N m", 1.0),
        ("braking, -60 N m", 2.0),
        ("pedalling, 150 N m/s x t", 3.0),
    ] {
        let (t, x) = sample(t).ok_or("the run ended early")?;
        row(label, t, x)?;
    }
    if let Some((contact, event, t, state)) = &lost {
        row("where the run stopped", *t, state)?;
        let (t0, x) = sample(2.5).ok_or("the run ended early")?;
        println!(
            "  pedalling harder and harder from {:.3} m/s at t = {t0} s: {:.3} s later, at {:.1} N m, \
             the {contact} contact {event}: a wheelie",
            speed(x),
            t - t0,
            pedal(*t)
        );
    }
    let roll = tr.column("roll").ok_or("no roll")?;
    let max_roll = roll.iter().fold(0.0f64, |m, r| m.max(r.abs()));
    println!(
        "  after a 0.05 rad/s lean-rate push, |roll| stays below {max_roll:.4} rad: upright throughout"
    );
    let csv = dir.join("wheel_loads_bicycle.csv");
    tr.write_contact_csv(&bike, &csv)?;
    println!("  contact loads: {}", csv.display());
    #[cfg(feature = "plot")]
    {
        tr.plot_contact_loads_svg(&bike, dir.join("wheel_loads_bicycle.svg"))?;
        tr.plot_contact_loads_png(&bike, dir.join("wheel_loads_bicycle.png"))?;
        println!("  plots: {}", dir.join("wheel_loads_bicycle.svg").display());
    }
    #[cfg(feature = "viz")]
    {
        let page = dir.join("wheel_loads_bicycle.html");
        let animation = nonholo::viz::Animation::default()
            .title("Whipple bicycle: coast, pedal, brake, wheelie");
        tr.animate_html_with_contacts(&bike, &page, &animation)?;
        println!("  animation: {}", page.display());
    }
    Ok(())
}

fn robot() -> Result<(), Box<dyn std::error::Error>> {
    const NQ: usize = DiffDriveRobot::NQ;
    let robot = DiffDriveRobot::default();
    let radius = 1.0;
    let (r, b) = (robot.r, robot.b);
    println!(
        "\n2. differential-drive robot on a circle of {radius} m, mu = {}",
        robot.mu
    );
    // the wheel rates for a forward speed v turning left on the circle (and, the map being
    // linear, the wheel angles for a distance v)
    let wheels = |v: f64| [v * (1.0 - b / radius) / r, v * (1.0 + b / radius) / r];
    // PI on the wheel rates toward the speed v(t) = v0 + a t; its integral is the lag of
    // the wheel angles behind those of the distance s(t) = v0 t + a t^2 / 2
    let motors = |v0: f64, a: f64| {
        move |t: f64, x: &[f64], u: &mut [f64]| {
            let (rate, angle) = (wheels(v0 + a * t), wheels(v0 * t + 0.5 * a * t * t));
            for k in 0..2 {
                u[k] = 0.5 * (rate[k] - x[NQ + k]) + 5.0 * (angle[k] - x[3 + k]);
            }
        }
    };
    // rolling at speed v, the caster trailing along the circle: its contact point
    // (-a - d cos sw, -d sin sw) moves along its wheel about the centre (0, radius)
    let start = |v: f64| {
        let mut x0 = DiffDriveRobot::ZERO_STATE;
        x0[5] = (-robot.d / robot.a.hypot(radius)).asin() - robot.a.atan2(radius);
        x0[NQ..].copy_from_slice(&wheels(v));
        x0
    };
    let speed = |x: &[f64]| 0.5 * r * (x[NQ] + x[NQ + 1]);
    let yaw_rate = |x: &[f64]| r * (x[NQ + 1] - x[NQ]) / (2.0 * b);
    println!(
        "  {:>7} {:>10} {:>7} {:>8} {:>9} {:>10} {:>11} {:>12}",
        "v (m/s)",
        "a_lat m/s2",
        "N left",
        "N right",
        "N caster",
        "util left",
        "util right",
        "util caster"
    );
    let options = Options::default().sample_every(0.01);
    for v in [0.5, 1.0, 1.5, 1.75, 2.0] {
        // 4 s for the motors to settle; the loads at the end
        let tr = simulate_controlled(&robot, &mut motors(v, 0.0), &start(v), 0.0..4.0, &options)?;
        let i = tr.len() - 1;
        let (x, u) = (
            tr.state(i).ok_or("no state")?,
            tr.input(i).ok_or("no inputs")?,
        );
        let l = loads(&robot, tr.times()[i], x, u)?;
        println!(
            "  {:7.3} {:10.3} {:7.2} {:8.2} {:9.2} {:10.3} {:11.3} {:12.3}",
            speed(x),
            speed(x) * yaw_rate(x),
            l[0].normal,
            l[1].normal,
            l[2].normal,
            l[0].utilization,
            l[1].utilization,
            l[2].utilization
        );
    }
    // speeding up on the circle: from 1 m/s, 0.5 m/s faster every second
    let mut faster = motors(1.0, 0.5);
    let run = simulate_controlled(&robot, &mut faster, &start(1.0), 0.0..10.0, &options);
    match until_lost(run)? {
        (tr, Some((contact, event, t, state))) => {
            println!(
                "  speeding up on the circle (+0.5 m/s every second from 1 m/s): at t = {t:.3} s, \
                 {:.3} m/s, the {contact} contact {event}",
                speed(&state)
            );
            let u = tr.input(tr.len() - 1).ok_or("no inputs")?;
            print_wheels::<DiffDriveRobot>(&loads(&robot, t, &state, u)?);
        }
        (_, None) => println!("  speeding up on the circle: the wheels grip all the way"),
    }
    Ok(())
}

/// The joint torques that give the arm's joints the accelerations `acc` at `state` with
/// the wheel torques `wheels` (computed torque): the joint-rate rows of
/// `f(x, u) = f(x, 0) + B u`, `B` from the model's exact Jacobians. With `acc = 0` at
/// rest, the torques that hold the arm against gravity.
fn arm_torques(
    robot: &MobileManipulator,
    state: &[f64],
    wheels: [f64; 2],
    acc: [f64; 6],
) -> Result<[f64; 6], Error> {
    const DIM: usize = MobileManipulator::DIM;
    const NU: usize = MobileManipulator::NU;
    const ARM_Z: usize = MobileManipulator::NQ + 2;
    let u = [wheels[0], wheels[1], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let (mut f, mut a, mut b) = ([0.0; DIM], [0.0; DIM * DIM], [0.0; DIM * NU]);
    robot.rhs_u(0.0, state, &u, &mut f)?;
    robot.jacobians(0.0, state, &u, &mut a, &mut b)?;
    let rows = DMatrix::from_fn(6, 6, |i, j| b[(ARM_Z + i) * NU + 2 + j]);
    let rhs = DVector::from_fn(6, |i, _| acc[i] - f[ARM_Z + i]);
    let tau = rows.lu().solve(&rhs).ok_or(Error::SingularMassMatrix {
        t: 0.0,
        state: state.to_vec(),
    })?;
    Ok(std::array::from_fn(|j| tau[j]))
}

fn manipulator(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    const NQ: usize = MobileManipulator::NQ;
    let robot = MobileManipulator::default();
    // the arm leaning back over the caster (shoulder -0.6 rad, elbow -0.9 rad), at rest
    let (q2, q3) = (-0.6, -0.9);
    let mut x0 = MobileManipulator::ZERO_STATE;
    x0[8] = q2;
    x0[9] = q3;
    // the base turns it from side to side at 3 rad/s, 0.3 rad wider every second
    let reference = |t: f64| {
        let q1 = 0.3 * t * (3.0 * t).sin();
        let dq1 = 0.3 * ((3.0 * t).sin() + 3.0 * t * (3.0 * t).cos());
        ([q1, q2, q3, 0.0, 0.0, 0.0], [dq1, 0.0, 0.0, 0.0, 0.0, 0.0])
    };
    let mut control = |t: f64, x: &[f64], u: &mut [f64]| {
        // the wheels brake (rate feedback toward standing still); the joints follow the
        // reference, PD with gains of 100 /s^2 and 20 /s through the arm's own dynamics
        let wheels = [-2.0 * x[NQ], -2.0 * x[NQ + 1]];
        let (q, dq) = reference(t);
        let acc =
            std::array::from_fn(|j| 100.0 * (q[j] - x[7 + j]) + 20.0 * (dq[j] - x[NQ + 2 + j]));
        let tau = arm_torques(&robot, x, wheels, acc).unwrap_or([0.0; 6]);
        u[..2].copy_from_slice(&wheels);
        u[2..].copy_from_slice(&tau);
    };
    let hold = arm_torques(&robot, &x0, [0.0; 2], [0.0; 6])?;
    println!(
        "\n3. mobile manipulator, mu = {}: arm leaning back (holding torques {hold:.2?} N m)",
        robot.mu
    );
    let mut u0 = [0.0; MobileManipulator::NU];
    u0[2..].copy_from_slice(&hold);
    print_wheels::<MobileManipulator>(&loads(&robot, 0.0, &x0, &u0)?);
    let options = Options::default().sample_every(0.01);
    let run = simulate_controlled(&robot, &mut control, &x0, 0.0..10.0, &options);
    let (tr, lost) = until_lost(run)?;
    match &lost {
        Some((contact, event, t, state)) => {
            println!(
                "  swinging it side to side, wider and wider: at t = {t:.3} s (arm turned {:.3} rad) \
                 the {contact} contact {event}",
                state[7]
            );
            let u = tr.input(tr.len() - 1).ok_or("no inputs")?;
            print_wheels::<MobileManipulator>(&loads(&robot, *t, state, u)?);
        }
        None => println!("  swinging it side to side: the wheels grip all the way"),
    }
    #[cfg(feature = "viz")]
    {
        let page = dir.join("wheel_loads_manipulator.html");
        let animation = nonholo::viz::Animation::default()
            .title("mobile manipulator: swinging its arm until a wheel gives");
        tr.animate_html_with_contacts(&robot, &page, &animation)?;
        println!("  animation: {}", page.display());
    }
    let _ = dir;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
    let dir = nonholo::files::plots_dir(target)?;
    bicycle(&dir)?;
    robot()?;
    manipulator(&dir)?;
    Ok(())
}
