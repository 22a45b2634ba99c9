//! The model of `energy_balance`: Talamucci 3.1 through Boltzmann–Hamel.

nonholo::pendulum_skate_model! {
    /// Talamucci 3.1 through Boltzmann–Hamel, with its split of eq. (20).
    pub struct BikeBh;
    speeds {
        eta1 = (cos(phi) * dot(x_c) + sin(phi) * dot(y_c)) / rho;
        eta2 = (-sin(phi) * dot(x_c) + cos(phi) * dot(y_c)) / rho;
        eta3 = dot(theta);
        eta4 = dot(theta1);
    }
    formulation = boltzmann_hamel;
}
