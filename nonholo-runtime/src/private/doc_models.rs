//! Small hand-written [`Model`]s with exact solutions, for the crate's doctests (the
//! runtime cannot use `nonholonomic!` in its own docs). Not a stable API.
//!
//! - [`Oscillator`]: `m x'' + c x' + k x = u`, no constraints.
//! - [`ForcedOscillator`]: `m x'' + k x = f` with the force `f` a runtime input.
//! - [`Skate`]: a skate on ice (a knife edge at its centre of mass), one nonholonomic
//!   constraint; it runs on a circle. [`SkateLagrange`]: the same by Lagrange
//!   multipliers, state `[q, dot(q)]`, which can violate the constraint.
//! - [`Wheel`]: a disk rolling on a line, tethered by a spring at its centre; the rolling
//!   constraint is integrable (a configuration constraint `x = r phi`).
//! - [`Kepler`]: a planet around a fixed sun, `r'' = -mu r / |r|^3`: nonlinear, with the
//!   exact elliptic orbit (Kepler's equation) to compare against.
//! - [`Unicycle`]: a rider on a wheel rolling in a circle, with [`Geometry`](crate::Geometry)
//!   and a scene, what the animations are shown on.
//! - [`Mislabelled`]: an [`Oscillator`] whose constants do not match (one speed, no
//!   speed name).

use super::{as_array, as_array_mut, to_vec};
use crate::{check_velocities, Error, Formulation, Model, Scalar};
use alloc::vec;
use alloc::vec::Vec;

/// `Err(NonFinite)` unless every derivative is finite.
fn finite(t: f64, state: &[f64], d: &[f64]) -> Result<(), Error> {
    if super::all_finite(d) {
        Ok(())
    } else {
        Err(Error::NonFinite {
            what: "dstate",
            t,
            state: to_vec(state),
        })
    }
}

/// A damped, driven mass on a spring, `m x'' + c x' + k x = u`, state `[x, v]`.
///
/// Energy `1/2 m v^2 + 1/2 k x^2`. With `c = u = 0` the motion is
/// `x(t) = x0 cos(w t) + v0 / w sin(w t)`, `w = sqrt(k / m)`. [`Model::rhs_param_jvp`]
/// along every parameter, as in generated models.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Oscillator {
    /// Mass.
    pub m: f64,
    /// Spring constant.
    pub k: f64,
    /// Damping.
    pub c: f64,
    /// Applied force.
    pub u: f64,
}

impl Oscillator {
    /// Unit mass, `k = w^2`, no damping and no force: `x'' = -w^2 x`.
    pub const fn new(w: f64) -> Self {
        Self {
            m: 1.0,
            k: w * w,
            c: 0.0,
            u: 0.0,
        }
    }
}

impl Model for Oscillator {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &["v"];
    const PARAMETERS: &'static [&'static str] = &["m", "k", "c", "u"];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 1;
    const NZ: usize = 1;
    const NC: usize = 0;
    const DIM: usize = 2;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v\nm dot(v) = -k x - c v + u";
    type State = [f64; 2];
    const ZERO_STATE: [f64; 2] = [0.0; 2];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.k, self.c, self.u]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, v] = *as_array(state, "state")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [v, (self.u - self.k * x - self.c * v) / self.m];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, _t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 2>(state, "state")?;
        let [dx, dv] = *as_array(dir, "jvp direction")?;
        *as_array_mut(out, "jvp output")? = [dv, -(self.k * dx + self.c * dv) / self.m];
        Ok(())
    }
    fn rhs_param_jvp(
        &self,
        _t: f64,
        state: &[f64],
        dp: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        let [x, v] = *as_array(state, "state")?;
        let [dm, dk, dc, du] = *as_array(dp, "parameter direction")?;
        // v' = (u - k x - c v) / m
        let a = (self.u - self.k * x - self.c * v) / self.m;
        *as_array_mut(out, "jvp output")? = [0.0, (du - x * dk - v * dc - a * dm) / self.m];
        Ok(())
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 1>(q, "q")?;
        *as_array_mut(qdot, "qdot")? = *as_array::<_, 1>(z, "z")?;
        Ok(())
    }
    fn state_from_qdot(&self, _t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 2], Error> {
        let [x] = *as_array(q, "q")?;
        let [v] = *as_array(qdot, "qdot")?;
        Ok([x, v])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [x, v] = *as_array(state, "state")?;
        Ok(0.5 * self.m * v * v + 0.5 * self.k * x * x)
    }
    fn constraint_residual(
        &self,
        _t: f64,
        _q: &[f64],
        _qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        as_array_mut::<_, 0>(residual, "constraint residual")?;
        Ok(())
    }
}

