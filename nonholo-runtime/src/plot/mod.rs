//! Charts of trajectories and of eigenvalues against a parameter (feature `plot`), as SVG
//! (plotters' SVG backend) or PNG (plotters' bitmap backend).
//!
//! Text is measured and, in PNGs, drawn with DejaVu Sans compiled into the crate
//! (`assets/fonts/DejaVuSans.ttf`, Bitstream Vera / DejaVu license beside it) through
//! plotters' `ab_glyph` renderer, so nothing reads system fonts: a PNG looks the same on
//! every machine. (An SVG names the `sans-serif` family and its viewer draws the text.)
//!
//! Every function returns [`Error::InvalidOptions`] for data it cannot draw (lengths that
//! do not match, no finite value, a PNG path without the `.png` extension) and for files
//! it cannot write; none panics.

use crate::{Error, Model, Trajectory};
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::Path;
use std::sync::OnceLock;

mod contacts;
mod eigenvalues;

pub use crate::files::plots_dir;
pub use eigenvalues::{plot_eigenvalues_png, plot_eigenvalues_svg};

/// DejaVu Sans 2.37 (see `assets/fonts/README.md` for its origin and license).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Register the bundled font as plotters' `sans-serif` (once per process).
fn register_bundled_font() -> Result<(), Error> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidOptions(
            "plot: the bundled font could not be read".into(),
        ))
    }
}

fn plot_error(e: impl core::fmt::Display) -> Error {
    Error::InvalidOptions(format!("plot: {e}"))
}

/// The chart every plot draws on: white, captioned, `x` over `[x0, x1]`, `y` over `[lo, hi]`
/// padded by 5 %, a light mesh with the axes' descriptions.
fn frame<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    look: Look,
    title: &str,
    (x0, x1, x_desc): (f64, f64, &str),
    (lo, hi, y_desc): (f64, f64, &str),
) -> Result<ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>, Error> {
    let (lo, hi) = padded(lo, hi);
    root.fill(&WHITE).map_err(plot_error)?;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", look.caption))
        .margin(look.label)
        .x_label_area_size(3 * look.label)
        .y_label_area_size(5 * look.label)
        .build_cartesian_2d(x0..x1.max(x0 + 1e-12), lo..hi)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(("sans-serif", look.label))
        .light_line_style(BLACK.mix(0.05))
        .draw()
        .map_err(plot_error)?;
    Ok(chart)
}

/// `[lo, hi]` widened by 5 % on each side: the `y` range of a [`frame`].
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    let pad = 0.05 * (hi - lo).max(1e-12);
    (lo - pad, hi + pad)
}

/// Sizes of one kind of output (pixels for PNG, user units for SVG).
#[derive(Clone, Copy)]
struct Look {
    size: (u32, u32),
    caption: u32,
    label: u32,
    stroke: u32,
}

const SVG_LOOK: Look = Look {
    size: (900, 540),
    caption: 22,
    label: 13,
    stroke: 2,
};

const PNG_LOOK: Look = Look {
    size: (1200, 720),
    caption: 30,
    label: 18,
    stroke: 2,
};

fn svg_root(path: &Path, look: Look) -> Result<DrawingArea<SVGBackend<'_>, Shift>, Error> {
    register_bundled_font()?;
    Ok(SVGBackend::new(path, look.size).into_drawing_area())
}

fn png_root(path: &Path, look: Look) -> Result<DrawingArea<BitMapBackend<'_>, Shift>, Error> {
    let is_png = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if !is_png {
        return Err(Error::InvalidOptions(format!(
            "plot: a PNG path must end in `.png`: {}",
            path.display()
        )));
    }
    register_bundled_font()?;
    Ok(BitMapBackend::new(path, look.size).into_drawing_area())
}

/// The finite range of the series' values, after checking their lengths.
fn series_range(times: &[f64], series: &[(&str, &[f64])]) -> Result<(f64, f64), Error> {
    if times.is_empty() || series.iter().any(|(_, v)| v.len() != times.len()) {
        return Err(Error::InvalidOptions(
            "plot: every series needs one value per time".into(),
        ));
    }
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for (_, v) in series {
        for x in v.iter().filter(|x| x.is_finite()) {
            lo = lo.min(*x);
            hi = hi.max(*x);
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(Error::InvalidOptions("plot: no finite values".into()));
    }
    Ok((lo, hi))
}

fn draw_series<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    look: Look,
    title: &str,
    times: &[f64],
    series: &[(&str, &[f64])],
) -> Result<(), Error> {
    let (lo, hi) = series_range(times, series)?;
    let (t0, t1) = (times[0], times[times.len() - 1]);
    let mut chart = frame(&root, look, title, (t0, t1, "t"), (lo, hi, ""))?;
    let stroke = look.stroke;
    let key = 3 * look.label as i32 / 2;
    for (k, (name, values)) in series.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(
                times.iter().copied().zip(values.iter().copied()),
                color.stroke_width(stroke),
            ))
            .map_err(plot_error)?
            .label(name.to_string())
            .legend(move |(x, y)| {
                PathElement::new([(x, y), (x + key, y)], color.stroke_width(stroke))
            });
    }
    let corner = legend_corner(
        (t0, t1),
        padded(lo, hi),
        series
            .iter()
            .flat_map(|(_, v)| times.iter().copied().zip(v.iter().copied())),
    );
    chart
        .configure_series_labels()
        .label_font(("sans-serif", look.label))
        .position(corner)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_error)?;
    root.present().map_err(plot_error)?;
    Ok(())
}

