//! `Model`: one compiled model with its parameter values.

use crate::entry::{Entry, Registry};
use crate::erased::{Case, Erased, Keep};
use crate::errors::{model_error, value_error};
use crate::linear::PyLinearization;
use crate::options::{options, span};
use crate::trajectory::{run_error, PyTrajectory};
use crate::vectors::{array1, array2, inputs, vector};
use nonholo::Linearize;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Arc;

/// A compiled nonholonomic model: its parameters as attributes (`bike.r_r`), its
/// equations on NumPy arrays, and its runs.
#[pyclass(name = "Model", module = "nonholo", frozen, subclass)]
pub struct PyModel {
    pub(crate) inner: Arc<dyn Erased>,
    /// The extension module it came from (what unpickling imports).
    module: &'static str,
    entry: Entry,
}

impl PyModel {
    pub(crate) fn build(module: &'static str, entry: Entry, values: &[f64]) -> PyResult<Self> {
        let inner = (entry.build)(values).map_err(|e| Python::attach(|py| model_error(py, e)))?;
        Ok(Self {
            inner,
            module,
            entry,
        })
    }

    fn dim(&self) -> usize {
        self.inner.layout().dim()
    }

    fn nu(&self) -> usize {
        self.inner.layout().nu()
    }

    fn state(&self, x: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        vector(x, "the state", Some(self.dim()))
    }

    /// The parameters as a dict (name -> value).
    fn parameter_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, value) in self.entry.parameters.iter().zip(self.inner.parameters()) {
            d.set_item(*name, value)?;
        }
        Ok(d)
    }
}

#[pymethods]
impl PyModel {
    /// The model `name` of `registry` (an extension module's `__registry__`) with the
    /// parameters `params` (defaults for the rest). Python subclasses (the package's
    /// `nonholo.models.WhippleBicycle`, say) call it from their `__new__`.
    #[new]
    #[pyo3(signature = (registry, name, **params))]
    fn py_new(
        registry: &Bound<'_, Registry>,
        name: &str,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let registry = registry.get();
        let entry = *registry.entry(name)?;
        let values = entry.values(params)?;
        Self::build(registry.module, entry, &values)
    }

