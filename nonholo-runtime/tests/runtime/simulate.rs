//! Adaptive integration with diffsol against exact solutions.
#![cfg(feature = "diffsol")]

use crate::common;

use common::{BlowUp, KnifeEdgeMultipliers, Oscillator, Unicycle};
use nonholo_runtime::{simulate, Error, Method, Options};

fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

#[test]
fn oscillator_matches_exact_solution_at_sample_times() {
    let osc = Oscillator::new(2.0, 8.0); // omega = 2
    let times: Vec<f64> = (0..=100).map(|i| 0.1 * i as f64 + 0.0123).collect();
    let options = Options::default().sample_times(times.clone());
    let tr = simulate(&osc, &[1.0, 0.5], 0.0..12.0, &options).unwrap();
    assert_eq!(tr.times(), &times[..]);
    let mut err = 0.0_f64;
    for (i, &t) in times.iter().enumerate() {
        err = err.max(max_abs_diff(tr.state(i).unwrap(), &osc.exact(1.0, 0.5, t)));
    }
    println!("oscillator, Tsit45 rtol=atol=1e-10, 0..10.0123: max error {err:e}");
    assert!(err < 1e-8, "{err}");
}

#[test]
fn oscillator_energy_is_conserved_over_steps() {
    let osc = Oscillator::new(1.0, 1.0);
    let tr = simulate(&osc, &[1.0, 0.0], 0.0..100.0, &Options::default()).unwrap();
    let (t_last, s) = tr.last().unwrap();
    assert_eq!(t_last, 100.0);
    let e = tr.energy(&osc).unwrap();
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max);
    let err = max_abs_diff(s, &osc.exact(1.0, 0.0, 100.0));
    println!(
        "oscillator 0..100 (~16 periods), every step: {} samples, energy drift {drift:e}, \
         final error {err:e}",
        tr.len()
    );
    assert!(drift < 1e-8);
    assert!(err < 1e-7);
    // Hermite interpolation between internal steps stays close to the exact solution.
    let mid = tr.at(50.05).unwrap();
    let herr = max_abs_diff(&mid, &osc.exact(1.0, 0.0, 50.05));
    println!("Hermite between internal steps at t = 50.05: error {herr:e}");
    assert!(herr < 1e-6);
}

#[test]
fn unicycle_circle_is_exact_and_on_the_constraint() {
    let uni = Unicycle { p: [2.0, 0.5] };
    let s0 = [0.3, -0.2, 0.4, 1.5, 0.7];
    let options = Options::default()
        .sample_every(0.25)
        .check_constraints(1e-12);
    let tr = simulate(&uni, &s0, 0.0..20.0, &options).unwrap();
    assert_eq!(tr.len(), 81);
    assert_eq!(tr.last().unwrap().0, 20.0);
    let mut err = 0.0_f64;
    for (i, &t) in tr.times().iter().enumerate() {
        err = err.max(max_abs_diff(tr.state(i).unwrap(), &Unicycle::exact(&s0, t)));
    }
    let res = tr.max_constraint_residual(&uni).unwrap();
    println!("unicycle 0..20 every 0.25: max error {err:e}, max constraint residual {res:e}");
    assert!(err < 1e-8, "{err}");
    assert!(res < 1e-14);
}

#[test]
fn multipliers_knife_edge_stays_near_constraint() {
    let knife = KnifeEdgeMultipliers { p: [1.0, 0.2] };
    let th0: f64 = 0.4;
    let (v, w) = (1.5, 0.7);
    let s0 = [0.0, 0.0, th0, v * th0.cos(), v * th0.sin(), w];
    let options = Options::default().sample_every(0.5).check_constraints(1e-7);
    let tr = simulate(&knife, &s0, 0.0..20.0, &options).unwrap();
    let res = tr.max_constraint_residual(&knife).unwrap();
    let e = tr.energy(&knife).unwrap();
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max);
    // Same motion as the unicycle.
    let (t, s) = tr.last().unwrap();
    let u = Unicycle::exact(&[0.0, 0.0, th0, v, w], t);
    let err = max_abs_diff(&s[..3], &u[..3]);
    println!("knife edge by multipliers: residual drift {res:e}, energy drift {drift:e}, position error {err:e}");
    assert!(res < 1e-8 && drift < 1e-8 && err < 1e-8);

    // Off the constraint: rejected before integrating.
    let bad = [0.0, 0.0, 0.0, 1.0, 1e-3, 0.0];
    let e = simulate(&knife, &bad, 0.0..1.0, &Options::default()).unwrap_err();
    assert!(
        matches!(e.error, Error::ConstraintViolated { index: 0, .. }),
        "{e}"
    );
    assert!(e.partial.is_empty());
    // ... unless the checks are off.
    let off = Options::default().check_constraints(f64::INFINITY);
    assert!(simulate(&knife, &bad, 0.0..1.0, &off).is_ok());
}

