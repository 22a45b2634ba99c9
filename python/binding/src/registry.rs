//! `Registry`'s Python methods and [`register`], which fills an extension module: what
//! `nonholo.build(...).Name(**params)` and unpickling call.

use crate::entry::{Entry, Registry};
use crate::model::PyModel;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

#[pymethods]
impl Registry {
    /// The module's name (what pickles import to rebuild a model).
    #[getter]
    fn module(&self) -> &'static str {
        self.module
    }

    /// The models' names, in the order `export!` listed them.
    fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// `[(name, default or None), ...]` of the model `name`'s parameters.
    fn parameters(&self, name: &str) -> PyResult<Vec<(&'static str, Option<f64>)>> {
        let e = self.entry(name)?;
        Ok(e.parameters
            .iter()
            .enumerate()
            .map(|(i, p)| (*p, e.defaults.get(i).copied().flatten()))
            .collect())
    }

    /// The model `name` with the parameters `params` (a dict; defaults for the rest).
    #[pyo3(name = "new", signature = (name, params=None))]
    fn build_model(&self, name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<PyModel> {
        let entry = *self.entry(name)?;
        let values = entry.values(params)?;
        PyModel::build(self.module, entry, &values)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let names = PyList::new(py, self.entries.iter().map(|e| e.name))?;
        Ok(format!(
            "<nonholo registry of {}: {}>",
            self.module,
            names.repr()?
        ))
    }
}

/// Fill the extension module `m`: its `__registry__` and the classes.
pub fn register(
    m: &Bound<'_, PyModule>,
    module: &'static str,
    entries: Vec<Entry>,
) -> PyResult<()> {
    m.add_class::<PyModel>()?;
    m.add_class::<crate::PyTrajectory>()?;
    m.add_class::<crate::PyLinearization>()?;
    m.add_class::<Registry>()?;
    m.add("__registry__", Registry { module, entries })?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // the repository the binding was built from: where `nonholo.build` finds the crates
    m.add(
        "__source_dir__",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    )?;
    m.add_function(wrap_pyfunction!(crate::linear::lqr, m)?)?;
    Ok(())
}