/// A mass on a spring driven by a runtime input force, `m x'' + k x = f`, state `[x, v]`,
/// `INPUTS = ["f"]`: what a generated model with `inputs { f }` looks like to the runtime.
///
/// Energy `1/2 m v^2 + 1/2 k x^2`; its rate is the input's power `f v`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForcedOscillator {
    /// Mass.
    pub m: f64,
    /// Spring constant.
    pub k: f64,
}

impl Model for ForcedOscillator {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &["v"];
    const PARAMETERS: &'static [&'static str] = &["m", "k"];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const INPUTS: &'static [&'static str] = &["f"];
    const NU: usize = 1;
    const NQ: usize = 1;
    const NZ: usize = 1;
    const NC: usize = 0;
    const DIM: usize = 2;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v\nm dot(v) = -k x + f";
    type State = [f64; 2];
    const ZERO_STATE: [f64; 2] = [0.0; 2];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.k]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        self.rhs_u(t, state, &[0.0], dstate)
    }
    fn rhs_u(&self, t: f64, state: &[f64], u: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, v] = *as_array(state, "state")?;
        let [f] = *as_array(u, "inputs u")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [v, (f - self.k * x) / self.m];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        self.unforced().rhs_jvp(t, state, dir, out)
    }
    // linear in the state, whatever the force: the same at every u
    fn rhs_u_jvp(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        dir: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        as_array::<_, 1>(u, "inputs u")?;
        self.rhs_jvp(t, state, dir, out)
    }
    // the rest is the unforced oscillator's
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        self.unforced().qdot(t, q, z, qdot)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 2], Error> {
        self.unforced().state_from_qdot(t, q, qdot)
    }
    fn energy(&self, t: f64, state: &[f64]) -> Result<f64, Error> {
        self.unforced().energy(t, state)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        self.unforced().constraint_residual(t, q, qdot, residual)
    }
}

impl ForcedOscillator {
    /// The same mass and spring without damping or force.
    fn unforced(&self) -> Oscillator {
        Oscillator {
            m: self.m,
            k: self.k,
            c: 0.0,
            u: 0.0,
        }
    }
}

/// A skate on ice: mass `m`, moment of inertia `i` about its contact point (at the centre
/// of mass), state `[x, y, theta, v, omega]`.
///
/// The blade cannot slip sideways, `dot(y) cos(theta) - dot(x) sin(theta) = 0`, so
/// `dot(q) = psi(q, z) = [v cos(theta), v sin(theta), omega]` with speeds `z = [v, omega]`;
/// the equations are `m dot(v) = 0`, `i dot(omega) = 0`. From `(x0, y0, theta0)` it runs on
/// the circle `x = x0 + v/omega (sin(theta) - sin(theta0))`,
/// `y = y0 - v/omega (cos(theta) - cos(theta0))`, `theta = theta0 + omega t`.
/// Energy `1/2 m v^2 + 1/2 i omega^2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skate {
    /// Mass.
    pub m: f64,
    /// Moment of inertia about the contact point.
    pub i: f64,
}

