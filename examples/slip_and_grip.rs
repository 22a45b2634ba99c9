//! Wheels that slip and grip again (`simulate_hybrid` on models with `friction`): one model
//! text, and the run switches each contact between rolling and Coulomb sliding where the
//! ground can no longer hold it, or where its slip stops.
//!
//! 1. A thin disk held upright, thrown along the floor at `v0` without spin (a bowling
//!    ball's start): friction `mu m g` slows it and spins it up until it rolls, after
//!    `v0 / (3 mu g)`, at `2 v0 / 3`, having lost `m v0^2 / 6` — printed beside the run.
//! 2. The differential-drive robot (`nonholo::models::DiffDriveRobot`, `mu = 0.3` here)
//!    started into a turn by a burst of its motors, harder on the left: the left wheel
//!    spins from the start (its torque needs more than `mu N`), the right one slips as the
//!    turn tightens, and both grip again once the motors stop.
//! 3. The same robot driven straight, then turned hard (the motors pull the wheels opposite
//!    ways): its axle skids sideways, both drive wheels at once (their lateral slip is one),
//!    it spins out with the motors off, and both grip together when the skid stops; rolling
//!    on, its energy stays.
//!
//! `cargo run --release --example slip_and_grip` prints the events and writes the runs as
//! CSV (`slip_and_grip_disk.csv`, `slip_and_grip_robot.csv`, `slip_and_grip_skid.csv`:
//! `[q, dot(q)]`, a pair of rows
//! at each switch) with the contact loads (`..._loads.csv`) into `target/plots` under the
//! crate's folder, or into the folder named by `NONHOLO_PLOTS`; `--features plot` plots the
//! disk's speed and rim speed and the robot's wheel loads (`.svg`); `--features viz` writes
//! pages where they move with the ground's force on each wheel drawn as an arrow
//! (`slip_and_grip_disk.html`, `slip_and_grip_robot.html`, `slip_and_grip_skid.html`; open
//! them in a browser).
use nonholo::models::DiffDriveRobot;
use nonholo::prelude::*;
use nonholo::EventKind;

nonholonomic! {
    /// A thin disk (`m r^2 / 2` about its axle) held upright on the floor, with the
    /// friction coefficient `mu` at its rim.
    pub struct UprightDisk;
    parameters { m = 2.0, r = 0.3, g = 9.81, mu = 0.2 }
    coordinates { x, y, yaw, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + r * N.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, contact: P, friction: mu }
    dependent { x, y }
}

/// The events of a run, one line each.
fn print_events(tr: &Trajectory) {
    for e in tr.events() {
        if let EventKind::Contact { contact, event } = e.kind {
            println!("  t = {:9.6} s  {contact}: {event}", e.t);
        }
    }
}

