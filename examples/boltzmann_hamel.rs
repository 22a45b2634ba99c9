//! Talamucci 2015, §3.2 through the Boltzmann–Hamel equations (eq. 20): the pendulum on a
//! skate whose front point is driven along a wavy path. Prints each contribution of
//! eq. (20) — Q, Lambda, N, the explicit-time terms, the constraint correction that eq. (17)
//! omits, the forces — and the energy balance: the driven constraint does work.
use nonholo::prelude::*;

nonholo::assigned_front_model! {
    /// Talamucci 3.2, Boltzmann–Hamel.
    pub struct Front;
    speeds { eta1 = dot(theta); eta2 = dot(theta1); }
    formulation = boltzmann_hamel;
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let m = Front::default().with_c_th(0.5).with_c_th1(0.5);
    println!("{}", Front::EQUATIONS);
    let traj = simulate(
        &m,
        &[0.0, 0.0, 0.0, 0.0, 0.0],
        0.0..4.0,
        &Options::default().sample_every(1.0),
    )?;
    for i in 0..traj.len() {
        let (t, s) = (traj.times()[i], traj.state(i).unwrap_or_default());
        println!(
            "\nt = {t:.1}: phi {:.4}, theta {:.4}, theta1 {:.4}",
            s[0], s[1], s[2]
        );
        for (name, row) in Front::EQUATION_TERMS.iter().zip(m.equation_terms(t, s)?) {
            println!("  {name:>22}: [{:>10.5}, {:>10.5}]", row[0], row[1]);
        }
        let [pf, pt, pr] = m.power_balance(t, s)?;
        println!(
            "  dE/dt = F.qd ({pf:.4}) + -dL/dt ({pt:.4}) + R.qd ({pr:.4}) = {:.4} W",
            pf + pt + pr
        );
    }
    Ok(())
}
