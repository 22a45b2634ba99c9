//! Run options from Python keyword arguments.

use crate::errors::value_error;
use nonholo::{Method, Options};
use pyo3::prelude::*;

/// The run options from keyword arguments.
#[allow(clippy::too_many_arguments)]
pub(crate) fn options(
    method: &str,
    rtol: Option<f64>,
    atol: Option<f64>,
    sample_every: Option<f64>,
    sample_times: Option<Vec<f64>>,
    max_steps: Option<usize>,
    check_constraints: Option<f64>,
    contact_checks: bool,
) -> PyResult<Options> {
    let method = match method.to_ascii_lowercase().as_str() {
        "tsit45" => Method::Tsit45,
        "dop853" => Method::Dop853,
        "bdf" => Method::Bdf,
        "esdirk34" => Method::Esdirk34,
        other => {
            return Err(value_error(format!(
                "unknown method `{other}` (one of tsit45, dop853, bdf, esdirk34)"
            )));
        }
    };
    let mut o = Options::default()
        .method(method)
        .contact_checks(contact_checks);
    if let Some(r) = rtol {
        o = o.rtol(r);
    }
    if let Some(a) = atol {
        o = o.atol(a);
    }
    match (sample_every, sample_times) {
        (Some(_), Some(_)) => {
            return Err(value_error(
                "give sample_every or sample_times, not both".into(),
            ));
        }
        (Some(dt), None) => o = o.sample_every(dt),
        (None, Some(times)) => o = o.sample_times(times),
        (None, None) => {}
    }
    if let Some(n) = max_steps {
        o = o.max_steps(n);
    }
    if let Some(tol) = check_constraints {
        o = o.check_constraints(tol);
    }
    Ok(o)
}

pub(crate) fn span(t_span: (f64, f64)) -> PyResult<std::ops::Range<f64>> {
    let (t0, t1) = t_span;
    if !(t0.is_finite() && t1.is_finite()) {
        return Err(value_error(format!("t_span ({t0}, {t1}) must be finite")));
    }
    Ok(t0..t1)
}
