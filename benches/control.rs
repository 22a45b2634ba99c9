//! The cost of control: `Model::jacobians` (df/dx and df/du at once, what an MPC or an EKF
//! calls every control step) against one `Model::rhs`, on the Whipple bicycle (11 states,
//! 3 inputs) and the unicycle with rider, with one `Model::rhs_jvp` (one direction) beside
//! them.
//!
//! Groups `control_<model>`, functions `rhs`, `jacobians`, `rhs_jvp`
//! (`target/criterion/control_<model>/<function>/new/estimates.json`).
//!
//! And control in the loop: the bicycle at 5 m/s kicked (0.5 rad/s of lean rate), 10 s
//! sampled every 10 ms, open loop (it is self-stable there) against a 100 Hz sampled LQR on
//! the steer torque, the same with the torque held at zero (what sampling alone costs),
//! and the LQR as continuous feedback; Tsit45 and DOP853 at the default 1e-10. Group
//! `closed_loop_<method>`, functions `open_loop`, `sampled_zero`, `sampled_lqr`,
//! `continuous_lqr`.

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::control::{discretize, dlqr};
use nonholo::models::{RollingDiskPendulum, WhippleBicycle};
use nonholo::nalgebra::{DMatrix, DVector};
use nonholo::prelude::*;
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

/// The bicycle kicked at 5 m/s and the 100 Hz LQR gain on roll, steer and their rates.
fn kicked_at_5() -> (WhippleBicycle, [f64; 11], [f64; 4]) {
    const NQ: usize = WhippleBicycle::NQ;
    let bike = WhippleBicycle::default();
    let mut x = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut x[..NQ]).unwrap();
    x[NQ + 1] = -5.0 / bike.r_r;
    let spec = Linearize::new()
        .keep(&["roll", "steer", "dot(roll)", "dot(steer)"])
        .inputs(&["t_steer"]);
    let lin = linearize(&bike, 0.0, &x, &spec).unwrap();
    let (ad, bd) = discretize(&lin.a, &lin.b, 0.01).unwrap();
    let q = DMatrix::from_diagonal(&DVector::from_vec(vec![100.0, 25.0, 1.0, 1.0]));
    let k = dlqr(&ad, &bd, &q, &DMatrix::from_element(1, 1, 0.04))
        .unwrap()
        .k;
    x[NQ] = 0.5;
    (bike, x, [k[0], k[1], k[2], k[3]])
}

fn closed_loop(c: &mut Criterion) {
    const NQ: usize = WhippleBicycle::NQ;
    let (bike, x0, k) = kicked_at_5();
    let lqr = move |_t: f64, x: &[f64], u: &mut [f64]| {
        u[1] = -(k[0] * x[3] + k[1] * x[6] + k[2] * x[NQ] + k[3] * x[NQ + 2]);
    };
    for (name, method) in [("tsit45", Method::Tsit45), ("dop853", Method::Dop853)] {
        let open = Options::default().method(method).sample_every(0.01);
        let sampled = open.clone().control_period(0.01);
        let mut g = c.benchmark_group(format!("closed_loop_{name}"));
        g.bench_function("open_loop", |b| {
            b.iter(|| simulate(&bike, black_box(&x0), 0.0..10.0, &open).unwrap())
        });
        g.bench_function("sampled_zero", |b| {
            b.iter(|| {
                let mut zero = |_t: f64, _x: &[f64], u: &mut [f64]| u.fill(0.0);
                simulate_controlled(&bike, &mut zero, black_box(&x0), 0.0..10.0, &sampled).unwrap()
            })
        });
        g.bench_function("sampled_lqr", |b| {
            b.iter(|| {
                let mut c = lqr;
                simulate_controlled(&bike, &mut c, black_box(&x0), 0.0..10.0, &sampled).unwrap()
            })
        });
        g.bench_function("continuous_lqr", |b| {
            b.iter(|| {
                let mut c = lqr;
                simulate_controlled(&bike, &mut c, black_box(&x0), 0.0..10.0, &open).unwrap()
            })
        });
        g.finish();
    }
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
    targets = benches, closed_loop
}
criterion_main!(control);
