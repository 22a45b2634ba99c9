//! Checks of a model's layout, of a state and of velocities against the constraints,
//! made once per run (or sample), not per step.

use alloc::vec;

use super::Model;
use crate::Error;

/// Check that a model's names, sizes and zero state agree with each other
/// (`NQ + NZ = DIM`, one name per coordinate, speed and constraint, `ZERO_STATE` of length
/// `DIM`).
///
/// Generated models always pass; the integrators call this first so that a hand-written
/// [`Model`] with inconsistent constants fails with [`Error::Dimension`] instead of
/// producing a mislabelled trajectory.
///
/// ```
/// use nonholo_runtime::{integrate_rk4, model::validate_layout, Error};
/// # use nonholo_runtime::__private::doc_models::{Mislabelled, Oscillator};
///
/// assert_eq!(validate_layout::<Oscillator>(), Ok(()));
/// // One speed (NZ = 1) but no name for it in SPEEDS.
/// let wrong = Error::Dimension { what: "SPEEDS", expected: 1, found: 0 };
/// assert_eq!(validate_layout::<Mislabelled>(), Err(wrong.clone()));
/// // What the integrators report before taking a step.
/// let run = integrate_rk4(&Mislabelled(Oscillator::new(1.0)), &[1.0, 0.0], 0.0, 0.1, 10);
/// assert_eq!(run.unwrap_err().error, wrong);
/// ```
pub fn validate_layout<M: Model>() -> Result<(), Error> {
    let checks = [
        ("NQ + NZ", M::DIM, M::NQ + M::NZ),
        ("COORDINATES", M::NQ, M::COORDINATES.len()),
        ("SPEEDS", M::NZ, M::SPEEDS.len()),
        ("CONSTRAINTS", M::NC, M::CONSTRAINTS.len()),
        ("ZERO_STATE", M::DIM, M::ZERO_STATE.as_ref().len()),
        ("INPUTS", M::NU, M::INPUTS.len()),
    ];
    for (what, expected, found) in checks {
        if expected != found {
            return Err(Error::Dimension {
                what,
                expected,
                found,
            });
        }
    }
    Ok(())
}

/// Check a state `[q, z]` before integrating it: it must have length `DIM`, be finite,
/// and its velocities `dot(q) = psi(q, z, t)` must satisfy every constraint to
/// `|C_a| <= tol * (1 + max_i |dot(q)_i|)`.
///
/// With a speed parametrization the constraints hold for every `z` by construction, so
/// this mostly catches a wrong `psi` in a hand-written model or, for
/// [`Formulation::Multipliers`](crate::Formulation::Multipliers) (state `[q, dot(q)]`),
/// initial velocities off the constraint manifold. Allocates two small buffers; meant for
/// once per run (or per sample), not per step.
///
/// ```
/// use nonholo_runtime::{model::check_state, Error};
/// # use nonholo_runtime::__private::doc_models::Skate;
///
/// // A skate [x, y, theta, v, omega]: dot(q) = [v cos(theta), v sin(theta), omega]
/// // satisfies dot(y) cos(theta) = dot(x) sin(theta) whatever v and omega are.
/// let skate = Skate { m: 1.0, i: 0.1 };
/// assert_eq!(check_state(&skate, 0.0, &[0.0, 0.0, 0.7, 3.0, -2.0], 1e-8), Ok(()));
/// assert!(matches!(
///     check_state(&skate, 0.0, &[0.0, 0.0, 0.7, 3.0], 1e-8),
///     Err(Error::Dimension { expected: 5, found: 4, .. })
/// ));
/// assert!(matches!(
///     check_state(&skate, 0.0, &[0.0, 0.0, f64::NAN, 3.0, -2.0], 1e-8),
///     Err(Error::NonFinite { .. })
/// ));
/// ```
pub fn check_state<M: Model>(model: &M, t: f64, state: &[f64], tol: f64) -> Result<(), Error> {
    if state.len() != M::DIM {
        return Err(Error::Dimension {
            what: "state",
            expected: M::DIM,
            found: state.len(),
        });
    }
    if !t.is_finite() || state.iter().any(|x| !x.is_finite()) {
        return Err(Error::NonFinite {
            what: "initial time or state",
            t,
            state: state.to_vec(),
        });
    }
    let (q, z) = state.split_at(M::NQ.min(state.len()));
    let mut qdot = vec![0.0; M::NQ];
    model.qdot(t, q, z, &mut qdot)?;
    check_velocities(model, t, q, &qdot, tol).map_err(|e| match e {
        Error::ConstraintViolated {
            index,
            constraint,
            residual,
            t,
            ..
        } => Error::ConstraintViolated {
            index,
            constraint,
            residual,
            t,
            state: state.to_vec(),
        },
        other => other,
    })
}

/// Check that the velocities `qdot` satisfy every constraint at `(t, q)`:
/// `|C_a| <= tol * (1 + max |qdot_i|)`, a NaN residual counting as a violation.
/// The one constraint test of the crate: [`check_state`] and every generated
/// `state_from_qdot` (with `tol = 1e-8`) use it. Not a per-step call (it allocates the
/// residual vector).
///
/// ```
/// use nonholo_runtime::{check_velocities, Error};
/// # use nonholo_runtime::__private::doc_models::Skate;
///
/// // A skate heading along theta = 0 may move along x, not along y.
/// let skate = Skate { m: 1.0, i: 0.1 };
/// let q = [0.0, 0.0, 0.0];
/// assert_eq!(check_velocities(&skate, 0.0, &q, &[2.0, 0.0, 1.0], 1e-8), Ok(()));
/// let err = check_velocities(&skate, 0.5, &q, &[2.0, 1e-3, 1.0], 1e-8).unwrap_err();
/// let Error::ConstraintViolated { index, residual, t, state, .. } = &err else {
///     panic!("{err}")
/// };
/// assert_eq!((*index, *residual, *t), (0, 1e-3, 0.5)); // C = dot(y) cos(0) - dot(x) sin(0)
/// assert_eq!(state, &[0.0, 0.0, 0.0, 2.0, 1e-3, 1.0]); // [q, dot(q)]
/// // The test is relative: |C| <= tol (1 + max |dot(q)|) = 3e-3 passes.
/// assert!(check_velocities(&skate, 0.5, &q, &[2.0, 1e-3, 1.0], 1e-3).is_ok());
/// ```
pub fn check_velocities<M: Model>(
    model: &M,
    t: f64,
    q: &[f64],
    qdot: &[f64],
    tol: f64,
) -> Result<(), Error> {
    let mut residual = vec![0.0; M::NC];
    model.constraint_residual(t, q, qdot, &mut residual)?;
    let scale = 1.0 + qdot.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    for (index, r) in residual.iter().enumerate() {
        // Written so that a NaN residual counts as a violation.
        let within = r.abs() <= tol * scale;
        if !within {
            let mut state = q.to_vec();
            state.extend_from_slice(qdot);
            return Err(Error::ConstraintViolated {
                index,
                constraint: M::CONSTRAINTS.get(index).copied().unwrap_or("?"),
                residual: *r,
                t,
                state,
            });
        }
    }
    Ok(())
}
