//! Hand-written models with exact solutions, for testing the runtime without the macro.
#![allow(dead_code)]

use nonholo_runtime::{Error, Formulation, Model};

fn dim_err(what: &'static str, expected: usize, found: usize) -> Error {
    Error::Dimension {
        what,
        expected,
        found,
    }
}

/// `m x'' = -k x`, state `[x, v]`. Exact: `x = x0 cos(wt) + v0/w sin(wt)`, `w = sqrt(k/m)`.
#[derive(Debug, Clone, Copy)]
pub struct Oscillator {
    /// `[m, k]`.
    pub p: [f64; 2],
    /// `rhs` fails with `SingularMassMatrix` for `t > fail_after`.
    pub fail_after: f64,
}

impl Oscillator {
    pub fn new(m: f64, k: f64) -> Self {
        Self {
            p: [m, k],
            fail_after: f64::INFINITY,
        }
    }

    pub fn omega(&self) -> f64 {
        (self.p[1] / self.p[0]).sqrt()
    }

    pub fn exact(&self, x0: f64, v0: f64, t: f64) -> [f64; 2] {
        let w = self.omega();
        let (s, c) = (w * t).sin_cos();
        [x0 * c + v0 / w * s, -x0 * w * s + v0 * c]
    }
}

impl Model for Oscillator {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &["v"];
    const PARAMETERS: &'static [&'static str] = &["m", "k"];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 1;
    const NZ: usize = 1;
    const NC: usize = 0;
    const DIM: usize = 2;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v\nm dot(v) = -k x";
    type State = [f64; 2];
    const ZERO_STATE: [f64; 2] = [0.0; 2];

    fn parameters(&self) -> Vec<f64> {
        self.p.to_vec()
    }

    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        if t > self.fail_after {
            return Err(Error::SingularMassMatrix {
                t,
                state: state.to_vec(),
            });
        }
        let [m, k] = self.p;
        match (state, dstate) {
            ([x, v], [dx, dv]) => {
                *dx = *v;
                *dv = -k / m * x;
                Ok(())
            }
            (s, _) => Err(dim_err("state", 2, s.len())),
        }
    }

    fn qdot(&self, _t: f64, _q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        match (z, qdot) {
            ([v], [xd]) => {
                *xd = *v;
                Ok(())
            }
            (z, _) => Err(dim_err("z", 1, z.len())),
        }
    }

    fn state_from_qdot(&self, _t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 2], Error> {
        match (q, qdot) {
            ([x], [xd]) => Ok([*x, *xd]),
            (q, _) => Err(dim_err("q", 1, q.len())),
        }
    }

    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [m, k] = self.p;
        match state {
            [x, v] => Ok(0.5 * m * v * v + 0.5 * k * x * x),
            s => Err(dim_err("state", 2, s.len())),
        }
    }

    fn constraint_residual(
        &self,
        _t: f64,
        _q: &[f64],
        _qdot: &[f64],
        _residual: &mut [f64],
    ) -> Result<(), Error> {
        Ok(())
    }
}

/// A knife edge (unicycle) on the plane, q = (x, y, theta), speeds z = (v, w) with
/// `dot(x) = v cos(theta)`, `dot(y) = v sin(theta)`, `dot(theta) = w`: the constraint
/// `dot(x) sin(theta) - dot(y) cos(theta) = 0` holds for every z. Free: v, w constant,
/// the path is a circle of radius v / w.
#[derive(Debug, Clone, Copy)]
pub struct Unicycle {
    /// `[m, inertia]`.
    pub p: [f64; 2],
}

impl Unicycle {
    pub fn exact(s0: &[f64; 5], t: f64) -> [f64; 5] {
        let [x0, y0, th0, v, w] = *s0;
        let th = th0 + w * t;
        [
            x0 + v / w * (th.sin() - th0.sin()),
            y0 - v / w * (th.cos() - th0.cos()),
            th,
            v,
            w,
        ]
    }
}

impl Model for Unicycle {
    const COORDINATES: &'static [&'static str] = &["x", "y", "theta"];
    const SPEEDS: &'static [&'static str] = &["v", "w"];
    const PARAMETERS: &'static [&'static str] = &["m", "inertia"];
    const CONSTRAINTS: &'static [&'static str] =
        &["dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0"];
    const NQ: usize = 3;
    const NZ: usize = 2;
    const NC: usize = 1;
    const DIM: usize = 5;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v cos(theta)\ndot(y) = v sin(theta)\n\
                                     dot(theta) = w\nm dot(v) = 0\ninertia dot(w) = 0";
    type State = [f64; 5];
    const ZERO_STATE: [f64; 5] = [0.0; 5];

    fn parameters(&self) -> Vec<f64> {
        self.p.to_vec()
    }

    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let (q, z) = state
            .split_at_checked(3)
            .ok_or(dim_err("state", 5, state.len()))?;
        match dstate.split_at_mut_checked(3) {
            Some((dq, [dv, dw])) => {
                self.qdot(t, q, z, dq)?;
                *dv = 0.0;
                *dw = 0.0;
                Ok(())
            }
            _ => Err(dim_err("dstate", 5, dstate.len())),
        }
    }

    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        match (q, z, qdot) {
            ([_, _, th], [v, w], [xd, yd, thd]) => {
                *xd = v * th.cos();
                *yd = v * th.sin();
                *thd = *w;
                Ok(())
            }
            _ => Err(dim_err("q, z", 5, q.len() + z.len())),
        }
    }

    fn state_from_qdot(&self, _t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 5], Error> {
        match (q, qdot) {
            ([x, y, th], [xd, yd, thd]) => Ok([*x, *y, *th, xd * th.cos() + yd * th.sin(), *thd]),
            _ => Err(dim_err("q", 3, q.len())),
        }
    }

    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [m, i] = self.p;
        match state {
            [_, _, _, v, w] => Ok(0.5 * m * v * v + 0.5 * i * w * w),
            s => Err(dim_err("state", 5, s.len())),
        }
    }

    fn constraint_residual(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        match (q, qdot, residual) {
            ([_, _, th], [xd, yd, _], [r]) => {
                *r = xd * th.sin() - yd * th.cos();
                Ok(())
            }
            _ => Err(dim_err("q", 3, q.len())),
        }
    }
}

