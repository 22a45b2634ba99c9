//! Talamucci 2015, §3.2 through the Boltzmann–Hamel equations (eq. 20): the pendulum on a
//! skate whose front point is driven along a wavy path. Prints each contribution of
//! eq. (20) — Q, Lambda, N, the explicit-time terms, the constraint correction that eq. (17)
//! omits, the forces — and the energy balance: the driven constraint does work.
use nonholo::prelude::*;

nonholonomic! {
    /// Talamucci 3.2, Boltzmann–Hamel.
    pub struct Front;
    parameters {
        big_m = 4.0, i_c = 0.3, m_s = 3.0, m_d = 1.0, rho = 0.5,
        kappa = 0.4, kappa1 = 1.0, kappa2 = 0.3, g = 9.81, c_th = 0.5, c_th1 = 0.5,
        v0 = 1.0, a_f = 0.3, omega = 1.0
    }
    coordinates { phi, theta, theta1 }
    let xfd = v0;
    let yfd = a_f * omega * cos(omega * t);
    let xcd = xfd + rho * sin(phi) * dot(phi);
    let ycd = yfd - rho * cos(phi) * dot(phi);
    let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
    let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
    let v3 = m_d * kappa * (kappa1 + kappa2);
    let m_t = big_m + m_s + m_d;
    let f1 = v1 * sin(theta) + m_d * kappa * sin(theta1);
    let f2 = i_c + m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
        + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1);
    let v_par = xcd * cos(phi) + ycd * sin(phi);
    let v_perp = -xcd * sin(phi) + ycd * cos(phi);
    kinetic_energy = 0.5 * m_t * (xcd.powi(2) + ycd.powi(2)) + 0.5 * f2 * dot(phi).powi(2)
        + 0.5 * v2 * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
        + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
        - f1 * dot(phi) * v_par
        + (v1 * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
    potential_energy = v1 * g * cos(theta) - m_d * kappa * g * cos(theta1);
    forces { theta: -c_th * dot(theta), theta1: -c_th1 * dot(theta1) }
    constraints { 2.0 * rho * dot(phi) + xfd * sin(phi) - yfd * cos(phi) == 0.0; }
    speeds { eta1 = dot(theta); eta2 = dot(theta1); }
    formulation = boltzmann_hamel;
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let m = Front::default();
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
