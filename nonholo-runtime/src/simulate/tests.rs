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

// ---------------------------------------------------------------------------------------
// Inputs and control: `simulate_controlled` on m x'' + k x = f, whose zero-order-hold
// discretisation and closed loops are known exactly.

use crate::__private::doc_models::ForcedOscillator;
use crate::{simulate_controlled, Controller, InputSeries};
use core::cell::{Cell, RefCell};

/// m = 1, k = 4: w = 2.
const OSC: ForcedOscillator = ForcedOscillator { m: 1.0, k: 4.0 };
/// The state feedback u = -K x of the tests.
const K: [f64; 2] = [1.0, 0.6];

fn feedback(x: &[f64]) -> f64 {
    -K[0] * x[0] - K[1] * x[1]
}

/// The exact zero-order-hold step of the oscillator over `dt` with the force `f` held:
/// `x(t + dt) = Ad x(t) + Bd f`.
fn zoh_step(x: [f64; 2], f: f64, dt: f64) -> [f64; 2] {
    let ForcedOscillator { m, k } = OSC;
    let w = (k / m).sqrt();
    let (s, c) = (w * dt).sin_cos();
    [
        c * x[0] + s / w * x[1] + (1.0 - c) / k * f,
        -w * s * x[0] + c * x[1] + s / (m * w) * f,
    ]
}

/// The closed loop under continuous feedback, x'' + K1 x' + (k + K0) x = 0 (m = 1), exactly.
fn closed_loop(x0: [f64; 2], t: f64) -> [f64; 2] {
    let a = 0.5 * K[1];
    let wd = (OSC.k + K[0] - a * a).sqrt();
    let (s, c) = (wd * t).sin_cos();
    let b = (x0[1] + a * x0[0]) / wd;
    let e = (-a * t).exp();
    let x = e * (x0[0] * c + b * s);
    let v = e * (-a * (x0[0] * c + b * s) + (-x0[0] * wd * s + b * wd * c));
    [x, v]
}

/// The tolerance each method runs the exactness tests at: ESDIRK34's third order needs a
/// tighter one for 1e-9 over 60 hold intervals.
fn control_tolerance(method: Method) -> f64 {
    match method {
        Method::Esdirk34 => 1e-13,
        _ => 1e-12,
    }
}

#[test]
fn sampled_control_is_the_exact_discrete_time_system() {
    // u = -K x at t = k dt, held in between: at the instants the run must be the exact
    // discrete-time system x_k+1 = Ad x_k + Bd u_k, whatever the method (no step crosses an
    // instant, so the hold is exact and only the integration error remains).
    let (dt, t_end, x0) = (0.05, 3.0, [1.0, -0.5]);
    for method in METHODS {
        let seen = RefCell::new(Vec::new());
        let mut law = |t: f64, x: &[f64], u: &mut [f64]| {
            assert_eq!(u, [0.0]); // one slot, zeroed
            seen.borrow_mut().push(t);
            u[0] = feedback(x);
        };
        let tol = control_tolerance(method);
        let o = options(method, tol).control_period(dt);
        let tr = simulate_controlled(&OSC, &mut law, &x0, 0.0..t_end, &o).unwrap();
        // The controller ran exactly at k dt, k = 0..=60.
        let seen = seen.into_inner();
        assert_eq!(seen.len(), 61, "{method:?}");
        for (k, t) in seen.iter().enumerate() {
            let expected = if k == 60 { t_end } else { k as f64 * dt };
            assert_eq!(*t, expected, "{method:?}: instant {k}");
        }
        // Every instant is a sample; every sample's u is the one set at the instant before
        // (or at) it, and so constant between instants.
        let mut exact = x0;
        let mut u_k = feedback(&x0);
        let mut error = 0.0_f64;
        let mut k = 0;
        for i in 0..tr.len() {
            let t = tr.times()[i];
            if t == seen[k.min(60)] {
                // an instant: compare with the exact discrete system, then the new u
                error = error.max(max_diff(tr.state(i).unwrap(), &exact));
                u_k = feedback(tr.state(i).unwrap());
                assert_eq!(tr.input(i).unwrap(), [u_k], "{method:?}: u at instant {k}");
                exact = zoh_step(exact, feedback(&exact), dt);
                k += 1;
            } else {
                assert!(t > seen[k - 1] && t < seen[k], "{method:?}: t = {t}");
                assert_eq!(tr.input(i).unwrap(), [u_k], "{method:?}: u held at t = {t}");
            }
        }
        assert_eq!(k, 61, "{method:?}: every instant recorded");
        println!(
            "{method:?}: {} samples, max error at the instants {error:.1e}",
            tr.len()
        );
        assert!(error < 1e-9, "{method:?}: {error:e}");
    }
}

