//! One harness for every [`Method`]: problems with exact solutions (the Kepler orbit, the
//! radial fall into the sun), the same questions asked of each.

use super::*;
use crate::__private::doc_models::Kepler;
use core::f64::consts::PI;

const METHODS: [Method; 4] = [
    Method::Tsit45,
    Method::Dop853,
    Method::Bdf,
    Method::Esdirk34,
];

static SUN: Kepler = Kepler { mu: 1.0 };
/// Eccentricity of the test orbit: its speed varies 4-fold, its steps more.
const E: f64 = 0.6;

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// The largest distance to the exact orbit over the samples of `tr`.
fn orbit_error(tr: &Trajectory) -> f64 {
    (0..tr.len())
        .map(|i| max_diff(tr.state(i).unwrap(), &SUN.orbit(E, tr.times()[i])))
        .fold(0.0, f64::max)
}

fn options(method: Method, tol: f64) -> Options {
    Options::default().method(method).rtol(tol).atol(tol)
}

#[test]
fn every_method_follows_the_kepler_orbit() {
    // Two periods, every step recorded; explicit and implicit methods alike stay on the
    // exact orbit, each to the accuracy its error control gives at 1e-10.
    for (method, bound) in [
        (Method::Tsit45, 1e-7),
        (Method::Dop853, 1e-7),
        (Method::Bdf, 1e-5),
        (Method::Esdirk34, 1e-4),
    ] {
        let tr = simulate(
            &SUN,
            &SUN.orbit(E, 0.0),
            0.0..4.0 * PI,
            &options(method, 1e-10),
        )
        .unwrap();
        let error = orbit_error(&tr);
        println!("{method:?}: {} steps, max error {error:.1e}", tr.len() - 1);
        assert!(error < bound, "{method:?}: {error:e}");
        assert_eq!(tr.times().last(), Some(&(4.0 * PI)));
    }
}

#[test]
fn the_explicit_errors_fall_with_the_tolerance() {
    // Tolerance proportionality: 1000x tighter, at least 100x more accurate, and DOP853's
    // order 8 needs far fewer steps than Tsit45's 5 at tight tolerances.
    let run = |method, tol| {
        let o = options(method, tol).sample_every(0.25);
        simulate(&SUN, &SUN.orbit(E, 0.0), 0.0..4.0 * PI, &o).unwrap()
    };
    let steps = |method, tol| {
        simulate(
            &SUN,
            &SUN.orbit(E, 0.0),
            0.0..4.0 * PI,
            &options(method, tol),
        )
        .unwrap()
        .len()
    };
    for method in [Method::Tsit45, Method::Dop853] {
        let errors: Vec<f64> = [1e-6, 1e-9, 1e-12]
            .iter()
            .map(|tol| orbit_error(&run(method, *tol)))
            .collect();
        println!("{method:?}: errors {errors:?} at 1e-6, 1e-9, 1e-12");
        assert!(errors.windows(2).all(|w| w[1] < w[0] / 100.0), "{errors:?}");
    }
    let (tsit, dop) = (steps(Method::Tsit45, 1e-12), steps(Method::Dop853, 1e-12));
    println!("steps at 1e-12: Tsit45 {tsit}, Dop853 {dop}");
    assert!(3 * dop < tsit);
}

#[test]
fn every_method_samples_on_request() {
    let times: Vec<f64> = (0..=40).map(|k| 0.1 * k as f64).collect();
    for method in METHODS {
        let o = options(method, 1e-10).sample_times(times.clone());
        let tr = simulate(&SUN, &SUN.orbit(E, 0.0), 0.0..10.0, &o).unwrap();
        assert_eq!(tr.times(), times);
        let error = orbit_error(&tr);
        println!("{method:?}: dense output off the orbit by {error:.1e}");
        assert!(error < 1e-6, "{method:?}: {error:e}");
        // only t0 asked for: no step taken
        let o = options(method, 1e-10).sample_times(vec![0.0]);
        let tr = simulate(&SUN, &SUN.orbit(E, 0.0), 0.0..10.0, &o).unwrap();
        assert_eq!(tr.times(), [0.0]);
    }
}

#[test]
fn every_method_stops_where_the_planet_crosses_the_y_axis() {
    // x = cos E - e = 0 at E = acos(e): t = E - e sin E.
    let ea = E.acos();
    let exact = ea - E * ea.sin();
    for method in METHODS {
        let o = options(method, 1e-10).stop_when(|_, s| s[0]);
        let tr = simulate(&SUN, &SUN.orbit(E, 0.0), 0.0..10.0, &o).unwrap();
        let te = tr.event_time().expect("crossing");
        let (t_last, y) = tr.last().unwrap();
        println!("{method:?}: event at {te:.15} (exact {exact:.15})");
        assert_eq!(t_last, te);
        assert!((te - exact).abs() < 1e-7, "{method:?}: {te}");
        assert!(y[0].abs() < 1e-7, "{method:?}: {}", y[0]);
    }
}

