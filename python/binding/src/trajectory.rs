//! `Trajectory`: a run's samples as NumPy arrays, its events, its table and its viewer.

use crate::erased::Erased;
use crate::errors::{build, model_error, value_error};
use crate::vectors::{array1, array2};
use nonholo::viz::Animation;
use nonholo::{ContactEvent, ContactLoad, EventKind, SimulationError, Trajectory};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// A run: `times` (n), `states` (n x dim), `derivatives`, `inputs` (n x nu), the column
/// `names` (`coordinates` then `speeds`), the `events` that continued it.
#[pyclass(name = "Trajectory", module = "nonholo", frozen)]
pub struct PyTrajectory {
    pub(crate) run: Trajectory,
    model: Arc<dyn Erased>,
}

impl PyTrajectory {
    pub(crate) fn new(run: Trajectory, model: Arc<dyn Erased>) -> Self {
        Self { run, model }
    }
}

fn event_name(e: ContactEvent) -> &'static str {
    match e {
        ContactEvent::LiftOff => "lift_off",
        ContactEvent::Slip => "slip",
        ContactEvent::Stick => "grip",
    }
}

#[pymethods]
impl PyTrajectory {
    /// The sample times.
    #[getter]
    fn times<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array1(py, self.run.times().to_vec())
    }
    /// The states, one row per sample.
    #[getter]
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        array2(
            py,
            self.run.states().to_vec(),
            self.run.len(),
            self.run.dim(),
        )
    }
    /// `d state / dt` at each sample.
    #[getter]
    fn derivatives<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let d: Vec<f64> = (0..self.run.len())
            .flat_map(|i| self.run.derivative(i).unwrap_or(&[]).to_vec())
            .collect();
        array2(py, d, self.run.len(), self.run.dim())
    }
    /// The inputs u held at each sample (n x nu).
    #[getter]
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        array2(
            py,
            self.run.inputs().to_vec(),
            self.run.len(),
            self.run.nu(),
        )
    }
    /// The state's column names: coordinates, then speeds.
    #[getter]
    fn names(&self) -> Vec<&'static str> {
        self.run.names().to_vec()
    }
    /// The inputs' names.
    #[getter]
    fn input_names(&self) -> Vec<&'static str> {
        self.run.input_names().to_vec()
    }
    /// The events that continued the run, in order: dicts with `t`, `kind` (`"user"` or
    /// `"contact"`), `name` (the event's or the contact's) and, for contacts, `event`
    /// (`"slip"`, `"grip"`, `"lift_off"`).
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for e in self.run.events() {
            let d = PyDict::new(py);
            d.set_item("t", e.t)?;
            match e.kind {
                EventKind::User(name) => {
                    d.set_item("kind", "user")?;
                    d.set_item("name", name)?;
                }
                EventKind::Contact { contact, event } => {
                    d.set_item("kind", "contact")?;
                    d.set_item("name", contact)?;
                    d.set_item("event", event_name(event))?;
                }
                _ => d.set_item("kind", "other")?,
            }
            out.append(d)?;
        }
        Ok(out)
    }
    /// When a stop condition ended the run (None otherwise).
    #[getter]
    fn event_time(&self) -> Option<f64> {
        self.run.event_time()
    }

    fn __len__(&self) -> usize {
        self.run.len()
    }

    /// One column by name (`"t"`, a coordinate, a speed or an input).
    fn column<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        match self.run.column(name) {
            Some(c) => Ok(array1(py, c)),
            None => Err(value_error(format!(
                "no column `{name}` (columns: t, {})",
                self.run.names().join(", ")
            ))),
        }
    }

    /// The state at time `t` (Hermite interpolation between samples).
    fn at<'py>(&self, py: Python<'py>, t: f64) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let s = self.run.at(t).map_err(|e| model_error(py, e))?;
        Ok(array1(py, s))
    }

    /// The largest constraint residual over the samples (of a hybrid run: of the rows
    /// that hold at each sample).
    fn max_constraint_residual(&self, py: Python<'_>) -> PyResult<f64> {
        self.model
            .max_residual(&self.run)
            .map_err(|e| model_error(py, e))
    }

    /// The ground's force on each wheel at every sample: a dict of arrays, one row per
    /// sample and one column per contact — `normal`, `longitudinal`, `lateral`,
    /// `utilization`, `friction_margin`; `force` and `point` with a last axis of 3; and for
    /// a hybrid run `sliding` (which contacts slide).
    fn contact_loads<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let series = self
            .model
            .contact_series(&self.run)
            .map_err(|e| model_error(py, e))?;
        let (n, k) = (series.len(), self.model.layout().contacts.len());
        let d = PyDict::new(py);
        d.set_item("contacts", self.model.layout().contacts.to_vec())?;
        let table = |f: fn(&ContactLoad) -> f64| series.iter().flatten().map(f).collect::<Vec<_>>();
        d.set_item("normal", array2(py, table(|l| l.normal), n, k)?)?;
        d.set_item("longitudinal", array2(py, table(|l| l.longitudinal), n, k)?)?;
        d.set_item("lateral", array2(py, table(|l| l.lateral), n, k)?)?;
        d.set_item("utilization", array2(py, table(|l| l.utilization), n, k)?)?;
        d.set_item(
            "friction_margin",
            array2(py, table(|l| l.friction_margin), n, k)?,
        )?;
        let vectors = |f: fn(&ContactLoad) -> [f64; 3]| {
            let v: Vec<f64> = series.iter().flatten().flat_map(f).collect();
            PyArray1::from_vec(py, v).reshape([n, k, 3])
        };
        d.set_item("force", vectors(|l| l.force)?)?;
        d.set_item("point", vectors(|l| l.point)?)?;
        if !self.run.contact_names().is_empty() {
            let sliding: Vec<bool> = (0..self.run.len())
                .flat_map(|i| self.run.sliding(i).unwrap_or(&[]).to_vec())
                .collect();
            let a = PyArray1::from_vec(py, sliding).reshape([n, k])?;
            d.set_item("sliding", a)?;
        }
        Ok(d)
    }

    /// The run as CSV text (`t`, the states, the inputs).
    fn to_csv(&self) -> String {
        self.run.to_csv_string()
    }

    /// A pandas DataFrame: `t` and one column per state and input (pandas must be
    /// installed).
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = py.import("pandas")?;
        let d = PyDict::new(py);
        d.set_item("t", self.times(py))?;
        for name in self.run.names().iter().chain(self.run.input_names()) {
            if let Some(c) = self.run.column(name) {
                d.set_item(*name, array1(py, c))?;
            }
        }
        pandas.getattr("DataFrame")?.call1((d,))
    }

    /// The run in the HTML viewer (the model must have frames): in Jupyter it displays
    /// inline; `str(...)` or `.html` is the page.
    #[pyo3(signature = (width=640, height=480, title=None))]
    fn animate<'py>(
        &self,
        py: Python<'py>,
        width: u32,
        height: u32,
        title: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut look = Animation::default().size(width, height);
        if let Some(t) = title {
            look = look.title(t);
        }
        let page = self
            .model
            .animation_html(&self.run, &look)
            .map_err(|e| model_error(py, e))?;
        py.import("nonholo")?
            .getattr("_Viewer")?
            .call1((page, width, height))
    }

    fn __repr__(&self) -> String {
        let span = match (self.run.times().first(), self.run.times().last()) {
            (Some(a), Some(b)) => format!("t = {a} .. {b}"),
            _ => "empty".into(),
        };
        format!(
            "<Trajectory of {}: {} samples, {span}, {} events>",
            self.model.layout().name,
            self.run.len(),
            self.run.events().len()
        )
    }
}

/// A run's error as an exception carrying its partial trajectory.
pub fn run_error(py: Python<'_>, error: SimulationError, model: &Arc<dyn Erased>) -> PyErr {
    let SimulationError { error, partial } = error;
    let partial = PyTrajectory::new(partial, model.clone());
    match Bound::new(py, partial) {
        Ok(p) => build(py, &error, Some(p.into_any())).unwrap_or_else(|e| e),
        Err(e) => e,
    }
}
