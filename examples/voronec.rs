//! Benenti 2007, §9.4 through the Voronec equations: two points with parallel velocities
//! (a nonlinear constraint), the dependent velocity dot(y2) = dot(x2) dot(y1) / dot(x1)
//! solved at compile time, state (q, independent velocities). The same motion as Benenti's
//! parametric form (`nonholo::models::ParallelPoints`).
use nonholo::models::ParallelPoints;
use nonholo::prelude::*;

nonholo::parallel_points_model! {
    /// Benenti 9.4, Voronec.
    pub struct PointsVoronec;
    dependent { y2 }
    formulation = voronec;
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}", PointsVoronec::EQUATIONS);
    let (q0, qd0) = ([0.0, 0.0, 1.0, 0.5], [1.0, 0.4, 0.5, 0.2]);
    let opts = Options::default().sample_every(0.5);
    let (vo, pa) = (PointsVoronec::default(), ParallelPoints::default());
    let a = simulate(&vo, &vo.state_from_qdot(0.0, &q0, &qd0)?, 0.0..2.0, &opts)?;
    let b = simulate(&pa, &pa.state_from_qdot(0.0, &q0, &qd0)?, 0.0..2.0, &opts)?;
    println!(
        "{:>5} {:>10} {:>10} {:>10} {:>10}   |q_Voronec - q_parametric|",
        "t", "x1", "y1", "x2", "y2"
    );
    for i in 0..a.len() {
        let (qa, qb) = (a.q(i).unwrap_or_default(), b.q(i).unwrap_or_default());
        let d = qa
            .iter()
            .zip(qb)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        println!(
            "{:5.2} {:10.5} {:10.5} {:10.5} {:10.5}   {d:.1e}",
            a.times()[i],
            qa[0],
            qa[1],
            qa[2],
            qa[3]
        );
    }
    Ok(())
}
