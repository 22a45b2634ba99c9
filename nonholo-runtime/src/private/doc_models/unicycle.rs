//! The unicycle with a [`Geometry`](crate::Geometry) and a scene, [`Unicycle`].

use super::finite;
use crate::private::{as_array, as_array_mut};
use crate::{check_velocities, Error, Formulation, Model, Scalar};
use alloc::vec;
use alloc::vec::Vec;

/// A unicycle: a wheel (radius `r`) kept upright by its rider, rolling without slipping on
/// the ground `z = 0` (the vertical rolling disk of Bloch's *Nonholonomic Mechanics*, 1.4,
/// with a rider on top): coordinates `[x, y, psi, phi]` (contact point, heading, wheel
/// angle), speeds `[v, w]` (forward speed, turning rate), state `[x, y, psi, phi, v, w]`.
///
/// The wheel neither slips sideways, `dot(y) cos(psi) = dot(x) sin(psi)`, nor along its
/// heading, `dot(x) cos(psi) + dot(y) sin(psi) = r dot(phi)`, so
/// `dot(q) = [v cos(psi), v sin(psi), w, v / r]`, and with
/// `T = 1/2 m (dot(x)^2 + dot(y)^2) + 1/2 k dot(psi)^2 + 1/2 j dot(phi)^2` the equations are
/// `dot(v) = 0`, `dot(w) = 0`: it rides a circle of radius `v / w` at constant speed
/// ([`Unicycle::exact`]). Energy `1/2 (m + j / r^2) v^2 + 1/2 k w^2`.
///
/// It implements [`Geometry`](crate::Geometry) by hand, for the `viz` doctests: frames
/// `N` (ground), `H` (heading: `N` turned by `psi` about `z`, the rider's) and `W` (the
/// wheel: `H` turned by `phi` about its `y`, the axle); points `O`, `saddle`, `valve` (on
/// the rim), `head`, `W.center`, `R.center` (the rider's), `W.contact`; a scene with every
/// kind of [`Shape`](crate::Shape).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unicycle {
    /// Wheel radius.
    pub r: f64,
    /// Total mass (wheel and rider).
    pub m: f64,
    /// The wheel's moment of inertia about its axle.
    pub j: f64,
    /// Moment of inertia about the vertical.
    pub k: f64,
}

impl Default for Unicycle {
    fn default() -> Self {
        Self {
            r: 0.3,
            m: 70.0,
            j: 0.1,
            k: 2.0,
        }
    }
}

impl Unicycle {
    /// The exact state at time `t` from `state0 = [x, y, psi, phi, v, w]` at `t = 0`.
    pub fn exact(&self, state0: &[f64; 6], t: f64) -> [f64; 6] {
        let [x, y, psi, phi, v, w] = *state0;
        let psi_t = psi + w * t;
        let (dx, dy) = if w.abs() < 1e-12 {
            (v * t * Scalar::cos(psi), v * t * Scalar::sin(psi))
        } else {
            (
                v / w * (Scalar::sin(psi_t) - Scalar::sin(psi)),
                -v / w * (Scalar::cos(psi_t) - Scalar::cos(psi)),
            )
        };
        [x + dx, y + dy, psi_t, phi + v * t / self.r, v, w]
    }

    /// The exact motion from `state0` sampled at `samples + 1` equally spaced times over
    /// `[0, t_end]`, with its derivatives: a [`Trajectory`](crate::Trajectory) with no
    /// integrator involved.
    pub fn ride(
        &self,
        state0: &[f64; 6],
        t_end: f64,
        samples: usize,
    ) -> Result<crate::Trajectory, Error> {
        let mut tr = crate::Trajectory::new::<Self>();
        tr.reserve(samples + 1);
        let mut d = [0.0; 6];
        for i in 0..=samples {
            let t = t_end * i as f64 / samples.max(1) as f64;
            let s = self.exact(state0, t);
            self.rhs(t, &s, &mut d)?;
            tr.push(t, &s, &d)?;
        }
        Ok(tr)
    }

