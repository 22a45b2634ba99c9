use nonholo::prelude::*;

nonholonomic! {
    pub struct ParallelPoints;
    parameters { m1, m2 }
    coordinates { x1, y1, x2, y2 }
    kinetic_energy = 0.5 * m1 * (dot(x1).powi(2) + dot(y1).powi(2))
        + 0.5 * m2 * (dot(x2).powi(2) + dot(y2).powi(2));
    constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
    velocities(rho, sigma, theta) {
        dot(x1) = rho * cos(theta);
        dot(y1) = rho * sin(theta);
        dot(x2) = sigma * cos(theta);
        dot(y2) = sigma * sin(theta);
    }
    formulation = voronec;
}

fn main() {}
