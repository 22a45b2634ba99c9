//! The static part of a scene: the shapes (checked against the model), the trails, the up
//! direction, the camera's framing, for following the model or showing the whole motion,
//! and the heights of uneven grounds sampled over the region the motion covers.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::track::Track;
use crate::geometry::Rgb;
use crate::viz::camera::{add, dot, nice_step, norm, normalize, scale, sub, Camera, View, V3};
use crate::viz::Animation;
use crate::{Error, Geometry, Shape};

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
    /// The sampled heights of every [`Shape::Ground`] of `shapes`, in their order.
    pub grounds: Vec<Patch>,
}

/// A ground's heights sampled once, when the scene is set up: the page cannot call the
/// model at view time, and the pictures should not call it per frame.
///
/// `nu x nv` samples over the root's `(x, y) = (u, v)`: `z[j * nu + i] = h(u0 + i du,
/// v0 + j dv)` (`u` fastest; NaN where `h` is not finite). The samples are aligned to
/// multiples of the cell, and every `every`-th sample line (those with `(off[0] + i) %
/// every == 0` along `u`, likewise along `v`) is a line drawn on the surface, at the
/// multiples of a "nice" step like the plane grid's.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Patch {
    /// The index of its [`Shape::Ground`] in [`Setup::shapes`].
    pub shape: usize,
    pub u0: f64,
    pub v0: f64,
    pub du: f64,
    pub dv: f64,
    pub nu: usize,
    pub nv: usize,
    pub z: Vec<f64>,
    pub color: Rgb,
    pub every: usize,
    pub off: [usize; 2],
}

/// Cells across the longer side of a ground's patch (about: the cells are square and
/// fit a whole number of them between the lines).
const GROUND_CELLS: f64 = 48.0;
/// Lines across the longer side of a ground's patch (about: they are at a nice step).
const GROUND_LINES: f64 = 8.0;

impl Patch {
    /// The sample `(i, j)` as a point (root components).
    pub(crate) fn at(&self, i: usize, j: usize) -> V3 {
        [
            self.u0 + i as f64 * self.du,
            self.v0 + j as f64 * self.dv,
            self.z[j * self.nu + i],
        ]
    }

    /// Whether sample line `i` along `u` (`axis` 0) or `v` (1) is drawn.
    pub(crate) fn line(&self, axis: usize, i: usize) -> bool {
        (self.off[axis] + i).is_multiple_of(self.every)
    }

    /// The height at `(u, v)`, bilinear between the samples and held at the patch's edge
    /// beyond it (where shadows fall).
    pub(crate) fn height(&self, u: f64, v: f64) -> f64 {
        let cell = |x: f64, n: usize| {
            let x = x.clamp(0.0, (n - 1) as f64);
            let k = (x.floor() as usize).min(n.saturating_sub(2));
            (k, x - k as f64)
        };
        let (i, a) = cell((u - self.u0) / self.du, self.nu);
        let (j, b) = cell((v - self.v0) / self.dv, self.nv);
        let z = |i: usize, j: usize| self.z[j.min(self.nv - 1) * self.nu + i.min(self.nu - 1)];
        let lo = z(i, j) + (z(i + 1, j) - z(i, j)) * a;
        let hi = z(i, j + 1) + (z(i + 1, j + 1) - z(i, j + 1)) * a;
        lo + (hi - lo) * b
    }
}

