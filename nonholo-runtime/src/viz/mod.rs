//! 3D animations of models with frames (feature `viz`): a self-contained HTML viewer, GIFs
//! and PNG snapshots of a [`Geometry`] model along a [`Trajectory`].
//!
//! - [`Trajectory::animate_html`] writes ONE HTML file that needs nothing else: the poses
//!   (every drawn point's position and frame's orientation at every sample, as compact JSON)
//!   and a small renderer in plain JavaScript (Canvas 2D, its own perspective camera,
//!   painter's algorithm) are inline; nothing is fetched. Drag to orbit, shift- or
//!   right-drag to pan, the wheel zooms, double-click resets; play and pause (button or
//!   space bar), a time slider, the arrow keys step sample by sample, a playback speed
//!   (0.25x to 4x), a camera that follows the model or shows the whole motion.
//!   `page.html#t=2.5` opens paused at t = 2.5 s.
//! - [`Trajectory::animate_html_with_contacts`] writes the same page with the forces the
//!   ground exerts on the wheels ([`Contacts`](crate::Contacts)) as arrows at the contact
//!   points, to show or hide (check box or key `c`).
//! - [`Trajectory::animate_gif`] and [`snapshot_png`] (or [`Trajectory::snapshot_png`], with
//!   the trails and framing of the animation) draw the same scene without a browser, by a
//!   software rasterizer with the same camera: for READMEs and reports.
//!
//! The scene is the model's [`Geometry::scene`] (disks for wheels, ellipsoids for bodies,
//! a grid for a plane, a shaded patch for uneven ground ([`Shape::Ground`], its heights
//! sampled around the motion when the page or picture is made)...) plus any [`Shape`]
//! added with [`Animation::shape`], and trails of points ([`Animation::trail`]). The camera orbits about the scene's up direction (the
//! first grid's normal, else root `z`; see [`Animation::up`]); by default it frames the
//! whole motion, or follows the model when the motion is much larger than the model
//! (a bicycle riding away).
//!
//! Every function returns an [`Error`], never panics: [`Error::Dimension`] for a trajectory
//! of another model, [`Error::InvalidOptions`] for options it cannot honour, shapes that
//! refer to points or frames the model does not have, and files it cannot write,
//! [`Error::UnknownName`] for a trail of a point the model does not have,
//! [`Error::NonFinite`] for a pose that is not finite.
//!
//! ```
//! use nonholo_runtime::viz::{snapshot_png, Animation};
//! use nonholo_runtime::Geometry;
//! # use nonholo_runtime::__private::doc_models::Unicycle;
//!
//! // a unicycle riding a circle of radius 3 m at 1.5 m/s, sampled exactly
//! let unicycle = Unicycle::default();
//! let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 4.0, 400)?;
//! let dir = std::env::temp_dir().join("nonholo_viz_doc");
//! std::fs::create_dir_all(&dir).unwrap();
//!
//! let look = Animation::default()
//!     .title("Unicycle")
//!     .trail("W.contact", [196, 78, 82]);
//! ride.animate_html(&unicycle, dir.join("unicycle.html"), &look)?;
//! ride.animate_gif(&unicycle, dir.join("unicycle.gif"), &look.clone().size(320, 240).fps(10.0))?;
//! ride.snapshot_png(&unicycle, 2.0, dir.join("unicycle_2s.png"), &look)?;
//! // one configuration, no trajectory needed
//! snapshot_png(&unicycle, 0.0, &[0.0, 0.0, 0.3, 0.0], dir.join("unicycle.png"), &Animation::default())?;
//!
//! let html = std::fs::read_to_string(dir.join("unicycle.html")).unwrap();
//! assert!(html.contains("\"points\":[") && !html.contains("<script src"));
//! # Ok::<(), nonholo_runtime::Error>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use std::io::Write;
use std::path::Path;

use crate::geometry::Rgb;
use crate::{Error, Geometry, Shape, Trajectory};

pub use crate::files::plots_dir;

mod camera;
mod contact_track;
mod contacts;
mod encode;
mod html;
mod raster;
mod scene;

use encode::{create, io_error, write_png, GifWriter, Palette};
use raster::Renderer;
use scene::{setup, Track, DEFAULT_MAX_RATE};

/// The most frames a GIF may have.
const MAX_GIF_FRAMES: usize = 20_000;