/// Draw the `series` (name, values) against `times` into an SVG file with a title.
///
/// ```
/// let path = std::env::temp_dir().join("nonholo_doc_series.svg");
/// let t = [0.0, 0.5, 1.0];
/// nonholo_runtime::plot::plot_series_svg(&path, "x(t)", &t, &[("x", &[0.0, 0.25, 1.0])])?;
/// assert!(std::fs::read_to_string(&path)?.starts_with("<svg"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plot_series_svg(
    path: impl AsRef<Path>,
    title: &str,
    times: &[f64],
    series: &[(&str, &[f64])],
) -> Result<(), Error> {
    series_range(times, series)?;
    let root = svg_root(path.as_ref(), SVG_LOOK)?;
    draw_series(root, SVG_LOOK, title, times, series)
}

/// Draw the `series` (name, values) against `times` into a 1200x720 PNG file with a title
/// (the path must end in `.png`; its folder must exist).
///
/// ```
/// let path = std::env::temp_dir().join("nonholo_doc_series.png");
/// let t: Vec<f64> = (0..=100).map(|i| 0.1 * f64::from(i)).collect();
/// let x: Vec<f64> = t.iter().map(|t| t.sin()).collect();
/// nonholo_runtime::plot::plot_series_png(&path, "x = sin t", &t, &[("x", &x)])?;
/// assert!(std::fs::read(&path)?.starts_with(b"\x89PNG\r\n\x1a\n"));
/// // a length mismatch is an error, not a panic
/// assert!(nonholo_runtime::plot::plot_series_png(&path, "", &t, &[("x", &x[1..])]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plot_series_png(
    path: impl AsRef<Path>,
    title: &str,
    times: &[f64],
    series: &[(&str, &[f64])],
) -> Result<(), Error> {
    series_range(times, series)?;
    let root = png_root(path.as_ref(), PNG_LOOK)?;
    draw_series(root, PNG_LOOK, title, times, series)
}

/// The corner of the plot area `x` by `y` whose legend-sized box (a third of the width,
/// a sixth of the height) covers the fewest of the `points`.
fn legend_corner(
    x: (f64, f64),
    y: (f64, f64),
    points: impl Iterator<Item = (f64, f64)>,
) -> SeriesLabelPosition {
    let (w, h) = ((x.1 - x.0) / 3.0, (y.1 - y.0) / 6.0);
    // upper right, upper left, lower right, lower left (the first wins a tie)
    let mut count = [0usize; 4];
    for (px, py) in points {
        let (right, left) = (px >= x.1 - w, px <= x.0 + w);
        let (upper, lower) = (py >= y.1 - h, py <= y.0 + h);
        for (k, inside) in [right && upper, left && upper, right && lower, left && lower]
            .into_iter()
            .enumerate()
        {
            count[k] += usize::from(inside);
        }
    }
    let best = (0..4).min_by_key(|k| count[*k]).unwrap_or(0);
    match best {
        0 => SeriesLabelPosition::UpperRight,
        1 => SeriesLabelPosition::UpperLeft,
        2 => SeriesLabelPosition::LowerRight,
        _ => SeriesLabelPosition::LowerLeft,
    }
}

impl Trajectory {
    fn columns(&self, columns: &[&str]) -> Result<Vec<Vec<f64>>, Error> {
        columns
            .iter()
            .map(|c| {
                self.column(c).ok_or_else(|| {
                    Error::InvalidOptions(format!("plot: no column `{c}` in the trajectory"))
                })
            })
            .collect()
    }

    fn energy_drift<M: Model>(&self, model: &M) -> Result<Vec<f64>, Error> {
        let e = self.energy(model)?;
        let e0 = e.first().copied().unwrap_or(0.0);
        Ok(e.iter().map(|x| x - e0).collect())
    }

