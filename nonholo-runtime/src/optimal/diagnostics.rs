//! Checks of a [`Problem`]'s program: its derivatives against central differences
//! ([`Problem::derivative_check`]) and its evaluations, for the allocation count.

use alloc::vec;
use alloc::vec::Vec;

use super::choices::Hessian;
use super::cost::{Cost, PathConstraint};
use super::hessian::HessianPlan;
use super::nlp::Nlp;
use super::pattern::Probe;
use super::problem::Problem;
use super::transcription::Program;
use crate::{Error, Model};

/// A program, the point near the guess where it is checked, and the generator of what the
/// check draws next.
type NearGuess<'a, M, C, P> = (Program<'a, M, C, P>, Vec<f64>, Probe);

impl<M: Model + Sync, C: Cost, P: PathConstraint> Problem<'_, M, C, P> {
    /// The program at the initial guess moved by a fixed pseudo-random step (the point
    /// the checks below differentiate at), that point, and the generator for what they
    /// draw next.
    fn program_near_guess(&self) -> Result<NearGuess<'_, M, C, P>, Error> {
        if let Some(e) = &self.mistake {
            return Err(e.clone());
        }
        let layout = self.layout();
        let mut x = self.start(&layout)?;
        let mut probe = Probe::new();
        for v in &mut x {
            *v += 0.1 * probe.next();
        }
        let patterns = self.patterns(&layout, &x)?;
        let program = self.program(layout, patterns, x.clone());
        Ok((program, x, probe))
    }

    /// Compares the program's exact derivatives with central differences at the initial
    /// guess moved by a fixed pseudo-random step (Ipopt's `derivative_test`): the largest
    /// difference of an entry of the constraints' Jacobian, of the objective's gradient or
    /// (where the solve would have it exactly) of the Lagrangian's Hessian at
    /// pseudo-random multipliers, relative to `1 +` the entry's size. About `1e-6` or less when the model, the
    /// cost and the path constraints are differentiable there; a diagnostic, never used by
    /// [`Problem::solve`].
    ///
    /// ```
    /// use nonholo_runtime::optimal::Problem;
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let p = Problem::new(&osc, 5).initial_state(&[0.0, 0.0]).minimize_input_effort(&[1.0]);
    /// assert!(p.derivative_check()? < 1e-6);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn derivative_check(&self) -> Result<f64, Error> {
        let (program, mut x, mut probe) = self.program_near_guess()?;
        let (n, m) = (program.layout.variables(), program.layout.constraints());
        let (rows, cols) = program.jacobian_structure();
        let mut vals = vec![0.0; rows.len()];
        if !program.jacobian_values(&x, &mut vals) {
            return Err(program.take_error().unwrap_or(Error::NotAvailable {
                what: "the program's Jacobian at the guess",
            }));
        }
        let mut dense = vec![0.0; m * n];
        for ((r, c), v) in rows.iter().zip(&cols).zip(&vals) {
            dense[r * n + c] += v;
        }
        let mut grad = vec![0.0; n];
        program.gradient(&x, &mut grad);
        let (mut gp, mut gm) = (vec![0.0; m], vec![0.0; m]);
        let mut worst: f64 = 0.0;
        for j in 0..n {
            let step = 1e-6 * (1.0 + x[j].abs());
            let keep = x[j];
            x[j] = keep + step;
            let ok_p = program.constraints(&x, &mut gp);
            let fp = program.objective(&x);
            x[j] = keep - step;
            let ok_m = program.constraints(&x, &mut gm);
            let fm = program.objective(&x);
            x[j] = keep;
            if !(ok_p && ok_m) {
                return Err(program.take_error().unwrap_or(Error::NotAvailable {
                    what: "the program's constraints near the guess",
                }));
            }
            for i in 0..m {
                let fd = (gp[i] - gm[i]) / (2.0 * step);
                let exact = dense[i * n + j];
                worst = worst.max((fd - exact).abs() / (1.0 + exact.abs()));
            }
            let fd = (fp - fm) / (2.0 * step);
            worst = worst.max((fd - grad[j]).abs() / (1.0 + grad[j].abs()));
        }
        // the Hessian of the Lagrangian (exact where the solve would have it) against
        // central differences of its gradient, at pseudo-random multipliers
        let hessian = match self.hessian {
            Hessian::LimitedMemory => None,
            Hessian::Auto | Hessian::Exact => HessianPlan::probe(&program, &x),
        };
        if let Some(plan) = hessian {
            let lambda: Vec<f64> = (0..m).map(|_| probe.next()).collect();
            let sigma = 0.7;
            let (hr, hc) = plan.structure(&program.layout);
            let mut hv = vec![0.0; hr.len()];
            if !plan.values(&program, &x, sigma, &lambda, &mut hv) {
                return Err(plan.take_error().unwrap_or(Error::NotAvailable {
                    what: "the program's Hessian at the guess",
                }));
            }
            let mut h = vec![0.0; n * n];
            for ((r, c), v) in hr.iter().zip(&hc).zip(&hv) {
                h[r * n + c] += v;
                if r != c {
                    h[c * n + r] += v;
                }
            }
            let mut lagrangian_gradient = |x: &[f64], out: &mut [f64]| -> bool {
                program.gradient(x, out);
                for o in out.iter_mut() {
                    *o *= sigma;
                }
                if !program.jacobian_values(x, &mut vals) {
                    return false;
                }
                for ((r, c), v) in rows.iter().zip(&cols).zip(&vals) {
                    out[*c] += lambda[*r] * v;
                }
                true
            };
            let (mut lp, mut lm) = (vec![0.0; n], vec![0.0; n]);
            for j in 0..n {
                let step = 1e-6 * (1.0 + x[j].abs());
                let keep = x[j];
                x[j] = keep + step;
                let ok_p = lagrangian_gradient(&x, &mut lp);
                x[j] = keep - step;
                let ok_m = lagrangian_gradient(&x, &mut lm);
                x[j] = keep;
                if !(ok_p && ok_m) {
                    return Err(program.take_error().unwrap_or(Error::NotAvailable {
                        what: "the program's Jacobian near the guess",
                    }));
                }
                for i in 0..n {
                    let fd = (lp[i] - lm[i]) / (2.0 * step);
                    let exact = h[i * n + j];
                    worst = worst.max((fd - exact).abs() / (1.0 + exact.abs()));
                }
            }
        }
        Ok(worst)
    }

    /// Builds the program and evaluates everything the solver asks for (objective,
    /// gradient, constraints, Jacobian, Hessian) `times` times at points that move: what
    /// a test counts allocations of (the evaluations' share is the difference between two
    /// counts). Not part of the API.
    #[doc(hidden)]
    pub fn __evaluate(&self, times: usize) -> Result<f64, Error> {
        self.evaluate(times, None)
    }

    /// [`Self::__evaluate`] with the Hessian's points in `runs` runs on rayon's threads,
    /// whatever the work (what a test counts the threads' allocations of). Not part of the
    /// API.
    #[doc(hidden)]
    #[cfg(feature = "parallel")]
    pub fn __evaluate_in_runs(&self, times: usize, runs: usize) -> Result<f64, Error> {
        self.evaluate(times, Some(runs))
    }

    fn evaluate(&self, times: usize, runs: Option<usize>) -> Result<f64, Error> {
        use ripopt::NlpProblem;
        if let Some(e) = &self.mistake {
            return Err(e.clone());
        }
        let layout = self.layout();
        let mut x = self.start(&layout)?;
        let patterns = self.patterns(&layout, &x)?;
        let program = self.program(layout, patterns, x.clone());
        #[allow(unused_mut)]
        let mut hessian = HessianPlan::probe(&program, &program.start);
        #[cfg(feature = "parallel")]
        if let (Some(runs), Some(plan)) = (runs, hessian.as_mut()) {
            plan.in_runs(&program.layout, runs);
        }
        #[cfg(not(feature = "parallel"))]
        let _ = runs;
        let nlp = Nlp { program, hessian };
        let (n, m) = (nlp.num_variables(), nlp.num_constraints());
        let (jr, _) = nlp.jacobian_structure();
        let (hr, _) = nlp.hessian_structure();
        let (mut grad, mut g, mut jac, mut hess) = (
            vec![0.0; n],
            vec![0.0; m],
            vec![0.0; jr.len()],
            vec![0.0; hr.len()],
        );
        let lambda = vec![0.5; m];
        let mut total = 0.0;
        for i in 0..times {
            x[i % n] += 1e-3;
            let mut f = 0.0;
            let ok = nlp.objective(&x, true, &mut f)
                & nlp.gradient(&x, false, &mut grad)
                & nlp.constraints(&x, false, &mut g)
                & nlp.jacobian_values(&x, false, &mut jac)
                & (nlp.hessian.is_none() || nlp.hessian_values(&x, false, 1.0, &lambda, &mut hess));
            if !ok {
                return Err(nlp.take_error().unwrap_or(Error::NotAvailable {
                    what: "an evaluation of the program",
                }));
            }
            total += f + g[0] + jac[0] + hess.first().copied().unwrap_or(0.0);
        }
        Ok(total)
    }

    /// The program's starting point: each point's state and inputs (the nodes, then the
    /// Hermite–Simpson midpoints), then the duration if it is free. What a reference dump
    /// for another solver starts from (`benches/examples/casadi_reference.rs`). Not part
    /// of the API.
    #[doc(hidden)]
    pub fn __start(&self) -> Result<Vec<f64>, Error> {
        if let Some(e) = &self.mistake {
            return Err(e.clone());
        }
        self.start(&self.layout())
    }

    /// The Hessian of the Lagrangian at the guess moved by a fixed pseudo-random step and
    /// at pseudo-random multipliers, by the tape's sweeps (what the solve uses; with the
    /// `parallel` feature also with the points in three runs on rayon's threads) and by one
    /// hyper-dual evaluation per entry: the largest difference relative to the largest
    /// entry (at least 1), and the number of entries. Not part of the API.
    #[doc(hidden)]
    pub fn __hessian_cross_check(&self) -> Result<(f64, usize), Error> {
        let (worst, entries) = self.hessian_cross_check(false)?;
        #[cfg(feature = "parallel")]
        let worst = {
            let (in_runs, n) = self.hessian_cross_check(true)?;
            debug_assert_eq!(n, entries);
            worst.max(in_runs)
        };
        Ok((worst, entries))
    }

    /// [`Self::__hessian_cross_check`], the tape's points in three runs if `in_runs`.
    fn hessian_cross_check(&self, in_runs: bool) -> Result<(f64, usize), Error> {
        let (program, x, mut probe) = self.program_near_guess()?;
        #[cfg_attr(not(feature = "parallel"), allow(unused_mut))]
        let mut plan = HessianPlan::probe(&program, &x).ok_or(Error::NotAvailable {
            what: "the exact Hessian",
        })?;
        #[cfg(feature = "parallel")]
        if in_runs {
            plan.in_runs(&program.layout, 3);
        }
        #[cfg(not(feature = "parallel"))]
        let _ = in_runs;
        let lambda: Vec<f64> = (0..program.layout.constraints())
            .map(|_| probe.next())
            .collect();
        let (rows, _) = plan.structure(&program.layout);
        let (mut tape, mut hyper) = (vec![0.0; rows.len()], vec![0.0; rows.len()]);
        if !plan.values(&program, &x, 0.7, &lambda, &mut tape) {
            return Err(plan.take_error().unwrap_or(Error::NotAvailable {
                what: "the program's Hessian at the guess",
            }));
        }
        plan.values_by_hyper_duals(&program, &x, 0.7, &lambda, &mut hyper)?;
        // relative to the largest entry: one Hessian's entries span many magnitudes, and
        // each of the two roundings is relative to the terms an entry sums
        let scale = hyper.iter().fold(0.0, |m: f64, b| m.max(b.abs()));
        let worst = tape
            .iter()
            .zip(&hyper)
            .map(|(a, b)| (a - b).abs() / scale.max(1.0))
            .fold(0.0, f64::max);
        Ok((worst, rows.len()))
    }
}
