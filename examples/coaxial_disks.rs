//! Benenti 2007, §9.3: two disks on a common axle. With no forces both spins stay
//! constant and the axle turns at R (z2 - z1) / a: the pair drives in a circle.
use nonholo::models::CoaxialDisks;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let disks = CoaxialDisks::new();
    println!("{}", CoaxialDisks::EQUATIONS);
    let traj = simulate(
        &disks,
        &[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.5],
        0.0..12.0,
        &Options::default().sample_every(1.5),
    )?;
    println!("{:>5} {:>10} {:>10} {:>8}", "t", "x", "y", "psi");
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:5.1} {:10.5} {:10.5} {:8.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[4]
        );
    }
    let e = traj.energy(&disks)?;
    println!("energy {:.12} -> {:.12}", e[0], e[e.len() - 1]);
    Ok(())
}
