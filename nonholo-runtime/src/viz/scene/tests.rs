//! The scene's tests: tracks, set-up and framing, primitives, grounds, shadows.

use super::backdrop::{far_to_near, hull};
use super::setup::smooth;
use super::*;
use crate::private::doc_models::Unicycle;
use crate::viz::camera::{add, norm, scale, sub, Camera, View, V3};
use crate::viz::tests::{Bumpy, ROAD};
use crate::viz::Animation;
use crate::{Error, Geometry, Shape, Trajectory};

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

#[test]
fn a_torus_is_framed_checked_and_split_into_faces() {
    // a tyre on the unicycle's wheel (centre `W.center`, frame `W`)
    let torus = |frame: usize, normal: [f64; 3], major: f64, crown: f64| Shape::Torus {
        center: 4,
        frame,
        normal,
        major,
        crown,
        color: [200, 60, 60],
    };
    let u = Unicycle::default();
    let t = Track::single(&u, 0.0, &[0.0; 4]).unwrap();
    // outer radius 0.3, seen along its axle (`y`, from the `y` side), nothing else drawn
    let look = Animation::default()
        .default_scene(false)
        .camera(90.0, 0.0)
        .shape(torus(2, [0.0, 1.0, 0.0], 0.27, 0.03));
    let s = setup(&u, &t, &look).unwrap();
    // framed by its outer radius, major + crown: a cube of side 0.6 about its centre
    assert!((s.size - 0.6 * 3f64.sqrt()).abs() < 1e-12, "{}", s.size);
    let mut pose = Pose::default();
    t.pose_at(0.0, &mut pose);
    let cam = Camera::new(&s.view_at(&t, 0.0), 800.0, 600.0);
    let items = primitives(&s, &pose, &cam, 1.0);
    assert!(items.list.windows(2).all(|w| w[0].0 >= w[1].0));
    // 48 x 10 faces, those looking away culled: about half are left, all polygons
    let fills: Vec<Col> = items
        .list
        .iter()
        .map(|(_, p)| match p {
            Prim::Poly { pts, fill } => {
                assert_eq!(pts.len(), 4);
                *fill
            }
            other => panic!("not a face: {other:?}"),
        })
        .collect();
    assert!(fills.len() > 150 && fills.len() < 330, "{}", fills.len());
    // every face within the outer radius of the centre, none in the hole (seen face on)
    let c = cam.project(pose.pos[4]);
    let px_per_m = cam.f / c[2];
    for (_, p) in &items.list {
        let Prim::Poly { pts, .. } = p else {
            unreachable!()
        };
        for q in pts {
            let d = (q[0] - c[0]).hypot(q[1] - c[1]) / px_per_m;
            assert!(d > 0.23 && d < 0.31, "{d}");
        }
    }
    // the four darker bands: some faces at 0.7 of the others' red
    let reds: Vec<f32> = fills.iter().map(|f| f[0]).collect();
    let (lo, hi) = reds
        .iter()
        .fold((f32::MAX, 0.0f32), |(l, h), &r| (l.min(r), h.max(r)));
    assert!(lo < 0.75 * hi, "{lo} {hi}");
    // its shadow on a ground: one hull
    let grounded = look.clone().shape(Shape::Grid {
        point: 0,
        up: [0.0, 0.0, 1.0],
        color: [160, 168, 180],
    });
    let s = setup(&u, &t, &grounded).unwrap();
    let cam = Camera::new(
        &View {
            el: 0.5,
            ..s.view_at(&t, 0.0)
        },
        800.0,
        600.0,
    );
    let mut out = Vec::new();
    shadows(&s, &pose, &cam, &mut out);
    assert!(matches!(out[..], [Prim::Shadow { .. }]), "{out:?}");
    // a crown or a major radius that is not positive, an axle of zero length, a frame
    // the model does not have: errors
    for bad in [
        torus(2, [0.0, 1.0, 0.0], 0.27, 0.0),
        torus(2, [0.0, 1.0, 0.0], f64::NAN, 0.03),
        torus(2, [0.0; 3], 0.27, 0.03),
        torus(3, [0.0, 1.0, 0.0], 0.27, 0.03),
    ] {
        let a = Animation::default().shape(bad);
        match setup(&u, &t, &a) {
            Err(Error::InvalidOptions(m)) => assert!(m.contains("(Torus)"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_ground_is_sampled_around_the_motion_and_replaces_the_grid() {
    let u = Unicycle::default();
    let bumpy = Bumpy(u);
    let tr = u.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 3.0, 300).unwrap();
    let t = Track::from_trajectory(&bumpy, &tr, DEFAULT_MAX_RATE, None).unwrap();
    let s = setup(&bumpy, &t, &Animation::default()).unwrap();
    // one patch, of the scene's ground shape
    let [g] = &s.grounds[..] else {
        panic!("{:?}", s.grounds)
    };
    assert!(matches!(
        s.shapes[g.shape],
        Shape::Ground {
            ground: 0,
            color: ROAD
        }
    ));
    assert_eq!((g.color, g.z.len()), (ROAD, g.nu * g.nv));
    // square cells, about 48 across the longer side, on multiples of the cell
    assert_eq!(g.du, g.dv);
    assert!(
        g.nu.max(g.nv) > 40 && g.nu.max(g.nv) < 70,
        "{} x {}",
        g.nu,
        g.nv
    );
    assert!((g.u0 / g.du - (g.u0 / g.du).round()).abs() < 1e-9);
    // the heights are the model's, sample by sample
    for j in 0..g.nv {
        for i in 0..g.nu {
            let p = g.at(i, j);
            assert_eq!(p[2], bumpy.ground_height(0, p[0], p[1]));
        }
    }
    // over the motion's box in x, y with a margin of a third of its size, at least the
    // model's size; not much more
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in &t.pos {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let ext = (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let margin = (ext / 3.0).max(s.size);
    let (u1, v1) = (
        g.u0 + (g.nu - 1) as f64 * g.du,
        g.v0 + (g.nv - 1) as f64 * g.dv,
    );
    assert!(
        g.u0 <= lo[0] - margin && u1 >= hi[0] + margin,
        "{} {u1} {lo:?} {hi:?}",
        g.u0
    );
    assert!(g.v0 <= lo[1] - margin && v1 >= hi[1] + margin);
    assert!(u1 - g.u0 < hi[0] - lo[0] + 4.0 * margin);
    // lines at the multiples of a nice step
    let step = g.every as f64 * g.du;
    assert!(g.every >= 2);
    for i in 0..g.nu {
        let x = (g.u0 + i as f64 * g.du) / step;
        assert_eq!(g.line(0, i), (x - x.round()).abs() < 1e-9, "{i}");
    }
    // between the samples, bilinear; held beyond the edge
    let p = g.at(10, 7);
    assert_eq!(g.height(p[0], p[1]), p[2]);
    let mid = g.height(p[0] + 0.5 * g.du, p[1]);
    assert!((mid - 0.5 * (p[2] + g.at(11, 7)[2])).abs() < 1e-15);
    assert_eq!(g.height(g.u0 - 5.0, g.v0 - 5.0), g.z[0]);

    // drawn: no flat grid through the bump, but cells and their lines
    let mut pose = Pose::default();
    t.pose_at(1.0, &mut pose);
    let view = s.view_at(&t, 1.0);
    let cam = Camera::new(&view, 800.0, 600.0);
    let mut out = Vec::new();
    grid_lines(&s, &pose, &cam, view.target, 1.0, &mut out);
    assert!(out.is_empty());
    ground_cells(&s, &cam, 1.0, &mut out);
    let quads = out
        .iter()
        .filter(|p| matches!(p, Prim::Quad { .. }))
        .count();
    let lines = out
        .iter()
        .filter(|p| matches!(p, Prim::Line { .. }))
        .count();
    assert!(quads > 200 && quads <= (g.nu - 1) * (g.nv - 1), "{quads}");
    assert!(lines > 50, "{lines}");
    // the ground's colour, lit: darker on the bump's flanks
    let mut lit = Vec::new();
    for p in &out {
        if let Prim::Quad { fill, .. } = p {
            let k = fill[0] / f32::from(ROAD[0]);
            assert!((0.55..=1.0).contains(&k), "{fill:?}");
            assert!((fill[2] / f32::from(ROAD[2]) - k).abs() < 1e-5);
            lit.push(k);
        }
    }
    let (lo, hi) = lit
        .iter()
        .fold((f32::MAX, 0.0f32), |(l, h), &k| (l.min(k), h.max(k)));
    assert!(hi - lo > 0.1, "{lo} {hi}");
    // the shadows fall on the ground: the same as on the plane (wheel, hub, saddle, torso,
    // head, fork), none from below
    out.clear();
    shadows(&s, &pose, &cam, &mut out);
    let polys = out
        .iter()
        .filter(|p| matches!(p, Prim::Shadow { .. }))
        .count();
    assert_eq!((polys, out.len()), (5, 6));
    out.clear();
    shadows(
        &s,
        &pose,
        &Camera::new(&View { el: -0.3, ..view }, 800.0, 600.0),
        &mut out,
    );
    assert!(out.is_empty());
    // a ground the model does not have is an error
    let bad = Animation::default().shape(Shape::Ground {
        ground: 1,
        color: ROAD,
    });
    match setup(&bumpy, &t, &bad) {
        Err(Error::InvalidOptions(m)) => assert!(m.contains("(Ground) refers to ground 1"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        setup(
            &u,
            &t,
            &Animation::default().shape(Shape::Ground {
                ground: 0,
                color: ROAD
            })
        ),
        Err(Error::InvalidOptions(_))
    ));
}

#[test]
fn ground_cells_are_painted_farthest_first() {
    // cells centred at 0.5, 1.5, .., 4.5, the eye at 1.2: 4, 3, 2, then 0 and 1
    let order: Vec<usize> = far_to_near(5, 0.0, 1.0, 1.2).collect();
    assert_eq!(order, [4, 3, 2, 0, 1]);
    // an eye beyond either end
    assert_eq!(
        far_to_near(3, 0.0, 1.0, -7.0).collect::<Vec<_>>(),
        [2, 1, 0]
    );
    assert_eq!(far_to_near(3, 0.0, 1.0, 9.0).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(far_to_near(0, 0.0, 1.0, 0.0).count(), 0);
}
