use nonholo::prelude::*;

nonholonomic! {
    pub struct Cart;
    parameters { m }
    inputs { push }
    coordinates { x }
    kinetic_energy = 0.5 * (m + push) * dot(x).powi(2);
    forces { x: push }
}

fn main() {}
