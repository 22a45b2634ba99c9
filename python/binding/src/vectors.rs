//! NumPy arrays (or any sequence of numbers) in, NumPy arrays out.

use crate::errors::value_error;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

/// A vector of floats from a 1-D float array or any sequence of numbers; `what` names it
/// in the error, and `len` (when given) is the length it must have.
pub fn vector(obj: &Bound<'_, PyAny>, what: &str, len: Option<usize>) -> PyResult<Vec<f64>> {
    let v: Vec<f64> = match obj.extract::<PyReadonlyArray1<'_, f64>>() {
        Ok(a) => a.as_array().to_vec(),
        Err(_) => obj.extract::<Vec<f64>>().map_err(|_| {
            value_error(format!(
                "{what} must be a 1-D array or a sequence of numbers"
            ))
        })?,
    };
    if let Some(i) = v.iter().position(|x| !x.is_finite()) {
        return Err(value_error(format!(
            "{what}[{i}] is {}: every entry must be finite",
            v[i]
        )));
    }
    if let Some(n) = len
        && v.len() != n
    {
        return Err(value_error(format!(
            "{what} has {} entries; the model needs {n}",
            v.len()
        )));
    }
    Ok(v)
}

/// The inputs `u`: zeros when `None`.
pub fn inputs(obj: Option<&Bound<'_, PyAny>>, nu: usize) -> PyResult<Vec<f64>> {
    match obj {
        None => Ok(vec![0.0; nu]),
        Some(o) if o.is_none() => Ok(vec![0.0; nu]),
        Some(o) => vector(o, "u", Some(nu)),
    }
}

pub fn array1<'py>(py: Python<'py>, v: Vec<f64>) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_vec(py, v)
}

/// Row-major `rows x cols`.
pub fn array2<'py>(
    py: Python<'py>,
    v: Vec<f64>,
    rows: usize,
    cols: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    PyArray1::from_vec(py, v).reshape([rows, cols])
}
