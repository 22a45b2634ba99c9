#!/usr/bin/env python3
"""Reference solutions for `nonholo::control` (nonholo-runtime/src/control.rs).

Computes, with SciPy, the stabilizing solutions of the continuous and discrete algebraic
Riccati equations, the LQR gains and the zero-order-hold discretizations of a handful of
systems, and writes them as Rust literal data to `reference.rs` beside this script; the
unit tests of `control.rs` `include!` that file and compare against it.

    pip install scipy
    python3 nonholo-runtime/tests/data/control/make_reference.py

Every number is written with 17 significant digits (it reads back as the same double).
"""

import os

import numpy as np
import scipy
from scipy.linalg import solve, solve_continuous_are, solve_discrete_are
from scipy.signal import cont2discrete

HERE = os.path.dirname(os.path.abspath(__file__))


def double_integrator():
    a = np.array([[0.0, 1.0], [0.0, 0.0]])
    b = np.array([[0.0], [1.0]])
    return a, b


def cart_pole():
    # Inverted pendulum on a cart, linearized upright (the classic CTMS numbers):
    # cart mass M, pendulum mass m, friction b, pendulum inertia I about its centre,
    # centre at distance l from the pivot; state [x, x', theta, theta'], input force.
    big_m, m, fric, inertia, g, l = 0.5, 0.2, 0.1, 0.006, 9.81, 0.3
    p = inertia * (big_m + m) + big_m * m * l**2
    a = np.array(
        [
            [0.0, 1.0, 0.0, 0.0],
            [0.0, -(inertia + m * l**2) * fric / p, (m**2 * g * l**2) / p, 0.0],
            [0.0, 0.0, 0.0, 1.0],
            [0.0, -(m * l * fric) / p, m * g * l * (big_m + m) / p, 0.0],
        ]
    )
    b = np.array([[0.0], [(inertia + m * l**2) / p], [0.0], [m * l / p]])
    return a, b


def bicycle(v):
    # Whipple bicycle, Meijaard et al. (2007) benchmark: state [roll, steer, roll rate,
    # steer rate], input steer torque.
    mm = np.array([[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]])
    c1 = np.array([[0.0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]])
    k0 = np.array([[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]])
    k2 = np.array([[0.0, 76.59734589573222], [0.0, 2.65431523794604]])
    g = 9.81
    minv = np.linalg.inv(mm)
    a = np.zeros((4, 4))
    a[0:2, 2:4] = np.eye(2)
    a[2:4, 0:2] = -minv @ (g * k0 + v**2 * k2)
    a[2:4, 2:4] = -minv @ (v * c1)
    b = np.zeros((4, 1))
    b[2:4, 0] = minv @ np.array([0.0, 1.0])
    return a, b


def random_system(seed, n, m, shift):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n)) + shift * np.eye(n)
    b = rng.standard_normal((n, m))
    c = rng.standard_normal((n, n))
    q = c.T @ c / n + 0.1 * np.eye(n)
    d = rng.standard_normal((m, m))
    r = d.T @ d + 0.5 * np.eye(m)
    return a, b, q, r


def continuous_cases():
    cases = []
    a, b = double_integrator()
    cases.append(("double_integrator", a, b, np.eye(2), np.eye(1), 0.1))
    # Q singular but (Q, A) detectable: only the position is weighted.
    cases.append(("double_integrator_position_only", a, b, np.diag([1.0, 0.0]), np.array([[0.01]]), 0.1))
    # (Q, A) not detectable: the unstable mode x1 is not weighted. The stabilizing solution
    # still exists (it mirrors the pole at 1 to -1); the one with P >= 0 minimal does not
    # stabilize.
    a = np.array([[1.0, 0.0], [0.0, -1.0]])
    cases.append(("unweighted_unstable_mode", a, np.array([[1.0], [1.0]]), np.diag([0.0, 1.0]), np.eye(1), 0.1))
    a, b = cart_pole()
    cases.append(("cart_pole", a, b, np.diag([10.0, 1.0, 100.0, 1.0]), np.array([[0.1]]), 0.02))
    # The same cart in badly chosen units: positions in mm, speeds in mm/s (x = D x_mm).
    d = np.diag([1e3, 1e3, 1.0, 1.0])
    di = np.linalg.inv(d)
    cases.append(("cart_pole_mm", d @ a @ di, d @ b, di @ np.diag([10.0, 1.0, 100.0, 1.0]) @ di, np.array([[0.1]]), 0.02))
    a, b = bicycle(3.0)
    cases.append(("bicycle_3ms", a, b, np.eye(4), np.eye(1), 0.01))
    a, b = bicycle(5.0)
    cases.append(("bicycle_5ms", a, b, np.diag([1.0, 1.0, 0.1, 0.1]), np.array([[0.5]]), 0.01))
    a, b, q, r = random_system(1, 5, 2, -3.0)
    if np.max(np.linalg.eigvals(a).real) >= 0:
        raise SystemExit("random_stable is not stable: change the seed")
    cases.append(("random_stable_2in", a, b, q, r, 0.05))
    a, b, q, r = random_system(2, 5, 2, 0.5)
    if np.max(np.linalg.eigvals(a).real) <= 0:
        raise SystemExit("random_unstable is not unstable: change the seed")
    cases.append(("random_unstable_2in", a, b, q, r, 0.05))
    return cases


