#!/usr/bin/env bash
# The N-trailer family (nonholo-macros/src/scale_tests.rs) built as a downstream user
# would: a crate outside the workspace that depends on nonholo (no default features,
# no profile settings), one model per binary. Prints, per model and profile, the time
# `cargo build` takes for that binary once the dependencies are built (macro expansion
# plus rustc on the emitted code), the emitted size and the rhs time per call.
#
#   bash bench/trailers/run.sh [N...]        (default: 1 2 3 4 5 6 7 8 9 10 20)
#   PROFILES="release dev" (default both); MACRO_OPT=3 compiles the macro optimized
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${TRAILERS_DIR:-$root/target/trailers-bench}
sizes=${*:-1 2 3 4 5 6 7 8 9 10 20}
profiles=${PROFILES:-release dev}
mkdir -p "$work/models" "$work/src/bin"
NONHOLO_TRAILERS_MAX=20 NONHOLO_TRAILERS_OUT="$work/models" \
  cargo test -q --manifest-path "$root/Cargo.toml" -p nonholo-macros --release --lib \
  scale_tests::trailers_expansion_growth -- --ignored --nocapture
# shellcheck source=../downstream.sh
source "$root/bench/downstream.sh"
downstream_crate "$work" trailers-bench "$root"
echo 'fn main() {}' > "$work/src/main.rs"
for n in $sizes; do
  for form in "" _dep; do
    name="Trailers${n}$([ "$form" = _dep ] && echo Dep || true)"
    cat > "$work/src/bin/t${n}${form}.rs" <<RS
use nonholo::prelude::*;
include!("../../models/trailers${n}${form}.rs");
fn main() {
    let m = ${name}::default();
    let mut s = ${name}::ZERO_STATE;
    for (i, x) in s.as_mut().iter_mut().enumerate() {
        *x = 0.1 + 0.05 * i as f64;
    }
    let mut d = ${name}::ZERO_STATE;
    let calls = 200_000u32;
    let start = std::time::Instant::now();
    for i in 0..calls {
        m.rhs(f64::from(i) * 1e-9, std::hint::black_box(s.as_ref()), d.as_mut()).unwrap();
        std::hint::black_box(&d);
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / f64::from(calls);
    println!("{ns:.0}");
}
RS
  done
done
cd "$work"
# dependencies first, so that each timing below is the model alone
for p in $profiles; do cargo build -q --profile "$p" --bin trailers-bench; done
echo "| N | q | form | profile | build (s) | rhs (ns) |"
echo "| --- | --- | --- | --- | --- | --- |"
for n in $sizes; do
  for form in "" _dep; do
    for p in $profiles; do
      start=$(date +%s.%N)
      cargo build -q --profile "$p" --bin "t${n}${form}"
      secs=$(echo "$(date +%s.%N) - $start" | bc)
      dir=$([ "$p" = dev ] && echo debug || echo "$p")
      ns=$("./target/$dir/t${n}${form}")
      echo "| $n | $((n + 3)) | ${form:-speeds} | $p | $secs | $ns |"
    done
  done
done
