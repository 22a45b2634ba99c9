//! Linearization about equilibria and steady motions.
//!
//! For a model with state `x = [q, z]` and `x' = f(x, t)` the exact Jacobian
//! `J = df/dx` and `df/du` come from [`Model::jacobians`] at the operating inputs
//! ([`Linearize::at_inputs`]; forward-mode dual numbers in generated models: no truncation
//! error). The reduced state
//! `y = x_K` keeps the named coordinates and speeds; the coordinates `D` set by the
//! configuration constraints `Phi(q, t) = 0` ([`Model::CONFIGURATION_COORDINATES`]) follow
//! the kept ones by the implicit-function theorem,
//!
//! ```text
//! dq_D = -S dq_K,   S = Phi_D^-1 Phi_K,   A = J_KK - J_KD S,   B = df_K / dr
//! ```
//!
//! and every other state is dropped, which is exact only when the kept and dependent
//! rows do not depend on it (`J[K u D, j] = 0`: ignorable coordinates, decoupled speeds);
//! a dropped state that couples is an error naming it, never a silently wrong matrix.
//! The columns of `B` are `df_K/du` for the runtime inputs ([`Model::INPUTS`]) named in
//! [`Linearize::inputs`], and [`Model::rhs_param_jvp`] for the parameters named there.
//! (Peterson, Gede & Hubbard 2015 for the general form; for `[q, z]` models only their
//! `C_0` is needed, since `psi` already satisfies the velocity constraints.)

use alloc::vec;
use alloc::vec::Vec;
use nalgebra::DMatrix;

use crate::{Error, Model};

mod eigen;
mod linearization;
mod spec;
pub use eigen::eigenvalues;
pub use linearization::{characteristic_polynomial, Linearization};
pub use spec::Linearize;