    /// `(c, h, w)`: the wheel's centre and the orientations of `H` and `W`.
    fn placement(&self, q: &[f64]) -> Result<UnicyclePlacement, Error> {
        let [x, y, psi, phi] = *as_array(q, "q")?;
        let (sp, cp) = (Scalar::sin(psi), Scalar::cos(psi));
        let (sf, cf) = (Scalar::sin(phi), Scalar::cos(phi));
        let h = [[cp, -sp, 0.0], [sp, cp, 0.0], [0.0, 0.0, 1.0]];
        // W = H Ry(phi): columns cos(phi) h.x - sin(phi) h.z, h.y, sin(phi) h.x + cos(phi) h.z
        let w = [
            [cf * cp, -sp, sf * cp],
            [cf * sp, cp, sf * sp],
            [-sf, 0.0, cf],
        ];
        Ok(([x, y, self.r], h, w))
    }
}

/// A unicycle's wheel centre and the orientations of its frames `H` and `W`.
type UnicyclePlacement = ([f64; 3], [[f64; 3]; 3], [[f64; 3]; 3]);

/// `c + s * (column j of r)`.
fn along(c: [f64; 3], r: &[[f64; 3]; 3], j: usize, s: f64) -> [f64; 3] {
    [c[0] + s * r[0][j], c[1] + s * r[1][j], c[2] + s * r[2][j]]
}

impl Model for Unicycle {
    const COORDINATES: &'static [&'static str] = &["x", "y", "psi", "phi"];
    const SPEEDS: &'static [&'static str] = &["v", "w"];
    const PARAMETERS: &'static [&'static str] = &["r", "m", "j", "k"];
    const CONSTRAINTS: &'static [&'static str] = &[
        "dot(y) cos(psi) == dot(x) sin(psi)",
        "dot(x) cos(psi) + dot(y) sin(psi) == r dot(phi)",
    ];
    const NQ: usize = 4;
    const NZ: usize = 2;
    const NC: usize = 2;
    const DIM: usize = 6;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v cos(psi)\ndot(y) = v sin(psi)\n\
                                     dot(psi) = w\ndot(phi) = v / r\n\
                                     (m + j / r^2) dot(v) = 0\nk dot(w) = 0";
    type State = [f64; 6];
    const ZERO_STATE: [f64; 6] = [0.0; 6];

    fn parameters(&self) -> Vec<f64> {
        vec![self.r, self.m, self.j, self.k]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [_, _, psi, _, v, w] = *as_array(state, "state")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [
            v * Scalar::cos(psi),
            v * Scalar::sin(psi),
            w,
            v / self.r,
            0.0,
            0.0,
        ];
        finite(t, state, d)
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        let [_, _, psi, _] = *as_array(q, "q")?;
        let [v, w] = *as_array(z, "z")?;
        *as_array_mut(qdot, "qdot")? = [v * Scalar::cos(psi), v * Scalar::sin(psi), w, v / self.r];
        Ok(())
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 6], Error> {
        let [x, y, psi, phi] = *as_array(q, "q")?;
        let [xd, yd, psid, _] = *as_array(qdot, "qdot")?;
        check_velocities(self, t, q, qdot, 1e-8)?;
        let v = xd * Scalar::cos(psi) + yd * Scalar::sin(psi);
        Ok([x, y, psi, phi, v, psid])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [_, _, _, _, v, w] = *as_array(state, "state")?;
        Ok(0.5 * (self.m + self.j / (self.r * self.r)) * v * v + 0.5 * self.k * w * w)
    }
    fn constraint_residual(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        let [_, _, psi, _] = *as_array(q, "q")?;
        let [xd, yd, _, phid] = *as_array(qdot, "qdot")?;
        let (s, c) = (Scalar::sin(psi), Scalar::cos(psi));
        *as_array_mut(residual, "constraint residual")? =
            [yd * c - xd * s, xd * c + yd * s - self.r * phid];
        Ok(())
    }
}

