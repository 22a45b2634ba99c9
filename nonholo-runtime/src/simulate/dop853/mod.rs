//! Dormand–Prince 8(5,3), DOP853, with its 7th-order dense output.
//!
//! diffsol's explicit solver holds at most 8 stages (`MAX_SMALL_COLS` of diffsol-la 0.3,
//! the last first-same-as-last), and every higher-order pair needs more: DOP853 has 12
//! stages, one more for the next step's first (FSAL) and three for dense output. So this
//! one method is stepped here; everything else stays diffsol's (`simulate`'s
//! [`Stepper`](super::Stepper) runs both).
//!
//! The method and its controller are Hairer's code DOP853 (Hairer, Nørsett & Wanner,
//! *Solving Ordinary Differential Equations I*, 2nd ed. 1993, §II.5 and §II.10; the
//! coefficients of Dormand & Prince, "High order embedded Runge–Kutta formulae",
//! J. Comput. Appl. Math. 7 (1981), as printed in that code):
//!
//! - a step `y1 = y0 + h sum b_j k_j` of order 8;
//! - the error estimate `err = |h| E5^2 / sqrt(n (E5^2 + 0.01 E3^2))`, with `E5^2` and
//!   `E3^2` the squared scaled norms `sum_i (e_i / sk_i)^2` of the differences to an
//!   embedded 5th- and 3rd-order solution, `sk_i = atol + rtol max(|y0_i|, |y1_i|)`: it
//!   behaves as `h^8` for small `h` and as the 5th-order estimate for large;
//! - the step size `h_new = h / clamp(err^(1/8) / 0.9, 1/6, 3)`, never grown right after a
//!   rejection;
//! - the initial step of Hairer's `hinit` (order 8);
//! - Hairer's stiffness test, reported with a `max_steps` failure;
//! - the continuous extension `y(t0 + s h) = y0 + s (d1 + (1-s) (d2 + s (d3 + (1-s) (d4 +
//!   s (d5 + (1-s) (d6 + s d7))))))`, of order 7, computed from three more stages only
//!   when a sample or an event needs it.

use alloc::vec;
use alloc::vec::Vec;

use super::roots::Roots;
use super::{Options, Stepper, Stop, VectorField};
use crate::Error;

mod tableau;
use tableau::{A, ALL_STAGES, BHAT3, C, D, DENSE, E5, FSAL, STAGES};

/// Safety factor of the step-size controller.
const SAFETY: f64 = 0.9;
/// Bounds of `h / h_new`: the step shrinks at most 3-fold and grows at most 6-fold.
const MAX_SHRINK: f64 = 3.0;
const MAX_GROWTH: f64 = 6.0;

/// A run of DOP853 on one vector field: all buffers are allocated here, none per step.
pub(super) struct Dop853<'r, F: VectorField + ?Sized> {
    field: &'r F,
    n: usize,
    rtol: f64,
    atol: f64,
    t_end: f64,
    /// The end of the last accepted step and the state there; steps end at `t_end` at the
    /// latest.
    t: f64,
    y: Vec<f64>,
    /// The start of the last accepted step and its state (for dense output).
    t_old: f64,
    y_old: Vec<f64>,
    /// The last accepted step, `t - t_old` up to rounding.
    h_last: f64,
    /// The step to try next.
    h: f64,
    /// The step proposed before it was cut to land on `t_end` (0: not cut, or the cut step
    /// was rejected): where a restart at `t_end` starts from.
    h_proposed: f64,
    /// The last step was rejected: the next accepted one may not grow `h`.
    rejected: bool,
    /// `ALL_STAGES` stage derivatives, stage `s` at `k[s n .. (s + 1) n]`. Stage 0 is
    /// `f(t_old, y_old)`, `FSAL` is `f(t, y)` once a step is accepted.
    k: Vec<f64>,
    /// A stage's argument.
    arg: Vec<f64>,
    /// The candidate end of the step being tried.
    y1: Vec<f64>,
    /// The state on the dense output where the event function is probed.
    probe: Vec<f64>,
    /// `d1 .. d7` of the last step, valid when `dense_ready`.
    dense: Vec<f64>,
    dense_ready: bool,
    /// The root functions, their values at `t` and scratch for the probes.
    roots: Option<&'r Roots<'r>>,
    g: Vec<f64>,
    g_new: Vec<f64>,
    g_probe: Vec<f64>,
    /// Accepted steps that looked stiff, and non-stiff ones since the last stiff one.
    stiffness: (u32, u32),
    /// Where the stiffness test first fired.
    stiff_at: Option<f64>,
}

