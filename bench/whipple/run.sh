#!/usr/bin/env bash
# The Whipple bicycle built as a downstream user would: a crate outside the workspace
# that depends on nonholo (no default features, no profile settings) and writes the model
# with `nonholo::whipple_bicycle_model!`. Prints, per profile, the time `cargo build`
# takes for that binary once the dependencies are built (macro expansion plus rustc on
# the emitted code) and its peak memory, then (release) the rhs and rhs_jvp time per
# call and the time of 101 linearizations with eigenvalues.
#
#   bash bench/whipple/run.sh          PROFILES="release dev" (default both);
#                                      MACRO_OPT=3 compiles the macro optimized
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WHIPPLE_DIR:-$root/target/whipple-bench}
profiles=${PROFILES:-release dev}
mkdir -p "$work/src"
# shellcheck source=../downstream.sh
source "$root/bench/downstream.sh"
downstream_crate "$work" whipple-bench "$root"
cat > "$work/src/main.rs" <<'RS'
use nonholo::prelude::*;

nonholo::whipple_bicycle_model! {
    pub struct Bike;
    dependent { x, y, yaw, pitch, th_f }
}

fn per_call(calls: u32, mut f: impl FnMut(u32)) -> f64 {
    let start = std::time::Instant::now();
    for i in 0..calls {
        f(i);
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(calls)
}

fn main() {
    let bike = Bike::default();
    let mut s = Bike::ZERO_STATE;
    s[3] = 0.1; // roll
    s[6] = 0.2; // steer
    bike.solve_configuration(0.0, &mut s[..8]).unwrap();
    s[8] = 0.3;
    s[9] = -5.0 / bike.r_r;
    s[10] = -0.2;
    let mut d = Bike::ZERO_STATE;
    let v = [0.01; 11];
    let best = |f: &mut dyn FnMut() -> f64| (0..5).map(|_| f()).fold(f64::INFINITY, f64::min);
    let rhs = best(&mut || per_call(100_000, |i| {
        bike.rhs(f64::from(i) * 1e-12, std::hint::black_box(&s), &mut d).unwrap();
        std::hint::black_box(&d);
    }));
    let jvp = best(&mut || per_call(20_000, |i| {
        bike.rhs_jvp(f64::from(i) * 1e-12, std::hint::black_box(&s), &v, &mut d).unwrap();
        std::hint::black_box(&d);
    }));
    let sweep = best(&mut || {
        let start = std::time::Instant::now();
        for k in 0..=100 {
            let mut x0 = Bike::ZERO_STATE;
            bike.solve_configuration(0.0, &mut x0[..8]).unwrap();
            x0[9] = -0.1 * f64::from(k) / bike.r_r;
            let spec = Linearize::new().keep(&["roll", "steer", "dot(roll)", "dot(steer)"]);
            let eig = linearize(&bike, 0.0, &x0, &spec).unwrap().eigenvalues().unwrap();
            std::hint::black_box(eig);
        }
        start.elapsed().as_secs_f64() * 1e3
    });
    println!("rhs {rhs:.0} ns, rhs_jvp {jvp:.0} ns, 101 linearizations + eigenvalues {sweep:.2} ms");
}
RS
cd "$work"
for p in $profiles; do
  # dependencies first, so that the timing below is the model alone
  touch src/main.rs && sed -i 's/^fn main() {$/fn main() {/' src/main.rs
  cargo build -q --profile "$p" 2>/dev/null || true
  touch src/main.rs
  /usr/bin/time -f "%e %M" -o time.txt cargo build -q --profile "$p"
  read -r secs kb < time.txt
  echo "$p: build ${secs} s, peak rustc memory $((kb / 1024)) MiB"
done
if [[ " $profiles " == *" release "* ]]; then
  ./target/release/whipple-bench
fi