impl crate::Geometry for Unicycle {
    const POINTS: &'static [&'static str] = &[
        "O",
        "saddle",
        "valve",
        "head",
        "W.center",
        "R.center",
        "W.contact",
    ];
    const FRAMES: &'static [&'static str] = &["N", "H", "W"];
    const BODIES: &'static [&'static str] = &["W", "R"];

    fn point_positions(&self, _t: f64, q: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error> {
        let (c, h, w) = self.placement(q)?;
        let r = self.r;
        *as_array_mut(out, "point positions")? = [
            [0.0; 3],
            along(c, &h, 2, 1.45 * r),
            along(c, &w, 2, r),
            along(c, &h, 2, 3.4 * r),
            c,
            along(c, &h, 2, 2.35 * r),
            [c[0], c[1], 0.0],
        ];
        Ok(())
    }

    fn frame_orientations(
        &self,
        _t: f64,
        q: &[f64],
        out: &mut [[[f64; 3]; 3]],
    ) -> Result<(), Error> {
        let (_, h, w) = self.placement(q)?;
        let n = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        *as_array_mut(out, "frame orientations")? = [n, h, w];
        Ok(())
    }

    fn point_velocities(&self, _t: f64, state: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error> {
        let [x, y, psi, phi, v, w] = *as_array(state, "state")?;
        let out = as_array_mut::<_, 7>(out, "point velocities")?;
        let (_, h, wf) = self.placement(&[x, y, psi, phi])?;
        // the centre moves along h.x; H turns about z (parallel to the rider's points'
        // offsets, which so move with the centre), W also about h.y at v / r
        let vc = [v * h[0][0], v * h[1][0], 0.0];
        // valve = c + r W.z: velocity vc + (w z + v / r h.y) x (r W.z)
        let (oz, oy) = (w, v / self.r);
        let om = [oy * h[0][1], oy * h[1][1], oz];
        let rv = [self.r * wf[0][2], self.r * wf[1][2], self.r * wf[2][2]];
        let valve = [
            vc[0] + om[1] * rv[2] - om[2] * rv[1],
            vc[1] + om[2] * rv[0] - om[0] * rv[2],
            vc[2] + om[0] * rv[1] - om[1] * rv[0],
        ];
        // the wheel's material contact point is at rest (rolling)
        *out = [[0.0; 3], vc, valve, vc, vc, vc, [0.0; 3]];
        Ok(())
    }

    fn position(&self, name: &str, t: f64, q: &[f64]) -> Result<[f64; 3], Error> {
        let i = crate::geometry::index_of("points", Self::POINTS, name)?;
        let mut all = [[0.0; 3]; 7];
        self.point_positions(t, q, &mut all)?;
        Ok(all[i])
    }

    fn scene(&self) -> Vec<crate::Shape> {
        use crate::Shape;
        let r = self.r;
        vec![
            Shape::Grid {
                point: 0,
                up: [0.0, 0.0, 1.0],
                color: [160, 168, 180],
            },
            Shape::Disk {
                center: 4,
                frame: 2,
                normal: [0.0, 1.0, 0.0],
                radius: r,
                color: [76, 114, 176],
            },
            Shape::Cylinder {
                center: 4,
                frame: 2,
                axis: [0.0, 1.0, 0.0],
                radius: 0.12 * r,
                length: 0.45 * r,
                color: [140, 140, 140],
            },
            Shape::Segment {
                from: 4,
                to: 1,
                color: [90, 90, 100],
            },
            Shape::Cuboid {
                center: 1,
                frame: 1,
                half: [0.35 * r, 0.12 * r, 0.06 * r],
                color: [60, 60, 70],
            },
            Shape::Ellipsoid {
                center: 5,
                frame: 1,
                axes: [
                    [0.3 * r, 0.0, 0.0],
                    [0.0, 0.45 * r, 0.0],
                    [0.0, 0.0, 0.8 * r],
                ],
                color: [221, 132, 82],
            },
            Shape::Sphere {
                center: 3,
                radius: 0.28 * r,
                color: [236, 196, 160],
            },
            Shape::Dot {
                point: 2,
                color: [196, 78, 82],
            },
        ]
    }
}