impl<'r, F: VectorField + ?Sized> Dop853<'r, F> {
    /// Start at `(t0, y0)` with the tolerances and stopping condition of `o`; evaluates
    /// `f(t0, y0)` and picks the first step.
    pub(super) fn new(
        field: &'r F,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        o: &'r Options,
        roots: Option<&'r Roots<'r>>,
    ) -> Result<Self, Error> {
        let n = y0.len();
        let n_roots = roots.map_or(0, Roots::len);
        let mut s = Self {
            field,
            n,
            rtol: o.rtol,
            atol: o.atol,
            t_end,
            t: t0,
            y: y0.to_vec(),
            t_old: t0,
            y_old: y0.to_vec(),
            h_last: 0.0,
            h: 0.0,
            h_proposed: 0.0,
            rejected: false,
            k: vec![0.0; ALL_STAGES * n],
            arg: vec![0.0; n],
            y1: vec![0.0; n],
            probe: vec![0.0; n],
            dense: vec![0.0; DENSE * n],
            dense_ready: false,
            roots,
            g: vec![0.0; n_roots],
            g_new: vec![0.0; n_roots],
            g_probe: vec![0.0; n_roots],
            stiffness: (0, 0),
            stiff_at: None,
        };
        field.eval(t0, y0, &mut s.k[FSAL * n..(FSAL + 1) * n])?;
        if let Some(r) = roots {
            r.eval(t0, y0, &mut s.g)?;
        }
        s.h = s.initial_step()?;
        Ok(s)
    }

    /// Hairer's `hinit` for order 8: a step whose explicit-Euler error estimate is about
    /// `0.01^(1/8)`, with `f(t, y)` in stage `FSAL`.
    fn initial_step(&mut self) -> Result<f64, Error> {
        let n = self.n;
        let h_max = self.t_end - self.t;
        let (f0, rest) = self.k[FSAL * n..].split_at_mut(n);
        let f1 = &mut rest[..n];
        let sk = |y: f64| self.atol + self.rtol * y.abs();
        let (mut dnf, mut dny) = (0.0, 0.0);
        for (y, f) in self.y.iter().zip(f0.iter()) {
            dnf += (f / sk(*y)).powi(2);
            dny += (y / sk(*y)).powi(2);
        }
        let mut h = if dnf <= 1e-10 || dny <= 1e-10 {
            1e-6
        } else {
            (dny / dnf).sqrt() * 0.01
        };
        h = h.min(h_max);
        // One explicit Euler step estimates the second derivative.
        for ((a, y), f) in self.arg.iter_mut().zip(&self.y).zip(f0.iter()) {
            *a = y + h * f;
        }
        self.field.eval(self.t + h, &self.arg, f1)?;
        let mut der2 = 0.0;
        for ((y, a), b) in self.y.iter().zip(f0.iter()).zip(f1.iter()) {
            der2 += ((b - a) / sk(*y)).powi(2);
        }
        let der12 = (der2.sqrt() / h).max(dnf.sqrt());
        let h1 = if der12 <= 1e-15 {
            (h * 1e-3).max(1e-6)
        } else {
            (0.01 / der12).powf(1.0 / 8.0)
        };
        Ok((100.0 * h).min(h1).min(h_max))
    }

    /// Stage `s` at `t0 + c_s h` from `y0 = y_old`: `k_s = f(t0 + c_s h, y0 + h sum a_sj k_j)`.
    fn stage(&mut self, s: usize, t0: f64, h: f64) -> Result<(), Error> {
        let n = self.n;
        let (done, rest) = self.k.split_at_mut(s * n);
        self.arg.copy_from_slice(&self.y_old);
        for &(j, a) in A[s] {
            let ha = h * a;
            for (x, kj) in self.arg.iter_mut().zip(&done[j * n..(j + 1) * n]) {
                *x += ha * kj;
            }
        }
        self.field.eval(t0 + C[s] * h, &self.arg, &mut rest[..n])
    }

