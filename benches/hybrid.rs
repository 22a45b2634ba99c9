//! What events cost a run: the rimless wheel walking for 10 s (about 28 heel strikes, each
//! located and reset) against the same run's smooth phases integrated one after the other
//! with `simulate`, from each post-strike state to the next strike (group `hybrid`,
//! functions `rimless_wheel_events`, `rimless_wheel_phases`), Tsit45 at 1e-10.
//!
//! `cargo bench -p nonholo-benches --bench hybrid`

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::RimlessWheel;
use nonholo::prelude::*;
use std::hint::black_box;
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let w = RimlessWheel::default();
    let smooth = Options::default().rtol(1e-10).atol(1e-10);
    let hybrid = w.heel_strikes(smooth.clone());
    let (q0, qd0) = ([-w.alpha], [1.0]);
    let tr = simulate_hybrid(&w, &q0, &qd0, 0.0..10.0, &hybrid).expect("a walk");
    // the phases: from the start and from each post-strike sample to the next strike
    let times = tr.times();
    let mut phases: Vec<(f64, f64, Vec<f64>)> = Vec::new();
    let mut start = (0.0, tr.state(0).unwrap().to_vec());
    for e in tr.events() {
        phases.push((start.0, e.t, start.1.clone()));
        let after = times.iter().rposition(|t| *t == e.t).unwrap();
        start = (e.t, tr.state(after).unwrap().to_vec());
    }
    phases.push((start.0, 10.0, start.1));
    println!("{} heel strikes in 10 s", tr.events().len());

    let mut g = c.benchmark_group("hybrid");
    g.bench_function("rimless_wheel_events", |b| {
        b.iter(|| simulate_hybrid(black_box(&w), &q0, &qd0, 0.0..10.0, &hybrid).unwrap())
    });
    g.bench_function("rimless_wheel_phases", |b| {
        b.iter(|| {
            for (t0, t1, x0) in &phases {
                black_box(simulate(black_box(&w), x0, *t0..*t1, &smooth).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = hybrid;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    targets = benches
}
criterion_main!(hybrid);
