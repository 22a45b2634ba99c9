//! The `plot` feature writes valid SVG and PNG files and reports bad input as errors.
#![cfg(feature = "plot")]

use nonholo_runtime::nalgebra::Complex;
use nonholo_runtime::plot::{
    plot_eigenvalues_png, plot_eigenvalues_svg, plot_series_png, plot_series_svg,
};
use nonholo_runtime::{Error, Trajectory};
use std::path::PathBuf;

const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// A fresh folder for this test's files (tests run in parallel).
fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nonholo_plot_{}_{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The PNG's signature, its IHDR chunk (width, height) and a final IEND chunk.
fn assert_png(path: &std::path::Path, size: (u32, u32)) {
    let bytes = std::fs::read(path).unwrap();
    assert!(bytes.len() > 1000, "{} bytes", bytes.len());
    assert_eq!(&bytes[..8], PNG_SIGNATURE);
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!((be(16), be(20)), size);
    assert_eq!(&bytes[bytes.len() - 8..bytes.len() - 4], b"IEND");
}

/// The eigenvalues of s^2 + 2 (2 - v) s + 4 and of s + 1 + v: a real pair that becomes
/// complex, crosses zero at v = 2 and becomes real again, and a real one.
fn sweep() -> (Vec<f64>, Vec<Vec<Complex<f64>>>) {
    let speeds: Vec<f64> = (0..=60).map(|i| 0.1 * f64::from(i) - 1.0).collect();
    let eigenvalues = speeds
        .iter()
        .map(|v| {
            let re = Complex::new(v - 2.0, 0.0);
            let root = Complex::new((v - 2.0) * (v - 2.0) - 4.0, 0.0).sqrt();
            // deliberately unordered: the plot follows the branches itself
            if v.to_bits() % 2 == 0 {
                vec![re + root, Complex::new(-1.0 - v, 0.0), re - root]
            } else {
                vec![re - root, re + root, Complex::new(-1.0 - v, 0.0)]
            }
        })
        .collect();
    (speeds, eigenvalues)
}

#[test]
fn series_png_and_svg_are_written() {
    let dir = out_dir("series");
    let t: Vec<f64> = (0..=200).map(|i| 0.05 * f64::from(i)).collect();
    let x: Vec<f64> = t.iter().map(|t| t.sin()).collect();
    let v: Vec<f64> = t.iter().map(|t| t.cos()).collect();
    let series = [("x", x.as_slice()), ("v", v.as_slice())];
    plot_series_png(dir.join("series.png"), "x and v", &t, &series).unwrap();
    assert_png(&dir.join("series.png"), (1200, 720));
    plot_series_svg(dir.join("series.svg"), "x and v", &t, &series).unwrap();
    let svg = std::fs::read_to_string(dir.join("series.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("x and v"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn eigenvalue_png_and_svg_are_written() {
    let dir = out_dir("eigenvalues");
    let (speeds, eigenvalues) = sweep();
    let png = dir.join("eigenvalues.png");
    plot_eigenvalues_png(&png, "test sweep", &speeds, &eigenvalues).unwrap();
    assert_png(&png, (1200, 720));
    let svg = dir.join("eigenvalues.svg");
    plot_eigenvalues_svg(&svg, "test sweep", &speeds, &eigenvalues).unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("v [m/s]") && text.contains("eigenvalue [1/s]"));
    assert!(text.contains("real part") && text.contains("imaginary part"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn trajectory_png_is_written() {
    let dir = out_dir("trajectory");
    let mut tr = Trajectory::from_names(&["x"], &["v"]);
    for i in 0..=100 {
        let t = 0.05 * f64::from(i);
        tr.push(t, &[t.cos(), -t.sin()], &[-t.sin(), -t.cos()])
            .unwrap();
    }
    tr.plot_png(dir.join("trajectory.png"), "oscillator", &["x", "v"])
        .unwrap();
    assert_png(&dir.join("trajectory.png"), (1200, 720));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = out_dir("errors");
    let invalid = |r: Result<(), Error>| matches!(r, Err(Error::InvalidOptions(_)));
    let t = [0.0, 1.0];
    // lengths, non-finite data, extension, missing folder
    assert!(invalid(plot_series_png(
        dir.join("a.png"),
        "",
        &t,
        &[("x", &[1.0])]
    )));
    assert!(invalid(plot_series_png(dir.join("a.png"), "", &[], &[])));
    assert!(invalid(plot_series_png(
        dir.join("a.png"),
        "",
        &t,
        &[("x", &[f64::NAN, f64::INFINITY])]
    )));
    assert!(invalid(plot_series_png(
        dir.join("a.svg"),
        "",
        &t,
        &[("x", &[1.0, 2.0])]
    )));
    assert!(invalid(plot_series_png(
        dir.join("no such folder").join("a.png"),
        "",
        &t,
        &[("x", &[1.0, 2.0])]
    )));
    let (speeds, eigenvalues) = sweep();
    let png = dir.join("e.png");
    assert!(invalid(plot_eigenvalues_png(
        &png,
        "",
        &speeds[1..],
        &eigenvalues
    )));
    assert!(invalid(plot_eigenvalues_png(&png, "", &[], &[])));
    let mut ragged = eigenvalues.clone();
    ragged[3].pop();
    assert!(invalid(plot_eigenvalues_png(&png, "", &speeds, &ragged)));
    let mut bad_speed = speeds.clone();
    bad_speed[0] = f64::NAN;
    assert!(invalid(plot_eigenvalues_png(
        &png,
        "",
        &bad_speed,
        &eigenvalues
    )));
    // non-finite eigenvalues are left out of the drawing
    let mut holes = eigenvalues.clone();
    holes[10][0] = Complex::new(f64::NAN, 0.0);
    plot_eigenvalues_png(&png, "with a hole", &speeds, &holes).unwrap();
    assert_png(&png, (1200, 720));
    std::fs::remove_dir_all(dir).ok();
}
