//! Generated `rhs` against a hand-written right-hand side of the same equations, for the
//! eight worked systems of the papers (`nonholo::models`, default parameters).
//!
//! Each hand-written rhs (`benches/hand/mod.rs`) transcribes the paper's printed first-order
//! system the way an expert writes an rhs by hand. The forces are the library model's (Benenti's gravity
//! on the incline comes from `potential_energy`; the Talamucci damping and pedalling are
//! parameters, zero by default but still computed), and the parameters are read from the
//! model struct on every call, exactly as the generated code does.
//!
//! Before benchmarking, each hand-written rhs is checked against the generated one at random
//! states and times, with the default parameters and with other ones (every incline,
//! damping and pedalling parameter nonzero; another axle or mass where there is none), to
//! 1e-12 relative per component (a component below 1% of the largest, which comes from
//! cancellation, is compared at 1% of the largest).
//!
//! The rattleback (`nonholo::models::Rattleback`) has no printed first-order system: its
//! hand-written rhs is derived by Newton–Euler about the contact point
//! (`benches/hand/rattleback.rs`) and checked at random states on the ground (z from
//! `solve_configuration`) to 1e-10 relative.
//!
//! Groups are the snake_case model names, functions `generated` and `hand_written`
//! (`target/criterion/<group>/<function>/new/estimates.json`).

// The tests' SplitMix64 (reproducible random states).
#[path = "../tests/suite/common/rng.rs"]
#[allow(dead_code)]
mod rng;

mod hand;

use criterion::{criterion_group, criterion_main, Criterion};
use hand::rattleback::rattleback;
use hand::{
    assigned_front, assigned_spin, coaxial_disks, parallel_points, pendulum_skate,
    rolling_disk_pendulum, skate, vertical_disk, Libm, Std,
};
use nonholo::models::{
    AssignedFront, AssignedSpin, CoaxialDisks, ParallelPoints, PendulumSkate, Rattleback,
    RollingDiskPendulum, Skate, VerticalDisk,
};
use nonholo::Model;
use rng::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

// ==================================================================================
// Check and bench
// ==================================================================================

/// A random state, each component uniform in [-2, 2).
fn random_state<const N: usize>(rng: &mut SplitMix64) -> [f64; N] {
    std::array::from_fn(|_| rng.uniform(-2.0, 2.0))
}

type Hand<M, const N: usize> = fn(&M, f64, &[f64; N], &mut [f64; N]);

/// Largest per-component relative difference between generated and hand-written rhs over
/// random (t, state) (components below 1% of the largest compared at that 1%); panics
/// above 1e-12.
fn check<M: Model, const N: usize>(name: &str, model: &M, hand: Hand<M, N>, rng: &mut SplitMix64) {
    let mut worst = 0.0f64;
    for _ in 0..20 {
        let t = rng.uniform(0.0, 10.0);
        let s: [f64; N] = random_state(rng);
        let mut generated = [0.0; N];
        model
            .rhs(t, &s, &mut generated)
            .unwrap_or_else(|e| panic!("{name}: generated rhs failed: {e:?}"));
        let mut hw = [0.0; N];
        hand(model, t, &s, &mut hw);
        // A component much smaller than the largest comes from cancellation (e.g. the
        // damping against the drive in 3.4); it is compared at 1% of the largest.
        let floor = 1e-2 * generated.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for i in 0..N {
            let diff = (generated[i] - hw[i]).abs();
            if diff == 0.0 {
                continue;
            }
            let rel = diff / generated[i].abs().max(hw[i].abs()).max(floor);
            worst = worst.max(rel);
            assert!(
                rel <= 1e-12,
                "{name}: component {i} differs at t = {t}, state {s:?}: generated {}, \
                 hand-written {}, relative {rel:.2e}",
                generated[i],
                hw[i]
            );
        }
    }
    eprintln!("{name}: hand-written = generated to {worst:.1e} relative");
}

/// A rattleback state on the ground: yaw and pitch in [-2, 2), roll in [-1, 1) (the Euler
/// angles are singular at roll = ±pi/2), x, y in [-2, 2), the speeds in [-5, 5) rad/s, and
/// z the contact height (`solve_configuration`), as every state of a ride is.
fn rattleback_state(model: &Rattleback, rng: &mut SplitMix64) -> [f64; 9] {
    let mut s = [0.0; 9];
    for (k, v) in s.iter_mut().enumerate() {
        *v = match k {
            2 => 0.0,
            4 => rng.uniform(-1.0, 1.0),
            6.. => rng.uniform(-5.0, 5.0),
            _ => rng.uniform(-2.0, 2.0),
        };
    }
    model
        .solve_configuration(0.0, &mut s[..Rattleback::NQ])
        .expect("the rattleback's contact height");
    s
}

