#!/usr/bin/env python3
"""The rattleback's 10 s ride the way a NumPy/SciPy user writes it, beside nonholo's.

`nonholo::models::Rattleback` (Kane and Levinson 1982, default parameters): an ellipsoidal
shell of semi-axes a, b, c rolling without slipping on level ground, its centre of mass h
below the shell's centre E, its inertia about G turned from the shell's axes by the
product i_d. The same state as nonholo's, [x, y, z, yaw, roll, pitch, yaw', roll',
pitch'] (E, the Euler angles of B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch),
their rates), and the same equations as `benches/hand/rattleback.rs`: Newton-Euler about
G with the contact force at the support point P = E + A n / sqrt(n.A n) (A = diag(a^2,
b^2, c^2), n the downward normal in B), every vector in B:

  (I + m (|r|^2 1 - r r^T)) w' = -w x I w - m r x (w x (w x r - rho') - g n),

r = G - P, rho = P - E and rho' its rate in B; the dependent x', y', z' are v_E = -w x rho
turned to N, and the Euler angles' accelerations follow from w'. Two rhs of these
equations, as a user who has derived them by hand writes them: `numpy` (NumPy arrays,
`np.cross`, `np.linalg.solve`; the first thing one writes) and `floats` (Python floats
and `math`, the crosses and a 3x3 Cramer solve written out; what one writes after
profiling, NumPy's per-call overhead on 3-vectors being most of the first's time).
SymPy's KanesMethod is not taken here: the derivation is the subject of bench_sympy.py,
not this ride.

From `examples/rattleback.rs`'s start spun +2 rad/s (z = c, yaw' = 2, roll' = 0.1, the
rest 0), integrated with `scipy.integrate.solve_ivp(rhs, (0, 10), x0, method=M,
rtol=1e-8, atol=1e-8)` for M in RK45 and DOP853, every step kept (no t_eval). Wall time:
the best of --runs runs after one untimed run (warm-up, and the counts). Checks: the
energy drift along each run, the height residual z - sigma at the end, and the final
state against a DOP853 run at rtol = atol = 1e-12 (the rocking grows from the start's
roll rate, so runs at 1e-8 part by about 1e-2 in the rates at 10 s) and against
nonholo's (`<target>/nonholo-rattleback.json`, written by `cargo bench -p nonholo-benches
--bench simulate -- rattleback` with criterion's time of
`simulate_rattleback/rattleback_10s`; target: --target, default $CARGO_TARGET_DIR, else
the repository's target/). Results go to rattleback_results.json beside this script.

Usage: python bench_rattleback.py [--runs 5] [--target DIR] [--out F]
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
RTOL = ATOL = 1e-8
T1 = 10.0
METHODS = ("RK45", "DOP853")
REF_TOL = 1e-12
RHS_KINDS = {
    "numpy": "NumPy arrays, np.cross, np.linalg.solve",
    "floats": "Python floats, math, crosses and Cramer's rule written out",
}

# `nonholo::models::Rattleback`'s defaults (src/models/rolling_bodies.rs; checked against
# the source text by `check_parameters` when it can be read).
PARAMS = {"m": 1.0, "a": 0.20, "b": 0.03, "c": 0.02, "h": 0.01, "i_a": 2.0e-4,
          "i_b": 1.6e-3, "i_c": 1.7e-3, "i_d": -2.0e-5, "g": 9.81, "mu": 0.3}


def check_parameters():
    """The defaults in the Rust source, if its rattleback parameter block can be found."""
    path = os.path.join(REPO, "src", "models", "rolling_bodies.rs")
    try:
        text = open(path).read()
    except OSError:
        return {"checked": False, "why": f"{path} not readable"}
    start = text.find("rattleback")
    block = re.search(r"parameters\s*\{([^}]*)\}", text[start:]) if start >= 0 else None
    if block is None:
        return {"checked": False, "why": "no parameters block after 'rattleback'"}
    found = {k: float(v) for k, v in re.findall(r"(\w+)\s*=\s*([-+0-9.eE]+)", block.group(1))}
    return {"checked": True, "source": found, "same": found == PARAMS}


def make_rhs(p):
    """The rhs for solve_ivp, parameters bound (what a user of SciPy writes)."""
    m, g, h = p["m"], p["g"], p["h"]
    A = np.array([p["a"] ** 2, p["b"] ** 2, p["c"] ** 2])
    I = np.array([[p["i_a"], -p["i_d"], 0.0],      # K's xy product turns sign in B
                  [-p["i_d"], p["i_b"], 0.0],
                  [0.0, 0.0, p["i_c"]]])
    one = np.eye(3)

    def rhs(t, s):
        yaw, roll, pitch, dyaw, droll, dpitch = s[3:]
        sy, cy = np.sin(yaw), np.cos(yaw)
        sr, cr = np.sin(roll), np.cos(roll)
        sp, cp = np.sin(pitch), np.cos(pitch)
        w = np.array([cp * droll - cr * sp * dyaw,
                      dpitch + sr * dyaw,
                      sp * droll + cr * cp * dyaw])
        n = np.array([cr * sp, -sr, -cr * cp])
        sigma = np.sqrt(n @ (A * n))
        rho = A * n / sigma
        r = np.array([0.0, 0.0, -h]) - rho
        # E's velocity: the contact's material point is at rest; B -> N by Rz Rx Ry
        R = (np.array([[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]])
             @ np.array([[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]])
             @ np.array([[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]]))
        v_e = R @ np.cross(rho, w)
        # the support point moves over the shell as n turns (n' = n x w)
        nd = np.cross(n, w)
        rho_d = (A * nd - rho * (rho @ nd)) / sigma
        acc = np.cross(w, np.cross(w, r) - rho_d)
        M = I + m * ((r @ r) * one - np.outer(r, r))
        f = -np.cross(w, I @ w) - m * np.cross(r, acc - g * n)
        wd = np.linalg.solve(M, f)
        ddroll = cp * wd[0] + sp * wd[2] + cr * dyaw * dpitch
        ddyaw = (cp * wd[2] - sp * wd[0] - droll * dpitch + sr * droll * dyaw) / cr
        ddpitch = wd[1] - cr * droll * dyaw - sr * ddyaw
        return np.array([v_e[0], v_e[1], v_e[2], dyaw, droll, dpitch,
                         ddyaw, ddroll, ddpitch])

    return rhs


def make_rhs_floats(p):
    """The same rhs on Python floats (`math`, crosses and a 3x3 solve written out): what a
    user writes once NumPy's per-call overhead on 3-vectors shows in the profile."""
    m, g, h = p["m"], p["g"], p["h"]
    a2, b2, c2 = p["a"] ** 2, p["b"] ** 2, p["c"] ** 2
    ia, ib, ic, idd = p["i_a"], p["i_b"], p["i_c"], -p["i_d"]
    sin, cos, sqrt = math.sin, math.cos, math.sqrt

    def cross(u0, u1, u2, v0, v1, v2):
        return u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0

    def rhs(t, s):
        yaw, roll, pitch, dyaw, droll, dpitch = s[3:]
        sy, cy = sin(yaw), cos(yaw)
        sr, cr = sin(roll), cos(roll)
        sp, cp = sin(pitch), cos(pitch)
        crs, crc = cr * sp, cr * cp
        w0, w1, w2 = cp * droll - crs * dyaw, dpitch + sr * dyaw, sp * droll + crc * dyaw
        n0, n1, n2 = crs, -sr, -crc
        inv = 1.0 / sqrt(a2 * n0 * n0 + b2 * n1 * n1 + c2 * n2 * n2)
        p0, p1, p2 = a2 * n0 * inv, b2 * n1 * inv, c2 * n2 * inv
        # v_E = rho x w, turned to N by Rz Rx Ry
        v0, v1, v2 = cross(p0, p1, p2, w0, w1, w2)
        v0, v2 = cp * v0 + sp * v2, cp * v2 - sp * v0
        v1, v2 = cr * v1 - sr * v2, sr * v1 + cr * v2
        v0, v1 = cy * v0 - sy * v1, sy * v0 + cy * v1
        d0, d1, d2 = cross(n0, n1, n2, w0, w1, w2)
        pd = p0 * d0 + p1 * d1 + p2 * d2
        q0 = (a2 * d0 - p0 * pd) * inv
        q1 = (b2 * d1 - p1 * pd) * inv
        q2 = (c2 * d2 - p2 * pd) * inv
        r0, r1, r2 = -p0, -p1, -h - p2
        x0, x1, x2 = cross(w0, w1, w2, r0, r1, r2)
        a0, a1, a2_ = cross(w0, w1, w2, x0 - q0, x1 - q1, x2 - q2)
        iw0, iw1, iw2 = ia * w0 + idd * w1, idd * w0 + ib * w1, ic * w2
        y0, y1, y2 = cross(iw0, iw1, iw2, w0, w1, w2)
        z0, z1, z2 = cross(r0, r1, r2, a0 - g * n0, a1 - g * n1, a2_ - g * n2)
        f0, f1, f2 = y0 - m * z0, y1 - m * z1, y2 - m * z2
        mx, my, mz = m * r0, m * r1, m * r2
        k00, k11, k22 = ia + my * r1 + mz * r2, ib + mx * r0 + mz * r2, ic + mx * r0 + my * r1
        k01, k02, k12 = idd - mx * r1, -mx * r2, -my * r2
        # Cramer's rule with the symmetric adjugate
        c00, c01, c02 = k11 * k22 - k12 * k12, k02 * k12 - k01 * k22, k01 * k12 - k02 * k11
        c11, c12, c22 = k00 * k22 - k02 * k02, k01 * k02 - k00 * k12, k00 * k11 - k01 * k01
        det = 1.0 / (k00 * c00 + k01 * c01 + k02 * c02)
        e0 = (c00 * f0 + c01 * f1 + c02 * f2) * det
        e1 = (c01 * f0 + c11 * f1 + c12 * f2) * det
        e2 = (c02 * f0 + c12 * f1 + c22 * f2) * det
        ddroll = cp * e0 + sp * e2 + cr * dyaw * dpitch
        ddyaw = (cp * e2 - sp * e0 - droll * dpitch + sr * droll * dyaw) / cr
        ddpitch = e1 - cr * droll * dyaw - sr * ddyaw
        return [v0, v1, v2, dyaw, droll, dpitch, ddyaw, ddroll, ddpitch]

    return rhs