#[test]
fn restarting_at_the_instants_costs_few_steps() {
    // The oscillator open-loop (u = 0), then sampled at 20 Hz with a controller that holds
    // u = 0 (no restart needed: the methods only land on the instants) and one that
    // switches u = +-0.5 at every instant (every method restarts there). The restarts may
    // cost steps, never accuracy: the exact discrete-time solution is met in every case.
    let (dt, t_end, x0) = (0.05, 3.0, [1.0, -0.5]);
    let n = 60;
    let square = |k: usize| if k.is_multiple_of(2) { 0.5 } else { -0.5 };
    let exact_square = (0..n).fold(x0, |x, k| zoh_step(x, square(k), dt));
    for method in METHODS {
        let tol = control_tolerance(method);
        let open = simulate(&OSC, &x0, 0.0..t_end, &options(method, tol)).unwrap();
        let o = options(method, tol).control_period(dt);
        let mut zero = |_t: f64, _x: &[f64], _u: &mut [f64]| {};
        let held = simulate_controlled(&OSC, &mut zero, &x0, 0.0..t_end, &o).unwrap();
        let mut k = 0;
        let mut switching = |_t: f64, _x: &[f64], u: &mut [f64]| {
            u[0] = square(k);
            k += 1;
        };
        let switched = simulate_controlled(&OSC, &mut switching, &x0, 0.0..t_end, &o).unwrap();
        let exact_open = zoh_step(x0, 0.0, t_end);
        let errors = [
            max_diff(open.last().unwrap().1, &exact_open),
            max_diff(held.last().unwrap().1, &exact_open),
            max_diff(switched.last().unwrap().1, &exact_square),
        ];
        println!(
            "{method:?}: steps open loop {}, held u {}, switching u {}; errors {:.1e} {:.1e} {:.1e}",
            open.len() - 1,
            held.len() - 1,
            switched.len() - 1,
            errors[0],
            errors[1],
            errors[2]
        );
        assert!(errors.iter().all(|e| *e < 1e-9), "{method:?}: {errors:?}");
        // landing on 60 instants costs the one-step methods at most a step per instant; BDF
        // also changes its step size there, which costs it a few more
        let extra = if method == Method::Bdf { 5 * n } else { n };
        assert!(held.len() <= open.len() + extra, "{method:?}");
    }
}

#[test]
fn continuous_feedback_follows_the_closed_loop() {
    // u = -K x at every evaluation: x'' + K1 x' + (k + K0) x = 0, exactly. The implicit
    // methods' Jacobian is that of the closed loop (exact df/dx and df/du, a central
    // difference of the controller), so they converge as on any smooth system.
    let x0 = [1.0, -0.5];
    let times: Vec<f64> = (0..=30).map(|k| 0.1 * k as f64).collect();
    for (method, bound) in [
        (Method::Tsit45, 1e-9),
        (Method::Dop853, 1e-9),
        (Method::Bdf, 1e-7),
        (Method::Esdirk34, 1e-7),
    ] {
        let calls = Cell::new(0_usize);
        let mut law = |_t: f64, x: &[f64], u: &mut [f64]| {
            calls.set(calls.get() + 1);
            u[0] = feedback(x);
        };
        let o = options(method, 1e-11).sample_times(times.clone());
        let tr = simulate_controlled(&OSC, &mut law, &x0, 0.0..3.0, &o).unwrap();
        let mut error = 0.0_f64;
        for (i, t) in tr.times().iter().enumerate() {
            let x = tr.state(i).unwrap();
            error = error.max(max_diff(x, &closed_loop(x0, *t)));
            // the recorded u is the controller's output at the sample
            assert_eq!(tr.input(i).unwrap(), [feedback(x)]);
        }
        println!(
            "{method:?}: {} controller calls, max error {error:.1e}",
            calls.get()
        );
        assert!(error < bound, "{method:?}: {error:e}");
    }
}

