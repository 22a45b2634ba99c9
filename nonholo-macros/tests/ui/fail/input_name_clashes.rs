use nonholo::prelude::*;

nonholonomic! {
    pub struct Cart;
    parameters { m, f }
    inputs { f, x }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
    forces { x: f + dot(f) }
}

fn main() {}