    /// One accepted step (rejected attempts retried inside), then the event check.
    fn accepted_step(&mut self) -> Result<Stop, Error> {
        let n = self.n;
        // The last step's end is this one's start; its f there is stage 0 (FSAL).
        self.t_old = self.t;
        self.y_old.copy_from_slice(&self.y);
        self.k.copy_within(FSAL * n..(FSAL + 1) * n, 0);
        self.dense_ready = false;
        let t0 = self.t;
        loop {
            let mut h = self.h;
            // Stretch a step that would end just short of t_end.
            let last = t0 + 1.01 * h >= self.t_end;
            if last {
                if self.t_end - t0 < h {
                    self.h_proposed = h;
                }
                h = self.t_end - t0;
            }
            if 0.1 * h.abs() <= t0.abs() * f64::EPSILON || h <= 0.0 {
                return Err(Error::StepSize {
                    t: t0,
                    state: self.y_old.clone(),
                });
            }
            for s in 1..STAGES {
                self.stage(s, t0, h)?;
            }
            let err = self.candidate(h);
            if err <= 1.0 {
                let fac = err.powf(1.0 / 8.0) / SAFETY;
                let mut h_new = h / fac.clamp(1.0 / MAX_GROWTH, MAX_SHRINK);
                if self.rejected {
                    h_new = h_new.min(h);
                }
                let t1 = if last { self.t_end } else { t0 + h };
                self.field
                    .eval(t1, &self.y1, &mut self.k[FSAL * n..(FSAL + 1) * n])?;
                self.watch_stiffness(h, t0);
                self.y.copy_from_slice(&self.y1);
                self.t = t1;
                self.h_last = h;
                self.h = h_new;
                self.rejected = false;
                return match self.crossing()? {
                    Some((t_root, index)) => Ok(Stop::Root(t_root, index)),
                    None if last => Ok(Stop::End),
                    None => Ok(Stop::Continue),
                };
            }
            // Rejected (a NaN error too): shrink, by the most when the error is not finite.
            let fac = if err.is_finite() {
                (err.powf(1.0 / 8.0) / SAFETY).min(MAX_SHRINK)
            } else {
                MAX_SHRINK
            };
            self.h = h / fac;
            self.rejected = true;
            self.h_proposed = 0.0;
        }
    }

    /// Hairer's stiffness test of DOP853, after an accepted step: `h |lambda|`, with `lambda`
    /// estimated from the two evaluations at `t + h` (the last stage and `f(t + h, y1)`),
    /// beyond 6.1 (near the method's stability boundary) in 15 accepted steps with fewer
    /// than 6 below it in between says the step is held by stability, not accuracy.
    fn watch_stiffness(&mut self, h: f64, t0: f64) {
        let n = self.n;
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..n {
            num += (self.k[FSAL * n + i] - self.k[(STAGES - 1) * n + i]).powi(2);
            den += (self.y1[i] - self.arg[i]).powi(2);
        }
        let stiff = den > 0.0 && h * (num / den).sqrt() > 6.1;
        if stiff {
            self.stiffness.1 = 0;
            self.stiffness.0 += 1;
            if self.stiffness.0 == 15 && self.stiff_at.is_none() {
                self.stiff_at = Some(t0);
            }
        } else if self.stiffness.0 > 0 {
            self.stiffness.1 += 1;
            if self.stiffness.1 == 6 {
                self.stiffness = (0, 0);
            }
        }
    }

    /// `y1 = y0 + h sum b_j k_j` into `self.y1`; the scaled error estimate of Hairer's
    /// DOP853 (the module's doc), `<= 1` to accept.
    fn candidate(&mut self, h: f64) -> f64 {
        let n = self.n;
        let (mut e5, mut e3) = (0.0, 0.0);
        for i in 0..n {
            let k = |s: usize| self.k[s * n + i];
            let mut incr = 0.0;
            for &(j, b) in A[FSAL] {
                incr += b * k(j);
            }
            let mut err3 = incr;
            for (j, bhat) in BHAT3 {
                err3 -= bhat * k(j);
            }
            let mut err5 = 0.0;
            for (j, e) in E5.iter().enumerate() {
                err5 += e * k(j);
            }
            let (y0, y1) = (self.y_old[i], self.y_old[i] + h * incr);
            self.y1[i] = y1;
            let sk = self.atol + self.rtol * y0.abs().max(y1.abs());
            e5 += (err5 / sk).powi(2);
            e3 += (err3 / sk).powi(2);
        }
        if e5 == 0.0 && e3 == 0.0 {
            return 0.0;
        }
        // A NaN stays NaN (rejected by the caller's `<= 1`).
        h.abs() * e5 / (n as f64 * (e5 + 0.01 * e3)).sqrt()
    }

    /// Where a root function changed sign during the last step, if one did, and which
    /// (the earliest crossing; the lower index on a tie): located on the dense output by
    /// the Illinois method, to `100 eps (|t| + |h|)` as diffsol's root finder does.
    fn crossing(&mut self) -> Result<Option<(f64, usize)>, Error> {
        let Some(roots) = self.roots else {
            return Ok(None);
        };
        roots.eval(self.t, &self.y, &mut self.g_new)?;
        let crossed = |a: f64, b: f64| a != 0.0 && (b == 0.0 || (b < 0.0) != (a < 0.0));
        let mut first: Option<(f64, usize)> = None;
        for i in 0..self.g.len() {
            if !crossed(self.g[i], self.g_new[i]) {
                continue;
            }
            let t_i = self.locate(roots, i)?;
            if first.is_none_or(|(t, _)| t_i < t) {
                first = Some((t_i, i));
            }
        }
        core::mem::swap(&mut self.g, &mut self.g_new);
        Ok(first)
    }

