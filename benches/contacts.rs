//! What the ground must supply, per call and along a run: `rhs`, `contact_loads` and
//! `reactions` of the Whipple bicycle, the differential-drive robot and the mobile
//! manipulator at a moving state (group `contacts_<model>`), and a 3 s run with the
//! contact checks on and off (group `contact_checks`, functions `<model>_on`, `<model>_off`).
//!
//! `cargo bench -p nonholo-benches --bench contacts`

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::{DiffDriveRobot, MobileManipulator, WhippleBicycle};
use nonholo::prelude::*;
use nonholo::ContactLoad;
use std::hint::black_box;
use std::time::Duration;

fn per_call<M: Contacts>(c: &mut Criterion, name: &str, m: &M, x: &[f64]) {
    let u = vec![0.0; M::NU];
    let mut d = vec![0.0; M::DIM];
    let mut l = vec![ContactLoad::ZERO; M::CONTACTS.len()];
    let mut r = vec![0.0; M::NQ];
    let mut g = c.benchmark_group(format!("contacts_{name}"));
    g.bench_function("rhs", |b| {
        b.iter(|| {
            black_box(m)
                .rhs_u(black_box(0.0), black_box(x), &u, &mut d)
                .unwrap()
        })
    });
    g.bench_function("contact_loads", |b| {
        b.iter(|| {
            black_box(m)
                .contact_loads(black_box(0.0), black_box(x), &u, &mut l)
                .unwrap()
        })
    });
    g.bench_function("reactions", |b| {
        b.iter(|| {
            black_box(m)
                .reactions(black_box(0.0), black_box(x), &u, &mut r)
                .unwrap()
        })
    });
    g.finish();
}

fn runs<M: Model>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    m: &M,
    x: &[f64],
) {
    for (on, tag) in [(true, "on"), (false, "off")] {
        let o = Options::default()
            .rtol(1e-8)
            .atol(1e-8)
            .sample_every(0.01)
            .contact_checks(on);
        let tr = simulate(m, x, 0.0..3.0, &o).expect("a run within the limits");
        assert_eq!(tr.last().unwrap().0, 3.0);
        g.bench_function(format!("{name}_{tag}"), |b| {
            b.iter(|| simulate(black_box(m), black_box(x), 0.0..3.0, &o).unwrap())
        });
    }
}

fn benches(c: &mut Criterion) {
    let bike = WhippleBicycle::default();
    let mut bx = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut bx[..WhippleBicycle::NQ])
        .unwrap();
    bx[WhippleBicycle::NQ] = 0.5;
    bx[WhippleBicycle::NQ + 1] = -5.0 / bike.r_r;
    per_call(c, "whipple", &bike, &bx);

    let robot = DiffDriveRobot::default();
    let mut rx = DiffDriveRobot::ZERO_STATE;
    rx[5] = 0.2;
    rx[DiffDriveRobot::NQ] = 8.0;
    rx[DiffDriveRobot::NQ + 1] = 10.0;
    per_call(c, "robot", &robot, &rx);

    let arm = MobileManipulator::default();
    let mut ax = MobileManipulator::ZERO_STATE;
    ax[MobileManipulator::NQ] = 8.0;
    ax[MobileManipulator::NQ + 1] = 10.0;
    per_call(c, "manipulator", &arm, &ax);

    let mut g = c.benchmark_group("contact_checks");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    runs(&mut g, "whipple", &bike, &bx);
    runs(&mut g, "robot", &robot, &rx);
    g.finish();
}

criterion_group! {
    name = contacts;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(contacts);