/// The same knife edge by Lagrange multipliers (Benenti's second method): state
/// `[x, y, theta, dot(x), dot(y), dot(theta)]`, `m ddot(x) = lambda sin(theta)`,
/// `m ddot(y) = -lambda cos(theta)`, `lambda = -m dot(theta) (dot(x) cos + dot(y) sin)`.
/// Here the state can violate the constraint.
#[derive(Debug, Clone, Copy)]
pub struct KnifeEdgeMultipliers {
    /// `[m, inertia]`.
    pub p: [f64; 2],
}

impl Model for KnifeEdgeMultipliers {
    const COORDINATES: &'static [&'static str] = &["x", "y", "theta"];
    const SPEEDS: &'static [&'static str] = &["xd", "yd", "thetad"];
    const PARAMETERS: &'static [&'static str] = &["m", "inertia"];
    const CONSTRAINTS: &'static [&'static str] =
        &["dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0"];
    const NQ: usize = 3;
    const NZ: usize = 3;
    const NC: usize = 1;
    const DIM: usize = 6;
    const FORMULATION: Formulation = Formulation::Multipliers;
    const EQUATIONS: &'static str = "m ddot(x) = lambda sin(theta)\n\
                                     m ddot(y) = -lambda cos(theta)\ninertia ddot(theta) = 0";
    type State = [f64; 6];
    const ZERO_STATE: [f64; 6] = [0.0; 6];

    fn parameters(&self) -> Vec<f64> {
        self.p.to_vec()
    }

    fn rhs(&self, _t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        match (state, dstate) {
            ([_, _, th, xd, yd, thd], [dx, dy, dth, dxd, dyd, dthd]) => {
                let (s, c) = th.sin_cos();
                // lambda / m
                let l = -thd * (xd * c + yd * s);
                *dx = *xd;
                *dy = *yd;
                *dth = *thd;
                *dxd = l * s;
                *dyd = -l * c;
                *dthd = 0.0;
                Ok(())
            }
            (s, _) => Err(dim_err("state", 6, s.len())),
        }
    }

    fn qdot(&self, _t: f64, _q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        if z.len() != 3 || qdot.len() != 3 {
            return Err(dim_err("z", 3, z.len()));
        }
        qdot.copy_from_slice(z);
        Ok(())
    }

    fn state_from_qdot(&self, _t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 6], Error> {
        match (q, qdot) {
            ([x, y, th], [xd, yd, thd]) => Ok([*x, *y, *th, *xd, *yd, *thd]),
            _ => Err(dim_err("q", 3, q.len())),
        }
    }

    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [m, i] = self.p;
        match state {
            [_, _, _, xd, yd, thd] => Ok(0.5 * m * (xd * xd + yd * yd) + 0.5 * i * thd * thd),
            s => Err(dim_err("state", 6, s.len())),
        }
    }

    fn constraint_residual(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        match (q, qdot, residual) {
            ([_, _, th], [xd, yd, _], [r]) => {
                *r = xd * th.sin() - yd * th.cos();
                Ok(())
            }
            _ => Err(dim_err("q", 3, q.len())),
        }
    }
}

/// `dx/dt = x^2`, `x(0) = 1`: blows up at t = 1 (and never returns an error itself).
#[derive(Debug, Clone, Copy)]
pub struct BlowUp;

impl Model for BlowUp {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &[];
    const PARAMETERS: &'static [&'static str] = &[];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 1;
    const NZ: usize = 0;
    const NC: usize = 0;
    const DIM: usize = 1;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = x^2";
    type State = [f64; 1];
    const ZERO_STATE: [f64; 1] = [0.0];

    fn parameters(&self) -> Vec<f64> {
        Vec::new()
    }

    fn rhs(&self, _t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        match (state, dstate) {
            ([x], [dx]) => {
                *dx = x * x;
                Ok(())
            }
            (s, _) => Err(dim_err("state", 1, s.len())),
        }
    }

    fn qdot(&self, _t: f64, q: &[f64], _z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        match (q, qdot) {
            ([x], [xd]) => {
                *xd = x * x;
                Ok(())
            }
            (q, _) => Err(dim_err("q", 1, q.len())),
        }
    }

    fn state_from_qdot(&self, _t: f64, q: &[f64], _qdot: &[f64]) -> Result<[f64; 1], Error> {
        match q {
            [x] => Ok([*x]),
            q => Err(dim_err("q", 1, q.len())),
        }
    }

    fn energy(&self, _t: f64, _state: &[f64]) -> Result<f64, Error> {
        Ok(0.0)
    }

    fn constraint_residual(
        &self,
        _t: f64,
        _q: &[f64],
        _qdot: &[f64],
        _residual: &mut [f64],
    ) -> Result<(), Error> {
        Ok(())
    }
}
