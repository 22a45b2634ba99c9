//! Talamucci 2015, §3.4: the unicycle with rider, its wheel driven at
//! phi1' = w0 + a_s omega cos(omega t) (a motor). Rheonomic: beta, b and c depend on t.
use nonholo::models::AssignedSpin;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let m = AssignedSpin::new().with_c_phi(0.2).with_c_th1(0.3);
    println!("{}", AssignedSpin::EQUATIONS);
    let q0 = [0.0, 0.0, 0.0, 0.02, 0.0];
    let v = m.r * m.w0 + m.r * m.a_s * m.omega; // rolling speed at t = 0
    let state0 = m.state_from_qdot(0.0, &q0, &[v, 0.0, 0.0, 0.0, 0.0])?;
    let traj = simulate(
        &m,
        &state0,
        0.0..3.0,
        &Options::default().sample_every(0.25),
    )?;
    println!(
        "{:>5} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "t", "x_c", "y_c", "phi", "theta", "theta1"
    );
    for i in 0..traj.len() {
        let s = traj.state(i).unwrap_or_default();
        println!(
            "{:5.2} {:9.4} {:9.4} {:9.4} {:9.4} {:9.4}",
            traj.times()[i],
            s[0],
            s[1],
            s[2],
            s[3],
            s[4]
        );
    }
    println!(
        "max constraint residual {:.1e}",
        traj.max_constraint_residual(&m)?
    );
    Ok(())
}