    /// Plot the named columns (coordinate, speed or input names, as
    /// [`Trajectory::column`]) against time into an SVG file.
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// for i in 0..=10 {
    ///     let t = 0.1 * f64::from(i);
    ///     tr.push(t, &[t, 1.0], &[1.0, 0.0])?;
    /// }
    /// let path = std::env::temp_dir().join("nonholo_doc_trajectory.svg");
    /// tr.plot_svg(&path, "uniform motion", &["x", "v"])?;
    /// assert!(std::fs::read_to_string(&path)?.contains("uniform motion"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// The inputs of a controlled run plot with the state:
    ///
    /// ```
    /// # #[cfg(feature = "diffsol")]
    /// # {
    /// use nonholo_runtime::{simulate_controlled, Options};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let mut pd = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = -2.0 * x[0] - x[1];
    /// let options = Options::default().control_period(0.1);
    /// let tr = simulate_controlled(&osc, &mut pd, &[1.0, 0.0], 0.0..5.0, &options)?;
    /// let path = std::env::temp_dir().join("nonholo_doc_controlled.svg");
    /// tr.plot_svg(&path, "x and the force f", &["x", "f"])?;
    /// assert!(std::fs::read_to_string(&path)?.contains("x and the force f"));
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plot_svg(
        &self,
        path: impl AsRef<Path>,
        title: &str,
        columns: &[&str],
    ) -> Result<(), Error> {
        self.with_columns(columns, |series| {
            plot_series_svg(path, title, self.times(), series)
        })
    }

    /// Plot the named columns (coordinate, speed or input names) against time into a PNG
    /// file (the path must end in `.png`).
    ///
    /// ```
    /// use nonholo_runtime::Trajectory;
    /// let mut tr = Trajectory::from_names(&["x"], &["v"]);
    /// for i in 0..=50 {
    ///     let t = 0.1 * f64::from(i);
    ///     tr.push(t, &[t.cos(), -t.sin()], &[-t.sin(), -t.cos()])?;
    /// }
    /// let path = std::env::temp_dir().join("nonholo_doc_trajectory.png");
    /// tr.plot_png(&path, "oscillator", &["x", "v"])?;
    /// assert!(std::fs::read(&path)?.starts_with(b"\x89PNG\r\n\x1a\n"));
    /// assert!(tr.plot_png(&path, "oscillator", &["y"]).is_err()); // no such column
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plot_png(
        &self,
        path: impl AsRef<Path>,
        title: &str,
        columns: &[&str],
    ) -> Result<(), Error> {
        self.with_columns(columns, |series| {
            plot_series_png(path, title, self.times(), series)
        })
    }

    /// `draw` applied to the named columns as (name, values) series.
    fn with_columns(
        &self,
        columns: &[&str],
        draw: impl FnOnce(&[(&str, &[f64])]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let data = self.columns(columns)?;
        let series: Vec<(&str, &[f64])> = columns
            .iter()
            .zip(&data)
            .map(|(n, v)| (*n, v.as_slice()))
            .collect();
        draw(&series)
    }

    /// Plot the energy's deviation from its initial value against time into an SVG file.
    ///
    /// For an energy-conserving model a check of the integrator: the drift should stay at
    /// the tolerance asked for (and for a fixed-step method shrink with the step).
    ///
    /// ```
    /// use nonholo_runtime::{integrate_rk4, Error};
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate};
    ///
    /// // the damped oscillator loses energy: the curve goes down from 0
    /// let damped = Oscillator { m: 1.0, k: 1.0, c: 0.1, u: 0.0 };
    /// let tr = integrate_rk4(&damped, &[1.0, 0.0], 0.0, 0.05, 200)?;
    /// let path = std::env::temp_dir().join("nonholo_doc_energy.svg");
    /// tr.plot_energy_svg(&damped, &path)?;
    /// let svg = std::fs::read_to_string(&path)?;
    /// assert!(svg.starts_with("<svg") && svg.contains("energy drift"));
    /// // the energy of another model cannot be evaluated on these samples
    /// let wrong = tr.plot_energy_svg(&Skate { m: 1.0, i: 0.1 }, &path);
    /// assert!(matches!(wrong, Err(Error::Dimension { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plot_energy_svg<M: Model>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
    ) -> Result<(), Error> {
        let de = self.energy_drift(model)?;
        plot_series_svg(
            path,
            "energy - energy(t0)",
            self.times(),
            &[("energy drift", &de)],
        )
    }

    /// Plot the energy's deviation from its initial value against time into a PNG file
    /// (the path must end in `.png`).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    /// // RK4 on the harmonic oscillator: a small steady energy drift
    /// use nonholo_runtime::{integrate_rk4, Trajectory};
    /// let osc = Oscillator::new(1.0);
    /// let tr: Trajectory = integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.05, 200)?;
    /// let path = std::env::temp_dir().join("nonholo_doc_energy.png");
    /// tr.plot_energy_png(&osc, &path)?;
    /// assert!(std::fs::read(&path)?.starts_with(b"\x89PNG\r\n\x1a\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plot_energy_png<M: Model>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
    ) -> Result<(), Error> {
        let de = self.energy_drift(model)?;
        plot_series_png(
            path,
            "energy - energy(t0)",
            self.times(),
            &[("energy drift", &de)],
        )
    }
}
