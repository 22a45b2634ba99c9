//! What is drawn: the sampled poses of a model (a [`Track`]), the static set-up of a scene
//! (shapes, trails, framing: a [`Setup`]) and, for one pose and one camera, the list of
//! screen-space primitives in painter's order ([`primitives`]). `viewer.js` builds the
//! same primitives from the same numbers (`buildItems`).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::camera::{
    add, cross, dot, nice_step, norm, normalize, perpendicular, plane_basis, rotate, scale, sub,
    Camera, View, V3,
};
use super::Animation;
use crate::geometry::Rgb;
use crate::{Error, Geometry, Shape, Trajectory};

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
        if tr.nq() != M::NQ || tr.dim() != M::DIM {
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
        if let Some(&p) = kept.last() {
            if p < t1 {
                // the span's end replaces a kept sample too close before it
                if kept.len() > 1 && t1 - p < dt_min {
                    kept.pop();
                }
                kept.push(t1);
            }
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

/// The static part of a scene: shapes, trails, framing and look.
#[derive(Debug, Clone)]
pub(crate) struct Setup {
    pub shapes: Vec<Shape>,
    /// `(point, colour)` of every trail.
    pub trails: Vec<(usize, Rgb)>,
    pub up: V3,
    /// The model's size: the largest diagonal of its bounding box at one time.
    pub size: f64,
    /// Whether the camera follows the model.
    pub follow: bool,
    /// The radius to fit when following, and when showing the whole motion.
    pub radius_follow: f64,
    pub radius_whole: f64,
    /// The centre of the whole motion's bounding box (or the user's target).
    pub target_whole: V3,
    /// The followed point, per sample of the track: the model's centroid, smoothed over a
    /// second (or the user's target).
    pub follow_track: Vec<V3>,
    /// The fitted camera distances when following and when showing the whole motion.
    pub dist_follow: f64,
    pub dist_whole: f64,
    /// The camera at the start (its target set per frame).
    pub view: View,
}

impl Setup {
    /// The radius the camera frames.
    pub(crate) fn radius(&self) -> f64 {
        if self.follow {
            self.radius_follow
        } else {
            self.radius_whole
        }
    }

    /// The view at time `t` of the track.
    pub(crate) fn view_at(&self, track: &Track, t: f64) -> View {
        let mut v = self.view;
        v.target = if self.follow && !self.follow_track.is_empty() {
            let (i, w) = track.locate(t);
            let j = (i + 1).min(self.follow_track.len() - 1);
            let (a, b) = (self.follow_track[i], self.follow_track[j]);
            add(a, scale(sub(b, a), w))
        } else {
            self.target_whole
        };
        v
    }
}

/// The points a shape is drawn around and how far it reaches beyond them.
fn reach(shape: &Shape) -> (Vec<usize>, f64) {
    match *shape {
        Shape::Disk { center, radius, .. } => (vec![center], radius.abs()),
        Shape::Ellipsoid { center, axes, .. } => (
            vec![center],
            axes.iter().fold(0.0f64, |m, a| m.max(norm(*a))),
        ),
        Shape::Segment { from, to, .. } => (vec![from, to], 0.0),
        Shape::Sphere { center, radius, .. } => (vec![center], radius.abs()),
        Shape::Cylinder {
            center,
            radius,
            length,
            ..
        } => (
            vec![center],
            (radius * radius + 0.25 * length * length).sqrt(),
        ),
        Shape::Cuboid { center, half, .. } => (vec![center], norm(half)),
        Shape::Grid { .. } => (vec![], 0.0),
        Shape::Dot { point, .. } => (vec![point], 0.0),
    }
}

fn shape_name(s: &Shape) -> &'static str {
    match s {
        Shape::Disk { .. } => "Disk",
        Shape::Ellipsoid { .. } => "Ellipsoid",
        Shape::Segment { .. } => "Segment",
        Shape::Sphere { .. } => "Sphere",
        Shape::Cylinder { .. } => "Cylinder",
        Shape::Cuboid { .. } => "Cuboid",
        Shape::Grid { .. } => "Grid",
        Shape::Dot { .. } => "Dot",
    }
}

/// `Err` unless every index of `shape` is a point or frame of the model and every length
/// is finite (radii and lengths positive).
fn check_shape(i: usize, s: &Shape, np: usize, nf: usize) -> Result<(), Error> {
    let bad = |why: String| {
        Err(Error::InvalidOptions(format!(
            "viz: shape {i} ({}) {why}",
            shape_name(s)
        )))
    };
    let (points, frames, lengths, vectors): (Vec<usize>, Vec<usize>, Vec<f64>, Vec<V3>) = match *s {
        Shape::Disk {
            center,
            frame,
            normal,
            radius,
            ..
        } => (vec![center], vec![frame], vec![radius], vec![normal]),
        Shape::Ellipsoid {
            center,
            frame,
            axes,
            ..
        } => (vec![center], vec![frame], vec![], axes.to_vec()),
        Shape::Segment { from, to, .. } => (vec![from, to], vec![], vec![], vec![]),
        Shape::Sphere { center, radius, .. } => (vec![center], vec![], vec![radius], vec![]),
        Shape::Cylinder {
            center,
            frame,
            axis,
            radius,
            length,
            ..
        } => (vec![center], vec![frame], vec![radius, length], vec![axis]),
        Shape::Cuboid {
            center,
            frame,
            half,
            ..
        } => (vec![center], vec![frame], half.to_vec(), vec![]),
        Shape::Grid { point, up, .. } => (vec![point], vec![], vec![], vec![up]),
        Shape::Dot { point, .. } => (vec![point], vec![], vec![], vec![]),
    };
    if let Some(p) = points.iter().find(|&&p| p >= np) {
        return bad(format!("refers to point {p}; the model has {np} points"));
    }
    if let Some(f) = frames.iter().find(|&&f| f >= nf) {
        return bad(format!("refers to frame {f}; the model has {nf} frames"));
    }
    if lengths.iter().any(|l| !(l.is_finite() && *l > 0.0)) {
        return bad(format!("has a length that is not positive: {lengths:?}"));
    }
    if vectors.iter().flatten().any(|v| !v.is_finite()) {
        return bad("has a direction that is not finite".into());
    }
    let needs_direction = !matches!(s, Shape::Ellipsoid { .. });
    if needs_direction && vectors.iter().any(|v| norm(*v) < 1e-12) {
        return bad("has a zero direction".into());
    }
    if let Shape::Ellipsoid { axes, .. } = s {
        if axes.iter().all(|a| norm(*a) == 0.0) {
            return bad("has no extent (all axes zero)".into());
        }
    }
    Ok(())
}

/// Everything static about the scene of `track` as `animation` asks.
pub(crate) fn setup<M: Geometry>(
    model: &M,
    track: &Track,
    animation: &Animation,
) -> Result<Setup, Error> {
    animation.validate()?;
    let (np, nf) = (track.np, track.nf);
    let mut shapes = if animation.default_scene {
        model.scene()
    } else {
        Vec::new()
    };
    shapes.extend(animation.shapes.iter().cloned());
    for (i, s) in shapes.iter().enumerate() {
        check_shape(i, s, np, nf)?;
    }
    let mut trails = Vec::new();
    for (name, color) in &animation.trails {
        let i = crate::geometry::index_of("points", M::POINTS, name)?;
        trails.push((i, *color));
    }
    let up = match animation.up {
        Some(u) => normalize(u),
        None => shapes
            .iter()
            .find_map(|s| match s {
                Shape::Grid { up, .. } => Some(normalize(*up)),
                _ => None,
            })
            .unwrap_or([0.0, 0.0, 1.0]),
    };
    // bounding boxes: of the model at each sample (its size), of the whole motion
    let reaches: Vec<(Vec<usize>, f64)> = shapes.iter().map(reach).collect();
    let mut centroid_points: Vec<usize> = reaches.iter().flat_map(|r| r.0.clone()).collect();
    centroid_points.extend(trails.iter().map(|t| t.0));
    centroid_points.sort_unstable();
    centroid_points.dedup();
    let mut whole = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    let mut size = 0.0f64;
    let mut centroids = Vec::with_capacity(track.len());
    let mut boxes = Vec::with_capacity(track.len());
    for s in 0..track.len() {
        let pos = &track.pos[s * np..(s + 1) * np];
        let mut bb = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        let mut grow = |p: V3, r: f64| {
            for (k, x) in p.iter().enumerate() {
                bb.0[k] = bb.0[k].min(x - r);
                bb.1[k] = bb.1[k].max(x + r);
            }
        };
        for (points, r) in &reaches {
            for &p in points {
                grow(pos[p], *r);
            }
        }
        for &(p, _) in &trails {
            grow(pos[p], 0.0);
        }
        boxes.push(bb);
        if bb.0[0].is_finite() {
            size = size.max(norm(sub(bb.1, bb.0)));
            for k in 0..3 {
                whole.0[k] = whole.0[k].min(bb.0[k]);
                whole.1[k] = whole.1[k].max(bb.1[k]);
            }
        }
        let c = if centroid_points.is_empty() {
            [0.0; 3]
        } else {
            let sum = centroid_points
                .iter()
                .fold([0.0; 3], |a, &p| add(a, pos[p]));
            scale(sum, 1.0 / centroid_points.len() as f64)
        };
        centroids.push(c);
    }
    // a model reduced to one point (or nothing drawn): a unit scene around it
    if size.is_nan() || size <= 1e-9 {
        size = 1.0;
    }
    let (target_whole, diag) = if whole.0[0].is_finite() {
        (
            scale(add(whole.0, whole.1), 0.5),
            norm(sub(whole.1, whole.0)),
        )
    } else {
        (centroids.first().copied().unwrap_or([0.0; 3]), size)
    };
    let radius_follow = 0.5 * size;
    let radius_whole = 0.5 * diag.max(size);
    let follow = animation
        .follow
        .unwrap_or(diag > 2.5 * size && track.len() > 1);
    let follow_track = smooth(&track.times, &centroids, 0.5);
    let target_whole = animation.target.unwrap_or(target_whole);
    let follow_track = match animation.target {
        Some(t) => vec![t; track.len()],
        None => follow_track,
    };
    let mut view = View {
        az: animation.azimuth.to_radians(),
        el: animation.elevation.to_radians(),
        dist: 1.0,
        fov: animation.fov.to_radians(),
        target: target_whole,
        up,
    };
    // the distances at which the boxes fit in the picture: the model's box at every sample
    // about the followed point, or the whole motion's about its centre
    let dist_follow = fit_distance(
        &view,
        boxes.iter().zip(&follow_track).map(|(b, c)| (*b, *c)),
        radius_follow,
    );
    let dist_whole = fit_distance(&view, core::iter::once((whole, target_whole)), radius_whole);
    view.dist = animation
        .distance
        .unwrap_or(if follow { dist_follow } else { dist_whole });
    Ok(Setup {
        shapes,
        trails,
        up,
        size,
        follow,
        radius_follow,
        radius_whole,
        target_whole,
        follow_track,
        dist_follow,
        dist_whole,
        view,
    })
}

/// The smallest distance from which a camera looking as `view` does at each point `c`
/// sees its box `(min, max)` within 85% of the picture's smaller half-width; without a
/// finite box, the distance that frames a sphere of `radius`.
fn fit_distance(view: &View, boxes: impl Iterator<Item = ((V3, V3), V3)>, radius: f64) -> f64 {
    let cam = Camera::new(
        &View {
            target: [0.0; 3],
            ..*view
        },
        1.0,
        1.0,
    );
    let k = 0.85 * (0.5 * view.fov).tan();
    let mut d = 0.0f64;
    for ((lo, hi), c) in boxes {
        if !(lo[0].is_finite() && hi[0].is_finite()) {
            continue;
        }
        for corner in 0..8 {
            let p = [
                if corner & 1 == 0 { lo[0] } else { hi[0] },
                if corner & 2 == 0 { lo[1] } else { hi[1] },
                if corner & 4 == 0 { lo[2] } else { hi[2] },
            ];
            let v = sub(p, c);
            let (a, b, z) = (dot(v, cam.right), dot(v, cam.up), dot(v, cam.back));
            d = d.max(z + a.abs().max(b.abs()) / k);
        }
    }
    if d > 1e-3 * radius && d.is_finite() {
        d
    } else {
        1.1 * radius / (0.5 * view.fov).sin()
    }
}

/// The average of `values` over the samples within `half` (time) of each, the window
/// narrowed near the ends to stay symmetric.
fn smooth(times: &[f64], values: &[V3], half: f64) -> Vec<V3> {
    let mut prefix = Vec::with_capacity(values.len() + 1);
    prefix.push([0.0; 3]);
    for v in values {
        let last = *prefix.last().unwrap_or(&[0.0; 3]);
        prefix.push(add(last, *v));
    }
    let (first, last) = match (times.first(), times.last()) {
        (Some(&f), Some(&l)) => (f, l),
        _ => return Vec::new(),
    };
    (0..values.len())
        .map(|i| {
            // symmetric, narrowing towards the ends (so that the average does not lag)
            let h = half.min(times[i] - first).min(last - times[i]);
            let a = times.partition_point(|&t| t < times[i] - h);
            let b = times.partition_point(|&t| t <= times[i] + h).max(a + 1);
            scale(sub(prefix[b], prefix[a]), 1.0 / (b - a) as f64)
        })
        .collect()
}

/// A colour in floating point, `0..=255` per channel.
pub(crate) type Col = [f32; 3];

pub(crate) fn col(c: Rgb) -> Col {
    [f32::from(c[0]), f32::from(c[1]), f32::from(c[2])]
}

pub(crate) fn shaded(c: Rgb, k: f64) -> Col {
    let k = k as f32;
    [
        f32::from(c[0]) * k,
        f32::from(c[1]) * k,
        f32::from(c[2]) * k,
    ]
}

/// `a + (b - a) w`.
pub(crate) fn mix(a: Col, b: Col, w: f32) -> Col {
    [
        a[0] + (b[0] - a[0]) * w,
        a[1] + (b[1] - a[1]) * w,
        a[2] + (b[2] - a[2]) * w,
    ]
}

/// One thing to paint, in screen pixels.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Prim {
    /// A filled polygon.
    Poly { pts: Vec<[f64; 2]>, fill: Col },
    /// A shadow on the ground: a polygon darkening what is under it.
    Shadow { pts: Vec<[f64; 2]> },
    /// A line of some width, with round ends or without.
    Line {
        a: [f64; 2],
        b: [f64; 2],
        width: f64,
        color: Col,
        alpha: f32,
        round: bool,
    },
    /// A filled circle, optionally ringed.
    Disc {
        c: [f64; 2],
        r: f64,
        fill: Col,
        ring: Option<(Col, f64)>,
    },
    /// A shaded ball.
    Ball { c: [f64; 2], r: f64, color: Col },
    /// Several primitives painted together, in order.
    Group(Vec<Prim>),
}

