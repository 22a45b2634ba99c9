//! SVG plots of trajectories (feature `plot`, plotters' SVG backend: no system fonts needed).

use crate::{Error, Model, Trajectory};
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;
use plotters::prelude::*;
use std::path::Path;

fn plot_error(e: impl core::fmt::Display) -> Error {
    Error::InvalidOptions(format!("plot: {e}"))
}

/// Draw the `series` (name, values) against `times` into an SVG file with a title.
pub fn plot_series_svg(
    path: impl AsRef<Path>,
    title: &str,
    times: &[f64],
    series: &[(&str, &[f64])],
) -> Result<(), Error> {
    if times.is_empty() || series.iter().any(|(_, v)| v.len() != times.len()) {
        return Err(Error::InvalidOptions(
            "plot: every series needs one value per time".into(),
        ));
    }
    let (t0, t1) = (times[0], times[times.len() - 1]);
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
    let pad = 0.05 * (hi - lo).max(1e-12);
    let root = SVGBackend::new(path.as_ref(), (900, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_error)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(t0..t1.max(t0 + 1e-12), (lo - pad)..(hi + pad))
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc("t")
        .draw()
        .map_err(plot_error)?;
    for (k, (name, values)) in series.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(
                times.iter().copied().zip(values.iter().copied()),
                color.stroke_width(2),
            ))
            .map_err(plot_error)?
            .label(name.to_string())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_error)?;
    root.present().map_err(plot_error)?;
    Ok(())
}

impl Trajectory {
    /// Plot the named columns (coordinate or speed names) against time into an SVG file.
    pub fn plot_svg(
        &self,
        path: impl AsRef<Path>,
        title: &str,
        columns: &[&str],
    ) -> Result<(), Error> {
        let mut data: Vec<(&str, Vec<f64>)> = Vec::with_capacity(columns.len());
        for c in columns {
            let v = self.column(c).ok_or_else(|| {
                Error::InvalidOptions(format!("plot: no column `{c}` in the trajectory"))
            })?;
            data.push((c, v));
        }
        let series: Vec<(&str, &[f64])> = data.iter().map(|(n, v)| (*n, v.as_slice())).collect();
        plot_series_svg(path, title, self.times(), &series)
    }

    /// Plot the energy's deviation from its initial value against time into an SVG file.
    pub fn plot_energy_svg<M: Model>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
    ) -> Result<(), Error> {
        let e = self.energy(model)?;
        let e0 = e.first().copied().unwrap_or(0.0);
        let de: Vec<f64> = e.iter().map(|x| x - e0).collect();
        plot_series_svg(
            path,
            "energy - energy(t0)",
            self.times(),
            &[("energy drift", &de)],
        )
    }
}
