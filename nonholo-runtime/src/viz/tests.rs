//! The pictures and pages as files: PNGs and GIFs decoded again, pages read back; sizes
//! and timings.

use super::camera::{norm, sub, Camera};
use super::scene::{setup, Pose, Track};
use super::*;
use crate::private::doc_models::Unicycle;
use crate::{Formulation, Model};
use alloc::vec;
use std::path::PathBuf;
use std::time::Instant;

const START: [f64; 6] = [0.0, 0.0, 0.0, 0.0, 1.5, 0.5];

/// A fresh directory, removed with what is in it when dropped.
struct TempDir(PathBuf);

impl core::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn dir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("nonholo_viz_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

fn ride(t_end: f64, samples: usize) -> (Unicycle, Trajectory) {
    let u = Unicycle::default();
    let tr = u.ride(&START, t_end, samples).unwrap();
    (u, tr)
}

/// The RGB pixels of a PNG, with its size.
fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn distinct_colors(rgb: &[u8]) -> usize {
    let mut c: Vec<[u8; 3]> = rgb.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
    c.sort_unstable();
    c.dedup();
    c.len()
}

fn fraction_of(rgb: &[u8], color: [u8; 3]) -> f64 {
    let n = rgb.chunks_exact(3).filter(|p| **p == color).count();
    n as f64 / (rgb.len() / 3) as f64
}

#[test]
fn a_png_snapshot_decodes_and_shows_the_model() {
    let d = dir("png");
    let u = Unicycle::default();
    let look = Animation::default().size(400, 300);
    let path = d.join("one.png");
    snapshot_png(&u, 0.0, &[0.0, 0.0, 0.3, 0.0], &path, &look).unwrap();
    let (w, h, rgb) = read_png(&path);
    assert_eq!((w, h, rgb.len()), (400, 300, 400 * 300 * 3));
    // shaded shapes, anti-aliased edges, text: many colours; the background is most of the
    // picture but far from all of it
    assert!(distinct_colors(&rgb) > 200, "{}", distinct_colors(&rgb));
    let bg = fraction_of(&rgb, look.background);
    assert!(bg > 0.3 && bg < 0.95, "background {bg}");
    // the wheel's blue is where the wheel's centre projects
    let track = Track::single(&u, 0.0, &[0.0, 0.0, 0.3, 0.0]).unwrap();
    let s = setup(&u, &track, &look).unwrap();
    let cam = Camera::new(&s.view_at(&track, 0.0), 400.0, 300.0);
    let p = cam.project(track.pos[4]);
    // the hub (a grey cylinder) is at the centre; halfway to the rim ahead (heading 0.3)
    // is the blue face
    let px = |x: f64, y: f64| {
        let i = 3 * (y as usize * 400 + x as usize);
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    let ahead = cam.project([0.18 * 0.3f64.cos(), 0.18 * 0.3f64.sin(), 0.3]);
    assert!(norm(sub(ahead, p)) > 10.0);
    let c = px(ahead[0], ahead[1]);
    assert!(c[2] > c[0] + 30, "not the wheel's blue: {c:?}");
}

#[test]
fn snapshots_at_two_times_differ_where_the_model_moved() {
    let d = dir("two");
    let (u, tr) = ride(4.0, 400);
    // a fixed camera so that only the model moves
    let look = Animation::default()
        .size(400, 300)
        .follow(false)
        .show_time(false);
    let (a, b) = (d.join("a.png"), d.join("b.png"));
    tr.snapshot_png(&u, 0.5, &a, &look).unwrap();
    tr.snapshot_png(&u, 3.0, &b, &look).unwrap();
    let ((_, _, pa), (_, _, pb)) = (read_png(&a), read_png(&b));
    let track = Track::from_trajectory(&u, &tr, 240.0, None).unwrap();
    let s = setup(&u, &track, &look).unwrap();
    let cam = Camera::new(&s.view_at(&track, 0.5), 400.0, 300.0);
    let mut pose = Pose::default();
    // near the rider's torso at each time the pictures differ; far from both they agree
    let mut differ_near = 0;
    for t in [0.5, 3.0] {
        track.pose_at(t, &mut pose);
        let p = cam.project(pose.pos[5]);
        let i = 3 * (p[1] as usize * 400 + p[0] as usize);
        if pa[i..i + 3] != pb[i..i + 3] {
            differ_near += 1;
        }
    }
    assert_eq!(differ_near, 2);
    let corner = 3 * (5 * 400 + 395);
    assert_eq!(pa[corner..corner + 3], pb[corner..corner + 3]);
    let changed = pa
        .chunks_exact(3)
        .zip(pb.chunks_exact(3))
        .filter(|(x, y)| x != y)
        .count();
    assert!(changed > 500 && changed < 400 * 300 / 2, "{changed}");
}

#[test]
fn a_gif_decodes_with_its_frames() {
    let d = dir("gif");
    let (u, tr) = ride(3.0, 300);
    let path = d.join("ride.gif");
    // 3 s at 10 frames per second, 1.5 times real time: 2 s of playback, 21 frames
    let look = Animation::default().size(240, 180).fps(10.0).speed(1.5);
    tr.animate_gif(&u, &path, &look).unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(std::fs::File::open(&path).unwrap()).unwrap();
    assert_eq!((dec.width(), dec.height()), (240, 180));
    let mut frames = 0;
    let mut delays = 0;
    let mut first = None;
    let mut last = Vec::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        frames += 1;
        delays += u32::from(f.delay);
        // frames after the first are the rectangles that changed
        if first.is_none() {
            assert_eq!((f.width, f.height), (240, 180));
            first = Some(f.buffer.to_vec());
        }
        last = f.buffer.to_vec();
    }
    assert_eq!(frames, 21);
    assert_eq!(delays, 210);
    let first = first.unwrap();
    assert!(first.len() == 240 * 180 * 4 && !last.is_empty());
    // not blank: the first frame has many colours
    let rgb: Vec<u8> = first
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    assert!(distinct_colors(&rgb) > 40, "{}", distinct_colors(&rgb));
    let bg = fraction_of(&rgb, [247, 248, 250]);
    assert!(bg > 0.3 && bg < 0.97, "{bg}");
}

/// The JSON embedded in a page.
fn data(page: &str) -> &str {
    let start = page
        .find("<script id=\"nonholo-data\" type=\"application/json\">")
        .unwrap();
    let rest = &page[start..];
    let open = rest.find('>').unwrap() + 1;
    let close = rest.find("</script>").unwrap();
    &rest[open..close]
}

/// The numbers of the JSON array `"key":[...]`.
fn array(json: &str, key: &str) -> Vec<f64> {
    let pat = format!("\"{key}\":[");
    let start = json.find(&pat).unwrap() + pat.len();
    let end = start + json[start..].find(']').unwrap();
    json[start..end]
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect()
}

#[test]
fn an_html_page_is_self_contained_and_carries_the_poses() {
    let d = dir("html");
    let (u, tr) = ride(10.0, 1000);
    let path = d.join("ride.html");
    let look = Animation::default()
        .title("A <unicycle> ride")
        .trail("W.contact", [196, 78, 82]);
    tr.animate_html(&u, &path, &look).unwrap();
    let page = std::fs::read_to_string(&path).unwrap();
    // nothing fetched: no remote address, no script or style from elsewhere
    for bad in [
        "http://",
        "https://",
        "<script src",
        "<link",
        "@import",
        "src=\"//",
    ] {
        assert!(!page.contains(bad), "{bad}");
    }
    assert!(page.contains("<title>A &lt;unicycle&gt; ride</title>"));
    assert_eq!(page.matches("<script").count(), 3); // the error hook, the data, the viewer
                                                    // the data: 1001 samples of the 7 points and the 2 frames the scene uses
    let json = data(&page);
    assert!(json.contains(
        "\"points\":[\"O\",\"saddle\",\"valve\",\"head\",\"W.center\",\"R.center\",\"W.contact\"]"
    ));
    assert!(json.contains("\"frames\":[\"H\",\"W\"]"));
    let t = array(json, "t");
    assert_eq!(t.len(), 1001);
    assert_eq!(array(json, "P").len(), 1001 * 7 * 3);
    assert_eq!(array(json, "R").len(), 1001 * 2 * 9);
    assert_eq!(array(json, "F").len(), 1001 * 3);
    // positions in quanta of 1e-4: the wheel's centre at 5 s
    let pq = array(json, "P");
    let exact = u.exact(&START, 5.0);
    let at = 500 * 21 + 4 * 3;
    assert!((pq[at] * 1e-4 - exact[0]).abs() <= 1e-4);
    assert!((pq[at + 1] * 1e-4 - exact[1]).abs() <= 1e-4);
    assert!((pq[at + 2] * 1e-4 - 0.3).abs() <= 1e-4);
    assert!(json.contains("\"trails\":[{\"point\":6,"));
    // the page's viewer: the controls, the #t= handling
    for part in [
        "id=\"play\"",
        "id=\"slider\"",
        "id=\"speed\"",
        "id=\"time\"",
        "t=([",
    ] {
        assert!(page.contains(part), "{part}");
    }
    // compact: about 200 kB for 1000 samples of 7 points and 2 frames
    let size = page.len();
    assert!(size > 100_000 && size < 400_000, "{size}");
}

/// The unicycle with five more points and frames: the size of a bicycle's scene (12
/// points, 8 frames, 4 bodies), for the page's budget.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct Big(Unicycle);

impl Model for Big {
    const COORDINATES: &'static [&'static str] = Unicycle::COORDINATES;
    const SPEEDS: &'static [&'static str] = Unicycle::SPEEDS;
    const PARAMETERS: &'static [&'static str] = Unicycle::PARAMETERS;
    const CONSTRAINTS: &'static [&'static str] = Unicycle::CONSTRAINTS;
    const NQ: usize = 4;
    const NZ: usize = 2;
    const NC: usize = 2;
    const DIM: usize = 6;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = Unicycle::EQUATIONS;
    type State = [f64; 6];
    const ZERO_STATE: [f64; 6] = [0.0; 6];
    fn parameters(&self) -> Vec<f64> {
        self.0.parameters()
    }
    fn rhs(&self, t: f64, s: &[f64], d: &mut [f64]) -> Result<(), Error> {
        self.0.rhs(t, s, d)
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qd: &mut [f64]) -> Result<(), Error> {
        self.0.qdot(t, q, z, qd)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qd: &[f64]) -> Result<[f64; 6], Error> {
        self.0.state_from_qdot(t, q, qd)
    }
    fn energy(&self, t: f64, s: &[f64]) -> Result<f64, Error> {
        self.0.energy(t, s)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        r: &mut [f64],
    ) -> Result<(), Error> {
        self.0.constraint_residual(t, q, qd, r)
    }
}