/// [`check`] for the rattleback, whose states must satisfy its height constraint: the
/// largest relative difference over consistent random states (a 1% floor as there, per
/// block of like units), panicking above 1e-10: the two take different routes
/// (Newton–Euler about the contact against the macro's derivation), so they agree to the
/// rounding of each, not bit for bit.
fn check_rattleback(
    name: &str,
    model: &Rattleback,
    hand: Hand<Rattleback, 9>,
    rng: &mut SplitMix64,
) {
    let mut worst = 0.0f64;
    for _ in 0..200 {
        let t = rng.uniform(0.0, 10.0);
        let s = rattleback_state(model, rng);
        let mut generated = [0.0; 9];
        model
            .rhs(t, &s, &mut generated)
            .unwrap_or_else(|e| panic!("{name}: generated rhs failed: {e:?}"));
        let mut hw = [0.0; 9];
        hand(model, t, &s, &mut hw);
        // The floor is taken per block of like units (E's velocity, the angle rates, their
        // rates): the angular accelerations are orders of magnitude above E's speed.
        let floor = |i: usize| {
            let block = &generated[i / 3 * 3..i / 3 * 3 + 3];
            1e-2 * block.iter().fold(0.0f64, |a, v| a.max(v.abs()))
        };
        for i in 0..9 {
            let scale = generated[i].abs().max(hw[i].abs()).max(floor(i));
            let rel = (generated[i] - hw[i]).abs() / scale;
            worst = worst.max(rel);
            assert!(
                rel <= 1e-10,
                "{name}: component {i} differs at state {s:?}: generated {}, hand-written {}, \
                 relative {rel:.2e}",
                generated[i],
                hw[i]
            );
        }
    }
    eprintln!("{name}: hand-written = generated to {worst:.1e} relative");
}

fn bench_one<M: Model, const N: usize>(
    c: &mut Criterion,
    name: &str,
    model: M,
    other: M,
    (hand, hand_libm): (Hand<M, N>, Hand<M, N>),
    rng: &mut SplitMix64,
) {
    check(name, &model, hand, rng);
    check(&format!("{name} (other parameters)"), &other, hand, rng);
    check(&format!("{name} (libm)"), &model, hand_libm, rng);
    let t = rng.uniform(0.0, 10.0);
    let s: [f64; N] = random_state(rng);
    time_one(c, name, model, (hand, hand_libm), t, &s);
}

/// Criterion's three functions (or the paired rounds) at one (t, state).
fn time_one<M: Model, const N: usize>(
    c: &mut Criterion,
    name: &str,
    model: M,
    (hand, hand_libm): (Hand<M, N>, Hand<M, N>),
    t: f64,
    s: &[f64; N],
) {
    if std::env::var_os("NONHOLO_RHS_PAIRED").is_some() {
        paired(name, &model, [hand, hand_libm], t, s);
        return;
    }
    let mut group = c.benchmark_group(name);
    group.bench_function("generated", |b| {
        b.iter(|| {
            let mut d = [0.0; N];
            black_box(&model)
                .rhs(black_box(t), black_box(s), &mut d)
                .unwrap();
            d
        })
    });
    group.bench_function("hand_written", |b| {
        b.iter(|| {
            let mut d = [0.0; N];
            hand(black_box(&model), black_box(t), black_box(s), &mut d);
            d
        })
    });
    group.bench_function("hand_written_libm", |b| {
        b.iter(|| {
            let mut d = [0.0; N];
            hand_libm(black_box(&model), black_box(t), black_box(s), &mut d);
            d
        })
    });
    group.finish();
}