/// How an animation looks: picture size, playback, camera, background, shapes and trails.
///
/// `Animation::default()` is a good start: 800 x 600 pixels, 20 frames per second (GIF),
/// real-time playback, a camera 25 degrees above the ground at azimuth -60 degrees with a
/// 35-degree field of view, framed automatically, a light background, the model's own
/// scene and the time shown. Every setter returns the changed options; the checks are
/// made when they are used ([`Error::InvalidOptions`]).
///
/// ```
/// use nonholo_runtime::viz::Animation;
/// use nonholo_runtime::Shape;
///
/// let a = Animation::default()
///     .size(640, 360)
///     .fps(25.0)
///     .speed(0.5) // half speed
///     .camera(30.0, 20.0) // azimuth, elevation in degrees
///     .follow(true)
///     .background([255, 255, 255])
///     .title("Slow motion")
///     .trail("W.contact", [196, 78, 82])
///     .shape(Shape::Dot { point: 0, color: [0, 0, 0] });
/// assert_eq!(a.width(), 640);
/// assert_eq!(a, a.clone());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    width: u32,
    height: u32,
    fps: f64,
    speed: f64,
    azimuth: f64,
    elevation: f64,
    fov: f64,
    distance: Option<f64>,
    target: Option<[f64; 3]>,
    follow: Option<bool>,
    up: Option<[f64; 3]>,
    background: Rgb,
    default_scene: bool,
    shapes: Vec<Shape>,
    trails: Vec<(String, Rgb)>,
    title: Option<String>,
    show_time: bool,
    span: Option<(f64, f64)>,
    max_rate: f64,
    supersample: Option<u32>,
    force_scale: Option<f64>,
}

impl Default for Animation {
    fn default() -> Self {
        Animation {
            width: 800,
            height: 600,
            fps: 20.0,
            speed: 1.0,
            azimuth: -60.0,
            elevation: 25.0,
            fov: 35.0,
            distance: None,
            target: None,
            follow: None,
            up: None,
            background: [247, 248, 250],
            default_scene: true,
            shapes: Vec::new(),
            trails: Vec::new(),
            title: None,
            show_time: true,
            span: None,
            max_rate: DEFAULT_MAX_RATE,
            supersample: None,
            force_scale: None,
        }
    }
}

impl Animation {
    /// The picture's size in pixels (GIF and PNG; 16 to 8192 each way). The HTML viewer
    /// fills its window.
    pub fn size(mut self, width: u32, height: u32) -> Self {
        self.width = width;
        self.height = height;
        self
    }

    /// The picture's width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The picture's height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// GIF frames per second of playback (more than 0, at most 50: GIF delays are in
    /// hundredths of a second); default 20.
    pub fn fps(mut self, fps: f64) -> Self {
        self.fps = fps;
        self
    }

    /// Seconds of simulated time per second of playback (default 1: real time); the
    /// viewer's initial speed and the GIF's.
    pub fn speed(mut self, speed: f64) -> Self {
        self.speed = speed;
        self
    }

    /// The camera's azimuth about the up direction and its elevation above the ground,
    /// in degrees (default -60 and 25). Azimuth 0 looks from the root `x` side (projected
    /// on the ground), 90 from `y`.
    pub fn camera(mut self, azimuth: f64, elevation: f64) -> Self {
        self.azimuth = azimuth;
        self.elevation = elevation;
        self
    }

    /// The field of view across the picture's smaller side, in degrees (5 to 150, default
    /// 35).
    pub fn fov(mut self, degrees: f64) -> Self {
        self.fov = degrees;
        self
    }

    /// The camera's distance from its target (default: fitted to what is framed).
    pub fn distance(mut self, distance: f64) -> Self {
        self.distance = Some(distance);
        self
    }

    /// A fixed point the camera looks at, in root components (default: the centre of the
    /// motion, or the model's when following).
    pub fn target(mut self, point: [f64; 3]) -> Self {
        self.target = Some(point);
        self
    }

    /// Whether the camera follows the model (its centroid, smoothed over a second) framing
    /// the model, or stays put framing the whole motion. Default: follow when the motion
    /// spans more than 2.5 times the model's size.
    pub fn follow(mut self, follow: bool) -> Self {
        self.follow = Some(follow);
        self
    }