impl Geometry for Big {
    const POINTS: &'static [&'static str] = &[
        "O",
        "saddle",
        "valve",
        "head",
        "W.center",
        "R.center",
        "W.contact",
        "a",
        "b",
        "c",
        "d",
        "e",
    ];
    const FRAMES: &'static [&'static str] = &["N", "H", "W", "A", "B", "C", "D", "E"];
    const BODIES: &'static [&'static str] = &["W", "R", "A", "B"];
    fn point_positions(&self, t: f64, q: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error> {
        if out.len() != 12 {
            return Err(Error::Dimension {
                what: "points",
                expected: 12,
                found: out.len(),
            });
        }
        self.0.point_positions(t, q, &mut out[..7])?;
        for k in 0..5 {
            out[7 + k] = [out[4][0], out[4][1], 0.5 + 0.2 * k as f64];
        }
        Ok(())
    }
    fn frame_orientations(
        &self,
        t: f64,
        q: &[f64],
        out: &mut [[[f64; 3]; 3]],
    ) -> Result<(), Error> {
        self.0.frame_orientations(t, q, &mut out[..3])?;
        for k in 0..5 {
            out[3 + k] = out[1 + k % 2];
        }
        Ok(())
    }
    fn point_velocities(&self, t: f64, s: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error> {
        self.0.point_velocities(t, s, &mut out[..7])
    }
    fn position(&self, name: &str, t: f64, q: &[f64]) -> Result<[f64; 3], Error> {
        self.0.position(name, t, q)
    }
    fn scene(&self) -> Vec<Shape> {
        let mut s = self.0.scene();
        for k in 0..5 {
            s.push(Shape::Ellipsoid {
                center: 7 + k,
                frame: 3 + k,
                axes: [[0.05, 0.0, 0.0], [0.0, 0.08, 0.0], [0.0, 0.0, 0.03]],
                color: [129, 114, 179],
            });
        }
        s.push(Shape::Disk {
            center: 8,
            frame: 4,
            normal: [0.0, 1.0, 0.0],
            radius: 0.3,
            color: [85, 168, 104],
        });
        s
    }
}

#[test]
fn the_page_of_a_bicycle_sized_ride_is_small_and_quick() {
    let d = dir("budget");
    let u = Unicycle::default();
    let tr = u.ride(&START, 10.0, 1000).unwrap();
    let big = Big(u);
    let path = d.join("big.html");
    let look = Animation::default().trail("W.contact", [196, 78, 82]);
    let t = Instant::now();
    tr.animate_html(&big, &path, &look).unwrap();
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let size = std::fs::metadata(&path).unwrap().len();
    println!("HTML, 10 s, 1001 samples, 12 points, 8 frames: {size} bytes in {ms:.1} ms");
    let page = std::fs::read_to_string(&path).unwrap();
    let json = data(&page);
    assert_eq!(array(json, "P").len(), 1001 * 12 * 3);
    assert_eq!(array(json, "R").len(), 1001 * 7 * 9);
    assert!(size < 5_000_000, "{size}");
    if !cfg!(debug_assertions) {
        assert!(ms < 100.0, "{ms} ms");
    }
}

#[test]
fn a_five_second_gif_is_quick() {
    let d = dir("gif_budget");
    let (u, tr) = ride(5.0, 500);
    let path = d.join("ride.gif");
    let look = Animation::default().trail("W.contact", [196, 78, 82]);
    let t = Instant::now();
    tr.animate_gif(&u, &path, &look).unwrap();
    let s = t.elapsed().as_secs_f64();
    let size = std::fs::metadata(&path).unwrap().len();
    println!("GIF, 5 s at 20 fps (101 frames of 800 x 600): {size} bytes in {s:.2} s");
    if !cfg!(debug_assertions) {
        assert!(s < 2.0, "{s} s");
    }
}

#[test]
fn bad_options_and_paths_are_errors() {
    let d = dir("errors");
    let (u, tr) = ride(1.0, 100);
    let p = d.join("x.png");
    let bad = [
        Animation::default().size(0, 100),
        Animation::default().size(100, 9000),
        Animation::default().fps(f64::NAN),
        Animation::default().fps(60.0),
        Animation::default().speed(0.0),
        Animation::default().camera(0.0, 95.0),
        Animation::default().fov(200.0),
        Animation::default().distance(-1.0),
        Animation::default().target([f64::INFINITY, 0.0, 0.0]),
        Animation::default().up([0.0; 3]),
        Animation::default().span(1.0, 0.5),
        Animation::default().max_rate(0.0),
        Animation::default().supersample(9),
    ];
    for a in &bad {
        assert!(
            matches!(
                tr.snapshot_png(&u, 0.5, &p, a),
                Err(Error::InvalidOptions(_))
            ),
            "{a:?}"
        );
        assert!(matches!(
            tr.animation_html(&u, a),
            Err(Error::InvalidOptions(_))
        ));
    }
    // a span outside the trajectory
    let a = Animation::default().span(0.5, 2.0);
    assert!(matches!(
        tr.animate_gif(&u, &p, &a),
        Err(Error::InvalidOptions(_))
    ));
    // a GIF of too many frames
    let a = Animation::default().speed(1e-4);
    assert!(matches!(
        tr.animate_gif(&u, &p, &a),
        Err(Error::InvalidOptions(_))
    ));
    // files that cannot be written
    let nowhere = d.join("missing").join("x.html");
    match tr.animate_html(&u, &nowhere, &Animation::default()) {
        Err(Error::InvalidOptions(m)) => assert!(m.contains("cannot write"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        snapshot_png(
            &u,
            0.0,
            &[0.0; 4],
            d.join("missing/x.png"),
            &Animation::default()
        ),
        Err(Error::InvalidOptions(_))
    ));
    assert!(matches!(
        tr.animate_gif(&u, d.join("missing/x.gif"), &Animation::default()),
        Err(Error::InvalidOptions(_))
    ));
    // non-finite configurations and times
    assert!(matches!(
        snapshot_png(
            &u,
            0.0,
            &[f64::NAN, 0.0, 0.0, 0.0],
            &p,
            &Animation::default()
        ),
        Err(Error::NonFinite { .. })
    ));
    assert!(snapshot_png(&u, f64::NAN, &[0.0; 4], &p, &Animation::default()).is_err());
}

#[test]
fn extra_shapes_and_no_default_scene() {
    let d = dir("extra");
    let u = Unicycle::default();
    let p = d.join("x.png");
    // nothing drawn but one sphere at the head: framed around it
    let look = Animation::default()
        .size(200, 200)
        .default_scene(false)
        .show_time(false)
        .shape(Shape::Sphere {
            center: 3,
            radius: 0.2,
            color: [200, 60, 60],
        });
    snapshot_png(&u, 0.0, &[0.0; 4], &p, &look).unwrap();
    let (_, _, rgb) = read_png(&p);
    // the ball fills the middle of the picture
    let i = 3 * (100 * 200 + 100);
    assert!(rgb[i] > 120 && rgb[i + 1] < 80, "{:?}", &rgb[i..i + 3]);
    let track = Track::single(&u, 0.0, &[0.0; 4]).unwrap();
    let s = setup(&u, &track, &look).unwrap();
    assert!(norm(sub(s.target_whole, track.pos[3])) < 1e-12);
}

#[test]
fn a_torus_is_drawn_as_a_ring_and_travels_in_the_page() {
    let d = dir("torus");
    let u = Unicycle::default();
    // a red tyre (outer radius 0.3) on the wheel, nothing else, seen along its axle
    let tyre = |color: [u8; 3]| Shape::Torus {
        center: 4,
        frame: 2,
        normal: [0.0, 1.0, 0.0],
        major: 0.27,
        crown: 0.03,
        color,
    };
    let look = Animation::default()
        .size(200, 200)
        .default_scene(false)
        .show_time(false)
        .camera(90.0, 0.0)
        .shape(tyre([200, 60, 60]));
    let p = d.join("torus.png");
    snapshot_png(&u, 0.0, &[0.0; 4], &p, &look).unwrap();
    let (_, _, rgb) = read_png(&p);
    let track = Track::single(&u, 0.0, &[0.0; 4]).unwrap();
    let s = setup(&u, &track, &look).unwrap();
    let cam = Camera::new(&s.view_at(&track, 0.0), 200.0, 200.0);
    let px = |q: [f64; 3]| {
        let i = 3 * (q[1] as usize * 200 + q[0] as usize);
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    let at = |x: f64, z: f64| px(cam.project([x, 0.0, 0.3 + z]));
    // red on the crown's circle all around; the hole and what is beyond the tyre are the
    // background
    for (x, z) in [
        (0.27, 0.0),
        (-0.27, 0.0),
        (0.0, 0.27),
        (0.0, -0.27),
        (0.19, 0.19),
    ] {
        let c = at(x, z);
        assert!(c[0] > c[1] + 60 && c[0] > c[2] + 60, "({x}, {z}): {c:?}");
    }
    for (x, z) in [(0.0, 0.0), (0.15, 0.0), (0.0, 0.33), (-0.34, 0.0)] {
        assert_eq!(at(x, z), look.background, "({x}, {z})");
    }
    // the page: the torus with its radii, its point and frame renumbered to the two used
    let (_, tr) = ride(1.0, 10);
    let page = tr.animation_html(&u, &look).unwrap();
    let json = data(&page);
    assert!(json.contains("\"points\":[\"W.center\"],\"frames\":[\"W\"]"));
    assert!(
        json.contains(
            "\"shapes\":[{\"kind\":\"torus\",\"center\":0,\"frame\":0,\"normal\":[0,1,0],\
             \"major\":0.27,\"crown\":0.03,\"color\":[200,60,60]}]"
        ),
        "{json}"
    );
    assert!(page.contains("case \"torus\":"));
}

/// The unicycle on uneven ground: a round bump ([`Bumpy::height`]) instead of its plane,
/// `ground road` of a model the way `nonholonomic!` emits it (`GROUNDS`, `ground_height`,
/// a [`Shape::Ground`] in the scene). The unicycle itself still rides the plane `z = 0`:
/// the pictures do not care.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub(super) struct Bumpy(pub(super) Unicycle);

/// The ground's colour in [`Bumpy`]'s scene (the macro's).
pub(super) const ROAD: [u8; 3] = [170, 160, 140];

impl Bumpy {
    /// Where the bump is, how high and how wide: `h = BUMP[2] exp(-|(u, v) - (BUMP[0],
    /// BUMP[1])|^2 / BUMP[3])`, its steepest slope (36 degrees) at `sqrt(BUMP[3] / 2)` =
    /// 0.1 from its top.
    pub(super) const BUMP: [f64; 4] = [0.25, 0.25, 0.12, 0.02];

    /// The road's height.
    pub(super) fn height(u: f64, v: f64) -> f64 {
        let [a, b, h, w] = Self::BUMP;
        h * (-((u - a).powi(2) + (v - b).powi(2)) / w).exp()
    }
}

impl Model for Bumpy {
    const COORDINATES: &'static [&'static str] = Unicycle::COORDINATES;
    const SPEEDS: &'static [&'static str] = Unicycle::SPEEDS;
    const PARAMETERS: &'static [&'static str] = Unicycle::PARAMETERS;
    const CONSTRAINTS: &'static [&'static str] = Unicycle::CONSTRAINTS;
    const NQ: usize = 4;
    const NZ: usize = 2;
    const NC: usize = 2;
    const DIM: usize = 6;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = Unicycle::EQUATIONS;
    type State = [f64; 6];
    const ZERO_STATE: [f64; 6] = [0.0; 6];
    fn parameters(&self) -> Vec<f64> {
        self.0.parameters()
    }
    fn rhs(&self, t: f64, s: &[f64], d: &mut [f64]) -> Result<(), Error> {
        self.0.rhs(t, s, d)
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qd: &mut [f64]) -> Result<(), Error> {
        self.0.qdot(t, q, z, qd)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qd: &[f64]) -> Result<[f64; 6], Error> {
        self.0.state_from_qdot(t, q, qd)
    }
    fn energy(&self, t: f64, s: &[f64]) -> Result<f64, Error> {
        self.0.energy(t, s)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        r: &mut [f64],
    ) -> Result<(), Error> {
        self.0.constraint_residual(t, q, qd, r)
    }
}

