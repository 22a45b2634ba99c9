//! What decides a model's inputs `u` while it runs: a [`Controller`] (a feedback law, a
//! filter, an observer with a gain) or recorded data ([`InputSeries`]).
//!
//! `simulate_controlled` (feature `diffsol`) calls the controller either at every
//! evaluation of the right-hand side (continuous feedback) or at the instants of a sampled-data
//! controller (`Options::control_period`), holding `u` in between. Without `std`, the trait
//! and [`InputSeries`] still serve a hand-written control loop around
//! [`rk4_step`](crate::rk4_step).

use alloc::format;
use alloc::vec::Vec;

use crate::Error;

/// A control law: writes the inputs `u` (one per [`Model::INPUTS`](crate::Model::INPUTS)
/// name, in that order) for the time `t` and the state `[q, z]`.
///
/// Implemented for closures `FnMut(f64, &[f64], &mut [f64])`, the common case of a law that
/// is plain arithmetic and cannot fail (`u = -K x`); a controller that can fail (a lookup
/// table that runs out, an observer that diverges) implements the trait on a struct and
/// returns an [`Error`], which ends the run like an error of the model. Closures do not
/// return a `Result` because every infallible law would then end in `Ok(())` and usually
/// need its error type spelled out.
///
/// The slice `u` has exactly `Model::NU` entries and is zeroed before each call, so inputs
/// the controller leaves alone are 0. A controller may keep state (a filter, an integral
/// term, a delay) when it runs at the instants of a sampled-data controller
/// (`Options::control_period`); under continuous feedback it is called at every evaluation
/// of the right-hand side, trial stages of rejected steps included, and must be a function
/// of `(t, state)`.
///
/// ```
/// use nonholo_runtime::{Controller, Error};
///
/// // a closure: u = -k x
/// let mut p = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = -2.0 * x[0];
/// let mut u = [0.0];
/// p.control(0.0, &[0.5, 0.0], &mut u)?;
/// assert_eq!(u, [-1.0]);
///
/// // a struct with state that can fail: a PI law on x whose integral must stay bounded
/// struct Pi { kp: f64, ki: f64, integral: f64, t_last: f64 }
/// impl Controller for Pi {
///     fn control(&mut self, t: f64, x: &[f64], u: &mut [f64]) -> Result<(), Error> {
///         self.integral += x[0] * (t - self.t_last);
///         self.t_last = t;
///         if self.integral.abs() > 1e3 {
///             return Err(Error::InvalidOptions("integral wound up".into()));
///         }
///         u[0] = -self.kp * x[0] - self.ki * self.integral;
///         Ok(())
///     }
/// }
/// let mut pi = Pi { kp: 1.0, ki: 10.0, integral: 0.0, t_last: 0.0 };
/// pi.control(0.1, &[1.0, 0.0], &mut u)?;
/// assert!((u[0] + 2.0).abs() < 1e-12); // -1 - 10 * 0.1
/// assert!(pi.control(1e3, &[2.0, 0.0], &mut u).is_err());
/// # Ok::<(), Error>(())
/// ```
pub trait Controller {
    /// Writes the inputs for `(t, state)` into `u`.
    ///
    /// ```
    /// use nonholo_runtime::Controller;
    ///
    /// // a constant force, whatever the state
    /// let mut push = |_t: f64, _x: &[f64], u: &mut [f64]| u[0] = 3.0;
    /// let mut u = [0.0];
    /// push.control(1.0, &[0.0, 0.0], &mut u)?;
    /// assert_eq!(u, [3.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn control(&mut self, t: f64, state: &[f64], u: &mut [f64]) -> Result<(), Error>;
}

impl<F: FnMut(f64, &[f64], &mut [f64])> Controller for F {
    fn control(&mut self, t: f64, state: &[f64], u: &mut [f64]) -> Result<(), Error> {
        self(t, state, u);
        Ok(())
    }
}

/// How [`InputSeries`] reads between its times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Interpolation {
    ZeroOrderHold,
    Linear,
    /// Quadratic through each triple of times `2i, 2i + 1, 2i + 2`.
    Quadratic,
}