/// Linearize `model` at `(t, state)`; see the [module docs](self) for the maths.
///
/// ```
/// use nonholo_runtime::{linearize, Error, Linearize};
/// # use nonholo_runtime::__private::doc_models::Wheel;
///
/// // A uniform disk rolling on a line, held by a spring at its centre: state [x, phi, w],
/// // x' = r w, phi' = w, 3/2 m r^2 w' = -k r x, and the configuration constraint x = r phi.
/// let wheel = Wheel { m: 2.0, r: 0.5, k: 3.0 };
/// let lin = linearize(&wheel, 0.0, &[0.0; 3], &Linearize::new())?;
/// // x = r phi follows phi (S = Phi_x^-1 Phi_phi = -r): phi'' = -(2 k / 3 m) phi
/// assert_eq!(lin.states, ["phi", "w"]);
/// assert_eq!(lin.a[(1, 0)], -2.0 * wheel.k / (3.0 * wheel.m));
/// let eig = lin.eigenvalues()?; // +- i sqrt(2 k / 3 m) = +- i
/// assert!(eig.iter().all(|e| e.re.abs() < 1e-12 && (e.im.abs() - 1.0).abs() < 1e-12));
/// // x is not a state of its own
/// let e = linearize(&wheel, 0.0, &[0.0; 3], &Linearize::new().keep(&["x", "w"]));
/// assert!(matches!(e, Err(Error::DependentCoordinates { .. })));
/// # Ok::<(), Error>(())
/// ```
pub fn linearize<M: Model>(
    model: &M,
    t: f64,
    state: &[f64],
    spec: &Linearize,
) -> Result<Linearization, Error> {
    crate::model::validate_layout::<M>()?;
    model.check_parameters()?;
    let (nq, n) = (M::NQ, M::DIM);
    if state.len() != n {
        return Err(Error::Dimension {
            what: "state",
            expected: n,
            found: state.len(),
        });
    }
    let names: Vec<&'static str> = M::COORDINATES.iter().chain(M::SPEEDS).copied().collect();
    let point = || state.to_vec();
    let dependent: Vec<usize> = M::CONFIGURATION_COORDINATES
        .iter()
        .filter_map(|d| M::COORDINATES.iter().position(|c| c == d))
        .collect();
    let keep: Vec<usize> = if spec.keep.is_empty() {
        (0..n).filter(|i| !dependent.contains(i)).collect()
    } else {
        let mut keep = Vec::with_capacity(spec.keep.len());
        for name in &spec.keep {
            let Some(i) = names.iter().position(|s| s == name) else {
                return Err(Error::UnknownName {
                    what: "states",
                    name: name.clone(),
                    known: names.clone(),
                });
            };
            keep.push(i);
        }
        keep
    };
    let dependent_error = |why| Error::DependentCoordinates {
        coordinates: M::CONFIGURATION_COORDINATES.to_vec(),
        why,
        t,
        point: point(),
    };
    if keep.iter().any(|i| dependent.contains(i)) {
        return Err(dependent_error(
            "a kept coordinate is set by the configuration constraints (keep the others; it follows them)",
        ));
    }

    // the operating inputs (zero unless given)
    let u0 = if spec.at_inputs.is_empty() {
        vec![0.0; M::NU]
    } else {
        spec.at_inputs.clone()
    };
    if u0.len() != M::NU {
        return Err(Error::Dimension {
            what: "operating inputs (Linearize::at_inputs)",
            expected: M::NU,
            found: u0.len(),
        });
    }
    // the exact Jacobians df/dx and df/du at once
    let (mut ja, mut jb) = (vec![0.0; n * n], vec![0.0; n * M::NU]);
    model.jacobians(t, state, &u0, &mut ja, &mut jb)?;
    let jacobian = DMatrix::from_row_slice(n, n, &ja);
    let scale = 1.0 + jacobian.amax();

    // S = Phi_D^-1 Phi_K (zero columns for kept speeds)
    let k = M::CONFIGURATION_CONSTRAINTS.len();
    let mut phi = vec![0.0; k * nq];
    let mut s = DMatrix::zeros(k, keep.len());
    if k > 0 {
        if dependent.len() != k {
            return Err(dependent_error(
                "there must be one dependent coordinate per configuration constraint",
            ));
        }
        model.configuration_jacobian(t, &state[..nq], &mut phi)?;
        let phi_d = DMatrix::from_fn(k, k, |r, c| phi[r * nq + dependent[c]]);
        let phi_k = DMatrix::from_fn(k, keep.len(), |r, c| {
            if keep[c] < nq {
                phi[r * nq + keep[c]]
            } else {
                0.0
            }
        });
        s = phi_d.lu().solve(&phi_k).ok_or_else(|| {
            dependent_error("the configuration constraints' Jacobian in them is singular here")
        })?;
    }
    // the embedding of the reduced perturbation in the full state
    let mut embed = DMatrix::zeros(n, keep.len());
    for (c, i) in keep.iter().enumerate() {
        embed[(*i, c)] = 1.0;
        for (d, qd) in dependent.iter().enumerate() {
            embed[(*qd, c)] -= s[(d, c)];
        }
    }
    let jt = &jacobian * &embed;
    let a = DMatrix::from_fn(keep.len(), keep.len(), |r, c| jt[(keep[r], c)]);

    // dropping a state is exact only if neither the kept and dependent rows nor the
    // configuration constraints depend on it
    let mut coupling = 0.0f64;
    for j in (0..n).filter(|j| !keep.contains(j) && !dependent.contains(j)) {
        let mut cj = keep
            .iter()
            .chain(&dependent)
            .fold(0.0f64, |m, r| m.max(jacobian[(*r, j)].abs()));
        if j < nq {
            cj = (0..k).fold(cj, |m, r| m.max(phi[r * nq + j].abs()));
        }
        // NaN couples too
        if cj.is_nan() || cj > spec.tolerance * scale {
            return Err(Error::DroppedStateCouples {
                state: names[j],
                coupling: cj,
                t,
                point: point(),
            });
        }
        coupling = coupling.max(cj);
    }
    let mut drift = 0.0f64;
    for (d, qd) in dependent.iter().enumerate() {
        for c in 0..keep.len() {
            let mut x = jt[(*qd, c)];
            for (c2, i) in keep.iter().enumerate() {
                x += s[(d, c2)] * jt[(*i, c)];
            }
            drift = drift.max(x.abs());
        }
    }

    let mut f = vec![0.0; n];
    model.rhs_u(t, state, &u0, &mut f)?;
    let residual = keep.iter().map(|i| f[*i]).collect();

    // the columns of b: runtime inputs from df/du, parameters by rhs_param_jvp
    let params = M::PARAMETERS;
    let mut inputs = Vec::with_capacity(spec.inputs.len());
    let mut b = DMatrix::zeros(keep.len(), spec.inputs.len());
    let mut dp = vec![0.0; params.len()];
    let mut col = vec![0.0; n];
    for (c, name) in spec.inputs.iter().enumerate() {
        if let Some(k) = M::INPUTS.iter().position(|s| s == name) {
            inputs.push(M::INPUTS[k]);
            for (r, i) in keep.iter().enumerate() {
                b[(r, c)] = jb[*i * M::NU + k];
            }
            continue;
        }
        let Some(p) = params.iter().position(|s| s == name) else {
            return Err(Error::UnknownName {
                what: "inputs or parameters",
                name: name.clone(),
                known: M::INPUTS.iter().chain(params).copied().collect(),
            });
        };
        if u0.iter().any(|x| *x != 0.0) {
            return Err(Error::InvalidOptions(alloc::format!(
                "the parameter `{name}` as an input: parameter derivatives are taken at zero \
                 runtime inputs, but the operating inputs are {u0:?}"
            )));
        }
        inputs.push(params[p]);
        dp[p] = 1.0;
        model.rhs_param_jvp(t, state, &dp, &mut col)?;
        dp[p] = 0.0;
        for (r, i) in keep.iter().enumerate() {
            b[(r, c)] = col[*i];
        }
    }
    Ok(Linearization {
        states: keep.iter().map(|i| names[*i]).collect(),
        inputs,
        a,
        b,
        jacobian,
        residual,
        coupling,
        drift,
    })
}
