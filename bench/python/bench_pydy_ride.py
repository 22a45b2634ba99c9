#!/usr/bin/env python3
"""PyDy's own integration of SymPy's Whipple bicycle over nonholo's 5 s reference ride.

The model is SymPy's own (`sympy/physics/mechanics/tests/test_kane3.py::test_bicycle`,
SymPy 1.14), built by `build_and_derive()` of `bench_whipple.py` (imported, not copied) and
evaluated at the Meijaard et al. 2007 Table 1 values of its `benchmark_values()`. The ride
is the one of nonholo's `tests/suite/python_reference.rs`, which the Python package times
(`python/bench/bench_python.py`, `bike.simulate`): upright at v = 5 m/s, lean 0.05 rad,
lean rate 0.5 rad/s, steer and steer rate 0, pitch from the front contact's height;
0..5 s, rtol = atol = 1e-10, output every 0.01 s (501 samples).

The way PyDy does it: `pydy.system.System(KM, constants=<benchmark values>)`, then
`System.generate_ode_function(generator=...)`, which hands PyDy's generator KanesMethod's
mass matrix and forcing of all six speeds (the three dependent ones included, through
the differentiated velocity constraints, as in `mass_matrix_full`/`forcing_full`) and
q' = u from the kinematic differential equations; the state is [q1 q2 q5 q4 | u2 u3 u5
u1 u4 u6] (10 numbers). The parameters stay runtime constants, as in a PyDy user's
`System` and in nonholo's model struct. Generators: `cython` (C code, compiled with the
C compiler on the path) and `lambdify`; each runs in a fresh interpreter (so SymPy's
cache does not carry from one to the next) that

  1. derives the equations (`build_and_derive()`, timed for information),
  2. sets up the start state: q1 = q5 = 0, q2 = 0.05, q4 (pitch) by Newton on the
     configuration constraint; u2 = 0.5, u3 = v / r_r, u5 = 0; u1, u4, u6 from the three
     velocity constraints (a linear solve),
  3. times the code generation once (`System.generate_ode_function`; for Cython this
     includes SymPy's cse, writing the C/pyx sources and compiling them),
  4. checks the state derivative at the start against nonholo's `rhs` and times one call
     (as `System.integrate` calls it, constants as a dict, and with a constants array),
  5. integrates with two integrators, each once untimed (warm-up, counts, final state)
     and then --repeat times (best and median, time.perf_counter):
       - `odeint`: PyDy's own `System.integrate(rtol=1e-10, atol=1e-10)`
         (scipy.integrate.odeint, i.e. ODEPACK's LSODA, at the 501 output times);
       - `DOP853`: `scipy.integrate.solve_ivp(..., method="DOP853", rtol=1e-10,
         atol=1e-10, t_eval=<the 501 times>)` with the constants as an array. The
         function PyDy builds for this form returns one and the same output array on
         every call; odeint copies it, solve_ivp keeps it (as the previous step's
         derivative), so it is wrapped with `.copy()` (without: ~50x the evaluations and
         a final state off by ~1e-7),
  6. maps the final state to nonholo's benchmark axes and compares it with nonholo's
     `x1` (python/tests/data/rust_reference.json), and reports the constraint residuals
     at t = 5 s (Kane's state integrates the dependent speeds too; nothing projects it
     back onto the constraints).

Axes. SymPy's test has N.z up, N.x forward at zero yaw, so N.y points left: its frames are
nonholo's benchmark axes (x forward, y right, z down) turned by pi about x. Hence
yaw = -q1, roll = q2 (both positive to the right), pitch = -q4, steer = q5 (both turn
about the steer axis pointing down and forward), dot(th_r) = -u3 (both are the rear
wheel's rate relative to the rear frame, about opposite axle directions; SymPy's test has
u3 = +v / r_r where nonholo has dot(th_r) = -v / r_r), and the front wheel's rate
dot(th_f) = -u6. SymPy's model has no contact position (x, y) and no wheel angles (th_r,
th_f) among its coordinates, so these four of nonholo's eleven numbers are not compared.

Results: pydy_ride_results.json beside this script (versions, machine, generation times,
integration times with every sample, rhs evaluations, the start and final states, the
comparison). The machine's load inflates every time; run it on a quiet machine.

Usage (from the repository root; PyDy, Cython, setuptools, NumPy, SciPy, SymPy and a C
compiler, see requirements.txt):
    python3 bench/python/bench_pydy_ride.py [--repeat 5] [--generators cython lambdify]
"""

import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import time
import timeit
import warnings

import numpy as np
import sympy as sm

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from bench_whipple import build_and_derive, benchmark_values, machine_info  # noqa: E402

