//! Sampled solutions: times, states `[q, z]`, their time derivatives and the inputs `u`.

use alloc::vec::Vec;

use crate::{Error, Model};
pub use events::{Event, EventKind};

mod access;
mod contact_csv;
mod contacts;
mod csv;
mod events;
mod inputs;
mod interpolate;
mod residuals;

#[cfg(any(feature = "plot", feature = "viz"))]
pub(crate) use contact_csv::wheel_name;

/// A sampled motion `t_i -> [q(t_i), z(t_i)]`, with `d[q, z]/dt` at every sample and, for a
/// model with inputs ([`Model::INPUTS`]), the inputs `u(t_i)` that acted there.
///
/// Samples are stored row-major in flat buffers; times strictly increase. The stored
/// derivatives make [`Trajectory::at`] a cubic Hermite interpolant, third-order accurate
/// between samples (error `O(h^4)` in the sample spacing `h`) whatever the integrator was.
///
/// ```
/// use nonholo_runtime::Trajectory;
///
/// // x(t) = t^2, v = dx/dt = 2t, sampled at t = 0 and t = 1.
/// let mut tr = Trajectory::from_names(&["x"], &["v"]);
/// tr.push(0.0, &[0.0, 0.0], &[0.0, 2.0]).unwrap();
/// tr.push(1.0, &[1.0, 2.0], &[2.0, 2.0]).unwrap();
/// assert_eq!(tr.len(), 2);
/// assert_eq!(tr.column("v"), Some(vec![0.0, 2.0]));
/// // Hermite interpolation reproduces cubics exactly.
/// let mid = tr.at(0.5).unwrap();
/// assert!((mid[0] - 0.25).abs() < 1e-15 && (mid[1] - 1.0).abs() < 1e-15);
/// assert!(tr.at(1.5).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// `COORDINATES` then `SPEEDS`.
    names: Vec<&'static str>,
    nq: usize,
    times: Vec<f64>,
    /// Row `i` is the state at `times[i]`.
    states: Vec<f64>,
    /// Row `i` is `d state/dt` at `times[i]`.
    derivatives: Vec<f64>,
    /// `INPUTS`.
    input_names: Vec<&'static str>,
    /// Row `i` is `u` at `times[i]` (`input_names.len()` numbers).
    inputs: Vec<f64>,
    /// When an [`Options::stop_when`](crate::Options::stop_when) event ended the run.
    event_time: Option<f64>,
    /// The events that continued the run, in order.
    events: Vec<Event>,
    /// A run whose contacts may slip: the contacts' names, and per sample their loads and
    /// whether each slides (`contact_names.len()` of each per sample).
    contact_names: Vec<&'static str>,
    loads: Vec<crate::ContactLoad>,
    sliding: Vec<bool>,
}

impl Trajectory {
    /// An empty trajectory labelled with a model's coordinate, speed and input names.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// # use nonholo_runtime::__private::doc_models::{ForcedOscillator, Skate};
    ///
    /// let tr = Trajectory::new::<Skate>();
    /// assert_eq!(tr.names(), ["x", "y", "theta", "v", "omega"]);
    /// assert_eq!((tr.nq(), tr.nz(), tr.nu()), (3, 2, 0));
    /// assert!(tr.is_empty());
    /// // m x'' + k x = f: one input
    /// let tr = Trajectory::new::<ForcedOscillator>();
    /// assert_eq!((tr.names(), tr.input_names()), (&["x", "v"][..], &["f"][..]));
    /// ```
    pub fn new<M: Model>() -> Self {
        Self::from_names_with_inputs(M::COORDINATES, M::SPEEDS, M::INPUTS)
    }