impl Model for Skate {
    const COORDINATES: &'static [&'static str] = &["x", "y", "theta"];
    const SPEEDS: &'static [&'static str] = &["v", "omega"];
    const PARAMETERS: &'static [&'static str] = &["m", "i"];
    const CONSTRAINTS: &'static [&'static str] = &["dot(y) cos(theta) == dot(x) sin(theta)"];
    const NQ: usize = 3;
    const NZ: usize = 2;
    const NC: usize = 1;
    const DIM: usize = 5;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v cos(theta)\ndot(y) = v sin(theta)\n\
                                     dot(theta) = omega\nm dot(v) = 0\ni dot(omega) = 0";
    type State = [f64; 5];
    const ZERO_STATE: [f64; 5] = [0.0; 5];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.i]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [_, _, th, v, w] = *as_array(state, "state")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [v * Scalar::cos(th), v * Scalar::sin(th), w, 0.0, 0.0];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, _t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        let [_, _, th, v, _] = *as_array(state, "state")?;
        let [_, _, dth, dv, dw] = *as_array(dir, "jvp direction")?;
        let (s, c) = (Scalar::sin(th), Scalar::cos(th));
        *as_array_mut(out, "jvp output")? =
            [dv * c - v * s * dth, dv * s + v * c * dth, dw, 0.0, 0.0];
        Ok(())
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        let [_, _, th] = *as_array(q, "q")?;
        let [v, w] = *as_array(z, "z")?;
        *as_array_mut(qdot, "qdot")? = [v * Scalar::cos(th), v * Scalar::sin(th), w];
        Ok(())
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 5], Error> {
        let [x, y, th] = *as_array(q, "q")?;
        let [xd, yd, thd] = *as_array(qdot, "qdot")?;
        check_velocities(self, t, q, qdot, 1e-8)?;
        Ok([x, y, th, xd * Scalar::cos(th) + yd * Scalar::sin(th), thd])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [_, _, _, v, w] = *as_array(state, "state")?;
        Ok(0.5 * self.m * v * v + 0.5 * self.i * w * w)
    }
    fn constraint_residual(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        let [_, _, th] = *as_array(q, "q")?;
        let [xd, yd, _] = *as_array(qdot, "qdot")?;
        *as_array_mut(residual, "constraint residual")? =
            [yd * Scalar::cos(th) - xd * Scalar::sin(th)];
        Ok(())
    }
}

/// The [`Skate`] by Benenti's second method (Lagrange multipliers), state
/// `[x, y, theta, dot(x), dot(y), dot(theta)]`.
///
/// `m ddot(x) = -lambda sin(theta)`, `m ddot(y) = lambda cos(theta)`, `i ddot(theta) = 0`,
/// with `lambda = m dot(theta) (dot(x) cos(theta) + dot(y) sin(theta))` from the derivative
/// of the constraint `C = dot(y) cos(theta) - dot(x) sin(theta)`: so `dC/dt = 0` and `C`
/// keeps its initial value, which a state `[q, dot(q)]` can set to anything
/// ([`Formulation::Multipliers`]). The central-difference [`Model::rhs_jvp`] default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkateLagrange {
    /// Mass.
    pub m: f64,
    /// Moment of inertia about the contact point.
    pub i: f64,
}

impl Model for SkateLagrange {
    const COORDINATES: &'static [&'static str] = &["x", "y", "theta"];
    const SPEEDS: &'static [&'static str] = &["dot(x)", "dot(y)", "dot(theta)"];
    const PARAMETERS: &'static [&'static str] = &["m", "i"];
    const CONSTRAINTS: &'static [&'static str] = Skate::CONSTRAINTS;
    const NQ: usize = 3;
    const NZ: usize = 3;
    const NC: usize = 1;
    const DIM: usize = 6;
    const FORMULATION: Formulation = Formulation::Multipliers;
    const EQUATIONS: &'static str = "m ddot(x) = -lambda sin(theta)\n\
                                     m ddot(y) = lambda cos(theta)\ni ddot(theta) = 0";
    type State = [f64; 6];
    const ZERO_STATE: [f64; 6] = [0.0; 6];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.i]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [_, _, th, xd, yd, thd] = *as_array(state, "state")?;
        let (s, c) = (Scalar::sin(th), Scalar::cos(th));
        // lambda / m
        let l = thd * (xd * c + yd * s);
        let d = as_array_mut(dstate, "dstate")?;
        *d = [xd, yd, thd, -l * s, l * c, 0.0];
        finite(t, state, d)
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 3>(q, "q")?;
        *as_array_mut(qdot, "qdot")? = *as_array::<_, 3>(z, "z")?;
        Ok(())
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 6], Error> {
        let [x, y, th] = *as_array(q, "q")?;
        let [xd, yd, thd] = *as_array(qdot, "qdot")?;
        check_velocities(self, t, q, qdot, 1e-8)?;
        Ok([x, y, th, xd, yd, thd])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [_, _, _, xd, yd, thd] = *as_array(state, "state")?;
        Ok(0.5 * self.m * (xd * xd + yd * yd) + 0.5 * self.i * thd * thd)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        Skate {
            m: self.m,
            i: self.i,
        }
        .constraint_residual(t, q, qdot, residual)
    }
}