/// Primitives with their depths (painted farthest first).
pub(crate) struct Items {
    pub list: Vec<(f64, Prim)>,
}

/// Pixel sizes of the fixed-size marks (dots, trails, grid lines), scaled by `px`.
pub(crate) const DOT_RADIUS: f64 = 4.5;
pub(crate) const TRAIL_WIDTH: f64 = 2.0;
/// Grid: disc of radius `GRID_REACH` times the framed radius, about five cells across it.
pub(crate) const GRID_REACH: f64 = 3.0;
const GRID_PIECES: usize = 8;
const DISK_SIDES: usize = 48;
const ELL_LAT: usize = 12;
const ELL_LON: usize = 24;
const CYL_SIDES: usize = 20;
/// Segments: width as a fraction of the model's size.
const SEGMENT_WIDTH: f64 = 0.012;

/// The line from `a` to `b` (world) clipped to the camera's near plane, in screen space.
fn clip_line(cam: &Camera, a: V3, b: V3) -> Option<([f64; 2], [f64; 2], f64)> {
    let (mut ca, mut cb) = (cam.camera_coords(a), cam.camera_coords(b));
    if ca[2] < cam.near && cb[2] < cam.near {
        return None;
    }
    if ca[2] < cam.near || cb[2] < cam.near {
        let s = (cam.near - ca[2]) / (cb[2] - ca[2]);
        let m = add(ca, scale(sub(cb, ca), s));
        if ca[2] < cam.near {
            ca = m;
        } else {
            cb = m;
        }
    }
    let (pa, pb) = (cam.screen(ca), cam.screen(cb));
    Some(([pa[0], pa[1]], [pb[0], pb[1]], 0.5 * (ca[2] + cb[2])))
}

