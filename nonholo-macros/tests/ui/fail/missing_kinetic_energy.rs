use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x }
}

fn main() {}