    /// The scene's up direction in root components (default: the first grid's normal,
    /// else `z`).
    pub fn up(mut self, up: [f64; 3]) -> Self {
        self.up = Some(up);
        self
    }

    /// The background colour (default a light grey, `[247, 248, 250]`).
    pub fn background(mut self, color: Rgb) -> Self {
        self.background = color;
        self
    }

    /// Whether to draw the model's own [`Geometry::scene`] (default `true`); the shapes
    /// added by [`Animation::shape`] are drawn either way.
    pub fn default_scene(mut self, on: bool) -> Self {
        self.default_scene = on;
        self
    }

    /// Add a shape; its point and frame indices are into the model's
    /// [`Geometry::POINTS`] and [`Geometry::FRAMES`] (see
    /// [`index_of`](crate::geometry::index_of)).
    pub fn shape(mut self, shape: Shape) -> Self {
        self.shapes.push(shape);
        self
    }

    /// Draw the path of the point called `name` (one of [`Geometry::POINTS`]) from the
    /// start to the current time, e.g. `"W.contact"`: a wheel's track on the ground.
    pub fn trail(mut self, name: &str, color: Rgb) -> Self {
        self.trails.push((name.into(), color));
        self
    }

    /// A title, shown in the picture's corner and as the page's title.
    pub fn title(mut self, title: &str) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Whether the pictures show the time (default `true`).
    pub fn show_time(mut self, on: bool) -> Self {
        self.show_time = on;
        self
    }

    /// Only the part of the trajectory from `start` to `end` (within its time span).
    pub fn span(mut self, start: f64, end: f64) -> Self {
        self.span = Some((start, end));
        self
    }

    /// The most samples per second of simulated time kept from a trajectory (default 240;
    /// finer trajectories are thinned, coarser ones filled in by their Hermite
    /// interpolant to at least 60 per second). Long runs keep at most 50 000 samples in
    /// all (a page of a few megabytes), at a lower rate.
    pub fn max_rate(mut self, rate: f64) -> Self {
        self.max_rate = rate;
        self
    }

    /// Anti-aliasing of the PNG and GIF pictures: each pixel the mean of `n x n` samples
    /// (1 to 4; default 3 for PNG, 2 for GIF).
    pub fn supersample(mut self, n: u32) -> Self {
        self.supersample = Some(n);
        self
    }

    /// `Err` for options that cannot be honoured.
    fn validate(&self) -> Result<(), Error> {
        let bad = |what: String| Err(Error::InvalidOptions(format!("viz: {what}")));
        if !(16..=8192).contains(&self.width) || !(16..=8192).contains(&self.height) {
            return bad(format!(
                "size {} x {} is not within 16 to 8192 pixels each way",
                self.width, self.height
            ));
        }
        if !(self.fps > 0.0 && self.fps <= 50.0) {
            return bad(format!("fps {} is not in (0, 50]", self.fps));
        }
        if !(self.speed > 0.0 && self.speed.is_finite()) {
            return bad(format!("speed {} is not positive", self.speed));
        }
        if !self.azimuth.is_finite() || !(-90.0..=90.0).contains(&self.elevation) {
            return bad(format!(
                "camera azimuth {} / elevation {} (elevation within [-90, 90] degrees)",
                self.azimuth, self.elevation
            ));
        }
        if !(5.0..=150.0).contains(&self.fov) {
            return bad(format!(
                "field of view {} is not within 5 to 150 degrees",
                self.fov
            ));
        }
        if let Some(d) = self.distance
            && !(d > 0.0 && d.is_finite())
        {
            return bad(format!("camera distance {d} is not positive"));
        }
        if let Some(t) = self.target
            && !t.iter().all(|v| v.is_finite())
        {
            return bad(format!("camera target {t:?} is not finite"));
        }
        if let Some(u) = self.up
            && !(u.iter().all(|v| v.is_finite()) && u.iter().any(|v| *v != 0.0))
        {
            return bad(format!("up direction {u:?} is zero or not finite"));
        }
        if let Some((a, b)) = self.span
            && !(a.is_finite() && b.is_finite() && a <= b)
        {
            return bad(format!("time span [{a}, {b}]"));
        }
        if !(self.max_rate >= 1.0 && self.max_rate.is_finite()) {
            return bad(format!("max_rate {} is below 1 per second", self.max_rate));
        }
        if let Some(n) = self.supersample
            && !(1..=4).contains(&n)
        {
            return bad(format!("supersample {n} is not within 1 to 4"));
        }
        Ok(())
    }
}

