//! The tippe top (`nonholo::models::TippeTop`, Leine and Glocker 2003's parameters): released
//! on its sphere at 0.1 rad of tilt, spinning at 180 rad/s about the vertical with its centre
//! of mass at rest, it slides on the ground, and the friction turns it over. Jellett's
//! integral `(I_G omega) . (G - contact)` stays while the energy falls and the centre of
//! mass rises.
//!
//! With point-contact Coulomb friction alone (Leine and Glocker add drilling friction, so
//! their times differ), at their `mu = 0.3` the slip dies out at about 137 degrees and the
//! top rolls on nearly inverted; at `mu = 0.2` it slides until its stem touches the ground,
//! where the run stops (`stop_when` on `TippeTop::stem_clearance`).
//!
//! `--features plot` plots the nutation (`target/plots/tippe_top.svg`), `--features viz`
//! writes each run as an animation (`tippe_top_*.html`).
//!
//! `cargo run --release --features plot,viz --example tippe_top`
use nonholo::models::TippeTop;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (spin, tilt) = (180.0, 0.1);
    println!(
        "{:>5} {:>12} {:>14} {:>12} {:>14} {:>12}",
        "mu", "grips at", "past 90 deg", "end (s)", "nutation", "Jellett"
    );
    let mut series = Vec::new();
    for mu in [0.3, 0.2] {
        let top = TippeTop::default().with_mu(mu);
        // [x, y, psi, theta, phi]: omega = dot(psi) N.z with G at rest, so the sphere's
        // centre moves at -omega x (E - G) and its contact slides
        let q0 = [0.0, 0.0, 0.0, tilt, 0.0];
        let qd0 = [-spin * top.a * f64::sin(tilt), 0.0, spin, 0.0, 0.0];
        let options = Options::default()
            .rtol(1e-10)
            .atol(1e-12)
            .sample_every(0.005)
            .stop_when(move |_, s| top.stem_clearance(&s[..TippeTop::NQ]));
        let tr = simulate_hybrid(&top, &q0, &qd0, 0.0..4.0, &options)?;
        let theta = tr.column("theta").unwrap_or_default();
        let (t_end, last) = tr.last().ok_or("an empty run")?;
        let grips = tr
            .events()
            .first()
            .map_or("never".to_string(), |e| format!("{:.3} s", e.t));
        let turned = tr
            .times()
            .iter()
            .zip(&theta)
            .find(|(_, th)| **th > core::f64::consts::FRAC_PI_2)
            .map_or("never".to_string(), |(t, _)| format!("{t:.3} s"));
        let jellett: Vec<f64> = (0..tr.len())
            .map(|i| jellett(&top, tr.state(i).unwrap_or(&[0.0; 10])))
            .collect();
        let drift = jellett
            .iter()
            .fold(0.0f64, |m, j| m.max((j - jellett[0]).abs()))
            / jellett[0].abs();
        let end = if tr.event_time().is_some() {
            "stem"
        } else {
            "rolls on"
        };
        println!(
            "{mu:5.1} {grips:>12} {turned:>14} {t_end:8.3} {end:>4} {:14.4} {drift:12.1e}",
            last[3]
        );
        #[cfg(feature = "viz")]
        {
            let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
            let page = nonholo::viz::plots_dir(target)?.join(format!("tippe_top_{mu}.html"));
            let animation =
                nonholo::viz::Animation::default().title(&format!("tippe top, mu = {mu}"));
            tr.animate_html(&top, &page, &animation)?;
            println!("      animation: {}", page.display());
        }
        series.push((mu, tr.times().to_vec(), theta));
    }
    println!(
        "the stem touches the ground at a nutation of {:.4} rad",
        TippeTop::default().stem_touches()
    );
    #[cfg(feature = "plot")]
    {
        // both runs on the times of the longer one, the shorter held at its end
        let (_, times, _) = &series[0];
        let held: Vec<Vec<f64>> = series
            .iter()
            .map(|(_, t, th)| {
                times
                    .iter()
                    .map(|x| {
                        let k = t.partition_point(|s| s <= x).saturating_sub(1);
                        th[k.min(th.len() - 1)]
                    })
                    .collect()
            })
            .collect();
        let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
        let path = nonholo::files::plots_dir(target)?.join("tippe_top.svg");
        nonholo::plot::plot_series_svg(
            &path,
            "tippe top: nutation theta (rad)",
            times,
            &[("mu = 0.3", &held[0]), ("mu = 0.2", &held[1])],
        )?;
        println!("plot: {}", path.display());
    }
    let _ = &series;
    Ok(())
}

/// Jellett's integral `(I_G omega) . (G - contact)` at `[q, dot(q)]`, from the Euler angles
/// (z-x-z) and their rates.
fn jellett(top: &TippeTop, s: &[f64]) -> f64 {
    let (psi, th) = (s[2], s[3]);
    let (dpsi, dth, dphi) = (s[7], s[8], s[9]);
    let k = [psi.sin() * th.sin(), -psi.cos() * th.sin(), th.cos()];
    let e1 = [psi.cos(), psi.sin(), 0.0];
    let w: Vec<f64> = (0..3)
        .map(|i| dth * e1[i] + dphi * k[i] + if i == 2 { dpsi } else { 0.0 })
        .collect();
    let wk: f64 = (0..3).map(|i| w[i] * k[i]).sum();
    (0..3)
        .map(|i| {
            let l = top.i_1 * w[i] + (top.i_3 - top.i_1) * wk * k[i];
            let gp = -top.a * k[i] + if i == 2 { top.r } else { 0.0 };
            l * gp
        })
        .sum()
}
