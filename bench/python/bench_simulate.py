#!/usr/bin/env python3
"""Whole simulations beside nonholo (issue #12): the unicycle with rider.

Talamucci 2015 §3.3 (`nonholo::models::RollingDiskPendulum`, default parameters), built in
`sympy.physics.mechanics` by `bench_sympy.py` (imported, not rebuilt here) in both of its
speed choices (`momenta`: nonholo's speeds; `qdot`: u = phi', phi1', theta', theta1'), and
integrated the way a SymPy user would: `scipy.integrate.solve_ivp(rhs, (0, t1), x0,
method="DOP853", rtol=1e-10, atol=1e-10)`, every step kept (no `t_eval`), with

  - lambdify: `lambdify([q, u, p], [M_full, F_full], cse=True)` and
    `numpy.linalg.solve(M, F)` (the rhs `bench_sympy.py` times per call),
  - PyDy Cython, numpy solve: `generate_ode_function(..., generator='cython')` with its
    default `linear_sys_solver='numpy'`,
  - PyDy Cython, symbolic LU in C: the same with `linear_sys_solver='sympy'`; this
    function returns one and the same array on every call, which solve_ivp does not
    expect (it keeps the returned derivative for the next step), so it is wrapped with
    `.copy()` (without: about 3x the steps and a wrong trajectory),

over 0-10 s and 0-1.7 s (the rider touches the ground at about 1.74 s; after that the
motion is sensitive to every error). From the initial state of
`examples/rolling_disk_pendulum.rs`, which `benches/simulate.rs` uses: rolling straight
ahead at 1.5 m/s, frame leaning 3 degrees, rider hanging straight down. Kane's state is
[q, u1..u6] (12 numbers, the dependent speeds x_c', y_c' integrated too), nonholo's
[q, z] (10).

Wall time per run (median of --runs runs after one untimed run), solve_ivp's nfev and
the accepted steps (len(sol.t) - 1). The final states, mapped to nonholo's [q, z] as
`bench_sympy.py` does (q' from Kane's kinematics, then nonholo's speeds z(q, q')), are
compared with nonholo's (pasted below from `cargo bench --bench simulate`). If
`<target>/nonholo-simulate.json` and criterion's estimates of `benches/simulate.rs` are
present (target: --target, default $CARGO_TARGET_DIR, else the repository's target/), the
nonholo numbers and the ratios are added. Results go to simulate_results.json.

One run is `cargo bench --bench simulate` followed by this script (it reads the
criterion medians that bench just wrote). The machine is shared and noisy, so the table in
BENCHMARKS.md combines several runs: each writes its own file (--out), and
`--combine FILE...` merges them into simulate_results.json with, per case, the median
over the runs and the per-run ratios, and prints the table.

Usage: python bench_simulate.py [--runs 7] [--variants momenta qdot] [--no-pydy] [--out F]
       python bench_simulate.py --combine run1.json run2.json ...
"""

import argparse
import json
import os
import statistics
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_sympy as bs  # noqa: E402  (the SymPy models, derivation, PyDy wrapper)
import nonholo_dsl  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

MODEL = "rolling_disk_pendulum"
RTOL = ATOL = 1e-10
HORIZONS = ((10.0, "10s"), (1.7, "1_7s"))
RHS_KINDS = {
    "lambdify": "lambdify M, F (cse=True) + numpy.linalg.solve",
    "pydy_numpy": "PyDy Cython, numpy solve (default)",
    "pydy_sympy": "PyDy Cython, symbolic LU in C (its output array copied per call)",
}

# nonholo's side, printed by `cargo bench --bench simulate` (RollingDiskPendulum::default(),
# the example's initial state, Method::Tsit45, rtol = atol = 1e-10), state [q, z] =
# [x_c, y_c, phi, phi1, theta, theta1, eta1, eta2, eta3, eta4].
NONHOLO_STATE0 = [0.0, 0.0, 0.0, 0.0, 0.05235987755982989, 0.0, -0.45532281931361135, 0.75,
                  0.0, 0.0]
