//! Sampled solutions: times, states `[q, z]` and their time derivatives.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::{Error, Model};

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
    pub fn new<M: Model>() -> Self {
        Self::from_names(M::COORDINATES, M::SPEEDS)
    }

    /// An empty trajectory with the given coordinate names (q) and speed names (z).
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
    pub fn event_time(&self) -> Option<f64> {
        self.event_time
    }

    /// Record that a stopping event fired at `t`.
    pub fn set_event_time(&mut self, t: f64) {
        self.event_time = Some(t);
    }

    /// Append the sample `(t, state, dstate)`.
    ///
    /// Fails with [`Error::Dimension`] when a slice does not have length [`Self::dim`], and
    /// with [`Error::InvalidOptions`] when `t` is not finite or not after the last sample.
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
    pub fn reserve(&mut self, additional: usize) {
        let dim = self.dim();
        self.times.reserve(additional);
        self.states.reserve(additional.saturating_mul(dim));
        self.derivatives.reserve(additional.saturating_mul(dim));
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Column names: the coordinates q, then the speeds z.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// Number of coordinates q.
    pub fn nq(&self) -> usize {
        self.nq
    }

    /// Number of speeds z.
    pub fn nz(&self) -> usize {
        self.names.len() - self.nq
    }

    /// State dimension `nq + nz`.
    pub fn dim(&self) -> usize {
        self.names.len()
    }

    /// Sample times, strictly increasing.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// All states, row-major (`len() * dim()` numbers).
    pub fn states(&self) -> &[f64] {
        &self.states
    }

    /// The state `[q, z]` of sample `i`, `None` past the end.
    pub fn state(&self, i: usize) -> Option<&[f64]> {
        row(&self.states, self.dim(), i)
    }

    /// `d[q, z]/dt` at sample `i`, `None` past the end.
    pub fn derivative(&self, i: usize) -> Option<&[f64]> {
        row(&self.derivatives, self.dim(), i)
    }

    /// The coordinates q of sample `i`.
    pub fn q(&self, i: usize) -> Option<&[f64]> {
        self.state(i).and_then(|s| s.get(..self.nq))
    }

    /// The speeds z of sample `i`.
    pub fn z(&self, i: usize) -> Option<&[f64]> {
        self.state(i).and_then(|s| s.get(self.nq..))
    }

    /// The last sample `(t, state)`.
    pub fn last(&self) -> Option<(f64, &[f64])> {
        let i = self.len().checked_sub(1)?;
        Some((*self.times.get(i)?, self.state(i)?))
    }

    /// The time series of one coordinate or speed, by name (`"t"` gives the times).
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        if name == "t" {
            return Some(self.times.clone());
        }
        let j = self.names.iter().position(|n| *n == name)?;
        Some(
            self.states
                .iter()
                .skip(j)
                .step_by(self.dim())
                .copied()
                .collect(),
        )
    }

    /// The state at any time `t` within the sampled span, by cubic Hermite interpolation
    /// on the two samples around `t` and their derivatives (exact at the samples).
    ///
    /// Fails with [`Error::OutsideTimeSpan`] outside `[times[0], times[len - 1]]`.
    pub fn at(&self, t: f64) -> Result<Vec<f64>, Error> {
        let mut out = vec![0.0; self.dim()];
        self.at_into(t, &mut out)?;
        Ok(out)
    }

    /// [`Self::at`] into a caller-provided buffer of length [`Self::dim`] (no allocation).
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

    /// The energy [`Model::energy`] at every sample.
    pub fn energy<M: Model>(&self, model: &M) -> Result<Vec<f64>, Error> {
        self.check_model::<M>()?;
        self.samples()
            .map(|(t, state)| model.energy(t, state))
            .collect()
    }

    /// The constraint residuals `C_a(q, dot(q), t)` at every sample, with
    /// `dot(q) = psi(q, z, t)` from [`Model::qdot`].
    pub fn constraint_residuals<M: Model>(&self, model: &M) -> Result<Vec<Vec<f64>>, Error> {
        self.check_model::<M>()?;
        let mut qdot = vec![0.0; M::NQ];
        self.samples()
            .map(|(t, state)| {
                // check_model made NQ <= dim, so the split cannot fail.
                let (q, z) = state.split_at_checked(M::NQ).unwrap_or((state, &[]));
                model.qdot(t, q, z, &mut qdot)?;
                let mut r = vec![0.0; M::NC];
                model.constraint_residual(t, q, &qdot, &mut r)?;
                Ok(r)
            })
            .collect()
    }

    /// The largest `|C_a|` over all samples and constraints (0 without constraints or
    /// samples; NaN if a residual is NaN).
    pub fn max_constraint_residual<M: Model>(&self, model: &M) -> Result<f64, Error> {
        let all = self.constraint_residuals(model)?;
        Ok(all.iter().flatten().fold(0.0_f64, |m, r| {
            if r.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(r.abs())
            }
        }))
    }

    /// The configuration residuals `f_k(q, t)` ([`Model::configuration_residual`]) at
    /// every sample: how far the integrated coordinates drift from the configuration
    /// constraints whose derivatives the equations enforce.
    pub fn configuration_residuals<M: Model>(&self, model: &M) -> Result<Vec<Vec<f64>>, Error> {
        self.check_model::<M>()?;
        self.samples()
            .map(|(t, state)| {
                let q = state.get(..M::NQ).unwrap_or(state);
                let mut r = vec![0.0; M::CONFIGURATION_CONSTRAINTS.len()];
                model.configuration_residual(t, q, &mut r)?;
                Ok(r)
            })
            .collect()
    }

    /// The largest `|f_k|` over all samples (0 without configuration constraints).
    pub fn max_configuration_residual<M: Model>(&self, model: &M) -> Result<f64, Error> {
        let all = self.configuration_residuals(model)?;
        Ok(all.iter().flatten().fold(0.0_f64, |m, r| {
            if r.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(r.abs())
            }
        }))
    }

    /// The samples as CSV: a header `t,<names...>` and one row per sample.
    ///
    /// Numbers are written in Rust's shortest round-trip form (`{:?}`), so parsing them
    /// back gives the same `f64` bit for bit.
    ///
    /// ```
    /// # use nonholo_runtime::Trajectory;
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// tr.push(0.0, &[0.1, 1e-300], &[0.0, 0.0]).unwrap();
    /// assert_eq!(tr.to_csv_string(), "t,x,v\n0.0,0.1,1e-300\n");
    /// ```
    pub fn to_csv_string(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_csv_fmt(&mut s);
        s
    }

    /// Write [`Self::to_csv_string`] to a file.
    #[cfg(feature = "std")]
    pub fn write_csv(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        let file = std::fs::File::create(path)?;
        self.write_csv_to(std::io::BufWriter::new(file))
    }

    /// Write [`Self::to_csv_string`] to any writer.
    #[cfg(feature = "std")]
    pub fn write_csv_to(&self, writer: impl std::io::Write) -> std::io::Result<()> {
        // Adapter so one formatter serves both String and io::Write, keeping the io error.
        struct Adapter<W> {
            inner: W,
            error: Option<std::io::Error>,
        }
        impl<W: std::io::Write> core::fmt::Write for Adapter<W> {
            fn write_str(&mut self, s: &str) -> core::fmt::Result {
                self.inner.write_all(s.as_bytes()).map_err(|e| {
                    self.error = Some(e);
                    core::fmt::Error
                })
            }
        }
        let mut a = Adapter {
            inner: writer,
            error: None,
        };
        if self.write_csv_fmt(&mut a).is_err() {
            return Err(a
                .error
                .unwrap_or_else(|| std::io::Error::other("formatting failed")));
        }
        a.inner.flush()
    }

    fn write_csv_fmt(&self, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        out.write_str("t")?;
        for n in &self.names {
            write!(out, ",{n}")?;
        }
        out.write_char('\n')?;
        for (t, state) in self.samples() {
            write!(out, "{t:?}")?;
            for x in state {
                write!(out, ",{x:?}")?;
            }
            out.write_char('\n')?;
        }
        Ok(())
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
