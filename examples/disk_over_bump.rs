//! A disk rolling over a bump in the road (`nonholo::models::DiskOverBump`): uneven ground
//! `ground road { height(u, v) = bump exp(-(u - at)^2 / width) }`, the contact built on it
//! with `road.at(x, y)` and the centre from `road.normal(x, y)`. Rolled at three speeds, it
//! goes over the bump: the normal force falls over the crest, where the road curves away,
//! and rises in the hollows on either side; fast enough, the crest would need a negative
//! normal force and the run stops there, naming the contact (the wheel would take off).
//!
//! `--features viz` writes the rides as animations (`target/plots/disk_over_bump_*.html`).
//!
//! `cargo run --release --features viz --example disk_over_bump`
use nonholo::models::DiskOverBump;
use nonholo::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let disk = DiskOverBump::default();
    println!(
        "bump {} m high at x = {} m; the crest's radius of curvature {:.2} m against the disk's {} m",
        disk.bump,
        disk.at,
        disk.width / (2.0 * disk.bump),
        disk.r
    );
    println!(
        "{:>6} {:>12} {:>12} {:>12} {:>12} {:>14}",
        "v", "end", "min N/mg", "max N/mg", "max |F_t|/muN", "energy drift"
    );
    for v in [1.0, 2.0, 4.0] {
        // upright, rolling along x toward the bump
        let mut start = DiskOverBump::ZERO_STATE;
        start[DiskOverBump::NQ + 2] = v / disk.r; // dot(spin)
        let options = Options::default()
            .rtol(1e-10)
            .atol(1e-12)
            .sample_every(0.01);
        let (tr, end) = match simulate(&disk, &start, 0.0..4.0 / v, &options) {
            Ok(tr) => (tr, "over".to_string()),
            Err(e) => {
                let end = match &e.error {
                    Error::ContactLost { event, t, .. } => format!("{event:?} {t:.3} s"),
                    other => format!("{other}"),
                };
                (e.partial, end)
            }
        };
        let loads = tr.contact_loads(&disk)?;
        let weight = disk.m * disk.g;
        let (lo, hi, used) = loads
            .iter()
            .fold((f64::MAX, f64::MIN, 0.0f64), |(lo, hi, u), l| {
                (
                    lo.min(l[0].normal / weight),
                    hi.max(l[0].normal / weight),
                    u.max(l[0].utilization),
                )
            });
        let e = tr.energy(&disk)?;
        let drift = e.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs())) / e[0];
        println!("{v:6.1} {end:>12} {lo:12.4} {hi:12.4} {used:12.4} {drift:14.2e}");
        #[cfg(feature = "viz")]
        {
            let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/plots");
            let page = nonholo::viz::plots_dir(target)?.join(format!("disk_over_bump_{v}.html"));
            let animation = nonholo::viz::Animation::default()
                .title(&format!("a disk over a bump at {v} m/s"))
                .trail("disk.contact", [200, 60, 60]);
            tr.animate_html(&disk, &page, &animation)?;
            println!("       animation: {}", page.display());
        }
    }
    Ok(())
}