NONHOLO_STATE = {
    "1_7s": [2.1446586939684575, 2.169470450580617, 1.9406786939880307, 7.582472761165322,
             1.4138471569698023, -1.3579989425640115, -12.836593322235235,
             1.5974451065037465, 3.302262673443504, -3.1633643354499505],
    # after the fall: for information (nonholo's Tsit45 and Bdf at 1e-10 differ by 1e-3 here;
    # DOP853 lands within about 1e-6 of Tsit45)
    "10s": [-9.688248255496696, 16.42741072338693, 8.37210963082378, 51.161105622926996,
            2.7880008098571905, -4.5778886329789374, 1.4397109285484038,
            -0.1239742535307072, -5.685969260523432, -19.295561060155478],
}


def example_initial_state(num, p, names):
    """`examples/rolling_disk_pendulum.rs`: q = 0 except theta = 3 deg; phi1' = 1.5 / r,
    phi' = theta' = theta1' = 0; x_c', y_c' from the rolling constraints (x_c' = 1.5)."""
    r = p[names.index("r")]
    q0 = np.zeros(6)
    q0[4] = np.radians(3.0)
    qd0 = num.qd_from_ind(q0, {2: 0.0, 3: 1.5 / r, 4: 0.0, 5: 0.0}, p)
    return q0, qd0


def to_nonholo(num, x, p):
    """Kane's [q, u] -> nonholo's [q, z] (as bench_sympy.py maps states)."""
    n = num.n
    K, _, _ = num.f_K(x[:n], x[n:], p)
    return num.nonholo_state(x[:n], np.array(K, dtype=float).ravel(), p)


def integrate(rhs, x0, t1):
    sol = solve_ivp(rhs, (0.0, t1), x0, method="DOP853", rtol=RTOL, atol=ATOL)
    if not sol.success:
        raise RuntimeError(sol.message)
    return sol


def measure(rhs, x0, t1, runs):
    sol = integrate(rhs, x0, t1)          # untimed: warm-up, and the counts
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        integrate(rhs, x0, t1)
        samples.append(time.perf_counter() - t0)
    return sol, {"median_s": statistics.median(samples), "min_s": min(samples),
                 "samples_s": samples}


