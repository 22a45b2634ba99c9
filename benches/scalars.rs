//! The generated right-hand side in each scalar: `f64` (`Model::rhs`, which is
//! `rhs_generic::<f64>`), `f32` and num-dual's `Dual64` (`rhs_generic`), and `Model::rhs_jvp` (the
//! generated models' own dual numbers), for the eight
//! worked systems of the papers and the Whipple bicycle, at one state each.
//!
//! Groups are `scalars/<model>`, functions `f64`, `f32`, `dual64`, `rhs_jvp`
//! (`target/criterion/scalars_<model>/<function>/new/estimates.json`).

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::{
    AssignedFront, AssignedSpin, CoaxialDisks, ParallelPoints, PendulumSkate, RollingDiskPendulum,
    Skate, VerticalDisk, WhippleBicycle,
};
use nonholo::num_dual::Dual64;
use nonholo::{Model, Scalar};
use std::hint::black_box;
use std::time::Duration;

/// A state with every coordinate and speed nonzero (coordinates small, so that the
/// bicycle is upright-ish), as an array of `N`.
fn state<const N: usize>(nq: usize) -> [f64; N] {
    core::array::from_fn(|i| {
        let x = 0.1 + 0.037 * i as f64;
        if i < nq {
            x
        } else {
            10.0 * x
        }
    })
}

/// One group: `Model::rhs` in f64, `rhs_generic` in f32 and with a Dual64 state (one
/// direction, as a JVP would seed it).
macro_rules! bench_scalars {
    ($c:expr, $name:literal, $t:ty) => {{
        const N: usize = <$t as Model>::DIM;
        let m64 = <$t>::default();
        let (m32, md) = (m64.cast::<f32>(), m64.cast::<Dual64>());
        let s: [f64; N] = state(<$t as Model>::NQ);
        let s32 = s.map(|v| v as f32);
        let mut sd = s.map(Dual64::from);
        sd[0] = sd[0].derivative();
        let mut g = $c.benchmark_group(concat!("scalars_", $name));
        g.bench_function("f64", |b| {
            b.iter(|| {
                let mut d = [0.0; N];
                black_box(&m64)
                    .rhs(black_box(0.3), black_box(&s), &mut d)
                    .unwrap();
                d
            })
        });
        g.bench_function("f32", |b| {
            b.iter(|| {
                let mut d = [0.0f32; N];
                black_box(&m32)
                    .rhs_generic(black_box(0.3), black_box(&s32), &mut d)
                    .unwrap();
                d
            })
        });
        g.bench_function("dual64", |b| {
            b.iter(|| {
                let mut d = [Dual64::from_f64(0.0); N];
                black_box(&md)
                    .rhs_generic(black_box(Dual64::from(0.3)), black_box(&sd), &mut d)
                    .unwrap();
                d
            })
        });
        // what generated models do with the dual numbers: Model::rhs_jvp, the state
        // seeded with the direction e_0 (the dual64 state above)
        let mut v = [0.0; N];
        v[0] = 1.0;
        g.bench_function("rhs_jvp", |b| {
            b.iter(|| {
                let mut o = [0.0; N];
                black_box(&m64)
                    .rhs_jvp(black_box(0.3), black_box(&s), black_box(&v), &mut o)
                    .unwrap();
                o
            })
        });
        g.finish();
    }};
}

fn benches(c: &mut Criterion) {
    bench_scalars!(c, "skate", Skate);
    bench_scalars!(c, "vertical_disk", VerticalDisk);
    bench_scalars!(c, "coaxial_disks", CoaxialDisks);
    bench_scalars!(c, "parallel_points", ParallelPoints);
    bench_scalars!(c, "pendulum_skate", PendulumSkate);
    bench_scalars!(c, "assigned_front", AssignedFront);
    bench_scalars!(c, "rolling_disk_pendulum", RollingDiskPendulum);
    bench_scalars!(c, "assigned_spin", AssignedSpin);
    bench_scalars!(c, "whipple_bicycle", WhippleBicycle);
}

criterion_group! {
    name = scalars;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = benches
}
criterion_main!(scalars);
