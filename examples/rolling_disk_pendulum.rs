//! The unicycle with rider of Talamucci 2015, §3.3 (`nonholo::models::RollingDiskPendulum`):
//! a disk rolling without sliding on the ground, a frame (with the mass `m_s`) that leans
//! with the disk, and a rider (the mass `m_d`) hanging as a pendulum from the top of the frame.
//! The `nonholonomic!` macro derived its equations of motion at compile time; the speeds are
//! the paper's, two momenta and two angular rates.
//!
//! The unicycle starts rolling straight ahead with a slight lean and nobody pedalling or
//! steering, so it falls over: the run stops, by the runtime's event detection
//! (`Options::stop_when`), when the frame or the rider touches the ground. Energy (no
//! pedalling, no damping) and the rolling constraint are checked along the way.
//!
//! ```sh
//! cargo run --release --example rolling_disk_pendulum                 # the summary
//! cargo run --release --example rolling_disk_pendulum -- --equations  # + the derived equations
//! cargo run --release --example rolling_disk_pendulum -- --csv        # + rolling_disk_pendulum.csv
//! cargo run --release --features plot --example rolling_disk_pendulum  # + PNGs in target/plots
//! ```
use nonholo::models::RollingDiskPendulum;
use nonholo::prelude::*;

type Uni = RollingDiskPendulum;