#[test]
fn sampled_control_tends_to_continuous_feedback_as_the_period_shrinks() {
    // Zero-order hold lags the continuous law by about dt / 2: the difference of the two
    // closed loops falls linearly with dt.
    let x0 = [1.0, -0.5];
    let times: Vec<f64> = (0..=20).map(|k| 0.1 * k as f64).collect();
    for method in METHODS {
        let mut law = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = feedback(x);
        let run = |o: Options, law: &mut dyn Controller| {
            simulate_controlled(&OSC, law, &x0, 0.0..2.0, &o).unwrap()
        };
        let base = options(method, 1e-11).sample_times(times.clone());
        let continuous = run(base.clone(), &mut law);
        let differences: Vec<f64> = [0.02, 0.01, 0.005]
            .iter()
            .map(|dt| {
                let sampled = run(base.clone().control_period(*dt), &mut law);
                assert_eq!(sampled.times(), times);
                max_diff(sampled.states(), continuous.states())
            })
            .collect();
        let ratios = [
            differences[0] / differences[1],
            differences[1] / differences[2],
        ];
        println!("{method:?}: differences {differences:?}, ratios {ratios:.3?}");
        assert!(
            ratios.iter().all(|r| (1.8..2.2).contains(r)),
            "{method:?}: {ratios:?}"
        );
    }
}

#[test]
fn replaying_the_recorded_inputs_reproduces_the_closed_loop() {
    // A sampled closed loop, then its recorded inputs as an open-loop input series with the
    // same period: the same motion, for every method, with every step recorded or a sample
    // at every instant.
    let x0 = [1.0, -0.5];
    for method in METHODS {
        for sampling in [None, Some(0.05)] {
            let mut o = options(method, 1e-11).control_period(0.05);
            if let Some(dt) = sampling {
                o = o.sample_every(dt);
            }
            let mut law = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = feedback(x);
            let closed = simulate_controlled(&OSC, &mut law, &x0, 0.0..3.0, &o).unwrap();
            let mut series = closed.input_series().unwrap();
            let replay = simulate_controlled(&OSC, &mut series, &x0, 0.0..3.0, &o).unwrap();
            assert_eq!(replay.times(), closed.times(), "{method:?}");
            assert_eq!(replay.inputs(), closed.inputs(), "{method:?}");
            let d = max_diff(replay.states(), closed.states());
            println!("{method:?}, sampling {sampling:?}: replay off by {d:.1e}");
            assert!(d < 1e-9, "{method:?}: {d:e}");
        }
    }
}

#[test]
fn the_energy_changes_by_the_work_of_the_held_force() {
    // dE/dt = f v: over a hold interval E(t_k+1) - E(t_k) = f_k (x_k+1 - x_k).
    let x0 = [1.0, -0.5];
    for method in METHODS {
        let mut law = |t: f64, x: &[f64], u: &mut [f64]| u[0] = feedback(x) + (2.0 * t).sin();
        let o = options(method, control_tolerance(method))
            .control_period(0.05)
            .sample_every(0.05);
        let tr = simulate_controlled(&OSC, &mut law, &x0, 0.0..3.0, &o).unwrap();
        assert_eq!(tr.len(), 61);
        let (e, x) = (tr.energy(&OSC).unwrap(), tr.column("x").unwrap());
        let mut worst = 0.0_f64;
        let mut change = 0.0_f64;
        for k in 0..tr.len() - 1 {
            let work = tr.input(k).unwrap()[0] * (x[k + 1] - x[k]);
            worst = worst.max((e[k + 1] - e[k] - work).abs());
            change = change.max((e[k + 1] - e[k]).abs());
        }
        println!("{method:?}: energy balance off by {worst:.1e} (steps of E up to {change:.1e})");
        assert!(worst < 1e-9, "{method:?}: {worst:e}");
    }
}

#[test]
fn a_controller_with_state_runs_once_per_instant() {
    // A one-sample delay, u_k = -K x_k-1 (u_0 = 0): the exact discrete system with the
    // delay, which any extra or missing call would break.
    let (dt, x0) = (0.05, [1.0, -0.5]);
    for method in METHODS {
        let mut last: Option<[f64; 2]> = None;
        let mut delayed = |_t: f64, x: &[f64], u: &mut [f64]| {
            u[0] = last.map_or(0.0, |p| feedback(&p));
            last = Some([x[0], x[1]]);
        };
        let o = options(method, control_tolerance(method))
            .control_period(dt)
            .sample_every(dt);
        let tr = simulate_controlled(&OSC, &mut delayed, &x0, 0.0..3.0, &o).unwrap();
        let (mut exact, mut previous) = (x0, None::<[f64; 2]>);
        let mut error = 0.0_f64;
        for i in 0..tr.len() {
            error = error.max(max_diff(tr.state(i).unwrap(), &exact));
            let u = previous.map_or(0.0, |p| feedback(&p));
            assert!((tr.input(i).unwrap()[0] - u).abs() < 1e-8, "{method:?}");
            previous = Some(exact);
            exact = zoh_step(exact, u, dt);
        }
        println!("{method:?}: delayed feedback off the exact discrete system by {error:.1e}");
        assert!(error < 1e-9, "{method:?}: {error:e}");
    }
}

