//! Benenti's second method on the skate: the reaction force that keeps the blade from
//! sliding sideways, along a run on an inclined plane, checked against Newton's law
//! across the blade (m v w = F_lateral + R_lateral, gravity's lateral part
//! F_lateral = -m g sin(alpha) sin(theta)) and plotted (feature `plot`).
//!
//! `cargo run --release --features plot --example skate_reactions` writes
//! `skate_reactions.svg`.
use nonholo::prelude::*;

nonholonomic! {
    /// The skate of Benenti 9.1 on a plane inclined along x, second method.
    pub struct Skate;
    parameters { m = 1.0, inertia = 0.1, g = 9.81, alpha = 0.2 }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = -m * g * sin(alpha) * x;
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    formulation = multipliers;
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let skate = Skate::default();
    println!("{}", Skate::EQUATIONS);
    let state0 = skate.state_from_qdot(0.0, &[0.0, 0.0, 0.0], &[0.0, 0.0, 1.0])?;
    let traj = simulate(
        &skate,
        &state0,
        0.0..6.0,
        &Options::default().sample_every(0.02),
    )?;
    let (mut lateral, mut newton, mut lambda) = (vec![], vec![], vec![]);
    let mut worst = 0.0f64;
    for i in 0..traj.len() {
        let (t, s) = (traj.times()[i], traj.state(i).unwrap_or_default());
        let (q, qd) = s.split_at(3);
        let r = skate.reaction_forces(t, q, qd)?;
        let th = q[2];
        // lateral component of R, and m v w from the kinematics
        let r_lat = -r[0] * th.sin() + r[1] * th.cos();
        let v = qd[0] * th.cos() + qd[1] * th.sin();
        let f_lat = -skate.m * skate.g * skate.alpha.sin() * th.sin();
        let needed = skate.m * v * qd[2] - f_lat;
        worst = worst.max((r_lat - needed).abs());
        lateral.push(r_lat);
        newton.push(needed);
        lambda.push(skate.multipliers(t, q, qd)?[0]);
    }
    println!("max |R_lateral - (m v w - F_lateral)| along the run: {worst:.1e} N");
    println!("final state {:?}", traj.last());
    #[cfg(feature = "plot")]
    {
        nonholo::plot::plot_series_svg(
            "skate_reactions.svg",
            "skate: lateral reaction force vs Newton (m v w - F_lateral)",
            traj.times(),
            &[
                ("R lateral", &lateral),
                ("m v w - F lateral", &newton),
                ("lambda", &lambda),
            ],
        )?;
        println!("wrote skate_reactions.svg");
    }
    #[cfg(not(feature = "plot"))]
    let _ = (lateral, newton, lambda);
    Ok(())
}
