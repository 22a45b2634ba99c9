//! Where the parts are: `point_positions`, `frame_orientations` and `point_velocities` of
//! the Whipple bicycle (17 points, 8 frames) and the 3D rolling disk, per call.
//!
//! Group `geometry_<model>`, functions `point_positions`, `frame_orientations`,
//! `point_velocities` (`target/criterion/geometry_<model>/<function>/new/estimates.json`).
//!
//! And the animations of a 10 s ride of the bicycle (1001 samples): group `animate`,
//! `html_10s` (the page, written to a temporary file; its size is printed) and
//! `gif_5s_20fps` (800 x 600).

use criterion::{criterion_group, criterion_main, Criterion};
use nonholo::models::{RollingDisk3d, WhippleBicycle};
use nonholo::prelude::*;
use std::hint::black_box;
use std::time::Duration;

macro_rules! bench_geometry {
    ($c:expr, $name:literal, $m:expr, $x:expr) => {{
        let (m, x) = ($m, $x);
        let q = &x[..nq_of(&m)];
        let mut p = vec![[0.0; 3]; points_of(&m)];
        let mut r = vec![[[0.0; 3]; 3]; frames_of(&m)];
        let mut g = $c.benchmark_group(concat!("geometry_", $name));
        g.bench_function("point_positions", |b| {
            b.iter(|| {
                black_box(&m)
                    .point_positions(black_box(0.0), black_box(q), &mut p)
                    .unwrap()
            })
        });
        g.bench_function("frame_orientations", |b| {
            b.iter(|| {
                black_box(&m)
                    .frame_orientations(black_box(0.0), black_box(q), &mut r)
                    .unwrap()
            })
        });
        g.bench_function("point_velocities", |b| {
            b.iter(|| {
                black_box(&m)
                    .point_velocities(black_box(0.0), black_box(&x), &mut p)
                    .unwrap()
            })
        });
        g.finish();
    }};
}

fn nq_of<M: Model>(_: &M) -> usize {
    M::NQ
}
fn points_of<M: Geometry>(_: &M) -> usize {
    M::POINTS.len()
}
fn frames_of<M: Geometry>(_: &M) -> usize {
    M::FRAMES.len()
}

fn benches(c: &mut Criterion) {
    let bike = WhippleBicycle::default();
    let mut x = WhippleBicycle::ZERO_STATE;
    x[3] = 0.05;
    x[6] = -0.03;
    bike.solve_configuration(0.0, &mut x[..WhippleBicycle::NQ])
        .unwrap();
    x[WhippleBicycle::NQ] = 0.2;
    x[WhippleBicycle::NQ + 1] = -10.0;
    bench_geometry!(c, "whipple_bicycle", bike, x);
    let disk = RollingDisk3d::default();
    bench_geometry!(
        c,
        "rolling_disk_3d",
        disk,
        [0.1, 0.2, 0.3, 0.2, 0.5, 1.0, 2.0, 0.5]
    );
}

fn animations(c: &mut Criterion) {
    use nonholo::viz::Animation;
    let bike = WhippleBicycle::default();
    let mut x = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut x[..WhippleBicycle::NQ])
        .unwrap();
    x[WhippleBicycle::NQ] = 0.5;
    x[WhippleBicycle::NQ + 1] = -5.0 / bike.r_r;
    let options = Options::default().method(Method::Dop853).sample_every(0.01);
    let ride = simulate(&bike, &x, 0.0..10.0, &options).unwrap();
    let dir = std::env::temp_dir();
    let (page, gif) = (
        dir.join("nonholo_bench_ride.html"),
        dir.join("nonholo_bench_ride.gif"),
    );
    let animation = Animation::default().trail("rear_wheel.contact", [200, 60, 60]);
    let mut g = c.benchmark_group("animate");
    g.sample_size(10);
    g.bench_function("html_10s", |b| {
        b.iter(|| ride.animate_html(&bike, &page, &animation).unwrap())
    });
    let five = animation.clone().span(0.0, 5.0).fps(20.0);
    g.bench_function("gif_5s_20fps", |b| {
        b.iter(|| ride.animate_gif(&bike, &gif, &five).unwrap())
    });
    g.finish();
    let size = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    println!(
        "10 s bicycle ride ({} samples): page {} bytes, 5 s GIF {} bytes",
        ride.len(),
        size(&page),
        size(&gif)
    );
}

criterion_group! {
    name = geometry;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = benches, animations
}
criterion_main!(geometry);