/// A polygon (world) in screen space with its mean depth, or `None` when any vertex is
/// closer than the near plane.
fn screen_poly(cam: &Camera, pts: &[V3]) -> Option<(Vec<[f64; 2]>, f64)> {
    let mut out = Vec::with_capacity(pts.len());
    let mut depth = 0.0;
    for p in pts {
        let s = cam.project(*p);
        if s[2] < cam.near {
            return None;
        }
        depth += s[2];
        out.push([s[0], s[1]]);
    }
    Some((out, depth / pts.len() as f64))
}

/// The unit normal of a planar polygon from its diagonals, pointing away from `inside`.
fn outward(pts: &[V3], inside: V3) -> V3 {
    let n = pts.len();
    let d1 = sub(pts[n / 2], pts[0]);
    let d2 = sub(pts[(3 * n / 4).max(1) % n], pts[n / 4]);
    let mut nrm = normalize(cross(d1, d2));
    let c = scale(pts.iter().fold([0.0; 3], |a, p| add(a, *p)), 1.0 / n as f64);
    if dot(nrm, sub(c, inside)) < 0.0 {
        nrm = scale(nrm, -1.0);
    }
    nrm
}

/// Whether a face with outward normal `n` through `p` faces the eye.
fn faces(cam: &Camera, n: V3, p: V3) -> bool {
    dot(n, sub(cam.eye, p)) > 0.0
}

