#!/usr/bin/env bash
# The Whipple bicycle's rhs on toroidal tyres against the knife-edge wheels it had before the
# tyres (the model text of commit 1705e12, `rolls .. { axis, radius }`), in one binary built
# as a downstream user would: `WhippleBicycle` at crown 0 and at 2 cm beside that text, each
# timed in batches of 200 000 calls taken in turn, 15 rounds, the fastest batch kept.
#
#   bash bench/whipple/tyres.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${TYRES_DIR:-$root/target/tyres-bench}
mkdir -p "$work/src"
# shellcheck source=../downstream.sh
source "$root/bench/downstream.sh"
downstream_crate "$work" tyres-bench "$root"
# the knife-edge model: the body of whipple_bicycle_model! at 1705e12
git -C "$root" show 1705e12:src/models.rs | python3 -c '
import sys
s = sys.stdin.read()
a = s.index("macro_rules! whipple_bicycle_model {")
start = s.index("$crate::nonholonomic! {", a) + len("$crate::nonholonomic! {")
body = s[start:s.index("$($rest)*", a)]
body = body.replace("$(#[$attr])* $vis struct $name;", "pub struct KnifeEdge;")
print("nonholo::nonholonomic! {" + body + "    dependent { x, y, yaw, pitch, th_f }\n}")
' > "$work/src/knife_edge.rs"
cat > "$work/src/main.rs" <<'RS'
use nonholo::prelude::*;
include!("knife_edge.rs");

type Rhs<'a> = &'a dyn Fn(&[f64; 11], &mut [f64; 11]);

fn main() {
    let old = KnifeEdge::default();
    let new = nonholo::models::WhippleBicycle::default();
    let tori = new.with_t_r(0.02).with_t_f(0.02);
    // leaning, steering, 3 m/s, all three torques on
    let mut s = KnifeEdge::ZERO_STATE;
    s[3] = 0.05;
    s[6] = -0.03;
    old.solve_configuration(0.0, &mut s[..8]).unwrap();
    s[8] = 0.2;
    s[9] = -3.0 / 0.3;
    s[10] = -0.1;
    let mut st = s;
    tori.solve_configuration(0.0, &mut st[..8]).unwrap();
    let u = [0.5, -0.8, 2.0];
    let (mut a, mut b) = ([0.0; 11], [0.0; 11]);
    old.rhs_u(0.0, &s, &u, &mut a).unwrap();
    new.rhs_u(0.0, &s, &u, &mut b).unwrap();
    let same = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    println!("knife-edge against tori of crown 0: max |difference of rhs| {same:e}");
    let f_old = |x: &[f64; 11], d: &mut [f64; 11]| old.rhs_u(0.0, x, &u, d).unwrap();
    let f_new = |x: &[f64; 11], d: &mut [f64; 11]| new.rhs_u(0.0, x, &u, d).unwrap();
    let f_tori = |x: &[f64; 11], d: &mut [f64; 11]| tori.rhs_u(0.0, x, &u, d).unwrap();
    let runs: [(Rhs, &[f64; 11]); 3] = [(&f_old, &s), (&f_new, &s), (&f_tori, &st)];
    let n = 200_000;
    let mut best = [f64::MAX; 3];
    for _ in 0..15 {
        for (k, (f, x)) in runs.iter().enumerate() {
            let t = std::time::Instant::now();
            for _ in 0..n {
                let mut d = [0.0; 11];
                f(std::hint::black_box(x), &mut d);
                std::hint::black_box(d);
            }
            best[k] = best[k].min(t.elapsed().as_secs_f64() * 1e9 / f64::from(n));
        }
    }
    println!(
        "rhs_u: knife-edge {:.0} ns; tori at crown 0 {:.0} ns ({:.2}x); at crown 0.02 m {:.0} ns ({:.2}x)",
        best[0],
        best[1],
        best[1] / best[0],
        best[2],
        best[2] / best[0]
    );
}
RS
cd "$work" && cargo run --release --quiet