/// Position of a coordinate or speed in the state `[q, z]`, by name.
fn index(name: &str) -> usize {
    Uni::COORDINATES
        .iter()
        .chain(Uni::SPEEDS)
        .position(|n| *n == name)
        .unwrap_or_else(|| panic!("no coordinate or speed named {name}"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let uni = Uni::default();
    let (x_c, y_c, phi, phi1, theta, theta1) = (
        index("x_c"),
        index("y_c"),
        index("phi"),
        index("phi1"),
        index("theta"),
        index("theta1"),
    );

    println!("Talamucci 2015, §3.3: a unicycle with rider (nonholo::models::RollingDiskPendulum)");
    let params: Vec<String> = Uni::PARAMETERS
        .iter()
        .zip(uni.parameters())
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    println!("  parameters (SI units):  {}", params.join(", "));
    println!(
        "  coordinates q:          {}  (contact point x, y; heading; wheel spin;",
        Uni::COORDINATES.join(", ")
    );
    println!("                          lean of the frame and swing of the rider, both from the vertical)");
    println!(
        "  speeds z:               {}  (dL/d dot(phi), dL/d dot(phi1), dot(theta), dot(theta1))",
        Uni::SPEEDS.join(", ")
    );
    println!(
        "  state [q, z]:           {} numbers; formulation {:?}",
        Uni::DIM,
        Uni::FORMULATION
    );
    if args.iter().any(|a| a == "--equations") {
        println!(
            "\nThe derived equations (Model::EQUATIONS):\n{}",
            Uni::EQUATIONS
        );
    } else {
        println!("  (the derived equations: run with `-- --equations`)");
    }

    // Rolling straight ahead at 1.5 m/s (a brisk walk), the frame leaning 3 degrees to the
    // side, the rider hanging straight down, nothing else moving.
    let speed = 1.5;
    let mut q0 = [0.0; Uni::NQ];
    q0[theta] = 3.0_f64.to_radians();
    let mut qd0 = [0.0; Uni::NQ];
    qd0[phi1] = speed / uni.r; // rolling: dot(x_c) = r cos(phi) dot(phi1)
    qd0[x_c] = speed;
    let state0 = uni.state_from_qdot(0.0, &q0, &qd0)?;
    println!(
        "\nInitial state: rolling at {speed} m/s (dot(phi1) = {:.1} rad/s), lean {:.1} deg, \
         rider hanging straight down",
        qd0[phi1],
        q0[theta].to_degrees()
    );
    let named = |names: &[&str], values: &[f64]| {
        let v: Vec<String> = names
            .iter()
            .zip(values)
            .map(|(n, v)| format!("{n} = {v:.4}"))
            .collect();
        v.join(", ")
    };
    println!("  q: {}", named(Uni::COORDINATES, &state0[..Uni::NQ]));
    println!("  z: {}", named(Uni::SPEEDS, &state0[Uni::NQ..]));

    // Heights above the ground of the top of the frame (where the rider hangs) and of the
    // rider; the frame itself touches the ground only when it lies flat (lean 90 deg).
    let (top, arm) = (uni.kappa1 + uni.kappa2, uni.kappa);
    let heights = move |s: &[f64]| {
        let frame_top = top * s[theta].cos();
        (frame_top, frame_top - arm * s[theta1].cos())
    };
    let options = Options::default()
        .sample_every(0.05)
        .stop_when(move |_t, s| {
            let (frame_top, rider) = heights(s);
            frame_top.min(rider)
        });
    let traj = simulate(&uni, &state0, 0.0..10.0, &options)?;

    println!(
        "\nphi: heading; theta: lean of the frame; theta1: swing of the rider; \
         speed = r dot(phi1); rider_z: height of the rider above the ground"
    );
    println!(
        "{:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "t", "x_c", "y_c", "phi", "theta", "theta1", "speed", "rider_z"
    );
    println!(
        "{:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "[s]", "[m]", "[m]", "[deg]", "[deg]", "[deg]", "[m/s]", "[m]"
    );
    let last = traj.len() - 1;
    for i in 0..traj.len() {
        if i % 5 != 0 && i != last {
            continue; // every 0.25 s, and the last sample
        }
        let (t, s) = (traj.times()[i], traj.state(i).unwrap_or_default());
        let dq = traj.derivative(i).unwrap_or_default();
        println!(
            "{:6.3} {:8.3} {:8.3} {:8.1} {:8.1} {:8.1} {:8.3} {:8.3}",
            t,
            s[x_c],
            s[y_c],
            s[phi].to_degrees(),
            s[theta].to_degrees(),
            s[theta1].to_degrees(),
            uni.r * dq[phi1],
            // at the event the height is zero to the root finder's tolerance
            if heights(s).1.abs() < 5e-4 {
                0.0
            } else {
                heights(s).1
            }
        );
    }

    match (traj.event_time(), traj.last()) {
        (Some(te), Some((_, s))) => {
            let (frame_top, rider) = heights(s);
            let what = if rider <= frame_top {
                "the rider"
            } else {
                "the frame"
            };
            println!(
                "\nFell over: {what} touched the ground at t = {te:.3} s (lean {:.1} deg).",
                s[theta].to_degrees()
            );
        }
        _ => println!("\nStill up after {} s.", traj.times()[last]),
    }
    let e = traj.energy(&uni)?;
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max);
    println!(
        "Energy {:.6} J, largest drift {drift:.1e} J (conserved: no pedalling, no damping).",
        e[0]
    );
    println!(
        "Rolling constraint: largest residual {:.1e} m/s over {} samples.",
        traj.max_constraint_residual(&uni)?,
        traj.len()
    );

    if args.iter().any(|a| a == "--csv") {
        traj.write_csv("rolling_disk_pendulum.csv")?;
        println!("Trajectory written to rolling_disk_pendulum.csv.");
    }
    #[cfg(feature = "plot")]
    {
        let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
        let dir = nonholo::plot::plots_dir(target)?;
        let (angles, energy) = (
            dir.join("rolling_disk_pendulum.png"),
            dir.join("rolling_disk_pendulum_energy.png"),
        );
        traj.plot_png(&angles, "unicycle with rider", &["phi", "theta", "theta1"])?;
        traj.plot_energy_png(&uni, &energy)?;
        println!(
            "Plots written to {} and {}.",
            angles.display(),
            energy.display()
        );
    }
    Ok(())
}
