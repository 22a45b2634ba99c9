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
//! `--features plot` also plots `th` and `dot(th)` (`rimless_wheel.svg`).
use nonholo::models::RimlessWheel;
use nonholo::prelude::*;

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
    Ok(())
}
