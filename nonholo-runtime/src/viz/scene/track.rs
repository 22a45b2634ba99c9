//! The poses of a model sampled along a trajectory (or at one configuration), and the
//! pose between two samples.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use crate::viz::camera::{add, normalize, scale, sub, V3};
use crate::{Error, Geometry, Trajectory};

/// A rotation matrix, `r[i][j]` row `i`, column `j`.
pub(crate) type M3 = [[f64; 3]; 3];

/// The poses of a model at increasing times: positions of every point and orientations of
/// every frame of the model, sample by sample.
#[derive(Debug, Clone)]
pub(crate) struct Track {
    pub times: Vec<f64>,
    pub np: usize,
    pub nf: usize,
    /// `times.len() * np` positions, sample-major.
    pub pos: Vec<V3>,
    /// `times.len() * nf` orientations, sample-major.
    pub rot: Vec<M3>,
}

/// The positions and orientations at one time.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pose {
    pub pos: Vec<V3>,
    pub rot: Vec<M3>,
}

/// Most samples per second of simulated time kept from a trajectory.
pub(crate) const DEFAULT_MAX_RATE: f64 = 240.0;
/// Fewest samples per second of simulated time: coarser trajectories are filled in by
/// their Hermite interpolant (`Trajectory::at`), so that linear interpolation between
/// samples (what the viewer does) stays smooth.
pub(crate) const MIN_RATE: f64 = 60.0;
/// The most samples a track keeps (long runs get a lower rate).
pub(crate) const MAX_SAMPLES: f64 = 50_000.0;

fn non_finite(what: &'static str, t: f64, q: &[f64]) -> Error {
    Error::NonFinite {
        what,
        t,
        state: q.to_vec(),
    }
}

impl Track {
    fn empty<M: Geometry>() -> Self {
        Track {
            times: Vec::new(),
            np: M::POINTS.len(),
            nf: M::FRAMES.len(),
            pos: Vec::new(),
            rot: Vec::new(),
        }
    }

    /// Append the pose of `model` at `(t, q)`.
    fn push<M: Geometry>(&mut self, model: &M, t: f64, q: &[f64]) -> Result<(), Error> {
        let (p0, r0) = (self.pos.len(), self.rot.len());
        self.pos.resize(p0 + self.np, [0.0; 3]);
        self.rot.resize(r0 + self.nf, [[0.0; 3]; 3]);
        model.point_positions(t, q, &mut self.pos[p0..])?;
        model.frame_orientations(t, q, &mut self.rot[r0..])?;
        if !self.pos[p0..].iter().flatten().all(|v| v.is_finite()) {
            return Err(non_finite("point positions", t, q));
        }
        if !self.rot[r0..]
            .iter()
            .flatten()
            .flatten()
            .all(|v| v.is_finite())
        {
            return Err(non_finite("frame orientations", t, q));
        }
        self.times.push(t);
        Ok(())
    }

    /// The pose of `model` at one configuration (`q` of length `NQ`, or a whole state).
    pub(crate) fn single<M: Geometry>(model: &M, t: f64, q: &[f64]) -> Result<Self, Error> {
        if q.len() != M::NQ && q.len() != M::DIM {
            return Err(Error::Dimension {
                what: "q (or state)",
                expected: M::NQ,
                found: q.len(),
            });
        }
        if !t.is_finite() {
            return Err(Error::InvalidOptions(format!(
                "viz: time {t} is not finite"
            )));
        }
        let mut tr = Self::empty::<M>();
        tr.push(model, t, &q[..M::NQ])?;
        Ok(tr)
    }