def energy_and_height(p, s):
    """Energy (kinetic + m g G_z) and the height residual z - sigma of a state."""
    m, g, h = p["m"], p["g"], p["h"]
    A = np.array([p["a"] ** 2, p["b"] ** 2, p["c"] ** 2])
    I = np.array([[p["i_a"], -p["i_d"], 0.0], [-p["i_d"], p["i_b"], 0.0],
                  [0.0, 0.0, p["i_c"]]])
    z, roll, pitch, dyaw, droll, dpitch = s[2], s[4], s[5], s[6], s[7], s[8]
    sr, cr, sp, cp = math.sin(roll), math.cos(roll), math.sin(pitch), math.cos(pitch)
    w = np.array([cp * droll - cr * sp * dyaw, dpitch + sr * dyaw,
                  sp * droll + cr * cp * dyaw])
    n = np.array([cr * sp, -sr, -cr * cp])
    sigma = math.sqrt(n @ (A * n))
    r = np.array([0.0, 0.0, -h]) - A * n / sigma
    v_g = np.cross(w, r)
    e = 0.5 * m * (v_g @ v_g) + 0.5 * w @ (I @ w) + m * g * (z - h * cr * cp)
    return e, z - sigma


def start(p):
    """examples/rattleback.rs, spun +2 rad/s with a little rocking."""
    x0 = np.zeros(9)
    x0[2] = p["c"]
    x0[6] = 2.0
    x0[7] = 0.1
    return x0


