//! What a [`Model`] says about the samples of a [`Trajectory`]: energy and residuals.

use alloc::vec;
use alloc::vec::Vec;

use super::Trajectory;
use crate::{Error, Model};

impl Trajectory {
    /// The energy at every sample: [`Model::energy_u`] with the recorded inputs (a
    /// trajectory recorded without inputs is evaluated at `u = 0`, [`Model::energy`]).
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Error};
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate};
    ///
    /// // RK4 on x'' = -x multiplies the energy 1/2 (x^2 + v^2) by
    /// // |R(i h)|^2 = 1 - h^6 / 72 + h^8 / 576 every step (R the method's stability function).
    /// let (osc, h) = (Oscillator::new(1.0), 0.1);
    /// let tr = integrate_rk4(&osc, &[1.0, 0.0], 0.0, h, 100)?;
    /// let factor = 1.0 - h.powi(6) / 72.0 + h.powi(8) / 576.0;
    /// for (n, e) in tr.energy(&osc)?.iter().enumerate() {
    ///     assert!((e - 0.5 * factor.powi(n as i32)).abs() < 1e-14);
    /// }
    /// // a model of another shape does not fit the samples
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// assert!(matches!(tr.energy(&skate), Err(Error::Dimension { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// With inputs, the energy changes by the work they do: on `m x'' + k x = f` with `f`
    /// held over each control period, `E(t_k+1) - E(t_k) = f_k (x(t_k+1) - x(t_k))`.
    ///
    /// ```
    /// # #[cfg(feature = "diffsol")]
    /// # {
    /// use nonholo_runtime::{simulate_controlled, Options};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let mut push = |t: f64, _x: &[f64], u: &mut [f64]| u[0] = (3.0 * t).sin();
    /// let options = Options::default().control_period(0.1).sample_every(0.1);
    /// let tr = simulate_controlled(&osc, &mut push, &[0.0, 0.0], 0.0..2.0, &options)?;
    /// let (e, x) = (tr.energy(&osc)?, tr.column("x").unwrap());
    /// for k in 0..tr.len() - 1 {
    ///     let work = tr.input(k).unwrap()[0] * (x[k + 1] - x[k]);
    ///     assert!((e[k + 1] - e[k] - work).abs() < 1e-9);
    /// }
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn energy<M: Model>(&self, model: &M) -> Result<Vec<f64>, Error> {
        self.check_model::<M>()?;
        if self.nu() != M::NU && self.nu() != 0 {
            return Err(Error::Dimension {
                what: "trajectory inputs",
                expected: M::NU,
                found: self.nu(),
            });
        }
        self.samples_with_inputs()
            .map(|(t, state, u)| {
                if u.len() == M::NU {
                    model.energy_u(t, state, u)
                } else {
                    model.energy(t, state)
                }
            })
            .collect()
    }

    /// The constraint residuals `C_a(q, dot(q), t)` at every sample, with
    /// `dot(q) = psi(q, z, t)` from [`Model::qdot`].
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Model, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::{Skate, SkateLagrange};
    ///
    /// // A skate [x, y, theta, v, omega]: C = dot(y) cos(theta) - dot(x) sin(theta) vanishes
    /// // for dot(q) = psi(q, z) = [v cos(theta), v sin(theta), omega], whatever the speeds.
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 100)?;
    /// let c = tr.constraint_residuals(&skate)?;
    /// assert_eq!(c.len(), tr.len());
    /// assert!(c.iter().all(|c| c.len() == 1 && c[0].abs() < 1e-15));
    /// // By Lagrange multipliers the state holds dot(q) itself, which may slide sideways:
    /// // at theta = 0, C = dot(y).
    /// let lagrange = SkateLagrange { m: 1.0, i: 0.1 };
    /// let (state, mut dstate) = ([0.0, 0.0, 0.0, 1.0, 0.25, 0.0], [0.0; 6]);
    /// lagrange.rhs(0.0, &state, &mut dstate)?;
    /// let mut tr = Trajectory::new::<SkateLagrange>();
    /// tr.push(0.0, &state, &dstate)?;
    /// assert_eq!(tr.constraint_residuals(&lagrange)?, [[0.25]]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn constraint_residuals<M: Model>(&self, model: &M) -> Result<Vec<Vec<f64>>, Error> {
        self.check_model::<M>()?;
        let mut qdot = vec![0.0; M::NQ];
        self.samples()
            .map(|(t, state)| {
                // check_model made NQ <= dim, so the split cannot fail.
                let (q, z) = state.split_at_checked(M::NQ).unwrap_or((state, &[]));
                model.qdot(t, q, z, &mut qdot)?;
                let mut r = vec![0.0; M::NC];
                model.constraint_residual(t, q, &qdot, &mut r)?;
                Ok(r)
            })
            .collect()
    }

    /// The largest `|C_a|` over all samples and constraints (0 without constraints or
    /// samples; NaN if a residual is NaN).
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, SkateLagrange};
    ///
    /// // The same skate motion (v = omega = 1) in speeds and by Lagrange multipliers: the
    /// // speeds satisfy the constraint exactly, the multipliers only keep dC/dt = 0, which
    /// // RK4 integrates to its truncation error.
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let tr = integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.01, 1000)?;
    /// assert!(tr.max_constraint_residual(&skate)? < 1e-15);
    /// let lagrange = SkateLagrange { m: 1.0, i: 0.1 };
    /// let tr = integrate_rk4(&lagrange, &[0.0, 0.0, 0.0, 1.0, 0.0, 1.0], 0.0, 0.01, 1000)?;
    /// let drift = tr.max_constraint_residual(&lagrange)?;
    /// assert!(drift > 1e-12 && drift < 1e-8);
    /// // no constraints: 0
    /// let osc = Oscillator::new(1.0);
    /// let tr = integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.1, 10)?;
    /// assert_eq!(tr.max_constraint_residual(&osc)?, 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_constraint_residual<M: Model>(&self, model: &M) -> Result<f64, Error> {
        Ok(max_abs(&self.constraint_residuals(model)?))
    }

    /// The configuration residuals `f_k(q, t)` ([`Model::configuration_residual`]) at
    /// every sample: how far the integrated coordinates drift from the configuration
    /// constraints whose derivatives the equations enforce.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Wheel;
    ///
    /// // A wheel rolling on a line, [x, phi, w], with x' = r phi' and so x - r phi constant.
    /// let wheel = Wheel { m: 2.0, r: 0.5, k: 3.0 };
    /// // started on the configuration constraint x = r phi: it stays there (RK4 keeps linear
    /// // invariants to roundoff)
    /// let tr = integrate_rk4(&wheel, &[0.05, 0.1, 0.0], 0.0, 0.01, 1000)?;
    /// let f = tr.configuration_residuals(&wheel)?;
    /// assert!(f.iter().all(|f| f.len() == 1 && f[0].abs() < 1e-15));
    /// // started 0.01 off it: the equations hold only its derivative, so the offset stays
    /// let tr = integrate_rk4(&wheel, &[0.06, 0.1, 0.0], 0.0, 0.01, 1000)?;
    /// let f = tr.configuration_residuals(&wheel)?;
    /// assert!(f.iter().all(|f| (f[0] - 0.01).abs() < 1e-15));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn configuration_residuals<M: Model>(&self, model: &M) -> Result<Vec<Vec<f64>>, Error> {
        self.check_model::<M>()?;
        self.samples()
            .map(|(t, state)| {
                let q = state.get(..M::NQ).unwrap_or(state);
                let mut r = vec![0.0; M::CONFIGURATION_CONSTRAINTS.len()];
                model.configuration_residual(t, q, &mut r)?;
                Ok(r)
            })
            .collect()
    }

    /// The largest `|f_k|` over all samples (0 without configuration constraints).
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Model};
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Wheel};
    ///
    /// let wheel = Wheel { m: 2.0, r: 0.5, k: 3.0 };
    /// // x = 0.07 is off x = r phi; solve_configuration sets x from phi
    /// let mut q = [0.07, 0.1];
    /// wheel.solve_configuration(0.0, &mut q)?;
    /// assert_eq!(q, [0.05, 0.1]);
    /// let tr = integrate_rk4(&wheel, &[q[0], q[1], 0.0], 0.0, 0.01, 1000)?;
    /// assert!(tr.max_configuration_residual(&wheel)? < 1e-15);
    /// // no configuration constraints: 0
    /// let osc = Oscillator::new(1.0);
    /// let tr = integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.1, 10)?;
    /// assert_eq!(tr.max_configuration_residual(&osc)?, 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_configuration_residual<M: Model>(&self, model: &M) -> Result<f64, Error> {
        Ok(max_abs(&self.configuration_residuals(model)?))
    }
}

