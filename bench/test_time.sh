#!/usr/bin/env bash
# How long a newcomer's `cargo test` takes: each named commit cloned into a fresh folder
# with an empty target directory (dependencies downloaded first, not timed), then the
# README's `cargo test` timed cold, once more warm, and after a one-line edit of a test.
# Run the commits one after the other on an otherwise idle machine and compare them there.
#
#   bash bench/test_time.sh 81ad059 HEAD        (prints one table row per commit)
#   TEST_TIME_WARM=0 ...                        (skips the warm rerun)
#
# Per phase: "compile" is until the first test binary runs, "run" the rest (test binaries,
# trybuild's UI cases, doctests). Headless Chromium must be installed (tests/suite/viz_browser):
# NONHOLO_REQUIRE_BROWSER=1 fails those tests without it rather than timing a run that skipped them.
set -euo pipefail
export NONHOLO_REQUIRE_BROWSER=1
root=$(cd "$(dirname "$0")/.." && pwd)
work=${TEST_TIME_DIR:-/tmp/nonholo-test-time}
echo "| commit | cold (s) | compile (s) | run (s) | warm (s) | one-line test edit (s) | passed |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for rev in "$@"; do
  sha=$(git -C "$root" rev-parse --short "$rev")
  dir="$work/$sha"
  rm -rf "$dir"
  git -C "$root" worktree add -q --detach "$dir" "$sha"
  (cd "$dir" && cargo fetch -q)
  start=$(date +%s)
  (cd "$dir" && cargo test --no-fail-fast >"$dir.cold.log" 2>&1) || true
  cold=$(($(date +%s) - start))
  # the first "Running" line ends the compile phase
  first=$(grep -n -m1 '^ *Running ' "$dir.cold.log" | cut -d: -f1)
  compile_secs=$(awk -v n="$first" 'NR < n && /Finished/ {print}' "$dir.cold.log" |
    sed -E 's/.* in ([0-9.]+)(m ([0-9.]+)s|s).*/\1 \3/' |
    awk '{ if ($2 != "") print $1 * 60 + $2; else print $1 }' | tail -1)
  passed=$(grep -E '^test result' "$dir.cold.log" | sed -E 's/.* ([0-9]+) passed.*/\1/' |
    paste -sd+ | bc)
  warm=-
  if [ "${TEST_TIME_WARM:-1}" != 0 ]; then
    start=$(date +%s)
    (cd "$dir" && cargo test --no-fail-fast >"$dir.warm.log" 2>&1) || true
    warm=$(($(date +%s) - start))
  fi
  # a one-line change to one test file, rebuilt and that test module rerun
  file="$dir/tests/suite/events.rs"
  [ -f "$file" ] || file="$dir/tests/events.rs"
  echo "// an edit" >>"$file"
  start=$(date +%s)
  if [ -d "$dir/tests/suite" ]; then
    (cd "$dir" && cargo test -q --test suite events:: >/dev/null 2>&1) || true
  else
    (cd "$dir" && cargo test -q --test events >/dev/null 2>&1) || true
  fi
  edit=$(($(date +%s) - start))
  echo "| $sha | $cold | ${compile_secs:-?} | $((cold - ${compile_secs%.*})) | $warm | $edit | $passed |"
  git -C "$root" worktree remove --force "$dir"
done
