#!/usr/bin/env python3
"""SymPy / PyDy side of nonholo's comparison benchmark.

Builds Benenti 2007 §9.2 (`VerticalDisk`) and Talamucci 2015 §3.3
(`RollingDiskPendulum`, the unicycle with rider) in `sympy.physics.mechanics` the way a
SymPy user would: reference frames, points, a rigid body and particles, gravity and
torques as loads, the rolling constraints taken from the no-slip condition of the
disk's material contact point, and `KanesMethod` with those *nonholonomic velocity
constraints* and dependent speeds. It then measures

  (a) derivation time: from creating the symbols to Kane's full mass matrix and forcing
      vector (`mass_matrix_full`, `forcing_full`), and separately the explicit
      right-hand side `KanesMethod.rhs()` (symbolic LU solve),
  (b) ns/call of the right-hand side through `lambdify(..., cse=True)` (numpy:
      evaluate M and F, `numpy.linalg.solve`; and the lambdified explicit rhs),
  (c) ns/call and code-generation + compile time of PyDy's Cython generator
      (`generate_ode_function(..., generator='cython')`), with its default numeric
      linear solve (`linear_sys_solver='numpy'`) and with the symbolic LU solve emitted
      into C (`linear_sys_solver='sympy'`),

and validates the SymPy models against nonholo's DSL text (read from src/ by nonholo_dsl.py):
symbolically (T, V, generalized forces, constraints, speeds) and numerically (an
independent Lagrange-multiplier solve of the DSL Lagrangian; energy conservation and
constraint residual over an integration). Results go to results.json.

Usage: see README.md. `python bench_sympy.py` runs everything (about 15 minutes).
"""

import argparse
import datetime
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
import timeit
import traceback
import warnings

T_IMPORT0 = time.perf_counter()
import numpy as np  # noqa: E402
import sympy as sm  # noqa: E402
import sympy.physics.mechanics as me  # noqa: E402
from sympy.physics.mechanics import (KanesMethod, Particle, Point,  # noqa: E402
                                     ReferenceFrame, RigidBody, dynamicsymbols,
                                     inertia)
T_IMPORT = time.perf_counter() - T_IMPORT0

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
MODELS_SRC = os.path.join(REPO, "src")   # nonholo_dsl reads the library models there
BUILD = os.path.join(HERE, "build")
sys.path.insert(0, HERE)
import nonholo_dsl  # noqa: E402

t = dynamicsymbols._t

# --------------------------------------------------------------------------------------
# The models
# --------------------------------------------------------------------------------------


class Spec:
    """Everything KanesMethod needs, plus what the checks need."""


def build_vertical_disk(variant="nonholo_speeds"):
    """Benenti 2007 §9.2: a vertical disk rolling without sliding on a plane inclined by
    alpha along x. q = (x, y, theta, psi): contact point, spin, heading.

    Speeds as in nonholo: u1 = theta', u2 = psi' independent; u3 = x', u4 = y'
    dependent through the no-slip constraint."""
    assert variant == "nonholo_speeds"
    x, y, th, psi = q = dynamicsymbols("x y theta psi")
    xd, yd, thd, psid = qd = [s.diff(t) for s in q]
    u1, u2, u3, u4 = u = dynamicsymbols("u1:5")
    m, a_inertia, b_inertia, r, g, alpha = params = sm.symbols(
        "m a_inertia b_inertia r g alpha")

    N = ReferenceFrame("N")                      # plane: N.x down the slope, N.z normal
    H = N.orientnew("H", "Axis", (psi, N.z))     # heading frame, H.y = axle
    D = H.orientnew("D", "Axis", (th, H.y))      # disk, spinning about the axle
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y + r * N.z)   # disk centre, above contact
    P.set_vel(N, xd * N.x + yd * N.y)
    Cm = P.locatenew("Cm", -r * N.z)             # material point of the disk at contact
    Cm.v2pt_theory(P, N, D)
    vel_cons = [sm.trigsimp(Cm.vel(N).dot(N.x)), sm.trigsimp(Cm.vel(N).dot(N.y))]

    disk = RigidBody("disk", P, D, m, (inertia(D, b_inertia, a_inertia, b_inertia), P))
    loads = [(P, m * g * sm.sin(alpha) * N.x)]   # gravity along the inclined plane

    s = Spec()
    s.N, s.q, s.qd, s.params = N, list(q), qd, list(params)
    s.u, s.u_ind, s.u_dep = list(u), [u1, u2], [u3, u4]
    s.udefs = [thd, psid, xd, yd]
    s.kdes = [ui - d for ui, d in zip(s.u, s.udefs)]
    s.vel_cons, s.bodies, s.loads = vel_cons, [disk], loads
    s.V = -m * g * sm.sin(alpha) * x
    s.dependent_qd = [0, 1]                      # x', y' follow from the constraints
    return s


