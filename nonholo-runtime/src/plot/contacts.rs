//! The loads on a model's rolling contacts along a trajectory, as SVG or PNG: per contact
//! the normal force `N`, the friction force it needs `|F_t|` and, with a friction
//! coefficient, what the ground can give, `mu N`.

use super::eigenvalues::runs;
use super::{
    frame, legend_corner, padded, plot_error, png_root, svg_root, Look, PNG_LOOK, SVG_LOOK,
};
use crate::trajectory::wheel_name;
use crate::{Contacts, Error, Trajectory};
use alloc::format;
use alloc::vec::Vec;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::path::Path;

/// The title of the chart.
const TITLE: &str = "contact forces";

/// One contact's curves against time.
struct Curves {
    wheel: &'static str,
    normal: Vec<f64>,
    tangential: Vec<f64>,
    /// `mu N = |F_t| + friction_margin`, for a contact with a friction coefficient.
    capacity: Option<Vec<f64>>,
}

/// One line of the chart: its values, legend label, style and whether it is dashed
/// (`Some((dash, gap))`).
struct Line<'a> {
    values: &'a [f64],
    label: alloc::string::String,
    style: ShapeStyle,
    dashes: Option<(i32, i32)>,
}

impl Trajectory {
    /// The curves of every contact of `M`, after checking that there are some, and
    /// samples.
    fn contact_curves<M: Contacts>(&self, model: &M) -> Result<Vec<Curves>, Error> {
        let loads = self.contact_loads(model)?;
        if M::CONTACTS.is_empty() {
            return Err(Error::InvalidOptions(
                "plot: the model has no rolling contacts".into(),
            ));
        }
        if loads.is_empty() {
            return Err(Error::InvalidOptions(
                "plot: the trajectory has no samples".into(),
            ));
        }
        Ok(M::CONTACTS
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let normal = loads.iter().map(|l| l[k].normal).collect();
                let tangential: Vec<f64> = loads.iter().map(|l| l[k].tangential()).collect();
                let friction = loads.iter().any(|l| !l[k].friction_margin.is_nan());
                let capacity = friction.then(|| {
                    loads
                        .iter()
                        .map(|l| l[k].tangential() + l[k].friction_margin)
                        .collect()
                });
                Curves {
                    wheel: wheel_name(name),
                    normal,
                    tangential,
                    capacity,
                }
            })
            .collect())
    }

    /// Plot the loads on the model's rolling contacts against time into an SVG file
    /// (titled "contact forces"): for each contact `"W on G"` of [`Contacts::CONTACTS`],
    /// in its own colour,
    ///
    /// - `W N`, solid: the normal force `N` ([`ContactLoad::normal`](crate::ContactLoad::normal)),
    ///   which falls to 0 where the wheel would lift off;
    /// - `W |F_t|`, dashed: the tangential force the contact needs,
    ///   `sqrt(F_long^2 + F_lat^2)` ([`ContactLoad::tangential`](crate::ContactLoad::tangential));
    /// - `W μN`, dotted, for a contact with `friction: mu`: what the ground can give,
    ///   `mu N`. The wheel slides where `|F_t|` reaches it (utilization 1).
    ///
    /// The values come from [`Trajectory::contact_loads`] (with the recorded inputs), and
    /// so do its errors; [`Error::InvalidOptions`] for a model without rolling contacts, a
    /// trajectory without samples or a file that cannot be written.
    ///
    /// ```
    /// use nonholo_runtime::Error;
    /// # use nonholo_runtime::__private::doc_models::{Skate, Unicycle};
    ///
    /// // a unicycle on a circle: N = m g, |F_t| = m v w and mu N, all constant
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 4.0, 40)?;
    /// let path = std::env::temp_dir().join("nonholo_doc_contact_loads.svg");
    /// ride.plot_contact_loads_svg(&unicycle, &path)?;
    /// let svg = std::fs::read_to_string(&path)?;
    /// assert!(svg.starts_with("<svg") && svg.contains("contact forces"));
    /// assert!(svg.contains("W N") && svg.contains("W |F_t|") && svg.contains("W μN"));
    /// // a skate has no rolling contact to plot
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let tr = nonholo_runtime::integrate_rk4(&skate, &[0.0, 0.0, 0.0, 1.0, 1.0], 0.0, 0.1, 10)?;
    /// assert!(matches!(tr.plot_contact_loads_svg(&skate, &path), Err(Error::InvalidOptions(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plot_contact_loads_svg<M: Contacts>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
    ) -> Result<(), Error> {
        let curves = self.contact_curves(model)?;
        let root = svg_root(path.as_ref(), SVG_LOOK)?;
        draw_contacts(root, SVG_LOOK, self.times(), &curves)
    }

    /// [`Trajectory::plot_contact_loads_svg`] into a 1200x720 PNG file (the path must end
    /// in `.png`; its folder must exist).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    /// let unicycle = Unicycle::default();
    /// let ride = unicycle.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 4.0, 40)?;
    /// let path = std::env::temp_dir().join("nonholo_doc_contact_loads.png");
    /// ride.plot_contact_loads_png(&unicycle, &path)?;
    /// assert!(std::fs::read(&path)?.starts_with(b"\x89PNG\r\n\x1a\n"));
    /// // not a PNG path
    /// assert!(ride.plot_contact_loads_png(&unicycle, path.with_extension("svg")).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plot_contact_loads_png<M: Contacts>(
        &self,
        model: &M,
        path: impl AsRef<Path>,
    ) -> Result<(), Error> {
        let curves = self.contact_curves(model)?;
        let root = png_root(path.as_ref(), PNG_LOOK)?;
        draw_contacts(root, PNG_LOOK, self.times(), &curves)
    }
}