#[test]
fn model_error_is_reported_with_partial_trajectory() {
    let osc = Oscillator {
        fail_after: 1.0,
        ..Oscillator::new(1.0, 1.0)
    };
    let err = simulate(&osc, &[1.0, 0.0], 0.0..5.0, &Options::default()).unwrap_err();
    assert!(
        matches!(err.error, Error::SingularMassMatrix { t, .. } if t > 1.0),
        "{}",
        err.error
    );
    let (t_last, s) = err.partial.last().unwrap();
    let n = err.partial.len();
    let h = t_last - err.partial.times()[n - 2];
    println!("failing rhs: {err}; {n} samples, last t = {t_last}, last step {h:e}");
    assert!(n > 2);
    // Every accepted step ended before the model started failing.
    assert!(t_last <= 1.0 + h && t_last > 0.5);
    assert!(max_abs_diff(s, &osc.exact(1.0, 0.0, t_last)) < 1e-8);

    // The same with sample times: only samples before the failure.
    let options = Options::default().sample_every(0.1);
    let err = simulate(&osc, &[1.0, 0.0], 0.0..5.0, &options).unwrap_err();
    assert!(matches!(err.error, Error::SingularMassMatrix { .. }));
    assert!(err.partial.last().unwrap().0 <= 1.0 + 1e-12);

    // Failing already at t0.
    let osc0 = Oscillator {
        fail_after: -1.0,
        ..osc
    };
    let err = simulate(&osc0, &[1.0, 0.0], 0.0..5.0, &Options::default()).unwrap_err();
    assert!(matches!(err.error, Error::SingularMassMatrix { .. }));
    assert!(err.partial.is_empty());
}

#[test]
fn blow_up_is_a_step_size_or_non_finite_error() {
    let err = simulate(&BlowUp, &[1.0], 0.0..2.0, &Options::default()).unwrap_err();
    let (t_last, _) = err.partial.last().unwrap();
    println!(
        "x' = x^2 blow-up at t = 1: {}; last sample t = {t_last}",
        err.error
    );
    assert!(
        matches!(err.error, Error::StepSize { t, .. } | Error::NonFinite { t, .. } if (t - 1.0).abs() < 1e-3),
        "{}",
        err.error
    );
    assert!(t_last < 1.0);
}

#[test]
fn input_errors() {
    let osc = Oscillator::new(1.0, 1.0);
    let o = Options::default();
    let dim = simulate(&osc, &[1.0, 0.0, 0.0], 0.0..1.0, &o).unwrap_err();
    assert!(matches!(
        dim.error,
        Error::Dimension {
            what: "state0",
            expected: 2,
            found: 3
        }
    ));
    // Implicit methods work on hand-written models too (default finite-difference JVP).
    for m in [Method::Bdf, Method::Esdirk34] {
        let tr = simulate(
            &osc,
            &[1.0, 0.0],
            0.0..1.0,
            &o.clone().method(m).rtol(1e-9).atol(1e-9),
        )
        .unwrap();
        let (t, s) = tr.last().unwrap();
        assert!(
            (s[0] - t.cos()).abs() < 1e-6,
            "{m:?}: {} vs {}",
            s[0],
            t.cos()
        );
    }
    let invalid = |o: &Options, t: core::ops::Range<f64>| {
        matches!(
            simulate(&osc, &[1.0, 0.0], t, o).map_err(|e| e.error),
            Err(Error::InvalidOptions(_))
        )
    };
    assert!(invalid(&o, 1.0..0.0));
    assert!(invalid(&o, 0.0..f64::INFINITY));
    assert!(invalid(&o.clone().rtol(-1.0), 0.0..1.0));
    assert!(invalid(&o.clone().atol(0.0), 0.0..1.0));
    assert!(invalid(&o.clone().max_steps(0), 0.0..1.0));
    assert!(invalid(&o.clone().sample_every(0.0), 0.0..1.0));
    assert!(invalid(&o.clone().sample_every(1e-12), 0.0..1e6));
    assert!(invalid(&o.clone().sample_times(vec![]), 0.0..1.0));
    assert!(invalid(&o.clone().sample_times(vec![0.5, 0.2]), 0.0..1.0));
    assert!(invalid(&o.clone().sample_times(vec![0.5, 2.0]), 0.0..1.0));
    assert!(invalid(&o.clone().check_constraints(f64::NAN), 0.0..1.0));
    let nan = simulate(&osc, &[f64::NAN, 0.0], 0.0..1.0, &o).unwrap_err();
    assert!(matches!(nan.error, Error::NonFinite { .. }));
}

#[test]
fn sampling_modes_and_max_steps() {
    let osc = Oscillator::new(1.0, 1.0);
    // Only t0 requested.
    let tr = simulate(
        &osc,
        &[1.0, 0.0],
        0.0..1.0,
        &Options::default().sample_times(vec![0.0]),
    )
    .unwrap();
    assert_eq!(tr.times(), [0.0]);
    // Grid not landing on t1: stops at the last grid point.
    let tr = simulate(
        &osc,
        &[1.0, 0.0],
        0.0..1.0,
        &Options::default().sample_every(0.3),
    )
    .unwrap();
    assert_eq!(tr.len(), 4);
    assert!((tr.times()[3] - 0.9).abs() < 1e-15);
    // max_steps.
    let o = Options::default().max_steps(5);
    let e = simulate(&osc, &[1.0, 0.0], 0.0..100.0, &o).unwrap_err();
    assert!(matches!(e.error, Error::Solver { .. }), "{}", e.error);
    assert_eq!(e.partial.len(), 6);
    // Loose tolerances take fewer steps.
    let coarse = simulate(
        &osc,
        &[1.0, 0.0],
        0.0..10.0,
        &Options::default().rtol(1e-4).atol(1e-4),
    )
    .unwrap();
    let fine = simulate(&osc, &[1.0, 0.0], 0.0..10.0, &Options::default()).unwrap();
    println!(
        "steps over 0..10: rtol 1e-4 {}, rtol 1e-10 {}",
        coarse.len() - 1,
        fine.len() - 1
    );
    assert!(coarse.len() < fine.len());
}
