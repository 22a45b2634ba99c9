"""The differential-drive robot's parallel parking (examples/robot_parking.rs) in CasADi +
IPOPT (its wheel's bundled IPOPT with MUMPS), on exactly nonholo's transcription: the
reference for nonholo's optimum, and the solve times beside nonholo's, with IPOPT's
default (monotone) barrier strategy and with the adaptive one nonholo uses.

    python3 -m venv /tmp/casadi-venv && /tmp/casadi-venv/bin/pip install casadi==3.8.2 numpy
    /tmp/casadi-venv/bin/python bench/python/optimal_casadi_parking.py [reference.json]
    # writes bench/python/optimal_parking_results.json

The reference (default /tmp/casadi_ref/nonholo_reference.json, key "robot", written by
`cargo run --profile bench -p nonholo-benches --example casadi_reference --
/tmp/casadi_ref`) holds the parameters, 20 samples of nonholo's right-hand side, and the
parking's guess (the NLP's starting point at the 61 nodes then the 60 midpoints),
objective, iterations, solve time and node states and inputs.

The model, derived here in CasADi symbolics from the description of `DiffDriveRobot`
(src/models/diff_drive_robot.rs): z up; coordinates q = [x, y, th, phi_l, phi_r, sw,
phi_c], speeds z = [dot(phi_l), dot(phi_r)], inputs u = [t_l, t_r], state [q, z] (9
numbers). Frames (rotation matrices from N): C = N.rotate(z, th), WL = C.rotate(y, phi_l),
WR = C.rotate(y, phi_r), K = C.rotate(z, sw), WC = K.rotate(y, phi_c); angular velocities
added up the chain (w_C = dot(th) N.z, w_WL = w_C + dot(phi_l) C.y, w_WR = w_C +
dot(phi_r) C.y, w_K = w_C + dot(sw) C.z, w_WC = w_K + dot(phi_c) K.y). Points P = O +
N[x, y, 0], G = P + C[-c, 0, 0.2], L_o = P + C[0, b, r], R_o = P + C[0, -b, r], S_o = P +
C[-a, 0, h_s], K_o = S_o + K[-d, 0, r_c - h_s]; the centres' velocities are their time
derivatives. Five constraint rows C(q) qdot = 0: the velocity of each wheel's material
point at its contact (centre - radius N.z: the axles stay horizontal) along the rolling
direction (axle x N.z: C.x, C.x, K.x) and, for the left wheel and the caster, along the
axle (C.y, K.y); the right wheel has no lateral row (`lateral: false`: it would repeat
the left one's). The rest is casadi_kane.py's `kane` (shared with
optimal_casadi_bicycle.py; its docstring has the equations): the dependent rates (x, y,
th, sw, phi_c) solve from the rows, qdot = Psi(q) z, qddot = Psi zdot + a with C a =
-(dC/dt) qdot; Kane's equations with the partial velocities Jv Psi, Jw Psi, with gravity
-g N.z (z up): sum_bodies (Jv Psi)^T (-m g N.z - m a_c) + (Jw Psi)^T (tau - I alpha -
w x I w) = 0. Bodies:
chassis (C, G, m_c, diag(i_cx, i_cy, i_cz) in C), left and right wheels (L_o, R_o, m_w,
diag(i_wd, i_wa, i_wd) in C), caster wheel (WC, K_o, m_k, diag(i_kd, i_ka, i_kd) in K);
torques +t_l C.y on the left wheel, +t_r C.y on the right one, -(t_l + t_r) C.y on the
chassis (`between left, chassis: t_l * C.y`). mu (friction) is not in the dynamics. The
right-hand side is checked against nonholo's 20 samples before the solve (abort beyond
1e-10 relative).

The problem (examples/robot_parking.rs): from rest at the origin (whole state 0) to
x = 0, y = 0.6, th = 0, both wheel rates 0 in 8 s; |t_l|, |t_r| <= 0.5 and -0.5 <= y
<= 0.7 at every point (nodes and midpoints: variable bounds); at every node the axle's
midpoint keeps out of the parked robots' discs, (x - cx)^2 + (y - cy)^2 >= 0.45^2 for
(cx, cy) = (-0.75, 0.6), (0.75, 0.6); least integral of t_l^2 + t_r^2. Separated
Hermite-Simpson, 61 nodes; variables nodes' [x, u] then midpoints' [x, u]; rows
(nonholo-runtime/src/optimal/layout.rs): per interval the midpoint defects then the
Simpson defects of all 9 state components, then the two path constraints at every node,
node by node. The objective by Simpson, h/6 (L_k + 4 L_m + L_{k+1}). The starting point:
nonholo's (its guess, the wiggle's simulation, at nodes and midpoints), clamped to the
bounds. IPOPT tol 1e-8 (and constr_viol_tol 1e-8, nonholo's), exact Hessian,
print_level 0, otherwise IPOPT's defaults; solved once with the default
mu_strategy (monotone) and once with mu_strategy adaptive (nonholo's setting for this
problem, with ripopt). The solve time is the median of 5 solver(**args) calls from the
same start, the setup (building the program and nlpsol, CasADi's symbolic derivatives
included) timed apart. The model is an SX function (ca.cse), the program all SX.
"""