/// The finite range of the lines' values and 0.
fn force_range(lines: &[Line<'_>]) -> Result<(f64, f64), Error> {
    let mut finite = lines
        .iter()
        .flat_map(|l| l.values.iter().copied())
        .filter(|x| x.is_finite())
        .peekable();
    if finite.peek().is_none() {
        return Err(Error::InvalidOptions("plot: no finite values".into()));
    }
    Ok(finite.fold((0.0f64, 0.0f64), |(lo, hi), x| (lo.min(x), hi.max(x))))
}

fn draw_contacts<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    look: Look,
    times: &[f64],
    curves: &[Curves],
) -> Result<(), Error> {
    let stroke = look.stroke;
    let (dash, gap) = (3 * stroke as i32 + 4, 2 * stroke as i32 + 2);
    let (dot, dot_gap) = (stroke as i32 + 1, 2 * stroke as i32 + 1);
    let mut lines = Vec::new();
    for (k, c) in curves.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        lines.push(Line {
            values: &c.normal,
            label: format!("{} N", c.wheel),
            style: color.stroke_width(stroke),
            dashes: None,
        });
        lines.push(Line {
            values: &c.tangential,
            label: format!("{} |F_t|", c.wheel),
            style: color.stroke_width(stroke),
            dashes: Some((dash, gap)),
        });
        if let Some(capacity) = &c.capacity {
            lines.push(Line {
                values: capacity,
                label: format!("{} μN", c.wheel),
                style: color.mix(0.8).stroke_width(stroke.div_ceil(2)),
                dashes: Some((dot, dot_gap)),
            });
        }
    }
    let (lo, hi) = force_range(&lines)?;
    let (t0, t1) = (times[0], times[times.len() - 1]);
    let mut chart = frame(&root, look, TITLE, (t0, t1, "t"), (lo, hi, "force"))?;
    let key = 3 * look.label as i32 / 2;
    for line in &lines {
        let (style, values) = (line.style, line.values);
        let mut labelled = false;
        // one piece per run of finite values
        for run in runs(times.len(), |i| values[i].is_finite()) {
            let points: Vec<(f64, f64)> = run.map(|i| (times[i], values[i])).collect();
            let series = match line.dashes {
                None => chart.draw_series(LineSeries::new(points, style)),
                Some((d, g)) => chart.draw_series(DashedLineSeries::new(points, d, g, style)),
            }
            .map_err(plot_error)?;
            if !labelled {
                labelled = true;
                let dashes = line.dashes;
                series.label(line.label.clone()).legend(
                    move |(x, y)| -> DynElement<'static, DB, (i32, i32)> {
                        match dashes {
                            None => PathElement::new([(x, y), (x + key, y)], style).into_dyn(),
                            Some((d, g)) => DashedPathElement::new(
                                [(x, y), (x + key, y)],
                                d / 2 + 1,
                                g / 2 + 1,
                                style,
                            )
                            .into_dyn(),
                        }
                    },
                );
            }
        }
    }
    let corner = legend_corner(
        (t0, t1),
        padded(lo, hi),
        lines
            .iter()
            .flat_map(|l| times.iter().copied().zip(l.values.iter().copied())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::private::doc_models::Unicycle;

    fn out(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("nonholo_plot_contacts_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// The unicycle's constant loads: `N = m g`, `|F_t| = m v w`, `mu N`.
    #[test]
    fn the_curves_are_the_loads() {
        let u = Unicycle::default();
        let ride = u.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 2.0, 20).unwrap();
        let c = ride.contact_curves(&u).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].wheel, "W");
        let n = u.m * 9.81;
        assert!(c[0].normal.iter().all(|x| (x - n).abs() < 1e-9));
        assert!(c[0]
            .tangential
            .iter()
            .all(|x| (x - u.m * 0.75).abs() < 1e-12));
        let cap = c[0].capacity.as_ref().unwrap();
        assert!(cap.iter().all(|x| (x - 0.8 * n).abs() < 1e-9));
    }

    #[test]
    fn files_and_errors() {
        let u = Unicycle::default();
        let ride = u.ride(&[0.0, 0.0, 0.0, 0.0, 1.5, 0.5], 2.0, 20).unwrap();
        let svg = out("loads.svg");
        ride.plot_contact_loads_svg(&u, &svg).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        for label in ["contact forces", "W N", "W |F_t|", "W μN", "force"] {
            assert!(text.contains(label), "no {label}");
        }
        let png = out("loads.png");
        ride.plot_contact_loads_png(&u, &png).unwrap();
        assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
        // no samples, another model, an unwritable file
        let empty = Trajectory::new::<Unicycle>();
        assert!(matches!(
            empty.plot_contact_loads_svg(&u, &svg),
            Err(Error::InvalidOptions(_))
        ));
        let other = Trajectory::from_names(&["x"], &["v"]);
        assert!(matches!(
            other.plot_contact_loads_svg(&u, &svg),
            Err(Error::Dimension { .. })
        ));
        let nowhere = out("no_such_folder").join("x.png");
        assert!(ride.plot_contact_loads_png(&u, &nowhere).is_err());
        let _ = std::fs::remove_dir_all(svg.parent().unwrap());
    }
}
