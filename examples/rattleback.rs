//! The rattleback of Kane and Levinson 1982 (`nonholo::models::Rattleback`): an ellipsoidal
//! shell whose principal axes of inertia are turned a little from its axes of shape.
//! Spun one way it rocks, stops and spins the other way.
//!
//! First the linearization about steady spin on its lowest point: the growth rate of its
//! rocking (the largest real part of the eigenvalues) against the spin rate, in both
//! senses. Then a ride: spun at 2 rad/s in each sense with a little rocking, 60 s at
//! rtol 1e-8, the spin rate `dot(yaw)` recorded; the energy is kept to the tolerance while
//! the spin reverses. `--features plot` plots the spin (`target/plots/rattleback_spin.svg`),
//! `--features viz` writes each ride as an animation (`rattleback_*.html`).
//!
//! `cargo run --release --features plot,viz --example rattleback`
use nonholo::models::Rattleback;
use nonholo::prelude::*;

/// Steady spin `spin` about the vertical on the lowest point, rocking with `roll_rate`.
fn spinning(rb: &Rattleback, spin: f64, roll_rate: f64) -> [f64; Rattleback::DIM] {
    let mut s = Rattleback::ZERO_STATE;
    s[2] = rb.c; // the centre's height on the lowest point
    s[Rattleback::NQ] = spin; // dot(yaw)
    s[Rattleback::NQ + 1] = roll_rate; // dot(roll)
    s
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rb = Rattleback::default();
    println!("rocking at rest and growth about steady spin (largest real part, 1/s):");
    println!("{:>8} {:>14} {:>14}", "spin", "spun +", "spun -");
    let keep = ["roll", "pitch", "dot(yaw)", "dot(roll)", "dot(pitch)"];
    for spin in [0.25, 0.5, 1.0, 2.0, 3.0, 5.0] {
        let mut growth = [0.0; 2];
        for (k, sense) in [1.0, -1.0].into_iter().enumerate() {
            let lin = linearize(
                &rb,
                0.0,
                &spinning(&rb, sense * spin, 0.0),
                &Linearize::new().keep(&keep),
            )?;
            growth[k] = lin.eigenvalues()?.iter().fold(f64::MIN, |m, e| m.max(e.re));
        }
        println!("{spin:8.2} {:14.5} {:14.5}", growth[0], growth[1]);
    }

    println!("\nrides of 60 s (rtol 1e-8):");
    println!(
        "{:>8} {:>14} {:>14} {:>14} {:>12}",
        "spun", "reversed at", "final spin", "energy drift", "max |h|"
    );
    let options = Options::default().rtol(1e-8).atol(1e-8).sample_every(0.01);
    let mut spins = Vec::new();
    let mut times = Vec::new();
    for sense in [1.0, -1.0] {
        let start = spinning(&rb, 2.0 * sense, 0.1);
        let tr = simulate(&rb, &start, 0.0..60.0, &options)?;
        let spin = tr.column("dot(yaw)").unwrap_or_default();
        let reversed = tr
            .times()
            .iter()
            .zip(&spin)
            .find(|(_, w)| **w * sense < 0.0)
            .map_or("never".to_string(), |(t, _)| format!("{t:.2} s"));
        let e = tr.energy(&rb)?;
        let drift = e.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs())) / e[0].abs();
        println!(
            "{:8.1} {reversed:>14} {:14.4} {drift:14.2e} {:12.2e}",
            2.0 * sense,
            spin.last().copied().unwrap_or(f64::NAN),
            tr.max_configuration_residual(&rb)?
        );
        times = tr.times().to_vec();
        spins.push(spin);
        #[cfg(feature = "viz")]
        {
            let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
            let name = if sense > 0.0 { "plus" } else { "minus" };
            let page = nonholo::viz::plots_dir(target)?.join(format!("rattleback_{name}.html"));
            let animation = nonholo::viz::Animation::default()
                .title(&format!("rattleback spun at {:.0} rad/s", 2.0 * sense));
            tr.animate_html(&rb, &page, &animation)?;
            println!("         animation: {}", page.display());
        }
    }
    #[cfg(feature = "plot")]
    {
        let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
        let path = nonholo::files::plots_dir(target)?.join("rattleback_spin.svg");
        nonholo::plot::plot_series_svg(
            &path,
            "rattleback: spin rate dot(yaw) (rad/s)",
            &times,
            &[("spun +2 rad/s", &spins[0]), ("spun -2 rad/s", &spins[1])],
        )?;
        println!("plot: {}", path.display());
    }
    let _ = (&times, &spins);
    Ok(())
}