REFERENCE = os.path.join(ROOT, "python", "tests", "data", "rust_reference.json")
OUT = os.path.join(HERE, "pydy_ride_results.json")

# the ride of tests/suite/python_reference.rs
SPEED = 5.0            # m/s; nonholo: dot(th_r) = -SPEED / r_r
ROLL0 = 0.05           # rad
ROLL_RATE0 = 0.5       # rad/s
T1 = 5.0
DT = 0.01
RTOL = ATOL = 1e-10
GENERATORS = ("cython", "lambdify")

# nonholo's WhippleBicycle state and where each compared number is in SymPy's state:
# name -> (SymPy symbol name, sign)
NONHOLO_NAMES = ["x", "y", "yaw", "roll", "pitch", "th_r", "steer", "th_f",
                 "dot(roll)", "dot(th_r)", "dot(steer)"]
NONHOLO_FROM_SYMPY = {
    "yaw": ("q1", -1.0), "roll": ("q2", 1.0), "pitch": ("q4", -1.0), "steer": ("q5", 1.0),
    "dot(roll)": ("u2", 1.0), "dot(th_r)": ("u3", -1.0), "dot(steer)": ("u5", 1.0),
}
# nonholo's rhs entry -> (SymPy state entry, sign, "xdot" for its derivative or "x" for
# its value: the wheels' rates, which are states in nonholo's rhs order)
NONHOLO_RHS_FROM_SYMPY = {
    "yaw": ("q1", -1.0, "xdot"), "roll": ("q2", 1.0, "xdot"), "pitch": ("q4", -1.0, "xdot"),
    "th_r": ("u3", -1.0, "x"), "steer": ("q5", 1.0, "xdot"), "th_f": ("u6", -1.0, "x"),
    "dot(roll)": ("u2", 1.0, "xdot"), "dot(th_r)": ("u3", -1.0, "xdot"),
    "dot(steer)": ("u5", 1.0, "xdot"),
}


def load_reference():
    """nonholo's x0, rhs(x0) and x1 (f64 bit patterns in the JSON), as float lists."""
    with open(REFERENCE) as f:
        raw = json.load(f)

    def dec(key):
        return [struct.unpack(">d", bytes.fromhex(h))[0] for h in raw[key]]

    return {"x0": dec("x0"), "rhs": dec("rhs"), "x1": dec("x1"), "t1": dec("t1")[0],
            "samples": raw["samples"]}


def start_state(s, params):
    """The ride's start in Kane's state order, consistent with the constraints.

    q4 (pitch) from the configuration constraint by Newton (from 0), the dependent
    speeds u1, u4, u6 from the velocity constraints (linear in the speeds).
    """
    KM = s.KM
    q, u = list(KM.q), list(KM.u)                    # [q1 q2 q5 q4], [u2 u3 u5 u1 u4 u6]
    hol = sm.Matrix(s.conlist_coord).xreplace(params)[0]
    f_hol = sm.lambdify([q], hol)
    f_dhol = sm.lambdify([q], hol.diff(s.q4))
    qv = np.zeros(4)
    qv[q.index(s.q2)] = ROLL0
    k = q.index(s.q4)
    for it in range(50):
        step = f_hol(qv) / f_dhol(qv)
        qv[k] -= step
        if abs(step) <= 1e-15:
            break
    vc = sm.Matrix(s.conlist_speed).xreplace(params)
    u_ind, u_dep = u[:3], u[3:]
    f_J = sm.lambdify([q], [vc.jacobian(u_dep), vc.jacobian(u_ind)])
    ui = np.zeros(3)
    ui[u_ind.index(s.u2)] = ROLL_RATE0
    ui[u_ind.index(s.u3)] = SPEED / float(params[s.WRrad])
    J_dep, J_ind = (np.asarray(m, dtype=float) for m in f_J(qv))
    ud = np.linalg.solve(J_dep, -J_ind @ ui)
    return np.concatenate([qv, ui, ud]), {"newton_iterations": it + 1}


def residual_function(s, params):
    """x -> |configuration constraint| and max |velocity constraint| at Kane's state x."""
    q, u = list(s.KM.q), list(s.KM.u)
    f = sm.lambdify([q, u], [sm.Matrix(s.conlist_coord).xreplace(params),
                             sm.Matrix(s.conlist_speed).xreplace(params)])

    def residuals(x):
        hol, vel = f(x[:len(q)], x[len(q):])
        return {"configuration_residual": float(np.max(np.abs(hol))),
                "velocity_residual": float(np.max(np.abs(vel)))}

    return residuals


def sympy_index(s):
    """SymPy state entry name -> index in Kane's state [q, u]."""
    return {str(e.func): i for i, e in enumerate(list(s.KM.q) + list(s.KM.u))}


