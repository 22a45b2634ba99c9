//! Fixed-step RK4 and the Trajectory API (no diffsol needed).

use crate::common;

use common::{BlowUp, KnifeEdgeMultipliers, Oscillator, Unicycle};
use nonholo_runtime::{integrate_rk4, rk4_step, Error, Model, Trajectory};

fn rk4_error(dt: f64) -> f64 {
    let osc = Oscillator::new(2.0, 8.0); // omega = 2
    let steps = (1.0 / dt).round() as usize;
    let tr = integrate_rk4(&osc, &[1.0, 0.5], 0.0, dt, steps).unwrap();
    let (t, s) = tr.last().unwrap();
    assert!((t - 1.0).abs() < 1e-12);
    let exact = osc.exact(1.0, 0.5, t);
    (s[0] - exact[0]).abs().max((s[1] - exact[1]).abs())
}

#[test]
fn rk4_is_fourth_order() {
    let errors: Vec<f64> = [0.1, 0.05, 0.025, 0.0125].map(rk4_error).to_vec();
    let ratios: Vec<f64> = errors.windows(2).map(|w| w[0] / w[1]).collect();
    println!("RK4 errors at t = 1: {errors:?}, ratios {ratios:?}");
    for r in ratios {
        assert!((r - 16.0).abs() < 1.0, "ratio {r}");
    }
}

#[test]
fn rk4_step_matches_integrate_and_leaves_state_on_error() {
    let osc = Oscillator::new(1.0, 1.0);
    let mut s = [1.0, 0.0];
    for i in 0..10 {
        rk4_step(&osc, i as f64 * 0.1, &mut s, 0.1).unwrap();
    }
    let tr = integrate_rk4(&osc, &[1.0, 0.0], 0.0, 0.1, 10).unwrap();
    assert_eq!(tr.len(), 11);
    assert_eq!(tr.last().unwrap().1, &s[..]);

    let failing = Oscillator {
        fail_after: 1.0,
        ..osc
    };
    let before = s;
    let e = rk4_step(&failing, 0.98, &mut s, 0.1).unwrap_err();
    assert!(matches!(e, Error::SingularMassMatrix { t, .. } if t > 1.0));
    assert_eq!(s, before);

    // x' = x^2 from x = 1e200 overflows in one step.
    let mut x = [1e200];
    let e = rk4_step(&BlowUp, 0.0, &mut x, 1.0).unwrap_err();
    assert!(matches!(e, Error::NonFinite { .. }), "{e}");
    assert_eq!(x, [1e200]);
}

#[test]
fn rk4_failure_keeps_partial_trajectory() {
    let osc = Oscillator {
        fail_after: 1.0,
        ..Oscillator::new(1.0, 1.0)
    };
    let dt = 0.1;
    let err = integrate_rk4(&osc, &[1.0, 0.0], 0.0, dt, 20).unwrap_err();
    assert!(matches!(err.error, Error::SingularMassMatrix { t, .. } if t > 1.0));
    let (t_last, _) = err.partial.last().unwrap();
    println!("RK4 failed: {err}; last sample t = {t_last}");
    assert!(t_last <= 1.0 + dt && t_last >= 1.0 - dt);
    assert!(err.to_string().contains("not positive definite"));
}

#[test]
fn rk4_input_errors() {
    let osc = Oscillator::new(1.0, 1.0);
    let e = integrate_rk4(&osc, &[1.0], 0.0, 0.1, 10).unwrap_err();
    assert!(matches!(
        e.error,
        Error::Dimension {
            expected: 2,
            found: 1,
            ..
        }
    ));
    assert!(e.partial.is_empty());
    let e = integrate_rk4(&osc, &[1.0, 0.0], 0.0, -0.1, 10).unwrap_err();
    assert!(matches!(e.error, Error::InvalidOptions(_)));
    let e = integrate_rk4(&osc, &[f64::NAN, 0.0], 0.0, 0.1, 10).unwrap_err();
    assert!(matches!(e.error, Error::NonFinite { .. }));

    let knife = KnifeEdgeMultipliers { p: [1.0, 1.0] };
    // theta = 0: the edge points along x, so dot(y) = 1 violates the constraint.
    let e = integrate_rk4(&knife, &[0.0, 0.0, 0.0, 1.0, 1.0, 0.0], 0.0, 0.1, 10).unwrap_err();
    assert!(
        matches!(e.error, Error::ConstraintViolated { index: 0, residual, .. } if residual == -1.0),
        "{}",
        e.error
    );
}

#[test]
fn unicycle_rk4_stays_on_constraint_and_conserves_energy() {
    let uni = Unicycle { p: [2.0, 0.5] };
    let s0 = [0.0, 0.0, 0.3, 1.5, 0.7];
    let tr = integrate_rk4(&uni, &s0, 0.0, 0.01, 1000).unwrap();
    let (t, s) = tr.last().unwrap();
    let exact = Unicycle::exact(&s0, t);
    let err = s
        .iter()
        .zip(exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let res = tr.max_constraint_residual(&uni).unwrap();
    let e = tr.energy(&uni).unwrap();
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max);
    println!(
        "unicycle RK4 dt=0.01 to t=10: error {err:e}, residual {res:e}, energy drift {drift:e}"
    );
    assert!(err < 1e-8);
    assert!(res < 1e-15);
    assert_eq!(drift, 0.0);
    assert_eq!(tr.constraint_residuals(&uni).unwrap().len(), 1001);
    assert_eq!(tr.constraint_residuals(&uni).unwrap()[0].len(), 1);
}

