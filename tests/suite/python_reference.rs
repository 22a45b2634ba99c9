//! The numbers the Python package's tests compare with bit for bit
//! (`python/tests/data/rust_reference.json`): the Whipple bicycle's `rhs` at a state off
//! the upright, and its 5 s ride from there (Tsit45, rtol = atol = 1e-10, sampled every
//! 0.01 s). This test recomputes them in Rust and checks the file; with
//! `NONHOLO_WRITE_REFERENCE=1` it writes the file instead.

use nonholo::models::WhippleBicycle;
use nonholo::prelude::*;

const FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/python/tests/data/rust_reference.json"
);

/// Upright at 5 m/s with lean 0.05 rad and lean rate 0.5 rad/s, pitch from the contact.
fn start(bike: &WhippleBicycle) -> [f64; WhippleBicycle::DIM] {
    let mut x = WhippleBicycle::ZERO_STATE;
    x[3] = 0.05;
    bike.solve_configuration(0.0, &mut x[..WhippleBicycle::NQ])
        .unwrap();
    x[WhippleBicycle::NQ] = 0.5;
    x[WhippleBicycle::NQ + 1] = -5.0 / bike.r_r;
    x
}

/// The numbers as exact bit patterns (hex), JSON arrays of strings.
fn bits(v: &[f64]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|x| format!("\"{:016x}\"", x.to_bits()))
        .collect();
    format!("[{}]", items.join(", "))
}

fn reference() -> String {
    let bike = WhippleBicycle::default();
    let x0 = start(&bike);
    let mut dx = [0.0; WhippleBicycle::DIM];
    bike.rhs(0.0, &x0, &mut dx).unwrap();
    let options = Options::default()
        .rtol(1e-10)
        .atol(1e-10)
        .sample_every(0.01);
    let ride = simulate(&bike, &x0, 0.0..5.0, &options).unwrap();
    let (t1, x1) = ride.last().unwrap();
    format!(
        "{{\n  \"_about\": \"written by tests/suite/python_reference.rs: the Whipple bicycle's \
         rhs at x0 and its state after a 5 s ride (tsit45, rtol = atol = 1e-10, sample_every \
         0.01), as f64 bit patterns\",\n  \"x0\": {},\n  \"rhs\": {},\n  \"t1\": {},\n  \
         \"x1\": {},\n  \"samples\": {}\n}}\n",
        bits(&x0),
        bits(&dx),
        bits(&[t1]),
        bits(x1),
        ride.len()
    )
}

#[test]
fn the_python_reference_is_what_rust_computes() {
    let now = reference();
    if std::env::var_os("NONHOLO_WRITE_REFERENCE").is_some() {
        std::fs::write(FILE, &now).unwrap();
    }
    let kept = std::fs::read_to_string(FILE).expect("python/tests/data/rust_reference.json");
    assert_eq!(
        kept, now,
        "regenerate with NONHOLO_WRITE_REFERENCE=1 cargo test python_reference"
    );
}
