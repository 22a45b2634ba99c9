#!/usr/bin/env python3
"""SymPy derivation time of the spatial chain (a rolling disk carrying N spherical links).

The model family beside nonholo's spatial macro tests, built in
`sympy.physics.mechanics` the way a SymPy user would and derived with `KanesMethod`:

  * coordinates q = (x, y, yaw, lean, spin, a1, b1, ..., aN, bN): 2N + 5 of them;
  * frames: N inertial (z up); L = N rotated by yaw about N.z, then by lean about the
    result's x; the disk D = L rotated by spin about L.y; link i: K_i = K_{i-1} rotated
    by a_i about K_{i-1}.x, then by b_i about the intermediate frame's y (K_0 = L);
  * points: P = O + x N.x + y N.y (contact), C = P + r L.z (disk centre), J_0 = C,
    G_i = J_{i-1} - l/2 K_i.z (link centre of mass), J_i = J_{i-1} - l K_i.z;
  * bodies: the disk (frame D, centre C, mass m, inertia diag(m r^2/4, m r^2/2, m r^2/4)
    written in L, axisymmetric about L.y) and the links (frame K_i, centre G_i, mass ml,
    inertia diag(ml l^2/12, ml l^2/12, ml l^2/1000) in K_i); gravity -g N.z on each;
  * rolling without slipping: the disk's material contact point has zero N.x and N.y
    velocity, two nonholonomic constraints; speeds u_k = q_k' (kinematic differential
    equations q_k' - u_k = 0), u_x = x', u_y = y' dependent, the other 2N + 3 independent.

Parameters stay symbols (m, r, g, ml, l) and are evaluated at m = 1, r = 0.5, g = 9.81,
ml = 0.2, l = 0.3. It measures, per N, in a fresh interpreter (SymPy imported first):

  (a) derive time: from creating the symbols and frames to `kanes_equations(bodies,
      loads)` returning Kane's (reduced) mass matrix and forcing,
  (b) the extra time of `mass_matrix_full` and `forcing_full` (the [q, u] system with
      the differentiated constraints appended),
  (c) `sympy.count_ops` of the forcing vectors (under a time limit, skipped if over).

Checks, for the sizes of --check-sizes (default N = 2, 3): the state derivative at the
state s = [q, u_ind] with s[k] = 0.1 + 0.05 k, as d/dt of that same vector (q' with x', y'
from the constraints, then the independent speeds' derivatives), at 17 significant
digits; the same derivative from an independent Lagrange-multiplier solve of
L = T - V of the same bodies (KKT system, numpy); and energy and constraint drift over a
short `solve_ivp` integration (DOP853, rtol = 1e-10, atol = 1e-12). Results go to
spatial_results.json.

Usage: `python3 bench_spatial_sympy.py [--sizes 2 3 4 5 6]`; see README.md.
"""

import argparse
import datetime
import json
import os
import platform
import resource
import signal
import subprocess
import sys
import time
import traceback
import warnings

T_IMPORT0 = time.perf_counter()
import numpy as np  # noqa: E402
import sympy as sm  # noqa: E402
from sympy.physics.mechanics import (KanesMethod, Point, ReferenceFrame,  # noqa: E402
                                     RigidBody, dynamicsymbols, inertia)
T_IMPORT = time.perf_counter() - T_IMPORT0

HERE = os.path.dirname(os.path.abspath(__file__))
t = dynamicsymbols._t
PARAM_NAMES = ["m", "r", "g", "ml", "l"]
PARAM_VALUES = {"m": 1.0, "r": 0.5, "g": 9.81, "ml": 0.2, "l": 0.3}

# --------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------


class Model:
    """The SymPy objects of one size, plus what the checks need."""


