//! Benenti's second method on the skate: the reaction force that keeps the blade from
//! sliding sideways, along a run on an inclined plane, checked against Newton's law
//! across the blade (m v w = F_lateral + R_lateral, gravity's lateral part
//! F_lateral = -m g sin(alpha) sin(theta)) and plotted (feature `plot`).
//!
//! `cargo run --release --features plot --example skate_reactions` writes
//! `target/plots/skate_reactions.png` (or into `$NONHOLO_PLOTS`).
use nonholo::prelude::*;

nonholo::skate_model! {
    /// The skate of Benenti 9.1 (the library's physics), second method.
    pub struct Skate;
    formulation = multipliers;
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // On a plane inclined along x, no damping.
    let skate = Skate::default().with_alpha(0.2);
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
        let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
        let path = nonholo::plot::plots_dir(target)?.join("skate_reactions.png");
        nonholo::plot::plot_series_png(
            &path,
            "skate: lateral reaction force vs Newton (m v w - F_lateral)",
            traj.times(),
            &[
                ("R lateral", &lateral),
                ("m v w - F lateral", &newton),
                ("lambda", &lambda),
            ],
        )?;
        println!("wrote {}", path.display());
    }
    #[cfg(not(feature = "plot"))]
    let _ = (lateral, newton, lambda);
    Ok(())
}
