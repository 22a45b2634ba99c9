//! The generated equations in other scalars (`SkateOf<S>`'s `rhs_generic`): `f32` agrees
//! with `f64`; dual numbers give exact derivatives with respect to states (= `rhs_jvp`) and
//! parameters (= central differences, = `rhs_param_jvp`); RK4 in `f32`
//! conserves energy to single precision, and in dual numbers gives trajectory
//! sensitivities.

use crate::common;

use common::rng::SplitMix64;
use nonholo::models::{
    AssignedFront, AssignedSpin, CoaxialDisks, ParallelPoints, PendulumSkate, RollingDisk3d,
    RollingDiskPendulum, Skate, VerticalDisk, WhippleBicycle,
};
use nonholo::num_dual::{Dual64, HyperDual64};
use nonholo::prelude::*;
use nonholo::{rk4_step, rk4_step_generic};
use nonholo_test_models::scalars::*;

/// `||a - b||_inf / ||b||_inf`.
fn rel(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let diff = a
        .iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
    diff / scale.max(1e-300)
}

/// A state near the motions the models are meant for: coordinates in [-0.4, 0.4] (so the
/// bicycle is not upside down), speeds in [-1, 1].
fn random_state<M: Model>(rng: &mut SplitMix64) -> Vec<f64> {
    (0..M::DIM)
        .map(|i| {
            if i < M::NQ {
                rng.uniform(-0.4, 0.4)
            } else {
                rng.uniform(-1.0, 1.0)
            }
        })
        .collect()
}

/// Applies `$check!(Type)` to every model type of the repository's library and the other
/// formulations (`nonholo_test_models::scalars`).
macro_rules! every_model {
    ($check:ident) => {{
        let mut worst: Vec<(&str, f64)> = Vec::new();
        worst.push(("Skate", $check!(Skate)));
        worst.push(("VerticalDisk", $check!(VerticalDisk)));
        worst.push(("CoaxialDisks", $check!(CoaxialDisks)));
        worst.push(("ParallelPoints", $check!(ParallelPoints)));
        worst.push(("PendulumSkate", $check!(PendulumSkate)));
        worst.push(("AssignedFront", $check!(AssignedFront)));
        worst.push(("RollingDiskPendulum", $check!(RollingDiskPendulum)));
        worst.push(("AssignedSpin", $check!(AssignedSpin)));
        worst.push(("RollingDisk3d", $check!(RollingDisk3d)));
        worst.push(("WhippleBicycle", $check!(WhippleBicycle)));
        worst.push(("SkateMu", $check!(SkateMu)));
        worst.push(("SkateBh", $check!(SkateBh)));
        worst.push(("UnicycleVo", $check!(UnicycleVo)));
        worst.push(("UnicycleMu", $check!(UnicycleMu)));
        worst
    }};
}

/// f32 `rhs_generic`, `qdot_generic`, `energy_generic` against the f64 `Model` methods at
/// random states: the worst relative difference.
macro_rules! f32_error {
    ($t:ty) => {{
        let m64 = <$t>::default();
        let m32 = m64.cast::<f32>();
        let mut rng = SplitMix64::new(0x5ca1a7);
        let mut worst = 0.0f64;
        for _ in 0..50 {
            let x = random_state::<$t>(&mut rng);
            let x32: Vec<f32> = x.iter().map(|v| *v as f32).collect();
            // The f64 reference at the f32-rounded state, so only the arithmetic differs.
            let xr: Vec<f64> = x32.iter().map(|v| *v as f64).collect();
            let mut d64 = vec![0.0; <$t as Model>::DIM];
            m64.rhs(0.3, &xr, &mut d64).unwrap();
            let mut d32 = vec![0.0f32; <$t as Model>::DIM];
            m32.rhs_generic(0.3, &x32, &mut d32).unwrap();
            let d32: Vec<f64> = d32.iter().map(|v| *v as f64).collect();
            worst = worst.max(rel(&d32, &d64));
            let e64 = m64.energy(0.3, &xr).unwrap();
            let e32 = m32.energy_generic(0.3, &x32).unwrap() as f64;
            worst = worst.max((e32 - e64).abs() / e64.abs().max(1e-3));
            let (q, z) = x32.split_at(<$t as Model>::NQ);
            let mut qd32 = vec![0.0f32; <$t as Model>::NQ];
            m32.qdot_generic(0.3, q, z, &mut qd32).unwrap();
            let mut qd64 = vec![0.0; <$t as Model>::NQ];
            let (q, z) = xr.split_at(<$t as Model>::NQ);
            m64.qdot(0.3, q, z, &mut qd64).unwrap();
            let qd32: Vec<f64> = qd32.iter().map(|v| *v as f64).collect();
            worst = worst.max(rel(&qd32, &qd64));
        }
        worst
    }};
}