/// The heights of ground `ground` of `model` over `lo..hi` (root `x`, `y`): square cells,
/// about [`GROUND_CELLS`] across the longer side, aligned to multiples of the cell, with a
/// line every nice step (about [`GROUND_LINES`] across).
fn sample_ground<M: Geometry>(
    model: &M,
    (shape, ground, color): (usize, usize, Rgb),
    lo: [f64; 2],
    hi: [f64; 2],
) -> Patch {
    let long = (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let step = nice_step(long / GROUND_LINES);
    let every = ((step * GROUND_CELLS / long).round() as usize).max(1);
    let cell = step / every as f64;
    // whole cells from a multiple of the cell, so that lines fall on multiples of `step`
    let first = |x: f64| (x / cell).floor() as i64;
    let last = |x: f64| (x / cell).ceil() as i64;
    let (i0, j0) = (first(lo[0]), first(lo[1]));
    let nu = (last(hi[0]) - i0).max(1) as usize + 1;
    let nv = (last(hi[1]) - j0).max(1) as usize + 1;
    let (u0, v0) = (i0 as f64 * cell, j0 as f64 * cell);
    let mut z = Vec::with_capacity(nu * nv);
    for j in 0..nv {
        for i in 0..nu {
            let h = model.ground_height(ground, u0 + i as f64 * cell, v0 + j as f64 * cell);
            z.push(if h.is_finite() { h } else { f64::NAN });
        }
    }
    let off = |k: i64| k.rem_euclid(every as i64) as usize;
    Patch {
        shape,
        u0,
        v0,
        du: cell,
        dv: cell,
        nu,
        nv,
        z,
        color,
        every,
        off: [off(i0), off(j0)],
    }
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
        // the outer radius: the crown's circle plus the crown
        Shape::Torus {
            center,
            major,
            crown,
            ..
        } => (vec![center], major.abs() + crown.abs()),
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
        // planes and grounds are drawn around what moves; they frame nothing
        Shape::Grid { .. } | Shape::Ground { .. } => (vec![], 0.0),
        Shape::Dot { point, .. } => (vec![point], 0.0),
    }
}

fn shape_name(s: &Shape) -> &'static str {
    match s {
        Shape::Disk { .. } => "Disk",
        Shape::Torus { .. } => "Torus",
        Shape::Ellipsoid { .. } => "Ellipsoid",
        Shape::Segment { .. } => "Segment",
        Shape::Sphere { .. } => "Sphere",
        Shape::Cylinder { .. } => "Cylinder",
        Shape::Cuboid { .. } => "Cuboid",
        Shape::Grid { .. } => "Grid",
        Shape::Ground { .. } => "Ground",
        Shape::Dot { .. } => "Dot",
    }
}

/// `Err` unless every index of `shape` is a point, frame or ground of the model (`np`, `nf`,
/// `ng` of them) and every length is finite (radii and lengths positive).
fn check_shape(i: usize, s: &Shape, [np, nf, ng]: [usize; 3]) -> Result<(), Error> {
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
        Shape::Torus {
            center,
            frame,
            normal,
            major,
            crown,
            ..
        } => (vec![center], vec![frame], vec![major, crown], vec![normal]),
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
        Shape::Ground { ground, .. } => {
            if ground >= ng {
                return bad(format!(
                    "refers to ground {ground}; the model has {ng} grounds"
                ));
            }
            (vec![], vec![], vec![], vec![])
        }
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
    if let Shape::Ellipsoid { axes, .. } = s
        && axes.iter().all(|a| norm(*a) == 0.0)
    {
        return bad("has no extent (all axes zero)".into());
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
        check_shape(i, s, [np, nf, M::GROUNDS.len()])?;
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
    let grounds = ground_patches(model, &shapes, &whole, &centroids, size);
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
        grounds,
    })
}

/// The grounds among `shapes` sampled over the region the motion covers: the bounding box
/// of the whole motion (`whole`, else of the `centroids`) in root `x`, `y`, widened on
/// every side by a third of its larger side and at least by the model's `size` (so that
/// the model never stands at the patch's edge, and the followed view shows ground around
/// it).
fn ground_patches<M: Geometry>(
    model: &M,
    shapes: &[Shape],
    whole: &(V3, V3),
    centroids: &[V3],
    size: f64,
) -> Vec<Patch> {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    let mut grow = |a: V3, b: V3| {
        for k in 0..2 {
            lo[k] = lo[k].min(a[k]);
            hi[k] = hi[k].max(b[k]);
        }
    };
    if whole.0[0].is_finite() {
        grow(whole.0, whole.1);
    } else {
        for c in centroids {
            grow(*c, *c);
        }
    }
    if !lo[0].is_finite() {
        (lo, hi) = ([0.0; 2], [0.0; 2]);
    }
    let margin = ((hi[0] - lo[0]).max(hi[1] - lo[1]) / 3.0).max(size);
    let (lo, hi) = (lo.map(|x| x - margin), hi.map(|x| x + margin));
    shapes
        .iter()
        .enumerate()
        .filter_map(|(k, s)| match *s {
            Shape::Ground { ground, color } => {
                Some(sample_ground(model, (k, ground, color), lo, hi))
            }
            _ => None,
        })
        .collect()
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
pub(super) fn smooth(times: &[f64], values: &[V3], half: f64) -> Vec<V3> {
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