/// The noise-robust ratio (`NONHOLO_RHS_PAIRED=1 cargo bench -p nonholo-benches --bench rhs`): 40 rounds
/// alternate 100 000 calls of the generated rhs, the hand-written one with std's sines and
/// the hand-written one with libm's, and the fastest round of each is kept, so a busy
/// moment of a shared machine slows all or none.
fn paired<M: Model, const N: usize>(
    name: &str,
    model: &M,
    hands: [Hand<M, N>; 2],
    t: f64,
    s: &[f64; N],
) {
    const CALLS: u32 = 100_000;
    // `NONHOLO_RHS_ROUNDS=1` for a run under `valgrind --tool=callgrind` (instructions)
    let rounds: u32 = std::env::var("NONHOLO_RHS_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(40);
    let mut best = [f64::INFINITY; 3];
    for _ in 0..rounds {
        for (k, b) in best.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            for _ in 0..CALLS {
                let mut d = [0.0; N];
                if k == 0 {
                    black_box(model)
                        .rhs(black_box(t), black_box(s), &mut d)
                        .unwrap();
                } else {
                    hands[k - 1](black_box(model), black_box(t), black_box(s), &mut d);
                }
                black_box(d);
            }
            *b = b.min(start.elapsed().as_secs_f64() * 1e9 / f64::from(CALLS));
        }
    }
    println!(
        "{name:22} generated {:6.1} ns  hand-written {:6.1} ns, ratio {:.2}  (with libm's sines {:6.1} ns, ratio {:.2})",
        best[0],
        best[1],
        best[0] / best[1],
        best[2],
        best[0] / best[2]
    );
}

fn benches(c: &mut Criterion) {
    let mut rng = SplitMix64::new(0x5EED_2024);
    let rng = &mut rng;
    bench_one(
        c,
        "skate",
        Skate::default(),
        Skate::default().with_alpha(0.3).with_c(0.2),
        (skate::<Std>, skate::<Libm>),
        rng,
    );
    bench_one(
        c,
        "vertical_disk",
        VerticalDisk::default(),
        VerticalDisk::default().with_alpha(0.3),
        (vertical_disk::<Std>, vertical_disk::<Libm>),
        rng,
    );
    bench_one(
        c,
        "coaxial_disks",
        CoaxialDisks::default(),
        CoaxialDisks::default().with_a(1.3),
        (coaxial_disks::<Std>, coaxial_disks::<Libm>),
        rng,
    );
    bench_one(
        c,
        "parallel_points",
        ParallelPoints::default(),
        ParallelPoints::default().with_m2(0.7),
        (parallel_points::<Std>, parallel_points::<Libm>),
        rng,
    );
    bench_one(
        c,
        "pendulum_skate",
        PendulumSkate::default(),
        PendulumSkate::default().with_c_phi(0.3).with_c_th1(0.2),
        (pendulum_skate::<Std>, pendulum_skate::<Libm>),
        rng,
    );
    bench_one(
        c,
        "assigned_front",
        AssignedFront::default(),
        AssignedFront::default().with_c_th(0.3).with_c_th1(0.2),
        (assigned_front::<Std>, assigned_front::<Libm>),
        rng,
    );
    bench_one(
        c,
        "rolling_disk_pendulum",
        RollingDiskPendulum::default(),
        RollingDiskPendulum::default()
            .with_c_phi(0.3)
            .with_c_th1(0.2)
            .with_tau(0.7),
        (rolling_disk_pendulum::<Std>, rolling_disk_pendulum::<Libm>),
        rng,
    );
    bench_one(
        c,
        "assigned_spin",
        AssignedSpin::default(),
        AssignedSpin::default().with_c_phi(0.3).with_c_th1(0.2),
        (assigned_spin::<Std>, assigned_spin::<Libm>),
        rng,
    );

    // The rattleback: Newton–Euler by hand (no printed first-order system), checked at
    // states on the ground, timed at one of them.
    let rb = Rattleback::default();
    let other = Rattleback::default()
        .with_a(0.15)
        .with_b(0.05)
        .with_c(0.03)
        .with_h(0.005)
        .with_i_d(1.0e-4)
        .with_g(3.0);
    check_rattleback("rattleback", &rb, rattleback::<Std>, rng);
    check_rattleback(
        "rattleback (other parameters)",
        &other,
        rattleback::<Std>,
        rng,
    );
    check_rattleback("rattleback (libm)", &rb, rattleback::<Libm>, rng);
    let s = rattleback_state(&rb, rng);
    time_one(
        c,
        "rattleback",
        rb,
        (rattleback::<Std>, rattleback::<Libm>),
        0.0,
        &s,
    );
}

criterion_group! {
    name = rhs;
    // Quick: the machine is small and shared.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = benches
}
criterion_main!(rhs);
