#!/usr/bin/env python3
"""SymPy side of nonholo's Whipple-bicycle comparison (Meijaard et al. 2007 benchmark).

Builds the bicycle exactly as SymPy's own test does
(`sympy/physics/mechanics/tests/test_kane3.py::test_bicycle`, SymPy 1.14.0): the same
frames, points, bodies, kinematic differential equations, three velocity constraints,
one configuration constraint, `KanesMethod(..., constraint_solver="CRAMER")`, and the
same `KM.linearize(A_and_B=True, op_point=..., linear_solver="CRAMER")` call. The code
of `build_and_derive()` and `benchmark_values()` is the test's code, unchanged except
for being split into two functions (so that only the derivation is timed).

Each timed step runs in a fresh interpreter (subprocess) with a wall-clock and an
address-space limit:

  1. derive     symbol creation -> KanesMethod(...) + kanes_equations(...)
                (median of --runs fresh interpreters, default 3)
  2. linearize  KM.linearize(A_and_B=True, op_point=..., linear_solver="CRAMER") as in
                the test (once, limit --lin-timeout s, default 1800)
  3. (same worker, only if 2 finished) A with the benchmark values substituted
                (A.xreplace(val_dict).evalf(), rows/columns [1, 2, 3, 5] =
                lean, steer, lean rate, steer rate, as in the test); its eigenvalues at
                v = 0..10 m/s against Meijaard 2007 Table 2; lambdify of the 4x4 A(v)
                once, then a sweep of 101 speeds (evaluate + numpy.linalg.eigvals)
  4. rhs        lambdify(cse=True) of KM.mass_matrix_full and KM.forcing_full with the
                benchmark parameters substituted (numeric), then per call: evaluate
                M, F at one state + numpy.linalg.solve (timeit, median of 7)

Results: whipple_results.json (everything, every sample) and whipple_results.md.

Usage (from the repository root):
    nice -n 10 python3 bench/python/bench_whipple.py [--runs 3] [--lin-timeout 1800]
"""

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import timeit
import warnings

T_IMPORT0 = time.perf_counter()
import numpy as np  # noqa: E402
import sympy  # noqa: E402
T_IMPORT = time.perf_counter() - T_IMPORT0

# exactly the imports of test_kane3.py
from sympy.core.numbers import pi  # noqa: E402
from sympy.core.symbol import symbols  # noqa: E402
from sympy.functions.elementary.miscellaneous import sqrt  # noqa: E402
from sympy.functions.elementary.trigonometric import acos, sin, cos  # noqa: E402
from sympy.physics.mechanics import (ReferenceFrame, dynamicsymbols,  # noqa: E402
                                     KanesMethod, inertia, Point, RigidBody,
                                     dot)

HERE = os.path.dirname(os.path.abspath(__file__))

# Meijaard et al. 2007, Table 2 (see /work/shared/design/linearization.md §5):
# v -> eigenvalues (capsize, weave pair, castor); v = 0: four real.
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


class NS:
    pass


# --------------------------------------------------------------------------------------
# The model: test_kane3.py::test_bicycle, verbatim (comments shortened)
# --------------------------------------------------------------------------------------


