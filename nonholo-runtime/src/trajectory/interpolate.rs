//! [`Trajectory::at`]: cubic Hermite interpolation between samples.

use alloc::vec;
use alloc::vec::Vec;

use super::Trajectory;
use crate::Error;

impl Trajectory {
    /// The state at any time `t` within the sampled span, by cubic Hermite interpolation
    /// on the two samples around `t` and their derivatives (exact at the samples).
    ///
    /// Fails with [`Error::OutsideTimeSpan`] outside `[times[0], times[len - 1]]`.
    ///
    /// Between samples `h` apart the error is at most `h^4 / 384 max |y''''|` (plus whatever
    /// error the samples carry):
    ///
    /// ```
    /// use nonholo_runtime::{Error, Trajectory};
    ///
    /// // exact samples of x = cos t, v = -sin t every h = 0.1: |y''''| <= 1
    /// let h = 0.1;
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// for i in 0..=20 {
    ///     let t = h * f64::from(i);
    ///     tr.push(t, &[t.cos(), -t.sin()], &[-t.sin(), -t.cos()])?;
    /// }
    /// for k in 0..200 {
    ///     let t = 0.005 + 0.01 * f64::from(k);
    ///     let y = tr.at(t)?;
    ///     assert!((y[0] - t.cos()).abs() <= h.powi(4) / 384.0);
    ///     assert!((y[1] + t.sin()).abs() <= h.powi(4) / 384.0);
    /// }
    /// assert_eq!(tr.at(tr.times()[3])?, tr.state(3).unwrap()); // exact at the samples
    /// assert!(matches!(tr.at(2.5), Err(Error::OutsideTimeSpan { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn at(&self, t: f64) -> Result<Vec<f64>, Error> {
        let mut out = vec![0.0; self.dim()];
        self.at_into(t, &mut out)?;
        Ok(out)
    }

    /// [`Self::at`] into a caller-provided buffer of length [`Self::dim`] (no allocation).
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Error};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // RK4 samples every 0.1 of x'' = -x, read on a finer grid into one buffer
    /// let tr = integrate_rk4(&Oscillator::new(1.0), &[1.0, 0.0], 0.0, 0.1, 20)?;
    /// let mut y = [0.0; 2];
    /// for k in 0..=80 {
    ///     let t = 0.025 * f64::from(k);
    ///     tr.at_into(t, &mut y)?;
    ///     assert!((y[0] - t.cos()).abs() < 1e-5 && (y[1] + t.sin()).abs() < 1e-5);
    /// }
    /// let wrong = tr.at_into(1.0, &mut [0.0; 3]);
    /// assert!(matches!(wrong, Err(Error::Dimension { expected: 2, found: 3, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn at_into(&self, t: f64, out: &mut [f64]) -> Result<(), Error> {
        if out.len() != self.dim() {
            return Err(Error::Dimension {
                what: "output",
                expected: self.dim(),
                found: out.len(),
            });
        }
        let (start, end) = match (self.times.first(), self.times.last()) {
            (Some(&s), Some(&e)) => (s, e),
            _ => (f64::NAN, f64::NAN),
        };
        let inside = t >= start && t <= end;
        if !inside {
            return Err(Error::OutsideTimeSpan { t, start, end });
        }
        // Index of the first sample at or after t; t == start falls in the first interval.
        let k = self.times.partition_point(|&ti| ti < t).max(1);
        let i = k - 1;
        let span = |i: usize| -> Option<(f64, &[f64], &[f64])> {
            Some((*self.times.get(i)?, self.state(i)?, self.derivative(i)?))
        };
        let Some((t0, y0, d0)) = span(i) else {
            return Err(Error::OutsideTimeSpan { t, start, end });
        };
        let Some((t1, y1, d1)) = span(k) else {
            // A single sample: t == start == end.
            out.copy_from_slice(y0);
            return Ok(());
        };
        let h = t1 - t0;
        let s = (t - t0) / h;
        // Cubic Hermite basis on [0, 1].
        let h00 = (1.0 + 2.0 * s) * (1.0 - s) * (1.0 - s);
        let h10 = s * (1.0 - s) * (1.0 - s);
        let h01 = s * s * (3.0 - 2.0 * s);
        let h11 = s * s * (s - 1.0);
        for ((((o, a), da), b), db) in out.iter_mut().zip(y0).zip(d0).zip(y1).zip(d1) {
            *o = h00 * a + h10 * h * da + h01 * b + h11 * h * db;
        }
        Ok(())
    }
}
