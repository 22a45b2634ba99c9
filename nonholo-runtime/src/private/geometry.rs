//! Helpers for the emitted `impl Geometry`: rotations composed link by link, vectors
//! rotated into the root, the default scene's colours and inertia ellipsoids.

use crate::Scalar;
use alloc::vec::Vec;

/// The identity rotation (the root frame).
#[inline]
pub fn identity3<S: Scalar>() -> [[S; 3]; 3] {
    let (o, l) = (S::from_f64(0.0), S::from_f64(1.0));
    [[l, o, o], [o, l, o], [o, o, l]]
}

/// The orientation of `parent.rotate(axis, theta)` from the parent's and `cos theta`,
/// `sin theta`: `R_parent R_axis(theta)` (body-fixed), columns the child's unit vectors in
/// root components.
#[inline]
pub fn rotate3<S: Scalar>(parent: &[[S; 3]; 3], axis: usize, c: S, s: S) -> [[S; 3]; 3] {
    let (i, l) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut r = *parent;
    for row in r.iter_mut() {
        let (pi, pl) = (row[i], row[l]);
        row[i] = c * pi + s * pl;
        row[l] = c * pl - s * pi;
    }
    r
}

/// `acc += r c`: a vector with components `c` in a frame of orientation `r`, added in root
/// components.
#[inline]
pub fn add_rotated<S: Scalar>(acc: &mut [S; 3], r: &[[S; 3]; 3], c: [S; 3]) {
    for (a, row) in acc.iter_mut().zip(r) {
        *a += row[0] * c[0] + row[1] * c[1] + row[2] * c[2];
    }
}

/// The colour of the `i`-th shape of a default scene.
pub fn palette(i: usize) -> [u8; 3] {
    const COLORS: [[u8; 3]; 8] = [
        [76, 114, 176],
        [221, 132, 82],
        [85, 168, 104],
        [196, 78, 82],
        [129, 114, 179],
        [147, 120, 96],
        [218, 139, 195],
        [140, 140, 140],
    ];
    COLORS[i % COLORS.len()]
}

/// The semi-axes (vectors, in the inertia's frame) of the uniform solid ellipsoid with mass
/// `m` and central inertia `(ixx, iyy, izz, ixy, iyz, izx)`: with principal moments
/// `I_k` and axes `e_k`, `a_k^2 = 5 (I_1 + I_2 + I_3 - 2 I_k) / (2 m)`. A degenerate
/// direction (a thin disk's) gets a small thickness rather than zero.
pub fn inertia_ellipsoid(m: f64, inertia: [f64; 6]) -> [[f64; 3]; 3] {
    use nalgebra::{Matrix3, SymmetricEigen};
    let [xx, yy, zz, xy, yz, zx] = inertia;
    let tensor = Matrix3::new(xx, xy, zx, xy, yy, yz, zx, yz, zz);
    let eig = SymmetricEigen::new(tensor);
    let sum: f64 = eig.eigenvalues.iter().sum();
    let m = if m > 0.0 { m } else { 1.0 };
    let squares: [f64; 3] =
        core::array::from_fn(|k| (2.5 * (sum - 2.0 * eig.eigenvalues[k]) / m).max(0.0));
    let largest = squares.iter().fold(0.0f64, |a, b| a.max(*b));
    core::array::from_fn(|k| {
        let a = Scalar::sqrt(squares[k].max(1e-4 * largest));
        let e = eig.eigenvectors.column(k);
        [a * e[0], a * e[1], a * e[2]]
    })
}

/// The shapes of an emitted scene as a `Vec`; a torus whose crown radius is 0 at these
/// parameters (a tyre model run as the thin disk) is drawn as the disk it is.
pub fn to_shapes<const N: usize>(shapes: [crate::Shape; N]) -> Vec<crate::Shape> {
    shapes
        .into_iter()
        .map(|s| match s {
            crate::Shape::Torus {
                center,
                frame,
                normal,
                major,
                crown: 0.0,
                color,
            } => crate::Shape::Disk {
                center,
                frame,
                normal,
                radius: major,
                color,
            },
            other => other,
        })
        .collect()
}
