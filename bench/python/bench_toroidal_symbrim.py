#!/usr/bin/env python3
"""Weave and capsize speeds of the Whipple bicycle on toroidal tyres, with SymBRiM.

An independent check of nonholo's toroidal-tyre Whipple bicycle: the Meijaard et al.
(2007) benchmark bicycle (Table 1) built with SymBRiM (`symbrim`, on SymPy mechanics),
with both wheels replaced by tori whose crown (tube) radius is t, the hubs kept where the
benchmark has them.

What it computes
----------------
* The model: `WhippleBicycleMoore` (Moore's convention) from `FlatGround` (SymBRiM's
  default normal "-z": the ground frame's z points down), `RigidRearFrame` and
  `RigidFrontFrame` (Moore), two `ToroidalWheel`s and two `NonHolonomicTire`s (no slip,
  both directions), gravity `-g * ground.get_normal(...)` as in SymBRiM's tests. The
  split of coordinates and speeds is the one of SymBRiM's tests and tutorial: q_dep =
  [pitch q5], u_ind = [roll rate u4, rear wheel rate u6, steer rate u7].
* SymBRiM's torus on flat ground puts the wheel centre at
      contact + radius * upward_radial_axis + transverse_radius * ground_normal
  so `radius` is the major radius (hub to the centre of the tube) and the upright hub
  height is radius + transverse_radius. To keep the benchmark's hub heights r_R = 0.3 m
  and r_F = 0.35 m: radius = r - t, transverse_radius = t (t = 0 is the knife edge).
  The script checks the hub heights at the operating point.
* Parameters: SymBRiM's own conversion, `bike.get_param_values(bicycleparameters.
  Bicycle)` (which uses `dtk.bicycle.benchmark_to_moore`), from a Bicycle loaded from a
  temporary data directory holding the exact Table 1 values (the "Benchmark" file shipped
  with bicycleparameters rounds I_Hxx, I_Hzz, I_Hxz to 0.0589, 0.0071, -0.0076, so it is
  not used). d1, d2, d3, l1..l4 come from the benchmark with the hub heights r_R, r_F,
  which is exactly the "hubs stay where they are" geometry. The wheel radii are then set
  to r - t and the transverse radii to t (ToroidalWheel has no get_param_values of its
  own for them). Wheel masses and inertias unchanged.
* One symbolic derivation: `System.form_eoms(constraint_solver="CRAMER")` (KanesMethod),
  then `KanesMethod.to_linearizer(linear_solver="CRAMER")` and
  `Linearizer.linearize(op_point, A_and_B=False)` with every parameter a symbol, radius
  and transverse radius included. The operating point is upright straight running at
  speed v: all angles 0 except the pitch q5 = lambda, u1 = v (rear contact along
  ground x), u6 = -v / (r_R), u8 = -v / (r_F) (wheel spins about the hub's y axis, which
  points right; note that SymBRiM 0.1.0's `descriptions` swap the names of q6 and q8,
  while its joints use q6 for the rear and q8 for the front wheel), all other speeds and
  all speed derivatives 0. The script checks that this point satisfies the holonomic
  and the five velocity constraints. M(v, p) and A(v, p) are lambdified once
  (cse=True); for each speed A_cont = P^T M^-1 A numerically (P = the linearizer's
  permutation matrix), and the lean/steer block (q4, q7, u4, u7) gives the eigenvalues
  (the script checks that the lean/steer rows do not depend on the other states).
* t = 0 must give the benchmark: the eigenvalues at v = 0..10 m/s against Meijaard 2007
  Table 2, and the weave and capsize speeds 4.292383 and 6.024262 m/s. As an extra
  cross-check the same derivation is done with `KnifeEdgeWheel`s (skip with
  --skip-knife-edge); it runs in a second worker process alongside the toroidal one.
* Weave speed: where the largest real part of the complex (weave) pair crosses zero,
  becoming negative; capsize speed: where the largest real eigenvalue (capsize mode)
  crosses zero, becoming positive. Sign changes are located on a grid of v = 1..10 m/s
  (step 0.05) and refined by bisection to a bracket width below 1e-12 m/s.
* Compared with nonholo's values (7 significant digits, so relative differences below
  ~1.3e-7 are at the rounding of those values).

Results: prints the speeds and writes `toroidal_symbrim_results.json` next to this file
(versions, machine, run times, results, relative differences, every check).

How to run (Python >= 3.10; no C compiler needed). The venv lives outside the repository:

    python3 -m venv /tmp/symbrim-venv
    /tmp/symbrim-venv/bin/pip install symbrim==0.1.0 bicycleparameters==1.5.2 \\
        dynamicisttoolkit==0.7.0
    # from the repository root (about 12 min of symbolic work per derivation, the two
    # derivations in parallel; peak RSS about 200 MB per worker):
    nice -n 10 /tmp/symbrim-venv/bin/python bench/python/bench_toroidal_symbrim.py

Versions used for the committed JSON: Python 3.11.7, symbrim 0.1.0, sympy 1.14.0,
mpmath 1.3.0, numpy 2.4.6, scipy 1.17.1, BicycleParameters 1.5.2, DynamicistToolKit
0.7.0 (dtk), uncertainties 3.2.3, yeadon 2.0.1 (pulled in by bicycleparameters).

Options: --t 0 0.01 0.02 (crown radii, m), --skip-knife-edge, --jobs N (worker processes,
default 2), --out PATH, --cache DIR (keep/reuse the linearized matrices).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import importlib.metadata
import json
import os
import pickle
import platform
import resource
import sys
import tempfile
import time
import warnings

T_START = time.perf_counter()

import numpy as np  # noqa: E402
import sympy as sm  # noqa: E402
import sympy.physics.mechanics as me  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Meijaard, Papadopoulos, Ruina & Schwab 2007, Table 1 (exact values).
TABLE1 = dict(
    w=1.02, c=0.08, lam=np.pi / 10, g=9.81,
    rR=0.3, mR=2.0, IRxx=0.0603, IRyy=0.12,
    xB=0.3, zB=-0.9, mB=85.0, IBxx=9.2, IByy=11.0, IBzz=2.8, IBxz=2.4,
    xH=0.9, zH=-0.7, mH=4.0, IHxx=0.05892, IHyy=0.06, IHzz=0.00708, IHxz=-0.00756,
    rF=0.35, mF=3.0, IFxx=0.1405, IFyy=0.28,
)

# Meijaard et al. 2007, Table 2: v -> eigenvalues (capsize, weave pair, castor).
TABLE2 = {
    0: [3.13164324790656, -3.13164324790656, 5.53094371765393, -5.53094371765393],
    1: [-3.13423125066578, 3.52696170990070 + 0.80774027519930j,
        3.52696170990070 - 0.80774027519930j, -7.11008014637442],
    2: [-3.07158645641514, 2.68234517512745 + 1.68066296590675j,
        2.68234517512745 - 1.68066296590675j, -8.67387984831735],
    3: [-2.63366137253667, 1.70675605663975 + 2.31582447384325j,
        1.70675605663975 - 2.31582447384325j, -10.35101467245920],
    4: [-1.42944427361326, 0.41325331521125 + 3.07910818603206j,
        0.41325331521125 - 3.07910818603206j, -12.15861426576450],
    5: [-0.32286642900409, -0.77534188219585 + 4.46486771378823j,
        -0.77534188219585 - 4.46486771378823j, -14.07838969279820],
    6: [-0.00406690076970, -1.52644486584142 + 5.87673060598709j,
        -1.52644486584142 - 5.87673060598709j, -16.08537123098030],
    7: [0.10268170574766, -2.13875644258362 + 7.19525913329805j,
        -2.13875644258362 - 7.19525913329805j, -18.15788466125262],
    8: [0.14327879765713, -2.69348683581097 + 8.46037971396931j,
        -2.69348683581097 - 8.46037971396931j, -20.27940894394569],
    9: [0.15790184030917, -3.21675402252485 + 9.69377351531791j,
        -3.21675402252485 - 9.69377351531791j, -22.43788559040858],
    10: [0.16105338653172, -3.72016840437287 + 10.90681139476287j,
         -3.72016840437287 - 10.90681139476287j, -24.62459635017404],
}

# nonholo's values (the brief): t -> (weave, capsize), m/s.
NONHOLO = {0.0: (4.292383, 6.024262), 0.01: (4.113750, 5.130977),
           0.02: (3.926105, 4.497885)}

V = sm.Symbol("v")          # forward speed of the operating point
LAM = sm.Symbol("lam")      # operating pitch (= steer axis tilt lambda, see the checks)
STATE_NAMES = None          # filled from the linearizer: [q_ind..., u_ind...]


# --------------------------------------------------------------------------------------
# The SymBRiM model
# --------------------------------------------------------------------------------------


def build_bicycle(kind: str):
    """The Whipple bicycle in SymBRiM; kind = "toroidal" or "knife_edge"."""
    import symbrim as sb
    from symbrim.bicycle import WhippleBicycleMoore

    wheel_cls = {"toroidal": sb.ToroidalWheel, "knife_edge": sb.KnifeEdgeWheel}[kind]
    bike = WhippleBicycleMoore("bike")
    bike.ground = sb.FlatGround("ground")
    bike.rear_frame = sb.RigidRearFrame("rear_frame")
    bike.front_frame = sb.RigidFrontFrame("front_frame")
    bike.rear_wheel = wheel_cls("rear_wheel")
    bike.front_wheel = wheel_cls("front_wheel")
    bike.rear_tire = sb.NonHolonomicTire("rear_tire")
    bike.front_tire = sb.NonHolonomicTire("front_tire")
    bike.define_all()
    system = bike.to_system()
    g = sm.Symbol("g")
    system.apply_uniform_gravity(-g * bike.ground.get_normal(bike.ground.origin))
    system.q_ind = [*bike.q[:4], *bike.q[5:]]
    system.q_dep = [bike.q[4]]
    system.u_ind = [bike.u[3], *bike.u[5:7]]
    system.u_dep = [*bike.u[:3], bike.u[4], bike.u[7]]
    system.validate_system()
    return bike, system


def hub_heights(bike):
    """Upright hub heights (symbolic): the distance contact point -> wheel centre."""
    if hasattr(bike.rear_wheel, "transverse_radius"):
        return (bike.rear_wheel.radius + bike.rear_wheel.transverse_radius,
                bike.front_wheel.radius + bike.front_wheel.transverse_radius)
    return bike.rear_wheel.radius, bike.front_wheel.radius


def operating_point(bike):
    """Upright straight running at speed V; pitch LAM; steady (all u' = 0)."""
    q, u = bike.q, bike.u
    h_r, h_f = hub_heights(bike)
    op = {qi: 0 for qi in q}
    op[q[4]] = LAM
    op.update({ui: 0 for ui in u})
    op[u[0]] = V                 # rear contact point velocity along ground x
    op[u[5]] = -V / h_r          # rear wheel spin about the hub's y axis (points right)
    op[u[7]] = -V / h_f          # front wheel spin
    op.update({ui.diff(me.dynamicsymbols._t): 0 for ui in u})
    return op


def derive(kind: str) -> dict:
    """Worker: one symbolic derivation + linearization; returns pickled matrices."""
    sys.setrecursionlimit(100000)
    warnings.simplefilter("ignore")
    times = {}
    t0 = time.perf_counter()
    bike, system = build_bicycle(kind)
    times["build"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    system.form_eoms(constraint_solver="CRAMER")
    times["form_eoms"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    lin = system.eom_method.to_linearizer(linear_solver="CRAMER")
    lin._setup()  # the symbolic Jacobians and C_0, C_1, C_2 (timed separately)
    times["linearizer_setup"] = time.perf_counter() - t0

    op = operating_point(bike)
    t0 = time.perf_counter()
    M, A, _ = lin.linearize(op_point=op, A_and_B=False)
    times["linearize_op_point"] = time.perf_counter() - t0

    # Expressions for the checks (symbolic in the parameters, numeric later).
    normal = bike.ground.get_normal(bike.ground.origin)
    hol = sm.Matrix(system.holonomic_constraints)
    q_op = {qi: val for qi, val in op.items() if qi in set(bike.q)}
    u_op = {ui: val for ui, val in op.items() if ui in set(bike.u)}
    checks = {
        "holonomic": hol,
        "holonomic_at_op": hol.xreplace(q_op),
        "velocity_at_op": sm.Matrix(system.velocity_constraints).xreplace(
            {qi.diff(me.dynamicsymbols._t): ui for qi, ui in zip(bike.q, bike.u)}
        ).xreplace(u_op).xreplace(q_op),
        "rear_hub_height": bike.rear_wheel.center.pos_from(bike.ground.origin).dot(
            normal).xreplace(q_op),
        "front_hub_height": bike.front_wheel.center.pos_from(bike.ground.origin).dot(
            normal).xreplace(q_op),
        "pitch": bike.q[4],
        "q_at_op": {str(k): str(v) for k, v in q_op.items()},
    }
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return pickle.dumps({
        "kind": kind, "M": M, "A": A, "P": lin.perm_mat,
        "x": [str(s) for s in [*lin.q_i, *lin.u_i]],
        "ops": {"M": int(sm.count_ops(M)), "A": int(sm.count_ops(A))},
        "times": times, "peak_rss_mb": rss, "checks": checks,
        "op_point": {str(k): str(v) for k, v in op.items()},
    })


# --------------------------------------------------------------------------------------
# Parameters: SymBRiM's own conversion from a bicycleparameters.Bicycle
# --------------------------------------------------------------------------------------


def symbrim_param_values(kind: str) -> dict[str, float]:
    """Symbol name -> value from `bike.get_param_values(Bicycle)` (t-independent)."""
    import bicycleparameters as bp
    with tempfile.TemporaryDirectory() as d:
        par_dir = os.path.join(d, "bicycles", "Benchmark", "Parameters")
        os.makedirs(par_dir)
        with open(os.path.join(par_dir, "BenchmarkBenchmark.txt"), "w") as f:
            for k, val in TABLE1.items():
                f.write(f"{k} = {val!r}+/-0.0\n")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bicycle = bp.Bicycle("Benchmark", pathToData=d)
    bike, _ = build_bicycle(kind)
    vals = {str(k): float(val) for k, val in bike.get_param_values(bicycle).items()}
    vals["g"] = TABLE1["g"]
    return vals


def param_values(base: dict[str, float], kind: str, t: float) -> dict[str, float]:
    vals = dict(base)
    vals["lam"] = TABLE1["lam"]
    if kind == "toroidal":
        vals["rear_wheel_r"] = TABLE1["rR"] - t       # major radius
        vals["front_wheel_r"] = TABLE1["rF"] - t
        vals["rear_wheel_tr"] = t                     # crown (tube) radius
        vals["front_wheel_tr"] = t
    else:
        assert t == 0.0
        vals["rear_wheel_r"] = TABLE1["rR"]
        vals["front_wheel_r"] = TABLE1["rF"]
    return vals


# --------------------------------------------------------------------------------------
# Numerics
# --------------------------------------------------------------------------------------


class Linearized:
    def __init__(self, res: dict, base_params: dict[str, float]):
        self.kind = res["kind"]
        self.base = base_params
        syms = sorted((res["M"].free_symbols | res["A"].free_symbols) - {V}, key=str)
        self.syms = syms
        t0 = time.perf_counter()
        self.f = sm.lambdify([V, syms], [res["M"], res["A"]], cse=True)
        self.lambdify_time = time.perf_counter() - t0
        self.P = np.array(res["P"], dtype=float)
        x = res["x"]
        self.idx = [x.index(n) for n in ("bike_q4(t)", "bike_q7(t)", "bike_u4(t)",
                                          "bike_u7(t)")]
        self.other = [i for i in range(len(x)) if i not in self.idx]
        self.x = x

    def full(self, v: float, t: float) -> np.ndarray:
        p = param_values(self.base, self.kind, t)
        M, A = self.f(v, [p[str(s)] for s in self.syms])
        return self.P.T @ np.linalg.solve(np.asarray(M, float), np.asarray(A, float))

    def a4(self, v: float, t: float) -> np.ndarray:
        return self.full(v, t)[np.ix_(self.idx, self.idx)]

    def coupling(self, v: float, t: float) -> float:
        """max |A[lean/steer rows, other columns]| (0 means decoupled)."""
        return float(np.abs(self.full(v, t)[np.ix_(self.idx, self.other)]).max())

    def eig(self, v: float, t: float) -> np.ndarray:
        return np.linalg.eigvals(self.a4(v, t))


def weave_re(lin: Linearized, v: float, t: float) -> float:
    ev = lin.eig(v, t)
    c = ev[np.abs(ev.imag) > 1e-9]
    return float(c.real.max()) if c.size else np.nan


def capsize_re(lin: Linearized, v: float, t: float) -> float:
    ev = lin.eig(v, t)
    r = ev[np.abs(ev.imag) <= 1e-9].real
    # with the weave pair complex, the real eigenvalues are capsize and castor (the
    # castor very negative): the largest is capsize
    return float(r.max()) if (r.size and r.size < 4) else np.nan


def crossing(fn, lin, t, direction, grid=np.arange(1.0, 10.0 + 1e-9, 0.05), tol=1e-12):
    """First sign change of fn on the grid in the given direction, then bisection."""
    vals = [fn(lin, v, t) for v in grid]
    for (a, fa), (b, fb) in zip(zip(grid, vals), zip(grid[1:], vals[1:])):
        if np.isnan(fa) or np.isnan(fb):
            continue
        if (direction < 0 and fa > 0 >= fb) or (direction > 0 and fa < 0 <= fb):
            a, b = float(a), float(b)
            n = 0
            while b - a > tol and n < 100:
                m = 0.5 * (a + b)
                fm = fn(lin, m, t)
                if (fm > 0) == (fa > 0):
                    a, fa = m, fm
                else:
                    b = m
                n += 1
            return 0.5 * (a + b), b - a, n
    return None, None, 0


def table2_check(lin: Linearized, t: float = 0.0) -> dict:
    worst = 0.0
    per_speed = {}
    for v, ref in TABLE2.items():
        ev = lin.eig(float(v), t)
        d = max(min(abs(e - r) for e in ev) for r in ref)
        per_speed[str(v)] = d
        worst = max(worst, d)
    return {"max_abs_diff": worst, "per_speed": per_speed}


def cplx(ev):
    return [[float(e.real), float(e.imag)] for e in sorted(ev, key=lambda z: (z.real,
                                                                             z.imag))]


def numeric_checks(res: dict, base: dict[str, float], kind: str, t: float) -> dict:
    """Constraints at the operating point, hub heights, the upright pitch."""
    from scipy.optimize import brentq
    p = param_values(base, kind, t)
    ch = res["checks"]
    subs = {sm.Symbol(k): val for k, val in p.items()}
    subs[V] = 5.0
    def num(expr):
        return float(sm.sympify(sm.sympify(expr).xreplace(subs)).evalf())

    out = {
        "holonomic_residual_at_op": abs(num(ch["holonomic_at_op"][0])),
        "velocity_constraints_residual_at_op_v5": max(
            abs(num(e)) for e in ch["velocity_at_op"]),
        "rear_hub_height": num(ch["rear_hub_height"]),
        "front_hub_height": num(ch["front_hub_height"]),
    }
    hol = ch["holonomic"][0]
    qs = me.find_dynamicsymbols(hol)
    pitch = ch["pitch"]
    others = {qi: 0 for qi in qs if qi != pitch}
    f = sm.lambdify(pitch, hol.xreplace(others).xreplace(subs))
    q5 = brentq(f, 0.1, 0.5, xtol=1e-15, rtol=1e-15)
    out["upright_pitch_solved"] = q5
    out["upright_pitch_minus_lambda"] = q5 - TABLE1["lam"]
    return out


# --------------------------------------------------------------------------------------


def machine_info() -> dict:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for pkg in ("symbrim", "sympy", "mpmath", "numpy", "scipy", "BicycleParameters",
                "DynamicistToolKit", "uncertainties", "yeadon"):
        try:
            versions[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            versions[pkg] = None
    return {
        "cpu": cpu, "logical_cpus": os.cpu_count(), "kernel": platform.release(),
        "machine": platform.machine(), "python": platform.python_version(),
        "versions": versions,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "loadavg_start": list(os.getloadavg()), "nice": os.nice(0),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--t", type=float, nargs="+", default=[0.0, 0.01, 0.02])
    ap.add_argument("--skip-knife-edge", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "toroidal_symbrim_results.json"))
    ap.add_argument("--cache", metavar="DIR",
                    help="keep the linearized matrices in DIR/<kind>.pkl and reuse them "
                         "(the symbolic times are then those of the run that made them)")
    args = ap.parse_args()
    sys.setrecursionlimit(100000)
    warnings.simplefilter("ignore")

    result = {"machine": machine_info(), "command": " ".join(sys.argv),
              "model": ("symbrim WhippleBicycleMoore + FlatGround(normal -z) + "
                        "RigidRearFrame/RigidFrontFrame (Moore) + ToroidalWheel x2 + "
                        "NonHolonomicTire x2; gravity -g*ground normal; "
                        "form_eoms(constraint_solver='CRAMER'); "
                        "KanesMethod.to_linearizer(linear_solver='CRAMER').linearize("
                        "op_point, A_and_B=False); A = P^T M^-1 A numerically"),
              "convention": {
                  "torus": ("wheel centre = contact + radius*upward_radial_axis + "
                            "transverse_radius*ground_normal (SymBRiM); radius = r - t "
                            "(major radius), transverse_radius = t, so the upright hub "
                            "heights stay r_R = 0.3, r_F = 0.35"),
                  "parameters": ("bike.get_param_values(bicycleparameters.Bicycle) "
                                 "(dtk.bicycle.benchmark_to_moore) from exact Table 1 "
                                 "values; wheel radii r - t and transverse radii t set "
                                 "by hand"),
                  "operating_point": ("q = 0 except pitch q5 = lambda; u1 = v, "
                                      "u6 = -v/r_R (rear), u8 = -v/r_F (front), other "
                                      "u and all u' = 0"),
                  "lean_steer_block": "states q4 (roll), q7 (steer), u4, u7",
                  "weave": "largest real part of the complex pair crosses 0 (+ -> -)",
                  "capsize": "largest real eigenvalue crosses 0 (- -> +)",
                  "bisection": "grid v = 1..10 step 0.05, bisection to width < 1e-12",
              }}

    kinds = ["toroidal"] + ([] if args.skip_knife_edge else ["knife_edge"])
    t0 = time.perf_counter()
    derived = {}
    cached = {}
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
        for k in kinds:
            path = os.path.join(args.cache, f"{k}.pkl")
            if os.path.exists(path):
                with open(path, "rb") as f:
                    cached[k] = f.read()
    todo = [k for k in kinds if k not in cached]
    if args.jobs > 1 and len(todo) > 1:
        with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as ex:
            futs = {k: ex.submit(derive, k) for k in todo}
            raw = {k: fut.result() for k, fut in futs.items()}
    else:
        raw = {k: derive(k) for k in todo}
    for k, blob in raw.items():
        if args.cache:
            with open(os.path.join(args.cache, f"{k}.pkl"), "wb") as f:
                f.write(blob)
    raw.update(cached)
    for k in kinds:
        derived[k] = pickle.loads(raw[k])
    result["derivations_from_cache"] = sorted(cached)
    result["symbolic_wall_time_s"] = time.perf_counter() - t0
    result["derivations"] = {
        k: {"times_s": r["times"], "peak_rss_mb": r["peak_rss_mb"], "count_ops": r["ops"],
            "state": r["x"], "op_point": r["op_point"]}
        for k, r in derived.items()}
    for k, r in derived.items():
        print(f"[{k}] derivation: " + ", ".join(f"{n} {s:.1f} s" for n, s in
                                                  r["times"].items()), flush=True)

    t0 = time.perf_counter()
    lins, checks = {}, {}
    for k, r in derived.items():
        base = symbrim_param_values(k)
        lins[k] = Linearized(r, base)
        result["derivations"][k]["lambdify_s"] = lins[k].lambdify_time
        result["derivations"][k]["parameters_from_symbrim"] = base
        ts = args.t if k == "toroidal" else [0.0]
        checks[k] = {}
        for t in ts:
            c = numeric_checks(r, base, k, t)
            c["lean_steer_coupling_to_other_states_max"] = max(
                lins[k].coupling(v, t) for v in (1.0, 3.0, 5.0, 7.0))
            if t == 0.0:
                c["table2"] = table2_check(lins[k])
            checks[k][str(t)] = c

    rows = []
    results = {}
    for t in args.t:
        lin = lins["toroidal"]
        w, w_width, w_n = crossing(weave_re, lin, t, -1)
        c, c_width, c_n = crossing(capsize_re, lin, t, +1)
        entry = {"t": t, "rear_major_radius": TABLE1["rR"] - t,
                 "front_major_radius": TABLE1["rF"] - t, "transverse_radius": t,
                 "weave_speed": w, "capsize_speed": c,
                 "bisection": {"weave_bracket_width": w_width, "weave_steps": w_n,
                               "capsize_bracket_width": c_width, "capsize_steps": c_n},
                 "eigenvalues_at_weave": cplx(lin.eig(w, t)) if w else None,
                 "eigenvalues_at_capsize": cplx(lin.eig(c, t)) if c else None,
                 "eigenvalues_v0_to_10": {str(v): cplx(lin.eig(float(v), t))
                                          for v in range(11)}}
        ref = NONHOLO.get(round(t, 10))
        if ref:
            entry["nonholo"] = {"weave_speed": ref[0], "capsize_speed": ref[1]}
            entry["relative_difference"] = {
                "weave": (w - ref[0]) / ref[0], "capsize": (c - ref[1]) / ref[1]}
        results[str(t)] = entry
        rows.append((t, w, c, ref))
    if "knife_edge" in lins:
        lin = lins["knife_edge"]
        w, _, _ = crossing(weave_re, lin, 0.0, -1)
        c, _, _ = crossing(capsize_re, lin, 0.0, +1)
        results["knife_edge"] = {"weave_speed": w, "capsize_speed": c,
                                 "relative_difference_to_benchmark": {
                                     "weave": (w - NONHOLO[0.0][0]) / NONHOLO[0.0][0],
                                     "capsize": (c - NONHOLO[0.0][1]) / NONHOLO[0.0][1]}}
    result["numeric_wall_time_s"] = time.perf_counter() - t0
    result["results"] = results
    result["checks"] = checks
    result["machine"]["loadavg_end"] = list(os.getloadavg())
    result["total_run_time_s"] = time.perf_counter() - T_START

    print()
    print("   t [m]   weave [m/s]       capsize [m/s]     nonholo (weave, capsize)  "
          "rel. diff (weave, capsize)")
    for t, w, c, ref in rows:
        rd = (f"{(w - ref[0]) / ref[0]:+.1e}, {(c - ref[1]) / ref[1]:+.1e}"
              if ref else "")
        rs = f"{ref[0]:.6f}, {ref[1]:.6f}" if ref else ""
        print(f"  {t:6.3f}   {w:.10f}   {c:.10f}   {rs:24s}  {rd}")
    if "knife_edge" in results:
        r = results["knife_edge"]
        print(f"  knife edge: weave {r['weave_speed']:.10f}, capsize "
              f"{r['capsize_speed']:.10f}")
    for k, ck in checks.items():
        for t, c in ck.items():
            tb = c.get("table2", {}).get("max_abs_diff")
            print(f"  [{k} t={t}] hub heights {c['rear_hub_height']:.15g}, "
                  f"{c['front_hub_height']:.15g}; pitch - lambda "
                  f"{c['upright_pitch_minus_lambda']:.1e}; constraint residuals "
                  f"{c['holonomic_residual_at_op']:.1e}, "
                  f"{c['velocity_constraints_residual_at_op_v5']:.1e}; coupling "
                  f"{c['lean_steer_coupling_to_other_states_max']:.1e}"
                  + (f"; Table 2 max |dλ| {tb:.1e}" if tb is not None else ""))
    print(f"  total run time {result['total_run_time_s']:.1f} s "
          f"(symbolic {result['symbolic_wall_time_s']:.1f} s)")

    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(f"wrote {os.path.relpath(args.out)}")


if __name__ == "__main__":
    main()
