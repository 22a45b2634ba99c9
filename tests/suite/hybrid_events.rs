//! Runs that go on through events (`Options::event`, `simulate_hybrid`): the rimless wheel's
//! heel strikes against their closed forms, a bouncing mass's impact times and its Zeno
//! pile, the same walls across the four formulations and the four methods, and a run
//! whose events never fire left as it was.

use nonholo::models::RimlessWheel;
use nonholo::prelude::*;
use nonholo::{Error, EventKind, Method};
use nonholo_test_models::formulation_matrix::{SkateBh, SkateGa, SkateMu, SkateVo};
use nonholo_test_models::hybrid_events::FallingMass;

/// The rimless wheel walking from `th = -alpha` at the rate `w0` for `t1` seconds.
fn walk(w: &RimlessWheel, w0: f64, t1: f64, method: Method, tol: f64) -> Trajectory {
    let o = w.heel_strikes(Options::default().method(method).rtol(tol).atol(tol * 1e-2));
    simulate_hybrid(w, &[-w.alpha], &[w0], 0.0..t1, &o).expect("a walk")
}

/// The samples before and after each event: the pairs of equal times.
fn strikes(tr: &Trajectory) -> Vec<(usize, usize)> {
    let t = tr.times();
    (0..t.len() - 1)
        .filter(|&k| t[k] == t[k + 1])
        .map(|k| (k, k + 1))
        .collect()
}

#[test]
fn rimless_wheel_strikes_and_walks_to_its_fixed_point() {
    for i_c in [0.0, 0.3] {
        let w = RimlessWheel {
            i_c,
            ..RimlessWheel::default()
        };
        // the strike keeps the angular momentum about the new foot
        let j = w.i_c + w.m * w.l * w.l;
        let c = (w.i_c + w.m * w.l * w.l * (2.0 * w.alpha).cos()) / j;
        assert!((c - w.strike_ratio()).abs() < 1e-15);
        // the pre-impact rate of the steady walk: the energy a step gains on the slope is
        // what the strike takes
        let gain =
            2.0 * w.m * w.g * w.l * ((w.slope - w.alpha).cos() - (w.slope + w.alpha).cos()) / j;
        let fixed = (gain / (1.0 - c * c)).sqrt();
        assert!((fixed - w.steady_rate()).abs() < 1e-12 * fixed);
        let tr = walk(&w, 0.6 * fixed, 30.0, Method::Dop853, 1e-12);
        let pairs = strikes(&tr);
        assert_eq!(pairs.len(), tr.events().len());
        assert!(pairs.len() > 20, "{} steps", pairs.len());
        let mut post_prev: Option<f64> = None;
        for (n, (&(k0, k1), e)) in pairs.iter().zip(tr.events()).enumerate() {
            assert_eq!(e.kind, EventKind::User("heel strike"));
            let (before, after) = (tr.state(k0).unwrap(), tr.state(k1).unwrap());
            // located where the next spoke touches, to 1e-9 in time (the rate is O(1))
            assert!(
                (before[0] - w.alpha).abs() < 1e-9,
                "step {n}: th {}",
                before[0]
            );
            assert_eq!(after[0], -w.alpha);
            assert!((after[1] / before[1] - c).abs() < 1e-14);
            // each stance phase: from -alpha at the last post-impact rate to alpha
            if let Some(p) = post_prev {
                let expect = (p * p + gain).sqrt();
                assert!(
                    (before[1] - expect).abs() < 1e-9 * expect,
                    "step {n}: {} vs {expect}",
                    before[1]
                );
            }
            post_prev = Some(after[1]);
        }
        let (last, _) = *pairs.last().unwrap();
        let pre = tr.state(last).unwrap()[1];
        assert!(
            (pre - fixed).abs() < 1e-6 * fixed,
            "{pre} vs the fixed point {fixed}"
        );
        println!(
            "i_c = {i_c}: {} steps, pre-impact rate {pre} -> {fixed}",
            pairs.len()
        );
    }
}

#[test]
fn every_method_agrees_on_the_strikes() {
    let w = RimlessWheel::default();
    let reference = walk(&w, 1.0, 8.0, Method::Dop853, 1e-12);
    let times: Vec<f64> = reference.events().iter().map(|e| e.t).collect();
    assert!(times.len() > 5);
    // every method at rtol 1e-10 (atol 1e-12): each strike within 1e-8 s of the reference's
    // (7.5e-11 Tsit45, 1.2e-9 DOP853); the implicit methods' within their global error over
    // 8 s of walking at that tolerance, which moves the strikes with the state (BDF 1.2e-8,
    // ESDIRK34, of order 3, 6.0e-8)
    for (method, agree) in [
        (Method::Tsit45, 1e-8),
        (Method::Dop853, 1e-8),
        (Method::Bdf, 2e-8),
        (Method::Esdirk34, 1e-7),
    ] {
        let tr = walk(&w, 1.0, 8.0, method, 1e-10);
        let other: Vec<f64> = tr.events().iter().map(|e| e.t).collect();
        assert_eq!(other.len(), times.len(), "{method:?}");
        let worst = times
            .iter()
            .zip(&other)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        println!("{method:?}: strikes within {worst:.1e} s");
        assert!(worst < agree, "{method:?}: {worst}");
    }
}