/// The exact oscillator sampled every h, with exact derivatives.
fn exact_samples(osc: &Oscillator, h: f64, n: usize) -> Trajectory {
    let mut tr = Trajectory::new::<Oscillator>();
    for i in 0..=n {
        let t = i as f64 * h;
        let s = osc.exact(1.0, 0.0, t);
        let mut d = [0.0; 2];
        osc.rhs(t, &s, &mut d).unwrap();
        tr.push(t, &s, &d).unwrap();
    }
    tr
}

#[test]
fn hermite_interpolation_is_fourth_order() {
    let osc = Oscillator::new(1.0, 1.0);
    let max_err = |h: f64| {
        let n = (2.0 / h).round() as usize;
        let tr = exact_samples(&osc, h, n);
        let mut err = 0.0_f64;
        for j in 0..(20 * n) {
            let t = j as f64 * h / 20.0;
            let a = tr.at(t).unwrap();
            let e = osc.exact(1.0, 0.0, t);
            err = err.max((a[0] - e[0]).abs()).max((a[1] - e[1]).abs());
        }
        err
    };
    let (e1, e2) = (max_err(0.1), max_err(0.05));
    println!(
        "Hermite max error: h=0.1 {e1:e}, h=0.05 {e2:e}, ratio {}",
        e1 / e2
    );
    // Bound h^4/384 max|y''''| = h^4/384 for cos.
    assert!(e1 <= 0.1f64.powi(4) / 384.0 * 1.01);
    assert!((e1 / e2 - 16.0).abs() < 1.0);

    let tr = exact_samples(&osc, 0.1, 10);
    // Exact at the samples, errors outside.
    assert_eq!(tr.at(tr.times()[3]).unwrap(), tr.state(3).unwrap());
    assert_eq!(tr.at(1.0).unwrap(), tr.state(10).unwrap());
    assert!(matches!(
        tr.at(1.0 + 1e-12),
        Err(Error::OutsideTimeSpan { end: 1.0, .. })
    ));
    assert!(tr.at(-1e-300).is_err());
    assert!(tr.at(f64::NAN).is_err());
    assert!(Trajectory::new::<Oscillator>().at(0.0).is_err());
}

#[test]
fn trajectory_accessors() {
    let osc = Oscillator::new(1.0, 1.0);
    let tr = exact_samples(&osc, 0.5, 4);
    assert_eq!(tr.names(), ["x", "v"]);
    assert_eq!((tr.nq(), tr.nz(), tr.dim()), (1, 1, 2));
    assert_eq!(tr.times(), [0.0, 0.5, 1.0, 1.5, 2.0]);
    assert_eq!(tr.q(1).unwrap(), [0.5f64.cos()]);
    assert_eq!(tr.z(1).unwrap(), [-(0.5f64.sin())]);
    assert!(tr.state(5).is_none() && tr.q(5).is_none() && tr.derivative(5).is_none());
    assert_eq!(tr.column("t").unwrap(), tr.times());
    assert_eq!(tr.column("x").unwrap()[2], 1.0f64.cos());
    assert!(tr.column("y").is_none());
    assert_eq!(tr.states().len(), 10);

    let mut tr = tr;
    assert!(matches!(
        tr.push(2.0, &[0.0, 0.0], &[0.0, 0.0]),
        Err(Error::InvalidOptions(_))
    ));
    assert!(matches!(
        tr.push(3.0, &[0.0], &[0.0, 0.0]),
        Err(Error::Dimension { .. })
    ));
    // Energy on a trajectory of another model is a dimension error, not a panic.
    let uni = Unicycle { p: [1.0, 1.0] };
    assert!(matches!(tr.energy(&uni), Err(Error::Dimension { .. })));
    assert!(tr.max_constraint_residual(&uni).is_err());
    assert_eq!(tr.max_constraint_residual(&osc).unwrap(), 0.0);
}

fn parse_csv(s: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut lines = s.lines();
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(|x| x.parse::<f64>().unwrap()).collect())
        .collect();
    (header, rows)
}

#[test]
fn csv_round_trip_is_bitwise() {
    let uni = Unicycle { p: [1.0, 1.0] };
    let mut tr = integrate_rk4(&uni, &[0.1, -0.2, 0.3, 1.0 / 3.0, 0.7], 0.0, 0.1, 50).unwrap();
    // Awkward numbers too.
    tr.push(
        1e10,
        &[1e-300, -0.0, f64::MIN_POSITIVE, f64::MAX, 5e-324],
        &[0.0; 5],
    )
    .unwrap();
    let csv = tr.to_csv_string();
    let (header, rows) = parse_csv(&csv);
    assert_eq!(header, ["t", "x", "y", "theta", "v", "w"]);
    assert_eq!(rows.len(), tr.len());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0].to_bits(), tr.times()[i].to_bits());
        for (a, b) in row[1..].iter().zip(tr.state(i).unwrap()) {
            assert_eq!(a.to_bits(), b.to_bits());
        }
    }

    #[cfg(feature = "std")]
    {
        let path = std::env::temp_dir().join(format!("nonholo-csv-{}.csv", std::process::id()));
        tr.write_csv(&path).unwrap();
        let back = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(back, csv);
        assert!(tr.write_csv("/nonexistent-dir/x.csv").is_err());
    }
}
