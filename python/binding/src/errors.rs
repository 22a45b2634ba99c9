//! Rust errors as Python exceptions: `ValueError` for arguments the caller got wrong
//! (lengths, names, non-finite numbers), `nonholo.NonholoError` for everything the model
//! or the run reports, with the Rust error's message and, for runs, the partial
//! trajectory (`.partial`) and the time and state where it stopped (`.t`, `.state`).

use nonholo::Error;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::PyTypeInfo;

pub fn value_error(message: String) -> PyErr {
    PyValueError::new_err(message)
}

/// The time and state an error carries, where it carries them.
fn where_(error: &Error) -> (Option<f64>, Option<Vec<f64>>) {
    match error {
        Error::NonFinite { t, state, .. }
        | Error::SingularMassMatrix { t, state, .. }
        | Error::ContactLost { t, state, .. }
        | Error::Painleve { t, state, .. }
        | Error::SingularContact { t, state, .. } => (Some(*t), Some(state.clone())),
        _ => (None, None),
    }
}

/// `nonholo.NonholoError(message)` (the package's class; `RuntimeError` when the package
/// is not importable, as in a module loaded on its own).
fn nonholo_error(py: Python<'_>, message: String) -> PyResult<Bound<'_, PyAny>> {
    match py.import("nonholo").and_then(|m| m.getattr("NonholoError")) {
        Ok(class) => class.call1((message,)),
        Err(_) => PyRuntimeError::type_object(py).call1((message,)),
    }
}

pub(crate) fn build(
    py: Python<'_>,
    error: &Error,
    partial: Option<Bound<'_, PyAny>>,
) -> PyResult<PyErr> {
    if matches!(error, Error::Dimension { .. } | Error::UnknownName { .. }) && partial.is_none() {
        return Ok(value_error(error.to_string()));
    }
    let exc = nonholo_error(py, error.to_string())?;
    let (t, state) = where_(error);
    exc.setattr("t", t)?;
    exc.setattr("state", state)?;
    exc.setattr(
        "kind",
        format!("{error:?}")
            .split([' ', '(', '{'])
            .next()
            .unwrap_or(""),
    )?;
    if let Some(partial) = partial {
        exc.setattr("partial", partial)?;
    }
    Ok(PyErr::from_value(exc))
}

/// A model error as an exception.
pub fn model_error(py: Python<'_>, error: Error) -> PyErr {
    build(py, &error, None).unwrap_or_else(|e| e)
}
