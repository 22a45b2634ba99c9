#![deny(warnings)]
use nonholo::prelude::*;

nonholonomic! {
    /// Capitalised parameter names read like the papers (I, A, B).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Disk;
    parameters { M, R, A, B }
    coordinates { x, y, theta, psi }
    kinetic_energy = 0.5 * M * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * (A * dot(theta).powi(2) + B * dot(psi).powi(2));
    constraints {
        dot(x) - R * cos(psi) * dot(theta) == 0.0;
        dot(y) - R * sin(psi) * dot(theta) == 0.0;
    }
    speeds { spin = dot(theta); turn = dot(psi); }
}

fn main() {}
