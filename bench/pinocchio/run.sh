#!/usr/bin/env bash
# Pinocchio's articulated-body algorithm (`pinocchio::aba`) on the counterpart of the
# "rigidchain N" family of bench/spatial: the thin disk as a free-flying root joint (Pinocchio
# has no rolling constraints) carrying N rigid links, each a revolute joint about x followed
# by one about the turned y, with the same masses, centres of mass and inertia tensors
# (products of inertia included) as `spatial(n, Family::RigidChain)` in
# nonholo-macros/src/spatial_tests.rs; 2N + 6 degrees of freedom. Prints, per N, the time
# per `aba` call (seeded random q, v, tau; best of 5 batches of 20000 calls) and per degree
# of freedom, then the largest difference between aba's accelerations and M^-1 (tau - nle)
# from crba and rnea.
#
# Pinocchio comes from its wheel (`pip install pin`, C++ headers and libraries under
# site-packages/cmeel.prefix/) in a virtual environment under target/pinocchio; Eigen's
# headers come from the system (Debian: `apt-get install libeigen3-dev`), or from
# EIGEN_INCLUDE=dir. The timer is compiled with -O3 -DNDEBUG and no -march, as Rust's
# release profile; its first compile takes a few minutes.
#
#   bash bench/pinocchio/run.sh [N...]          (default: 2 4 6 8 10 12 16)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/bench/pinocchio"
work=${PINOCCHIO_DIR:-$root/target/pinocchio}
venv="$work/venv"
mkdir -p "$work"

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import pinocchio' 2>/dev/null; then
  "$venv/bin/pip" install -q pin
fi
prefix=$("$venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')/cmeel.prefix
if [ ! -f "$prefix/include/pinocchio/multibody.hpp" ]; then
  echo "no Pinocchio headers under $prefix (pip install pin in $venv)" >&2
  exit 1
fi

eigen=${EIGEN_INCLUDE:-}
if [ -z "$eigen" ]; then
  for d in /usr/include/eigen3 /usr/local/include/eigen3; do
    if [ -f "$d/Eigen/Core" ]; then eigen=$d; break; fi
  done
fi
if [ -z "$eigen" ] || [ ! -f "$eigen/Eigen/Core" ]; then
  echo "Eigen's headers were not found: install them (Debian/Ubuntu: apt-get install libeigen3-dev)" >&2
  echo "or set EIGEN_INCLUDE to the directory that holds Eigen/Core" >&2
  exit 1
fi

bin="$work/timer"
if [ ! -x "$bin" ] || [ "$here/timer.cpp" -nt "$bin" ]; then
  echo "compiling $bin (a few minutes)" >&2
  # the Boost MPL limits are those of Pinocchio's CMake config (pinocchio_headers)
  g++ -O3 -DNDEBUG -std=c++17 \
    -DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS -DBOOST_MPL_LIMIT_LIST_SIZE=30 \
    -DBOOST_MPL_LIMIT_VECTOR_SIZE=30 -DBOOST_FUSION_INVOKE_MAX_ARITY=12 \
    -I"$prefix/include" -I"$eigen" "$here/timer.cpp" -o "$bin.tmp" \
    -L"$prefix/lib" -lpinocchio_default -Wl,-rpath,"$prefix/lib"
  mv "$bin.tmp" "$bin"
fi
"$bin" "$@"