def build_rolling_disk_pendulum(variant="momenta"):
    """Talamucci 2015 §3.3: disk (mass big_m, radius r, I_D = big_m r^2/2 about the axle,
    I_D/2 about diameters) rolling without sliding; a massless frame leaning by theta
    carries P_S (m_s) at kappa1 and, at kappa1 + kappa2, a rider pendulum P_D (m_d) of
    length kappa swinging by theta1 (absolute angle, in the plane normal to the heading).
    q = (x_c, y_c, phi, phi1, theta, theta1): contact point, heading, spin, lean, rider.
    Loads: gravity, -c_phi phi' on the heading, pedal torque tau between frame and disk,
    rider damping -c_th1 theta1' between rider and heading frame.

    variant 'momenta' (nonholo's choice): u1 = dL/dphi', u2 = dL/dphi1', u3 = theta',
    u4 = theta1'; variant 'qdot': u1..u4 = phi', phi1', theta', theta1'. Both: u5 = x_c',
    u6 = y_c' dependent."""
    xc, yc, phi, phi1, th, th1 = q = dynamicsymbols("x_c y_c phi phi1 theta theta1")
    xcd, ycd, phid, phi1d, thd, th1d = qd = [s.diff(t) for s in q]
    u = dynamicsymbols("u1:7")
    params = sm.symbols("big_m r m_s m_d kappa kappa1 kappa2 g c_phi c_th1 tau")
    big_m, r, m_s, m_d, kappa, kappa1, kappa2, g, c_phi, c_th1, tau = params
    i_d = big_m * r**2 / 2

    N = ReferenceFrame("N")
    A = N.orientnew("A", "Axis", (phi, N.z))     # heading: A.x along the track
    B = A.orientnew("B", "Axis", (-th, A.x))     # leaning frame, B.z up the frame
    Dk = B.orientnew("Dk", "Axis", (phi1, B.y))  # disk spinning about the axle B.y
    R = A.orientnew("R", "Axis", (th1, A.x))     # rider arm hangs along -R.z
    O = Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", xc * N.x + yc * N.y)    # contact point (geometric)
    C.set_vel(N, xcd * N.x + ycd * N.y)
    Dc = C.locatenew("Dc", r * B.z)              # disk centre
    Dc.v2pt_theory(C, N, B)
    PS = C.locatenew("PS", kappa1 * B.z)
    PS.v2pt_theory(C, N, B)
    Hg = C.locatenew("Hg", (kappa1 + kappa2) * B.z)   # rider's hinge
    Hg.v2pt_theory(C, N, B)
    PD = Hg.locatenew("PD", -kappa * R.z)
    PD.v2pt_theory(Hg, N, R)
    Cm = Dc.locatenew("Cm", -r * B.z)            # material point of the disk at contact
    Cm.v2pt_theory(Dc, N, Dk)
    vel_cons = [sm.trigsimp(Cm.vel(N).dot(N.x)), sm.trigsimp(Cm.vel(N).dot(N.y))]

    # axisymmetric disk: its central inertia written in the (non-spinning) frame B
    disk = RigidBody("disk", Dc, Dk, big_m, (inertia(B, i_d / 2, i_d, i_d / 2), Dc))
    bodies = [disk, Particle("ps", PS, m_s), Particle("pd", PD, m_d)]
    loads = [(Dc, -big_m * g * N.z), (PS, -m_s * g * N.z), (PD, -m_d * g * N.z),
             (A, -c_phi * phid * N.z),
             (Dk, tau * B.y), (B, -tau * B.y),
             (R, -c_th1 * th1d * A.x), (A, c_th1 * th1d * A.x)]

    if variant == "momenta":
        v1 = m_s * kappa1 + m_d * (kappa1 + kappa2)
        v2 = m_s * kappa1**2 + m_d * (kappa1 + kappa2)**2
        f1h = v1 * sm.sin(th) + m_d * kappa * sm.sin(th1) + big_m * r * sm.sin(th)
        f2h = (m_d * kappa**2 * sm.sin(th1)**2 + v2 * sm.sin(th)**2
               + 2 * m_d * kappa * (kappa1 + kappa2) * sm.sin(th) * sm.sin(th1)
               + (big_m * r**2 + i_d / 2) * sm.sin(th)**2 + i_d / 2)
        v_par = xcd * sm.cos(phi) + ycd * sm.sin(phi)
        udefs = [f2h * phid - i_d * sm.sin(th) * phi1d - f1h * v_par,   # dL/dphi'
                 i_d * phi1d - i_d * sm.sin(th) * phid,                 # dL/dphi1'
                 thd, th1d, xcd, ycd]
    elif variant == "qdot":
        udefs = [phid, phi1d, thd, th1d, xcd, ycd]
    else:
        raise ValueError(variant)

    s = Spec()
    s.N, s.q, s.qd, s.params = N, list(q), qd, list(params)
    s.u, s.u_ind, s.u_dep = list(u), list(u[:4]), list(u[4:])
    s.udefs = udefs
    s.kdes = [ui - d for ui, d in zip(s.u, udefs)]
    s.vel_cons, s.bodies, s.loads = vel_cons, bodies, loads
    s.V = g * (big_m * Dc.pos_from(O).dot(N.z) + m_s * PS.pos_from(O).dot(N.z)
               + m_d * PD.pos_from(O).dot(N.z))
    s.dependent_qd = [0, 1]
    return s