#[test]
fn f32_agrees_with_f64_on_every_model() {
    let worst = every_model!(f32_error);
    eprintln!("f32 vs f64, worst relative difference: {worst:?}");
    for (name, e) in worst {
        assert!(e < 2e-5, "{name}: f32 differs from f64 by {e:e}");
    }
}

/// Dual64 seeded along each state direction against `rhs_jvp` (both exact): the worst
/// relative difference.
macro_rules! dual_state_error {
    ($t:ty) => {{
        let m = <$t>::default();
        let md = m.cast::<Dual64>();
        let mut rng = SplitMix64::new(0xd0a1);
        let mut worst = 0.0f64;
        for _ in 0..5 {
            let x = random_state::<$t>(&mut rng);
            for k in 0..<$t as Model>::DIM {
                let xd: Vec<Dual64> = x
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let d = Dual64::from(*v);
                        if i == k {
                            d.derivative()
                        } else {
                            d
                        }
                    })
                    .collect();
                let mut dd = vec![Dual64::from(0.0); <$t as Model>::DIM];
                md.rhs_generic(Dual64::from(0.3), &xd, &mut dd).unwrap();
                let eps: Vec<f64> = dd.iter().map(|v| v.eps).collect();
                let re: Vec<f64> = dd.iter().map(|v| v.re).collect();
                let mut e = vec![0.0; <$t as Model>::DIM];
                e[k] = 1.0;
                let mut jvp = vec![0.0; <$t as Model>::DIM];
                m.rhs_jvp(0.3, &x, &e, &mut jvp).unwrap();
                let mut d = vec![0.0; <$t as Model>::DIM];
                m.rhs(0.3, &x, &mut d).unwrap();
                // (num-dual divides by multiplying with the reciprocal: an ulp apart)
                assert!(rel(&re, &d) < 1e-14, "the real part is the f64 rhs");
                let scale = jvp.iter().fold(1.0f64, |s, v| s.max(v.abs()));
                let diff = eps
                    .iter()
                    .zip(&jvp)
                    .fold(0.0f64, |s, (a, b)| s.max((a - b).abs()));
                worst = worst.max(diff / scale);
            }
        }
        worst
    }};
}

#[test]
fn dual_state_derivatives_equal_rhs_jvp() {
    let worst = every_model!(dual_state_error);
    eprintln!("Dual64 d rhs/d state vs rhs_jvp: {worst:?}");
    for (name, e) in worst {
        assert!(e < 1e-12, "{name}: {e:e}");
    }
}

/// `d rhs / d p` by Richardson-extrapolated central differences (error O(h^4)).
fn central_difference(rhs_at: impl Fn(f64, &mut [f64]), p: f64, dim: usize) -> Vec<f64> {
    let h = 1e-3 * p.abs().max(1.0);
    let diff = |h: f64| -> Vec<f64> {
        let (mut a, mut b) = (vec![0.0; dim], vec![0.0; dim]);
        rhs_at(p + h, &mut a);
        rhs_at(p - h, &mut b);
        a.iter().zip(&b).map(|(x, y)| (x - y) / (2.0 * h)).collect()
    };
    let (d1, d2) = (diff(h), diff(h / 2.0));
    d2.iter()
        .zip(&d1)
        .map(|(f, c)| (4.0 * f - c) / 3.0)
        .collect()
}