def build(n_links):
    """Frames, points, bodies, loads and the constraints of the chain with n_links
    links; returns a Model with everything KanesMethod needs."""
    m, r, g, ml, l = params = sm.symbols(" ".join(PARAM_NAMES))
    names = ["x", "y", "yaw", "lean", "spin"]
    for i in range(1, n_links + 1):
        names += [f"a{i}", f"b{i}"]
    q = dynamicsymbols(" ".join(names))
    qd = [qi.diff(t) for qi in q]
    u = dynamicsymbols(" ".join("u_" + s for s in names))
    x, y, yaw, lean, spin = q[:5]
    xd, yd = qd[:2]

    N = ReferenceFrame("N")                                  # inertial, N.z up
    L1 = N.orientnew("L1", "Axis", (yaw, N.z))               # heading
    L = L1.orientnew("L", "Axis", (lean, L1.x))              # lean, L.y = axle
    D = L.orientnew("D", "Axis", (spin, L.y))                # the spinning disk

    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)                  # geometric contact point
    P.set_vel(N, xd * N.x + yd * N.y)
    C = P.locatenew("C", r * L.z)                            # disk centre
    C.v2pt_theory(P, N, L)

    # the disk, axisymmetric about L.y: its central inertia is constant in D and in L
    disk = RigidBody("disk", C, D, m,
                     (inertia(L, m * r**2 / 4, m * r**2 / 2, m * r**2 / 4), C))
    bodies = [disk]
    loads = [(C, -m * g * N.z)]
    com_points = [(m, C)]

    K_prev, J_prev = L, C
    for i in range(1, n_links + 1):
        a, b = q[5 + 2 * (i - 1)], q[6 + 2 * (i - 1)]
        Ka = K_prev.orientnew(f"K{i}a", "Axis", (a, K_prev.x))
        K = Ka.orientnew(f"K{i}", "Axis", (b, Ka.y))
        G = J_prev.locatenew(f"G{i}", -l / 2 * K.z)
        G.v2pt_theory(J_prev, N, K)
        J = J_prev.locatenew(f"J{i}", -l * K.z)
        J.v2pt_theory(J_prev, N, K)
        link = RigidBody(f"link{i}", G, K, ml,
                         (inertia(K, ml * l**2 / 12, ml * l**2 / 12,
                                  sm.Rational(1, 1000) * ml * l**2), G))
        bodies.append(link)
        loads.append((G, -ml * g * N.z))
        com_points.append((ml, G))
        K_prev, J_prev = K, J

    # rolling without slipping: the disk's material point at P does not move
    v_contact = C.vel(N) + D.ang_vel_in(N).cross(P.pos_from(C))
    qd_to_u = dict(zip(qd, u))
    vel_cons = [v_contact.dot(N.x).subs(qd_to_u), v_contact.dot(N.y).subs(qd_to_u)]

    s = Model()
    s.n_links, s.N, s.O, s.q, s.qd, s.u, s.params = n_links, N, O, q, qd, u, list(params)
    s.u_ind, s.u_dep = u[2:], u[:2]
    s.kdes = [qdi - ui for qdi, ui in zip(qd, u)]
    s.vel_cons, s.bodies, s.loads, s.com_points = vel_cons, bodies, loads, com_points
    s.v_contact = v_contact
    return s


def derive(n_links):
    """(a) build + kanes_equations, (b) mass_matrix_full / forcing_full; timed."""
    t0 = time.perf_counter()
    s = build(n_links)
    kane = KanesMethod(s.N, q_ind=s.q, u_ind=s.u_ind, kd_eqs=s.kdes,
                       u_dependent=s.u_dep, velocity_constraints=s.vel_cons)
    fr, frstar = kane.kanes_equations(s.bodies, s.loads)
    M, F = kane.mass_matrix, kane.forcing
    t1 = time.perf_counter()
    M_full, F_full = kane.mass_matrix_full, kane.forcing_full
    t2 = time.perf_counter()
    return s, kane, M, F, M_full, F_full, t1 - t0, t2 - t1


# --------------------------------------------------------------------------------------
# Numerics: Kane's right-hand side in the [q, u_ind] layout; an independent oracle
# --------------------------------------------------------------------------------------


def crosscheck_state(n_links):
    n = 2 * n_links + 5
    return np.array([0.1 + 0.05 * k for k in range(n + n - 2)])