MODELS = {
    "vertical_disk": dict(
        dsl="VerticalDisk", build=build_vertical_disk,
        variants={"nonholo_speeds": "u = (theta', psi') independent, (x', y') dependent "
                                    "- the same speeds as nonholo's VerticalDisk"},
        # the fixed benchmark state: q and the independent velocities
        q0=[0.3, -0.2, 0.7, 0.4], qd_ind0={2: 2.0, 3: 0.8},
        # a parameter set with every term active, for the checks
        params_check={"m": 1.3, "a_inertia": 0.7, "b_inertia": 0.35, "r": 0.8,
                      "alpha": 0.3},
    ),
    "rolling_disk_pendulum": dict(
        dsl="RollingDiskPendulum", build=build_rolling_disk_pendulum,
        variants={
            "momenta": "u = (dL/dphi', dL/dphi1', theta', theta1') independent, "
                       "(x_c', y_c') dependent - the same speeds as nonholo's "
                       "RollingDiskPendulum (Talamucci's momenta)",
            "qdot": "u = (phi', phi1', theta', theta1') independent, (x_c', y_c') "
                    "dependent - the usual SymPy choice",
        },
        q0=[0.1, -0.2, 0.3, 0.4, 0.05, -0.1], qd_ind0={2: 0.3, 3: 2.0, 4: 0.2, 5: -0.4},
        params_check={"c_phi": 0.2, "c_th1": 0.3, "tau": 0.5, "m_d": 1.2, "kappa": 0.45},
    ),
}


def derive(model, variant):
    """Form Kane's equations; returns (spec, kane, M_full, F_full, seconds)."""
    t0 = time.perf_counter()
    spec = MODELS[model]["build"](variant)
    kane = KanesMethod(spec.N, q_ind=spec.q, u_ind=spec.u_ind, u_dependent=spec.u_dep,
                       kd_eqs=spec.kdes, velocity_constraints=spec.vel_cons)
    kane.kanes_equations(spec.bodies, spec.loads)
    M, F = kane.mass_matrix_full, kane.forcing_full
    return spec, kane, M, F, time.perf_counter() - t0


def explicit_rhs(kane):
    """x' = f(q, u): kinematic equations and mass_matrix.LUsolve(forcing) (SymPy's
    KanesMethod.rhs())."""
    return kane.rhs()


def param_values(model, overrides=None):
    dsl = nonholo_dsl.load(MODELS[model]["dsl"], MODELS_SRC)
    vals = {p.name: dsl.defaults[p] for p in dsl.parameters}
    vals.update(overrides or {})
    return [p.name for p in dsl.parameters], vals


def pydy_generate(spec, kane, M, F, solver, tmp_dir=None):
    from pydy.codegen.ode_function_generators import generate_ode_function
    return generate_ode_function(F, spec.q, kane.u[:], spec.params, mass_matrix=M,
                                 generator="cython", constants_arg_type="array",
                                 linear_sys_solver=solver, tmp_dir=tmp_dir)


# --------------------------------------------------------------------------------------
# Worker: one timed step in a fresh interpreter (no warm SymPy cache from earlier runs)
# --------------------------------------------------------------------------------------


def worker(model, variant, task):
    warnings.simplefilter("ignore")
    out = {"task": task, "import_s": T_IMPORT}
    spec, kane, M, F, dt = derive(model, variant)
    out["derive_s"] = dt
    if task == "derive":
        out["ops_M"] = int(sm.count_ops(M))
        out["ops_F"] = int(sm.count_ops(F))
    elif task == "rhs":
        t0 = time.perf_counter()
        rhs = explicit_rhs(kane)
        out["rhs_s"] = time.perf_counter() - t0
        out["ops_rhs"] = int(sm.count_ops(rhs))
    elif task == "lambdify":
        t0 = time.perf_counter()
        sm.lambdify([spec.q, kane.u[:], spec.params], [M, F], cse=True)
        out["lambdify_s"] = time.perf_counter() - t0
    elif task in ("pydy-numpy", "pydy-sympy"):
        t0 = time.perf_counter()
        pydy_generate(spec, kane, M, F, task.split("-")[1])
        out["codegen_compile_s"] = time.perf_counter() - t0
    else:
        raise ValueError(task)
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("WORKER-RESULT " + json.dumps(out), flush=True)