    /// The zero of root function `i` inside the last step (it changed sign there).
    fn locate(&mut self, roots: &Roots<'_>, i: usize) -> Result<f64, Error> {
        self.ensure_dense()?;
        let (t_old, h) = (self.t_old, self.h_last);
        let (dense, y_old, probe, g) =
            (&self.dense, &self.y_old, &mut self.probe, &mut self.g_probe);
        super::roots::illinois((t_old, self.g[i]), (self.t, self.g_new[i]), |tm| {
            extension(dense, y_old, (tm - t_old) / h, probe);
            roots.eval(tm, probe, g)?;
            Ok(g[i])
        })
    }

    /// The coefficients of the continuous extension of the last step, computed once.
    fn ensure_dense(&mut self) -> Result<(), Error> {
        if !self.dense_ready {
            self.dense_output()?;
        }
        Ok(())
    }

    /// The three extra stages and `d1 .. d7` of the last step.
    fn dense_output(&mut self) -> Result<(), Error> {
        let (n, t0, h) = (self.n, self.t_old, self.h_last);
        for s in FSAL + 1..ALL_STAGES {
            self.stage(s, t0, h)?;
        }
        for i in 0..n {
            let dy = self.y[i] - self.y_old[i];
            let f0 = self.k[i];
            let f1 = self.k[FSAL * n + i];
            let d2 = h * f0 - dy;
            self.dense[i] = dy;
            self.dense[n + i] = d2;
            self.dense[2 * n + i] = dy - h * f1 - d2;
            for (r, row) in D.iter().enumerate() {
                let mut acc = 0.0;
                for (s, d) in row.iter().enumerate() {
                    acc += d * self.k[s * n + i];
                }
                self.dense[(3 + r) * n + i] = h * acc;
            }
        }
        self.dense_ready = true;
        Ok(())
    }
}

/// `y(t0 + s h) = y0 + s (d1 + (1-s) (d2 + s (d3 + ...)))` from the rows `d1 .. d7` in
/// `dense` (each `y0.len()` long).
fn extension(dense: &[f64], y0: &[f64], s: f64, out: &mut [f64]) {
    let n = y0.len();
    let s1 = 1.0 - s;
    for (i, o) in out.iter_mut().enumerate().take(n) {
        let mut v = dense[6 * n + i];
        for r in (0..6).rev() {
            v = dense[r * n + i] + if r % 2 == 0 { s1 } else { s } * v;
        }
        *o = y0[i] + s * v;
    }
}

