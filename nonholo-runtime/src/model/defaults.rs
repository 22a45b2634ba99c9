//! The fallbacks behind [`Model`]'s default methods for hand-written models: central
//! differences on the stack, and the input-size check.

use super::Model;
use crate::Error;

/// `out = (f(x + h v) - f(x - h v)) / 2h` with a step scaled to the state, on the stack:
/// the Jacobian-vector products of hand-written models.
pub(super) fn central_difference<M: Model + ?Sized>(
    state: &[f64],
    v: &[f64],
    out: &mut [f64],
    mut f: impl FnMut(&[f64], &mut [f64]) -> Result<(), Error>,
) -> Result<(), Error> {
    let n = state.len();
    if v.len() != n || out.len() != n {
        return Err(Error::Dimension {
            what: "jvp direction",
            expected: n,
            found: v.len().min(out.len()),
        });
    }
    let scale = state.iter().fold(1.0f64, |a, x| a.max(x.abs()));
    let vnorm = v.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    if vnorm == 0.0 {
        out.iter_mut().for_each(|o| *o = 0.0);
        return Ok(());
    }
    let h = 6.055454452393343e-6 * scale / vnorm; // cbrt(f64::EPSILON)
    let (mut x, mut fp) = (M::ZERO_STATE, M::ZERO_STATE);
    let (x, fp) = (x.as_mut(), fp.as_mut());
    if x.len() != n {
        return Err(Error::Dimension {
            what: "state",
            expected: x.len(),
            found: n,
        });
    }
    for i in 0..n {
        x[i] = state[i] + h * v[i];
    }
    f(x, fp)?;
    for i in 0..n {
        x[i] = state[i] - h * v[i];
    }
    f(x, out)?;
    for (o, p) in out.iter_mut().zip(fp.iter()) {
        *o = (p - *o) / (2.0 * h);
    }
    Ok(())
}

/// `Err(Dimension)` unless `u` has one entry per input.
pub(super) fn check_inputs<M: Model + ?Sized>(u: &[f64]) -> Result<(), Error> {
    if u.len() == M::NU {
        Ok(())
    } else {
        Err(Error::Dimension {
            what: "inputs u",
            expected: M::NU,
            found: u.len(),
        })
    }
}

/// The default of [`Model::jacobians`]: `a` by [`Model::rhs_u_jvp`] along each unit vector,
/// `b` by central differences of [`Model::rhs_u`], on the stack.
pub(super) fn jacobians_by_columns<M: Model + ?Sized>(
    model: &M,
    t: f64,
    state: &[f64],
    u: &[f64],
    a: &mut [f64],
    b: &mut [f64],
) -> Result<(), Error> {
    const MAX_INPUTS: usize = 16;
    let n = M::DIM;
    check_inputs::<M>(u)?;
    let sizes = [
        ("state", n, state.len()),
        ("jacobian a (DIM x DIM)", n * n, a.len()),
        ("jacobian b (DIM x NU)", n * M::NU, b.len()),
    ];
    for (what, expected, found) in sizes {
        if expected != found {
            return Err(Error::Dimension {
                what,
                expected,
                found,
            });
        }
    }
    if M::NU > MAX_INPUTS {
        return Err(Error::NotAvailable {
            what: "jacobians of a hand-written model with more than 16 inputs",
        });
    }
    let (mut e, mut col, mut plus) = (M::ZERO_STATE, M::ZERO_STATE, M::ZERO_STATE);
    let (e, col, plus) = (e.as_mut(), col.as_mut(), plus.as_mut());
    for j in 0..n {
        e[j] = 1.0;
        model.rhs_u_jvp(t, state, u, e, col)?;
        e[j] = 0.0;
        for i in 0..n {
            a[i * n + j] = col[i];
        }
    }
    let mut w = [0.0; MAX_INPUTS];
    w[..M::NU].copy_from_slice(u);
    for k in 0..M::NU {
        let h = 6.055454452393343e-6 * u[k].abs().max(1.0); // cbrt(f64::EPSILON)
        w[k] = u[k] + h;
        model.rhs_u(t, state, &w[..M::NU], plus)?;
        w[k] = u[k] - h;
        model.rhs_u(t, state, &w[..M::NU], col)?;
        w[k] = u[k];
        for i in 0..n {
            b[i * M::NU + k] = (plus[i] - col[i]) / (2.0 * h);
        }
    }
    Ok(())
}

/// `Ok` when a slice has the `expected` length, else the [`Error::Dimension`] naming it.
pub(super) fn sized(what: &'static str, expected: usize, found: usize) -> Result<(), Error> {
    if found == expected {
        return Ok(());
    }
    Err(Error::Dimension {
        what,
        expected,
        found,
    })
}
