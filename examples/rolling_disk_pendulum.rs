//! Talamucci 2015, §3.3: the unicycle with rider — a disk rolling without sliding, a frame
//! leaning by theta and a rider swinging by theta1 — written in the `nonholonomic!` DSL
//! (see `nonholo::models::RollingDiskPendulum`) with the paper's momenta as speeds.
//!
//! Derives the equations at compile time, prints them, then rides for two seconds: without
//! a controller the frame falls over (the lean grows) while the rider swings and the disk
//! turns away from the fall. Energy (no pedalling, no damping) and the rolling constraint
//! are checked along the run.
use nonholo::models::RollingDiskPendulum;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let uni = RollingDiskPendulum::default();
    println!("{}", RollingDiskPendulum::EQUATIONS);

    // Rolling forward at 1 m/s, a slight lean, the rider leaning the other way.
    let (q0, phi1d) = ([0.0, 0.0, 0.0, 0.0, 0.05, -0.1], 1.0 / uni.r);
    let qd0 = [1.0, 0.0, 0.0, phi1d, 0.0, 0.0];
    let state0 = uni.state_from_qdot(0.0, &q0, &qd0)?;
    let traj = simulate(
        &uni,
        &state0,
        0.0..2.0,
        &Options::default().sample_every(0.125),
    )?;

    println!(
        "{:>5} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "t", "x_c", "y_c", "heading", "lean", "rider"
    );
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:5.2} {:9.4} {:9.4} {:9.4} {:9.4} {:9.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[2],
            s[4],
            s[5]
        );
    }
    let e = traj.energy(&uni)?;
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max);
    println!("energy {:.10} J, max drift {drift:.1e} J", e[0]);
    println!(
        "max rolling-constraint residual {:.1e} m/s",
        traj.max_constraint_residual(&uni)?
    );
    traj.write_csv("rolling_disk_pendulum.csv")?;
    println!("trajectory written to rolling_disk_pendulum.csv");
    #[cfg(feature = "plot")]
    {
        traj.plot_svg(
            "rolling_disk_pendulum.svg",
            "unicycle with rider",
            &["phi", "theta", "theta1"],
        )?;
        traj.plot_energy_svg(&uni, "rolling_disk_pendulum_energy.svg")?;
        println!("plots written to rolling_disk_pendulum.svg and rolling_disk_pendulum_energy.svg");
    }
    Ok(())
}