def run_worker(model, variant, task, timeout, mem_gb):
    def limit():
        lim = int(mem_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))

    cmd = [sys.executable, os.path.abspath(__file__), "--worker", model, variant, task]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return {"task": task, "failed": f"did not finish within {timeout} s "
                                         f"(killed; memory limit {mem_gb} GB)"}
    for line in p.stdout.splitlines():
        if line.startswith("WORKER-RESULT "):
            return json.loads(line[len("WORKER-RESULT "):])
    tail = (p.stderr.strip().splitlines() or ["?"])[-1]
    return {"task": task, "failed": f"exit code {p.returncode} after "
                                     f"{time.perf_counter() - t0:.0f} s "
                                     f"(memory limit {mem_gb} GB): {tail}"}


# --------------------------------------------------------------------------------------
# Per-call timing
# --------------------------------------------------------------------------------------


def per_call_ns(fn, args, repeat=7):
    timer = timeit.Timer("fn(*args)", globals={"fn": fn, "args": args})
    number, _ = timer.autorange()                 # >= 0.2 s per sample
    samples = [s / number * 1e9 for s in timer.repeat(repeat=repeat, number=number)]
    return {"median_ns": statistics.median(samples), "min_ns": min(samples),
            "samples_ns": samples, "calls_per_sample": number}


# --------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------


def _subs_qd_symbols(exprs, q, qd):
    """Replace q(t), q'(t) by plain symbols (for lambdify)."""
    qs = sm.symbols("q0:%d" % len(q))
    qds = sm.symbols("qd0:%d" % len(q))
    rep = {d: s for d, s in zip(qd, qds)}
    out = [sm.sympify(e).xreplace(rep) for e in exprs]
    rep = {f: s for f, s in zip(q, qs)}
    return [e.xreplace(rep) for e in out], list(qs), list(qds)


def symbolic_checks(model, variant, spec, dsl):
    """The hand-built SymPy model against the DSL text, symbolically."""
    res = {}
    qd = spec.qd
    # kinetic and potential energy
    T_b = me.kinetic_energy(spec.N, *spec.bodies)
    res["T_bodies_minus_T_dsl"] = str(sm.simplify(sm.expand(T_b - dsl.T)))
    res["V_bodies_minus_V_dsl"] = str(sm.simplify(spec.V - dsl.V))
    # generalized forces of the loads = DSL forces - dV/dq
    N = spec.N
    diffs = []
    for j, (qj, qdj) in enumerate(zip(spec.q, qd)):
        Qj = 0
        for where, vec in spec.loads:
            if isinstance(where, ReferenceFrame):
                Qj += vec.dot(where.ang_vel_in(N).diff(qdj, N))
            else:
                Qj += vec.dot(where.vel(N).diff(qdj, N))
        expect = dsl.forces.get(qj, 0) - sm.diff(dsl.V, qj)
        diffs.append(str(sm.simplify(Qj - expect)))
    res["Q_loads_minus_Q_dsl"] = diffs
    # constraints: no-slip of the material contact point vs the DSL constraints
    res["constraints_minus_dsl"] = [str(sm.simplify(a - b))
                                    for a, b in zip(spec.vel_cons, dsl.constraints)]
    # speeds: what Kane's independent speeds are vs nonholo's speeds (where the same)
    if (model, variant) in (("vertical_disk", "nonholo_speeds"),
                            ("rolling_disk_pendulum", "momenta")):
        res["speeds_minus_dsl_speeds"] = [str(sm.simplify(a - b)) for a, b in
                                          zip(spec.udefs, dsl.speeds)]
    if model == "rolling_disk_pendulum" and variant == "momenta":
        # and they are the momenta of the body model
        res["speeds_minus_dT_dqdot"] = [
            str(sm.simplify(sm.expand(spec.udefs[0] - T_b.diff(qd[2])))),
            str(sm.simplify(sm.expand(spec.udefs[1] - T_b.diff(qd[3]))))]
    flat = [res["T_bodies_minus_T_dsl"], res["V_bodies_minus_V_dsl"]] + diffs \
        + res["constraints_minus_dsl"] + res.get("speeds_minus_dsl_speeds", []) \
        + res.get("speeds_minus_dT_dqdot", [])
    res["all_zero"] = all(s == "0" for s in flat)
    return res


