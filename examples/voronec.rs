//! Benenti 2007, §9.4 through the Voronec equations: two points with parallel velocities
//! (a nonlinear constraint), the dependent velocity dot(y2) = dot(x2) dot(y1) / dot(x1)
//! solved at compile time, state (q, independent velocities). The same motion as Benenti's
//! parametric form (`nonholo::models::ParallelPoints`).
use nonholo::models::ParallelPoints;
use nonholo::prelude::*;

nonholonomic! {
    /// Benenti 9.4, Voronec.
    pub struct PointsVoronec;
    parameters { m1 = 1.0, m2 = 2.0, g = 9.81 }
    coordinates { x1, y1, x2, y2 }
    kinetic_energy = 0.5 * m1 * (dot(x1).powi(2) + dot(y1).powi(2)) + 0.5 * m2 * (dot(x2).powi(2) + dot(y2).powi(2));
    potential_energy = -g * (m1 * x1 + m2 * x2);
    constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
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
