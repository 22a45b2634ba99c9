//! The Whipple bicycle of Meijaard et al. 2007 (`nonholo::models::WhippleBicycle`, written
//! with frames, bodies and rolling contacts): linearized upright at 101 speeds, its
//! stability summary (weave and capsize speeds, the self-stable range), then ridden
//! nonlinearly inside the self-stable range (a lean disturbance dies out) and below it
//! (the weave grows until the bicycle falls), with energy and the front-contact
//! (pitch) constraint checked along each run.
//!
//! `cargo run --release --example whipple_bicycle` prints all this;
//! `cargo run --release --features plot --example whipple_bicycle` also draws the
//! eigenvalues against speed (real parts solid, imaginary parts dashed, as in Meijaard 2007,
//! fig. 3) into `target/plots/whipple_eigenvalues.png` under the crate's folder, or into the
//! folder named by the environment variable `NONHOLO_PLOTS`, and prints the file's path;
//! with `--features viz` (the README's command: `--features plot,viz`) it also writes each
//! ride as an animation, `whipple_ride.html` (open it in a browser), `whipple_ride.gif` and
//! `whipple_fall.html`.
use nonholo::models::WhippleBicycle;
use nonholo::prelude::*;
use nonholo::{Linearization, SimulationError};

/// Upright straight running at forward speed `v` (pitch from the contact constraint),
/// with a lean rate `roll_rate`. Speeds: `dot(roll)`, `dot(th_r)`, `dot(steer)`.
fn upright(bike: &WhippleBicycle, v: f64, roll_rate: f64) -> Result<[f64; 11], Error> {
    let mut state = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut state[..WhippleBicycle::NQ])?;
    state[WhippleBicycle::NQ] = roll_rate;
    state[WhippleBicycle::NQ + 1] = -v / bike.r_r;
    Ok(state)
}

fn linearized(bike: &WhippleBicycle, v: f64) -> Result<Linearization, Error> {
    let spec = Linearize::new().keep(&["roll", "steer", "dot(roll)", "dot(steer)"]);
    linearize(bike, 0.0, &upright(bike, v, 0.0)?, &spec)
}