class Numeric:
    def __init__(self, s, kane, M_full, F_full):
        self.s, self.n = s, len(s.q)
        self.p = np.array([PARAM_VALUES[k] for k in PARAM_NAMES])
        q, u, pr = s.q, kane.u[:], s.params
        self.kane_u = u
        assert u[:len(s.u_ind)] == list(s.u_ind) and u[len(s.u_ind):] == list(s.u_dep)
        self.f_MF = sm.lambdify([q, u, pr], [M_full, F_full], cse=True)
        # the constraints B(q) [u_x, u_y, u_ind] = 0 (no u-free term)
        B = sm.Matrix(s.vel_cons).jacobian(s.u)
        assert sm.Matrix(s.vel_cons).subs({ui: 0 for ui in s.u}) == sm.zeros(2, 1)
        self.f_B = sm.lambdify([q, pr], B, cse=True)
        # energy T + V, with u = q'
        T = sum(b.kinetic_energy(s.N) for b in s.bodies)
        T = T.subs(dict(zip(s.qd, s.u)))
        V = sum(mass * s.params[2] * pt.pos_from(s.O).dot(s.N.z)
                for mass, pt in s.com_points)
        self.T, self.V = T, V
        self.f_E = sm.lambdify([q, s.u, pr], T + V, cse=True)
        self._oracle = None

    def u_full(self, q, u_ind):
        """[u_x, u_y, u_ind...] (the coordinate order) from the constraints."""
        B = np.array(self.f_B(q, self.p), dtype=float)
        udep = np.linalg.solve(B[:, :2], -B[:, 2:] @ u_ind)
        return np.concatenate([udep, u_ind])

    def rhs(self, state):
        """d/dt [q, u_ind]: Kane's M_full x' = F_full at x = [q, u_ind, u_x, u_y]."""
        n = self.n
        q, u_ind = state[:n], state[n:]
        uf = self.u_full(q, u_ind)
        x_u = np.concatenate([u_ind, uf[:2]])                 # Kane's order of u
        Mv, Fv = self.f_MF(q, x_u, self.p)
        xdot = np.linalg.solve(np.array(Mv, dtype=float), np.array(Fv, dtype=float).ravel())
        return np.concatenate([xdot[:n], xdot[n:n + len(u_ind)]]), xdot, uf

    def oracle_rhs(self, state):
        """Independent check: Lagrange's equations with multipliers for L = T - V of
        the same bodies (T from RigidBody.kinetic_energy, V from the centres of mass)
        and the constraints B(q) q' = 0, solved as a KKT system."""
        s, n = self.s, self.n
        if self._oracle is None:
            qs = sm.symbols(f"qs0:{n}")
            vs = sm.symbols(f"vs0:{n}")
            rep = dict(zip(s.u, vs))
            rep.update(dict(zip(s.q, qs)))
            Lag = (self.T - self.V).xreplace(rep)
            p_ = sm.Matrix([Lag.diff(v) for v in vs])
            Mq = p_.jacobian(vs)
            h = sm.Matrix([Lag.diff(qq) for qq in qs]) - p_.jacobian(qs) * sm.Matrix(vs)
            Bc = sm.Matrix(s.vel_cons).xreplace(rep).jacobian(vs)
            Bdot_v = (Bc * sm.Matrix(vs)).jacobian(qs) * sm.Matrix(vs)
            self._oracle = sm.lambdify([qs, vs, s.params], [Mq, h, Bc, Bdot_v], cse=True)
        q, u_ind = state[:n], state[n:]
        v = self.u_full(q, u_ind)
        Mq, h, Bc, bd = (np.array(a, dtype=float) for a in self._oracle(q, v, self.p))
        k = Bc.shape[0]
        KKT = np.block([[Mq, -Bc.T], [Bc, np.zeros((k, k))]])
        sol = np.linalg.solve(KKT, np.concatenate([h.ravel(), -bd.ravel()]))
        return np.concatenate([v, sol[2:n]])

    def energy(self, state):
        q = state[:self.n]
        return float(self.f_E(q, self.u_full(q, state[self.n:]), self.p))

    def energy_run(self, state0, t1, rtol=1e-10, atol=1e-12):
        from scipy.integrate import solve_ivp
        t0 = time.perf_counter()
        sol = solve_ivp(lambda tt, x: self.rhs(x)[0], (0.0, t1), state0, method="DOP853",
                        rtol=rtol, atol=atol, t_eval=np.linspace(0.0, t1, 101))
        wall = time.perf_counter() - t0
        E = np.array([self.energy(x) for x in sol.y.T])
        return {"t1": t1, "integrator": f"scipy solve_ivp DOP853 rtol={rtol} atol={atol}",
                "status": int(sol.status), "nfev": int(sol.nfev), "wall_s": wall,
                "energy0": float(E[0]), "energy_end": float(E[-1]),
                "max_rel_energy_drift": float(np.max(np.abs(E - E[0])) / abs(E[0])),
                "rel_energy_drift_end": float(abs(E[-1] - E[0]) / abs(E[0])),
                "final_state": [float(v) for v in sol.y[:, -1]]}