import json
import os
import platform
import sys
import time

import casadi as ca
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casadi_kane import dt, inertia, kane, rot, vec  # noqa: E402

PARAMS = ["r", "b", "c", "a", "d", "h_s", "r_c", "m_c", "i_cx", "i_cy", "i_cz", "m_w",
          "i_wd", "i_wa", "m_k", "i_kd", "i_ka", "g", "mu"]
NQ, NZ, NU = 7, 2, 2
DIM = NQ + NZ
INDEPENDENT = [3, 4]  # phi_l, phi_r
DEPENDENT = [0, 1, 2, 5, 6]  # x, y, th, sw, phi_c
X, Y, TH = 0, 1, 2
PARKED = [(-0.75, 0.6), (0.75, 0.6)]
REACH = 0.45


def robot(p):
    """The robot's right-hand side rhs(state, u), a CasADi SX function."""
    P = dict(zip(PARAMS, p))
    q = ca.SX.sym("q", NQ)
    qd = ca.SX.sym("qd", NQ)  # dot(q), replaced by Psi z at the end
    zs = ca.SX.sym("z", NZ)
    u = ca.SX.sym("u", NU)
    x, y, th, phi_l, phi_r, sw, phi_c = [q[i] for i in range(NQ)]
    dth, dphi_l, dphi_r, dsw, dphi_c = [qd[i] for i in (2, 3, 4, 5, 6)]
    t_l, t_r = u[0], u[1]
    r, b, c, a, d = P["r"], P["b"], P["c"], P["a"], P["d"]
    h_s, r_c, g = P["h_s"], P["r_c"], P["g"]

    # frames: rotation matrices from N (columns: the frame's unit vectors in N); the
    # wheels' own frames WL, WR, WC enter only through their angular velocities (their
    # inertias are symmetric about the axles)
    C = rot("z", th)
    K = C @ rot("z", sw)
    Nz = ca.DM([0, 0, 1])
    w_C = dth * Nz
    w_WL = w_C + dphi_l * C[:, 1]
    w_WR = w_C + dphi_r * C[:, 1]
    w_K = w_C + dsw * C[:, 2]
    w_WC = w_K + dphi_c * K[:, 1]

    # points (from O, in N components)
    Pp = ca.vertcat(x, y, 0)
    G = Pp + vec(C, -c, 0, 0.2)
    L_o = Pp + vec(C, 0, b, r)
    R_o = Pp + vec(C, 0, -b, r)
    S_o = Pp + vec(C, -a, 0, h_s)
    K_o = S_o + vec(K, -d, 0, r_c - h_s)

    # (angular velocity, inertia frame, centre, mass, inertia, applied torque)
    bodies = [
        (w_C, C, G, P["m_c"], inertia(P["i_cx"], P["i_cy"], P["i_cz"]),
         -(t_l + t_r) * C[:, 1]),
        (w_WL, C, L_o, P["m_w"], inertia(P["i_wd"], P["i_wa"], P["i_wd"]), t_l * C[:, 1]),
        (w_WR, C, R_o, P["m_w"], inertia(P["i_wd"], P["i_wa"], P["i_wd"]), t_r * C[:, 1]),
        (w_WC, K, K_o, P["m_k"], inertia(P["i_kd"], P["i_ka"], P["i_kd"]), ca.SX.zeros(3)),
    ]

    # the five rows C(q) qd = 0: no slip of each wheel's material point at its contact,
    # along the rolling direction (axle x N.z) and, but for the right wheel, the axle
    def slip(center, om, radius):
        return dt(center, q, qd) + ca.cross(om, -radius * Nz)

    v_l, v_r, v_k = slip(L_o, w_WL, r), slip(R_o, w_WR, r), slip(K_o, w_WC, r_c)
    rows = ca.vertcat(ca.dot(v_l, C[:, 0]), ca.dot(v_l, C[:, 1]), ca.dot(v_r, C[:, 0]),
                      ca.dot(v_k, K[:, 0]), ca.dot(v_k, K[:, 1]))
    # the dependent rates eliminated, Kane's equations (z up: gravity -g N.z)
    return kane(q, qd, zs, u, rows, INDEPENDENT, DEPENDENT, bodies, -g * Nz)