def to_nonholo(s, x):
    """The compared part of Kane's state in nonholo's names and axes."""
    idx = sympy_index(s)
    return {name: sign * float(x[idx[sym]]) + 0.0        # + 0.0: no -0.0
            for name, (sym, sign) in NONHOLO_FROM_SYMPY.items()}


def rhs_to_nonholo(s, x, xdot):
    """Kane's state derivative mapped to nonholo's rhs entries (those it has)."""
    idx = sympy_index(s)
    out = {}
    for name, (sym, sign, src) in NONHOLO_RHS_FROM_SYMPY.items():
        out[name] = sign * float((xdot if src == "xdot" else x)[idx[sym]]) + 0.0
    return out


def compare(mine, ref_list):
    """Per-name differences mine - nonholo, and the largest."""
    diffs = {name: mine[name] - ref_list[NONHOLO_NAMES.index(name)] for name in mine}
    return {"sympy_pydy": mine,
            "nonholo": {name: ref_list[NONHOLO_NAMES.index(name)] for name in mine},
            "diff": diffs,
            "max_abs_diff": max(abs(d) for d in diffs.values())}


def timed_runs(run, repeat):
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        samples.append(time.perf_counter() - t0)
    return {"best_s": min(samples), "median_s": statistics.median(samples),
            "samples_s": samples}


def per_call(fn, repeat=5):
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    samples = [t / number for t in timer.repeat(repeat=repeat, number=number)]
    return {"best_s": min(samples), "median_s": statistics.median(samples),
            "calls_per_sample": number}


# --------------------------------------------------------------------------------------
# One generator, in a fresh interpreter
# --------------------------------------------------------------------------------------


def worker(generator, repeat):
    warnings.simplefilter("ignore")
    from pydy.system import System
    from scipy.integrate import solve_ivp

    ref = load_reference()
    out = {"generator": generator}
    t0 = time.perf_counter()
    s = build_and_derive()
    out["derive_s"] = time.perf_counter() - t0
    _, params, _, _ = benchmark_values(s)
    constants = {k: float(v) for k, v in params.items()}

    x0, start_info = start_state(s, params)
    residuals = residual_function(s, params)
    times = np.linspace(0.0, T1, int(round(T1 / DT)) + 1)
    KM = s.KM
    system = System(KM, constants=constants, times=times,
                    initial_conditions=dict(zip(list(KM.q) + list(KM.u), x0)))
    assert list(system.states) == list(KM.q) + list(KM.u)
    out["state_order"] = [str(e.func) for e in system.states]
    out["start"] = {"state": x0.tolist(), **start_info, **residuals(x0),
                    "vs_nonholo_x0": compare(to_nonholo(s, x0), ref["x0"])}

    t0 = time.perf_counter()
    f = system.generate_ode_function(generator=generator)
    out["generate_s"] = time.perf_counter() - t0

    p_array = np.array([constants[c] for c in system.constants_symbols])
    p_dict = system.constants            # every constant given: what System.integrate passes
    xdot0 = np.array(f(x0, 0.0, p_dict))
    assert np.array_equal(xdot0, f(x0, 0.0, p_array))
    out["rhs_at_start"] = {"xdot": xdot0.tolist(),
                           "vs_nonholo_rhs": compare(rhs_to_nonholo(s, x0, xdot0),
                                                     ref["rhs"])}
    out["rhs_per_call"] = {"constants_dict": per_call(lambda: f(x0, 0.0, p_dict)),
                           "constants_array": per_call(lambda: f(x0, 0.0, p_array))}

    def run_odeint(full_output=False):
        return system.integrate(rtol=RTOL, atol=ATOL, full_output=full_output)

    def rhs_ivp(t, x):
        return f(x, t, p_array).copy()

    def run_dop853():
        sol = solve_ivp(rhs_ivp, (0.0, T1), x0, method="DOP853", rtol=RTOL, atol=ATOL,
                        t_eval=times)
        if not sol.success:
            raise RuntimeError(sol.message)
        return sol

    out["integrators"] = {}
    # odeint: counts from ODEPACK's report of the untimed run
    xs, info = run_odeint(full_output=True)
    res_odeint = {"what": "System.integrate(rtol=1e-10, atol=1e-10): scipy.integrate."
                          "odeint (LSODA), constants as System passes them (a dict)",
                  "message": info["message"],
                  "rhs_evaluations": int(info["nfe"][-1]),
                  "jacobian_evaluations": int(info["nje"][-1]),
                  "steps": int(info["nst"][-1]),
                  "samples": int(xs.shape[0]), "x_final": xs[-1].tolist()}
    res_odeint.update(timed_runs(run_odeint, repeat))
    out["integrators"]["odeint"] = res_odeint

    sol = run_dop853()
    res_dop = {"what": "solve_ivp(method='DOP853', rtol=1e-10, atol=1e-10, t_eval=every "
                       "0.01 s), constants as an array, output copied per call",
               "message": sol.message, "rhs_evaluations": int(sol.nfev),
               "samples": int(sol.y.shape[1]), "x_final": sol.y[:, -1].tolist()}
    res_dop.update(timed_runs(run_dop853, repeat))
    out["integrators"]["DOP853"] = res_dop

    for res in out["integrators"].values():
        xf = np.array(res["x_final"])
        res["vs_nonholo_x1"] = compare(to_nonholo(s, xf), ref["x1"])
        res["constraint_residuals_final"] = residuals(xf)
    a, b = (np.array(out["integrators"][k]["x_final"]) for k in ("odeint", "DOP853"))
    out["odeint_vs_DOP853_max_abs_diff"] = float(np.max(np.abs(a - b)))
    return out


