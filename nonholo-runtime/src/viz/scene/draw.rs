//! The screen-space primitives, and the shapes at one pose split into them, with their
//! depths, in painter's order.

use alloc::vec;
use alloc::vec::Vec;

use super::setup::Setup;
use super::track::{Pose, M3};
use crate::geometry::Rgb;
use crate::viz::camera::{
    add, cross, dot, normalize, perpendicular, rotate, scale, sub, Camera, V3,
};
use crate::Shape;

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
    /// A filled quadrilateral: a cell of a ground, thousands per frame, so on the stack.
    Quad { pts: [[f64; 2]; 4], fill: Col },
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
pub(super) const GRID_PIECES: usize = 8;
const DISK_SIDES: usize = 48;
/// A torus: faces around the axle and around the crown.
const TORUS_SIDES: usize = 48;
const TORUS_CROWN_SIDES: usize = 10;
/// Every this many faces around the axle, a darker band across the crown: a torus is
/// symmetric about its axle, and without the bands its rolling would not show (a disk has
/// its spokes).
const TORUS_MARK_EVERY: usize = 12;
const ELL_LAT: usize = 12;
const ELL_LON: usize = 24;
const CYL_SIDES: usize = 20;
/// Segments: width as a fraction of the model's size.
pub(super) const SEGMENT_WIDTH: f64 = 0.012;

/// The line from `a` to `b` (world) clipped to the camera's near plane, in screen space.
pub(super) fn clip_line(cam: &Camera, a: V3, b: V3) -> Option<([f64; 2], [f64; 2], f64)> {
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
pub(super) fn screen_poly(cam: &Camera, pts: &[V3]) -> Option<(Vec<[f64; 2]>, f64)> {
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

/// The shapes at `pose`, each split into primitives with their depths, sorted farthest
/// first (stable: ties keep the scene's order).
pub(crate) fn primitives(setup: &Setup, pose: &Pose, cam: &Camera, px: f64) -> Items {
    let mut items = Items { list: Vec::new() };
    let seg_w = SEGMENT_WIDTH * setup.size;
    for s in &setup.shapes {
        match *s {
            // painted under the shapes (backdrop)
            Shape::Grid { .. } | Shape::Ground { .. } => {}
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
            Shape::Torus {
                center,
                frame,
                normal,
                major,
                crown,
                color,
            } => torus(
                &mut items,
                cam,
                pose.pos[center],
                &pose.rot[frame],
                normal,
                [major, crown],
                color,
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

/// A torus of radii `[major, crown]`: a mesh of shaded faces, each at its own depth (so
/// that the tyre's near side covers its far side and what it surrounds, like a hub), those
/// looking away culled, with a darker band across the crown every [`TORUS_MARK_EVERY`]
/// faces.
fn torus(items: &mut Items, cam: &Camera, c: V3, r: &M3, normal: V3, radii: [f64; 2], color: Rgb) {
    let [major, crown] = radii;
    let nl = normalize(normal);
    let n = rotate(r, nl);
    let a = rotate(r, perpendicular(nl));
    let b = cross(n, a);
    // the unit vector at angle `th` around the axle, in the mid-plane
    let radial = |th: f64| add(scale(a, th.cos()), scale(b, th.sin()));
    // the cosines and sines once per torus, on the stack (no allocation per frame)
    let around: [V3; TORUS_SIDES + 1] =
        core::array::from_fn(|i| radial(core::f64::consts::TAU * i as f64 / TORUS_SIDES as f64));
    let section: [(f64, f64); TORUS_CROWN_SIDES + 1] = core::array::from_fn(|j| {
        let ph = core::f64::consts::TAU * j as f64 / TORUS_CROWN_SIDES as f64;
        (ph.cos(), ph.sin())
    });
    let at = |i: usize, j: usize| -> V3 {
        let (cp, sp) = section[j];
        add(
            c,
            add(scale(around[i], major + crown * cp), scale(n, crown * sp)),
        )
    };
    let mark = color.map(|x| (u16::from(x) * 7 / 10) as u8);
    for i in 0..TORUS_SIDES {
        let paint = if i % TORUS_MARK_EVERY == 0 {
            mark
        } else {
            color
        };
        let out = radial(core::f64::consts::TAU * (i as f64 + 0.5) / TORUS_SIDES as f64);
        for j in 0..TORUS_CROWN_SIDES {
            let q = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
            // the surface's normal in the face's middle, away from the crown's centre line
            let ph = core::f64::consts::TAU * (j as f64 + 0.5) / TORUS_CROWN_SIDES as f64;
            let nrm = add(scale(out, ph.cos()), scale(n, ph.sin()));
            face(items, cam, &q, nrm, paint);
        }
    }
}
