"""Kane's equations for a nonholonomic multibody model in CasADi SX symbolics, shared by
optimal_casadi_bicycle.py and optimal_casadi_parking.py (each builds its frames, points,
bodies and constraint rows, this module the rest).

Frames are rotation matrices from N (columns: the frame's unit vectors in N components),
`rot` one rotation about a parent's axis, `vec` a vector given in a frame's components;
points and angular velocities are 3-vectors in N components, expressions of the
coordinates q and their rates qd = dot(q) (a symbol of its own: `dt(e, q, qd)` is
(de/dq) qd, the time derivative of an expression of q; of an expression of q and qd, the
part through q only).

`kane` takes the constraint rows C(q) qd = 0 (as expressions linear in qd; C = d rows /
d qd) and splits the rates into the independent ones, the speeds z = qd[independent], and
the dependent ones, solved from the rows: qdot = Psi(q) z, with Psi[independent] = 1 and
Psi[dependent] = -C_d^-1 C_i. Differentiating the rows, C qddot + (dC/dt) qdot = 0, gives
qddot = Psi zdot + a, with a[independent] = 0 and a[dependent] = -C_d^-1 (dC/dt) qdot
(one solve with C_d for both). A body's centre velocity is v = dt(centre) = Jv qdot and
its angular velocity w = Jw qdot (Jv = dv/dqd, Jw = dw/dqd); its partial velocities are
Jv Psi and Jw Psi, its accelerations a_c = Jv (Psi zdot + a) + (dJv/dt) qdot and alpha
likewise (dt(v) is (dJv/dt) qdot, v being linear in qd). Kane's equations,

    sum_bodies (Jv Psi)^T (m gravity - m a_c) + (Jw Psi)^T (tau - I alpha - w x I w) = 0,

with I = F I_F F^T the inertia in N components (I_F: its tensor in the body's frame F)
and tau the applied torque, are linear in zdot: M_z zdot = F_z, with

    M_z = sum_bodies m (Jv Psi)^T (Jv Psi) + (Jw Psi)^T I (Jw Psi),
    F_z = sum_bodies (Jv Psi)^T (m gravity - m (Jv a + dt(v)))
                     + (Jw Psi)^T (tau - I (Jw a + dt(w)) - w x I w).

The right-hand side is [qdot, zdot] = [Psi z, M_z^-1 F_z] with qd replaced by Psi z,
shrunk by ca.cse. Applied forces other than gravity, and constraint forces, do not enter
(the latter do no work through the partial velocities).
"""

import casadi as ca


def rot(axis, a):
    """The child frame's basis in the parent's components (columns), rotated by `a`
    about the parent's `axis` (right-handed)."""
    c, s = ca.cos(a), ca.sin(a)
    if axis == "x":
        return ca.vertcat(ca.horzcat(1, 0, 0), ca.horzcat(0, c, -s), ca.horzcat(0, s, c))
    if axis == "y":
        return ca.vertcat(ca.horzcat(c, 0, s), ca.horzcat(0, 1, 0), ca.horzcat(-s, 0, c))
    return ca.vertcat(ca.horzcat(c, -s, 0), ca.horzcat(s, c, 0), ca.horzcat(0, 0, 1))


def vec(frame, a, b, c):
    """F[a, b, c] in N components (frame: its rotation matrix from N)."""
    return frame @ ca.vertcat(a, b, c)


def dt(e, q, qd):
    """d/dt of an expression of q (and qd: then the part through q only): (de/dq) qd."""
    return ca.jtimes(e, q, qd)


def inertia(ixx, iyy, izz, izx=0.0):
    """The inertia tensor in its frame's components, products as entries (Meijaard's
    convention: I_xz = izx, no sign change); the models' bodies are symmetric about
    their xz planes, so there are no xy, yz products."""
    return ca.DM([[ixx, 0, izx], [0, iyy, 0], [izx, 0, izz]])


def dependent_rates(q, qd, rows, independent, dependent):
    """Psi and a of qdot = Psi(q) z, qddot = Psi zdot + a, from the constraint rows
    C(q) qd = 0 (z = qd[independent]; C_d = C[:, dependent], C_i = C[:, independent]):
    Psi[dependent] = -C_d^-1 C_i, a[dependent] = -C_d^-1 (dC/dt) qd (an expression of
    q and qd), the independent rows 1 and 0."""
    nq, nz = q.numel(), len(independent)
    C = ca.jacobian(rows, qd)
    # one solve for both: qd_dep = -Cd^-1 Ci z and the acceleration part
    # a_dep = -Cd^-1 (dC/dt) qd (C qdd + (dC/dt) qd = 0 with qdd = Psi zdot + a)
    sol = ca.solve(C[:, dependent], ca.horzcat(C[:, independent], dt(rows, q, qd)))
    Psi = ca.SX(nq, nz)
    Psi[dependent, :] = -sol[:, :nz]
    Psi[independent, :] = ca.SX.eye(nz)
    a = ca.SX(nq, 1)
    a[dependent] = -sol[:, nz]
    return Psi, a


def kane(q, qd, zs, u, rows, independent, dependent, bodies, gravity):
    """The right-hand side rhs(state, u) = [qdot, zdot] of state [q, z], a CasADi SX
    function (the module docstring has the equations). q, qd, zs, u: SX symbols of the
    coordinates, their rates (replaced by Psi z in the result), the speeds z =
    qd[independent] and the inputs; rows: the constraint rows C(q) qd = 0; independent,
    dependent: the indices of q splitting the rates; bodies: tuples (angular velocity,
    inertia frame, centre, mass, inertia tensor in that frame, applied torque), vectors
    in N components; gravity: the gravitational acceleration in N components (g N.z with
    z down, -g N.z with z up)."""
    nz = len(independent)
    Psi, a = dependent_rates(q, qd, rows, independent, dependent)
    # Kane's equations: partial (angular) velocities Jv Psi, Jw Psi; the accelerations at
    # zdot = 0 are Jv a + (dJv/dt) qd, and the same for the angular ones
    Mz = ca.SX.zeros(nz, nz)
    Fz = ca.SX.zeros(nz)
    for om, F, ctr, m, I, tau in bodies:
        v = dt(ctr, q, qd)
        Jv, Jw = ca.jacobian(v, qd), ca.jacobian(om, qd)
        acc = Jv @ a + dt(v, q, qd)
        alpha = Jw @ a + dt(om, q, qd)
        IN = F @ I @ F.T  # the inertia in N components
        Vr, Wr = Jv @ Psi, Jw @ Psi
        Mz += m * Vr.T @ Vr + Wr.T @ IN @ Wr
        Fz += Vr.T @ (m * gravity - m * acc) + Wr.T @ (tau - IN @ alpha - ca.cross(om, IN @ om))
    zdot = ca.solve(Mz, Fz)
    qdot = Psi @ zs
    rhs_expr = ca.cse(ca.substitute(ca.vertcat(qdot, zdot), qd, qdot))
    return ca.Function("rhs", [ca.vertcat(q, zs), u], [rhs_expr])