def run_worker(generator, repeat, timeout):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", generator,
           "--repeat", str(repeat)]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"generator": generator, "failed": f"not finished after {timeout:.0f} s"}
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        tail = "\n".join(p.stderr.strip().splitlines()[-5:])
        return {"generator": generator, "failed": f"exit code {p.returncode}: {tail}",
                "wall_s": wall}
    res = json.loads(p.stdout.strip().splitlines()[-1])
    res["wall_s"] = wall
    return res


def versions():
    import scipy
    out = {"scipy": scipy.__version__}
    for name in ("pydy", "Cython", "setuptools"):
        try:
            out[name.lower()] = __import__(name).__version__
        except ImportError:
            out[name.lower()] = None
    try:
        out["gcc"] = subprocess.run(["gcc", "--version"], capture_output=True,
                                    text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        out["gcc"] = None
    return out


def fmt_s(x):
    return f"{x:.2f} s" if x >= 1 else f"{x * 1e3:.2f} ms" if x >= 1e-3 else \
        f"{x * 1e6:.2f} us"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", metavar="GENERATOR", help=argparse.SUPPRESS)
    ap.add_argument("--repeat", type=int, default=5,
                    help="timed integrations per generator and integrator (default 5)")
    ap.add_argument("--generators", nargs="+", default=list(GENERATORS),
                    choices=GENERATORS)
    ap.add_argument("--timeout", type=float, default=1800,
                    help="wall-clock limit (s) of one generator's interpreter (default 1800)")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.repeat)))
        return

    machine = machine_info()
    machine.update(versions())
    ref = load_reference()
    res = {"what": "PyDy (System + generate_ode_function) integrating SymPy's Whipple "
                   "bicycle (test_kane3.py::test_bicycle, benchmark values) over nonholo's "
                   "5 s reference ride; see the docstring of bench_pydy_ride.py",
           "machine": machine,
           "command": "python3 " + " ".join(
               [os.path.relpath(os.path.abspath(__file__))] + sys.argv[1:]),
           "ride": {"speed": SPEED, "roll0": ROLL0, "roll_rate0": ROLL_RATE0, "t1": T1,
                    "dt": DT, "rtol": RTOL, "atol": ATOL},
           "nonholo_reference": {"file": os.path.relpath(REFERENCE, ROOT),
                                 "names": NONHOLO_NAMES, **ref},
           "mapping": {k: f"{'-' if sg < 0 else ''}{sym}"
                       for k, (sym, sg) in NONHOLO_FROM_SYMPY.items()},
           "generators": {}}
    for gen in args.generators:
        print(f"{gen}: ...", flush=True)
        r = run_worker(gen, args.repeat, args.timeout)
        res["generators"][gen] = r
        if "failed" in r:
            print(f"{gen}: FAILED: {r['failed']}", flush=True)
            continue
        pc = r["rhs_per_call"]
        print(f"{gen}: derive {fmt_s(r['derive_s'])}, generate {fmt_s(r['generate_s'])}, "
              f"rhs per call {fmt_s(pc['constants_dict']['median_s'])} (dict), "
              f"{fmt_s(pc['constants_array']['median_s'])} (array); rhs(x0) vs nonholo "
              f"{r['rhs_at_start']['vs_nonholo_rhs']['max_abs_diff']:.1e}", flush=True)
        for name, it in r["integrators"].items():
            print(f"  {name:7s} best {fmt_s(it['best_s'])}, median {fmt_s(it['median_s'])}, "
                  f"{it['rhs_evaluations']} rhs evaluations, x(5 s) vs nonholo's x1: max "
                  f"|diff| {it['vs_nonholo_x1']['max_abs_diff']:.1e}", flush=True)
    res["machine"]["loadavg_end"] = list(os.getloadavg())
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    print(f"wrote {os.path.relpath(args.out)}")


if __name__ == "__main__":
    main()