    /// The poses along a trajectory over `span` (default: all of it): its own samples,
    /// thinned to at most `max_rate` per second of simulated time (and `MAX_SAMPLES` in
    /// all), with gaps wider than `1 / MIN_RATE` filled by interpolated states.
    pub(crate) fn from_trajectory<M: Geometry>(
        model: &M,
        tr: &Trajectory,
        max_rate: f64,
        span: Option<(f64, f64)>,
    ) -> Result<Self, Error> {
        // a run whose contacts slip records [q, dot(q)]
        let slipping = !tr.contact_names().is_empty() && tr.dim() == 2 * M::NQ;
        if tr.nq() != M::NQ || (tr.dim() != M::DIM && !slipping) {
            return Err(Error::Dimension {
                what: "trajectory state (its model's DIM)",
                expected: M::DIM,
                found: tr.dim(),
            });
        }
        let times = tr.times();
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return Err(Error::InvalidOptions(
                "viz: the trajectory has no samples".into(),
            ));
        };
        let (t0, t1) = match span {
            None => (first, last),
            Some((a, b)) => {
                if !(a >= first && b <= last && a <= b) {
                    return Err(Error::InvalidOptions(format!(
                        "viz: time span [{a}, {b}] not within the trajectory's [{first}, {last}]"
                    )));
                }
                (a, b)
            }
        };
        // the kept times: the samples in the span, no two closer than 1 / max_rate (the
        // last always kept), then gaps filled in
        let mut kept: Vec<f64> = Vec::new();
        let lo = times.partition_point(|&t| t < t0);
        let hi = times.partition_point(|&t| t <= t1);
        let rate = max_rate.min(MAX_SAMPLES / (t1 - t0).max(1e-300));
        // filling in at most half the thinning rate, so that thinned gaps stay as they are
        let fill = MIN_RATE.min(0.5 * rate);
        let dt_min = (1.0 - 1e-9) / rate;
        if lo == hi || times[lo] > t0 {
            kept.push(t0);
        }
        for &t in &times[lo..hi] {
            if kept.last().is_none_or(|&p| t - p >= dt_min) {
                kept.push(t);
            }
        }
        if let Some(&p) = kept.last()
            && p < t1
        {
            // the span's end replaces a kept sample too close before it
            if kept.len() > 1 && t1 - p < dt_min {
                kept.pop();
            }
            kept.push(t1);
        }
        let mut all = Vec::with_capacity(kept.len());
        for (i, &t) in kept.iter().enumerate() {
            if i > 0 {
                let p = kept[i - 1];
                let n = ((t - p) * fill).ceil() as usize;
                for k in 1..n {
                    all.push(p + (t - p) * k as f64 / n as f64);
                }
            }
            all.push(t);
        }
        let mut track = Self::empty::<M>();
        track.times.reserve(all.len());
        track.pos.reserve(all.len() * track.np);
        track.rot.reserve(all.len() * track.nf);
        let mut state = vec![0.0; tr.dim()];
        let mut next = lo;
        for &t in &all {
            // the stored state at a sample time, else the interpolant
            while next < times.len() && times[next] < t {
                next += 1;
            }
            match tr.state(next) {
                Some(stored) if times[next] == t => state.copy_from_slice(stored),
                _ => tr.at_into(t, &mut state)?,
            }
            track.push(model, t, &state[..M::NQ])?;
        }
        Ok(track)
    }

    pub(crate) fn len(&self) -> usize {
        self.times.len()
    }

    /// `(i, w)`: `t` lies between samples `i` and `i + 1`, at the fraction `w` (clamped to
    /// the ends).
    pub(crate) fn locate(&self, t: f64) -> (usize, f64) {
        let n = self.times.len();
        if n < 2 || t <= self.times[0] {
            return (0, 0.0);
        }
        if t >= self.times[n - 1] {
            return (n - 2, 1.0);
        }
        let k = self.times.partition_point(|&s| s <= t).clamp(1, n - 1);
        let (a, b) = (self.times[k - 1], self.times[k]);
        (k - 1, if b > a { (t - a) / (b - a) } else { 0.0 })
    }

    /// The pose at `t`: positions and orientations interpolated linearly between the
    /// samples around it, the orientations' columns normalized again.
    pub(crate) fn pose_at(&self, t: f64, out: &mut Pose) {
        let (i, w) = self.locate(t);
        let j = (i + 1).min(self.len() - 1);
        out.pos.clear();
        out.rot.clear();
        for k in 0..self.np {
            let (a, b) = (self.pos[i * self.np + k], self.pos[j * self.np + k]);
            out.pos.push(add(a, scale(sub(b, a), w)));
        }
        for k in 0..self.nf {
            let (a, b) = (&self.rot[i * self.nf + k], &self.rot[j * self.nf + k]);
            let mut r = [[0.0; 3]; 3];
            for c in 0..3 {
                let col = normalize(core::array::from_fn(|row| {
                    a[row][c] + w * (b[row][c] - a[row][c])
                }));
                for row in 0..3 {
                    r[row][c] = col[row];
                }
            }
            out.rot.push(r);
        }
    }
}
