//! `Linearization` and `lqr`.

use crate::errors::model_error;
use crate::vectors::array2;
use nonholo::control::lqr as lqr_rust;
use nonholo::nalgebra::DMatrix;
use nonholo::Linearization;
use numpy::{Complex64, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `d x = A x + B u` about a state: `a`, `b`, the kept `states` and `inputs`.
#[pyclass(name = "Linearization", module = "nonholo", frozen)]
pub struct PyLinearization {
    lin: Linearization,
}

impl PyLinearization {
    pub(crate) fn new(lin: Linearization) -> Self {
        Self { lin }
    }
}

fn to_numpy<'py>(py: Python<'py>, m: &DMatrix<f64>) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let rows: Vec<f64> = (0..m.nrows())
        .flat_map(|i| (0..m.ncols()).map(move |j| m[(i, j)]))
        .collect();
    array2(py, rows, m.nrows(), m.ncols())
}

fn from_numpy(a: &PyReadonlyArray2<'_, f64>) -> DMatrix<f64> {
    let v = a.as_array();
    DMatrix::from_fn(v.nrows(), v.ncols(), |i, j| v[[i, j]])
}

fn complex<'py>(
    py: Python<'py>,
    v: &[nonholo::nalgebra::Complex<f64>],
) -> Bound<'py, PyArray1<Complex64>> {
    PyArray1::from_vec(py, v.iter().map(|c| Complex64::new(c.re, c.im)).collect())
}

#[pymethods]
impl PyLinearization {
    /// The state matrix A (kept states).
    #[getter]
    fn a<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        to_numpy(py, &self.lin.a)
    }
    /// The input matrix B (kept states x kept inputs).
    #[getter]
    fn b<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        to_numpy(py, &self.lin.b)
    }
    #[getter]
    fn states(&self) -> Vec<&'static str> {
        self.lin.states.clone()
    }
    #[getter]
    fn inputs(&self) -> Vec<&'static str> {
        self.lin.inputs.clone()
    }
    /// The eigenvalues of A (complex array).
    fn eigenvalues<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<Complex64>>> {
        let e = self.lin.eigenvalues().map_err(|e| model_error(py, e))?;
        Ok(complex(py, &e))
    }
    /// The LQR gain of this linearization: `lqr(A, B, Q, R)`.
    fn lqr<'py>(
        &self,
        py: Python<'py>,
        q: PyReadonlyArray2<'py, f64>,
        r: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        lqr_dict(
            py,
            &self.lin.a,
            &self.lin.b,
            &from_numpy(&q),
            &from_numpy(&r),
        )
    }
    fn __repr__(&self) -> String {
        format!(
            "<Linearization: {} states ({}), {} inputs>",
            self.lin.states.len(),
            self.lin.states.join(", "),
            self.lin.inputs.len()
        )
    }
}

fn lqr_dict<'py>(
    py: Python<'py>,
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    q: &DMatrix<f64>,
    r: &DMatrix<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let l = lqr_rust(a, b, q, r).map_err(|e| model_error(py, e))?;
    let d = PyDict::new(py);
    d.set_item("k", to_numpy(py, &l.k)?)?;
    d.set_item("p", to_numpy(py, &l.p)?)?;
    d.set_item("poles", complex(py, &l.poles))?;
    d.set_item("residual", l.residual)?;
    Ok(d)
}

/// The continuous-time LQR `u = -K x` for `dx = A x + B u`, cost `x'Qx + u'Ru`: a dict
/// with `k`, `p` (the Riccati solution), `poles` (closed loop) and `residual`.
#[pyfunction]
pub fn lqr<'py>(
    py: Python<'py>,
    a: PyReadonlyArray2<'py, f64>,
    b: PyReadonlyArray2<'py, f64>,
    q: PyReadonlyArray2<'py, f64>,
    r: PyReadonlyArray2<'py, f64>,
) -> PyResult<Bound<'py, PyDict>> {
    lqr_dict(
        py,
        &from_numpy(&a),
        &from_numpy(&b),
        &from_numpy(&q),
        &from_numpy(&r),
    )
}
