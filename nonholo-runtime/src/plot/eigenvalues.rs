//! Eigenvalues against a parameter (Meijaard et al. 2007, fig. 3), as PNG or SVG.

use super::{
    frame, legend_corner, padded, plot_error, png_root, svg_root, Look, PNG_LOOK, SVG_LOOK,
};
use crate::Error;
use alloc::vec;
use alloc::vec::Vec;
use nalgebra::Complex;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::path::Path;

/// Follow each eigenvalue from one parameter value to the next: `branches[k][i]` is the
/// `k`-th eigenvalue at `i`, matched greedily to the branch whose linear extrapolation
/// lies nearest (the eigenvalues of a solver come in no particular order).
fn branches(eigenvalues: &[Vec<Complex<f64>>]) -> Vec<Vec<Complex<f64>>> {
    let n = eigenvalues[0].len();
    let mut out: Vec<Vec<Complex<f64>>> = eigenvalues[0].iter().map(|e| vec![*e]).collect();
    for next in &eigenvalues[1..] {
        let predicted: Vec<Complex<f64>> = out
            .iter()
            .map(|b| match b.as_slice() {
                [.., a, z] if (a.re.is_finite() && a.im.is_finite()) => z + (z - a),
                [.., z] => *z,
                [] => Complex::new(0.0, 0.0),
            })
            .collect();
        let mut pairs: Vec<(f64, usize, usize)> = Vec::with_capacity(n * n);
        for (k, p) in predicted.iter().enumerate() {
            for (j, e) in next.iter().enumerate() {
                let d = (e - p).norm();
                pairs.push((if d.is_nan() { f64::INFINITY } else { d }, k, j));
            }
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (mut branch_done, mut value_done) = (vec![false; n], vec![false; n]);
        for (_, k, j) in pairs {
            if !branch_done[k] && !value_done[j] {
                branch_done[k] = true;
                value_done[j] = true;
                out[k].push(next[j]);
            }
        }
    }
    out
}

fn draw_eigenvalues<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    look: Look,
    title: &str,
    speeds: &[f64],
    eigenvalues: &[Vec<Complex<f64>>],
) -> Result<(), Error> {
    let (v0, v1, lo, hi) = eigenvalue_range(speeds, eigenvalues)?;
    let tracks = branches(eigenvalues);
    let mut chart = frame(
        &root,
        look,
        title,
        (v0, v1, "v [m/s]"),
        (lo, hi, "eigenvalue [1/s]"),
    )?;
    chart
        .draw_series(LineSeries::new(
            [(v0, 0.0), (v1, 0.0)],
            BLACK.mix(0.8).stroke_width(1),
        ))
        .map_err(plot_error)?;

    let finite = |z: &Complex<f64>| z.re.is_finite() && z.im.is_finite();
    let real = RGBColor(0, 70, 170).stroke_width(look.stroke);
    let imag = RGBColor(215, 80, 0).stroke_width(look.stroke);
    let (dash, gap) = (3 * look.stroke + 4, 2 * look.stroke + 2);
    let key = 3 * look.label as i32 / 2;
    // real parts, solid: one line per branch, broken where a value is not finite
    for (k, track) in tracks.iter().enumerate() {
        for run in runs(speeds.len(), |i| finite(&track[i])) {
            let series = chart
                .draw_series(LineSeries::new(run.map(|i| (speeds[i], track[i].re)), real))
                .map_err(plot_error)?;
            if k == 0 {
                series
                    .label("real part")
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + key, y)], real));
            }
        }
    }
    // imaginary parts, dashed: |Im| where an eigenvalue is complex, joined to the real
    // axis where a pair of real eigenvalues becomes complex (both of a conjugate pair
    // draw the same curve)
    let scale = lo.abs().max(hi.abs()).max(1.0);
    let complex = |z: &Complex<f64>| finite(z) && z.im.abs() > 1e-9 * scale;
    let mut labelled = false;
    for track in &tracks {
        let segment = |i: usize| {
            i + 1 < speeds.len()
                && finite(&track[i])
                && finite(&track[i + 1])
                && (complex(&track[i]) || complex(&track[i + 1]))
        };
        for run in runs(speeds.len().saturating_sub(1), segment) {
            let points: Vec<(f64, f64)> = (run.start..=run.end)
                .map(|i| (speeds[i], track[i].im.abs()))
                .collect();
            let series = chart
                .draw_series(DashedLineSeries::new(points, dash, gap, imag))
                .map_err(plot_error)?;
            if !labelled {
                labelled = true;
                series.label("imaginary part (|Im|)").legend(move |(x, y)| {
                    DashedPathElement::new([(x, y), (x + key, y)], dash / 2, gap / 2, imag)
                });
            }
        }
    }
    let corner = legend_corner(
        (v0, v1),
        padded(lo, hi),
        tracks.iter().flat_map(|track| {
            speeds
                .iter()
                .zip(track)
                .flat_map(|(v, z)| [(*v, z.re), (*v, z.im.abs())])
        }),
    );
    chart
        .configure_series_labels()
        .label_font(("sans-serif", look.label))
        .position(corner)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(plot_error)?;
    root.present().map_err(plot_error)?;
    Ok(())
}

