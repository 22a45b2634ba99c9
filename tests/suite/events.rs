//! Events: stop when a function of the state crosses zero (diffsol's root finding).

use nonholo::models::{RollingDiskPendulum, Skate};
use nonholo::prelude::*;

#[test]
fn skate_stops_where_its_circle_crosses_the_y_axis() {
    // x(t) = (v/w) sin(w t): first zero after t = 0 at t = pi / w.
    let (v, w) = (1.3, 0.7);
    let opts = Options::default()
        .sample_every(0.5)
        .stop_when(|t, s| if t < 1.0 { 1.0 } else { s[0] });
    let traj = simulate(&Skate::default(), &[0.0, 0.0, 0.0, v, w], 0.0..20.0, &opts).unwrap();
    let te = traj.event_time().expect("event");
    assert!((te - std::f64::consts::PI / w).abs() < 1e-9, "{te}");
    let (tl, last) = traj.last().unwrap();
    assert_eq!(tl, te);
    assert!(last[0].abs() < 1e-9);
}

#[test]
fn unicycle_stops_when_the_frame_falls_flat() {
    let uni = RollingDiskPendulum::default();
    let s0 = uni
        .state_from_qdot(
            0.0,
            &[0.0, 0.0, 0.0, 0.0, 0.05, -0.1],
            &[1.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        )
        .unwrap();
    let flat = std::f64::consts::FRAC_PI_2;
    let opts = Options::default()
        .sample_every(0.1)
        .stop_when(move |_, s| s[4].abs() - flat);
    let traj = simulate(&uni, s0.as_ref(), 0.0..10.0, &opts).unwrap();
    let te = traj.event_time().expect("the unicycle falls");
    let (_, last) = traj.last().unwrap();
    println!("fell flat at t = {te:.6} s");
    assert!((last[4].abs() - flat).abs() < 1e-8);
    assert!(te > 1.0 && te < 3.0);
}