/// Dual64 seeded in each parameter against central differences, and against
/// `rhs_param_jvp` (every parameter): the worst relative difference to the differences.
macro_rules! dual_parameter_error {
    ($t:ty) => {{
        let m = <$t>::default();
        let values = m.parameters();
        let mut rng = SplitMix64::new(0xba5e);
        let mut worst = 0.0f64;
        for _ in 0..3 {
            let x = random_state::<$t>(&mut rng);
            let xd: Vec<Dual64> = x.iter().map(|v| Dual64::from(*v)).collect();
            for (k, name) in <$t as Model>::PARAMETERS.iter().enumerate() {
                let mut md = m.cast::<Dual64>();
                *md.parameter_mut(name).unwrap() = Dual64::from(values[k]).derivative();
                let mut dd = vec![Dual64::from(0.0); <$t as Model>::DIM];
                md.rhs_generic(Dual64::from(0.3), &xd, &mut dd).unwrap();
                let eps: Vec<f64> = dd.iter().map(|v| v.eps).collect();
                let fd = central_difference(
                    |p, out| {
                        let mut mp = m.cast::<f64>();
                        *mp.parameter_mut(name).unwrap() = p;
                        mp.rhs(0.3, &x, out).unwrap();
                    },
                    values[k],
                    <$t as Model>::DIM,
                );
                let scale = fd.iter().fold(1.0f64, |s, v| s.max(v.abs()));
                let diff = eps
                    .iter()
                    .zip(&fd)
                    .fold(0.0f64, |s, (a, b)| s.max((a - b).abs()));
                worst = worst.max(diff / scale);
                let mut dp = vec![0.0; values.len()];
                dp[k] = 1.0;
                let mut exact = vec![0.0; <$t as Model>::DIM];
                m.rhs_param_jvp(0.3, &x, &dp, &mut exact).unwrap();
                let d = eps
                    .iter()
                    .zip(&exact)
                    .fold(0.0f64, |s, (a, b)| s.max((a - b).abs()));
                assert!(d <= 1e-13 * scale, "{name}: dual vs rhs_param_jvp {d:e}");
            }
        }
        worst
    }};
}

#[test]
fn dual_parameter_derivatives_equal_central_differences() {
    let worst = every_model!(dual_parameter_error);
    eprintln!("Dual64 d rhs/d parameter vs central differences: {worst:?}");
    for (name, e) in worst {
        assert!(e < 1e-8, "{name}: {e:e}");
    }
}

/// A hyper-dual number seeded in a parameter (eps1) and a state component (eps2): its
/// `eps1eps2` part, the mixed second derivative, against central differences of the
/// Dual64 state derivative.
#[test]
fn hyperdual_mixed_second_derivative() {
    let m = RollingDiskPendulum::default();
    let mut rng = SplitMix64::new(0x4d);
    let x = random_state::<RollingDiskPendulum>(&mut rng);
    let values = m.parameters();
    let dim = RollingDiskPendulum::DIM;
    let mut worst = 0.0f64;
    for (k, name) in RollingDiskPendulum::PARAMETERS.iter().enumerate() {
        for j in [2, 3, 6] {
            let mut mh = m.cast::<HyperDual64>();
            *mh.parameter_mut(name).unwrap() = HyperDual64::from(values[k]).derivative1();
            let xh: Vec<HyperDual64> = x
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let h = HyperDual64::from(*v);
                    if i == j {
                        h.derivative2()
                    } else {
                        h
                    }
                })
                .collect();
            let mut dh = vec![HyperDual64::from(0.0); dim];
            mh.rhs_generic(HyperDual64::from(0.3), &xh, &mut dh)
                .unwrap();
            let mixed: Vec<f64> = dh.iter().map(|v| v.eps1eps2).collect();
            let fd = central_difference(
                |p, out| {
                    let mut mp = m.cast::<Dual64>();
                    *mp.parameter_mut(name).unwrap() = Dual64::from(p);
                    let xd: Vec<Dual64> = x
                        .iter()
                        .enumerate()
                        .map(|(i, v)| {
                            let d = Dual64::from(*v);
                            if i == j {
                                d.derivative()
                            } else {
                                d
                            }
                        })
                        .collect();
                    let mut dd = vec![Dual64::from(0.0); dim];
                    mp.rhs_generic(Dual64::from(0.3), &xd, &mut dd).unwrap();
                    for (o, v) in out.iter_mut().zip(&dd) {
                        *o = v.eps;
                    }
                },
                values[k],
                dim,
            );
            let scale = fd.iter().fold(1.0f64, |s, v| s.max(v.abs()));
            let diff = mixed
                .iter()
                .zip(&fd)
                .fold(0.0f64, |s, (a, b)| s.max((a - b).abs()));
            worst = worst.max(diff / scale);
        }
    }
    eprintln!("HyperDual64 mixed second derivative vs differences: {worst:e}");
    assert!(worst < 1e-8, "{worst:e}");
}