/// A closed shaded face: culled when it looks away.
fn face(items: &mut Items, cam: &Camera, pts: &[V3], n: V3, color: Rgb) {
    if !faces(cam, n, pts[0]) {
        return;
    }
    if let Some((s, d)) = screen_poly(cam, pts) {
        items.list.push((
            d,
            Prim::Poly {
                pts: s,
                fill: shaded(color, cam.shade(n)),
            },
        ));
    }
}

/// The grid lines of a plane, as (alpha-faded) lines painted before everything else.
pub(crate) fn grid_lines(
    setup: &Setup,
    pose: &Pose,
    cam: &Camera,
    target: V3,
    px: f64,
    out: &mut Vec<Prim>,
) {
    for s in &setup.shapes {
        let Shape::Grid { point, up, color } = *s else {
            continue;
        };
        let g0 = pose.pos[point];
        let n = normalize(up);
        let (e1, e2) = plane_basis(n);
        let half = GRID_REACH * setup.radius();
        let cell = nice_step(half / 5.0);
        let rel = sub(target, g0);
        let (cu, cv) = (dot(rel, e1), dot(rel, e2));
        for (dir, other, c0, c1) in [(e1, e2, cu, cv), (e2, e1, cv, cu)] {
            let k0 = ((c0 - half) / cell).ceil() as i64;
            let k1 = ((c0 + half) / cell).floor() as i64;
            for k in k0..=k1 {
                let u = k as f64 * cell;
                let du = u - c0;
                let hv = (half * half - du * du).max(0.0).sqrt();
                let axis = k == 0;
                let base = add(g0, scale(dir, u));
                for piece in 0..GRID_PIECES {
                    let v0 = c1 - hv + 2.0 * hv * piece as f64 / GRID_PIECES as f64;
                    let v1 = c1 - hv + 2.0 * hv * (piece + 1) as f64 / GRID_PIECES as f64;
                    let vm = 0.5 * (v0 + v1) - c1;
                    let rho2 = (du * du + vm * vm) / (half * half);
                    let alpha = (0.85 * (1.0 - rho2)).max(0.0) as f32;
                    let (a, b) = (add(base, scale(other, v0)), add(base, scale(other, v1)));
                    if let Some((sa, sb, _)) = clip_line(cam, a, b) {
                        let color = if axis { shaded(color, 0.8) } else { col(color) };
                        out.push(Prim::Line {
                            a: sa,
                            b: sb,
                            width: if axis { 1.8 * px } else { px },
                            color,
                            alpha,
                            round: false,
                        });
                    }
                }
            }
        }
    }
}

/// How dark shadows are (the opacity of their black).
pub(crate) const SHADOW_ALPHA: f32 = 0.12;