def validate(rhs, samples):
    """nonholo's right-hand side at its 20 samples; aborts on a mismatch. Returns the
    worst relative error."""
    worst = 0.0
    for i, s in enumerate(samples):
        d = np.array(rhs(s["state"], s["u"])).ravel()
        ref = np.array(s["rhs"])
        err = np.max(np.abs(d - ref) / np.maximum(1.0, np.abs(ref)))
        worst = max(worst, err)
        if err > 1e-10:
            print(f"sample {i}: rhs\n  mine {d}\n  nonholo {ref}")
            sys.exit(f"the model does not match nonholo's at sample {i}")
    print(f"model check: worst rhs error {worst:.2e} over {len(samples)} samples "
          f"(|mine - nonholo| / max(1, |nonholo|) per component)")
    return worst


def parking(rhs, guess, mu_strategy=None, nodes=61, t_f=8.0):
    """The separated Hermite-Simpson program, nonholo's rows and variable order, all in
    SX; returns the solver and its arguments. `mu_strategy`: None for IPOPT's default
    (monotone), else the value of ipopt.mu_strategy."""
    h = t_f / (nodes - 1)
    npts = 2 * nodes - 1
    nzp = DIM + NU
    wv = ca.SX.sym("w", npts * nzp)
    Xs = [wv[p * nzp:p * nzp + DIM] for p in range(npts)]
    Us = [wv[p * nzp + DIM:(p + 1) * nzp] for p in range(npts)]
    F = rhs.map(npts)(ca.horzcat(*Xs), ca.horzcat(*Us))
    f = [F[:, p] for p in range(npts)]
    g, J = [], 0
    for k in range(nodes - 1):
        a, b, m = k, k + 1, nodes + k
        g.append(Xs[m] - (Xs[a] + Xs[b]) / 2 - h / 8 * (f[a] - f[b]))
        g.append(Xs[b] - Xs[a] - h / 6 * (f[a] + 4 * f[m] + f[b]))
        J += h / 6 * (ca.sumsqr(Us[a]) + 4 * ca.sumsqr(Us[m]) + ca.sumsqr(Us[b]))
    ndef = sum(e.numel() for e in g)
    lbg, ubg = [0.0] * ndef, [0.0] * ndef
    # the parked robots, at every node (not the midpoints)
    for k in range(nodes):
        for cx, cy in PARKED:
            g.append((Xs[k][X] - cx) ** 2 + (Xs[k][Y] - cy) ** 2)
            lbg.append(REACH ** 2)
            ubg.append(ca.inf)
    lbw, ubw = [], []
    for p in range(npts):
        lo = [-ca.inf] * DIM + [-0.5, -0.5]
        hi = [ca.inf] * DIM + [0.5, 0.5]
        lo[Y], hi[Y] = -0.5, 0.7
        if p == 0:
            lo[:DIM] = hi[:DIM] = [0.0] * DIM
        if p == nodes - 1:
            for i, v in {X: 0.0, Y: 0.6, TH: 0.0, NQ: 0.0, NQ + 1: 0.0}.items():
                lo[i] = hi[i] = v
        lbw += lo
        ubw += hi
    assert len(guess) == npts
    w0 = np.concatenate([np.concatenate([pt["state"], pt["u"]]) for pt in guess])
    w0 = np.clip(w0, lbw, ubw)
    nlp = {"x": wv, "f": J, "g": ca.vertcat(*g)}
    opts = {"ipopt.tol": 1e-8, "ipopt.constr_viol_tol": 1e-8, "ipopt.print_level": 0,
            "print_time": False, "ipopt.sb": "yes"}
    if mu_strategy is not None:
        opts["ipopt.mu_strategy"] = mu_strategy
    solver = ca.nlpsol("parking", "ipopt", nlp, opts)
    args = {"x0": w0, "lbx": lbw, "ubx": ubw, "lbg": lbg, "ubg": ubg}
    return solver, args