/// The Whipple bicycle at 5 m/s (self-stable, energy conserved) with a lean kick, stepped
/// by RK4 in f32 and in f64: the f32 energy stays within single-precision rounding.
#[test]
fn f32_rk4_conserves_energy() {
    let bike = WhippleBicycle::default();
    let mut x64 = [0.0; WhippleBicycle::DIM];
    bike.solve_configuration(0.0, &mut x64[..WhippleBicycle::NQ])
        .unwrap();
    // speeds: dot(roll), dot(th_r), dot(steer); forward speed v = -r_r dot(th_r)
    x64[WhippleBicycle::NQ] = 0.5;
    x64[WhippleBicycle::NQ + 1] = -5.0 / bike.r_r;
    let b32 = bike.cast::<f32>();
    let mut x32 = x64.map(|v| v as f32);
    let e0 = bike.energy(0.0, &x64).unwrap();
    let dt = 1e-3;
    let (mut drift32, mut drift64) = (0.0f64, 0.0f64);
    for i in 0..3000 {
        let t = i as f64 * dt;
        rk4_step(&bike, t, &mut x64, dt).unwrap();
        rk4_step_generic(
            |t, x, d| b32.rhs_generic(t, x, d),
            t as f32,
            &mut x32,
            dt as f32,
        )
        .unwrap();
        let e64 = bike.energy(0.0, &x64).unwrap();
        let e32 = b32.energy_generic(0.0, &x32).unwrap() as f64;
        drift64 = drift64.max((e64 - e0).abs() / e0);
        drift32 = drift32.max((e32 - e0).abs() / e0);
    }
    let lean = (x32[1] as f64 - x64[1]).abs();
    eprintln!("3 s of the bicycle by RK4: energy drift f64 {drift64:e}, f32 {drift32:e}; lean f32 - f64 {lean:e}");
    assert!(drift64 < 1e-9);
    assert!(drift32 < 1e-5, "{drift32:e}");
    assert!(lean < 1e-4, "{lean:e}");
}

/// Forward sensitivity: RK4 in Dual64 with the damping `c` of the skate seeded gives
/// d q(T) / d c, equal to central differences of f64 RK4 runs.
#[test]
fn trajectory_sensitivity_by_dual_rk4() {
    let skate = Skate::default().with_c(0.3).with_alpha(0.2);
    let x0 = [0.0, 0.0, 0.1, 1.0, 2.0];
    let (dt, steps) = (1e-2, 300);
    let run = |c: f64| -> [f64; 5] {
        let m = skate.with_c(c);
        let mut x = x0;
        for i in 0..steps {
            rk4_step(&m, i as f64 * dt, &mut x, dt).unwrap();
        }
        x
    };
    let mut md = skate.cast::<Dual64>();
    md.c = Dual64::from(0.3).derivative();
    let mut xd = x0.map(Dual64::from);
    for i in 0..steps {
        let t = Dual64::from(i as f64 * dt);
        rk4_step_generic(
            |t, x, d| md.rhs_generic(t, x, d),
            t,
            &mut xd,
            Dual64::from(dt),
        )
        .unwrap();
    }
    let sens: Vec<f64> = xd.iter().map(|v| v.eps).collect();
    let value: Vec<f64> = xd.iter().map(|v| v.re).collect();
    let real = rel(&value, &run(0.3));
    assert!(
        real < 1e-14,
        "the real part is the f64 trajectory: {real:e}"
    );
    let h = 1e-3;
    let (d1, d2) = (
        (run(0.3 + h), run(0.3 - h)),
        (run(0.3 + h / 2.0), run(0.3 - h / 2.0)),
    );
    let fd: Vec<f64> = (0..5)
        .map(|i| {
            let c1 = (d1.0[i] - d1.1[i]) / (2.0 * h);
            let c2 = (d2.0[i] - d2.1[i]) / h;
            (4.0 * c2 - c1) / 3.0
        })
        .collect();
    let err = rel(&sens, &fd);
    eprintln!("d x(3 s)/d c: dual {sens:?}, differences {fd:?}, relative {err:e}");
    assert!(err < 1e-8, "{err:e}");
    assert!(sens[4] < 0.0, "more damping, slower turning");
}
