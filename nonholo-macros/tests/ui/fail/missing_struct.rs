use nonholo::prelude::*;

nonholonomic! {
    parameters { m }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
}

fn main() {}