impl<F: VectorField + ?Sized> Stepper for Dop853<'_, F> {
    fn t(&self) -> f64 {
        self.t
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn step(&mut self) -> Result<Stop, Error> {
        self.accepted_step()
    }
    fn prepare_interpolation(&mut self) -> Result<(), Error> {
        self.ensure_dense()
    }
    fn interpolate(&mut self, t: f64, y: &mut [f64]) -> Result<(), Error> {
        self.ensure_dense()?;
        extension(&self.dense, &self.y_old, (t - self.t_old) / self.h_last, y);
        Ok(())
    }
    fn jump(&mut self, t: f64, y: &[f64], dy: &[f64]) -> Result<(), Error> {
        let n = self.n;
        self.t = t;
        self.y.copy_from_slice(y);
        self.k[FSAL * n..(FSAL + 1) * n].copy_from_slice(dy);
        self.h_proposed = 0.0;
        self.dense_ready = false;
        if let Some(r) = self.roots {
            r.eval(t, &self.y, &mut self.g)?;
        }
        Ok(())
    }

    fn restart(&mut self, t: f64, t_stop: f64, new_inputs: bool, dy: &[f64]) -> Result<(), Error> {
        // The state stays (its last step landed on t exactly); its f, the next step's first
        // stage, changes with the inputs. The step starts from the proposal before the cut.
        self.t_end = t_stop;
        self.h = self.h.max(self.h_proposed);
        self.h_proposed = 0.0;
        if new_inputs {
            let n = self.n;
            self.t = t;
            self.k[FSAL * n..(FSAL + 1) * n].copy_from_slice(dy);
            // the guards jump with the inputs: the next crossing is measured from here
            if let Some(r) = self.roots {
                r.eval(t, &self.y, &mut self.g)?;
            }
        }
        Ok(())
    }
    fn hint(&self) -> Option<alloc::string::String> {
        self.stiff_at.map(|t| {
            alloc::format!(
                "; the model looks stiff from t = {t} on (DOP853's stiffness test), \
                 Method::Bdf or Method::Esdirk34 may need far fewer steps"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::doc_models::Kepler;

    static SUN: Kepler = Kepler { mu: 1.0 };

    /// The orbit's rhs as the stepper sees it.
    impl VectorField for Kepler {
        fn eval(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), Error> {
            crate::Model::rhs(self, t, y, dy)
        }
    }

    /// Eccentricity of the test orbit.
    const E: f64 = 0.5;

    fn max_diff(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    }

    /// One step of size `h` from the pericentre, accepted whatever its error.
    fn one_step(h: f64) -> Dop853<'static, Kepler> {
        let y0 = SUN.orbit(E, 0.0);
        // tolerances that accept any step; leaked so that the stepper can be returned
        let loose = alloc::boxed::Box::leak(alloc::boxed::Box::new(
            Options::default().rtol(1e3).atol(1e3),
        ));
        let mut s = Dop853::new(&SUN, 0.0, &y0, 10.0, loose, None).unwrap();
        s.h = h;
        assert_eq!(s.step().unwrap(), Stop::Continue);
        assert_eq!(s.t(), h);
        s
    }

    /// The exponent `p` of a local error `C h^p`, fitted between `h = 0.2` and `0.05` (below,
    /// the errors of this orbit reach roundoff).
    fn local_order(error: impl Fn(f64) -> f64) -> f64 {
        let (e0, e1) = (error(0.2), error(0.05));
        println!("errors {e0:.3e} at h = 0.2, {e1:.3e} at h = 0.05");
        (e0 / e1).log2() / 2.0
    }

    #[test]
    fn a_step_is_of_order_8() {
        // Local error C h^9.
        let p = local_order(|h| max_diff(one_step(h).y(), &SUN.orbit(E, h)));
        println!("local order {p:.2}");
        assert!((8.4..9.6).contains(&p), "{p}");
    }

    #[test]
    fn the_dense_output_is_of_order_7() {
        // Error at least C h^8 inside the step.
        let p = local_order(|h| {
            let mut s = one_step(h);
            let mut y = [0.0; 4];
            s.interpolate(0.3 * h, &mut y).unwrap();
            max_diff(&y, &SUN.orbit(E, 0.3 * h))
        });
        println!("local order {p:.2}");
        assert!(p > 7.7, "{p}");
        // and it meets the step at both ends
        let mut s = one_step(0.1);
        let (mut a, mut b) = ([0.0; 4], [0.0; 4]);
        s.interpolate(0.0, &mut a).unwrap();
        s.interpolate(0.1, &mut b).unwrap();
        assert_eq!(a, SUN.orbit(E, 0.0));
        assert!(max_diff(&b, s.y()) < 1e-15);
    }

    #[test]
    fn the_error_estimate_follows_the_true_error() {
        // A step's estimate (times the scale, here atol = 1) bounds its true error and is
        // of the same size: DOP853's err behaves as h^8 (the 5th-order estimate weighted).
        let unit = Options::default().rtol(0.0).atol(1.0);
        for h in [0.2, 0.1] {
            let y0 = SUN.orbit(E, 0.0);
            let mut s = Dop853::new(&SUN, 0.0, &y0, 10.0, &unit, None).unwrap();
            s.k.copy_within(FSAL * 4..(FSAL + 1) * 4, 0);
            for st in 1..STAGES {
                s.stage(st, 0.0, h).unwrap();
            }
            let est = s.candidate(h);
            let true_error = max_diff(&s.y1, &SUN.orbit(E, h));
            println!("h = {h}: estimate {est:.2e}, true error {true_error:.2e}");
            assert!(est > true_error && est < 1e4 * true_error);
        }
    }

    #[test]
    fn the_last_step_lands_on_the_end() {
        let y0 = SUN.orbit(E, 0.0);
        let tight = Options::default().rtol(1e-10).atol(1e-10);
        let mut s = Dop853::new(&SUN, 0.0, &y0, 1.0, &tight, None).unwrap();
        let mut steps = 0;
        while s.step().unwrap() == Stop::Continue {
            steps += 1;
        }
        assert_eq!(s.t(), 1.0);
        assert!(steps > 3);
        assert!(max_diff(s.y(), &SUN.orbit(E, 1.0)) < 1e-10);
    }
}