def compare(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return {"max_abs_diff": float(np.max(np.abs(a - b))), "rel_norm_diff": bs.rel(a, b)}


def nonholo_side(target):
    """nonholo's counts (benches/simulate.rs) and criterion medians, if present."""
    out = {}
    path = os.path.join(target, "nonholo-simulate.json")
    if os.path.exists(path):
        with open(path) as f:
            out = json.load(f)
    for run in out.get("runs", []):
        est = os.path.join(target, "criterion", "simulate_rolling_disk_pendulum",
                           run["function"], "new", "estimates.json")
        if os.path.exists(est):
            with open(est) as f:
                run["criterion_median_s"] = json.load(f)["median"]["point_estimate"] * 1e-9
            run["criterion_estimates_mtime"] = time.strftime(
                "%Y-%m-%dT%H:%M:%S%z", time.localtime(os.path.getmtime(est)))
    return out


def combine(paths, out):
    """Merge run files: medians over the runs, per-run ratios, a table."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    med = statistics.median
    rows = []   # (label, method, t1, steps, rhs evaluations, [s per run], ratio key)
    nonholo = {}
    for run in runs[0]["nonholo"]["runs"]:
        fn = run["function"]
        times = [next((r.get("criterion_median_s") for r in s["nonholo"]["runs"]
                       if r["function"] == fn), None) for s in runs]
        if None in times:
            # not timed in every run (NONHOLO_SIMULATE_METHODS=tsit45)
            continue
        nonholo[fn] = {k: run[k] for k in ("method", "t1", "steps", "rhs_evaluations",
                                           "jvp_evaluations", "max_rel_energy_drift")}
        nonholo[fn].update(median_s=med(times), per_run_s=times)
        evals = str(run["rhs_evaluations"])
        if run["jvp_evaluations"]:
            evals += f" + {run['jvp_evaluations']} JVPs"
        rows.append(("nonholo `simulate`", run["method"], run["t1"], run["steps"],
                     evals, times, None))
    # the explicit methods timed in every run: each SymPy time is divided by theirs
    bases = [m for m in ("tsit45", "dop853")
             if all(f"{m}_{h}" in nonholo for h in ("10s", "1_7s"))]
    sympy, ratios = {}, {m: {} for m in bases}
    for variant, entry in runs[0]["variants"].items():
        for key, run in entry["runs"].items():
            times = [s["variants"][variant]["runs"][key]["median_s"] for s in runs]
            sympy[f"{variant}/{key}"] = {
                "rhs": run["rhs"], "t1": run["t1"], "steps": run["steps"],
                "nfev": run["nfev"], "median_s": med(times), "per_run_s": times,
                "vs_nonholo_tsit45": run["vs_nonholo_tsit45"]}
            for m in bases:
                base = [next(r["criterion_median_s"] for r in s["nonholo"]["runs"]
                             if r["function"] == f"{m}_{run['horizon']}") for s in runs]
                per = [a / b for a, b in zip(times, base)]
                ratios[m][f"{variant}/{key}"] = {"median": med(per), "min": min(per),
                                                 "max": max(per), "per_run": per}
            rows.append((f"SymPy `{variant}` + {run['rhs']}", "solve_ivp DOP853",
                         run["t1"], run["steps"], run["nfev"], times, f"{variant}/{key}"))
    result = {"what": "median over runs; each run: cargo bench --bench simulate, "
                      "then bench_simulate.py (see its docstring)",
              "runs_n": len(runs),
              "nonholo": nonholo, "sympy": sympy,
              **{f"ratio_to_nonholo_{m}": ratios[m] for m in bases},
              "runs": runs}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {out} ({len(runs)} runs)")

    def fmt(sec):
        return f"{sec * 1e3:.2f} ms" if sec < 0.01 else f"{sec * 1e3:.0f} ms"
    names = {"tsit45": "Tsit45", "dop853": "DOP853"}
    print("| tool | method | horizon | steps | rhs evaluations | time | "
          + " | ".join(f"ratio to nonholo {names[m]}" for m in bases) + " |")
    print("|" + " --- |" * (6 + len(bases)))
    for t1 in (10.0, 1.7):
        horizon = "10s" if t1 == 10.0 else "1_7s"
        for label, method, t, steps, nfev, times, key in rows:
            if t != t1:
                continue
            cells = []
            for m in bases:
                if key is not None:
                    r = ratios[m][key]
                    cells.append(f"{r['median']:.0f}× ({r['min']:.0f}–{r['max']:.0f})")
                else:
                    cells.append(f"{med(times) / nonholo[f'{m}_{horizon}']['median_s']:.2f}×")
            print(f"| {label} | {method} | 0–{t:g} s | {steps} | {nfev} "
                  f"| {fmt(med(times))} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="timed runs per case (default 7)")
    ap.add_argument("--variants", nargs="*", default=["momenta", "qdot"])
    ap.add_argument("--no-pydy", action="store_true", help="lambdify only")
    ap.add_argument("--target", default=os.environ.get("CARGO_TARGET_DIR")
                    or os.path.join(bs.REPO, "target"))
    ap.add_argument("--out", default=os.path.join(HERE, "simulate_results.json"))
    ap.add_argument("--combine", nargs="+", metavar="RUN",
                    help="merge run files into --out and print the table")
    args = ap.parse_args()
    if args.combine:
        combine(args.combine, args.out)
        return
    warnings.simplefilter("ignore")

    results = {"machine": bs.machine_info(),
               "settings": {"model": "RollingDiskPendulum (Talamucci 2015, 3.3), default "
                                     "parameters",
                            "integrator": "scipy.integrate.solve_ivp(method='DOP853', "
                                          f"rtol={RTOL}, atol={ATOL}), every step kept",
                            "initial_state": "examples/rolling_disk_pendulum.rs",
                            "timed_runs": args.runs,
                            "time": "wall time of solve_ivp, median of timed_runs after "
                                    "one untimed run"},
               "rhs_kinds": RHS_KINDS, "variants": {}}
    print(json.dumps(results["machine"], indent=1), flush=True)
    names, pdef = bs.param_values(MODEL)
    p = np.array([pdef[k] for k in names])
    dsl = nonholo_dsl.load(bs.MODELS[MODEL]["dsl"], bs.MODELS_SRC)
    os.makedirs(bs.BUILD, exist_ok=True)

    for variant in args.variants:
        spec, kane, M, F, derive_s = bs.derive(MODEL, variant)
        num = bs.Numeric(MODEL, variant, spec, kane, M, F, dsl)
        n = num.n
        q0, qd0 = example_initial_state(num, p, names)
        x0 = num.kane_state(q0, qd0, p)
        state0 = num.nonholo_state(q0, qd0, p)
        entry = {"description": bs.MODELS[MODEL]["variants"][variant],
                 "derive_s_in_process": derive_s, "kane_x0": x0.tolist(),
                 "nonholo_state0": state0.tolist(),
                 "state0_vs_nonholo": compare(state0, NONHOLO_STATE0), "runs": {}}
        print(f"== {variant}: state0 vs nonholo's: {entry['state0_vs_nonholo']}", flush=True)

        rhs_fns = {}
        f_MF = num.f_MF     # lambdify([q, u, p], [M_full, F_full], cse=True)

        def rhs_lambdify(tt, x):
            Mv, Fv = f_MF(x[:n], x[n:], p)
            return np.linalg.solve(Mv, Fv).ravel()

        rhs_fns["lambdify"] = rhs_lambdify
        if not args.no_pydy:
            for solver in ("numpy", "sympy"):
                tmp = os.path.join(bs.BUILD, f"simulate_{variant}_{solver}")
                t_ = time.perf_counter()
                f = bs.pydy_generate(spec, kane, M, F, solver, tmp_dir=tmp)
                entry[f"pydy_{solver}_codegen_compile_s"] = time.perf_counter() - t_
                if solver == "sympy":
                    # PyDy 0.9.4's symbolic-LU function returns the same output array on
                    # every call; solve_ivp keeps the returned derivative (DOP853 reuses
                    # it as the next step's first stage), later calls overwrite it, and
                    # the run goes wrong (about 3x the steps, 1e-3 off at 10 s). A copy
                    # per call fixes that; the numpy-solve function returns new arrays.
                    rhs_fns["pydy_sympy"] = (lambda f: lambda tt, x: f(x, tt, p).copy())(f)
                else:
                    rhs_fns["pydy_numpy"] = (lambda f: lambda tt, x: f(x, tt, p))(f)

        for kind, rhs in rhs_fns.items():
            for t1, horizon in HORIZONS:
                sol, timing = measure(rhs, x0, t1, args.runs)
                x_end = sol.y[:, -1]
                nh_end = to_nonholo(num, x_end, p)
                r = {"rhs": RHS_KINDS[kind], "t1": t1, "horizon": horizon, **timing,
                     "steps": len(sol.t) - 1, "nfev": int(sol.nfev),
                     "final_time": float(sol.t[-1]),
                     "final_state_kane": x_end.tolist(),
                     "final_state_nonholo_layout": nh_end.tolist(),
                     "vs_nonholo_tsit45": compare(nh_end, NONHOLO_STATE[horizon])}
                entry["runs"][f"{kind}_{horizon}"] = r
                print(f"   {kind:11} 0-{t1:<4} s: {timing['median_s'] * 1e3:8.1f} ms "
                      f"(min {timing['min_s'] * 1e3:.1f}), {r['steps']:5} steps, "
                      f"nfev {r['nfev']:6}; vs nonholo: max |diff| "
                      f"{r['vs_nonholo_tsit45']['max_abs_diff']:.1e}, rel "
                      f"{r['vs_nonholo_tsit45']['rel_norm_diff']:.1e}", flush=True)
        results["variants"][variant] = entry

    nh = nonholo_side(args.target)
    if nh:
        results["nonholo"] = nh
        base = {run["function"]: run for run in nh.get("runs", [])}
        ratios = {}
        for variant, entry in results["variants"].items():
            for key, r in entry["runs"].items():
                tsit = base.get("tsit45_" + r["horizon"], {})
                if "criterion_median_s" in tsit:
                    ratios[f"{variant}/{key}"] = r["median_s"] / tsit["criterion_median_s"]
        results["ratio_to_nonholo_tsit45"] = ratios
        for k, v in ratios.items():
            print(f"   {k}: {v:.0f}x nonholo Tsit45", flush=True)
    results["machine"]["loadavg_end"] = list(os.getloadavg())
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)
    print(f"wrote {args.out}", flush=True)


if __name__ == "__main__":
    main()
