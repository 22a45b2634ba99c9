//! What is painted under the shapes: the planes' grid lines, the uneven grounds' cells,
//! the shapes' shadows on the first plane or else the first ground (hulls of their
//! outlines) and the points' trails.

use alloc::vec::Vec;

use super::draw::{
    clip_line, col, screen_poly, shaded, Prim, GRID_PIECES, GRID_REACH, SEGMENT_WIDTH, TRAIL_WIDTH,
};
use super::setup::{Patch, Setup};
use super::track::{Pose, Track};
use crate::viz::camera::{
    add, cross, dot, nice_step, normalize, perpendicular, plane_basis, rotate, scale, sub, Camera,
    V3,
};
use crate::Shape;

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

/// The cells `0..n` along one direction of a patch (cell `k` centred at `c0 + (k + 0.5)
/// d`), farthest from `e` first: the two ends walked inwards, without allocating.
pub(super) struct FarToNear {
    lo: usize,
    hi: usize,
    c0: f64,
    d: f64,
    e: f64,
}

impl Iterator for FarToNear {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.lo >= self.hi {
            return None;
        }
        let dist = |k: usize| (self.c0 + (k as f64 + 0.5) * self.d - self.e).abs();
        if dist(self.lo) >= dist(self.hi - 1) {
            self.lo += 1;
            Some(self.lo - 1)
        } else {
            self.hi -= 1;
            Some(self.hi)
        }
    }
}

pub(super) fn far_to_near(n: usize, c0: f64, d: f64, e: f64) -> FarToNear {
    FarToNear {
        lo: 0,
        hi: n,
        c0,
        d,
        e,
    }
}

/// The cells of every ground's patch as shaded quadrilaterals with their lines, painted
/// before the shapes (like the plane grid) and among themselves from the farthest to the
/// nearest: rows along `v` by decreasing distance from the eye, and within each row the
/// cells along `u` likewise. What can hide a cell of a height field from an eye above it
/// lies between the two in both directions, so it comes later in this order.
pub(crate) fn ground_cells(setup: &Setup, cam: &Camera, px: f64, out: &mut Vec<Prim>) {
    let (w, h) = (2.0 * cam.cx, 2.0 * cam.cy);
    for g in &setup.grounds {
        let (cu, cv) = (g.nu.saturating_sub(1), g.nv.saturating_sub(1));
        for j in far_to_near(cv, g.v0, g.dv, cam.eye[1]) {
            for i in far_to_near(cu, g.u0, g.du, cam.eye[0]) {
                let c = [
                    g.at(i, j),
                    g.at(i + 1, j),
                    g.at(i + 1, j + 1),
                    g.at(i, j + 1),
                ];
                if c.iter().any(|p| !p[2].is_finite()) {
                    continue;
                }
                let s = c.map(|p| cam.project(p));
                let off = |k: usize, lo: f64, hi: f64| {
                    s.iter().all(|p| p[k] < lo) || s.iter().all(|p| p[k] > hi)
                };
                if s.iter().any(|p| p[2] < cam.near) || off(0, 0.0, w) || off(1, 0.0, h) {
                    continue;
                }
                let n = normalize(cross(sub(c[2], c[0]), sub(c[3], c[1])));
                let shade = cam.shade(n);
                let pts = s.map(|p| [p[0], p[1]]);
                out.push(Prim::Quad {
                    pts,
                    fill: shaded(g.color, shade),
                });
                // the lines on the cell's edges, after it; both cells of an edge draw it,
                // so that the later one does not cover half of it
                let ink = shaded(g.color, 0.8 * shade);
                for (on, a, b) in [
                    (g.line(0, i), 0, 3),
                    (g.line(0, i + 1), 1, 2),
                    (g.line(1, j), 0, 1),
                    (g.line(1, j + 1), 3, 2),
                ] {
                    if on {
                        out.push(Prim::Line {
                            a: pts[a],
                            b: pts[b],
                            width: px,
                            color: ink,
                            alpha: 1.0,
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
        Shape::Torus {
            center,
            frame,
            normal,
            major,
            crown,
            ..
        } => {
            // the outer equator and the two circles on the crown's sides: their hull is
            // the tyre's footprint whichever way it leans
            let r = &pose.rot[frame];
            let nl = normalize(normal);
            let (n, a) = (rotate(r, nl), rotate(r, perpendicular(nl)));
            let b = cross(n, a);
            let c = pose.pos[center];
            let outer = major + crown;
            let mut out = ring(c, scale(a, outer), scale(b, outer), 24);
            for side in [crown, -crown] {
                let cc = add(c, scale(n, side));
                out.extend(ring(cc, scale(a, major), scale(b, major), 24));
            }
            out
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
        Shape::Sphere { .. }
        | Shape::Segment { .. }
        | Shape::Grid { .. }
        | Shape::Ground { .. }
        | Shape::Dot { .. } => Vec::new(),
    }
}

/// What shadows fall on: the first plane, else the first uneven ground.
enum Floor<'a> {
    /// A point of the plane, its unit normal and a basis of it.
    Plane { g0: V3, n: V3, e1: V3, e2: V3 },
    /// A ground, through its samples: root `(x, y)` on it, `z` up.
    Ground(&'a Patch),
}

impl Floor<'_> {
    /// Coordinates on the floor of `p`'s foot (light straight from above).
    fn flat(&self, p: V3) -> [f64; 2] {
        match self {
            Floor::Plane { g0, e1, e2, .. } => {
                let v = sub(p, *g0);
                [dot(v, *e1), dot(v, *e2)]
            }
            Floor::Ground(_) => [p[0], p[1]],
        }
    }

    /// The point on the floor at coordinates `q`.
    fn lift(&self, q: [f64; 2]) -> V3 {
        match self {
            Floor::Plane { g0, e1, e2, .. } => add(*g0, add(scale(*e1, q[0]), scale(*e2, q[1]))),
            Floor::Ground(g) => [q[0], q[1], g.height(q[0], q[1])],
        }
    }

    /// How far `p` is above the floor.
    fn height_of(&self, p: V3) -> f64 {
        match self {
            Floor::Plane { g0, n, .. } => dot(sub(p, *g0), *n),
            Floor::Ground(g) => p[2] - g.height(p[0], p[1]),
        }
    }
}

/// The shadows of the shapes on the first plane's grid, else on the first ground (the
/// hulls lifted onto its sampled surface), light straight from above: the hull of each
/// solid's outline (a disc under a sphere, a band under a segment), painted after the
/// grid and the ground.
pub(crate) fn shadows(setup: &Setup, pose: &Pose, cam: &Camera, out: &mut Vec<Prim>) {
    let plane = setup.shapes.iter().find_map(|s| match s {
        Shape::Grid { point, up, .. } => Some((*point, *up)),
        _ => None,
    });
    let floor = match (plane, setup.grounds.first()) {
        (Some((point, up)), _) => {
            let n = normalize(up);
            let (e1, e2) = plane_basis(n);
            Floor::Plane {
                g0: pose.pos[point],
                n,
                e1,
                e2,
            }
        }
        (None, Some(g)) => Floor::Ground(g),
        (None, None) => return,
    };
    // seen from below the floor, no shadows
    let eye = floor.height_of(cam.eye);
    if eye.is_nan() || eye <= 0.0 {
        return;
    }
    let flat = |p: V3| floor.flat(p);
    let lift = |q: [f64; 2]| floor.lift(q);
    let above = |p: V3| floor.height_of(p) > -1e-9 * setup.size;
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