def violation(sol, args):
    """The largest bound and constraint violation at the solution."""
    w, gv = np.array(sol["x"]).ravel(), np.array(sol["g"]).ravel()
    parts = [np.array(args["lbx"]) - w, w - np.array(args["ubx"]),
             np.array(args["lbg"]) - gv, gv - np.array(args["ubg"])]
    return float(max(0.0, max(np.max(v[np.isfinite(v)]) for v in parts)))


def solve(rhs, pk, mu_strategy, nodes=61, repeats=5):
    """Builds the program (timed: the setup), solves it `repeats` times from the same
    start (timed: solver(**args) wall time) and compares with nonholo's solution."""
    t0 = time.perf_counter()
    solver, args = parking(rhs, pk["guess"], mu_strategy=mu_strategy, nodes=nodes)
    setup_s = time.perf_counter() - t0
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        sol = solver(**args)
        times.append(time.perf_counter() - t0)
    times.sort()
    stats = solver.stats()
    w = np.array(sol["x"]).ravel()
    nzp = DIM + NU
    states = np.array([w[k * nzp:k * nzp + DIM] for k in range(nodes)])
    inputs = np.array([w[k * nzp + DIM:(k + 1) * nzp] for k in range(nodes)])
    objective = float(sol["f"])
    ref_states = np.array(pk["states"]).reshape(nodes, DIM)
    ref_inputs = np.array(pk["inputs"]).reshape(nodes, NU)
    gv = np.array(sol["g"]).ravel()
    clearance = gv[-2 * nodes:].reshape(nodes, 2)
    result = {
        "mu_strategy": mu_strategy or "monotone (IPOPT's default)",
        "status": stats["return_status"],
        "success": bool(stats["success"]),
        "iterations": stats["iter_count"],
        "objective": objective,
        "largest_violation": violation(sol, args),
        "smallest_clearance_squared": float(np.min(clearance)),
        "states": states.tolist(),
        "inputs": inputs.tolist(),
        "variables": int(np.size(args["x0"])),
        "constraints": int(solver.size_out("g")[0]),
        "setup_seconds": setup_s,
        "solve_seconds": times,
        "solve_seconds_median": times[len(times) // 2],
        "ipopt_wall_seconds_last_solve": {
            k[len("t_wall_"):]: v for k, v in stats.items()
            if k.startswith("t_wall_nlp") and v > 0
        },
    }
    comparison = {
        "objective_relative_difference":
            abs(objective - pk["objective"]) / abs(pk["objective"]),
        "max_node_state_difference": float(np.max(np.abs(states - ref_states))),
        "max_node_xy_th_difference":
            float(np.max(np.abs(states[:, :3] - ref_states[:, :3]))),
        "max_node_input_difference": float(np.max(np.abs(inputs - ref_inputs))),
        "max_node_state_difference_per_component": dict(zip(
            ["x", "y", "th", "phi_l", "phi_r", "sw", "phi_c", "dot(phi_l)", "dot(phi_r)"],
            np.max(np.abs(states - ref_states), axis=0).tolist())),
        "final_swivel_casadi_nonholo": [float(states[-1, 5]), float(ref_states[-1, 5])],
        "iterations_casadi_nonholo": [stats["iter_count"], pk["iterations"]],
    }
    same = comparison["objective_relative_difference"] < 1e-6
    comparison["same_local_optimum"] = same
    if not same and stats["success"]:
        comparison["note"] = (
            "a different local optimum (a KKT point at tol 1e-8, feasible), objective "
            + ("below" if objective < pk["objective"] else "above") + " nonholo's")
    print(f"{result['mu_strategy']}: {result['status']} after {result['iterations']} "
          f"iterations, objective {objective:.15g} (nonholo {pk['objective']:.15g}, relative "
          f"difference {comparison['objective_relative_difference']:.2e}), violation "
          f"{result['largest_violation']:.1e}; largest node state difference "
          f"{comparison['max_node_state_difference']:.2e} (x, y, th "
          f"{comparison['max_node_xy_th_difference']:.2e}), input "
          f"{comparison['max_node_input_difference']:.2e}; solve median "
          f"{result['solve_seconds_median'] * 1e3:.1f} ms, setup {setup_s:.2f} s")
    return result, comparison


def main():
    ref_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/casadi_ref/nonholo_reference.json"
    with open(ref_path) as fh:
        ref = json.load(fh)["robot"]
    assert ref["coordinates"] == ["x", "y", "th", "phi_l", "phi_r", "sw", "phi_c"]
    assert ref["inputs"] == ["t_l", "t_r"]
    assert len(ref["parameters"]) == len(PARAMS)
    t0 = time.perf_counter()
    rhs = robot(ref["parameters"])
    derive_s = time.perf_counter() - t0
    print(f"model derived in {derive_s:.2f} s; rhs: {rhs.n_instructions()} SX instructions")
    worst = validate(rhs, ref["samples"])

    pk = ref["parking"]
    runs = {}
    for key, strategy in (("monotone", None), ("adaptive", "adaptive")):
        result, comparison = solve(rhs, pk, strategy)
        runs[key] = {**result, "comparison": comparison}
    out = {
        "machine": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": sys.version.split()[0],
        "casadi": ca.__version__,
        "date": time.strftime("%Y-%m-%d"),
        "symbolics": "all SX: the SX model inlined at every point of an SX program "
                     "(nlpsol on SX); IPOPT's exact Hessian, MUMPS",
        "ipopt_options": {"tol": 1e-8, "constr_viol_tol": 1e-8,
                          "mu_strategy": "monotone (default) / adaptive"},
        "model": {
            "parameters": dict(zip(PARAMS, ref["parameters"])),
            "derivation_seconds": derive_s,
            "rhs_sx_instructions": rhs.n_instructions(),
            "check": {"samples": len(ref["samples"]), "worst_rhs_error": worst,
                      "note": "max over samples and components of |mine - nonholo| / max(1, |nonholo|)"},
        },
        "problem": {
            "nodes": 61, "duration": 8.0, "scheme": "separated Hermite-Simpson",
            "parked": PARKED, "reach": REACH, "y_bounds": [-0.5, 0.7],
            "torque_bounds": [-0.5, 0.5],
            "final": {"x": 0.0, "y": 0.6, "th": 0.0, "dot(phi_l)": 0.0, "dot(phi_r)": 0.0},
        },
        "parking": runs,
        "nonholo": {
            "solver": "ripopt, mu_strategy adaptive (LOQO rule), exact Hessian",
            "objective": pk["objective"],
            "iterations": pk["iterations"],
            "solve_seconds_best": pk.get("solve_seconds_best"),
        },
    }
    path = __file__.replace("optimal_casadi_parking.py", "optimal_parking_results.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