/// The largest `|r|` over all rows (0 when empty; NaN if any entry is NaN, which
/// `f64::max` would drop).
impl Trajectory {
    /// The largest residual at each sample of a hybrid run ([`simulate_hybrid`] of a model
    /// with friction, recorded as `[q, dot(q)]`) over the constraint rows that hold there:
    /// every row while all contacts roll, and while some slide every row but their
    /// tangential ones (their heights hold). `C dot(q) + c` in the rows' units. A sliding
    /// phase keeps them near zero by Baumgarte's term, what an integration at `rtol`
    /// otherwise lets accumulate.
    ///
    /// [`simulate_hybrid`]: crate::simulate_hybrid
    ///
    /// # Errors
    /// [`Error::NotAvailable`] for a trajectory that is not a hybrid run's of this model
    /// (no contacts recorded, or other dimensions); the model's errors.
    pub fn held_residuals<M: Model>(&self, model: &M) -> Result<Vec<f64>, Error> {
        let not_hybrid = Error::NotAvailable {
            what: "the held rows' residuals (a hybrid run's trajectory of this model)",
        };
        let spec = model.__released().map(crate::__private::Released::spec);
        let Some(spec) = spec else {
            return Err(not_hybrid);
        };
        if self.contact_names.len() != spec.contacts.len()
            || self.nq != M::NQ
            || self.dim() != 2 * M::NQ
        {
            return Err(not_hybrid);
        }
        let mut r = vec![0.0; M::NC];
        let k = spec.contacts.len();
        self.samples()
            .enumerate()
            .map(|(i, (t, state))| {
                let (q, qd) = state.split_at(M::NQ);
                model.constraint_residual(t, q, qd, &mut r)?;
                let sliding = &self.sliding[i * k..(i + 1) * k];
                for (cr, _) in spec.contacts.iter().zip(sliding).filter(|(_, s)| **s) {
                    let own = cr.rows.len() - usize::from(cr.height);
                    for &row in &cr.rows[..own] {
                        r[row] = 0.0;
                    }
                }
                Ok(max_abs(core::slice::from_ref(&r)))
            })
            .collect()
    }
}

fn max_abs(rows: &[Vec<f64>]) -> f64 {
    rows.iter().flatten().fold(0.0_f64, |m, r| {
        if r.is_nan() || m.is_nan() {
            f64::NAN
        } else {
            m.max(r.abs())
        }
    })
}
