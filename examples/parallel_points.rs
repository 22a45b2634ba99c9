//! Benenti 2007, §9.4: two points whose velocities must stay parallel (a nonlinear
//! constraint), sliding on an inclined plane. Benenti's parametric form (9.15) with the
//! speeds rho, sigma and the common direction theta.
use nonholo::models::ParallelPoints;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pts = ParallelPoints::default();
    println!("{}", ParallelPoints::EQUATIONS);
    // Start from velocities given in Cartesian form; the speeds are found from them.
    let state0 = pts.state_from_qdot(0.0, &[0.0, 0.0, 0.0, 1.0], &[0.2, 1.0, 0.1, 0.5])?;
    let traj = simulate(
        &pts,
        &state0,
        0.0..3.0,
        &Options::default().sample_every(0.25),
    )?;
    println!(
        "{:>5} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "t", "x1", "y1", "x2", "y2", "theta"
    );
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:5.2} {:9.4} {:9.4} {:9.4} {:9.4} {:8.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[2],
            s[3],
            s[6]
        );
    }
    println!(
        "max |x1' y2' - x2' y1'| along the run: {:.2e}",
        traj.max_constraint_residual(&pts)?
    );
    Ok(())
}