def build_and_derive():
    # Declare Coordinates & Speeds
    q1, q2, q4, q5 = dynamicsymbols('q1 q2 q4 q5')
    q1d, q2d, q4d, q5d = dynamicsymbols('q1 q2 q4 q5', 1)
    u1, u2, u3, u4, u5, u6 = dynamicsymbols('u1 u2 u3 u4 u5 u6')
    u1d, u2d, u3d, u4d, u5d, u6d = dynamicsymbols('u1 u2 u3 u4 u5 u6', 1)

    # Declare System's Parameters
    WFrad, WRrad, htangle, forkoffset = symbols('WFrad WRrad htangle forkoffset')
    forklength, framelength, forkcg1 = symbols('forklength framelength forkcg1')
    forkcg3, framecg1, framecg3, Iwr11 = symbols('forkcg3 framecg1 framecg3 Iwr11')
    Iwr22, Iwf11, Iwf22, Iframe11 = symbols('Iwr22 Iwf11 Iwf22 Iframe11')
    Iframe22, Iframe33, Iframe31, Ifork11 = symbols('Iframe22 Iframe33 Iframe31 Ifork11')
    Ifork22, Ifork33, Ifork31, g = symbols('Ifork22 Ifork33 Ifork31 g')
    mframe, mfork, mwf, mwr = symbols('mframe mfork mwf mwr')

    # Set up reference frames for the system
    N = ReferenceFrame('N')
    Y = N.orientnew('Y', 'Axis', [q1, N.z])
    R = Y.orientnew('R', 'Axis', [q2, Y.x])
    Frame = R.orientnew('Frame', 'Axis', [q4 + htangle, R.y])
    WR = ReferenceFrame('WR')
    TempFrame = Frame.orientnew('TempFrame', 'Axis', [-htangle, Frame.y])
    Fork = Frame.orientnew('Fork', 'Axis', [q5, Frame.x])
    TempFork = Fork.orientnew('TempFork', 'Axis', [-htangle, Fork.y])
    WF = ReferenceFrame('WF')

    # Kinematics of the Bicycle
    WR_cont = Point('WR_cont')
    WR_mc = WR_cont.locatenew('WR_mc', WRrad * R.z)
    Steer = WR_mc.locatenew('Steer', framelength * Frame.z)
    Frame_mc = WR_mc.locatenew('Frame_mc', - framecg1 * Frame.x
                                           + framecg3 * Frame.z)
    Fork_mc = Steer.locatenew('Fork_mc', - forkcg1 * Fork.x
                                         + forkcg3 * Fork.z)
    WF_mc = Steer.locatenew('WF_mc', forklength * Fork.x + forkoffset * Fork.z)
    WF_cont = WF_mc.locatenew('WF_cont', WFrad * (dot(Fork.y, Y.z) * Fork.y -
                                                  Y.z).normalize())

    # Angular velocities
    Y.set_ang_vel(N, u1 * Y.z)
    R.set_ang_vel(Y, u2 * R.x)
    WR.set_ang_vel(Frame, u3 * Frame.y)
    Frame.set_ang_vel(R, u4 * Frame.y)
    Fork.set_ang_vel(Frame, u5 * Fork.x)
    WF.set_ang_vel(Fork, u6 * Fork.y)

    # Velocities (two-point theorem)
    WR_cont.set_vel(N, 0)
    WR_mc.v2pt_theory(WR_cont, N, WR)
    Steer.v2pt_theory(WR_mc, N, Frame)
    Frame_mc.v2pt_theory(WR_mc, N, Frame)
    Fork_mc.v2pt_theory(Steer, N, Fork)
    WF_mc.v2pt_theory(Steer, N, Fork)
    WF_cont.v2pt_theory(WF_mc, N, WF)

    # Inertias and bodies
    Frame_I = (inertia(TempFrame, Iframe11, Iframe22, Iframe33, 0, 0, Iframe31), Frame_mc)
    Fork_I = (inertia(TempFork, Ifork11, Ifork22, Ifork33, 0, 0, Ifork31), Fork_mc)
    WR_I = (inertia(Frame, Iwr11, Iwr22, Iwr11), WR_mc)
    WF_I = (inertia(Fork, Iwf11, Iwf22, Iwf11), WF_mc)

    BodyFrame = RigidBody('BodyFrame', Frame_mc, Frame, mframe, Frame_I)
    BodyFork = RigidBody('BodyFork', Fork_mc, Fork, mfork, Fork_I)
    BodyWR = RigidBody('BodyWR', WR_mc, WR, mwr, WR_I)
    BodyWF = RigidBody('BodyWF', WF_mc, WF, mwf, WF_I)

    # Kinematic differential equations
    kd = [q1d - u1, q2d - u2, q4d - u4, q5d - u5]

    # Nonholonomic constraints (front contact velocity = 0, in Y)
    conlist_speed = [WF_cont.vel(N) & Y.x, WF_cont.vel(N) & Y.y, WF_cont.vel(N) & Y.z]

    # Holonomic constraint (front contact on the ground)
    conlist_coord = [WF_cont.pos_from(WR_cont) & Y.z]

    # Forces
    FL = [(Frame_mc, -mframe * g * Y.z),
        (Fork_mc, -mfork * g * Y.z),
        (WF_mc, -mwf * g * Y.z),
        (WR_mc, -mwr * g * Y.z)]
    BL = [BodyFrame, BodyFork, BodyWR, BodyWF]

    KM = KanesMethod(N, q_ind=[q1, q2, q5],
            q_dependent=[q4], configuration_constraints=conlist_coord,
            u_ind=[u2, u3, u5],
            u_dependent=[u1, u4, u6], velocity_constraints=conlist_speed,
            kd_eqs=kd,
            constraint_solver="CRAMER")
    (fr, frstar) = KM.kanes_equations(BL, FL)

    s = NS()
    s.__dict__.update(locals())
    return s