/// Where `f` changes sign in `[lo, hi]` (bisection to round-off).
fn root(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let positive = f(lo) > 0.0;
    while hi - lo > 1e-14 * hi {
        let mid = 0.5 * (lo + hi);
        if (f(mid) > 0.0) == positive {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bike = WhippleBicycle::default();

    // eigenvalues against speed: one exact Jacobian (11 JVPs) and a 4x4 Schur per speed
    let start = std::time::Instant::now();
    let speeds: Vec<f64> = (0..=100).map(|i| 0.1 * f64::from(i)).collect();
    let mut spectra = Vec::with_capacity(speeds.len());
    for v in &speeds {
        spectra.push(linearized(&bike, *v)?.eigenvalues()?);
    }
    let sweep = start.elapsed();
    println!("eigenvalues of the upright bicycle, v = 0..10 m/s (Meijaard 2007, fig. 3):");
    println!("{:>5}  eigenvalues (re +- im i)", "v");
    for (v, eig) in speeds.iter().zip(&spectra).step_by(10) {
        let text: Vec<String> = eig
            .iter()
            .filter(|e| e.im >= 0.0)
            .map(|e| {
                if e.im > 0.0 {
                    format!("{:8.4} +- {:.4}i", e.re, e.im)
                } else {
                    format!("{:8.4}", e.re)
                }
            })
            .collect();
        println!("{v:5.1}  {}", text.join("   "));
    }

    // stability boundaries from the characteristic polynomial s^4 + c3 s^3 + .. + c0,
    // smooth in v: weave where the Hurwitz determinant c3 c2 c1 - c1^2 - c0 c3^2 changes
    // sign, capsize where c0 (a real eigenvalue through 0) does
    let poly = |v: f64| linearized(&bike, v).map(|l| l.characteristic_polynomial());
    let hurwitz = |v: f64| {
        let c = poly(v).expect("linearization");
        c[3] * c[2] * c[1] - c[1] * c[1] - c[0] * c[3] * c[3]
    };
    let weave = root(4.0, 5.0, hurwitz);
    let capsize = root(5.5, 6.5, |v| poly(v).expect("linearization")[0]);
    println!(
        "\nweave speed   {weave:.11} m/s (Meijaard: 4.29238253634111)\ncapsize speed {capsize:.11} m/s (Meijaard: 6.02426201538837)"
    );
    println!("self-stable for {weave:.3} < v < {capsize:.3} m/s");
    println!(
        "101 linearizations + eigenvalues in {:.2} ms",
        sweep.as_secs_f64() * 1e3
    );
    #[cfg(feature = "plot")]
    {
        let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
        let path = nonholo::plot::plots_dir(target)?.join("whipple_eigenvalues.png");
        nonholo::plot::plot_eigenvalues_png(
            &path,
            "Whipple bicycle (Meijaard et al. 2007): eigenvalues of upright straight running",
            &speeds,
            &spectra,
        )?;
        println!("eigenvalue plot: {}", path.display());
    }

    // ride it: a lean-rate kick of 0.5 rad/s inside and below the self-stable range
    println!(
        "\n{:>5} {:>12} {:>14} {:>14} {:>12} {:>12} {:>12}",
        "v",
        "fell at",
        "|roll| 1st s",
        "|roll| last s",
        "energy drift",
        "max |C|",
        "max |pitch c.|"
    );
    for (v, name) in [(5.0, "whipple_ride"), (3.0, "whipple_fall")] {
        let state = upright(&bike, v, 0.5)?;
        // DOP853 (order 8) for the tight tolerance; the samples come from its dense output
        let options = Options::default()
            .method(Method::Dop853)
            .rtol(1e-10)
            .atol(1e-10)
            .sample_every(0.01)
            // fallen at a lean of 45 degrees (beyond it the frame passes through the ground)
            .stop_when(|_, s| std::f64::consts::FRAC_PI_4 - s[3].abs());
        // the run also ends where the ground stops holding the bicycle (a wheel would lift)
        let (tr, lost) = match simulate(&bike, &state, 0.0..8.0, &options) {
            Ok(tr) => (tr, None),
            Err(SimulationError {
                error: error @ Error::ContactLost { .. },
                partial,
            }) => (partial, Some(error)),
            Err(e) => return Err(e.into()),
        };
        let (t, roll) = (tr.times(), tr.column("roll").unwrap_or_default());
        let end = t.last().copied().unwrap_or(0.0);
        let max_roll = |from: f64, to: f64| {
            t.iter()
                .zip(&roll)
                .filter(|(ti, _)| **ti >= from && **ti <= to)
                .fold(0.0f64, |m, (_, r)| m.max(r.abs()))
        };
        let e = tr.energy(&bike)?;
        let drift = e.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs())) / e[0].abs();
        let fell = tr
            .event_time()
            .map_or("never".to_string(), |t| format!("{t:.2} s"));
        println!(
            "{v:5.1} {fell:>12} {:14.4} {:14.2e} {drift:12.1e} {:12.1e} {:12.1e}",
            max_roll(0.0, 1.0),
            max_roll(end - 1.0, end),
            tr.max_constraint_residual(&bike)?,
            tr.max_configuration_residual(&bike)?,
        );
        if let Some(Error::ContactLost {
            contact, event, t, ..
        }) = lost
        {
            println!("      (at {t:.3} s the {contact} contact {event}: the ground holds the fall no further)");
        }
        // watch it: one self-contained page (orbit, zoom, play, scrub) and a GIF
        #[cfg(feature = "viz")]
        {
            use nonholo::viz::Animation;
            let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
            let dir = nonholo::viz::plots_dir(target)?;
            let animation = Animation::default()
                .title(&format!("Whipple bicycle, {v} m/s, lean-rate kick"))
                .trail("rear_wheel.contact", [200, 60, 60])
                .trail("front_wheel.contact", [60, 60, 200]);
            let page = dir.join(format!("{name}.html"));
            tr.animate_html(&bike, &page, &animation)?;
            println!("  animation: {}", page.display());
            if name == "whipple_ride" {
                let gif = dir.join(format!("{name}.gif"));
                tr.animate_gif(&bike, &gif, &animation.size(480, 360).fps(15.0))?;
                println!("  animation: {}", gif.display());
            }
        }
        #[cfg(not(feature = "viz"))]
        let _ = name;
    }
    Ok(())
}
