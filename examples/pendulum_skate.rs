//! Talamucci 2015, §3.1: the pendulum on a skate (a simple bicycle model). The frame leans
//! and falls while the skate turns; the rider's pendulum swings. Stationary, so energy is
//! conserved.
use nonholo::models::PendulumSkate;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bike = PendulumSkate::default();
    println!("{}", PendulumSkate::EQUATIONS);
    let state0 =
        bike.state_from_qdot(0.0, &[0.0, 0.0, 0.0, 0.05, 0.0], &[2.0, 0.0, 0.0, 0.0, 0.0])?;
    let traj = simulate(
        &bike,
        &state0,
        0.0..1.5,
        &Options::default().sample_every(0.125),
    )?;
    println!(
        "{:>6} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "t", "x_c", "y_c", "phi", "theta", "theta1"
    );
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:6.3} {:9.4} {:9.4} {:9.4} {:9.4} {:9.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[2],
            s[3],
            s[4]
        );
    }
    let e = traj.energy(&bike)?;
    println!(
        "energy drift {:.1e} J",
        e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max)
    );
    Ok(())
}
