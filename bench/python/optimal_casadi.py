"""The optimal-control problems of tests/suite/optimal.rs in CasADi + IPOPT (its wheel's
bundled IPOPT with MUMPS), on the same transcription (separated Hermite-Simpson), the same
nodes, the same bounds and the same initial guess: the reference that
`optimal::casadi_agrees_on_the_skates_parking` reads, and the solve times beside nonholo's
(`cargo bench -p nonholo-benches --bench optimal`).

    python3 -m venv .venv && .venv/bin/pip install casadi==3.8.2 numpy
    .venv/bin/python bench/python/optimal_casadi.py      # writes bench/python/optimal_results.json

Problems:
- `skate_park`: the knife edge (m = 1, j = 0.1) from rest at the origin to rest at
  (0, 0.5) heading along x in 4 s, |push| <= 2, |turn| <= 1, least integral of
  push^2 + turn^2, 41 nodes. State [x, y, theta, v, w] (v along the blade, w = dot(theta)):
  x' = v cos(theta), y' = v sin(theta), theta' = w, m v' = push, j w' = turn.
  The guess: the wiggle push = 0.5 cos(1.5 t), turn = 0.5 sin(0.8 t) from rest, integrated
  by RK4 with 4000 steps and sampled at the nodes and midpoints, as the test does with its
  simulated run.
- `oscillator`: x'' = -4 x + f from rest at 0 to rest at 1 in 3 s, least integral of f^2,
  81 nodes (a convex QP: any guess).
"""

import json
import math
import platform
import sys
import time

import casadi as ca
import numpy as np


def skate_rhs(x, u, m=1.0, j=0.1):
    return ca.vertcat(
        x[3] * ca.cos(x[2]), x[3] * ca.sin(x[2]), x[4], u[0] / m, u[1] / j
    )


def oscillator_rhs(x, u, k=4.0, m=1.0):
    return ca.vertcat(x[1], (-k * x[0] + u[0]) / m)


def wiggle_guess(times):
    """The skate's state under the wiggle at the given times (RK4, 4000 steps over 4 s)."""

    def f(t, s):
        push = 0.5 * math.cos(1.5 * t)
        turn = 0.5 * math.sin(0.8 * t)
        return np.array(
            [s[3] * math.cos(s[2]), s[3] * math.sin(s[2]), s[4], push / 1.0, turn / 0.1]
        )

    steps = 4000
    h = 4.0 / steps
    grid = [np.zeros(5)]
    s = np.zeros(5)
    for i in range(steps):
        t = i * h
        k1 = f(t, s)
        k2 = f(t + h / 2, s + h / 2 * k1)
        k3 = f(t + h / 2, s + h / 2 * k2)
        k4 = f(t + h, s + h * k3)
        s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        grid.append(s.copy())
    grid = np.array(grid)
    tg = np.linspace(0.0, 4.0, steps + 1)
    states = np.array([[np.interp(t, tg, grid[:, c]) for c in range(5)] for t in times])
    inputs = np.array([[0.5 * math.cos(1.5 * t), 0.5 * math.sin(0.8 * t)] for t in times])
    return states, inputs


