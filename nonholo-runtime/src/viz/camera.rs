//! The camera: an orbit around a target (azimuth, elevation, distance) about the scene's
//! up direction, and the perspective projection. `viewer.js` implements the same maths
//! (`makeCamera`, `project`), so the browser and the images agree.

/// A 3-vector.
pub(crate) type V3 = [f64; 3];

pub(crate) fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(crate) fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub(crate) fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(crate) fn norm(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// `a / |a|`, or `a` itself when it is (nearly) zero.
pub(crate) fn normalize(a: V3) -> V3 {
    let n = norm(a);
    if n > 1e-300 {
        scale(a, 1.0 / n)
    } else {
        a
    }
}

/// `r c`: components `c` in a frame of orientation `r`, in root components.
pub(crate) fn rotate(r: &[[f64; 3]; 3], c: V3) -> V3 {
    [
        r[0][0] * c[0] + r[0][1] * c[1] + r[0][2] * c[2],
        r[1][0] * c[0] + r[1][1] * c[1] + r[1][2] * c[2],
        r[2][0] * c[0] + r[2][1] * c[1] + r[2][2] * c[2],
    ]
}

/// Two unit vectors `(e1, e2)` spanning the plane normal to the unit `n`, with
/// `(e1, e2, n)` right-handed: `e1` is the root `x` projected on the plane (the root `y`
/// when `x` is nearly along `n`).
pub(crate) fn plane_basis(n: V3) -> (V3, V3) {
    let x = if n[0].abs() > 0.9 {
        [0.0, 1.0, 0.0]
    } else {
        [1.0, 0.0, 0.0]
    };
    let e1 = normalize(sub(x, scale(n, dot(x, n))));
    (e1, cross(n, e1))
}

/// A unit vector normal to the unit `n` in the components `n` is written in: `n` crossed
/// with the axis least aligned with it. Shapes use it to put their spokes and seams, so
/// that these turn with the frame.
pub(crate) fn perpendicular(n: V3) -> V3 {
    let a = [n[0].abs(), n[1].abs(), n[2].abs()];
    let k = if a[0] <= a[1] && a[0] <= a[2] {
        [1.0, 0.0, 0.0]
    } else if a[1] <= a[2] {
        [0.0, 1.0, 0.0]
    } else {
        [0.0, 0.0, 1.0]
    };
    normalize(cross(n, k))
}

/// Where the camera looks from, in the form both renderers use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct View {
    /// Azimuth (radians) about `up`, from `e1` of [`plane_basis`] towards `e2`.
    pub az: f64,
    /// Elevation (radians) above the plane normal to `up`.
    pub el: f64,
    /// Distance from the target.
    pub dist: f64,
    /// Field of view (radians) across the smaller side of the picture.
    pub fov: f64,
    /// The point looked at.
    pub target: V3,
    /// The unit up direction of the scene.
    pub up: V3,
}

/// A [`View`] set up for a picture of `width x height` pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Camera {
    pub eye: V3,
    /// Unit vectors: screen right, screen up, and `back` (from the target to the eye).
    pub right: V3,
    pub up: V3,
    pub back: V3,
    /// Focal length in pixels.
    pub f: f64,
    pub cx: f64,
    pub cy: f64,
    /// The nearest depth drawn.
    pub near: f64,
}

impl Camera {
    pub(crate) fn new(view: &View, width: f64, height: f64) -> Self {
        let (e1, e2) = plane_basis(view.up);
        let (ca, sa) = (view.az.cos(), view.az.sin());
        let (ce, se) = (view.el.cos(), view.el.sin());
        let back = add(
            scale(add(scale(e1, ca), scale(e2, sa)), ce),
            scale(view.up, se),
        );
        let right = normalize(cross(view.up, back));
        let up = cross(back, right);
        Camera {
            eye: add(view.target, scale(back, view.dist)),
            right,
            up,
            back,
            f: 0.5 * width.min(height) / (0.5 * view.fov).tan(),
            cx: 0.5 * width,
            cy: 0.5 * height,
            near: 1e-3 * view.dist,
        }
    }

    /// Camera coordinates `(x right, y up, depth in front)` of a point.
    pub(crate) fn camera_coords(&self, p: V3) -> V3 {
        let v = sub(p, self.eye);
        [dot(v, self.right), dot(v, self.up), -dot(v, self.back)]
    }

    /// Screen position (pixels, y down) and depth of a point; the depth is not positive
    /// behind the camera (and the position then meaningless).
    pub(crate) fn project(&self, p: V3) -> V3 {
        let [x, y, z] = self.camera_coords(p);
        self.screen([x, y, z])
    }

    /// Screen position of camera coordinates.
    pub(crate) fn screen(&self, c: V3) -> V3 {
        let [x, y, z] = c;
        [self.cx + self.f * x / z, self.cy - self.f * y / z, z]
    }

    /// Shading factor of a face of unit normal `n` (two-sided): a light from the upper
    /// left, over the viewer's shoulder.
    pub(crate) fn shade(&self, n: V3) -> f64 {
        let l = [-0.4, 0.7, 0.6];
        let ln = 1.0 / norm(l);
        let c = [dot(n, self.right), dot(n, self.up), dot(n, self.back)];
        0.55 + 0.45 * (dot(c, l) * ln).abs()
    }
}

