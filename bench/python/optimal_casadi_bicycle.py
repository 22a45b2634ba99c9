"""The Whipple bicycle's lane change (examples/bicycle_lane_change.rs, the test
`a_bicycle_changes_lane_with_least_steer_torque` of tests/suite/optimal.rs) in CasADi +
IPOPT (its wheel's bundled IPOPT with MUMPS), on exactly nonholo's transcription: the
reference for nonholo's optimum, and the solve times beside nonholo's.

    python3 -m venv /tmp/casadi-venv && /tmp/casadi-venv/bin/pip install casadi==3.8.2 numpy
    /tmp/casadi-venv/bin/python bench/python/optimal_casadi_bicycle.py [reference.json]
    # writes bench/python/optimal_bicycle_results.json

The reference (default /tmp/casadi_ref/whipple_reference.json, written by `cargo run
--profile bench -p nonholo-benches --example casadi_reference -- /tmp/casadi_ref`) holds
the parameters, 20 samples of nonholo's right-hand side and configuration residual, and
the lane change's initial state, guess and solution.

The model, derived here in CasADi symbolics from the description of
`whipple_bicycle_model!` (src/models.rs): Meijaard et al. 2007's benchmark bicycle, axes x
forward, y right, z down. Coordinates q = [x, y, yaw, roll, pitch, th_r, steer, th_f],
speeds z = [dot(roll), dot(th_r), dot(steer)], inputs u = [t_roll, t_steer, t_rear],
state [q, z] (11 numbers). The frames A, R, B, S, H are rotation matrices from N; the
bodies' angular velocities add up along the chain of rotations (w_B = dot(yaw) N.z +
dot(roll) A.x + dot(pitch) R.y, w_H = w_B + dot(steer) S.z, w_WR = w_B + dot(th_r) B.y,
w_WF = w_H + dot(th_f) H.y), the centres' velocities are the time derivatives of the
points. Five constraint rows C(q) qdot = 0: the x and y velocities of the rear wheel's
material point at its contact P_r, those of the front wheel's material point at its contact
F_o + r_f unit(N.z - (N.z . H.y) H.y), and the rate of that contact's height. The rest is
casadi_kane.py's `kane` (shared with optimal_casadi_parking.py; its docstring has the
equations): the dependent rates (x, y, yaw, pitch, th_f) solve from the rows, qdot =
Psi(q) z, and qddot = Psi zdot + a with C a = -(dC/dt) qdot, a zero in the independent
rates; Kane's equations with the partial velocities Jv Psi, Jw Psi (Jv = dv/dqdot,
Jw = dw/dqdot), with gravity g N.z (z down):
sum_bodies (Jv Psi)^T (m g N.z - m a_c) + (Jw Psi)^T (tau - I alpha - w x I w) = 0, where
a_c = Jv (Psi zdot + a) + (dJv/dt) qdot and alpha likewise; products of inertia enter the
tensor as they are (I_xz = i_bxz, Meijaard's convention, which nonholo's samples confirm);
the torques: t_roll A.x on the rear frame, t_steer S.z on the fork and -t_steer S.z on the
rear frame, -t_rear B.y on the rear wheel and +t_rear B.y on the rear frame. The
configuration constraint (front contact height = 0) is solved for pitch; its residual, as
nonholo's, is the contact's N.z coordinate (its depth, minus the height). Both are
checked against nonholo's 20 samples before the solve (abort beyond 1e-10 relative).

The problem: upright at 5 m/s (dot(th_r) = -5 / r_r), 1 m to the right in 3 s, ending
upright and straight (y = 1, yaw = roll = steer = dot(roll) = dot(steer) = 0), steer
torque only (t_roll = t_rear = 0, |t_steer| <= 20), least integral of t_steer^2.
Separated Hermite-Simpson, 41 nodes; variables nodes' [x, u] then midpoints' [x, u];
rows: per interval the midpoint defects then the Simpson defects of the 10 state
components other than pitch, then the front contact's height at every point but the first
node (fully fixed), in the order of the points. The guess: nonholo's (the coasting
simulation sampled at nodes and midpoints). IPOPT tol 1e-8 (and constr_viol_tol 1e-8),
exact Hessian, print_level 0; the solve time is the median of 5 solver(**args) calls from
the same guess, the setup (building the program and nlpsol, CasADi's symbolic derivatives
included) timed apart.
The model is an SX function (its expression shrunk by ca.cse); the program is built all
in SX (the model inlined at every point), which IPOPT's derivatives evaluate fastest; the
script also times, as `variant_mx`, the SX model mapped over the points on MX variables.
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

PARAMS = ["w", "c", "lam", "g", "r_r", "m_r", "i_rxx", "i_ryy", "x_b", "z_b", "m_b",
          "i_bxx", "i_byy", "i_bzz", "i_bxz", "x_h", "z_h", "m_h", "i_hxx", "i_hyy",
          "i_hzz", "i_hxz", "r_f", "m_f", "i_fxx", "i_fyy", "t_r", "t_f"]
NQ, NZ, NU = 8, 3, 3
DIM = NQ + NZ
INDEPENDENT = [3, 5, 6]  # roll, th_r, steer
DEPENDENT = [0, 1, 2, 4, 7]  # x, y, yaw, pitch, th_f
PITCH = 4


def whipple(p):
    """The bicycle's right-hand side rhs(state, u) and its configuration residual
    conf(q) (the front contact's coordinate along N.z, i.e. minus its height above the
    ground: nonholo's sign), CasADi SX functions."""
    P = dict(zip(PARAMS, p))
    assert P["t_r"] == 0.0 and P["t_f"] == 0.0, "thin-disk wheels only"
    q = ca.SX.sym("q", NQ)
    qd = ca.SX.sym("qd", NQ)  # dot(q), replaced by Psi z at the end
    zs = ca.SX.sym("z", NZ)
    u = ca.SX.sym("u", NU)
    x, y, yaw, roll, pitch, th_r, steer, th_f = [q[i] for i in range(NQ)]
    dyaw, droll, dpitch, dth_r, dsteer, dth_f = [qd[i] for i in (2, 3, 4, 5, 6, 7)]
    t_roll, t_steer, t_rear = u[0], u[1], u[2]
    w, c, lam, g = P["w"], P["c"], P["lam"], P["g"]
    r_r, r_f, t_r = P["r_r"], P["r_f"], P["t_r"]

    # frames: rotation matrices from N (columns: the frame's unit vectors in N)
    A = rot("z", yaw)
    R = A @ rot("x", roll)
    B = R @ rot("y", pitch)
    S = B @ rot("y", lam)
    H = S @ rot("z", steer) @ rot("y", -lam)
    Nz = ca.DM([0, 0, 1])
    # angular velocities, added up the chain of rotations (N components)
    w_R = dyaw * Nz + droll * A[:, 0]
    w_B = w_R + dpitch * R[:, 1]
    w_H = w_B + dsteer * S[:, 2]
    w_WR = w_B + dth_r * B[:, 1]  # WR = B.rotate(y, th_r)
    w_WF = w_H + dth_f * H[:, 1]  # WF = H.rotate(y, th_f)

    # points (from O, in N components)
    P_r = ca.vertcat(x, y, 0)
    R_o = P_r - t_r * Nz - (r_r - t_r) * R[:, 2]
    B_c = R_o + vec(B, P["x_b"], 0, P["z_b"] + r_r)
    S_a = R_o + vec(B, w + c, 0, r_r)
    F_o = S_a + vec(H, -c, 0, -r_f)
    H_c = S_a + vec(H, P["x_h"] - w - c, 0, P["z_h"])
    # the front contact: down (N.z) projected on the wheel plane, normalized
    hy = H[:, 1]
    down = Nz - hy[2] * hy
    P_f = F_o + r_f * down / ca.norm_2(down)

    # (angular velocity, inertia frame, centre, mass, inertia, applied torque)
    bodies = [
        (w_WR, B, R_o, P["m_r"], inertia(P["i_rxx"], P["i_ryy"], P["i_rxx"]),
         -t_rear * B[:, 1]),
        (w_B, B, B_c, P["m_b"], inertia(P["i_bxx"], P["i_byy"], P["i_bzz"], P["i_bxz"]),
         t_roll * A[:, 0] - t_steer * S[:, 2] + t_rear * B[:, 1]),
        (w_H, H, H_c, P["m_h"], inertia(P["i_hxx"], P["i_hyy"], P["i_hzz"], P["i_hxz"]),
         t_steer * S[:, 2]),
        (w_WF, H, F_o, P["m_f"], inertia(P["i_fxx"], P["i_fyy"], P["i_fxx"]),
         ca.SX.zeros(3)),
    ]

    # the five rows C(q) qd = 0: no slip at both contacts, the front contact's height rate
    v_rear = dt(R_o, q, qd) + ca.cross(w_WR, P_r - R_o)
    v_front = dt(F_o, q, qd) + ca.cross(w_WF, P_f - F_o)
    rows = ca.vertcat(v_rear[0], v_rear[1], v_front[0], v_front[1], dt(P_f[2], q, qd))
    # the dependent rates eliminated, Kane's equations (z down: gravity g N.z)
    rhs = kane(q, qd, zs, u, rows, INDEPENDENT, DEPENDENT, bodies, g * Nz)
    # nonholo's residual is the contact's depth below the ground (along N.z): -height
    conf = ca.Function("conf", [q], [P_f[2]])
    return rhs, conf


def validate(rhs, conf, samples):
    """nonholo's right-hand side and configuration residual at its 20 samples; aborts on a
    mismatch. Returns the worst relative errors."""
    worst_rhs, worst_conf = 0.0, 0.0
    for i, s in enumerate(samples):
        d = np.array(rhs(s["state"], s["u"])).ravel()
        ref = np.array(s["rhs"])
        err = np.max(np.abs(d - ref) / np.maximum(1.0, np.abs(ref)))
        worst_rhs = max(worst_rhs, err)
        r0 = float(conf(s["unsolved_q"]))
        r = float(conf(s["state"][:NQ]))
        ec = max(abs(r0 - s["unsolved_conf"][0]) / max(1.0, abs(s["unsolved_conf"][0])),
                 abs(r - s["conf"][0]))
        worst_conf = max(worst_conf, ec)
        if err > 1e-10 or ec > 1e-10:
            print(f"sample {i}: rhs\n  mine {d}\n  nonholo {ref}\n conf {r0} vs "
                  f"{s['unsolved_conf'][0]}")
            sys.exit(f"the model does not match nonholo's at sample {i}")
    print(f"model check: worst rhs error {worst_rhs:.2e} (|mine - nonholo| / max(1, |nonholo|) per component), "
          f"worst configuration residual error {worst_conf:.2e}")
    return worst_rhs, worst_conf


def lane_change(rhs, conf, x0, x1, guess, nodes=41, t_f=3.0, sym=ca.SX):
    """The separated Hermite-Simpson program, nonholo's rows and variable order; returns
    the solver and its arguments. `sym`: ca.SX builds the whole program in SX (the model
    inlined at every point), ca.MX calls the SX model functions, mapped over the points,
    on one MX vector of variables."""
    h = t_f / (nodes - 1)
    npts = 2 * nodes - 1
    nzp = DIM + NU
    wv = sym.sym("w", npts * nzp)
    Xs = [wv[p * nzp:p * nzp + DIM] for p in range(npts)]
    Us = [wv[p * nzp + DIM:(p + 1) * nzp] for p in range(npts)]
    # the dynamics at every point, one mapped call
    F = rhs.map(npts)(ca.horzcat(*Xs), ca.horzcat(*Us))
    f = [F[:, p] for p in range(npts)]
    integrated = [i for i in range(DIM) if i != PITCH]
    g, J = [], 0
    for k in range(nodes - 1):
        a, b, m = k, k + 1, nodes + k
        dm = Xs[m] - (Xs[a] + Xs[b]) / 2 - h / 8 * (f[a] - f[b])
        ds = Xs[b] - Xs[a] - h / 6 * (f[a] + 4 * f[m] + f[b])
        g.append(dm[integrated])
        g.append(ds[integrated])
        J += h / 6 * (Us[a][1] ** 2 + 4 * Us[m][1] ** 2 + Us[b][1] ** 2)
    # the front contact's height at every point but the first node (fixed by its bounds)
    conf_pts = list(range(1, npts))
    Cf = conf.map(len(conf_pts))(ca.horzcat(*[Xs[p][:NQ] for p in conf_pts]))
    g.append(Cf.T)
    lbw, ubw = [], []
    for p in range(npts):
        lo = [-ca.inf] * DIM + [0.0, -20.0, 0.0]
        hi = [ca.inf] * DIM + [0.0, 20.0, 0.0]
        if p == 0:
            lo[:DIM] = hi[:DIM] = list(x0)
        if p == nodes - 1:
            for i, v in x1.items():
                lo[i] = hi[i] = v
        lbw += lo
        ubw += hi
    w0 = np.concatenate([np.concatenate([pt["state"], pt["u"]]) for pt in guess])
    w0 = np.clip(w0, lbw, ubw)
    nlp = {"x": wv, "f": J, "g": ca.vertcat(*g)}
    opts = {"ipopt.tol": 1e-8, "ipopt.constr_viol_tol": 1e-8, "ipopt.print_level": 0,
            "print_time": False, "ipopt.sb": "yes"}
    solver = ca.nlpsol("lane_change", "ipopt", nlp, opts)
    args = {"x0": w0, "lbx": lbw, "ubx": ubw, "lbg": 0, "ubg": 0}
    return solver, args


def solve(rhs, conf, lc, sym, nodes=41, repeats=5):
    """Builds the program in `sym` (timed: the setup), solves it `repeats` times from the
    same guess (timed: solver(**args) wall time) and compares with nonholo's solution."""
    x1 = {1: 1.0, 2: 0.0, 3: 0.0, 6: 0.0, 8: 0.0, 10: 0.0}
    t0 = time.perf_counter()
    solver, args = lane_change(rhs, conf, lc["x0"], x1, lc["guess"], nodes=nodes, sym=sym)
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
    ref_states = np.array(lc["states"]).reshape(nodes, DIM)
    ref_inputs = np.array(lc["inputs"]).reshape(nodes, NU)
    result = {
        "status": stats["return_status"],
        "iterations": stats["iter_count"],
        "objective": objective,
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
            abs(objective - lc["objective"]) / abs(lc["objective"]),
        "max_node_state_difference": float(np.max(np.abs(states - ref_states))),
        "max_node_input_difference": float(np.max(np.abs(inputs - ref_inputs))),
        "iterations_casadi_nonholo": [stats["iter_count"], lc["iterations"]],
    }
    name = "SX" if sym is ca.SX else "MX"
    print(f"{name}: {result['status']} after {result['iterations']} iterations, objective "
          f"{objective:.15g} (nonholo {lc['objective']:.15g}, relative difference "
          f"{comparison['objective_relative_difference']:.2e}); largest node state difference "
          f"{comparison['max_node_state_difference']:.2e}, input "
          f"{comparison['max_node_input_difference']:.2e}; solve median "
          f"{result['solve_seconds_median'] * 1e3:.1f} ms, setup {setup_s:.2f} s")
    return result, comparison


def main():
    ref_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/casadi_ref/whipple_reference.json"
    with open(ref_path) as fh:
        ref = json.load(fh)["whipple"]
    assert ref["coordinates"] == ["x", "y", "yaw", "roll", "pitch", "th_r", "steer", "th_f"]
    assert ref["inputs"] == ["t_roll", "t_steer", "t_rear"]
    t0 = time.perf_counter()
    rhs, conf = whipple(ref["parameters"])
    derive_s = time.perf_counter() - t0
    print(f"model derived in {derive_s:.2f} s; rhs: {rhs.n_instructions()} SX instructions")
    worst_rhs, worst_conf = validate(rhs, conf, ref["samples"])

    lc = ref["lane_change"]
    result, comparison = solve(rhs, conf, lc, ca.SX)
    variant, variant_cmp = solve(rhs, conf, lc, ca.MX)
    out = {
        "machine": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": sys.version.split()[0],
        "casadi": ca.__version__,
        "date": time.strftime("%Y-%m-%d"),
        "symbolics": "all SX: the SX model inlined at every point of an SX program "
                     "(nlpsol on SX); IPOPT's exact Hessian",
        "model": {
            "derivation_seconds": derive_s,
            "rhs_sx_instructions": rhs.n_instructions(),
            "check": {"samples": len(ref["samples"]), "worst_rhs_error": worst_rhs,
                      "worst_conf_error": worst_conf,
                      "note": "max over samples and components of |mine - nonholo| / max(1, |nonholo|)"},
        },
        "lane_change": result,
        "nonholo": {
            "objective": lc["objective"],
            "iterations": lc["iterations"],
            "solve_seconds_best": lc.get("solve_seconds_best"),
        },
        "comparison": comparison,
        "variant_mx": {
            "symbolics": "the SX model functions mapped over the points, called on one MX "
                         "vector of variables (nlpsol on MX, no expand)",
            **{k: v for k, v in variant.items() if k not in ("states", "inputs")},
            "comparison": variant_cmp,
        },
    }
    path = __file__.replace("optimal_casadi_bicycle.py", "optimal_bicycle_results.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
