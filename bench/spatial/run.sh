#!/usr/bin/env bash
# Spatial multibody families built as a downstream user would (a crate outside the
# workspace, nonholo without default features, no profile settings), one model per binary:
#   chain N: a thin disk rolling on the ground with N links hanging from its centre, each
#            turned about two axes relative to the one before (2N + 5 coordinates,
#            2 rolling constraints, N + 1 bodies);
#   rigidchain N: the same chain with ordinary rigid links (boxes: three distinct principal
#            moments, products of inertia, the centre of mass off the link's axis);
#   tree N:  the same links as two chains of N/2 from the disk's centre;
#   manipulator N: `models::MobileManipulator`'s base (two drive wheels and a castor,
#            5 rolling rows) with an arm of N joints and joint-torque inputs (N + 7
#            coordinates; the torques are zero here).
# The models come from the macro crate's generator (`spatial_tests.rs`), which also prints
# the in-process expansion time. Prints, per model and profile, the time `cargo build`
# takes for that binary once the dependencies are built (macro expansion plus rustc on the
# emitted code), the rhs time per call (best of 5 batches), and the relative energy drift
# over 1 s of RK4 at dt = 1e-4 (a conservative system: RK4's error, falling 16x per
# halving of dt).
#
#   bash bench/spatial/run.sh [N...]          (default: 2 4 6 8 10 12)
#   ... | python3 bench/spatial/fit.py         (the growth exponents of build and rhs)
#   FAMILIES="chain rigidchain tree manipulator" (default all four); PROFILES="release dev" (default release)
#   FORMULATION=voronec (default gibbs_appell; boltzmann_hamel too)
#   JACOBIANS=1 also times `jacobians` (their compilation is then part of the build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${SPATIAL_DIR:-$root/target/spatial-bench}
sizes=${*:-2 4 6 8 10 12}
families=${FAMILIES:-chain rigidchain tree manipulator}
profiles=${PROFILES:-release}
mkdir -p "$work/src/bin" "$work/models"
# shellcheck source=../downstream.sh
source "$root/bench/downstream.sh"
downstream_crate "$work" spatial-bench "$root"
echo 'fn main() {}' > "$work/src/main.rs"
(cd "$root" && NONHOLO_SPATIAL_FORMULATION=${FORMULATION:-gibbs_appell} NONHOLO_SPATIAL_N=$(echo "$sizes" | tr ' ' ',') NONHOLO_SPATIAL_OUT="$work/models" \
  cargo test -q --release -p nonholo-macros --lib spatial_expansion_growth -- --ignored --nocapture \
  | grep '^|')
# with JACOBIANS=1 each binary also times `jacobians` (best of 5 batches); calling them
# compiles them, so their build time is then part of the build's
if [ -n "${JACOBIANS:-}" ]; then
  jacobians='let (n, nu) = (M::DIM, M::NU);
    let (mut a, mut b, u) = (vec![0.0; n * n], vec![0.0; n * nu], vec![0.0; nu]);
    let mut jac = f64::INFINITY;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        for i in 0..2_000u32 {
            m.jacobians(f64::from(i) * 1e-9, std::hint::black_box(s.as_ref()), &u, &mut a, &mut b).unwrap();
            std::hint::black_box(&a);
        }
        jac = jac.min(start.elapsed().as_secs_f64() * 1e9 / 2_000.0);
    }'
else
  jacobians='let jac = f64::NAN;'
fi
for f in $families; do
  for n in $sizes; do
    name=$(echo "$f" | sed 's/^./\U&/; s/chain$/Chain/')$n
    cat > "$work/src/bin/$f$n.rs" <<RS
use nonholo::prelude::*;

include!("../../models/$f$n.rs");

type M = $name;

fn main() {
    let m = $name::default();
    let mut s = $name::ZERO_STATE;
    for (i, x) in s.as_mut().iter_mut().enumerate() {
        *x = 0.1 + 0.05 * i as f64;
    }
    let mut d = $name::ZERO_STATE;
    let calls = 20_000u32;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        for i in 0..calls {
            m.rhs(f64::from(i) * 1e-9, std::hint::black_box(s.as_ref()), d.as_mut()).unwrap();
            std::hint::black_box(&d);
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / f64::from(calls));
    }
    $jacobians
    let e0 = m.energy(0.0, s.as_ref()).unwrap();
    for k in 0..10_000 {
        nonholo::rk4_step(&m, f64::from(k) * 1e-4, &mut s, 1e-4).unwrap();
    }
    let drift = ((m.energy(1.0, s.as_ref()).unwrap() - e0) / e0).abs();
    println!("{best:.0} {jac:.0} {drift:.1e}");
}
RS
  done
done
cd "$work"
# dependencies first, so that each timing below is the model alone
for p in $profiles; do cargo build -q --profile "$p" --bin spatial-bench; done
if [ -n "${JACOBIANS:-}" ]; then
  echo "| family | N | q | profile | build (s) | rhs (ns) | jacobians (ns) | jacobians ÷ rhs | energy drift |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
else
  echo "| family | N | q | profile | build (s) | rhs (ns) | energy drift |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
fi
for f in $families; do
  for n in $sizes; do
    for p in $profiles; do
      start=$(date +%s.%N)
      cargo build -q --profile "$p" --bin "$f$n"
      secs=$(echo "$(date +%s.%N) - $start" | bc)
      dir=$([ "$p" = dev ] && echo debug || echo "$p")
      read -r ns jac drift <<<"$("./target/$dir/$f$n")"
      q=$([ "$f" = manipulator ] && echo $((n + 7)) || echo $((2 * n + 5)))
      if [ -n "${JACOBIANS:-}" ]; then
        echo "| $f | $n | $q | $p | $secs | $ns | $jac | $(echo "scale=1; $jac / $ns" | bc) | $drift |"
      else
        echo "| $f | $n | $q | $p | $secs | $ns | $drift |"
      fi
    done
  done
done