def discrete_cases():
    cases = []
    # A nilpotent shift (Ad singular): the doubling algorithm must not need Ad^-1.
    ad = np.array([[0.0, 1.0], [0.0, 0.0]])
    bd = np.array([[0.0], [1.0]])
    cases.append(("shift_register", ad, bd, np.eye(2), np.eye(1)))
    # (Q, Ad) not detectable, as above.
    ad = np.array([[1.5, 0.0], [0.0, 0.5]])
    cases.append(("unweighted_unstable_mode_discrete", ad, np.array([[1.0], [1.0]]), np.diag([0.0, 1.0]), np.eye(1)))
    rng = np.random.default_rng(3)
    ad = rng.standard_normal((3, 3))
    ad *= 1.3 / np.max(np.abs(np.linalg.eigvals(ad)))  # spectral radius 1.3: unstable
    bd = rng.standard_normal((3, 2))
    cases.append(("random_unstable_2in_discrete", ad, bd, np.diag([1.0, 2.0, 0.5]), np.array([[1.0, 0.2], [0.2, 0.5]])))
    return cases


def lit(x):
    return "%.16e" % float(x)  # 17 significant digits


def arr(m):
    return "&[" + ", ".join(lit(x) for x in np.asarray(m).reshape(-1)) + "]"


def main():
    out = []
    out.append("// @generated by make_reference.py (SciPy %s, NumPy %s): do not edit." % (scipy.__version__, np.__version__))
    out.append("// Row-major matrices; P and K of the stabilizing CARE/DARE solutions, u = -K x.")
    out.append("")
    out.append("pub(super) const CONTINUOUS: &[ContinuousCase] = &[")
    for name, a, b, q, r, dt in continuous_cases():
        n, m = b.shape
        p = solve_continuous_are(a, b, q, r)
        k = solve(r, b.T @ p)
        ad, bd, _, _, _ = cont2discrete((a, b, np.eye(n), np.zeros((n, m))), dt, method="zoh")
        pd = solve_discrete_are(ad, bd, q, r)
        kd = solve(r + bd.T @ pd @ bd, bd.T @ pd @ ad)
        out.append("    ContinuousCase {")
        out.append('        name: "%s",' % name)
        out.append("        n: %d," % n)
        out.append("        m: %d," % m)
        for label, mat in (("a", a), ("b", b), ("q", q), ("r", r)):
            out.append("        %s: %s," % (label, arr(mat)))
        out.append("        p: %s," % arr(p))
        out.append("        k: %s," % arr(k))
        out.append("        dt: %s," % lit(dt))
        out.append("        ad: %s," % arr(ad))
        out.append("        bd: %s," % arr(bd))
        out.append("        pd: %s," % arr(pd))
        out.append("        kd: %s," % arr(kd))
        out.append("    },")
    out.append("];")
    out.append("")
    out.append("pub(super) const DISCRETE: &[DiscreteCase] = &[")
    for name, ad, bd, q, r in discrete_cases():
        n, m = bd.shape
        pd = solve_discrete_are(ad, bd, q, r)
        kd = solve(r + bd.T @ pd @ bd, bd.T @ pd @ ad)
        out.append("    DiscreteCase {")
        out.append('        name: "%s",' % name)
        out.append("        n: %d," % n)
        out.append("        m: %d," % m)
        for label, mat in (("ad", ad), ("bd", bd), ("q", q), ("r", r)):
            out.append("        %s: %s," % (label, arr(mat)))
        out.append("        pd: %s," % arr(pd))
        out.append("        kd: %s," % arr(kd))
        out.append("    },")
    out.append("];")
    with open(os.path.join(HERE, "reference.rs"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