impl Geometry for Bumpy {
    const POINTS: &'static [&'static str] = Unicycle::POINTS;
    const FRAMES: &'static [&'static str] = Unicycle::FRAMES;
    const BODIES: &'static [&'static str] = Unicycle::BODIES;
    const GROUNDS: &'static [&'static str] = &["road"];
    fn point_positions(&self, t: f64, q: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error> {
        self.0.point_positions(t, q, out)
    }
    fn frame_orientations(
        &self,
        t: f64,
        q: &[f64],
        out: &mut [[[f64; 3]; 3]],
    ) -> Result<(), Error> {
        self.0.frame_orientations(t, q, out)
    }
    fn point_velocities(&self, t: f64, s: &[f64], out: &mut [[f64; 3]]) -> Result<(), Error> {
        self.0.point_velocities(t, s, out)
    }
    fn position(&self, name: &str, t: f64, q: &[f64]) -> Result<[f64; 3], Error> {
        self.0.position(name, t, q)
    }
    /// The unicycle's scene, its plane's grid replaced by the ground (no plane: no grid).
    fn scene(&self) -> Vec<Shape> {
        let mut s: Vec<Shape> = self
            .0
            .scene()
            .into_iter()
            .filter(|s| !matches!(s, Shape::Grid { .. }))
            .collect();
        s.push(Shape::Ground {
            ground: 0,
            color: ROAD,
        });
        s
    }
    fn ground_height(&self, ground: usize, u: f64, v: f64) -> f64 {
        if ground == 0 {
            Self::height(u, v)
        } else {
            f64::NAN
        }
    }
}