/// A uniform disk (mass `m`, radius `r`) rolling without slipping on a line, its centre
/// held by a spring `k`: coordinates `[x, phi]`, one speed `w = dot(phi)`, state
/// `[x, phi, w]`.
///
/// Rolling, `dot(x) = r dot(phi)`, is integrable: the configuration constraint
/// `x - r phi = 0` ([`Model::CONFIGURATION_CONSTRAINTS`], `x` its dependent coordinate).
/// With `T = 1/2 m dot(x)^2 + 1/4 m r^2 dot(phi)^2 = 3/4 m r^2 w^2` the equation is
/// `3/2 m r^2 dot(w) = -k r x`: on the constraint `phi'' = -(2k / 3m) phi`, an oscillation
/// at `sqrt(2k / 3m)`, slower by `sqrt(2/3)` than the same mass sliding. Energy
/// `3/4 m r^2 w^2 + 1/2 k x^2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wheel {
    /// Mass.
    pub m: f64,
    /// Radius.
    pub r: f64,
    /// Spring constant.
    pub k: f64,
}

impl Model for Wheel {
    const COORDINATES: &'static [&'static str] = &["x", "phi"];
    const SPEEDS: &'static [&'static str] = &["w"];
    const PARAMETERS: &'static [&'static str] = &["m", "r", "k"];
    const CONSTRAINTS: &'static [&'static str] = &["dot(x) == r dot(phi)"];
    const CONFIGURATION_CONSTRAINTS: &'static [&'static str] = &["x == r phi"];
    const CONFIGURATION_COORDINATES: &'static [&'static str] = &["x"];
    const NQ: usize = 2;
    const NZ: usize = 1;
    const NC: usize = 1;
    const DIM: usize = 3;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = r w\ndot(phi) = w\n3/2 m r^2 dot(w) = -k r x";
    type State = [f64; 3];
    const ZERO_STATE: [f64; 3] = [0.0; 3];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.r, self.k]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, _, w] = *as_array(state, "state")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [self.r * w, w, -2.0 * self.k * x / (3.0 * self.m * self.r)];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, _t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 3>(state, "state")?;
        let [dx, _, dw] = *as_array(dir, "jvp direction")?;
        let a = -2.0 * self.k / (3.0 * self.m * self.r);
        *as_array_mut(out, "jvp output")? = [self.r * dw, dw, a * dx];
        Ok(())
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        let [w] = *as_array(z, "z")?;
        *as_array_mut(qdot, "qdot")? = [self.r * w, w];
        Ok(())
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 3], Error> {
        let [x, phi] = *as_array(q, "q")?;
        let [_, phid] = *as_array(qdot, "qdot")?;
        check_velocities(self, t, q, qdot, 1e-8)?;
        Ok([x, phi, phid])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [x, _, w] = *as_array(state, "state")?;
        Ok(0.75 * self.m * self.r * self.r * w * w + 0.5 * self.k * x * x)
    }
    fn constraint_residual(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        let [xd, phid] = *as_array(qdot, "qdot")?;
        *as_array_mut(residual, "constraint residual")? = [xd - self.r * phid];
        Ok(())
    }
    fn configuration_residual(
        &self,
        _t: f64,
        q: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        let [x, phi] = *as_array(q, "q")?;
        *as_array_mut(residual, "configuration residual")? = [x - self.r * phi];
        Ok(())
    }
    fn configuration_jacobian(
        &self,
        _t: f64,
        q: &[f64],
        jacobian: &mut [f64],
    ) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        *as_array_mut(jacobian, "configuration jacobian")? = [1.0, -self.r];
        Ok(())
    }
    fn solve_configuration(&self, _t: f64, q: &mut [f64]) -> Result<(), Error> {
        let q = as_array_mut::<_, 2>(q, "q")?;
        q[0] = self.r * q[1];
        Ok(())
    }
}