/// Kinetic energy of the disk at `[q, dot(q)]`.
fn disk_energy(d: &UprightDisk, x: &[f64]) -> f64 {
    let (m, r) = (d.m, d.r);
    0.5 * m * (x[4] * x[4] + x[5] * x[5])
        + 0.125 * m * r * r * x[6] * x[6]
        + 0.25 * m * r * r * x[7] * x[7]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots");
    let dir = nonholo::files::plots_dir(target)?;

    // 1. the disk thrown sliding
    let d = UprightDisk::default();
    let v0 = 3.0;
    let o = Options::default()
        .rtol(1e-10)
        .atol(1e-12)
        .sample_every(0.01);
    let disk =
        simulate_hybrid(&d, &[0.0; 4], &[v0, 0.0, 0.0, 0.0], 0.0..1.5, &o).map_err(|e| e.error)?;
    let (ts, vs) = (v0 / (3.0 * d.mu * d.g), 2.0 * v0 / 3.0);
    println!(
        "disk thrown at {v0} m/s without spin (m = {}, r = {}, mu = {}):",
        d.m, d.r, d.mu
    );
    print_events(&disk);
    let grip = disk.events()[0].t;
    let (_, end) = disk.last().expect("samples");
    let lost = disk_energy(&d, disk.state(0).expect("a sample")) - disk_energy(&d, end);
    println!(
        "  grips at {grip:.9} s (closed form v0 / (3 mu g) = {ts:.9} s), rolls at {:.9} m/s (2 v0 / 3 = {vs:.9})",
        end[4]
    );
    println!(
        "  energy lost {lost:.9} J (m v0^2 / 6 = {:.9} J)",
        d.m * v0 * v0 / 6.0
    );
    disk.write_csv(dir.join("slip_and_grip_disk.csv"))?;
    disk.write_contact_csv(&d, dir.join("slip_and_grip_disk_loads.csv"))?;

    // 2. the robot started into a turn by a 0.6 s burst of its motors
    let robot = DiffDriveRobot {
        mu: 0.3,
        ..DiffDriveRobot::default()
    };
    let mut motors = |t: f64, _x: &[f64], u: &mut [f64]| {
        if t < 0.6 {
            u[0] = 0.9;
            u[1] = 0.7;
        }
    };
    let o = Options::default().rtol(1e-9).atol(1e-10).sample_every(0.01);
    let qd0 = [0.0; 7];
    let run = simulate_hybrid_controlled(&robot, &mut motors, &[0.0; 7], &qd0, 0.0..1.2, &o)
        .map_err(|e| e.error)?;
    println!(
        "\nrobot (mu = {}) started into a turn by a burst of its motors:",
        robot.mu
    );
    print_events(&run);
    let loads = run.contact_loads(&robot)?;
    // the friction each rolling wheel needs, against mu N (the samples just before a
    // switch, where rolling needed more, left out)
    let times = run.times();
    let mut worst = 0.0f64;
    for (i, l) in loads.iter().enumerate() {
        let before_switch = times.get(i + 1) == Some(&times[i]);
        let sliding = run.sliding(i).unwrap_or_default();
        for (c, load) in l.iter().enumerate() {
            if !before_switch && !sliding[c] {
                worst = worst.max(load.utilization);
            }
        }
    }
    let slid = (0..run.len())
        .filter(|&i| run.sliding(i).is_some_and(|s| s.iter().any(|x| *x)))
        .count();
    println!(
        "  {slid} of {} samples with a wheel sliding; the rolling wheels used at most {:.1}% of mu N",
        run.len(),
        100.0 * worst
    );
    run.write_csv(dir.join("slip_and_grip_robot.csv"))?;
    run.write_contact_csv(&robot, dir.join("slip_and_grip_robot_loads.csv"))?;

    // 3. driven straight, turned hard: the axle skids sideways and spins out
    let mut turn = |t: f64, _x: &[f64], u: &mut [f64]| {
        (u[0], u[1]) = match t {
            t if t < 1.5 => (0.25, 0.25),
            t if t < 2.2 => (0.6, -0.3),
            _ => (0.0, 0.0),
        };
    };
    let skid = simulate_hybrid_controlled(&robot, &mut turn, &[0.0; 7], &qd0, 0.0..5.0, &o)
        .map_err(|e| e.error)?;
    println!("\nrobot driven straight, then turned hard (motors off from 2.2 s):");
    print_events(&skid);
    let energy = |i: usize| -> Result<f64, nonholo::Error> {
        let (t, x) = (skid.times()[i], skid.state(i).unwrap_or_default());
        robot.energy(t, &robot.state_from_qdot(t, &x[..7], &x[7..])?)
    };
    let grip = skid.events().last().map_or(0.0, |e| e.t);
    let after: Vec<usize> = (0..skid.len())
        .filter(|&i| skid.times()[i] > grip)
        .collect();
    if let (Some(&a), Some(&b)) = (after.first(), after.last()) {
        let (ea, eb) = (energy(a)?, energy(b)?);
        println!(
            "  rolling after the grip: energy {ea:.9} J at {:.2} s, {eb:.9} J at {:.2} s",
            skid.times()[a],
            skid.times()[b]
        );
    }
    skid.write_csv(dir.join("slip_and_grip_skid.csv"))?;
    skid.write_contact_csv(&robot, dir.join("slip_and_grip_skid_loads.csv"))?;
    println!(
        "\nwrote the runs and their loads as CSV into {}",
        dir.display()
    );

    #[cfg(feature = "plot")]
    {
        let svg = dir.join("slip_and_grip_disk.svg");
        disk.plot_svg(
            &svg,
            "disk thrown sliding: dot(x) and dot(spin) until it rolls",
            &["dot(x)", "dot(spin)"],
        )?;
        let svg_r = dir.join("slip_and_grip_robot.svg");
        run.plot_contact_loads_svg(&robot, &svg_r)?;
        let svg_s = dir.join("slip_and_grip_skid.svg");
        skid.plot_contact_loads_svg(&robot, &svg_s)?;
        println!(
            "wrote {}, {} and {}",
            svg.display(),
            svg_r.display(),
            svg_s.display()
        );
    }
    #[cfg(feature = "viz")]
    {
        use nonholo::viz::Animation;
        let page = dir.join("slip_and_grip_disk.html");
        let look =
            Animation::default().title("a disk thrown sliding: it rolls after v0 / (3 mu g)");
        disk.animate_html_with_contacts(&d, &page, &look)?;
        let page_r = dir.join("slip_and_grip_robot.html");
        let look = Animation::default()
            .title("a robot's wheels spin under a burst of its motors, then grip");
        run.animate_html_with_contacts(&robot, &page_r, &look)?;
        let page_s = dir.join("slip_and_grip_skid.html");
        let look = Animation::default()
            .title("a robot turned too hard skids sideways on both wheels, then grips");
        skid.animate_html_with_contacts(&robot, &page_s, &look)?;
        println!(
            "wrote {}, {} and {}",
            page.display(),
            page_r.display(),
            page_s.display()
        );
    }
    Ok(())
}