/// The maximal runs `a..b` of consecutive indices below `n` where `keep` holds.
pub(super) fn runs(n: usize, keep: impl Fn(usize) -> bool) -> Vec<core::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for i in 0..=n {
        match (i < n && keep(i), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Check the sweep and return (v min, v max, y min, y max) over the finite real parts,
/// |imaginary parts| and zero.
fn eigenvalue_range(
    speeds: &[f64],
    eigenvalues: &[Vec<Complex<f64>>],
) -> Result<(f64, f64, f64, f64), Error> {
    if speeds.is_empty() || eigenvalues.len() != speeds.len() {
        return Err(Error::InvalidOptions(format!(
            "plot: {} parameter values but {} lists of eigenvalues",
            speeds.len(),
            eigenvalues.len()
        )));
    }
    let n = eigenvalues[0].len();
    if n == 0 || eigenvalues.iter().any(|e| e.len() != n) {
        return Err(Error::InvalidOptions(
            "plot: every parameter value needs the same (non-zero) number of eigenvalues".into(),
        ));
    }
    if speeds.iter().any(|v| !v.is_finite()) {
        return Err(Error::InvalidOptions(
            "plot: the parameter values must be finite".into(),
        ));
    }
    let v0 = speeds.iter().copied().fold(f64::INFINITY, f64::min);
    let v1 = speeds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for z in eigenvalues.iter().flatten() {
        for y in [z.re, z.im.abs()] {
            if y.is_finite() {
                lo = lo.min(y);
                hi = hi.max(y);
            }
        }
    }
    Ok((v0, v1, lo, hi))
}

/// Draw eigenvalues against a parameter into a 1200x720 PNG file, like Meijaard et al.
/// 2007, fig. 3: the real parts solid, the imaginary parts (their absolute values, where
/// non-zero) dashed, and the zero line; x is labelled `v [m/s]`, y `eigenvalue [1/s]`.
///
/// `eigenvalues[i]` are the eigenvalues at `speeds[i]`, in any order (each eigenvalue is
/// followed from one speed to the next by nearness); every list must have the same length.
/// The path must end in `.png` and its folder must exist.
///
/// ```
/// use nonholo_runtime::nalgebra::Complex;
/// // s^2 + 2 (2 - v) s + 4 = 0: an oscillation whose damping changes sign at v = 2
/// let speeds: Vec<f64> = (0..=40).map(|i| 0.1 * f64::from(i)).collect();
/// let eigenvalues: Vec<Vec<Complex<f64>>> = speeds
///     .iter()
///     .map(|v| {
///         let (re, disc) = (v - 2.0, (v - 2.0) * (v - 2.0) - 4.0);
///         let root = Complex::new(disc, 0.0).sqrt();
///         vec![Complex::new(re, 0.0) + root, Complex::new(re, 0.0) - root]
///     })
///     .collect();
/// let path = std::env::temp_dir().join("nonholo_doc_eigenvalues.png");
/// nonholo_runtime::plot::plot_eigenvalues_png(&path, "eigenvalues", &speeds, &eigenvalues)?;
/// assert!(std::fs::read(&path)?.starts_with(b"\x89PNG\r\n\x1a\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plot_eigenvalues_png(
    path: impl AsRef<Path>,
    title: &str,
    speeds: &[f64],
    eigenvalues: &[Vec<Complex<f64>>],
) -> Result<(), Error> {
    eigenvalue_range(speeds, eigenvalues)?;
    let root = png_root(path.as_ref(), PNG_LOOK)?;
    draw_eigenvalues(root, PNG_LOOK, title, speeds, eigenvalues)
}

/// [`plot_eigenvalues_png`] as an SVG file.
///
/// ```
/// use nonholo_runtime::nalgebra::Complex;
/// let speeds = [0.0, 1.0, 2.0];
/// let eigenvalues: Vec<Vec<Complex<f64>>> = speeds
///     .iter()
///     .map(|v| vec![Complex::new(-1.0 + v, 2.0), Complex::new(-1.0 + v, -2.0)])
///     .collect();
/// let path = std::env::temp_dir().join("nonholo_doc_eigenvalues.svg");
/// nonholo_runtime::plot::plot_eigenvalues_svg(&path, "eigenvalues", &speeds, &eigenvalues)?;
/// assert!(std::fs::read_to_string(&path)?.starts_with("<svg"));
/// // one list of eigenvalues per speed
/// let err = nonholo_runtime::plot::plot_eigenvalues_svg(&path, "", &speeds, &eigenvalues[1..]);
/// assert!(matches!(err, Err(nonholo_runtime::Error::InvalidOptions(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plot_eigenvalues_svg(
    path: impl AsRef<Path>,
    title: &str,
    speeds: &[f64],
    eigenvalues: &[Vec<Complex<f64>>],
) -> Result<(), Error> {
    eigenvalue_range(speeds, eigenvalues)?;
    let root = svg_root(path.as_ref(), SVG_LOOK)?;
    draw_eigenvalues(root, SVG_LOOK, title, speeds, eigenvalues)
}
