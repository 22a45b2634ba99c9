//! Parameter sweeps in parallel give exactly the sequential results.

use nonholo::models::VerticalDisk;
use nonholo::prelude::*;

#[test]
fn parallel_sweep_equals_sequential_runs() {
    let cases: Vec<(VerticalDisk, Vec<f64>)> = (0..16)
        .map(|k| {
            (
                VerticalDisk::new().with_alpha(0.02 * k as f64),
                vec![0.0, 0.0, 0.0, 0.3, 1.0, 0.5],
            )
        })
        .collect();
    let opts = Options::default().sample_every(0.5);
    let runs = simulate_ensemble(&cases, 0.0..5.0, &opts);
    assert_eq!(runs.len(), cases.len());
    for ((m, s0), r) in cases.iter().zip(&runs) {
        let par = r.as_ref().expect("run");
        let seq = simulate(m, s0, 0.0..5.0, &opts).expect("run");
        assert_eq!(par.states(), seq.states());
        let e = par.energy(m).unwrap();
        assert!((e[e.len() - 1] - e[0]).abs() < 1e-8 * (1.0 + e[0].abs()));
    }
    // Steeper slopes roll further down (x grows with alpha).
    let x_end: Vec<f64> = runs
        .iter()
        .map(|r| r.as_ref().unwrap().last().unwrap().1[0])
        .collect();
    assert!(x_end.windows(2).all(|w| w[1] >= w[0] - 1e-12), "{x_end:?}");
}