class Numeric:
    """Numeric functions of one derived model (Kane) and of the DSL oracle."""

    def __init__(self, model, variant, spec, kane, M, F, dsl, rhs_expr=None):
        self.model, self.variant = model, variant
        self.spec, self.kane, self.dsl = spec, kane, dsl
        self.n, self.o = len(spec.q), len(kane.u)
        q, u, p = spec.q, kane.u[:], spec.params
        self.f_MF = sm.lambdify([q, u, p], [M, F], cse=True)
        self.f_rhs = (sm.lambdify([q, u, p], rhs_expr, cse=True)
                      if rhs_expr is not None else None)
        # kinematics q' = K(q, u) and its partials (to get q'' from u')
        K = sm.Matrix([kane.kindiffdict()[d] for d in spec.qd])
        self.f_K = sm.lambdify([q, u, p], [K, K.jacobian(q), K.jacobian(u)], cse=True)
        # u from (q, q') (the kinematic differential equations)
        udefs, qs, qds = _subs_qd_symbols(spec.udefs, q, spec.qd)
        self.f_u = sm.lambdify([qs, qds, p], udefs)
        # energy of the body model
        E, _, _ = _subs_qd_symbols([me.kinetic_energy(spec.N, *spec.bodies) + spec.V],
                                   q, spec.qd)
        self.f_E = sm.lambdify([qs, qds, p], E[0])
        # DSL: constraints, speeds z(q, q') and their partials
        Cd, _, _ = _subs_qd_symbols(dsl.constraints, q, spec.qd)
        Cm = sm.Matrix(Cd)
        self.f_C = sm.lambdify([qs, qds, p], Cm)
        self.f_Cjac = sm.lambdify([qs, p], Cm.jacobian(qds))
        Zd, _, _ = _subs_qd_symbols(dsl.speeds, q, spec.qd)
        Z = sm.Matrix(Zd)
        self.f_Z = sm.lambdify([qs, qds, p], [Z, Z.jacobian(qs), Z.jacobian(qds)])
        self.qs, self.qds = qs, qds
        self._oracle = None

    # state conversions -------------------------------------------------------------
    def qd_from_ind(self, q, qd_ind, p):
        """Complete the independent velocities with the dependent ones (constraints)."""
        n = self.n
        dep = self.spec.dependent_qd
        ind = [j for j in range(n) if j not in dep]
        qd = np.zeros(n)
        for j, v in qd_ind.items():
            qd[j] = v
        Cj = np.array(self.f_Cjac(q, p), dtype=float)      # C = Cj qd (no affine part)
        qd[dep] = np.linalg.solve(Cj[:, dep], -Cj[:, ind] @ qd[ind])
        return qd

    def kane_state(self, q, qd, p):
        return np.concatenate([q, np.array(self.f_u(q, qd, p), dtype=float)])

    def nonholo_state(self, q, qd, p):
        Z, _, _ = self.f_Z(q, qd, p)
        return np.concatenate([q, np.array(Z, dtype=float).ravel()])

    # right-hand sides --------------------------------------------------------------
    def rhs_MF(self, x, p):
        Mv, Fv = self.f_MF(x[:self.n], x[self.n:], p)
        return np.linalg.solve(Mv, Fv).ravel()

    def to_nonholo_rhs(self, x, xdot, p):
        """Kane's x' = (q', u') -> nonholo's (q', z') with z = the DSL speeds."""
        q, u = x[:self.n], x[self.n:]
        K, Kq, Ku = (np.array(a, dtype=float) for a in self.f_K(q, u, p))
        qd = K.ravel()
        qdd = Kq @ qd + Ku @ xdot[self.n:]
        Z, Zq, Zqd = (np.array(a, dtype=float) for a in self.f_Z(q, qd, p))
        return np.concatenate([qd, Zq @ qd + Zqd @ qdd])

    def oracle_nonholo_rhs(self, q, qd, p):
        """Independent check: Lagrange's equations with multipliers for the DSL's
        L = T - V, forces and constraints, solved numerically (KKT system)."""
        if self._oracle is None:
            dsl, qs, qds = self.dsl, self.qs, self.qds
            L, _, _ = _subs_qd_symbols([dsl.T - dsl.V], self.spec.q, self.spec.qd)
            L = L[0]
            Lqd = sm.Matrix([L.diff(v) for v in qds])
            Mq = Lqd.jacobian(qds)
            h = sm.Matrix([L.diff(v) for v in qs]) - Lqd.jacobian(qs) * sm.Matrix(qds)
            Qf, _, _ = _subs_qd_symbols([dsl.forces.get(qj, 0) for qj in self.spec.q],
                                        self.spec.q, self.spec.qd)
            Cd, _, _ = _subs_qd_symbols(dsl.constraints, self.spec.q, self.spec.qd)
            Cm = sm.Matrix(Cd)
            A = Cm.jacobian(qds)
            Adot_qd = Cm.jacobian(qs) * sm.Matrix(qds)    # C linear in qd, no t
            self._oracle = sm.lambdify([qs, qds, self.spec.params],
                                       [Mq, h + sm.Matrix(Qf), A, Adot_qd])
        Mq, rhs, A, ad = (np.array(a, dtype=float) for a in self._oracle(q, qd, p))
        n, m = self.n, A.shape[0]
        K = np.block([[Mq, -A.T], [A, np.zeros((m, m))]])
        sol = np.linalg.solve(K, np.concatenate([rhs.ravel(), -ad.ravel()]))
        qdd = sol[:n]
        Z, Zq, Zqd = (np.array(a, dtype=float) for a in self.f_Z(q, qd, p))
        return np.concatenate([qd, Zq @ qd + Zqd @ qdd])

    def energy_run(self, x0, p, t1=2.0):
        from scipy.integrate import solve_ivp
        sol = solve_ivp(lambda tt, x: self.rhs_MF(x, p), (0.0, t1), x0,
                        method="DOP853", rtol=1e-12, atol=1e-12, dense_output=False,
                        t_eval=np.linspace(0.0, t1, 201))
        E, C = [], []
        for x in sol.y.T:
            K, _, _ = self.f_K(x[:self.n], x[self.n:], p)
            qd = np.array(K, dtype=float).ravel()
            E.append(self.f_E(x[:self.n], qd, p))
            C.append(np.max(np.abs(np.array(self.f_C(x[:self.n], qd, p), dtype=float))))
        E = np.array(E)
        return {"t1": t1, "integrator": "scipy solve_ivp DOP853 rtol=atol=1e-12",
                "energy0": float(E[0]),
                "max_rel_energy_drift": float(np.max(np.abs(E - E[0])) / abs(E[0])),
                "max_constraint_residual": float(max(C)),
                "final_state_kane": [float(v) for v in sol.y[:, -1]]}


def rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300))


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
    import Cython
    import pydy
    import scipy
    try:
        gcc = subprocess.run(["gcc", "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    except Exception:
        gcc = "?"
    return {
        "cpu": cpu, "logical_cpus": os.cpu_count(),
        "kernel": platform.release(), "machine": platform.machine(),
        "python": platform.python_version(), "sympy": sm.__version__,
        "pydy": pydy.__version__, "cython": Cython.__version__,
        "numpy": np.__version__, "scipy": scipy.__version__, "gcc": gcc,
        "cflags": __import__("sysconfig").get_config_var("CFLAGS"),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "loadavg_start": list(os.getloadavg()),
    }


def median_of(runs, key):
    vals = [r[key] for r in runs if key in r]
    return statistics.median(vals) if vals else None


def bench_variant(model, variant, args, log):
    info = MODELS[model]
    res = {"description": info["variants"][variant]}
    log(f"== {model} / {variant}: {res['description']}")

    # ---- (a) derivation and code-generation times, fresh interpreter per sample ----
    timing = {}
    tasks = [("derive", args.runs), ("rhs", args.codegen_runs),
             ("lambdify", args.codegen_runs), ("pydy-numpy", args.codegen_runs),
             ("pydy-sympy", args.codegen_runs)]
    for task, n in tasks:
        runs = []
        for i in range(n):
            r = run_worker(model, variant, task, args.timeout, args.mem_gb)
            runs.append(r)
            log(f"   {task} #{i + 1}: " + ", ".join(
                f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                for k, v in r.items() if k != "task"))
            if "failed" in r:
                break                      # do not repeat a run that blew up
        timing[task] = runs
    res["worker_runs"] = timing
    d = timing["derive"]
    res["derivation"] = {
        "to_M_F_s_median": median_of(d, "derive_s"),
        "to_M_F_s_samples": [r.get("derive_s") for r in d],
        "explicit_rhs_extra_s_median": median_of(timing["rhs"], "rhs_s"),
        "explicit_rhs_failed": next((r["failed"] for r in timing["rhs"]
                                     if "failed" in r), None),
        "sympy_import_s_median": median_of(d, "import_s"),
        "count_ops_M_full": d[0].get("ops_M"), "count_ops_F_full": d[0].get("ops_F"),
        "count_ops_explicit_rhs": next((r["ops_rhs"] for r in timing["rhs"]
                                        if "ops_rhs" in r), None),
        "kane_state_dim": None, "maxrss_mb_derive": median_of(d, "maxrss_mb"),
    }
    if res["derivation"]["to_M_F_s_median"] is not None and \
            res["derivation"]["explicit_rhs_extra_s_median"] is not None:
        res["derivation"]["to_explicit_rhs_s_median"] = (
            res["derivation"]["to_M_F_s_median"]
            + res["derivation"]["explicit_rhs_extra_s_median"])

    # ---- in-process: build once, then per-call timings and checks ----
    warnings.simplefilter("ignore")
    spec, kane, M, F, _ = derive(model, variant)
    dsl = nonholo_dsl.load(info["dsl"], MODELS_SRC)
    assert [p.name for p in spec.params] == [p.name for p in dsl.parameters], \
        "parameter order differs from the Rust struct"
    res["derivation"]["kane_state_dim"] = len(spec.q) + len(kane.u)
    res["nonholo_state_dim"] = len(spec.q) + len(dsl.speeds)
    rhs_expr = None
    if res["derivation"]["explicit_rhs_failed"] is None:
        rhs_expr = explicit_rhs(kane)
    num = Numeric(model, variant, spec, kane, M, F, dsl, rhs_expr)

    names, pdef = param_values(model)
    p = np.array([pdef[k] for k in names])
    q0 = np.array(info["q0"], dtype=float)
    qd0 = num.qd_from_ind(q0, info["qd_ind0"], p)
    x0 = num.kane_state(q0, qd0, p)
    t0 = 0.0
    res["state"] = {"q": q0.tolist(), "qdot": qd0.tolist(), "kane_x": x0.tolist(),
                    "nonholo_state": num.nonholo_state(q0, qd0, p).tolist()}

    # ---- (b) lambdify ----
    lam = {}
    t_ = time.perf_counter()
    f_MF = sm.lambdify([spec.q, kane.u[:], spec.params], [M, F], cse=True)
    lam["lambdify_MF_s_in_process"] = time.perf_counter() - t_
    n = len(spec.q)

    def rhs_lambdify_MF(tt, x):
        Mv, Fv = f_MF(x[:n], x[n:], p)
        return np.linalg.solve(Mv, Fv).ravel()

    lam["MF_solve"] = per_call_ns(rhs_lambdify_MF, (t0, x0))
    lam["MF_solve"]["what"] = ("rhs(t, x): M, F = lambdify([q, u, p], [M_full, F_full], "
                               "cse=True)(x[:n], x[n:], p); numpy.linalg.solve(M, F)")
    log(f"   lambdify M,F + solve: {lam['MF_solve']['median_ns']:.0f} ns/call")
    if rhs_expr is not None:
        f_rhs = sm.lambdify([spec.q, kane.u[:], spec.params], rhs_expr, cse=True)

        def rhs_lambdify_explicit(tt, x):
            return f_rhs(x[:n], x[n:], p).ravel()

        lam["explicit_rhs"] = per_call_ns(rhs_lambdify_explicit, (t0, x0))
        lam["explicit_rhs"]["what"] = ("rhs(t, x) = lambdify([q, u, p], "
                                       "KanesMethod.rhs(), cse=True)(x[:n], x[n:], p)")
        log(f"   lambdify explicit rhs: {lam['explicit_rhs']['median_ns']:.0f} ns/call")
    res["lambdify"] = lam

    # ---- (c) PyDy Cython ----
    pyd = {}
    pydy_fns = {}
    for solver in ("numpy", "sympy"):
        tmp = os.path.join(BUILD, f"{model}_{variant}_{solver}")
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            t_ = time.perf_counter()
            f = pydy_generate(spec, kane, M, F, solver, tmp_dir=tmp)
            gen_s = time.perf_counter() - t_
        except Exception as e:  # report, do not hide
            pyd[solver] = {"failed": f"{type(e).__name__}: {e}",
                           "traceback": traceback.format_exc()}
            log(f"   PyDy cython {solver}: FAILED {e}")
            continue
        pydy_fns[solver] = f
        entry = per_call_ns(f, (x0, t0, p))
        entry["codegen_compile_s_in_process"] = gen_s
        runs = timing[f"pydy-{solver}"]
        entry["codegen_compile_s_median"] = median_of(runs, "codegen_compile_s")
        entry["codegen_compile_s_samples"] = [r.get("codegen_compile_s") for r in runs]
        entry["what"] = (f"rhs(x, t, p) from generate_ode_function(F_full, q, u, p, "
                         f"mass_matrix=M_full, generator='cython', "
                         f"constants_arg_type='array', linear_sys_solver='{solver}')")
        # For context only: the compiled Cython `eval` (C code plus the Cython call,
        # without PyDy's Python wrapper and, for 'numpy', without the solve).
        cells = dict(zip(f.__code__.co_freevars, f.__closure__ or ()))
        gen = cells["self"].cell_contents if "self" in cells else None
        if gen is not None:
            raw = per_call_ns(gen.eval_arrays, (x0[:n], x0[n:], p))
            entry["raw_cython_eval_ns"] = raw["median_ns"]
        csrc = [fn for fn in os.listdir(tmp) if fn.endswith("_c.c")]
        if csrc:
            entry["generated_c_lines"] = sum(1 for _ in open(os.path.join(tmp, csrc[0])))
        pyd[solver] = entry
        log(f"   PyDy cython ({solver} solve): {entry['median_ns']:.0f} ns/call, "
            f"codegen+compile {entry['codegen_compile_s_median']} s")
    res["pydy_cython"] = pyd

    # ---- checks ----
    chk = {"symbolic": symbolic_checks(model, variant, spec, dsl)}
    log(f"   symbolic checks all zero: {chk['symbolic']['all_zero']}")
    for label, overrides in (("default_parameters", None),
                             ("all_terms_parameters", info["params_check"])):
        names, pv = param_values(model, overrides)
        pp = np.array([pv[k] for k in names])
        qd = num.qd_from_ind(q0, info["qd_ind0"], pp)
        x = num.kane_state(q0, qd, pp)
        xdot = num.rhs_MF(x, pp)
        nh = num.to_nonholo_rhs(x, xdot, pp)
        oracle = num.oracle_nonholo_rhs(q0, qd, pp)
        c = {"parameters": pv, "nonholo_state": num.nonholo_state(q0, qd, pp).tolist(),
             "kane_x": x.tolist(), "kane_xdot": xdot.tolist(),
             "nonholo_rhs_from_sympy": nh.tolist(),
             "nonholo_rhs_from_lagrange_oracle": oracle.tolist(),
             "rel_err_sympy_vs_oracle": rel(nh, oracle)}
        if num.f_rhs is not None:
            c["rel_err_explicit_rhs_vs_MF"] = rel(
                np.array(num.f_rhs(x[:n], x[n:], pp), dtype=float).ravel(), xdot)
        for solver, f in pydy_fns.items():
            c[f"rel_err_pydy_{solver}_vs_lambdify"] = rel(f(x, 0.0, pp), xdot)
        if model == "rolling_disk_pendulum" and variant == "momenta":
            # Kane's u' are the momenta' directly
            c["rel_err_udot_vs_chain_rule"] = rel(xdot[n:n + 4], nh[n:])
        chk[label] = c
        log(f"   {label}: |sympy - oracle|/|oracle| = {c['rel_err_sympy_vs_oracle']:.1e}; "
            + ", ".join(f"{k}={v:.1e}" for k, v in c.items() if k.startswith("rel_err_")
                        and k != "rel_err_sympy_vs_oracle"))
    # energy (default parameters are conservative except that alpha = 0 makes the
    # vertical disk trivial, so use the all-terms set there)
    e_over = info["params_check"] if model == "vertical_disk" else None
    names, pv = param_values(model, e_over)
    pp = np.array([pv[k] for k in names])
    qd = num.qd_from_ind(q0, info["qd_ind0"], pp)
    chk["energy"] = num.energy_run(num.kane_state(q0, qd, pp), pp)
    chk["energy"]["parameters"] = pv
    log(f"   energy drift {chk['energy']['max_rel_energy_drift']:.1e} rel, constraint "
        f"residual {chk['energy']['max_constraint_residual']:.1e} over "
        f"{chk['energy']['t1']} s")
    res["checks"] = chk
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", nargs=3, metavar=("MODEL", "VARIANT", "TASK"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--runs", type=int, default=5,
                    help="fresh-interpreter samples of the derivation time (default 5)")
    ap.add_argument("--codegen-runs", type=int, default=3,
                    help="samples of explicit-rhs, lambdify and PyDy codegen+compile "
                         "times (default 3)")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds before a worker is killed (default 600)")
    ap.add_argument("--mem-gb", type=float, default=6,
                    help="address-space limit of a worker in GB (default 6)")
    ap.add_argument("--models", nargs="*", default=list(MODELS))
    ap.add_argument("--out", default=os.path.join(HERE, "results.json"))
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker)
        return

    def log(msg):
        print(msg, flush=True)

    os.makedirs(BUILD, exist_ok=True)
    results = {"machine": machine_info(), "models": {}}
    log(json.dumps(results["machine"], indent=1))
    for model in args.models:
        info = MODELS[model]
        entry = {"dsl_struct": info["dsl"], "variants": {}}
        names, pdef = param_values(model)
        entry["default_parameters"] = pdef
        for variant in info["variants"]:
            entry["variants"][variant] = bench_variant(model, variant, args, log)
        results["models"][model] = entry
    results["machine"]["loadavg_end"] = list(os.getloadavg())
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