impl Trajectory {
    /// The animation of `model` along this trajectory as one self-contained HTML page
    /// (see [the module](crate::viz)), written to `path`.
    ///
    /// A 10 s bicycle ride (1000 samples, a dozen points, eight frames) makes a page of
    /// well under a megabyte, written in a few milliseconds.
    ///
    /// ```
    /// use nonholo_runtime::viz::Animation;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 10.0, 1000)?;
    /// let path = std::env::temp_dir().join("nonholo_viz_ride.html");
    /// ride.animate_html(&unicycle, &path, &Animation::default().title("A ride"))?;
    /// // open it at 2.5 s, paused: file:///tmp/nonholo_viz_ride.html#t=2.5
    /// let page = std::fs::read_to_string(&path).unwrap();
    /// assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<title>A ride</title>"));
    /// assert!(!page.contains("http://") && !page.contains("https://"));
    /// // a trajectory of another model is refused
    /// let other = nonholo_runtime::Trajectory::from_names(&["x"], &["v"]);
    /// assert!(other.animate_html(&unicycle, &path, &Animation::default()).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn animate_html<M: Geometry>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
        animation: &Animation,
    ) -> Result<(), Error> {
        let page = self.animation_html(model, animation)?;
        let path = path.as_ref();
        let mut f = create(path)?;
        f.write_all(page.as_bytes())
            .and_then(|_| f.flush())
            .map_err(|e| io_error(path, e))
    }

    /// The page [`Trajectory::animate_html`] writes, as a string (to serve it, or embed it
    /// in a notebook).
    ///
    /// ```
    /// use nonholo_runtime::viz::Animation;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.0, 0.0], 1.0, 100)?;
    /// let page = ride.animation_html(&unicycle, &Animation::default())?;
    /// assert!(page.contains("<canvas") && page.contains("\"kind\":\"disk\""));
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn animation_html<M: Geometry>(
        &self,
        model: &M,
        animation: &Animation,
    ) -> Result<String, Error> {
        animation.validate()?;
        let track = Track::from_trajectory(model, self, animation.max_rate, animation.span)?;
        let setup = setup(model, &track, animation)?;
        Ok(html::page::<M>(&setup, &track, animation, None))
    }

    /// The animation as a looping GIF written to `path`: [`Animation::fps`] frames per
    /// second of playback at [`Animation::speed`], drawn by the software rasterizer (one
    /// global 256-colour palette).
    ///
    /// ```
    /// use nonholo_runtime::viz::Animation;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 2.0, 200)?;
    /// let path = std::env::temp_dir().join("nonholo_viz_ride.gif");
    /// // 2 s at 10 frames per second, twice as fast: 11 frames
    /// let look = Animation::default().size(200, 150).fps(10.0).speed(2.0);
    /// ride.animate_gif(&unicycle, &path, &look)?;
    /// assert!(std::fs::read(&path).unwrap().starts_with(b"GIF89a"));
    /// assert!(ride.animate_gif(&unicycle, &path, &look.fps(0.0)).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn animate_gif<M: Geometry>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
        animation: &Animation,
    ) -> Result<(), Error> {
        let path = path.as_ref();
        animation.validate()?;
        let track = Track::from_trajectory(model, self, animation.max_rate, animation.span)?;
        let setup = setup(model, &track, animation)?;
        let (t0, t1) = (track.times[0], track.times[track.len() - 1]);
        let step = animation.speed / animation.fps;
        let frames = ((t1 - t0) / step + 1e-9).floor();
        if frames.is_nan() || frames >= MAX_GIF_FRAMES as f64 {
            return Err(Error::InvalidOptions(format!(
                "viz: {} s at {} frames per second and speed {} makes more than {MAX_GIF_FRAMES} frames",
                t1 - t0,
                animation.fps,
                animation.speed
            )));
        }
        let frames = frames as usize + 1;
        let time = |k: usize| (t0 + k as f64 * step).min(t1);
        let ss = animation.supersample.unwrap_or(2) as usize;
        let mut renderer = Renderer::new(&setup, &track, animation, ss)?;
        // the palette, from up to eight frames across the animation
        let mut rgb = Vec::new();
        let mut sample = Vec::new();
        let probes = frames.min(8);
        for p in 0..probes {
            let k = if probes > 1 {
                p * (frames - 1) / (probes - 1)
            } else {
                0
            };
            renderer.frame(time(k), &mut rgb);
            sample.extend(rgb.chunks_exact(3).step_by(3).flatten());
        }
        let mut palette = Palette::learn(&sample, &[animation.background]);
        let gif_err = |e: gif::EncodingError| io_error(path, e);
        let mut gif = GifWriter::new(create(path)?, animation.width, animation.height, &palette)
            .map_err(gif_err)?;
        for k in 0..frames {
            renderer.frame(time(k), &mut rgb);
            let cs = |k: usize| (100.0 * k as f64 / animation.fps).round() as u64;
            let delay = (cs(k + 1) - cs(k)).clamp(1, u64::from(u16::MAX)) as u16;
            gif.frame(&rgb, &mut palette, delay).map_err(gif_err)?;
        }
        let mut file = gif.finish().map_err(gif_err)?;
        file.flush().map_err(|e| io_error(path, e))
    }

    /// The animation's picture at time `t` (within the trajectory) as a PNG: trails up
    /// to `t`, the camera framed as in the animation.
    ///
    /// ```
    /// use nonholo_runtime::viz::Animation;
    /// use nonholo_runtime::Error;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    ///
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 6.0, 600)?;
    /// let path = std::env::temp_dir().join("nonholo_viz_ride_3s.png");
    /// ride.snapshot_png(&unicycle, 3.0, &path, &Animation::default().trail("W.contact", [196, 78, 82]))?;
    /// assert!(matches!(
    ///     ride.snapshot_png(&unicycle, 7.0, &path, &Animation::default()),
    ///     Err(Error::OutsideTimeSpan { .. })
    /// ));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn snapshot_png<M: Geometry>(
        &self,
        model: &M,
        t: f64,
        path: impl AsRef<Path>,
        animation: &Animation,
    ) -> Result<(), Error> {
        animation.validate()?;
        let track = Track::from_trajectory(model, self, animation.max_rate, animation.span)?;
        let (t0, t1) = (track.times[0], track.times[track.len() - 1]);
        if !(t >= t0 && t <= t1) {
            return Err(Error::OutsideTimeSpan {
                t,
                start: t0,
                end: t1,
            });
        }
        let setup = setup(model, &track, animation)?;
        png_frame(&setup, &track, animation, t, path.as_ref())
    }
}