/// A mass dropped from 1 m onto a floor with restitution 1/2: impacts at
/// `t_1 = sqrt(2 / g)` and then every `2 v_k / g` with `v_k = v_1 / 2^k`, piling up at
/// `3 t_1` (Zeno): the run ends there with `EventsPiled`, never a hang.
#[test]
fn a_bouncing_mass_strikes_on_time_and_its_zeno_pile_ends_the_run() {
    let m = FallingMass::default();
    let o = Options::default()
        .method(Method::Dop853)
        .rtol(1e-12)
        .atol(1e-12)
        .event("floor", |_t, q, _qd| q[0], |_t, _q, qd| qd[0] *= -0.5);
    let e = simulate_hybrid(&m, &[1.0], &[0.0], 0.0..5.0, &o).unwrap_err();
    let Error::EventsPiled { name, count, t, .. } = e.error else {
        panic!("{:?}", e.error)
    };
    let t1 = (2.0 / m.g).sqrt();
    assert_eq!(name, "floor");
    assert!(
        (t - 3.0 * t1).abs() < 1e-6,
        "piled at {t}, Zeno at {}",
        3.0 * t1
    );
    let events = e.partial.events();
    assert_eq!(count, events.len() + 1);
    let mut expect = t1;
    let mut v = m.g * t1;
    for (k, ev) in events.iter().take(12).enumerate() {
        assert!(
            (ev.t - expect).abs() < 1e-9,
            "impact {k}: {} vs {expect}",
            ev.t
        );
        v *= 0.5;
        expect += 2.0 * v / m.g;
    }
    // the cap on the number of events
    let capped =
        simulate_hybrid(&m, &[1.0], &[0.0], 0.0..5.0, &o.clone().max_events(5)).unwrap_err();
    assert!(matches!(capped.error, Error::EventsPiled { count: 6, .. }));
    assert_eq!(capped.partial.events().len(), 5);
}

/// A skate sliding down a slope along x while it turns, turned back by a wall at
/// x = 0.5 (its velocity reversed keeps its constraint) and by gravity: the strikes
/// through the four formulations give one motion.
#[test]
fn walls_give_one_motion_across_the_formulations() {
    let o = Options::default()
        .rtol(1e-12)
        .atol(1e-12)
        .sample_every(0.05)
        .event(
            "wall",
            |_t, q, _qd| 0.5 - q[0],
            |_t, _q, qd| {
                qd[0] = -qd[0];
                qd[1] = -qd[1];
            },
        );
    let q0 = [0.0, 0.0, 0.3];
    let qd0 = [0.3f64.cos(), 0.3f64.sin(), 0.2];
    let (alpha, c) = (0.4, 0.0);
    let ga = SkateGa {
        alpha,
        c,
        ..SkateGa::default()
    };
    let ga = simulate_hybrid(&ga, &q0, &qd0, 0.0..4.0, &o).unwrap();
    let runs = [
        simulate_hybrid(
            &SkateBh {
                alpha,
                c,
                ..SkateBh::default()
            },
            &q0,
            &qd0,
            0.0..4.0,
            &o,
        )
        .unwrap(),
        simulate_hybrid(
            &SkateVo {
                alpha,
                c,
                ..SkateVo::default()
            },
            &q0,
            &qd0,
            0.0..4.0,
            &o,
        )
        .unwrap(),
        simulate_hybrid(
            &SkateMu {
                alpha,
                c,
                ..SkateMu::default()
            },
            &q0,
            &qd0,
            0.0..4.0,
            &o,
        )
        .unwrap(),
    ];
    assert!(ga.events().len() >= 3, "{} strikes", ga.events().len());
    for tr in &runs {
        assert_eq!(tr.events().len(), ga.events().len());
        for (a, b) in ga.events().iter().zip(tr.events()) {
            assert!((a.t - b.t).abs() < 1e-9, "{} vs {}", a.t, b.t);
        }
        assert_eq!(tr.len(), ga.len());
        for i in 0..ga.len() {
            assert!((ga.times()[i] - tr.times()[i]).abs() < 1e-9);
            let (a, b) = (ga.state(i).unwrap(), tr.state(i).unwrap());
            for k in 0..3 {
                assert!(
                    (a[k] - b[k]).abs() < 1e-9,
                    "t = {}: q{k} {} vs {}",
                    ga.times()[i],
                    a[k],
                    b[k]
                );
            }
        }
    }
    // never through the wall
    assert!(ga.states().chunks(5).all(|s| s[0] <= 0.5 + 1e-9));
}

/// An event that never fires leaves the run as it was, sample for sample.
#[test]
fn an_event_that_never_fires_changes_nothing() {
    let skate = SkateGa::default();
    let plain = Options::default().rtol(1e-10).atol(1e-10);
    let watched = plain
        .clone()
        .event("far wall", |_t, q, _qd| 100.0 - q[0], |_t, _q, _qd| {});
    let q0 = [0.0, 0.0, 0.3];
    let qd0 = [0.3f64.cos(), 0.3f64.sin(), 0.5];
    let state0 = skate.state_from_qdot(0.0, &q0, &qd0).unwrap();
    let a = simulate(&skate, state0.as_ref(), 0.0..3.0, &plain).unwrap();
    let b = simulate_hybrid(&skate, &q0, &qd0, 0.0..3.0, &watched).unwrap();
    assert!(b.events().is_empty());
    assert_eq!(a.times(), b.times());
    assert_eq!(a.states(), b.states());
}
