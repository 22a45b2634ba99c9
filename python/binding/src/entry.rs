//! One model of an extension module, and the module's table of them.

use crate::erased::Erased;
use crate::errors::value_error;
use nonholo::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// How an [`Entry`] builds its model from parameter values (`PARAMETERS` order).
pub type Build = fn(&[f64]) -> Result<Arc<dyn Erased>, Error>;

/// One model of a module: how to build it from its parameter values.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The model's Rust name (the last segment of its path).
    pub name: &'static str,
    /// The model with these parameter values (`PARAMETERS` order).
    pub build: Build,
    /// `Model::PARAMETERS`.
    pub parameters: &'static [&'static str],
    /// `Model::PARAMETER_DEFAULTS`.
    pub defaults: &'static [Option<f64>],
    pub doc: &'static str,
}

impl Entry {
    /// `"Skate"` of `"my::models::Skate"`.
    pub const fn last_segment(path: &'static str) -> &'static str {
        let bytes = path.as_bytes();
        let mut i = bytes.len();
        while i > 0 {
            if bytes[i - 1] == b':' || bytes[i - 1] == b' ' {
                let (_, tail) = bytes.split_at(i);
                return match core::str::from_utf8(tail) {
                    Ok(s) => s,
                    Err(_) => path,
                };
            }
            i -= 1;
        }
        path
    }

    /// A `ValueError` naming the first key of `given` that is not a parameter.
    pub fn check_names(&self, given: &Bound<'_, PyDict>) -> PyResult<()> {
        for key in given.keys() {
            let key: String = key.extract()?;
            if !self.parameters.contains(&key.as_str()) {
                return Err(value_error(format!(
                    "{} has no parameter `{key}` (its parameters: {})",
                    self.name,
                    self.parameters.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// The parameter values from the defaults overridden by `given` (name -> value):
    /// unknown names and missing required values are `ValueError`s naming them.
    pub fn values(&self, given: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<f64>> {
        let mut values: Vec<Option<f64>> = (0..self.parameters.len())
            .map(|i| self.defaults.get(i).copied().flatten())
            .collect();
        if let Some(given) = given {
            self.check_names(given)?;
            for (key, value) in given.iter() {
                let key: String = key.extract()?;
                let v: f64 = value.extract().map_err(|_| {
                    value_error(format!(
                        "parameter `{key}` of {} must be a number",
                        self.name
                    ))
                })?;
                if !v.is_finite() {
                    return Err(value_error(format!(
                        "parameter `{key}` of {} is {v}: it must be finite",
                        self.name
                    )));
                }
                if let Some(i) = self.parameters.iter().position(|p| *p == key) {
                    values[i] = Some(v);
                }
            }
        }
        let missing: Vec<&str> = self
            .parameters
            .iter()
            .zip(&values)
            .filter(|(_, v)| v.is_none())
            .map(|(p, _)| *p)
            .collect();
        if !missing.is_empty() {
            return Err(value_error(format!(
                "{} needs a value for {} (no default)",
                self.name,
                missing.join(", ")
            )));
        }
        Ok(values.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect())
    }
}

/// The models of one extension module (`module.__registry__`).
#[pyclass(name = "Registry", module = "nonholo", frozen)]
pub struct Registry {
    pub(crate) module: &'static str,
    pub(crate) entries: Vec<Entry>,
}

impl Registry {
    pub(crate) fn entry(&self, name: &str) -> PyResult<&Entry> {
        self.entries.iter().find(|e| e.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.entries.iter().map(|e| e.name).collect();
            value_error(format!(
                "module {} has no model `{name}` (its models: {})",
                self.module,
                names.join(", ")
            ))
        })
    }
}