/// Where `x` first crosses zero after `t0` on the zero-order-hold motion from `x` with the
/// force `f` held (bisection on the exact solution, inside `[t0, t0 + dt]`).
fn zoh_crossing(x: [f64; 2], f: f64, t0: f64, dt: f64) -> Option<f64> {
    let g = |s: f64| zoh_step(x, f, s)[0];
    if g(0.0).signum() == g(dt).signum() {
        return None;
    }
    let (mut a, mut b) = (0.0, dt);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if g(m).signum() == g(a).signum() {
            a = m;
        } else {
            b = m;
        }
    }
    Some(t0 + 0.5 * (a + b))
}

#[test]
fn stop_when_ends_a_controlled_run_in_either_mode() {
    let x0 = [1.0, -0.5];
    let dt = 0.05;
    // Sampled: the crossing of x = 0 inside its hold interval, from the exact ZOH motion.
    let (mut x, mut t, mut sampled_crossing) = (x0, 0.0, None);
    while sampled_crossing.is_none() {
        let f = feedback(&x);
        sampled_crossing = zoh_crossing(x, f, t, dt);
        x = zoh_step(x, f, dt);
        t += dt;
    }
    let sampled_crossing = sampled_crossing.unwrap();
    // Continuous: the crossing of the exact closed loop.
    let (mut a, mut b) = (0.0, 1.0);
    assert!(closed_loop(x0, b)[0] < 0.0);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if closed_loop(x0, m)[0] > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    let continuous_crossing = a;
    for method in METHODS {
        for (period, exact) in [(Some(dt), sampled_crossing), (None, continuous_crossing)] {
            let mut o = options(method, control_tolerance(method)).stop_when(|_t, x| x[0]);
            if let Some(dt) = period {
                o = o.control_period(dt);
            }
            let mut law = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = feedback(x);
            let tr = simulate_controlled(&OSC, &mut law, &x0, 0.0..3.0, &o).unwrap();
            let te = tr.event_time().expect("crossing");
            println!("{method:?}, period {period:?}: event at {te:.12} (exact {exact:.12})");
            assert!((te - exact).abs() < 1e-8, "{method:?}: {te}");
            assert_eq!(tr.last().unwrap().0, te);
            assert!(tr.last().unwrap().1[0].abs() < 1e-8);
        }
    }
    // the crossing is inside an interval, not at an instant
    assert!((sampled_crossing / dt - (sampled_crossing / dt).round()).abs() > 0.1);
}

/// A controller that fails from `t_fail` on, counting its calls.
struct FailsAt {
    t_fail: f64,
    nan: bool,
}

impl Controller for FailsAt {
    fn control(&mut self, t: f64, x: &[f64], u: &mut [f64]) -> Result<(), Error> {
        if t >= self.t_fail {
            if self.nan {
                u[0] = f64::NAN;
                return Ok(());
            }
            return Err(Error::InvalidOptions("sensor lost".into()));
        }
        u[0] = feedback(x);
        Ok(())
    }
}

#[test]
fn a_controller_error_or_a_nan_input_ends_the_run_with_the_samples_so_far() {
    let x0 = [1.0, -0.5];
    for method in METHODS {
        for period in [Some(0.1), None] {
            for nan in [false, true] {
                let mut o = options(method, 1e-10);
                if let Some(dt) = period {
                    o = o.control_period(dt);
                }
                let mut c = FailsAt { t_fail: 0.52, nan };
                let e = simulate_controlled(&OSC, &mut c, &x0, 0.0..3.0, &o).unwrap_err();
                let what = format!("{method:?}, period {period:?}, nan {nan}: {}", e.error);
                println!("{what}");
                let t = match &e.error {
                    Error::InvalidOptions(m) if !nan && m == "sensor lost" => None,
                    Error::NonFinite {
                        what: "inputs u",
                        t,
                        state,
                    } if nan && state.len() == 2 => Some(*t),
                    _ => panic!("{what}"),
                };
                if let Some(t) = t {
                    // sampled: at the first instant from 0.52 on; continuous: in some stage
                    match period {
                        Some(_) => assert!((t - 0.6).abs() < 1e-12, "{what}"),
                        None => assert!((0.52..1.0).contains(&t), "{what}"),
                    }
                }
                let last = e.partial.times().last().copied().unwrap();
                assert!(e.partial.len() > 3 && last < 0.61, "{what}: {last}");
                if period.is_some() {
                    assert!(last >= 0.5, "{what}: the samples up to the failing instant");
                }
            }
        }
    }
    // failing at t0: refused before any step, nothing recorded
    let mut c = FailsAt {
        t_fail: 0.0,
        nan: true,
    };
    let o = Options::default().control_period(0.1);
    let e = simulate_controlled(&OSC, &mut c, &x0, 0.0..1.0, &o).unwrap_err();
    assert!(matches!(e.error, Error::NonFinite { t: 0.0, .. }) && e.partial.is_empty());
}

