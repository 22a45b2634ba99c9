//! The inputs `u` recorded with a [`Trajectory`]'s samples.

use alloc::format;

use super::{row, Trajectory};
use crate::{Error, InputSeries};

impl Trajectory {
    /// Names of the inputs ([`Model::INPUTS`](crate::Model::INPUTS)), empty without.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// # use nonholo_runtime::__private::doc_models::{ForcedOscillator, Oscillator};
    ///
    /// assert_eq!(Trajectory::new::<ForcedOscillator>().input_names(), ["f"]);
    /// assert!(Trajectory::new::<Oscillator>().input_names().is_empty());
    /// ```
    pub fn input_names(&self) -> &[&'static str] {
        &self.input_names
    }

    /// The inputs `u` that acted at sample `i` ([`Self::nu`] numbers, empty without
    /// inputs), `None` past the end.
    ///
    /// Recorded by `simulate_controlled`: under continuous feedback the controller's output
    /// at the sample; with a control period the held value, and at a control instant the new
    /// value (the one applied from that instant on). `simulate` records `u = 0`.
    ///
    /// ```
    /// # #[cfg(feature = "diffsol")]
    /// # {
    /// use nonholo_runtime::{simulate_controlled, Options};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// // m x'' + k x = f with f = -x sampled every 0.1 s: f is x at the last instant
    /// let osc = ForcedOscillator { m: 1.0, k: 1.0 };
    /// let mut law = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = -x[0];
    /// let options = Options::default().control_period(0.1).sample_every(0.05);
    /// let tr = simulate_controlled(&osc, &mut law, &[1.0, 0.0], 0.0..1.0, &options)?;
    /// assert_eq!(tr.input(0), Some(&[-1.0][..]));
    /// // t = 0.05 lies inside the first period: still the force set at 0
    /// assert_eq!(tr.input(1), Some(&[-1.0][..]));
    /// // t = 0.1 is a control instant: the new force, from the state there
    /// assert_eq!(tr.input(2).unwrap()[0], -tr.state(2).unwrap()[0]);
    /// assert!(tr.input(tr.len()).is_none());
    /// # }
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn input(&self, i: usize) -> Option<&[f64]> {
        if i >= self.len() {
            return None;
        }
        row(&self.inputs, self.nu(), i)
    }

    /// All recorded inputs, row-major ([`Self::nu`] numbers per sample).
    ///
    /// ```
    /// # #[cfg(feature = "diffsol")]
    /// # {
    /// use nonholo_runtime::{simulate_controlled, Options};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// let osc = ForcedOscillator { m: 1.0, k: 1.0 };
    /// let mut constant = |_t: f64, _x: &[f64], u: &mut [f64]| u[0] = 0.5;
    /// let options = Options::default().sample_every(0.5);
    /// let tr = simulate_controlled(&osc, &mut constant, &[0.0, 0.0], 0.0..2.0, &options)?;
    /// assert_eq!(tr.inputs(), [0.5; 5]);
    /// # }
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn inputs(&self) -> &[f64] {
        &self.inputs
    }

    /// The recorded inputs as an [`InputSeries`] held from each sample to the next (zero-order
    /// hold): given to `simulate_controlled` with the same control period, it replays a
    /// recorded sampled-data run open-loop. That needs a sample at every control instant
    /// (where the inputs change), as the default sampling (every step) and `sample_every` with
    /// the control period (or a divisor of it) give.
    ///
    /// Fails with [`Error::InvalidOptions`] for an empty trajectory.
    ///
    /// ```
    /// # #[cfg(feature = "diffsol")]
    /// # {
    /// use nonholo_runtime::{simulate_controlled, Options};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let mut damping = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = -0.8 * x[1];
    /// let options = Options::default().control_period(0.05);
    /// let closed = simulate_controlled(&osc, &mut damping, &[1.0, 0.0], 0.0..3.0, &options)?;
    /// let mut replay = closed.input_series()?;
    /// let open = simulate_controlled(&osc, &mut replay, &[1.0, 0.0], 0.0..3.0, &options)?;
    /// let (a, b) = (closed.last().unwrap().1, open.last().unwrap().1);
    /// assert!((a[0] - b[0]).abs() < 1e-12 && (a[1] - b[1]).abs() < 1e-12);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn input_series(&self) -> Result<InputSeries, Error> {
        if self.is_empty() {
            return Err(Error::InvalidOptions(format!(
                "an empty trajectory has no inputs to replay ({} inputs)",
                self.nu()
            )));
        }
        InputSeries::zero_order_hold(self.times.clone(), self.inputs.clone(), self.nu())
    }
}