def benchmark_values(s):
    """The test's numerical values (val_dict), for the symbols of `s`."""
    PaperRadRear                    =  0.3
    PaperRadFront                   =  0.35
    HTA                             =  (pi / 2 - pi / 10).evalf()
    TrailPaper                      =  0.08
    rake                            =  (-(TrailPaper*sin(HTA)-(PaperRadFront*cos(HTA)))).evalf()
    PaperWb                         =  1.02
    PaperFrameCgX                   =  0.3
    PaperFrameCgZ                   =  0.9
    PaperForkCgX                    =  0.9
    PaperForkCgZ                    =  0.7
    FrameLength                     =  (PaperWb*sin(HTA)-(rake-(PaperRadFront-PaperRadRear)*cos(HTA))).evalf()
    FrameCGNorm                     =  ((PaperFrameCgZ - PaperRadRear-(PaperFrameCgX/sin(HTA))*cos(HTA))*sin(HTA)).evalf()
    FrameCGPar                      =  (PaperFrameCgX / sin(HTA) + (PaperFrameCgZ - PaperRadRear - PaperFrameCgX / sin(HTA) * cos(HTA)) * cos(HTA)).evalf()
    tempa                           =  (PaperForkCgZ - PaperRadFront)
    tempb                           =  (PaperWb-PaperForkCgX)
    tempc                           =  (sqrt(tempa**2+tempb**2)).evalf()
    PaperForkL                      =  (PaperWb*cos(HTA)-(PaperRadFront-PaperRadRear)*sin(HTA)).evalf()
    ForkCGNorm                      =  (rake+(tempc * sin(pi/2-HTA-acos(tempa/tempc)))).evalf()
    ForkCGPar                       =  (tempc * cos((pi/2-HTA)-acos(tempa/tempc))-PaperForkL).evalf()

    v = symbols('v')
    params = {s.WFrad: PaperRadFront,
              s.WRrad: PaperRadRear,
              s.htangle: HTA,
              s.forkoffset: rake,
              s.forklength: PaperForkL,
              s.framelength: FrameLength,
              s.forkcg1: ForkCGPar,
              s.forkcg3: ForkCGNorm,
              s.framecg1: FrameCGNorm,
              s.framecg3: FrameCGPar,
              s.Iwr11: 0.0603,
              s.Iwr22: 0.12,
              s.Iwf11: 0.1405,
              s.Iwf22: 0.28,
              s.Ifork11: 0.05892,
              s.Ifork22: 0.06,
              s.Ifork33: 0.00708,
              s.Ifork31: 0.00756,
              s.Iframe11: 9.2,
              s.Iframe22: 11,
              s.Iframe33: 2.8,
              s.Iframe31: -2.4,
              s.mfork: 4,
              s.mframe: 85,
              s.mwf: 3,
              s.mwr: 2,
              s.g: 9.81}
    state = {s.q1: 0,
             s.q2: 0,
             s.q4: 0,
             s.q5: 0,
             s.u1: 0,
             s.u2: 0,
             s.u3: v / PaperRadRear,
             s.u4: 0,
             s.u5: 0,
             s.u6: v / PaperRadFront}
    val_dict = dict(params)
    val_dict.update(state)
    op_point = {
        s.u1.diff(): 0,
        s.u2.diff(): 0,
        s.u3.diff(): 0,
        s.u4.diff(): 0,
        s.u5.diff(): 0,
        s.u6.diff(): 0,
        s.u1: 0,
        s.u2: 0,
        s.u3: v / PaperRadRear,
        s.u4: 0,
        s.u5: 0,
        s.u6: v / PaperRadFront,
        s.q1: 0,
        s.q2: 0,
        s.q4: 0,
        s.q5: 0,
    }
    return v, params, val_dict, op_point


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def per_call(fn, args, repeat=7):
    timer = timeit.Timer("fn(*args)", globals={"fn": fn, "args": args})
    number, _ = timer.autorange()                 # >= 0.2 s per sample
    samples = [x / number for x in timer.repeat(repeat=repeat, number=number)]
    return {"median_s": statistics.median(samples), "min_s": min(samples),
            "samples_s": samples, "calls_per_sample": number, "repeat": repeat}