/// Inputs from data: values at given times, read by zero-order hold or linear
/// interpolation; a [`Controller`] that ignores the state.
///
/// Before the first time it gives the first value, after the last time the last value.
/// A recorded closed-loop run replays through `Trajectory::input_series`.
///
/// ```
/// use nonholo_runtime::InputSeries;
///
/// // one input, three samples
/// let hold = InputSeries::zero_order_hold(vec![0.0, 1.0, 2.0], vec![5.0, 6.0, 7.0], 1)?;
/// let ramp = InputSeries::linear(vec![0.0, 1.0, 2.0], vec![5.0, 6.0, 7.0], 1)?;
/// let mut u = [0.0];
/// hold.value_at(1.5, &mut u)?;
/// assert_eq!(u, [6.0]);
/// ramp.value_at(1.5, &mut u)?;
/// assert_eq!(u, [6.5]);
/// ramp.value_at(-1.0, &mut u)?; // before the first time: the first value
/// assert_eq!(u, [5.0]);
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct InputSeries {
    times: Vec<f64>,
    /// `nu` values per time, row-major.
    values: Vec<f64>,
    nu: usize,
    interpolation: Interpolation,
}

impl InputSeries {
    /// Inputs held constant from each time to the next (zero-order hold): at `t` in
    /// `[times[i], times[i + 1])` the value is the `i`-th row of `values` (flat, `nu`
    /// numbers per time).
    ///
    /// Fails with [`Error::InvalidOptions`] unless the times are non-empty, finite and
    /// strictly increasing and the values finite, and with [`Error::Dimension`] unless
    /// `values.len() == nu * times.len()`.
    ///
    /// ```
    /// use nonholo_runtime::{Error, InputSeries};
    ///
    /// // two inputs at t = 0 and t = 1
    /// let s = InputSeries::zero_order_hold(vec![0.0, 1.0], vec![1.0, 2.0, 3.0, 4.0], 2)?;
    /// let mut u = [0.0; 2];
    /// s.value_at(0.999, &mut u)?;
    /// assert_eq!(u, [1.0, 2.0]);
    /// s.value_at(1.0, &mut u)?; // the new value from its time on
    /// assert_eq!(u, [3.0, 4.0]);
    /// // three values do not make two rows of two
    /// let e = InputSeries::zero_order_hold(vec![0.0, 1.0], vec![1.0, 2.0, 3.0], 2).unwrap_err();
    /// assert!(matches!(e, Error::Dimension { expected: 4, found: 3, .. }));
    /// // times must increase
    /// let e = InputSeries::zero_order_hold(vec![1.0, 0.0], vec![1.0, 2.0], 1).unwrap_err();
    /// assert!(matches!(e, Error::InvalidOptions(_)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn zero_order_hold(times: Vec<f64>, values: Vec<f64>, nu: usize) -> Result<Self, Error> {
        Self::new(times, values, nu, Interpolation::ZeroOrderHold)
    }

    /// Inputs interpolated linearly between the times (the same checks as
    /// [`InputSeries::zero_order_hold`]).
    ///
    /// ```
    /// use nonholo_runtime::InputSeries;
    ///
    /// // a force ramping from 0 to 10 over 2 s, then held
    /// let s = InputSeries::linear(vec![0.0, 2.0], vec![0.0, 10.0], 1)?;
    /// let mut u = [0.0];
    /// s.value_at(0.5, &mut u)?;
    /// assert_eq!(u, [2.5]);
    /// s.value_at(7.0, &mut u)?;
    /// assert_eq!(u, [10.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn linear(times: Vec<f64>, values: Vec<f64>, nu: usize) -> Result<Self, Error> {
        Self::new(times, values, nu, Interpolation::Linear)
    }

    /// Inputs quadratic on each pair of intervals: on `[times[2i], times[2i + 2]]` the
    /// parabola through the values at `2i`, `2i + 1` and `2i + 2` (an odd number of
    /// times, else [`Error::InvalidOptions`]; the other checks as
    /// [`InputSeries::zero_order_hold`]). The inputs of a Hermite–Simpson solution, whose
    /// midpoints are the odd times.
    ///
    /// ```
    /// use nonholo_runtime::InputSeries;
    ///
    /// // u = t^2 through 0, 1, 2, then t + 2 through 2, 3, 4: each read exactly
    /// let s = InputSeries::quadratic(vec![0.0, 1.0, 2.0, 3.0, 4.0], vec![0.0, 1.0, 4.0, 5.0, 6.0], 1)?;
    /// let mut u = [0.0];
    /// s.value_at(1.5, &mut u)?;
    /// assert!((u[0] - 2.25).abs() < 1e-15);
    /// s.value_at(3.5, &mut u)?;
    /// assert!((u[0] - 5.5).abs() < 1e-15);
    /// assert!(InputSeries::quadratic(vec![0.0, 1.0], vec![0.0, 1.0], 1).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn quadratic(times: Vec<f64>, values: Vec<f64>, nu: usize) -> Result<Self, Error> {
        if times.len().is_multiple_of(2) {
            return Err(Error::InvalidOptions(format!(
                "a quadratic input series needs an odd number of times (got {})",
                times.len()
            )));
        }
        Self::new(times, values, nu, Interpolation::Quadratic)
    }

    fn new(
        times: Vec<f64>,
        values: Vec<f64>,
        nu: usize,
        interpolation: Interpolation,
    ) -> Result<Self, Error> {
        let expected = nu.saturating_mul(times.len());
        if values.len() != expected {
            return Err(Error::Dimension {
                what: "input values (nu per time)",
                expected,
                found: values.len(),
            });
        }
        let increasing = times.windows(2).all(|w| matches!(w, [a, b] if a < b));
        let finite = times.iter().chain(&values).all(|x| x.is_finite());
        if times.is_empty() || !increasing || !finite {
            return Err(Error::InvalidOptions(format!(
                "an input series needs finite values and finite, strictly increasing times \
                 (got {} times)",
                times.len()
            )));
        }
        Ok(Self {
            times,
            values,
            nu,
            interpolation,
        })
    }

    /// The inputs at `t` into `u` (length [`InputSeries::nu`], else [`Error::Dimension`]);
    /// a NaN `t` is [`Error::NonFinite`]. No allocation on success.
    ///
    /// ```
    /// use nonholo_runtime::{Error, InputSeries};
    ///
    /// let s = InputSeries::zero_order_hold(vec![0.0, 1.0], vec![1.0, 2.0], 1)?;
    /// let mut u = [0.0];
    /// s.value_at(5.0, &mut u)?; // after the last time: the last value
    /// assert_eq!(u, [2.0]);
    /// assert!(matches!(s.value_at(0.5, &mut [0.0; 2]), Err(Error::Dimension { .. })));
    /// assert!(matches!(s.value_at(f64::NAN, &mut u), Err(Error::NonFinite { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn value_at(&self, t: f64, u: &mut [f64]) -> Result<(), Error> {
        if u.len() != self.nu {
            return Err(Error::Dimension {
                what: "inputs u",
                expected: self.nu,
                found: u.len(),
            });
        }
        if t.is_nan() {
            return Err(Error::NonFinite {
                what: "time of an input series",
                t,
                state: Vec::new(),
            });
        }
        let row = |i: usize| &self.values[i * self.nu..(i + 1) * self.nu];
        // The first time after t; t before the first time reads the first value.
        let k = self.times.partition_point(|&ti| ti <= t);
        if k == 0 {
            u.copy_from_slice(row(0));
            return Ok(());
        }
        let i = k - 1;
        if self.interpolation == Interpolation::ZeroOrderHold || k == self.times.len() {
            u.copy_from_slice(row(i));
            return Ok(());
        }
        if self.interpolation == Interpolation::Quadratic {
            // the triple starting at the even index at or before i (never past the end:
            // the count of times is odd and t is before the last)
            let a = i - i % 2;
            let (t0, t1, t2) = (self.times[a], self.times[a + 1], self.times[a + 2]);
            let l0 = (t - t1) * (t - t2) / ((t0 - t1) * (t0 - t2));
            let l1 = (t - t0) * (t - t2) / ((t1 - t0) * (t1 - t2));
            let l2 = (t - t0) * (t - t1) / ((t2 - t0) * (t2 - t1));
            for (j, o) in u.iter_mut().enumerate() {
                *o = l0 * row(a)[j] + l1 * row(a + 1)[j] + l2 * row(a + 2)[j];
            }
            return Ok(());
        }
        let (t0, t1) = (self.times[i], self.times[k]);
        let s = (t - t0) / (t1 - t0);
        for ((o, a), b) in u.iter_mut().zip(row(i)).zip(row(k)) {
            *o = a + s * (b - a);
        }
        Ok(())
    }

    /// The times of the data.
    ///
    /// ```
    /// use nonholo_runtime::InputSeries;
    /// let s = InputSeries::linear(vec![0.0, 0.5], vec![1.0, 2.0], 1)?;
    /// assert_eq!(s.times(), [0.0, 0.5]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// The values, [`InputSeries::nu`] per time, row-major.
    ///
    /// ```
    /// use nonholo_runtime::InputSeries;
    /// let s = InputSeries::linear(vec![0.0, 0.5], vec![1.0, 2.0, 3.0, 4.0], 2)?;
    /// assert_eq!(s.values(), [1.0, 2.0, 3.0, 4.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Number of inputs per time.
    ///
    /// ```
    /// use nonholo_runtime::InputSeries;
    /// let s = InputSeries::zero_order_hold(vec![0.0], vec![1.0, 2.0, 3.0], 3)?;
    /// assert_eq!(s.nu(), 3);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn nu(&self) -> usize {
        self.nu
    }
}

