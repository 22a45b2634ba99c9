use nonholo::prelude::*;

nonholonomic! {
    pub struct TwoPoints;
    parameters { m }
    coordinates { x1, y1, x2, y2 }
    kinetic_energy = 0.5 * m * (dot(x1).powi(2) + dot(y1).powi(2) + dot(x2).powi(2) + dot(y2).powi(2));
    constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
    speeds { a = dot(x1); b = dot(y1); c = dot(x2); }
}

fn main() {}