/// The number after `"key":` in a JSON text.
fn field(json: &str, key: &str) -> f64 {
    let pat = format!("\"{key}\":");
    let start = json.find(&pat).unwrap() + pat.len();
    let end = start + json[start..].find([',', '}']).unwrap();
    json[start..end].parse().unwrap()
}

#[test]
fn a_ground_travels_in_the_page_as_sampled_heights() {
    let u = Unicycle::default();
    let bumpy = Bumpy(u);
    let tr = u.ride(&START, 2.0, 200).unwrap();
    let page = tr.animation_html(&bumpy, &Animation::default()).unwrap();
    let json = data(&page);
    // the ground, not a flat grid through it, and the viewer that draws it
    assert!(!json.contains("\"kind\":\"grid\""));
    let at = json.find("{\"kind\":\"ground\",\"ground\":0,").unwrap();
    let g = &json[at..];
    let g = &g[..g.find('}').unwrap() + 1];
    assert!(g.ends_with(",\"color\":[170,160,140]}"), "{g}");
    assert!(page.contains("function groundCells(") && page.contains("groundCells(cam, 1, under)"));
    let (u0, v0, du, dv) = (
        field(g, "u0"),
        field(g, "v0"),
        field(g, "du"),
        field(g, "dv"),
    );
    let (nu, nv) = (field(g, "nu") as usize, field(g, "nv") as usize);
    let z = array(g, "z");
    assert_eq!(z.len(), nu * nv);
    // square cells, about 48 across the longer side
    assert_eq!(du, dv);
    assert!(nu.max(nv) > 40 && nu.max(nv) < 70, "{nu} x {nv}");
    // the heights, to the page's quantum of lengths
    let pq = field(json, "pq");
    for (i, j) in [(0, 0), (nu - 1, nv - 1), (nu / 2, nv / 3), (7, nv - 2)] {
        let h = bumpy.ground_height(0, u0 + i as f64 * du, v0 + j as f64 * dv);
        assert!((z[j * nu + i] - h).abs() <= 0.5 * pq, "({i}, {j})");
    }
    // the highest sample is the one nearest the bump's top
    let [a, b, h, _] = Bumpy::BUMP;
    let top = z.iter().fold(0.0f64, |m, z| m.max(*z));
    assert!(top > 0.3 * h && top <= h + pq, "{top}");
    let (ia, jb) = (((a - u0) / du).round(), ((b - v0) / dv).round());
    assert_eq!(z[jb as usize * nu + ia as usize], top);
    // around the whole ride with a margin: the wheel's contact stays well inside
    let (u1, v1) = (u0 + (nu - 1) as f64 * du, v0 + (nv - 1) as f64 * dv);
    for k in 0..=20 {
        let s = tr.at(2.0 * k as f64 / 20.0).unwrap();
        let (x, y) = (s[0], s[1]);
        assert!(
            x > u0 + 1.0 && x < u1 - 1.0 && y > v0 + 1.0 && y < v1 - 1.0,
            "{x} {y}"
        );
    }
}