def match_max_diff(got, ref):
    """Max |got_i - ref_pi(i)| over the best matching (greedy nearest, 4 values)."""
    got = list(got)
    worst = 0.0
    for r in ref:
        d = [abs(g - r) for g in got]
        i = int(np.argmin(d))
        worst = max(worst, d[i])
        got.pop(i)
    return worst


def cplx(z):
    z = complex(z)
    return [z.real, z.imag]


# --------------------------------------------------------------------------------------
# Workers (each in a fresh interpreter)
# --------------------------------------------------------------------------------------


def emit(out_path, rec):
    with open(out_path, "a") as f:
        f.write(json.dumps(rec) + "\n")
        f.flush()


def worker(task, out_path):
    warnings.simplefilter("ignore")
    emit(out_path, {"event": "start", "task": task, "import_s": T_IMPORT})
    t0 = time.perf_counter()
    s = build_and_derive()
    derive_s = time.perf_counter() - t0
    KM = s.KM
    emit(out_path, {"event": "derived", "derive_s": derive_s,
                    "mass_matrix_full_shape": list(KM.mass_matrix_full.shape),
                    "forcing_full_shape": list(KM.forcing_full.shape),
                    "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
    if task == "derive":
        return
    v, params, val_dict, op_point = benchmark_values(s)

    if task == "linearize":
        t0 = time.perf_counter()
        A, B, _ = KM.linearize(A_and_B=True, op_point=op_point, linear_solver="CRAMER")
        lin_s = time.perf_counter() - t0
        emit(out_path, {"event": "linearized", "linearize_s": lin_s,
                        "A_shape": list(A.shape), "B_shape": list(B.shape),
                        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
        # --- step 3: as in the test ---
        t0 = time.perf_counter()
        A_s = A.xreplace(val_dict).evalf()
        A4 = A_s.extract([1, 2, 3, 5], [1, 2, 3, 5])
        subs_s = time.perf_counter() - t0
        eig = {}
        worst = 0.0
        for vi in range(11):
            Av = np.array(A4.subs(v, vi).evalf(), dtype=float)
            ev = np.linalg.eigvals(Av)
            d = match_max_diff(ev, TABLE2[vi])
            worst = max(worst, d)
            eig[str(vi)] = {"eigenvalues": [cplx(z) for z in
                                            sorted(ev, key=lambda z: (z.real, z.imag))],
                            "max_abs_diff_vs_table2": d}
        # the test's own reference matrix (test_kane3 `Res`), as a sanity check
        Res = sympy.Matrix([
            [0, 0, 1.0, 0],
            [0, 0, 0, 1.0],
            [9.48977444677355, -0.891197738059089*v**2 - 0.571523173729245,
             -0.105522449805691*v, -0.330515398992311*v],
            [11.7194768719633, -1.97171508499972*v**2 + 30.9087533932407,
             3.67680523332152*v, -3.08486552743311*v]])
        res_err = max(float(abs(x)) for i in range(6)
                      for x in (Res.subs(v, i) - A4.subs(v, i)))
        # lambdify A(v) once, then sweeps of 101 speeds
        t0 = time.perf_counter()
        fA = sympy.lambdify(v, A4, modules="numpy", cse=True)
        lam_s = time.perf_counter() - t0
        speeds = np.linspace(0.0, 10.0, 101)

        def sweep():
            return [np.linalg.eigvals(np.asarray(fA(vv), dtype=float)) for vv in speeds]

        sw = sweep()
        sweep_vs_table = max(match_max_diff(sw[10 * k], TABLE2[k]) for k in range(11))
        sweep_t = per_call(sweep, ())
        emit(out_path, {"event": "eigen",
                        "A4_entries": [[str(x) for x in A4.row(i)] for i in range(4)],
                        "subs_evalf_extract_s": subs_s,
                        "eigenvalues_v0_10": eig,
                        "max_abs_diff_vs_table2_v0_10": worst,
                        "max_abs_diff_vs_test_Res_v0_5": res_err,
                        "lambdify_A_s": lam_s,
                        "sweep_101_speeds": sweep_t,
                        "sweep_max_abs_diff_vs_table2": sweep_vs_table})
        return

    if task == "rhs":
        q = list(KM.q)              # [q1, q2, q5, q4]
        u = list(KM.u)              # [u2, u3, u5, u1, u4, u6]
        t0 = time.perf_counter()
        M = KM.mass_matrix_full.xreplace(params)
        F = KM.forcing_full.xreplace(params)
        subs_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        f_MF = sympy.lambdify([q, u], [M, F], modules="numpy", cse=True)
        lam_s = time.perf_counter() - t0
        # one consistent state: q1, q2, q5, u2, u3, u5 chosen; q4 from the configuration
        # constraint (Newton), u1, u4, u6 from the velocity constraints (linear solve)
        hol = sympy.Matrix(s.conlist_coord).xreplace(params)
        qs = sympy.symbols("Q0:4")
        qrep = dict(zip(q, qs))
        hol_f = sympy.lambdify(qs, hol.xreplace(qrep)[0])
        hol_d = sympy.lambdify(qs, hol.xreplace(qrep)[0].diff(qs[3]))
        qv = [0.1, 0.05, 0.2, 0.0]
        for _ in range(50):
            step = hol_f(*qv) / hol_d(*qv)
            qv[3] -= step
            if abs(step) < 1e-15:
                break
        vc = sympy.Matrix(s.conlist_speed).xreplace(params)
        Jd = vc.jacobian(u[3:])
        Ji = vc.jacobian(u[:3])
        fJ = sympy.lambdify([q], [Jd, Ji], modules="numpy", cse=True)
        ui = np.array([0.1, 5.0 / 0.3, 0.3])     # roll rate, rear spin (v = 5 m/s), steer rate
        Jdv, Jiv = fJ(qv)
        ud = np.linalg.solve(np.asarray(Jdv, float), -np.asarray(Jiv, float) @ ui)
        uv = np.concatenate([ui, ud])
        x = np.concatenate([qv, uv])
        hol_res = abs(hol_f(*qv))
        vel_res = float(np.max(np.abs(np.asarray(Jdv, float) @ ud
                                      + np.asarray(Jiv, float) @ ui)))
        nq = len(q)

        def rhs(tt, xx):
            Mv, Fv = f_MF(xx[:nq], xx[nq:])
            return np.linalg.solve(Mv, Fv).ravel()

        xdot = rhs(0.0, x)
        pc = per_call(rhs, (0.0, x))
        emit(out_path, {"event": "rhs",
                        "q_order": [str(e) for e in q], "u_order": [str(e) for e in u],
                        "state": x.tolist(), "xdot": xdot.tolist(),
                        "holonomic_residual": float(hol_res),
                        "velocity_constraint_residual": vel_res,
                        "count_ops_M_full": int(sympy.count_ops(M)),
                        "count_ops_F_full": int(sympy.count_ops(F)),
                        "xreplace_params_s": subs_s,
                        "lambdify_MF_s": lam_s,
                        "per_call": pc,
                        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
        return
    raise ValueError(task)


def run_worker(task, timeout, mem_gb, log):
    out_path = os.path.join(HERE, f".whipple_{task}_{os.getpid()}.jsonl")
    if os.path.exists(out_path):
        os.remove(out_path)

    def limit():
        lim = int(mem_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))

    cmd = [sys.executable, os.path.abspath(__file__), "--worker", task, out_path]
    t0 = time.perf_counter()
    failed = None
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           preexec_fn=limit)
        if p.returncode != 0:
            tail = (p.stderr.strip().splitlines() or ["?"])[-1]
            failed = f"exit code {p.returncode}: {tail}"
    except subprocess.TimeoutExpired:
        failed = f"not finished after {timeout:.0f} s (killed)"
    wall = time.perf_counter() - t0
    recs = []
    if os.path.exists(out_path):
        with open(out_path) as f:
            recs = [json.loads(line) for line in f if line.strip()]
        os.remove(out_path)
    out = {"task": task, "wall_s": wall, "failed": failed}
    for r in recs:
        ev = r.pop("event")
        out[ev] = r
    log(f"  {task}: wall {wall:.1f} s" + (f", FAILED: {failed}" if failed else "")
        + (f", derive {out['derived']['derive_s']:.2f} s" if "derived" in out else ""))
    return out


def machine_info():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu, "logical_cpus": os.cpu_count(),
        "kernel": platform.release(), "machine": platform.machine(),
        "python": platform.python_version(), "sympy": sympy.__version__,
        "numpy": np.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "loadavg_start": list(os.getloadavg()),
        "nice": os.nice(0),
    }


def fmt_s(x):
    if x is None:
        return "n/a"
    if x >= 1:
        return f"{x:.2f} s"
    if x >= 1e-3:
        return f"{x * 1e3:.2f} ms"
    return f"{x * 1e6:.1f} µs"


def write_md(res, path):
    m = res["machine"]
    rows = []
    d = res.get("derive", {})
    if d:
        rows.append(("form the equations", fmt_s(d.get("median_s")),
                     "symbol creation → `KanesMethod(...)` + `kanes_equations(BL, FL)`; "
                     "median of %d fresh interpreters (samples: %s); SymPy import "
                     "(%s) not included" % (len(d.get("samples_s", [])),
                                            ", ".join(f"{x:.2f}" for x in d["samples_s"])
                                            + " s",
                                            fmt_s(statistics.median(d["sympy_import_s"]))
                                            if d.get("sympy_import_s") else "n/a")))
    lin = res.get("linearize", {})
    if lin:
        if "linearized" in lin:
            rows.append(("`KM.linearize(A_and_B=True, ..., linear_solver=\"CRAMER\")`",
                         fmt_s(lin["linearized"]["linearize_s"]),
                         "as in test_kane3, after the derivation; one run, limit "
                         f"{res['limits']['lin_timeout_s']:.0f} s; peak RSS "
                         f"{lin['linearized']['maxrss_mb']:.0f} MB"))
        else:
            rows.append(("`KM.linearize(A_and_B=True, ..., linear_solver=\"CRAMER\")`",
                         lin.get("result", "failed"),
                         f"one run, limit {res['limits']['lin_timeout_s']:.0f} s"))
        e = lin.get("eigen")
        if e:
            rows.append(("eigenvalues vs Meijaard 2007 Table 2",
                         f"max \\|Δλ\\| = {e['max_abs_diff_vs_table2_v0_10']:.1e}",
                         "A.xreplace(val_dict).evalf(), rows/cols [1, 2, 3, 5] (lean, steer "
                         "and their rates), `numpy.linalg.eigvals` at v = 0, 1, …, 10 m/s "
                         "(44 eigenvalues, nearest-match); the test's own reference `Res` "
                         f"differs by ≤ {e['max_abs_diff_vs_test_Res_v0_5']:.1e} (v = 0..5)"))
            rows.append(("lambdify A(v)", fmt_s(e["lambdify_A_s"]),
                         "`sympy.lambdify(v, A4, cse=True)` of the 4×4 numeric-parameter A, "
                         f"once (the xreplace + evalf before it: "
                         f"{fmt_s(e['subs_evalf_extract_s'])})"))
            sw = e["sweep_101_speeds"]
            rows.append(("eigenvalue sweep, 101 speeds", fmt_s(sw["median_s"]),
                         "v = 0, 0.1, …, 10 m/s: evaluate A(v) + `numpy.linalg.eigvals`, "
                         f"whole sweep; timeit median of 7 ({fmt_s(sw['median_s'] / 101)} "
                         "per speed); sweep matches Table 2 to "
                         f"{e['sweep_max_abs_diff_vs_table2']:.1e}"))
    r = res.get("rhs", {})
    if r.get("rhs"):
        rr = r["rhs"]
        rows.append(("lambdify M_full, F_full", fmt_s(rr["lambdify_MF_s"]),
                     "`sympy.lambdify([q, u], [M_full, F_full], cse=True)` after "
                     f"substituting the benchmark parameters ({fmt_s(rr['xreplace_params_s'])}); "
                     f"count_ops M_full {rr['count_ops_M_full']}, F_full "
                     f"{rr['count_ops_F_full']}"))
        rows.append(("right-hand side, per call", fmt_s(rr["per_call"]["median_s"]),
                     "evaluate M (10×10), F (10) + `numpy.linalg.solve` at one state "
                     "satisfying the constraints (q4 from the configuration constraint, "
                     "u1, u4, u6 from the velocity constraints); timeit (autorange) "
                     f"median of 7, min {fmt_s(rr['per_call']['min_s'])}"))
    elif r:
        rows.append(("lambdify M_full, F_full / rhs per call", "failed", str(r.get("failed"))))
    out = ["# SymPy on the Whipple bicycle (Meijaard et al. 2007 benchmark)", "",
           "Model: `sympy/physics/mechanics/tests/test_kane3.py::test_bicycle` of SymPy "
           f"{m['sympy']}, its code unchanged except for shortened comments and being split "
           "into `build_and_derive()` (timed) and `benchmark_values()` "
           "(`bench_whipple.py`). Every timed step runs in "
           "a fresh interpreter (subprocess) with a wall-clock limit and a "
           f"{res['limits']['mem_gb']:g} GB address-space limit. Wall-clock times.", "",
           "| step | result | what is measured |", "| --- | --- | --- |"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    out += ["", f"Machine: {m['cpu']} ({m['logical_cpus']} logical CPUs), Linux "
            f"{m['kernel']}; Python {m['python']}, SymPy {m['sympy']}, NumPy {m['numpy']}; "
            f"{m['date']}; run at nice {m['nice']}; load average (1, 5, 15 min) "
            f"{', '.join(f'{x:.2f}' for x in m['loadavg_start'])} at start, "
            f"{', '.join(f'{x:.2f}' for x in m.get('loadavg_end', []))} at end "
            "(other processes on the machine count in it).", "",
            "Reproduce (from the repository root):", "", "```sh",
            "python3 -m pip install sympy==1.14.0 mpmath==1.3.0 numpy==2.4.6",
            "nice -n 10 python3 bench/python/bench_whipple.py   # --runs 3 --lin-timeout "
            "1800 --timeout 900 --mem-gb 8 by default; writes whipple_results.{json,md}",
            "# rewrite this table from the JSON only:",
            "python3 bench/python/bench_whipple.py --md-from bench/python/whipple_results.json",
            "```", "",
            "All samples, the eigenvalues at each speed, the 4×4 A(v) and the state used "
            "are in `whipple_results.json`.", ""]
    with open(path, "w") as f:
        f.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", nargs=2, metavar=("TASK", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("--runs", type=int, default=3,
                    help="fresh-interpreter samples of the derivation time (default 3)")
    ap.add_argument("--timeout", type=float, default=900,
                    help="wall-clock limit (s) of the derive and rhs workers (default 900)")
    ap.add_argument("--lin-timeout", type=float, default=1800,
                    help="wall-clock limit (s) of the linearize worker (default 1800)")
    ap.add_argument("--mem-gb", type=float, default=8,
                    help="address-space limit of a worker in GB (default 8)")
    ap.add_argument("--steps", nargs="*", default=["derive", "rhs", "linearize"])
    ap.add_argument("--out", default=os.path.join(HERE, "whipple_results.json"))
    ap.add_argument("--md-from", metavar="JSON",
                    help="only rewrite the markdown table from a results JSON")
    args = ap.parse_args()
    if args.md_from:
        with open(args.md_from) as f:
            res = json.load(f)
        write_md(res, os.path.splitext(args.md_from)[0] + ".md")
        return
    if args.worker:
        worker(*args.worker)
        return

    def log(msg):
        print(msg, flush=True)

    res = {"machine": machine_info(),
           "model": "sympy/physics/mechanics/tests/test_kane3.py::test_bicycle "
                    "(SymPy %s); its code unchanged except for shortened comments and "
                    "being split into build_and_derive() and benchmark_values()"
                    % sympy.__version__,
           "command": "nice -n 10 python3 " + " ".join(
               [os.path.relpath(os.path.abspath(__file__))] + sys.argv[1:]),
           "limits": {"timeout_s": args.timeout, "lin_timeout_s": args.lin_timeout,
                      "mem_gb": args.mem_gb}}
    log(json.dumps(res["machine"]))
    if "derive" in args.steps:
        runs = [run_worker("derive", args.timeout, args.mem_gb, log)
                for _ in range(args.runs)]
        ds = [r["derived"]["derive_s"] for r in runs if "derived" in r]
        res["derive"] = {
            "what": "symbol creation -> KanesMethod(...) + kanes_equations(BL, FL), "
                    "fresh interpreter per sample",
            "median_s": statistics.median(ds) if ds else None,
            "samples_s": ds,
            "sympy_import_s": [r["start"]["import_s"] for r in runs if "start" in r],
            "runs": runs}
    if "rhs" in args.steps:
        r = run_worker("rhs", args.timeout, args.mem_gb, log)
        res["rhs"] = {"what": "lambdify([q, u], [M_full, F_full], cse=True) with the "
                              "benchmark parameters substituted; per call: evaluate "
                              "M, F + numpy.linalg.solve at one consistent state",
                      **r}
    if "linearize" in args.steps:
        r = run_worker("linearize", args.lin_timeout, args.mem_gb, log)
        res["linearize"] = {"what": "KM.linearize(A_and_B=True, op_point=..., "
                                    "linear_solver='CRAMER') as in test_kane3, after the "
                                    "derivation (which is not included)",
                            **r}
        if "linearized" not in r:
            res["linearize"]["result"] = (
                f"not finished after {r['wall_s']:.0f} s (worker wall time, including "
                f"{r['derived']['derive_s']:.1f} s derivation)" if "derived" in r
                else r["failed"])
    res["machine"]["loadavg_end"] = list(os.getloadavg())
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    write_md(res, os.path.splitext(args.out)[0] + ".md")
    log(f"wrote {args.out} and the .md beside it")


if __name__ == "__main__":
    main()