/// A PNG picture of `model` at one configuration: `q` its `NQ` coordinates (or a whole
/// state `[q, z]`, whose speeds are not used) at time `t`, the camera framing the model.
///
/// ```
/// use nonholo_runtime::viz::{snapshot_png, Animation};
/// use nonholo_runtime::Error;
/// # use nonholo_runtime::__private::doc_models::Unicycle;
///
/// let unicycle = Unicycle::default();
/// let path = std::env::temp_dir().join("nonholo_viz_unicycle.png");
/// let look = Animation::default().size(400, 300).camera(-90.0, 10.0);
/// snapshot_png(&unicycle, 0.0, &[0.0, 0.0, 0.0, 0.5], &path, &look)?;
/// assert!(std::fs::read(&path).unwrap().starts_with(b"\x89PNG"));
/// assert!(matches!(
///     snapshot_png(&unicycle, 0.0, &[0.0; 2], &path, &look),
///     Err(Error::Dimension { .. })
/// ));
/// # Ok::<(), Error>(())
/// ```
pub fn snapshot_png<M: Geometry>(
    model: &M,
    t: f64,
    q: &[f64],
    path: impl AsRef<Path>,
    animation: &Animation,
) -> Result<(), Error> {
    animation.validate()?;
    let track = Track::single(model, t, q)?;
    let setup = setup(model, &track, animation)?;
    png_frame(&setup, &track, animation, t, path.as_ref())
}

fn png_frame(
    setup: &scene::Setup,
    track: &Track,
    animation: &Animation,
    t: f64,
    path: &Path,
) -> Result<(), Error> {
    let ss = animation.supersample.unwrap_or(3) as usize;
    let mut renderer = Renderer::new(setup, track, animation, ss)?;
    let mut rgb = Vec::new();
    renderer.frame(t, &mut rgb);
    write_png(path, animation.width, animation.height, &rgb)
}

#[cfg(test)]
mod tests;
