//! Talamucci 2015, §3.2: the front of the skate is driven along x_F = v0 t,
//! y_F = a_f sin(omega t); the heading follows from the (time-dependent) constraint and the
//! lean and rider respond. A rheonomic system: time enters T and the constraint.
use nonholo::models::AssignedFront;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let m = AssignedFront::new().with_c_th(0.5).with_c_th1(0.5);
    println!("{}", AssignedFront::EQUATIONS);
    // Heading consistent with the constraint at t = 0: 2 rho phi' = -(x_F' sin phi - y_F' cos phi).
    let traj = simulate(
        &m,
        &[0.0, 0.0, 0.0, 0.0, 0.0],
        0.0..10.0,
        &Options::default().sample_every(1.0),
    )?;
    println!("{:>5} {:>9} {:>9} {:>9}", "t", "phi", "theta", "theta1");
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:5.1} {:9.4} {:9.4} {:9.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[2]
        );
    }
    println!(
        "max constraint residual {:.1e}",
        traj.max_constraint_residual(&m)?
    );
    Ok(())
}
