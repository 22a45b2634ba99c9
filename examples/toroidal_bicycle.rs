//! The Whipple bicycle on toroidal tyres (`nonholo::models::WhippleBicycle` with crown radii
//! `t_r`, `t_f`): the hubs stay where the benchmark has them (the rolling radii `r_r`, `r_f`
//! held), each tyre a torus of major radius `r - t` and crown radius `t`. A crown moves the
//! contact sideways as the bicycle leans, and with it the stability: the weave and capsize
//! speeds against the crown radius (both tyres alike), found where the characteristic
//! polynomial of the upright linearization says an eigenvalue crosses the imaginary axis.
//!
//! `cargo run --release --example toroidal_bicycle`
use nonholo::models::WhippleBicycle;
use nonholo::prelude::*;

/// The upright linearization at forward speed `v` (pitch from the contact constraint).
fn polynomial(bike: &WhippleBicycle, v: f64) -> Result<Vec<f64>, Error> {
    let mut state = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut state[..WhippleBicycle::NQ])?;
    state[WhippleBicycle::NQ + 1] = -v / bike.r_r;
    let spec = Linearize::new().keep(&["roll", "steer", "dot(roll)", "dot(steer)"]);
    Ok(linearize(bike, 0.0, &state, &spec)?.characteristic_polynomial())
}

/// The first speed in `(lo, hi)` where `f` changes sign (a scan, then bisection).
fn first_root(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> Option<f64> {
    let step = 0.05;
    let mut a = lo;
    let mut fa = f(a);
    while a < hi {
        let b = a + step;
        let fb = f(b);
        if (fa > 0.0) != (fb > 0.0) {
            let (mut x, mut y) = (a, b);
            while y - x > 1e-12 * y {
                let mid = 0.5 * (x + y);
                if (f(mid) > 0.0) == (fa > 0.0) {
                    x = mid;
                } else {
                    y = mid;
                }
            }
            return Some(0.5 * (x + y));
        }
        (a, fa) = (b, fb);
    }
    None
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "{:>8} {:>16} {:>16}",
        "crown", "weave (m/s)", "capsize (m/s)"
    );
    for crown in [0.0, 0.01, 0.02, 0.03, 0.04, 0.05] {
        let bike = WhippleBicycle::default().with_t_r(crown).with_t_f(crown);
        // weave: the Hurwitz determinant c3 c2 c1 - c1^2 - c0 c3^2 of s^4 + c3 s^3 + .. + c0
        // turns positive; capsize: c0 (a real eigenvalue through 0) turns negative
        let hurwitz = |v: f64| {
            let c = polynomial(&bike, v).expect("a linearization");
            c[3] * c[2] * c[1] - c[1] * c[1] - c[0] * c[3] * c[3]
        };
        let c0 = |v: f64| polynomial(&bike, v).expect("a linearization")[0];
        let weave = first_root(1.0, 15.0, hurwitz);
        let capsize = weave.and_then(|w| first_root(w + 0.01, 30.0, c0));
        let show = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.6}"));
        println!("{crown:8.3} {:>16} {:>16}", show(weave), show(capsize));
    }
    println!("(crown 0: Meijaard 2007's 4.29238253634111 and 6.02426201538837)");
    Ok(())
}