def state_names(s):
    return [str(qi.func) for qi in s.q] + ["d" + str(ui.func)[2:] for ui in s.u_ind]


# --------------------------------------------------------------------------------------
# Workers (fresh interpreter each)
# --------------------------------------------------------------------------------------


class OpsTimeout(Exception):
    pass


def count_ops_limited(expr, limit):
    """count_ops under a wall-clock limit (SIGALRM; None if over the limit)."""
    def handler(signum, frame):
        raise OpsTimeout()
    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, limit)
    t0 = time.perf_counter()
    try:
        ops = int(sm.count_ops(expr))
    except OpsTimeout:
        ops = None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return ops, time.perf_counter() - t0


def worker(n_links, task, ops_limit, t1):
    warnings.simplefilter("ignore")
    out = {"task": task, "N": n_links, "import_s": T_IMPORT}
    s, kane, M, F, M_full, F_full, dt_kane, dt_full = derive(n_links)
    out.update({"n_coordinates": len(s.q), "n_independent_speeds": len(s.u_ind),
                "kane_state_dim": len(s.q) + len(kane.u),
                "derive_s": dt_kane, "full_s": dt_full,
                "derive_plus_full_s": dt_kane + dt_full})
    if task == "derive":
        remaining = ops_limit
        for key, expr in (("ops_forcing", F), ("ops_forcing_full", F_full),
                          ("ops_mass_matrix", M)):
            if remaining <= 0:
                out[key] = None
                out[key + "_skipped"] = "time limit used up"
                continue
            ops, dt = count_ops_limited(expr, remaining)
            out[key], out[key + "_s"] = ops, dt
            if ops is None:
                out[key + "_skipped"] = f"count_ops over the {ops_limit} s limit"
            remaining -= dt
    elif task == "check":
        num = Numeric(s, kane, M_full, F_full)
        state = crosscheck_state(n_links)
        sdot, xdot, uf = num.rhs(state)
        t0 = time.perf_counter()
        oracle = num.oracle_rhs(state)
        out["oracle_s"] = time.perf_counter() - t0
        out["crosscheck"] = {
            "layout": state_names(s),
            "state": [float(v) for v in state],
            "state_derivative": [float(f"{v:.17g}") for v in sdot],
            "state_derivative_17g": [f"{v:.17g}" for v in sdot],
            "u_x_u_y_from_constraints": [float(v) for v in uf[:2]],
            "kane_u_order": [str(ui.func) for ui in kane.u],
            "kane_xdot": [float(v) for v in xdot],
            "energy": num.energy(state),
            "lagrange_oracle_state_derivative": [float(v) for v in oracle],
            "rel_err_kane_vs_lagrange_oracle":
                float(np.linalg.norm(sdot - oracle) / np.linalg.norm(oracle)),
        }
        out["energy_run"] = num.energy_run(state, t1)
    else:
        raise ValueError(task)
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("WORKER-RESULT " + json.dumps(out), flush=True)


def run_worker(n_links, task, args):
    def limit():
        lim = int(args.mem_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))

    cmd = [sys.executable, os.path.abspath(__file__), "--worker", str(n_links), task,
           "--ops-limit", str(args.ops_limit), "--t1", str(args.t1)]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout,
                           preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return {"task": task, "N": n_links, "failed": "timeout",
                "detail": f"did not finish within {args.timeout} s (killed; memory "
                          f"limit {args.mem_gb} GB)"}
    for line in p.stdout.splitlines():
        if line.startswith("WORKER-RESULT "):
            r = json.loads(line[len("WORKER-RESULT "):])
            r["wall_s"] = time.perf_counter() - t0
            return r
    tail = (p.stderr.strip().splitlines() or ["?"])[-1]
    return {"task": task, "N": n_links, "failed": f"exit code {p.returncode} after "
                                                  f"{time.perf_counter() - t0:.0f} s "
                                                  f"(memory limit {args.mem_gb} GB): {tail}"}


# --------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------