/// The "nice" grid step (1, 2 or 5 times a power of ten) closest to `x > 0`.
pub(crate) fn nice_step(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    let m = x / p;
    let k = if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    };
    k * p
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::{FRAC_PI_2, FRAC_PI_4};

    fn close(a: V3, b: V3) -> bool {
        norm(sub(a, b)) < 1e-12
    }

    fn view(az: f64, el: f64) -> View {
        View {
            az,
            el,
            dist: 10.0,
            fov: FRAC_PI_2,
            target: [1.0, 2.0, 3.0],
            up: [0.0, 0.0, 1.0],
        }
    }

    #[test]
    fn the_camera_basis_is_orthonormal_and_right_handed() {
        for (az, el) in [(0.3, 0.2), (-1.0, -0.5), (2.0, 1.4), (0.0, 0.0)] {
            let c = Camera::new(&view(az, el), 800.0, 600.0);
            for v in [c.right, c.up, c.back] {
                assert!((norm(v) - 1.0).abs() < 1e-12);
            }
            assert!(dot(c.right, c.up).abs() < 1e-12 && dot(c.up, c.back).abs() < 1e-12);
            assert!(close(cross(c.right, c.up), c.back));
            // the screen's right is horizontal: no roll
            assert!(dot(c.right, [0.0, 0.0, 1.0]).abs() < 1e-12);
            // the eye at the distance along back
            assert!((norm(sub(c.eye, [1.0, 2.0, 3.0])) - 10.0).abs() < 1e-12);
        }
    }

    #[test]
    fn azimuth_and_elevation_place_the_eye() {
        // az = 0, el = 0: on +x of the target, looking along -x, y to the right, z up
        let c = Camera::new(&view(0.0, 0.0), 800.0, 600.0);
        assert!(close(c.eye, [11.0, 2.0, 3.0]));
        assert!(close(c.right, [0.0, 1.0, 0.0]) && close(c.up, [0.0, 0.0, 1.0]));
        // az = 90 deg: on +y; el = 90 deg would be straight above
        let c = Camera::new(&view(FRAC_PI_2, 0.0), 800.0, 600.0);
        assert!(close(c.eye, [1.0, 12.0, 3.0]));
        let c = Camera::new(&view(0.0, FRAC_PI_4), 800.0, 600.0);
        let h = 10.0 * FRAC_PI_4.cos();
        assert!(close(c.eye, [1.0 + h, 2.0, 3.0 + h]));
        // a z-down world (up = -z): the eye goes to -z for a positive elevation
        let mut v = view(0.0, FRAC_PI_4);
        v.up = [0.0, 0.0, -1.0];
        let c = Camera::new(&v, 800.0, 600.0);
        assert!(close(c.eye, [1.0 + h, 2.0, 3.0 - h]));
        assert!(close(c.up, normalize([-1.0, 0.0, -1.0])));
    }

    #[test]
    fn projection_is_a_pinhole() {
        let c = Camera::new(&view(0.0, 0.0), 800.0, 600.0);
        // the target at the centre, at the distance
        let p = c.project([1.0, 2.0, 3.0]);
        assert!(close(p, [400.0, 300.0, 10.0]));
        // fov 90 deg across the height: f = 300 px; a point 1 to the right (+y) and 2 up
        // at depth 10 lands 30 px right and 60 px up
        assert!((c.f - 300.0).abs() < 1e-9);
        let p = c.project([1.0, 3.0, 5.0]);
        assert!(close(p, [430.0, 240.0, 10.0]));
        // twice as far, half the offset
        let p = c.project([-9.0, 3.0, 5.0]);
        assert!(close(p, [415.0, 270.0, 20.0]));
        // behind the eye: depth negative
        assert!(c.project([20.0, 2.0, 3.0])[2] < 0.0);
        // a square picture uses its side, a tall one its width
        assert!((Camera::new(&view(0.0, 0.0), 300.0, 900.0).f - 150.0).abs() < 1e-9);
    }

    #[test]
    fn shading_is_two_sided_and_bounded() {
        let c = Camera::new(&view(0.4, 0.3), 800.0, 600.0);
        for n in [[1.0, 0.0, 0.0], [0.0, 0.6, 0.8], c.back, c.right] {
            let s = c.shade(n);
            assert!((0.55..=1.0).contains(&s));
            assert!((s - c.shade(scale(n, -1.0))).abs() < 1e-15);
        }
        assert!(c.shade(c.back) > c.shade(c.right));
    }

    #[test]
    fn plane_bases_and_perpendiculars() {
        for n in [
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
            [1.0, 0.0, 0.0],
            normalize([1.0, 2.0, -3.0]),
        ] {
            let (e1, e2) = plane_basis(n);
            assert!(dot(e1, n).abs() < 1e-12 && dot(e2, n).abs() < 1e-12);
            assert!(close(cross(e1, e2), n));
            let p = perpendicular(n);
            assert!(dot(p, n).abs() < 1e-12 && (norm(p) - 1.0).abs() < 1e-12);
        }
        assert!(close(plane_basis([0.0, 0.0, 1.0]).0, [1.0, 0.0, 0.0]));
        assert!(close(plane_basis([0.0, 0.0, 1.0]).1, [0.0, 1.0, 0.0]));
    }

    #[test]
    fn nice_steps() {
        for (x, s) in [
            (1.0, 1.0),
            (0.3, 0.2),
            (0.04, 0.05),
            (8.0, 10.0),
            (230.0, 200.0),
        ] {
            assert!((nice_step(x) - s).abs() < 1e-12 * s, "{x}");
        }
    }
}