/// A planet around a fixed sun at the origin, `r'' = -mu r / |r|^3`, state `[x, y, vx, vy]`,
/// energy `1/2 |v|^2 - mu / |r|`: the classic nonlinear test of explicit integrators
/// (Hairer, Nørsett & Wanner I, §II.10), whose orbits with large eccentricity need steps
/// of very different sizes.
///
/// [`Kepler::orbit`] is the exact motion on the ellipse of semi-major axis 1 and
/// eccentricity `e` that starts at its pericentre: period `2 pi / sqrt(mu)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kepler {
    /// Gravitational parameter of the sun.
    pub mu: f64,
}

impl Kepler {
    /// The state at time `t` on the orbit of semi-major axis 1 and eccentricity
    /// `0 <= e < 1` that is at its pericentre `(1 - e, 0)` at `t = 0`, moving towards `+y`.
    pub fn orbit(&self, e: f64, t: f64) -> [f64; 4] {
        let n = Scalar::sqrt(self.mu);
        // Kepler's equation E - e sin E = n t by Newton's method from E = n t (+ e).
        let m = n * t;
        let mut ea = if e > 0.8 { m + e } else { m };
        for _ in 0..50 {
            let step = (ea - e * Scalar::sin(ea) - m) / (1.0 - e * Scalar::cos(ea));
            ea -= step;
            if step.abs() <= 1e-16 * ea.abs().max(1.0) {
                break;
            }
        }
        let (s, c) = (Scalar::sin(ea), Scalar::cos(ea));
        let b = Scalar::sqrt(1.0 - e * e);
        let ea_dot = n / (1.0 - e * c);
        [c - e, b * s, -s * ea_dot, b * c * ea_dot]
    }
}

impl Model for Kepler {
    const COORDINATES: &'static [&'static str] = &["x", "y"];
    const SPEEDS: &'static [&'static str] = &["vx", "vy"];
    const PARAMETERS: &'static [&'static str] = &["mu"];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 2;
    const NZ: usize = 2;
    const NC: usize = 0;
    const DIM: usize = 4;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = vx\ndot(y) = vy\n\
                                     dot(vx) = -mu x / r^3\ndot(vy) = -mu y / r^3";
    type State = [f64; 4];
    const ZERO_STATE: [f64; 4] = [0.0; 4];

    fn parameters(&self) -> Vec<f64> {
        vec![self.mu]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, y, vx, vy] = *as_array(state, "state")?;
        let r2 = x * x + y * y;
        let k = -self.mu / (r2 * Scalar::sqrt(r2));
        let d = as_array_mut(dstate, "dstate")?;
        *d = [vx, vy, k * x, k * y];
        finite(t, state, d)
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        *as_array_mut(qdot, "qdot")? = *as_array::<_, 2>(z, "z")?;
        Ok(())
    }
    fn state_from_qdot(&self, _t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 4], Error> {
        let [x, y] = *as_array(q, "q")?;
        let [vx, vy] = *as_array(qdot, "qdot")?;
        Ok([x, y, vx, vy])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [x, y, vx, vy] = *as_array(state, "state")?;
        Ok(0.5 * (vx * vx + vy * vy) - self.mu / Scalar::sqrt(x * x + y * y))
    }
    fn constraint_residual(
        &self,
        _t: f64,
        _q: &[f64],
        _qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        as_array_mut::<_, 0>(residual, "constraint residual")?;
        Ok(())
    }
}

/// An [`Oscillator`] whose constants disagree: one speed but no speed name (`SPEEDS` is
/// empty), what [`validate_layout`](crate::model::validate_layout) catches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mislabelled(pub Oscillator);

impl Model for Mislabelled {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &[];
    const PARAMETERS: &'static [&'static str] = Oscillator::PARAMETERS;
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 1;
    const NZ: usize = 1;
    const NC: usize = 0;
    const DIM: usize = 2;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = Oscillator::EQUATIONS;
    type State = [f64; 2];
    const ZERO_STATE: [f64; 2] = [0.0; 2];

    fn parameters(&self) -> Vec<f64> {
        self.0.parameters()
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        self.0.rhs(t, state, dstate)
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        self.0.qdot(t, q, z, qdot)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 2], Error> {
        self.0.state_from_qdot(t, q, qdot)
    }
    fn energy(&self, t: f64, state: &[f64]) -> Result<f64, Error> {
        self.0.energy(t, state)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        self.0.constraint_residual(t, q, qdot, residual)
    }
}

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