impl Controller for InputSeries {
    /// [`InputSeries::value_at`]`(t)`, whatever the state.
    fn control(&mut self, t: f64, _state: &[f64], u: &mut [f64]) -> Result<(), Error> {
        self.value_at(t, u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn zero_order_hold_holds_each_value_until_the_next_time() {
        let s = InputSeries::zero_order_hold(vec![0.0, 0.5, 2.0], vec![1.0, -1.0, 4.0], 1).unwrap();
        let mut u = [0.0];
        for (t, expected) in [
            (-3.0, 1.0),
            (0.0, 1.0),
            (0.4999, 1.0),
            (0.5, -1.0),
            (1.9, -1.0),
            (2.0, 4.0),
            (1e9, 4.0),
            (f64::INFINITY, 4.0),
        ] {
            s.value_at(t, &mut u).unwrap();
            assert_eq!(u, [expected], "t = {t}");
        }
    }

    #[test]
    fn linear_meets_the_data_and_is_linear_between() {
        let times = vec![0.0, 1.0, 3.0];
        let values = vec![0.0, 10.0, 2.0, 20.0, -2.0, 0.0];
        let s = InputSeries::linear(times.clone(), values.clone(), 2).unwrap();
        let mut u = [0.0; 2];
        for (i, t) in times.iter().enumerate() {
            s.value_at(*t, &mut u).unwrap();
            assert_eq!(u, values[2 * i..2 * i + 2], "at the data time {t}");
        }
        s.value_at(2.0, &mut u).unwrap(); // halfway from (2, 20) to (-2, 0)
        assert_eq!(u, [0.0, 10.0]);
        s.value_at(-1.0, &mut u).unwrap();
        assert_eq!(u, [0.0, 10.0]);
        s.value_at(4.0, &mut u).unwrap();
        assert_eq!(u, [-2.0, 0.0]);
    }

    #[test]
    fn bad_data_is_refused() {
        let invalid = |r: Result<InputSeries, Error>| matches!(r, Err(Error::InvalidOptions(_)));
        assert!(invalid(InputSeries::linear(vec![], vec![], 1)));
        assert!(invalid(InputSeries::linear(
            vec![0.0, 0.0],
            vec![1.0, 2.0],
            1
        )));
        assert!(invalid(InputSeries::linear(
            vec![0.0, f64::NAN],
            vec![1.0, 2.0],
            1
        )));
        assert!(invalid(InputSeries::zero_order_hold(
            vec![0.0, 1.0],
            vec![1.0, f64::INFINITY],
            1
        )));
        assert!(matches!(
            InputSeries::zero_order_hold(vec![0.0], vec![1.0], 2),
            Err(Error::Dimension {
                expected: 2,
                found: 1,
                ..
            })
        ));
        // no inputs at all is a valid (empty) series
        let empty = InputSeries::zero_order_hold(vec![0.0], vec![], 0).unwrap();
        empty.value_at(3.0, &mut []).unwrap();
    }

    #[test]
    fn a_series_is_a_controller_that_ignores_the_state() {
        let mut s = InputSeries::zero_order_hold(vec![0.0, 1.0], vec![1.0, 2.0], 1).unwrap();
        let (mut a, mut b) = ([0.0], [0.0]);
        s.control(1.5, &[0.0, 0.0], &mut a).unwrap();
        s.control(1.5, &[1e3, -7.0], &mut b).unwrap();
        assert_eq!((a, b), ([2.0], [2.0]));
        assert!(s.control(1.5, &[0.0], &mut [0.0; 3]).is_err());
    }

    #[test]
    fn closures_and_structs_are_controllers() {
        fn run(c: &mut dyn Controller, x: f64) -> f64 {
            let mut u = [0.0];
            c.control(0.0, &[x], &mut u).unwrap();
            u[0]
        }
        // a closure keeping state: a one-sample delay
        let mut last = 0.0;
        let mut delay = |_t: f64, x: &[f64], u: &mut [f64]| {
            u[0] = last;
            last = x[0];
        };
        assert_eq!(run(&mut delay, 1.0), 0.0);
        assert_eq!(run(&mut delay, 2.0), 1.0);
        assert_eq!(run(&mut delay, 3.0), 2.0);
    }
}
