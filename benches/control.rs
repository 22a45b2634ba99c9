//! The cost of control: `Model::jacobians` (df/dx and df/du at once, what an MPC or an EKF
//! calls every control step) against one `Model::rhs`, on the Whipple bicycle (11 states,
//! 3 inputs) and the unicycle with rider, with one `Model::rhs_jvp` (one direction) beside
//! them.
//!
//! Groups `control_<model>`, functions `rhs`, `jacobians`, `rhs_jvp`
//! (`target/criterion/control_<model>/<function>/new/estimates.json`).

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::{RollingDiskPendulum, WhippleBicycle};
use nonholo::Model;
use std::hint::black_box;
use std::time::Duration;

/// The bicycle at 3 m/s, leaning and steering a little, with all three torques on.
fn bicycle() -> (WhippleBicycle, [f64; WhippleBicycle::DIM], [f64; 3]) {
    let bike = WhippleBicycle::default();
    let mut x = WhippleBicycle::ZERO_STATE;
    x[3] = 0.05;
    x[6] = -0.03;
    bike.solve_configuration(0.0, &mut x[..WhippleBicycle::NQ])
        .unwrap();
    x[WhippleBicycle::NQ] = 0.2;
    x[WhippleBicycle::NQ + 1] = -3.0 / bike.r_r;
    x[WhippleBicycle::NQ + 2] = -0.1;
    (bike, x, [0.5, -0.8, 2.0])
}

macro_rules! bench_control {
    ($c:expr, $name:literal, $m:expr, $x:expr, $u:expr) => {{
        let (m, x, u) = ($m, $x, $u);
        const N: usize = 64;
        let (n, nu) = (x.len(), u.len());
        let mut g = $c.benchmark_group(concat!("control_", $name));
        g.bench_function("rhs", |b| {
            b.iter(|| {
                let mut d = [0.0; N];
                black_box(&m)
                    .rhs_u(black_box(0.3), black_box(&x), black_box(&u), &mut d[..n])
                    .unwrap();
                d
            })
        });
        let (mut a, mut bm) = (vec![0.0; n * n], vec![0.0; n * nu]);
        g.bench_function("jacobians", |b| {
            b.iter(|| {
                black_box(&m)
                    .jacobians(
                        black_box(0.3),
                        black_box(&x),
                        black_box(&u),
                        &mut a,
                        &mut bm,
                    )
                    .unwrap();
            })
        });
        let mut v = [0.0; N];
        v[0] = 1.0;
        g.bench_function("rhs_jvp", |b| {
            b.iter(|| {
                let mut o = [0.0; N];
                black_box(&m)
                    .rhs_jvp(
                        black_box(0.3),
                        black_box(&x),
                        black_box(&v[..n]),
                        &mut o[..n],
                    )
                    .unwrap();
                o
            })
        });
        g.finish();
    }};
}

fn benches(c: &mut Criterion) {
    let (bike, x, u) = bicycle();
    bench_control!(c, "whipple_bicycle", bike, x, u);
    let uni = RollingDiskPendulum::default();
    let xu = [0.1, 0.2, 0.3, 0.4, 0.2, -0.1, 1.0, 2.0, 0.5, -0.3];
    bench_control!(c, "rolling_disk_pendulum", uni, xu, [0.0; 0]);
}

criterion_group! {
    name = control;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = benches
}
criterion_main!(control);
