//! A rimless wheel walking down a slope: a smooth phase per step (an inverted pendulum
//! about the stance spoke's foot) and a heel strike between steps, a plastic impact that
//! keeps the angular momentum about the new foot (`Options::event` with a reset map, run by
//! `simulate_hybrid`). Started slow or fast, the pre-strike rate settles at the closed-form
//! steady rate, the difference in `dot(th)^2` shrinking by `c^2` a step
//! (`c = (i_c + m l^2 cos 2 alpha) / (i_c + m l^2)`).
//!
//! `cargo run --release --example rimless_wheel` prints the strikes of two walks, one
//! started below the steady rate and one above, and writes the first as CSV
//! (`rimless_wheel.csv`, with a pair of rows at each strike: before and after) into
//! `target/plots` under the crate's folder, or into the folder named by `NONHOLO_PLOTS`;
//! `--features plot` also plots `th` and `dot(th)` (`rimless_wheel.svg`); `--features viz`
//! writes a page where a ten-spoke wheel walks down the slope (`rimless_wheel.html`; open
//! it in a browser), from the same equations written with frames and the stance foot's
//! place along the slope as a coordinate that each strike moves on.
use nonholo::models::RimlessWheel;
use nonholo::prelude::*;

#[cfg(feature = "viz")]
nonholonomic! {
    /// The rimless wheel of `models::RimlessWheel` with ten spokes (`alpha = pi / 10`),
    /// written with frames so that it can be drawn: `s` is the stance foot's place down the
    /// slope, held by `dot(s) = 0` between strikes and moved on by `2 l sin(alpha)` at each.
    pub struct WalkingWheel;
    parameters { m = 2.0, l = 1.0, g = 9.81, slope = 0.08, alpha = 0.3141592653589793 }
    coordinates { s, th }
    frame N;
    point O;
    frame S = N.rotate(y, slope);
    frame W = S.rotate(y, th);
    point F = O + s * S.x;
    point H = F + l * W.z;
    particle hub { point: H, mass: m }
    gravity = -g * N.z;
    constraints { dot(s) == 0.0; }
    dependent { s }
    frame W1 = W.rotate(y, 2.0 * alpha);
    frame W2 = W.rotate(y, 4.0 * alpha);
    frame W3 = W.rotate(y, 6.0 * alpha);
    frame W4 = W.rotate(y, 8.0 * alpha);
    frame W5 = W.rotate(y, 10.0 * alpha);
    frame W6 = W.rotate(y, 12.0 * alpha);
    frame W7 = W.rotate(y, 14.0 * alpha);
    frame W8 = W.rotate(y, 16.0 * alpha);
    frame W9 = W.rotate(y, 18.0 * alpha);
    point T1 = H - l * W1.z;
    point T2 = H - l * W2.z;
    point T3 = H - l * W3.z;
    point T4 = H - l * W4.z;
    point T5 = H - l * W5.z;
    point T6 = H - l * W6.z;
    point T7 = H - l * W7.z;
    point T8 = H - l * W8.z;
    point T9 = H - l * W9.z;
    point G = O + S[4.0, 0.0, -0.02];
    draw {
        segment { from: H, to: F, color: black };
        segment { from: H, to: T1, color: black };
        segment { from: H, to: T2, color: black };
        segment { from: H, to: T3, color: black };
        segment { from: H, to: T4, color: black };
        segment { from: H, to: T5, color: black };
        segment { from: H, to: T6, color: black };
        segment { from: H, to: T7, color: black };
        segment { from: H, to: T8, color: black };
        segment { from: H, to: T9, color: black };
        sphere { center: H, radius: 0.08, color: rgb(200, 60, 60) };
        cuboid { center: G, half: S[5.0, 0.6, 0.02], color: gray };
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let w = RimlessWheel::default();
    let (c, steady) = (w.strike_ratio(), w.steady_rate());
    println!(
        "rimless wheel: m = {}, l = {}, i_c = {}, spokes 2 alpha = {} rad apart, slope {} rad",
        w.m,
        w.l,
        w.i_c,
        2.0 * w.alpha,
        w.slope
    );
    println!("  strike ratio c = {c:.6}, steady pre-strike rate {steady:.9} rad/s");
    let options = w.heel_strikes(
        Options::default()
            .rtol(1e-10)
            .atol(1e-10)
            .sample_every(0.01),
    );
    let mut first = None;
    for w0 in [0.8, 2.5] {
        let tr = simulate_hybrid(&w, &[-w.alpha], &[w0], 0.0..15.0, &options)?;
        let times = tr.times();
        println!(
            "\nstarted at dot(th) = {w0} rad/s: {} strikes in 15 s",
            tr.events().len()
        );
        println!("  step      t [s]   before [rad/s]   after [rad/s]   before - steady");
        for (n, e) in tr.events().iter().enumerate() {
            let i = times
                .iter()
                .position(|t| *t == e.t)
                .expect("the sample before");
            let (before, after) = (tr.state(i).unwrap()[1], tr.state(i + 1).unwrap()[1]);
            if n < 8 || n + 3 > tr.events().len() {
                println!(
                    "  {n:>4} {:>10.6} {before:>16.9} {after:>15.9} {:>17.3e}",
                    e.t,
                    before - steady
                );
            } else if n == 8 {
                println!("   ...");
            }
        }
        first.get_or_insert(tr);
    }
    let tr = first.expect("a walk");
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/plots");
    let dir = nonholo::files::plots_dir(target)?;
    let csv = dir.join("rimless_wheel.csv");
    tr.write_csv(&csv)?;
    println!("\nwrote {}", csv.display());
    #[cfg(feature = "plot")]
    {
        let svg = dir.join("rimless_wheel.svg");
        let columns = [RimlessWheel::COORDINATES[0], RimlessWheel::SPEEDS[0]];
        tr.plot_svg(
            &svg,
            "rimless wheel: th and dot(th), a strike per step",
            &columns,
        )?;
        println!("wrote {}", svg.display());
    }
    #[cfg(feature = "viz")]
    {
        // the same walk with frames: ten spokes, so that one always meets the ground
        let ww = WalkingWheel::default();
        let (a, step, c) = (
            ww.alpha,
            2.0 * ww.l * ww.alpha.sin(),
            (2.0 * ww.alpha).cos(),
        );
        let options = Options::default()
            .rtol(1e-10)
            .atol(1e-10)
            .sample_every(0.02)
            .event(
                "heel strike",
                move |_t, q, _qd| a - q[1],
                move |_t, q, qd| {
                    q[0] += step;
                    q[1] = -a;
                    qd[1] *= c;
                },
            );
        let walk = simulate_hybrid(&ww, &[0.0, -a], &[0.0, 1.2], 0.0..6.0, &options)?;
        let page = dir.join("rimless_wheel.html");
        let animation = nonholo::viz::Animation::default()
            .title("a rimless wheel walking down a slope: a heel strike per step")
            .trail("H", [200, 60, 60]);
        walk.animate_html(&ww, &page, &animation)?;
        println!(
            "wrote {} ({} strikes in 6 s, {:.2} m down the slope)",
            page.display(),
            walk.events().len(),
            walk.last().map_or(0.0, |(_, x)| x[0])
        );
    }
    Ok(())
}