/// The convex hull of plane points, counter-clockwise (Andrew's monotone chain).
pub(crate) fn hull(mut p: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    p.sort_by(|a, b| {
        (a[0], a[1])
            .partial_cmp(&(b[0], b[1]))
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let turn = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut h: Vec<[f64; 2]> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = h.len();
        let pts: Vec<[f64; 2]> = if pass == 0 {
            p.clone()
        } else {
            p.iter().rev().copied().collect()
        };
        for q in pts {
            while h.len() >= start + 2 && turn(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

/// Points around a shape (world), whose hull projected on the ground is its shadow.
fn outline_points(s: &Shape, pose: &Pose) -> Vec<V3> {
    let ring = |c: V3, a: V3, b: V3, n: usize| -> Vec<V3> {
        (0..n)
            .map(|k| {
                let th = core::f64::consts::TAU * k as f64 / n as f64;
                add(c, add(scale(a, th.cos()), scale(b, th.sin())))
            })
            .collect()
    };
    match *s {
        Shape::Disk {
            center,
            frame,
            normal,
            radius,
            ..
        } => {
            let r = &pose.rot[frame];
            let nl = normalize(normal);
            let (n, a) = (rotate(r, nl), rotate(r, perpendicular(nl)));
            let b = cross(n, a);
            ring(pose.pos[center], scale(a, radius), scale(b, radius), 24)
        }
        Shape::Ellipsoid {
            center,
            frame,
            axes,
            ..
        } => {
            let r = &pose.rot[frame];
            let a = [rotate(r, axes[0]), rotate(r, axes[1]), rotate(r, axes[2])];
            let mut out = Vec::with_capacity(7 * 12);
            for i in 0..=6 {
                let th = core::f64::consts::PI * i as f64 / 6.0;
                let c = add(pose.pos[center], scale(a[2], th.cos()));
                out.extend(ring(c, scale(a[0], th.sin()), scale(a[1], th.sin()), 12));
            }
            out
        }
        Shape::Cylinder {
            center,
            frame,
            axis,
            radius,
            length,
            ..
        } => {
            let r = &pose.rot[frame];
            let ax = normalize(rotate(r, axis));
            let u = scale(rotate(r, perpendicular(normalize(axis))), radius);
            let w = scale(cross(ax, normalize(u)), radius);
            let h = scale(ax, 0.5 * length);
            let mut out = ring(add(pose.pos[center], h), u, w, 12);
            out.extend(ring(sub(pose.pos[center], h), u, w, 12));
            out
        }
        Shape::Cuboid {
            center,
            frame,
            half,
            ..
        } => {
            let r = &pose.rot[frame];
            (0..8)
                .map(|k| {
                    let c = [
                        if k & 1 == 0 { -half[0] } else { half[0] },
                        if k & 2 == 0 { -half[1] } else { half[1] },
                        if k & 4 == 0 { -half[2] } else { half[2] },
                    ];
                    add(pose.pos[center], rotate(r, c))
                })
                .collect()
        }
        Shape::Sphere { .. } | Shape::Segment { .. } | Shape::Grid { .. } | Shape::Dot { .. } => {
            Vec::new()
        }
    }
}

/// The shadows of the shapes on the first grid, light straight from above: the hull of
/// each solid's outline (a disc under a sphere, a band under a segment), painted after
/// the grid.
pub(crate) fn shadows(setup: &Setup, pose: &Pose, cam: &Camera, out: &mut Vec<Prim>) {
    let Some((point, up)) = setup.shapes.iter().find_map(|s| match s {
        Shape::Grid { point, up, .. } => Some((*point, *up)),
        _ => None,
    }) else {
        return;
    };
    let (g0, n) = (pose.pos[point], normalize(up));
    if dot(sub(cam.eye, g0), n) <= 0.0 {
        return;
    }
    let (e1, e2) = plane_basis(n);
    let flat = |p: V3| -> [f64; 2] {
        let v = sub(p, g0);
        [dot(v, e1), dot(v, e2)]
    };
    let lift = |q: [f64; 2]| add(g0, add(scale(e1, q[0]), scale(e2, q[1])));
    let above = |p: V3| dot(sub(p, g0), n) > -1e-9 * setup.size;
    let seg_w = SEGMENT_WIDTH * setup.size;
    for s in &setup.shapes {
        match *s {
            Shape::Segment { from, to, .. } => {
                let (a, b) = (pose.pos[from], pose.pos[to]);
                if !(above(a) || above(b)) {
                    continue;
                }
                if let Some((sa, sb, d)) = clip_line(cam, lift(flat(a)), lift(flat(b))) {
                    out.push(Prim::Line {
                        a: sa,
                        b: sb,
                        width: seg_w * cam.f / d,
                        color: [0.0; 3],
                        alpha: SHADOW_ALPHA,
                        round: false,
                    });
                }
                continue;
            }
            Shape::Sphere { center, radius, .. } => {
                let c = pose.pos[center];
                if !above(c) {
                    continue;
                }
                let q = flat(c);
                let pts: Vec<V3> = (0..24)
                    .map(|k| {
                        let th = core::f64::consts::TAU * k as f64 / 24.0;
                        lift([q[0] + radius * th.cos(), q[1] + radius * th.sin()])
                    })
                    .collect();
                if let Some((p, _)) = screen_poly(cam, &pts) {
                    out.push(Prim::Shadow { pts: p });
                }
                continue;
            }
            _ => {}
        }
        let pts = outline_points(s, pose);
        if pts.is_empty() || !pts.iter().any(|p| above(*p)) {
            continue;
        }
        let h = hull(pts.into_iter().map(flat).collect());
        if h.len() < 3 {
            continue;
        }
        let world: Vec<V3> = h.into_iter().map(lift).collect();
        if let Some((p, _)) = screen_poly(cam, &world) {
            out.push(Prim::Shadow { pts: p });
        }
    }
}

/// The trails: each point's path from the start of the track to `t` (inclusive of the
/// interpolated current position).
pub(crate) fn trail_lines(
    setup: &Setup,
    track: &Track,
    pose: &Pose,
    t: f64,
    cam: &Camera,
    px: f64,
    out: &mut Vec<Prim>,
) {
    let (i, _) = track.locate(t);
    let upto = if track.times.get(i + 1).is_some_and(|&s| s <= t) {
        i + 1
    } else {
        i
    };
    for &(p, color) in &setup.trails {
        let mut prev = track.pos[p];
        let pts = (1..=upto.min(track.len() - 1))
            .map(|s| track.pos[s * track.np + p])
            .chain(core::iter::once(pose.pos[p]));
        for q in pts {
            if let Some((a, b, _)) = clip_line(cam, prev, q) {
                out.push(Prim::Line {
                    a,
                    b,
                    width: TRAIL_WIDTH * px,
                    color: col(color),
                    alpha: 0.9,
                    round: true,
                });
            }
            prev = q;
        }
    }
}

/// The shapes at `pose`, each split into primitives with their depths, sorted farthest
/// first (stable: ties keep the scene's order).
pub(crate) fn primitives(setup: &Setup, pose: &Pose, cam: &Camera, px: f64) -> Items {
    let mut items = Items { list: Vec::new() };
    let seg_w = SEGMENT_WIDTH * setup.size;
    for s in &setup.shapes {
        match *s {
            Shape::Grid { .. } => {}
            Shape::Disk {
                center,
                frame,
                normal,
                radius,
                color,
            } => disk(
                &mut items,
                cam,
                pose.pos[center],
                &pose.rot[frame],
                normal,
                radius,
                color,
                px,
            ),
            Shape::Ellipsoid {
                center,
                frame,
                axes,
                color,
            } => {
                let r = &pose.rot[frame];
                let c = pose.pos[center];
                let a = [rotate(r, axes[0]), rotate(r, axes[1]), rotate(r, axes[2])];
                let at = |i: usize, j: usize| -> V3 {
                    let th = core::f64::consts::PI * i as f64 / ELL_LAT as f64;
                    let ph = core::f64::consts::TAU * j as f64 / ELL_LON as f64;
                    let (st, ct) = (th.sin(), th.cos());
                    add(
                        c,
                        add(
                            add(scale(a[0], st * ph.cos()), scale(a[1], st * ph.sin())),
                            scale(a[2], ct),
                        ),
                    )
                };
                for i in 0..ELL_LAT {
                    for j in 0..ELL_LON {
                        let q = [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)];
                        let n = outward(&q, c);
                        face(&mut items, cam, &q, n, color);
                    }
                }
            }
            Shape::Cylinder {
                center,
                frame,
                axis,
                radius,
                length,
                color,
            } => {
                let r = &pose.rot[frame];
                let c = pose.pos[center];
                let ax = normalize(rotate(r, axis));
                let u = rotate(r, perpendicular(normalize(axis)));
                let w = cross(ax, u);
                let h = scale(ax, 0.5 * length);
                let rim = |k: usize| -> V3 {
                    let th = core::f64::consts::TAU * k as f64 / CYL_SIDES as f64;
                    add(scale(u, radius * th.cos()), scale(w, radius * th.sin()))
                };
                for k in 0..CYL_SIDES {
                    let (p, q) = (rim(k), rim(k + 1));
                    let quad = [
                        add(add(c, h), p),
                        add(add(c, h), q),
                        sub(add(c, q), h),
                        sub(add(c, p), h),
                    ];
                    face(&mut items, cam, &quad, normalize(add(p, q)), color);
                }
                for sign in [1.0, -1.0] {
                    let cc = add(c, scale(h, sign));
                    let cap: Vec<V3> = (0..CYL_SIDES).map(|k| add(cc, rim(k))).collect();
                    face(&mut items, cam, &cap, scale(ax, sign), color);
                }
            }
            Shape::Cuboid {
                center,
                frame,
                half,
                color,
            } => {
                let r = &pose.rot[frame];
                let c = pose.pos[center];
                let e: [V3; 3] = core::array::from_fn(|k| {
                    let mut v = [0.0; 3];
                    v[k] = 1.0;
                    rotate(r, v)
                });
                for k in 0..3 {
                    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                    for sign in [1.0, -1.0] {
                        let fc = add(c, scale(e[k], sign * half[k]));
                        let (a, b) = (scale(e[i], half[i]), scale(e[j], half[j]));
                        let quad = [
                            add(add(fc, a), b),
                            sub(add(fc, a), b),
                            sub(sub(fc, a), b),
                            add(sub(fc, a), b),
                        ];
                        face(&mut items, cam, &quad, scale(e[k], sign), color);
                    }
                }
            }
            Shape::Segment { from, to, color } => {
                let (a, b) = (pose.pos[from], pose.pos[to]);
                for k in 0..4 {
                    let pa = add(a, scale(sub(b, a), k as f64 / 4.0));
                    let pb = add(a, scale(sub(b, a), (k + 1) as f64 / 4.0));
                    if let Some((sa, sb, d)) = clip_line(cam, pa, pb) {
                        let width = (seg_w * cam.f / d).max(1.5 * px);
                        items.list.push((
                            d,
                            Prim::Line {
                                a: sa,
                                b: sb,
                                width,
                                color: col(color),
                                alpha: 1.0,
                                round: true,
                            },
                        ));
                    }
                }
            }
            Shape::Sphere {
                center,
                radius,
                color,
            } => {
                let p = cam.project(pose.pos[center]);
                if p[2] > cam.near {
                    items.list.push((
                        p[2],
                        Prim::Ball {
                            c: [p[0], p[1]],
                            r: radius * cam.f / p[2],
                            color: col(color),
                        },
                    ));
                }
            }
            Shape::Dot { point, color } => {
                let p = cam.project(pose.pos[point]);
                if p[2] > cam.near {
                    items.list.push((
                        p[2],
                        Prim::Disc {
                            c: [p[0], p[1]],
                            r: DOT_RADIUS * px,
                            fill: col(color),
                            ring: Some(([255.0; 3], 1.5 * px)),
                        },
                    ));
                }
            }
        }
    }
    items
        .list
        .sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(core::cmp::Ordering::Equal));
    items
}

/// A disk: the face, the tyre around it and four spokes, painted as one.
#[allow(clippy::too_many_arguments)]
fn disk(
    items: &mut Items,
    cam: &Camera,
    c: V3,
    r: &M3,
    normal: V3,
    radius: f64,
    color: Rgb,
    px: f64,
) {
    let nl = normalize(normal);
    let n = rotate(r, nl);
    let a = rotate(r, perpendicular(nl));
    let b = cross(n, a);
    let rim: Vec<V3> = (0..DISK_SIDES)
        .map(|k| {
            let th = core::f64::consts::TAU * k as f64 / DISK_SIDES as f64;
            add(
                c,
                add(scale(a, radius * th.cos()), scale(b, radius * th.sin())),
            )
        })
        .collect();
    let Some((pts, _)) = screen_poly(cam, &rim) else {
        return;
    };
    let pc = cam.project(c);
    let depth = pc[2];
    let face = shaded(color, cam.shade(n));
    let tyre = shaded(color, 0.45);
    let spoke = mix(face, [255.0; 3], 0.55);
    let tyre_w = (0.08 * radius * cam.f / depth).max(1.5 * px);
    let spoke_w = (0.03 * radius * cam.f / depth).max(px);
    let mut group = vec![Prim::Poly {
        pts: pts.clone(),
        fill: face,
    }];
    for k in 0..4 {
        let th = core::f64::consts::FRAC_PI_2 * k as f64;
        let tip = add(
            c,
            add(
                scale(a, 0.92 * radius * th.cos()),
                scale(b, 0.92 * radius * th.sin()),
            ),
        );
        let pt = cam.project(tip);
        group.push(Prim::Line {
            a: [pc[0], pc[1]],
            b: [pt[0], pt[1]],
            width: spoke_w,
            color: spoke,
            alpha: 1.0,
            round: true,
        });
    }
    for k in 0..DISK_SIDES {
        group.push(Prim::Line {
            a: pts[k],
            b: pts[(k + 1) % DISK_SIDES],
            width: tyre_w,
            color: tyre,
            alpha: 1.0,
            round: true,
        });
    }
    items.list.push((depth, Prim::Group(group)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::private::doc_models::Unicycle;

    fn track(t_end: f64, samples: usize) -> (Unicycle, Track) {
        let u = Unicycle::default();
        let tr = u
            .ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], t_end, samples)
            .unwrap();
        let track = Track::from_trajectory(&u, &tr, DEFAULT_MAX_RATE, None).unwrap();
        (u, track)
    }

    #[test]
    fn tracks_thin_fine_and_fill_coarse_trajectories() {
        // 10 s at 1000 samples per second: thinned to 240 per second
        let (_, t) = track(10.0, 10_000);
        assert!(t.len() <= 2401 && t.len() > 2000, "{}", t.len());
        assert_eq!((t.times[0], *t.times.last().unwrap()), (0.0, 10.0));
        assert!(t.times.windows(2).all(|w| w[1] > w[0]));
        // 10 s in 10 samples: filled in to 60 per second
        let (u, t) = track(10.0, 10);
        assert_eq!(t.len(), 601);
        // the filled-in poses are the interpolated states' (Hermite: close to exact)
        let exact = u.exact(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], t.times[35]);
        let mut p = [[0.0; 3]; 7];
        u.point_positions(0.0, &exact[..4], &mut p).unwrap();
        let c = t.pos[35 * t.np + 4];
        assert!(norm(sub(c, p[4])) < 2e-2, "{c:?} {:?}", p[4]);
        assert_eq!(
            (t.np, t.nf, t.pos.len(), t.rot.len()),
            (7, 3, 601 * 7, 601 * 3)
        );
    }

    #[test]
    fn long_runs_keep_a_bounded_number_of_samples() {
        let u = Unicycle::default();
        // 1000 s at 100 samples per second: 100 001 samples, thinned to 50 000
        let tr = u
            .ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.01], 1000.0, 100_000)
            .unwrap();
        let t = Track::from_trajectory(&u, &tr, DEFAULT_MAX_RATE, None).unwrap();
        assert_eq!(t.len(), 50_001);
        // 1000 s in 100 samples: filled to 25 per second, not 60
        let tr = u
            .ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.01], 1000.0, 100)
            .unwrap();
        let t = Track::from_trajectory(&u, &tr, DEFAULT_MAX_RATE, None).unwrap();
        assert_eq!(t.len(), 25_001);
    }

    #[test]
    fn spans_and_errors() {
        let u = Unicycle::default();
        let tr = u.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 2.0, 200).unwrap();
        let t = Track::from_trajectory(&u, &tr, 240.0, Some((0.5, 1.0))).unwrap();
        assert_eq!((t.times[0], *t.times.last().unwrap()), (0.5, 1.0));
        assert!(matches!(
            Track::from_trajectory(&u, &tr, 240.0, Some((1.0, 3.0))),
            Err(Error::InvalidOptions(_))
        ));
        let empty = Trajectory::new::<Unicycle>();
        assert!(matches!(
            Track::from_trajectory(&u, &empty, 240.0, None),
            Err(Error::InvalidOptions(_))
        ));
        let other = Trajectory::from_names(&["x"], &["v"]);
        assert!(matches!(
            Track::from_trajectory(&u, &other, 240.0, None),
            Err(Error::Dimension { .. })
        ));
        assert!(matches!(
            Track::single(&u, 0.0, &[0.0; 3]),
            Err(Error::Dimension { .. })
        ));
        assert!(matches!(
            Track::single(&u, 0.0, &[f64::NAN, 0.0, 0.0, 0.0]),
            Err(Error::NonFinite { .. })
        ));
        // q or the whole state
        assert_eq!(
            Track::single(&u, 0.0, &[1.0, 2.0, 0.0, 0.0]).unwrap().pos,
            Track::single(&u, 0.0, &[1.0, 2.0, 0.0, 0.0, 5.0, 6.0])
                .unwrap()
                .pos
        );
    }

    #[test]
    fn poses_interpolate_between_samples() {
        let (_, t) = track(1.0, 10);
        let mut pose = Pose::default();
        t.pose_at(t.times[3], &mut pose);
        assert_eq!(pose.pos[..], t.pos[3 * t.np..4 * t.np]);
        let mid = 0.5 * (t.times[3] + t.times[4]);
        t.pose_at(mid, &mut pose);
        let (a, b) = (t.pos[3 * t.np + 4], t.pos[4 * t.np + 4]);
        assert!(norm(sub(pose.pos[4], scale(add(a, b), 0.5))) < 1e-12);
        // orientations stay (nearly) rotations
        for r in &pose.rot {
            for col in [0, 1, 2].map(|c| [r[0][c], r[1][c], r[2][c]]) {
                assert!((norm(col) - 1.0).abs() < 1e-12);
            }
        }
        // clamped outside
        t.pose_at(-1.0, &mut pose);
        assert_eq!(pose.pos[..], t.pos[..t.np]);
    }

    #[test]
    fn setup_frames_and_follows() {
        let (u, t) = track(10.0, 1000);
        let s = setup(&u, &t, &Animation::default()).unwrap();
        // the unicycle is about 1.1 m tall; its 10 s ride spans a 6 m circle: followed
        assert!(s.size > 1.0 && s.size < 2.0, "{}", s.size);
        assert!(s.follow);
        assert_eq!(s.up, [0.0, 0.0, 1.0]);
        assert_eq!(s.shapes.len(), u.scene().len());
        // a short ride is shown whole
        let (u, t) = track(0.5, 50);
        let s = setup(&u, &t, &Animation::default()).unwrap();
        assert!(!s.follow);
        // bad shapes and unknown trail points are errors
        let bad = Animation::default().shape(Shape::Dot {
            point: 7,
            color: [0; 3],
        });
        assert!(matches!(setup(&u, &t, &bad), Err(Error::InvalidOptions(_))));
        let bad = Animation::default().shape(Shape::Disk {
            center: 0,
            frame: 3,
            normal: [0.0, 0.0, 1.0],
            radius: 1.0,
            color: [0; 3],
        });
        assert!(matches!(setup(&u, &t, &bad), Err(Error::InvalidOptions(_))));
        let bad = Animation::default().shape(Shape::Sphere {
            center: 0,
            radius: -1.0,
            color: [0; 3],
        });
        assert!(matches!(setup(&u, &t, &bad), Err(Error::InvalidOptions(_))));
        let bad = Animation::default().trail("nowhere", [0; 3]);
        assert!(matches!(
            setup(&u, &t, &bad),
            Err(Error::UnknownName { .. })
        ));
    }

    #[test]
    fn primitives_are_sorted_far_to_near_and_culled() {
        let (u, t) = track(1.0, 100);
        let s = setup(&u, &t, &Animation::default()).unwrap();
        let mut pose = Pose::default();
        t.pose_at(0.3, &mut pose);
        let cam = Camera::new(&s.view_at(&t, 0.3), 800.0, 600.0);
        let items = primitives(&s, &pose, &cam, 1.0);
        assert!(items.list.windows(2).all(|w| w[0].0 >= w[1].0));
        let polys = items
            .list
            .iter()
            .filter(|(_, p)| matches!(p, Prim::Poly { .. }))
            .count();
        // the ellipsoid's 288 faces, the cylinder's 22 and the box's 6: about half face us
        assert!(polys > 110 && polys < 210, "{polys}");
        assert!(items.list.iter().any(|(_, p)| matches!(p, Prim::Group(_))));
        assert!(items
            .list
            .iter()
            .any(|(_, p)| matches!(p, Prim::Ball { .. })));
        let mut lines = Vec::new();
        grid_lines(&s, &pose, &cam, s.view_at(&t, 0.3).target, 1.0, &mut lines);
        assert!(lines.len() > 50);
    }

    #[test]
    fn hulls_and_shadows() {
        let square = vec![
            [0.0, 0.0],
            [1.0, 0.0],
            [0.5, 0.5],
            [1.0, 1.0],
            [0.0, 1.0],
            [0.2, 0.7],
            [1.0, 0.0],
        ];
        assert_eq!(
            hull(square),
            vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
        );
        assert_eq!(hull(vec![[1.0, 2.0], [1.0, 2.0]]), vec![[1.0, 2.0]]);
        // the unicycle's shadows: wheel, hub, saddle, torso (hulls), head (a disc), fork
        // (a band), all on the ground
        let (u, t) = track(1.0, 100);
        let s = setup(&u, &t, &Animation::default()).unwrap();
        let mut pose = Pose::default();
        t.pose_at(0.5, &mut pose);
        let view = s.view_at(&t, 0.5);
        let cam = Camera::new(&view, 800.0, 600.0);
        let mut out = Vec::new();
        shadows(&s, &pose, &cam, &mut out);
        let polys = out
            .iter()
            .filter(|p| matches!(p, Prim::Shadow { .. }))
            .count();
        assert_eq!((polys, out.len()), (5, 6));
        // seen from below the ground, none
        let below = Camera::new(&View { el: -0.3, ..view }, 800.0, 600.0);
        out.clear();
        shadows(&s, &pose, &below, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn framing_fits_the_model_in_the_picture() {
        for (t_end, follow) in [(10.0, true), (0.5, false)] {
            let (u, t) = track(t_end, 100);
            let s = setup(&u, &t, &Animation::default()).unwrap();
            assert_eq!(s.follow, follow);
            let mut pose = Pose::default();
            let mut widest = 0.0f64;
            for k in 0..=20 {
                let time = t_end * k as f64 / 20.0;
                t.pose_at(time, &mut pose);
                let cam = Camera::new(&s.view_at(&t, time), 800.0, 600.0);
                // every drawn point (and the disk's top) inside the picture, with a margin
                for p in [1, 2, 3, 4, 5, 6] {
                    let q = cam.project(pose.pos[p]);
                    let off = ((q[0] - 400.0).abs() / 300.0).max((q[1] - 300.0).abs() / 300.0);
                    assert!(off < 0.9, "point {p} at t = {time}: {q:?}");
                    widest = widest.max(off);
                }
            }
            // and not lost in the middle either
            assert!(widest > 0.4, "{widest}");
        }
    }

    #[test]
    fn smoothing_averages_within_the_window() {
        let times: Vec<f64> = (0..=10).map(|i| i as f64 * 0.1).collect();
        let values: Vec<V3> = times.iter().map(|&t| [t, 0.0, 1.0]).collect();
        let s = smooth(&times, &values, 0.25);
        // interior: symmetric window, the mean of a linear function is its middle value
        assert!((s[5][0] - 0.5).abs() < 1e-12 && s[5][2] == 1.0);
        // at the ends the window narrows: no lag
        assert!(s[0][0].abs() < 1e-12 && (s[10][0] - 1.0).abs() < 1e-12);
        assert!((s[1][0] - 0.1).abs() < 1e-12);
    }
}
