//! 3-vectors over any num-dual scalar (so that velocities of points come from AD).

use crate::common::oracle::Scalar;

pub fn v_add<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn v_scale<S: Scalar>(a: [S; 3], s: f64) -> [S; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub fn v_dot<S: Scalar>(a: [S; 3], b: [S; 3]) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn v_cross<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
