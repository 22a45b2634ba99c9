#!/usr/bin/env bash
# What calling `simulate` adds to a model's release build: the rigid-box chain on a rolling
# disk (`rigidchain N`, 2N + 5 coordinates, from the macro crate's generator) built as a
# downstream user would (a crate outside the workspace, nonholo with only its `diffsol`
# feature, no profile settings), once as a binary that calls the rhs, the energy and a
# fixed-step RK4 loop, once as one that calls `simulate` (DOP853, contact checks off).
# Prints the seconds `cargo build --release` takes for each binary once the dependencies
# are built, and their ratio (the guard: at most 1.5).
#
#   bash bench/simulate_build/run.sh [N...]      (default: 12 16)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${SIMULATE_BUILD_DIR:-$root/target/simulate-build}
sizes=${*:-12 16}
mkdir -p "$work/src/bin" "$work/models"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "simulate-build"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
nonholo = { path = "$root", default-features = false, features = ["diffsol"] }

[workspace]
TOML
echo 'fn main() {}' > "$work/src/main.rs"
(cd "$root" && NONHOLO_SPATIAL_FAMILIES=rigidchain NONHOLO_SPATIAL_N=$(echo "$sizes" | tr ' ' ',') \
  NONHOLO_SPATIAL_OUT="$work/models" \
  cargo test -q --release -p nonholo-macros --lib spatial_expansion_growth -- --ignored --nocapture >/dev/null)
for n in $sizes; do
  name=RigidChain$n
  start_state="let m = $name::default();
    let mut s = $name::ZERO_STATE;
    for (i, x) in s.as_mut().iter_mut().enumerate() {
        *x = 0.1 + 0.05 * i as f64;
    }
    let e0 = m.energy(0.0, s.as_ref()).unwrap();"
  cat > "$work/src/bin/rhs$n.rs" <<RS
use nonholo::prelude::*;
include!("../../models/rigidchain$n.rs");
fn main() {
    $start_state
    for k in 0..1000 {
        nonholo::rk4_step(&m, f64::from(k) * 1e-4, &mut s, 1e-4).unwrap();
    }
    println!("{:e}", (m.energy(0.1, s.as_ref()).unwrap() - e0) / e0);
}
RS
  cat > "$work/src/bin/simulate$n.rs" <<RS
use nonholo::prelude::*;
include!("../../models/rigidchain$n.rs");
fn main() {
    $start_state
    let o = Options::default().method(nonholo::Method::Dop853).contact_checks(false);
    let tr = simulate(&m, s.as_ref(), 0.0..0.1, &o).unwrap();
    let (_, x) = tr.last().unwrap();
    println!("{:e}", (m.energy(0.1, x).unwrap() - e0) / e0);
}
RS
done
cd "$work"
cargo build -q --release --bin simulate-build
echo "| N | q | rhs-only build (s) | simulate build (s) | ratio |"
echo "| --- | --- | --- | --- | --- |"
for n in $sizes; do
  secs=()
  for b in rhs simulate; do
    touch "src/bin/$b$n.rs"
    start=$(date +%s.%N)
    cargo build -q --release --bin "$b$n"
    secs+=("$(echo "$(date +%s.%N) - $start" | bc)")
    "./target/release/$b$n" >/dev/null
  done
  echo "| $n | $((2 * n + 5)) | ${secs[0]} | ${secs[1]} | $(echo "scale=2; ${secs[1]} / ${secs[0]}" | bc) |"
done