#[test]
fn every_method_reports_the_fall_into_the_sun() {
    // Released at rest at r = 1, the planet falls straight in and reaches the sun at
    // t = pi / (2 sqrt 2), where the force is infinite: an error with the time and
    // state, and the fall so far kept.
    let t_hit = PI / (2.0 * 2f64.sqrt());
    for method in METHODS {
        let e = simulate(
            &SUN,
            &[1.0, 0.0, 0.0, 0.0],
            0.0..2.0,
            &options(method, 1e-10),
        )
        .unwrap_err();
        println!("{method:?}: {}", e.error);
        let (t, state) = match &e.error {
            Error::StepSize { t, state } | Error::NonFinite { t, state, .. } => (*t, state),
            Error::Solver { t, state, .. } => (*t, state),
            other => panic!("{method:?}: {other}"),
        };
        assert!((t - t_hit).abs() < 1e-3, "{method:?}: {t}");
        assert_eq!(state.len(), 4);
        let before_hit = e.partial.times().iter().all(|s| *s < t_hit + 1e-6);
        assert!(e.partial.len() > 10 && before_hit, "{method:?}");
    }
}

/// The [`Kepler`] model, whose mass matrix "fails" from `t = 0.5` on: the error a
/// generated model returns mid-run.
struct FailsLate;

impl Model for FailsLate {
    const COORDINATES: &'static [&'static str] = Kepler::COORDINATES;
    const SPEEDS: &'static [&'static str] = Kepler::SPEEDS;
    const PARAMETERS: &'static [&'static str] = Kepler::PARAMETERS;
    const CONSTRAINTS: &'static [&'static str] = Kepler::CONSTRAINTS;
    const NQ: usize = 2;
    const NZ: usize = 2;
    const NC: usize = 0;
    const DIM: usize = 4;
    const FORMULATION: crate::Formulation = Kepler::FORMULATION;
    const EQUATIONS: &'static str = Kepler::EQUATIONS;
    type State = [f64; 4];
    const ZERO_STATE: [f64; 4] = [0.0; 4];

    fn parameters(&self) -> Vec<f64> {
        SUN.parameters()
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        if t >= 0.5 {
            return Err(Error::SingularMassMatrix {
                t,
                state: state.to_vec(),
            });
        }
        SUN.rhs(t, state, dstate)
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        SUN.qdot(t, q, z, qdot)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 4], Error> {
        SUN.state_from_qdot(t, q, qdot)
    }
    fn energy(&self, t: f64, state: &[f64]) -> Result<f64, Error> {
        SUN.energy(t, state)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        SUN.constraint_residual(t, q, qdot, residual)
    }
}

#[test]
fn every_method_passes_the_models_errors_on() {
    // The first error of the model, in whatever stage, ends the run unchanged, with the
    // samples before it.
    for method in METHODS {
        let e = simulate(
            &FailsLate,
            &SUN.orbit(E, 0.0),
            0.0..2.0,
            &options(method, 1e-8),
        )
        .unwrap_err();
        println!("{method:?}: {}", e.error);
        let Error::SingularMassMatrix { t, state } = &e.error else {
            panic!("{method:?}: {}", e.error);
        };
        assert!((0.5..1.0).contains(t) && state.len() == 4, "{method:?}");
        assert!(!e.partial.is_empty() && e.partial.times().iter().all(|s| *s < 0.5));
    }
    // a state that is not finite is refused before the first step
    let o = options(Method::Dop853, 1e-8).check_constraints(f64::INFINITY);
    let e = simulate(&SUN, &[f64::NAN, 0.0, 0.0, 1.0], 0.0..1.0, &o).unwrap_err();
    assert!(matches!(
        e.error,
        Error::NonFinite {
            what: "initial state",
            ..
        }
    ));
    // at the sun itself the first evaluation fails: the model's own NonFinite
    let o = options(Method::Dop853, 1e-8);
    let e = simulate(&SUN, &[0.0, 0.0, 0.0, 1.0], 0.0..1.0, &o).unwrap_err();
    assert!(
        matches!(
            e.error,
            Error::NonFinite {
                what: "dstate",
                t: 0.0,
                ..
            }
        ),
        "{}",
        e.error
    );
}

#[test]
fn a_condition_zero_at_the_start_stops_at_its_next_crossing() {
    // y = 0 at the pericentre where the run starts; the next zero is the apocentre, t = pi.
    for method in METHODS {
        let o = options(method, 1e-10).stop_when(|_, s| s[1]);
        let tr = simulate(&SUN, &SUN.orbit(E, 0.0), 0.0..10.0, &o).unwrap();
        let te = tr.event_time().expect("apocentre");
        println!("{method:?}: event at {te:.12}");
        assert!((te - PI).abs() < 1e-6, "{method:?}: {te}");
    }
}

#[test]
fn dop853_says_when_a_model_looks_stiff() {
    // x'' + 1000 x' + x = 0: after the fast mode dies out, the explicit step is held at its
    // stability limit; running out of steps, DOP853 says why.
    let stiff = crate::__private::doc_models::Oscillator {
        m: 1.0,
        k: 1.0,
        c: 1000.0,
        u: 0.0,
    };
    let o = options(Method::Dop853, 1e-8).max_steps(500);
    let e = simulate(&stiff, &[1.0, 0.0], 0.0..100.0, &o).unwrap_err();
    let Error::Solver { message, t, .. } = &e.error else {
        panic!("{}", e.error);
    };
    println!("{message} (at t = {t})");
    assert!(message.contains("looks stiff") && message.contains("Method::Bdf"));
    // a model that is not stiff runs out of steps without the hint
    let o = options(Method::Dop853, 1e-8).max_steps(5);
    let e = simulate(&SUN, &SUN.orbit(E, 0.0), 0.0..100.0, &o).unwrap_err();
    assert!(!e.error.to_string().contains("stiff"), "{}", e.error);
}
