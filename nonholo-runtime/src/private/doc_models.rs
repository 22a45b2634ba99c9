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