    /// An empty trajectory with the given coordinate names (q) and speed names (z).
    ///
    /// For samples computed by hand, e.g. a control loop that steps [`rk4_step`](crate::rk4_step)
    /// itself:
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, rk4_step, Model, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let osc = Oscillator::new(1.0);
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// let (mut y, mut dy) = ([1.0, 0.0], [0.0; 2]);
    /// for i in 0..=10 {
    ///     let t = f64::from(i) * 0.1;
    ///     osc.rhs(t, &y, &mut dy)?;
    ///     tr.push(t, &y, &dy)?;
    ///     rk4_step(&osc, t, &mut y, 0.1)?;
    /// }
    /// // what integrate_rk4 records, bit for bit
    /// assert_eq!(tr, integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.1, 10)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_names(coordinates: &[&'static str], speeds: &[&'static str]) -> Self {
        Self::from_names_with_inputs(coordinates, speeds, &[])
    }

    /// An empty trajectory with the given coordinate, speed and input names; samples go in
    /// with [`Trajectory::push_with_inputs`].
    ///
    /// ```
    /// use nonholo_runtime::{Model, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// // a hand-made control loop on m x'' + k x = f: record the force with each sample
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let mut tr = Trajectory::from_names_with_inputs(&["x"], &["v"], &["f"]);
    /// let (x, u) = ([0.5, 0.0], [-1.0]);
    /// let mut dx = [0.0; 2];
    /// osc.rhs_u(0.0, &x, &u, &mut dx)?;
    /// tr.push_with_inputs(0.0, &x, &dx, &u)?;
    /// assert_eq!((tr.input(0), tr.column("f")), (Some(&[-1.0][..]), Some(vec![-1.0])));
    /// assert_eq!(tr, {
    ///     let mut same = Trajectory::new::<ForcedOscillator>();
    ///     same.push_with_inputs(0.0, &x, &dx, &u)?;
    ///     same
    /// });
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn from_names_with_inputs(
        coordinates: &[&'static str],
        speeds: &[&'static str],
        inputs: &[&'static str],
    ) -> Self {
        Self {
            names: coordinates.iter().chain(speeds).copied().collect(),
            nq: coordinates.len(),
            times: Vec::new(),
            states: Vec::new(),
            derivatives: Vec::new(),
            input_names: inputs.to_vec(),
            inputs: Vec::new(),
            event_time: None,
            events: Vec::new(),
            contact_names: Vec::new(),
            loads: Vec::new(),
            sliding: Vec::new(),
        }
    }

    /// The time at which a stopping event (`Options::stop_when`) fired, if one did; the
    /// last sample is then the state at that time.
    ///
    /// ```
    /// use nonholo_runtime::integrate_rk4;
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let osc = Oscillator::new(1.0);
    /// let tr = integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.1, 10)?;
    /// assert_eq!(tr.event_time(), None); // RK4 runs have no events
    /// # #[cfg(feature = "diffsol")]
    /// # {
    /// use nonholo_runtime::{simulate, Options};
    /// // x = cos t crosses 0 at t = pi/2, which ends the run
    /// let options = Options::default().stop_when(|_t, y| y[0]);
    /// let tr = simulate(&osc, &[1.0, 0.0], 0.0..10.0, &options)?;
    /// assert!((tr.event_time().unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-8);
    /// assert_eq!(tr.last().unwrap().0, tr.event_time().unwrap());
    /// # }
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn event_time(&self) -> Option<f64> {
        self.event_time
    }

    /// Record that a stopping event fired at `t`.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// tr.set_event_time(1.5);
    /// assert_eq!(tr.event_time(), Some(1.5));
    /// assert_ne!(tr, Trajectory::from_names(&["x"], &["v"])); // part of the value
    /// ```
    pub fn set_event_time(&mut self, t: f64) {
        self.event_time = Some(t);
    }

    /// Append the sample `(t, state, dstate)`; a trajectory with inputs records `u = 0`
    /// with it (what [`Model::rhs`] integrates; see [`Trajectory::push_with_inputs`]).
    ///
    /// Fails with [`Error::Dimension`] when a slice does not have length [`Self::dim`], and
    /// with [`Error::InvalidOptions`] when `t` is not finite or not after the last sample.
    ///
    /// ```
    /// use nonholo_runtime::{Error, Trajectory};
    ///
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// tr.push(0.0, &[1.0, 0.0], &[0.0, -1.0])?;
    /// // refused, and the trajectory left as it was: a short state, a time not after the last
    /// assert!(matches!(
    ///     tr.push(1.0, &[1.0], &[0.0, -1.0]),
    ///     Err(Error::Dimension { what: "state", expected: 2, found: 1 })
    /// ));
    /// assert!(matches!(tr.push(0.0, &[1.0, 0.0], &[0.0, -1.0]), Err(Error::InvalidOptions(_))));
    /// assert!(tr.push(f64::NAN, &[1.0, 0.0], &[0.0, -1.0]).is_err());
    /// assert_eq!((tr.len(), tr.states().len()), (1, 2));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn push(&mut self, t: f64, state: &[f64], dstate: &[f64]) -> Result<(), Error> {
        self.push_checked(t, state, dstate, None)
    }

    /// Append the sample `(t, state, dstate)` with the inputs `u` that acted at `t`
    /// ([`Self::nu`] of them, else [`Error::Dimension`]; the other checks as
    /// [`Trajectory::push`]).
    ///
    /// ```
    /// use nonholo_runtime::{Error, Trajectory};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// let mut tr = Trajectory::new::<ForcedOscillator>();
    /// tr.push_with_inputs(0.0, &[1.0, 0.0], &[0.0, -2.0], &[2.0])?;
    /// tr.push(0.5, &[0.9, -0.4], &[-0.4, -3.6])?; // push records u = 0
    /// assert_eq!(tr.inputs(), [2.0, 0.0]);
    /// assert!(matches!(
    ///     tr.push_with_inputs(1.0, &[0.8, -0.5], &[-0.5, -3.2], &[]),
    ///     Err(Error::Dimension { what: "inputs u", expected: 1, found: 0 })
    /// ));
    /// assert_eq!(tr.len(), 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn push_with_inputs(
        &mut self,
        t: f64,
        state: &[f64],
        dstate: &[f64],
        u: &[f64],
    ) -> Result<(), Error> {
        self.push_checked(t, state, dstate, Some(u))
    }

    /// [`Trajectory::push`] (`u = None`: zeros) and [`Trajectory::push_with_inputs`].
    fn push_checked(
        &mut self,
        t: f64,
        state: &[f64],
        dstate: &[f64],
        u: Option<&[f64]>,
    ) -> Result<(), Error> {
        self.push_at(t, state, dstate, u, false)
    }

    /// [`Trajectory::push_checked`]; `at_event`: the state after an event, at the time of
    /// the sample before it.
    fn push_at(
        &mut self,
        t: f64,
        state: &[f64],
        dstate: &[f64],
        u: Option<&[f64]>,
        at_event: bool,
    ) -> Result<(), Error> {
        if let Some(u) = u.filter(|u| u.len() != self.nu()) {
            return Err(Error::Dimension {
                what: "inputs u",
                expected: self.nu(),
                found: u.len(),
            });
        }
        for (what, found) in [("state", state.len()), ("dstate", dstate.len())] {
            if found != self.dim() {
                return Err(Error::Dimension {
                    what,
                    expected: self.dim(),
                    found,
                });
            }
        }
        let after_last = self
            .times
            .last()
            .is_none_or(|&last| t > last || (at_event && t == last));
        if !t.is_finite() || !after_last {
            return Err(Error::InvalidOptions(alloc::format!(
                "sample time {t} is not finite or not after the last sample"
            )));
        }
        self.times.push(t);
        self.states.extend_from_slice(state);
        self.derivatives.extend_from_slice(dstate);
        match u {
            Some(u) => self.inputs.extend_from_slice(u),
            None => {
                let n = self.inputs.len() + self.nu();
                self.inputs.resize(n, 0.0);
            }
        }
        Ok(())
    }

    /// Reserve room for `additional` more samples.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    ///
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// tr.reserve(100);
    /// tr.push(0.0, &[0.0, 1.0], &[1.0, 0.0])?;
    /// let buffer = tr.states().as_ptr();
    /// for i in 1..100 {
    ///     let t = f64::from(i);
    ///     tr.push(t, &[t, 1.0], &[1.0, 0.0])?;
    /// }
    /// assert_eq!(tr.states().as_ptr(), buffer); // the 99 pushes did not reallocate
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        let dim = self.dim();
        self.times.reserve(additional);
        self.states.reserve(additional.saturating_mul(dim));
        self.derivatives.reserve(additional.saturating_mul(dim));
        self.inputs.reserve(additional.saturating_mul(self.nu()));
    }

    /// `(t_i, state_i)` for every sample.
    fn samples(&self) -> impl Iterator<Item = (f64, &[f64])> {
        self.times
            .iter()
            .copied()
            .zip(self.states.chunks_exact(self.dim().max(1)))
    }

    /// `(t_i, state_i, u_i)` for every sample (`u_i` empty without inputs).
    fn samples_with_inputs(&self) -> impl Iterator<Item = (f64, &[f64], &[f64])> {
        let nu = self.nu();
        self.samples().enumerate().map(move |(i, (t, state))| {
            (
                t,
                state,
                self.inputs.get(i * nu..(i + 1) * nu).unwrap_or(&[]),
            )
        })
    }

    fn check_model<M: Model>(&self) -> Result<(), Error> {
        for (what, expected, found) in [
            ("trajectory nq", M::NQ, self.nq),
            ("trajectory dim", M::DIM, self.dim()),
        ] {
            if expected != found {
                return Err(Error::Dimension {
                    what,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }
}

fn row(flat: &[f64], dim: usize, i: usize) -> Option<&[f64]> {
    let start = i.checked_mul(dim)?;
    flat.get(start..start.checked_add(dim)?)
}