#[test]
fn the_controller_gets_one_slot_per_input() {
    // NU = 1 for the forced oscillator, NU = 0 for the plain one (whose controller can only
    // watch); every call sees exactly that many slots, zeroed.
    for method in METHODS {
        for period in [Some(0.1), None] {
            let mut o = options(method, 1e-8).sample_every(0.25);
            if let Some(dt) = period {
                o = o.control_period(dt);
            }
            let sizes = RefCell::new(Vec::new());
            let mut watch = |_t: f64, _x: &[f64], u: &mut [f64]| {
                sizes
                    .borrow_mut()
                    .push((u.len(), u.iter().all(|u| *u == 0.0)));
                u.fill(0.25);
            };
            simulate_controlled(&OSC, &mut watch, &[1.0, 0.0], 0.0..1.0, &o).unwrap();
            let plain = crate::__private::doc_models::Oscillator::new(2.0);
            let tr = simulate_controlled(&plain, &mut watch, &[1.0, 0.0], 0.0..1.0, &o).unwrap();
            assert_eq!((tr.nu(), tr.inputs().len()), (0, 0));
            let sizes = sizes.into_inner();
            let n_forced = sizes.iter().take_while(|(n, _)| *n == 1).count();
            assert!(n_forced > 4, "{method:?}");
            assert!(sizes[n_forced..].iter().all(|(n, _)| *n == 0), "{method:?}");
            assert!(sizes.iter().all(|(_, zeroed)| *zeroed), "{method:?}");
        }
    }
}

#[test]
fn max_steps_counts_over_the_whole_sampled_run() {
    // 20 hold intervals of at least one step each: 10 steps end the run half-way.
    for method in METHODS {
        let o = options(method, 1e-8).control_period(0.05).max_steps(10);
        let mut law = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = feedback(x);
        let e = simulate_controlled(&OSC, &mut law, &[1.0, 0.0], 0.0..1.0, &o).unwrap_err();
        let Error::Solver { t, message, .. } = &e.error else {
            panic!("{method:?}: {}", e.error)
        };
        assert!(
            message.contains("maximum number of steps (10)"),
            "{message}"
        );
        assert!(*t <= 0.5 + 1e-12, "{method:?}: {t}");
        assert_eq!(e.partial.len(), 11, "{method:?}");
    }
}

#[test]
fn simulate_runs_a_model_with_inputs_at_zero_input() {
    // no controller: u = 0, recorded as such; the free oscillation x = cos 2t
    for method in METHODS {
        let o = options(method, 1e-11).sample_every(0.5).control_period(0.1); // no controller: ignored
        let tr = simulate(&OSC, &[1.0, 0.0], 0.0..3.0, &o).unwrap();
        assert_eq!(tr.input_names(), ["f"]);
        assert_eq!(tr.inputs(), [0.0; 7]);
        let (t, x) = tr.last().unwrap();
        assert!((x[0] - (2.0 * t).cos()).abs() < 1e-7, "{method:?}");
    }
}

#[test]
fn samples_at_control_instants_record_the_new_inputs() {
    // Samples every 0.02 s and control every 0.01 s: k 0.02 and 2k 0.01 may differ in the
    // last bit, and each sample is still taken as at its instant, with the new u there.
    let mut law = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = feedback(x);
    let o = Options::default()
        .rtol(1e-12)
        .atol(1e-12)
        .control_period(0.01)
        .sample_every(0.02)
        .method(Method::Dop853);
    let tr = simulate_controlled(&OSC, &mut law, &[1.0, -0.5], 0.0..3.0, &o).unwrap();
    assert_eq!(tr.len(), 151);
    for i in 0..tr.len() {
        let x = tr.state(i).unwrap();
        assert_eq!(tr.input(i).unwrap(), [feedback(x)], "sample {i}");
    }
    // an InputSeries drives the model open-loop as well, linear between its points
    let mut ramp = InputSeries::linear(vec![0.0, 1.0], vec![0.0, 2.0], 1).unwrap();
    let o = Options::default().sample_times(vec![0.5, 1.0, 2.0]);
    let tr = simulate_controlled(&OSC, &mut ramp, &[0.0, 0.0], 0.0..2.0, &o).unwrap();
    assert_eq!(tr.inputs(), [1.0, 2.0, 2.0]);
}
