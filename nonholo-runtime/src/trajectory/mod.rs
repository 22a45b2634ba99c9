//! Sampled solutions: times, states `[q, z]` and their time derivatives.

use alloc::vec::Vec;

use crate::{Error, Model};

mod access;
mod csv;
mod interpolate;
mod residuals;

/// A sampled motion `t_i -> [q(t_i), z(t_i)]`, with `d[q, z]/dt` at every sample.
///
/// Samples are stored row-major in one flat buffer; times strictly increase. The stored
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
    /// When an [`Options::stop_when`](crate::Options::stop_when) event ended the run.
    event_time: Option<f64>,
}

impl Trajectory {
    /// An empty trajectory labelled with a model's coordinate and speed names.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    ///
    /// let tr = Trajectory::new::<Skate>();
    /// assert_eq!(tr.names(), ["x", "y", "theta", "v", "omega"]);
    /// assert_eq!((tr.nq(), tr.nz()), (3, 2));
    /// assert!(tr.is_empty());
    /// ```
    pub fn new<M: Model>() -> Self {
        Self::from_names(M::COORDINATES, M::SPEEDS)
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
        Self {
            names: coordinates.iter().chain(speeds).copied().collect(),
            nq: coordinates.len(),
            times: Vec::new(),
            states: Vec::new(),
            derivatives: Vec::new(),
            event_time: None,
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

    /// Append the sample `(t, state, dstate)`.
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
        for (what, found) in [("state", state.len()), ("dstate", dstate.len())] {
            if found != self.dim() {
                return Err(Error::Dimension {
                    what,
                    expected: self.dim(),
                    found,
                });
            }
        }
        let after_last = self.times.last().is_none_or(|&last| t > last);
        if !t.is_finite() || !after_last {
            return Err(Error::InvalidOptions(alloc::format!(
                "sample time {t} is not finite or not after the last sample"
            )));
        }
        self.times.push(t);
        self.states.extend_from_slice(state);
        self.derivatives.extend_from_slice(dstate);
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
    }

    /// `(t_i, state_i)` for every sample.
    fn samples(&self) -> impl Iterator<Item = (f64, &[f64])> {
        self.times
            .iter()
            .copied()
            .zip(self.states.chunks_exact(self.dim().max(1)))
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