#[test]
fn a_snapshot_paints_the_ground_shaded_by_its_slope() {
    let d = dir("ground");
    let bumpy = Bumpy::default();
    // the ground and a dot at the origin, seen from -y (screen right is +x)
    let look = Animation::default()
        .size(400, 300)
        .default_scene(false)
        .show_time(false)
        .camera(-90.0, 25.0)
        .shape(Shape::Ground {
            ground: 0,
            color: ROAD,
        })
        .shape(Shape::Dot {
            point: 0,
            color: [0, 0, 0],
        });
    let p = d.join("ground.png");
    snapshot_png(&bumpy, 0.0, &[0.0; 4], &p, &look).unwrap();
    let (_, _, rgb) = read_png(&p);
    let track = Track::single(&bumpy, 0.0, &[0.0; 4]).unwrap();
    let s = setup(&bumpy, &track, &look).unwrap();
    let cam = Camera::new(&s.view_at(&track, 0.0), 400.0, 300.0);
    let px = |u: f64, v: f64| {
        let q = cam.project([u, v, Bumpy::height(u, v)]);
        assert!(
            q[0] > 0.0 && q[0] < 400.0 && q[1] > 0.0 && q[1] < 300.0,
            "{q:?}"
        );
        let i = 3 * (q[1] as usize * 400 + q[0] as usize);
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    let expect = |n: [f64; 3]| {
        let k = cam.shade(super::camera::normalize(n)) as f32;
        ROAD.map(|c| (f32::from(c) * k) as i32)
    };
    let near =
        |c: [u8; 3], e: [i32; 3], tol: i32| (0..3).all(|k| (i32::from(c[k]) - e[k]).abs() <= tol);
    // flat ground between the lines, in the ground's colour lit from above
    let flat = expect([0.0, 0.0, 1.0]);
    for (u, v) in [(-0.3, -0.1), (0.1, -0.3), (-0.1, 0.5)] {
        let c = px(u, v);
        assert!(near(c, flat, 3), "({u}, {v}): {c:?}, not {flat:?}");
    }
    // the bump's flank facing +x, where it is steepest: another shade, the slope's
    let [a, b, h, w] = Bumpy::BUMP;
    let r = (0.5 * w).sqrt();
    let slope = 2.0 * h * r / w * (-0.5f64).exp();
    let side = expect([slope, 0.0, 1.0]);
    assert!((side[0] - flat[0]).abs() > 20, "{side:?} {flat:?}");
    let c = px(a + r, b);
    assert!(near(c, side, 6), "{c:?}, not {side:?}");
    // much of the picture is ground; above its far edge, the background
    let ground = rgb
        .chunks_exact(3)
        .filter(|p| near([p[0], p[1], p[2]], flat, 3))
        .count() as f64
        / (400.0 * 300.0);
    assert!(ground > 0.3, "{ground}");
    assert_eq!(rgb[3 * (3 * 400 + 200)..][..3], look.background);
}
