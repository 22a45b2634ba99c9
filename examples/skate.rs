//! Benenti 2007, §9.1: the skate on an inclined plane. Prints the derived equations and
//! the motion: the blade turns while gravity pulls it down the slope, and the lateral
//! constraint keeps its velocity along the blade.
use nonholo::models::Skate;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let skate = Skate::new().with_alpha(0.2);
    println!("{}", Skate::EQUATIONS);
    let traj = simulate(
        &skate,
        &[0.0, 0.0, 0.0, 0.0, 1.0],
        0.0..6.0,
        &Options::default().sample_every(0.5),
    )?;
    println!(
        "{:>5} {:>10} {:>10} {:>8} {:>8} {:>8}",
        "t", "x", "y", "theta", "v", "w"
    );
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:5.2} {:10.5} {:10.5} {:8.4} {:8.4} {:8.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[2],
            s[3],
            s[4]
        );
    }
    let e = traj.energy(&skate)?;
    println!(
        "energy drift {:.2e}, max constraint residual {:.2e}",
        e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max),
        traj.max_constraint_residual(&skate)?
    );
    Ok(())
}