    /// The model's Rust name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.layout().name
    }
    /// The generalized coordinates q, in state order.
    #[getter]
    fn coordinates(&self) -> Vec<&'static str> {
        self.inner.layout().coordinates.to_vec()
    }
    /// The speeds z, in state order (the state is `[q, z]`).
    #[getter]
    fn speeds(&self) -> Vec<&'static str> {
        self.inner.layout().speeds.to_vec()
    }
    /// The runtime inputs u.
    #[getter]
    fn inputs(&self) -> Vec<&'static str> {
        self.inner.layout().inputs.to_vec()
    }
    /// The rolling contacts, `"W on G"`.
    #[getter]
    fn contacts(&self) -> Vec<&'static str> {
        self.inner.layout().contacts.to_vec()
    }
    /// The constraints as written.
    #[getter]
    fn constraints(&self) -> Vec<&'static str> {
        self.inner.layout().constraints.to_vec()
    }
    /// The parameters' names, in declaration order.
    #[getter]
    fn parameter_names(&self) -> Vec<&'static str> {
        self.entry.parameters.to_vec()
    }
    /// The parameters, name -> value.
    #[getter]
    fn parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.parameter_dict(py)
    }
    /// The derivation that produced the equations (`GibbsAppell`, `BoltzmannHamel`, ...).
    #[getter]
    fn formulation(&self) -> String {
        self.inner.layout().formulation.clone()
    }
    /// The derived equations as text.
    #[getter]
    fn equations(&self) -> &'static str {
        self.inner.layout().equations
    }
    #[getter]
    fn nq(&self) -> usize {
        self.inner.layout().nq()
    }
    #[getter]
    fn nz(&self) -> usize {
        self.inner.layout().speeds.len()
    }
    #[getter(nu)]
    fn nu_(&self) -> usize {
        self.nu()
    }
    #[getter(dim)]
    fn dim_(&self) -> usize {
        self.dim()
    }

    /// A parameter's value by attribute: `bike.r_r`.
    fn __getattr__(&self, name: &str) -> PyResult<f64> {
        match self.entry.parameters.iter().position(|p| *p == name) {
            Some(i) => Ok(self.inner.parameters()[i]),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "{} has no attribute or parameter `{name}`",
                self.entry.name
            ))),
        }
    }

    /// Check the parameters (masses and moments positive, inertias physical, friction not
    /// negative): raises `NonholoError` naming the wrong one.
    fn check_parameters(&self, py: Python<'_>) -> PyResult<()> {
        self.inner
            .check_parameters()
            .map_err(|e| model_error(py, e))
    }

    /// `d state / dt = f(t, state, u)` (u: zeros when omitted).
    #[pyo3(signature = (t, x, u=None))]
    fn rhs<'py>(
        &self,
        py: Python<'py>,
        t: f64,
        x: &Bound<'py, PyAny>,
        u: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (x, u) = (self.state(x)?, inputs(u, self.nu())?);
        let mut out = vec![0.0; x.len()];
        self.inner
            .rhs(t, &x, &u, &mut out)
            .map_err(|e| model_error(py, e))?;
        Ok(array1(py, out))
    }

    /// The exact Jacobians `(A, B)` of `rhs`: `A = d f / d state` (dim x dim), `B = d f / d u`
    /// (dim x nu).
    #[pyo3(signature = (t, x, u=None))]
    #[allow(clippy::type_complexity)]
    fn jacobians<'py>(
        &self,
        py: Python<'py>,
        t: f64,
        x: &Bound<'py, PyAny>,
        u: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<f64>>)> {
        let (x, u) = (self.state(x)?, inputs(u, self.nu())?);
        let (n, nu) = (self.dim(), self.nu());
        let (mut a, mut b) = (vec![0.0; n * n], vec![0.0; n * nu]);
        self.inner
            .jacobians(t, &x, &u, &mut a, &mut b)
            .map_err(|e| model_error(py, e))?;
        Ok((array2(py, a, n, n)?, array2(py, b, n, nu)?))
    }

    /// The energy `dot(q) . dL/d dot(q) - L`.
    #[pyo3(signature = (t, x, u=None))]
    fn energy(
        &self,
        py: Python<'_>,
        t: f64,
        x: &Bound<'_, PyAny>,
        u: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<f64> {
        let (x, u) = (self.state(x)?, inputs(u, self.nu())?);
        self.inner.energy(t, &x, &u).map_err(|e| model_error(py, e))
    }

    /// The velocities `dot(q) = psi(q, z, t)`.
    fn qdot<'py>(
        &self,
        py: Python<'py>,
        t: f64,
        q: &Bound<'py, PyAny>,
        z: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let l = self.inner.layout();
        let q = vector(q, "q", Some(l.nq()))?;
        let z = vector(z, "z", Some(l.speeds.len()))?;
        let mut out = vec![0.0; l.nq()];
        self.inner
            .qdot(t, &q, &z, &mut out)
            .map_err(|e| model_error(py, e))?;
        Ok(array1(py, out))
    }

    /// The state `[q, z]` whose velocities are `qdot` (raises when `qdot` violates a
    /// constraint).
    fn state_from_qdot<'py>(
        &self,
        py: Python<'py>,
        t: f64,
        q: &Bound<'py, PyAny>,
        qdot: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let n = self.inner.layout().nq();
        let q = vector(q, "q", Some(n))?;
        let qdot = vector(qdot, "qdot", Some(n))?;
        let s = self
            .inner
            .state_from_qdot(t, &q, &qdot)
            .map_err(|e| model_error(py, e))?;
        Ok(array1(py, s))
    }

    /// `q` made consistent with the configuration constraints (Newton on the dependent
    /// coordinates, the others held): a new array.
    fn solve_configuration<'py>(
        &self,
        py: Python<'py>,
        t: f64,
        q: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let mut q = vector(q, "q", Some(self.inner.layout().nq()))?;
        self.inner
            .solve_configuration(t, &mut q)
            .map_err(|e| model_error(py, e))?;
        Ok(array1(py, q))
    }

    /// The constraint residuals `C(q, dot(q), t)`.
    fn constraint_residual<'py>(
        &self,
        py: Python<'py>,
        t: f64,
        q: &Bound<'py, PyAny>,
        qdot: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let l = self.inner.layout();
        let q = vector(q, "q", Some(l.nq()))?;
        let qdot = vector(qdot, "qdot", Some(l.nq()))?;
        let mut out = vec![0.0; l.constraints.len()];
        self.inner
            .constraint_residual(t, &q, &qdot, &mut out)
            .map_err(|e| model_error(py, e))?;
        Ok(array1(py, out))
    }

    /// The ground's force on each wheel: a dict of arrays over `contacts` — `normal`,
    /// `longitudinal`, `lateral`, `utilization`, `friction_margin` (one number per
    /// contact), `force` and `point` (one row of 3 per contact, root components).
    #[pyo3(signature = (t, x, u=None))]
    fn contact_loads<'py>(
        &self,
        py: Python<'py>,
        t: f64,
        x: &Bound<'py, PyAny>,
        u: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (x, u) = (self.state(x)?, inputs(u, self.nu())?);
        let loads = self
            .inner
            .contact_loads(t, &x, &u)
            .map_err(|e| model_error(py, e))?;
        let d = PyDict::new(py);
        d.set_item("contacts", self.contacts())?;
        let column = |f: fn(&nonholo::ContactLoad) -> f64| loads.iter().map(f).collect::<Vec<_>>();
        d.set_item("normal", array1(py, column(|l| l.normal)))?;
        d.set_item("longitudinal", array1(py, column(|l| l.longitudinal)))?;
        d.set_item("lateral", array1(py, column(|l| l.lateral)))?;
        d.set_item("utilization", array1(py, column(|l| l.utilization)))?;
        d.set_item("friction_margin", array1(py, column(|l| l.friction_margin)))?;
        let rows =
            |f: fn(&nonholo::ContactLoad) -> [f64; 3]| loads.iter().flat_map(f).collect::<Vec<_>>();
        d.set_item("force", array2(py, rows(|l| l.force), loads.len(), 3)?)?;
        d.set_item("point", array2(py, rows(|l| l.point), loads.len(), 3)?)?;
        Ok(d)
    }

    /// Integrate from `x0` over `t_span = (t0, t1)`; the GIL is released during the run.
    /// `method`: tsit45 (default), dop853, bdf, esdirk34. Raises `NonholoError` with the
    /// partial trajectory (`.partial`) when the run stops early.
    #[pyo3(signature = (x0, t_span, method="tsit45", rtol=None, atol=None, sample_every=None,
        sample_times=None, max_steps=None, check_constraints=None, contact_checks=true))]
    #[allow(clippy::too_many_arguments)]
    fn simulate(
        slf: &Bound<'_, Self>,
        x0: &Bound<'_, PyAny>,
        t_span: (f64, f64),
        method: &str,
        rtol: Option<f64>,
        atol: Option<f64>,
        sample_every: Option<f64>,
        sample_times: Option<Vec<f64>>,
        max_steps: Option<usize>,
        check_constraints: Option<f64>,
        contact_checks: bool,
    ) -> PyResult<PyTrajectory> {
        let py = slf.py();
        let this = slf.get();
        let x0 = this.state(x0)?;
        let o = options(
            method,
            rtol,
            atol,
            sample_every,
            sample_times,
            max_steps,
            check_constraints,
            contact_checks,
        )?;
        let t = span(t_span)?;
        let model = this.inner.clone();
        let run = py.detach(|| model.simulate(&x0, t, &o));
        match run {
            Ok(run) => Ok(PyTrajectory::new(run, this.inner.clone())),
            Err(e) => Err(run_error(py, *e, &this.inner)),
        }
    }

    /// A run whose contacts may slip, lift off and grip again, from `q0` and `qdot0`
    /// (`simulate_hybrid`); same options as `simulate`.
    #[pyo3(signature = (q0, qdot0, t_span, method="tsit45", rtol=None, atol=None,
        sample_every=None, sample_times=None, max_steps=None))]
    #[allow(clippy::too_many_arguments)]
    fn simulate_hybrid(
        slf: &Bound<'_, Self>,
        q0: &Bound<'_, PyAny>,
        qdot0: &Bound<'_, PyAny>,
        t_span: (f64, f64),
        method: &str,
        rtol: Option<f64>,
        atol: Option<f64>,
        sample_every: Option<f64>,
        sample_times: Option<Vec<f64>>,
        max_steps: Option<usize>,
    ) -> PyResult<PyTrajectory> {
        let py = slf.py();
        let this = slf.get();
        let n = this.inner.layout().nq();
        let q0 = vector(q0, "q0", Some(n))?;
        let qdot0 = vector(qdot0, "qdot0", Some(n))?;
        let o = options(
            method,
            rtol,
            atol,
            sample_every,
            sample_times,
            max_steps,
            None,
            true,
        )?;
        let t = span(t_span)?;
        let model = this.inner.clone();
        let run = py.detach(|| model.simulate_hybrid(&q0, &qdot0, t, &o));
        match run {
            Ok(run) => Ok(PyTrajectory::new(run, this.inner.clone())),
            Err(e) => Err(run_error(py, *e, &this.inner)),
        }
    }

    /// Many runs in parallel on all cores (the GIL released): one per row of `x0s`, each
    /// with its own parameters when `params` is given (a list of dicts, one per run, of
    /// the parameters that differ from this model's). `keep="final"` records and keeps only each
    /// run's last sample. `errors="raise"` raises the first failure; `"return"` puts the
    /// exception in that run's place.
    #[pyo3(signature = (x0s, t_span, params=None, keep="trajectory", errors="raise",
        method="tsit45", rtol=None, atol=None, sample_every=None, sample_times=None,
        max_steps=None))]
    #[allow(clippy::too_many_arguments)]
    fn simulate_many<'py>(
        slf: &Bound<'py, Self>,
        x0s: &Bound<'py, PyAny>,
        t_span: (f64, f64),
        params: Option<&Bound<'py, PyAny>>,
        keep: &str,
        errors: &str,
        method: &str,
        rtol: Option<f64>,
        atol: Option<f64>,
        sample_every: Option<f64>,
        sample_times: Option<Vec<f64>>,
        max_steps: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let this = slf.get();
        let keep = match keep {
            "trajectory" => Keep::Trajectory,
            "final" => Keep::Final,
            k => return Err(value_error(format!("keep is `{k}`: trajectory or final"))),
        };
        let raise = match errors {
            "raise" => true,
            "return" => false,
            k => return Err(value_error(format!("errors is `{k}`: raise or return"))),
        };
        let rows: Vec<Bound<'py, PyAny>> = x0s.try_iter()?.collect::<PyResult<_>>()?;
        let mut cases = Vec::with_capacity(rows.len());
        let given: Option<Vec<Bound<'py, PyAny>>> = match params {
            Some(p) if !p.is_none() => Some(p.try_iter()?.collect::<PyResult<_>>()?),
            _ => None,
        };
        if let Some(g) = &given
            && g.len() != rows.len()
        {
            return Err(value_error(format!(
                "params has {} entries for {} initial states",
                g.len(),
                rows.len()
            )));
        }
        let base = this.parameter_dict(py)?;
        for (i, row) in rows.iter().enumerate() {
            let state0 = vector(row, &format!("x0s[{i}]"), Some(this.dim()))?;
            let parameters = match &given {
                None => None,
                Some(g) => {
                    let d = base.copy()?;
                    let p = g[i].cast::<PyDict>().map_err(|_| {
                        value_error(format!("params[{i}] must be a dict of parameters"))
                    })?;
                    d.update(p.as_mapping())?;
                    Some(this.entry.values(Some(&d))?)
                }
            };
            cases.push(Case { parameters, state0 });
        }
        // a run whose last sample alone is kept records no other (unless asked to)
        let sample_times = match (keep, &sample_every, sample_times) {
            (Keep::Final, None, None) => Some(vec![t_span.1]),
            (_, _, given) => given,
        };
        let o = options(
            method,
            rtol,
            atol,
            sample_every,
            sample_times,
            max_steps,
            None,
            true,
        )?;
        let t = span(t_span)?;
        let model = this.inner.clone();
        let runs = py.detach(|| model.simulate_many(&cases, t, &o, keep));
        let out = PyList::empty(py);
        for run in runs {
            match run {
                Ok(run) => out.append(Py::new(py, PyTrajectory::new(run, this.inner.clone()))?)?,
                Err(e) => {
                    let err = run_error(py, *e, &this.inner);
                    if raise {
                        return Err(err);
                    }
                    out.append(err.value(py))?;
                }
            }
        }
        Ok(out)
    }

    /// The linearization about `(t, x)`: `keep` the states to keep (names, default all),
    /// `inputs` the inputs to keep (default all), `u0` the inputs held there.
    #[pyo3(signature = (t, x, keep=None, inputs=None, u0=None))]
    fn linearize(
        &self,
        py: Python<'_>,
        t: f64,
        x: &Bound<'_, PyAny>,
        keep: Option<Vec<String>>,
        inputs: Option<Vec<String>>,
        u0: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLinearization> {
        let x = self.state(x)?;
        let mut spec = Linearize::new();
        if let Some(k) = &keep {
            let k: Vec<&str> = k.iter().map(String::as_str).collect();
            spec = spec.keep(&k);
        }
        if let Some(i) = &inputs {
            let i: Vec<&str> = i.iter().map(String::as_str).collect();
            spec = spec.inputs(&i);
        }
        if let Some(u0) = u0 {
            spec = spec.at_inputs(&vector(u0, "u0", Some(self.nu()))?);
        }
        let model = self.inner.clone();
        let lin = py
            .detach(|| model.linearize(t, &x, &spec))
            .map_err(|e| model_error(py, e))?;
        Ok(PyLinearization::new(lin))
    }

    /// Pickles as its module, name and parameters: `nonholo._rebuild` imports the module
    /// and builds the model again (on a Dask worker, say).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let rebuild = py.import("nonholo")?.getattr("_rebuild")?;
        let args = (self.module, self.entry.name, self.parameter_dict(py)?);
        PyTuple::new(py, [rebuild, args.into_pyobject(py)?.into_any()])
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let params: Vec<String> = self
            .entry
            .parameters
            .iter()
            .zip(self.inner.parameters())
            .map(|(p, v)| format!("{p}={v}"))
            .collect();
        let _ = py;
        Ok(format!("{}({})", self.entry.name, params.join(", ")))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyModel>() {
            Ok(o) => {
                let o = o.get();
                o.module == self.module
                    && o.entry.name == self.entry.name
                    && o.inner.parameters() == self.inner.parameters()
            }
            Err(_) => false,
        }
    }
}