def integrate(rhs, x0, method, tol=RTOL):
    sol = solve_ivp(rhs, (0.0, T1), x0, method=method, rtol=tol, atol=tol)
    if not sol.success:
        raise RuntimeError(sol.message)
    return sol


def machine_info():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "logical_cpus": os.cpu_count(), "kernel": platform.release(),
            "machine": platform.machine(), "python": platform.python_version(),
            "numpy": np.__version__, "scipy": scipy.__version__,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds"),
            "loadavg_start": list(os.getloadavg())}


def nonholo_side(target):
    """nonholo's counted ride and criterion's median, if `cargo bench --bench simulate` ran."""
    out = {}
    path = os.path.join(target, "nonholo-rattleback.json")
    if os.path.exists(path):
        with open(path) as f:
            out = json.load(f)
    est = os.path.join(target, "criterion", "simulate_rattleback", "rattleback_10s", "new",
                       "estimates.json")
    if os.path.exists(est):
        with open(est) as f:
            out["criterion_median_s"] = json.load(f)["median"]["point_estimate"] * 1e-9
        out["criterion_estimates_mtime"] = time.strftime(
            "%Y-%m-%dT%H:%M:%S%z", time.localtime(os.path.getmtime(est)))
    return out


def per_call(rhs, x0):
    """Seconds per rhs call at x0: the best of 5 batches of 2000 calls."""
    best = math.inf
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(2000):
            rhs(0.0, x0)
        best = min(best, (time.perf_counter() - t0) / 2000)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="timed runs per case (default 5)")
    ap.add_argument("--target", default=os.environ.get("CARGO_TARGET_DIR")
                    or os.path.join(REPO, "target"))
    ap.add_argument("--out", default=os.path.join(HERE, "rattleback_results.json"))
    args = ap.parse_args()

    results = {"machine": machine_info(),
               "settings": {"model": "Rattleback::default() (Kane and Levinson 1982)",
                            "parameters": PARAMS, "parameters_vs_source": check_parameters(),
                            "rhs_kinds": RHS_KINDS,
                            "integrator": "scipy.integrate.solve_ivp(method=M, "
                                          f"rtol={RTOL}, atol={ATOL}), every step kept",
                            "t1": T1, "initial_state": "examples/rattleback.rs, spun +2 rad/s",
                            "reference": f"DOP853 at rtol = atol = {REF_TOL:g}, NumPy rhs",
                            "timed_runs": args.runs,
                            "time": "wall time of solve_ivp, best of timed_runs after one "
                                    "untimed run"},
               "rhs_per_call_s": {}, "runs": {}}
    print(json.dumps(results["machine"], indent=1), flush=True)
    print("parameters vs source:", results["settings"]["parameters_vs_source"], flush=True)
    p = PARAMS
    rhs_fns = {"numpy": make_rhs(p), "floats": make_rhs_floats(p)}
    x0 = start(p)
    e0, _ = energy_and_height(p, x0)
    d_np, d_fl = rhs_fns["numpy"](0.0, x0), np.array(rhs_fns["floats"](0.0, x0))
    results["floats_vs_numpy_rhs_at_x0"] = float(np.max(np.abs(d_np - d_fl)))
    for kind, rhs in rhs_fns.items():
        results["rhs_per_call_s"][kind] = per_call(rhs, x0)
        print(f"rhs per call, {kind}: {results['rhs_per_call_s'][kind] * 1e6:.1f} us",
              flush=True)

    # The rocking grows from the start's small roll rate and the spin's fate hangs on it:
    # runs at 1e-8 part by about 1e-2 in the rates at 10 s, so each is compared with a
    # run at REF_TOL, the same for nonholo's final state.
    ref = integrate(rhs_fns["floats"], x0, "DOP853", REF_TOL).y[:, -1]
    results["reference_final_state"] = ref.tolist()
    print(f"reference (DOP853 at {REF_TOL:g}) final state {ref.tolist()}", flush=True)

    nh = nonholo_side(args.target)
    if nh:
        results["nonholo"] = nh
        if "final_state" in nh:
            nh["vs_reference_max_abs_diff"] = float(np.max(np.abs(
                np.array(nh["final_state"]) - ref)))
    for kind, rhs in rhs_fns.items():
        for method in METHODS:
            sol = integrate(rhs, x0, method)
            samples = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                integrate(rhs, x0, method)
                samples.append(time.perf_counter() - t0)
            energies = [energy_and_height(p, sol.y[:, k])[0] for k in range(sol.y.shape[1])]
            drift = max(abs(e - e0) for e in energies) / abs(e0)
            x_end = sol.y[:, -1]
            _, height = energy_and_height(p, x_end)
            r = {"rhs": RHS_KINDS[kind], "method": method, "best_s": min(samples),
                 "samples_s": samples, "steps": len(sol.t) - 1, "nfev": int(sol.nfev),
                 "max_rel_energy_drift": drift, "final_height_residual": height,
                 "final_time": float(sol.t[-1]), "final_state": x_end.tolist(),
                 "vs_reference_max_abs_diff": float(np.max(np.abs(x_end - ref)))}
            if "final_state" in nh:
                d = np.abs(x_end - np.array(nh["final_state"]))
                r["vs_nonholo_max_abs_diff"] = float(d.max())
            if "criterion_median_s" in nh:
                r["ratio_to_nonholo"] = r["best_s"] / nh["criterion_median_s"]
            results["runs"][f"{kind}_{method}"] = r
            print(f"{kind:6} {method:7} 0-{T1:g} s: best {r['best_s'] * 1e3:8.1f} ms, "
                  f"{r['steps']:6} steps, nfev {r['nfev']:7}, energy drift {drift:.1e}, "
                  f"height residual {height:.1e}, vs reference "
                  f"{r['vs_reference_max_abs_diff']:.1e}"
                  + (f", {r['ratio_to_nonholo']:.0f}x nonholo's time"
                     if "ratio_to_nonholo" in r else ""), flush=True)
            print(f"        final state {x_end.tolist()}", flush=True)
    if nh:
        print(f"nonholo Tsit45: {nh.get('steps')} steps, {nh.get('rhs_evaluations')} rhs "
              f"evaluations, energy drift {nh.get('max_rel_energy_drift', math.nan):.1e}"
              + (f", criterion median {nh['criterion_median_s'] * 1e3:.2f} ms"
                 if "criterion_median_s" in nh else "")
              + (f", vs reference {nh['vs_reference_max_abs_diff']:.1e}"
                 if "vs_reference_max_abs_diff" in nh else ""))
        print(f"        final state {nh.get('final_state')}")
    else:
        print(f"(no {os.path.join(args.target, 'nonholo-rattleback.json')}: run `cargo bench "
              "-p nonholo-benches --bench simulate -- rattleback` first for nonholo's side)")
    results["machine"]["loadavg_end"] = list(os.getloadavg())
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)
    print(f"wrote {args.out}", flush=True)


if __name__ == "__main__":
    main()
