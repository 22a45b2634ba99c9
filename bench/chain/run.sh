#!/usr/bin/env bash
# A family of 3D multibody models written with frames and bodies, built as a downstream
# user would (a crate outside the workspace, nonholo without default features, no profile
# settings), one model per binary: a disk rolling without slipping on the ground (the
# `rolling_disk_3d_model!` disk) with an N-link pendulum hanging from its centre, each
# link turning about the previous one's y axis (N + 5 coordinates, 2 constraints, N + 3
# speeds, N + 1 bodies). The kinematics layer derives T, V and the rows. Prints, per model
# and profile, the time `cargo build` takes for that binary once the dependencies are built
# (macro expansion plus rustc on the emitted code), the rhs time per call, and the
# relative energy drift over 1 s of RK4 at dt = 1e-4 (the system is conservative; the
# drift falls 16x per halving of dt, so it is RK4's error, not the equations').
#
#   bash bench/chain/run.sh [N...]        (default: 1 2 3 4 6 8 10)
#   PROFILES="release dev" (default both); MACRO_OPT=3 compiles the macro optimized
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${CHAIN_DIR:-$root/target/chain-bench}
sizes=${*:-1 2 3 4 6 8 10}
profiles=${PROFILES:-release dev}
mkdir -p "$work/src/bin"
# shellcheck source=../downstream.sh
source "$root/bench/downstream.sh"
downstream_crate "$work" chain-bench "$root"
echo 'fn main() {}' > "$work/src/main.rs"
for n in $sizes; do
  coords=$(seq -s ', ' -f 'a%g' 1 "$n")
  links=""
  prev=C
  frame=L
  for i in $(seq 1 "$n"); do
    links+="
    frame K$i = $frame.rotate(y, a$i);
    point G$i = $prev - 0.5 * l * K$i.z;
    point J$i = $prev - l * K$i.z;
    body link$i { frame: K$i, center: G$i, mass: ml,
                 inertia: inertia(K$i, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }"
    prev=J$i
    frame=K$i
  done
  cat > "$work/src/bin/c$n.rs" <<RS
use nonholo::prelude::*;

nonholo::nonholonomic! {
    pub struct Chain$n;
    parameters { m = 1.0, r = 0.5, g = 9.81, ml = 0.2, l = 0.3 }
    coordinates { x, y, yaw, lean, spin, $coords }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + r * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }$links
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
    dependent { x, y }
}

fn main() {
    let m = Chain$n::default();
    let mut s = Chain$n::ZERO_STATE;
    for (i, x) in s.as_mut().iter_mut().enumerate() {
        *x = 0.1 + 0.05 * i as f64;
    }
    let mut d = Chain$n::ZERO_STATE;
    let calls = 100_000u32;
    let start = std::time::Instant::now();
    for i in 0..calls {
        m.rhs(f64::from(i) * 1e-9, std::hint::black_box(s.as_ref()), d.as_mut()).unwrap();
        std::hint::black_box(&d);
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / f64::from(calls);
    let e0 = m.energy(0.0, s.as_ref()).unwrap();
    for k in 0..10_000 {
        nonholo::rk4_step(&m, f64::from(k) * 1e-4, &mut s, 1e-4).unwrap();
    }
    let drift = ((m.energy(1.0, s.as_ref()).unwrap() - e0) / e0).abs();
    println!("{ns:.0} {drift:.1e}");
}
RS
done
cd "$work"
# dependencies first, so that each timing below is the model alone
for p in $profiles; do cargo build -q --profile "$p" --bin chain-bench; done
echo "| N | q | bodies | profile | build (s) | rhs (ns) | energy drift |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for n in $sizes; do
  for p in $profiles; do
    start=$(date +%s.%N)
    cargo build -q --profile "$p" --bin "c$n"
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    dir=$([ "$p" = dev ] && echo debug || echo "$p")
    read -r ns drift <<<"$("./target/$dir/c$n")"
    echo "| $n | $((n + 5)) | $((n + 1)) | $p | $secs | $ns | $drift |"
  done
done
