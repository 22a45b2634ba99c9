//! What events cost a run: the rimless wheel walking for 10 s (about 28 heel strikes, each
//! located and reset) against the same run's smooth phases integrated one after the other
//! with `simulate`, from each post-strike state to the next strike (group `hybrid`,
//! functions `rimless_wheel_events`, `rimless_wheel_phases`), Tsit45 at 1e-10.
//!
//! And what slips and grips cost: a disk on the floor driven by bursts of a motor torque
//! (0.15 s of every 0.5 s, more than friction can pass on) for 10 s, each burst spinning it
//! into a slip that grips again after (about 40 switches), against the same run's phases
//! integrated one by one, each from its start to just before its end (a sliding phase from
//! the rolling state where it slipped, so that it slips at once as the run did; functions
//! `driven_disk_switches`, `driven_disk_phases`), DOP853 at 1e-10.
//!
//! `cargo bench -p nonholo-benches --bench hybrid`

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::RimlessWheel;
use nonholo::prelude::*;
use nonholo_test_models::hybrid_events::DrivenDisk;
use std::hint::black_box;
use std::time::Duration;

/// 3 N m for the first 0.15 s of every 0.5 s: rolling would need 3 / (1.5 r) = 6.7 N of
/// friction, more than `mu m g = 3.9 N`.
fn bursts(t: f64, _x: &[f64], u: &mut [f64]) {
    u[0] = if t.rem_euclid(0.5) < 0.15 { 3.0 } else { 0.0 };
}

fn slips(c: &mut Criterion) {
    let d = DrivenDisk::default();
    let o = Options::default().rtol(1e-10).atol(1e-10);
    let (q0, qd0) = ([0.0; 4], [0.0; 4]);
    let mut law = bursts;
    let tr = simulate_hybrid_controlled(&d, &mut law, &q0, &qd0, 0.0..10.0, &o)
        .map_err(|e| e.error)
        .expect("a drive");
    // the phases: from the start and from each post-switch sample to just before the next
    let times = tr.times();
    let mut phases: Vec<(f64, f64, Vec<f64>)> = Vec::new();
    let mut start = (0.0, tr.state(0).unwrap().to_vec());
    for e in tr.events() {
        if e.t - 1e-9 > start.0 {
            phases.push((start.0, e.t - 1e-9, start.1.clone()));
        }
        let after = times.iter().rposition(|t| *t == e.t).unwrap();
        start = (e.t, tr.state(after).unwrap().to_vec());
    }
    if start.0 < 10.0 - 1e-9 {
        phases.push((start.0, 10.0, start.1));
    }
    println!(
        "{} switches in 10 s, {} phases",
        tr.events().len(),
        phases.len()
    );

    let mut g = c.benchmark_group("hybrid");
    g.bench_function("driven_disk_switches", |b| {
        b.iter(|| {
            let mut law = bursts;
            simulate_hybrid_controlled(black_box(&d), &mut law, &q0, &qd0, 0.0..10.0, &o)
                .map_err(|e| e.error)
                .unwrap()
        })
    });
    g.bench_function("driven_disk_phases", |b| {
        b.iter(|| {
            for (t0, t1, x0) in &phases {
                let mut law = bursts;
                let (q, qd) = x0.split_at(4);
                // a phase that starts at a slip starts from the rolling state and slips at
                // once, as the run did there
                let run = simulate_hybrid_controlled(black_box(&d), &mut law, q, qd, *t0..*t1, &o);
                black_box(run.map_err(|e| e.error).unwrap());
            }
        })
    });
    g.finish();
}

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
    targets = benches, slips
}
criterion_main!(hybrid);