def machine_info():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import scipy
    return {
        "cpu": cpu, "logical_cpus": os.cpu_count(),
        "kernel": platform.release(), "machine": platform.machine(),
        "python": platform.python_version(), "sympy": sm.__version__,
        "numpy": np.__version__, "scipy": scipy.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "loadavg_start": list(os.getloadavg()),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", nargs=2, metavar=("N", "TASK"), help=argparse.SUPPRESS)
    ap.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4, 5, 6],
                    help="numbers of links N to derive (default 2 3 4 5 6)")
    ap.add_argument("--check-sizes", type=int, nargs="*", default=[2, 3],
                    help="sizes for the numerical cross-check and energy run "
                         "(default 2 3; only those also in --sizes)")
    ap.add_argument("--runs", type=int, default=3,
                    help="fresh-interpreter samples of the derive time per size; the "
                         "median is reported (default 3)")
    ap.add_argument("--repeat-below", type=float, default=120,
                    help="take further samples only while a sample's worker took less "
                         "than this many seconds (default 120)")
    ap.add_argument("--timeout", type=float, default=1800,
                    help="seconds before a worker is killed, recorded as 'timeout' "
                         "(default 1800)")
    ap.add_argument("--mem-gb", type=float, default=12,
                    help="address-space limit of a worker in GB (default 12)")
    ap.add_argument("--ops-limit", type=float, default=600,
                    help="seconds allowed for all count_ops calls of a size; those over "
                         "it are skipped (default 600)")
    ap.add_argument("--t1", type=float, default=0.5,
                    help="length of the energy-check integration in s (default 0.5)")
    ap.add_argument("--out", default=os.path.join(HERE, "spatial_results.json"))
    args = ap.parse_args()
    if args.worker:
        worker(int(args.worker[0]), args.worker[1], args.ops_limit, args.t1)
        return

    def log(msg):
        print(msg, flush=True)

    results = {"machine": machine_info(),
               "model": "spatial chain: rolling disk + N links, 2N+5 coordinates, "
                        "2 nonholonomic constraints, u = q', (u_x, u_y) dependent",
               "parameters": PARAM_VALUES,
               "settings": {k: getattr(args, k) for k in
                            ("sizes", "check_sizes", "runs", "repeat_below", "timeout", "mem_gb",
                             "ops_limit", "t1")},
               "sizes": {}, "crosscheck": {}, "energy": {}}
    log(json.dumps(results["machine"], indent=1))

    def save():
        results["machine"]["loadavg_end"] = list(os.getloadavg())
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)

    for n_links in args.sizes:
        entry = {"n_coordinates": 2 * n_links + 5, "runs": []}
        for i in range(args.runs):
            r = run_worker(n_links, "derive", args)
            entry["runs"].append(r)
            log(f"N={n_links} derive #{i + 1}: " + ", ".join(
                f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                for k, v in r.items() if k not in ("task", "N")))
            if "failed" in r or r["wall_s"] >= args.repeat_below:
                break
        ok = [r for r in entry["runs"] if "failed" not in r]
        if ok:
            for key in ("derive_s", "full_s", "derive_plus_full_s"):
                entry[key] = sorted(r[key] for r in ok)[len(ok) // 2]
            for key in ("ops_forcing", "ops_forcing_full", "ops_mass_matrix"):
                entry[key] = ok[0].get(key)
        else:
            entry["derive_s"] = entry["runs"][-1]["failed"]
        entry["samples"] = len(ok)
        results["sizes"][str(n_links)] = entry
        save()
        if n_links in args.check_sizes:
            r = run_worker(n_links, "check", args)
            if "failed" in r:
                results["crosscheck"][str(n_links)] = r
                log(f"N={n_links} check FAILED: {r['failed']}")
            else:
                results["crosscheck"][str(n_links)] = r["crosscheck"]
                results["energy"][str(n_links)] = r["energy_run"]
                c, e = r["crosscheck"], r["energy_run"]
                log(f"N={n_links} state derivative at s[k] = 0.1 + 0.05 k:\n  "
                    + "\n  ".join(f"{nm:>6s}' = {v}" for nm, v in
                                  zip(c["layout"], c["state_derivative_17g"])))
                log(f"N={n_links} |Kane - Lagrange oracle| / |oracle| = "
                    f"{c['rel_err_kane_vs_lagrange_oracle']:.1e}; energy drift over "
                    f"{e['t1']} s: max {e['max_rel_energy_drift']:.2e} rel, at the end "
                    f"{e['rel_energy_drift_end']:.2e}")
            save()
    save()
    log(f"wrote {args.out}")


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