def hermite_simpson(rhs, nx, nu, nodes, t_f, x0, x1, ubounds, guess=None):
    """Separated Hermite-Simpson with the effort integral by Simpson's rule; returns the
    solver, its arguments and a function that unpacks the solution."""
    h = t_f / (nodes - 1)
    X = [ca.MX.sym(f"x{k}", nx) for k in range(nodes)]
    U = [ca.MX.sym(f"u{k}", nu) for k in range(nodes)]
    XM = [ca.MX.sym(f"xm{k}", nx) for k in range(nodes - 1)]
    UM = [ca.MX.sym(f"um{k}", nu) for k in range(nodes - 1)]
    g, J = [], 0
    for k in range(nodes - 1):
        fk, fk1, fm = rhs(X[k], U[k]), rhs(X[k + 1], U[k + 1]), rhs(XM[k], UM[k])
        g.append(XM[k] - (X[k] + X[k + 1]) / 2 - h / 8 * (fk - fk1))
        g.append(X[k + 1] - X[k] - h / 6 * (fk + 4 * fm + fk1))
        L = lambda u: ca.sumsqr(u)
        J += h / 6 * (L(U[k]) + 4 * L(UM[k]) + L(U[k + 1]))
    # the variables in nonholo's order: nodes' [x, u], then midpoints' [x, u]
    w = ca.vertcat(*[ca.vertcat(X[k], U[k]) for k in range(nodes)],
                   *[ca.vertcat(XM[k], UM[k]) for k in range(nodes - 1)])
    lbw, ubw = [], []
    for k in range(2 * nodes - 1):
        lo = [-ca.inf] * nx + [b[0] for b in ubounds]
        hi = [ca.inf] * nx + [b[1] for b in ubounds]
        if k == 0:
            lo[:nx] = hi[:nx] = list(x0)
        if k == nodes - 1:
            lo[:nx] = hi[:nx] = list(x1)
        lbw += lo
        ubw += hi
    nlp = {"x": w, "f": J, "g": ca.vertcat(*g)}
    opts = {"ipopt.tol": 1e-8, "ipopt.constr_viol_tol": 1e-8, "ipopt.print_level": 0,
            "print_time": False, "ipopt.sb": "yes"}
    solver = ca.nlpsol("hs", "ipopt", nlp, opts)
    if guess is None:
        w0 = np.zeros(w.shape[0])
    else:
        w0 = guess
    args = {"x0": w0, "lbx": lbw, "ubx": ubw, "lbg": 0, "ubg": 0}
    return solver, args


def run(name, solver, args, nx, nu, nodes, repeats=5):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        sol = solver(**args)
        times.append(time.perf_counter() - t0)
    stats = solver.stats()
    w = np.array(sol["x"]).ravel()
    nz = nx + nu
    states = [list(w[k * nz:k * nz + nx]) for k in range(nodes)]
    inputs = [list(w[k * nz + nx:(k + 1) * nz]) for k in range(nodes)]
    return {
        "status": stats["return_status"],
        "iterations": stats["iter_count"],
        "objective": float(sol["f"]),
        "states": states,
        "inputs": inputs,
        "solve_seconds": sorted(times),
        "solve_seconds_median": sorted(times)[len(times) // 2],
    }


def main():
    out = {
        "machine": platform.platform(),
        "python": sys.version.split()[0],
        "casadi": ca.__version__,
        "date": time.strftime("%Y-%m-%d"),
        "problems": {},
    }
    # the skate, with the wiggle's guess at the nodes and midpoints
    nodes, t_f = 41, 4.0
    h = t_f / (nodes - 1)
    times = [k * h for k in range(nodes)] + [(k + 0.5) * h for k in range(nodes - 1)]
    gs, gu = wiggle_guess(times)
    guess = np.concatenate([np.concatenate([gs[i], gu[i]]) for i in range(len(times))])
    # inside the bounds, and the conditions, as nonholo's guess is clamped
    solver, args = hermite_simpson(skate_rhs, 5, 2, nodes, t_f, [0.0] * 5,
                                   [0.0, 0.5, 0.0, 0.0, 0.0], [(-2.0, 2.0), (-1.0, 1.0)],
                                   guess=guess)
    out["problems"]["skate_park"] = run("skate_park", solver, args, 5, 2, nodes)
    solver, args = hermite_simpson(oscillator_rhs, 2, 1, 81, 3.0, [0.0, 0.0], [1.0, 0.0],
                                   [(-ca.inf, ca.inf)])
    out["problems"]["oscillator"] = run("oscillator", solver, args, 2, 1, 81)
    path = __file__.replace("optimal_casadi.py", "optimal_results.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    for k, v in out["problems"].items():
        print(k, v["status"], v["iterations"], v["objective"], v["solve_seconds_median"])


if __name__ == "__main__":
    main()
