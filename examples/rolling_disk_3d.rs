//! A thin disk rolling on a plane, described with frames, a body and a rolling contact
//! (`nonholo::models::RollingDisk3d`): upright rolling is stable above the critical speed
//! `v^2 = g r / 3` and falls below it. Two runs, one on each side, each nudged by a small
//! lean rate. With `--features viz` each run is also written as an animation
//! (`target/plots/rolling_disk_*.html`).
use nonholo::models::RollingDisk3d;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let disk = RollingDisk3d::new();
    let v_crit = (disk.g * disk.r / 3.0).sqrt();
    println!("critical speed sqrt(g r / 3) = {v_crit:.4} m/s");
    println!(
        "{:>6} {:>10} {:>12} {:>14} {:>14}",
        "v", "fell at", "max |lean|", "energy drift", "max |C|"
    );
    for factor in [0.5, 2.0] {
        let v = factor * v_crit;
        // [x, y, yaw, lean, spin | dot(yaw), dot(lean), dot(spin)]: rolling along x
        let state = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05, v / disk.r];
        let options = Options::default()
            .sample_every(0.01)
            .stop_when(|_, s| 1.0 - s[3].abs()); // stop when the lean reaches 1 rad
        let tr = simulate(&disk, &state, 0.0..10.0, &options)?;
        let lean = tr.column("lean").unwrap_or_default();
        let max_lean = lean.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let e = tr.energy(&disk)?;
        let drift = e.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs()));
        let fell = tr
            .event_time()
            .map_or("never".to_string(), |t| format!("{t:.3} s"));
        println!(
            "{v:6.3} {fell:>10} {max_lean:12.5} {drift:14.2e} {:14.2e}",
            tr.max_constraint_residual(&disk)?
        );
        // watch it (`--features viz`): one self-contained page per run
        #[cfg(feature = "viz")]
        {
            let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
            let page = nonholo::viz::plots_dir(target)?.join(format!("rolling_disk_{factor}.html"));
            let animation = nonholo::viz::Animation::default()
                .title(&format!("rolling disk at {factor} x the critical speed"))
                .trail("disk.contact", [200, 60, 60]);
            tr.animate_html(&disk, &page, &animation)?;
            println!("       animation: {}", page.display());
        }
    }
    Ok(())
}
