"""Reference dynamics from Pinocchio for the URDF front-end (`urdf "file.urdf" { ... }`).

For each robot below (URDF files in tests/data/urdf/, unmodified copies from the
example-robot-data package) and each of 4 seeded random states, this writes Pinocchio's
accelerations (`aba`, gravity (0, 0, -9.81), the URDF's joint damping applied as
tau - damping * qdot) and joint-space inertia (`crba`), converted to nonholo's
coordinates, to tests/data/pinocchio_urdf.json.

Held joints (a robot's `hold` list, URDF joint names; nonholo's `hold { .. }`) are fixed at
q = 0, their child links merged into the parent: the reference then comes from Pinocchio's
`buildReducedModel` with those joints locked at 0, and they have no coordinate. A `<mimic>`
joint must be held together with the joint it mimics (Pinocchio reads the file with
mimic=False, so both are ordinary joints there, fixed at 0 once reduced).

Our coordinates: one per moving URDF joint (revolute, continuous, prismatic) not held, named after
the joint with characters outside [A-Za-z0-9_] mapped to `_`, in Pinocchio's joint order
(depth first from the root link; see the `coordinates` key). A continuous joint's
coordinate is its angle (Pinocchio's q holds (cos, sin)). A floating root comes first as
x, y, z, yaw, pitch, roll: the root link's origin in the world frame and its orientation
R = Rz(yaw) Ry(pitch) Rx(roll). Pinocchio's free-flyer has q = (p, quaternion xyzw of R)
and v = (R^T pdot, omega_body), so v = J(q) qdot and a = J qddot + Jdot qdot; the script
stores qddot = J^-1 (a - Jdot qdot), M = J^T M_pin J and bias = J^T rnea(q, v, Jdot qdot)
+ damping * qdot, so that M qddot + bias = tau holds in our coordinates (tau: the joints'
torques/forces, zero for the root's six coordinates).

Self-checks (asserted): J and Jdot against central differences; v and a against
Pinocchio's own Lie-group `difference` along q(t) = q + t qdot + t^2/2 qddot; qddot from
`aba` against the solution of M qddot = tau - bias (crba and rnea, an independent route);
the URDF's damping against Pinocchio's model.damping and that aba/rnea leave it out;
total mass against computeTotalMass (of the reduced model too); every link with mass has a
central inertia a rigid body can have (positive definite, I1 + I2 >= I3); for held joints,
that the reduced model's M and bias equal the full model's rows and columns of the free
coordinates at the held joints' q = qdot = qddot = 0 (so the reduction is just the hold).

Each robot's `links` lists the URDF's links in file order with their mass (0.0 where the link
has no <inertial>; those are also in `links_without_inertial`).

Needs Pinocchio and example-robot-data from PyPI (the venv of run.sh does too):

    pip install pin example-robot-data
    python3 bench/pinocchio/urdf_reference.py          # writes tests/data/pinocchio_urdf.json
"""

import hashlib
import importlib.metadata
import json
import math
import os
import re
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pinocchio as pin

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
URDF_DIR = os.path.join(ROOT, "tests", "data", "urdf")
OUT = os.path.join(ROOT, "tests", "data", "pinocchio_urdf.json")

# (name, URDF file in tests/data/urdf, root kind, held URDF joints)
ROBOTS = [
    ("ur5", "ur5_robot.urdf", "fixed", []),
    ("xarm7", "xarm7.urdf", "fixed", []),
    ("kinova", "kinova.urdf", "fixed", []),
    ("solo12", "solo12.urdf", "floating", []),
    # a humanoid, 55 revolute joints: each hand's LHand / RHand joint and the 11 finger joints
    # that mimic it move massless links (M would be singular), so all 24 are held at q = 0,
    # leaving 31. (romeo_small.urdf and romeo_laas_small.urdf are not used: some of their links'
    # central inertias break the triangle inequality or are not positive definite.)
    (
        "romeo",
        "romeo.urdf",
        "floating",
        ["LHand", "RHand"] + [f"{side}{j}" for side in "LR" for j in (
            "Finger12", "Finger13", "Finger21", "Finger22", "Finger23",
            "Finger31", "Finger32", "Finger33", "Thumb1", "Thumb2", "Thumb3")],
    ),
]
# No fixed-base robot with a prismatic joint: example-robot-data 6.0.0's URDFs with one are
# panda, baxter, pr2, tiago_pro (all with mimic joints) and tiago, tiago_dual, tiago_no_hand
# (CC BY-NC-ND 3.0).
STATES = 4
WORST = {}  # largest relative error of each self-check, printed at the end
SEED = 20250
ROOT_COORDS = ["x", "y", "z", "yaw", "pitch", "roll"]
MOVING = ("revolute", "continuous", "prismatic")


def coord_name(joint):
    return re.sub(r"[^A-Za-z0-9_]", "_", joint)


def parse_urdf(path):
    """Joints and links as the file states them (independent of Pinocchio's parser)."""
    robot = ET.parse(path).getroot()
    joints = {}
    for j in robot.findall("joint"):
        dyn = j.find("dynamics")
        lim = j.find("limit")
        joints[j.get("name")] = {
            "type": j.get("type"),
            "damping": float(dyn.get("damping", 0.0)) if dyn is not None else 0.0,
            "friction": float(dyn.get("friction", 0.0)) if dyn is not None else 0.0,
            "lower": float(lim.get("lower", 0.0)) if lim is not None else None,
            "upper": float(lim.get("upper", 0.0)) if lim is not None else None,
            "mimic": j.find("mimic").get("joint") if j.find("mimic") is not None else None,
        }
    links = {}
    for link in robot.findall("link"):
        inertial = link.find("inertial")
        mass = inertial.find("mass") if inertial is not None else None
        links[link.get("name")] = float(mass.get("value")) if mass is not None else None
        if links[link.get("name")]:
            assert possible_inertia(inertial.find("inertia")), (path, link.get("name"))
    return joints, links


def possible_inertia(element):
    """A central inertia a rigid body can have (nonholo's importer rejects others): positive
    definite, principal moments with I1 + I2 >= I3 (tolerance 1e-9 of the largest)."""
    if element is None:
        return False
    g = lambda k: float(element.get(k, 0.0))
    i = np.array([[g("ixx"), g("ixy"), g("ixz")], [g("ixy"), g("iyy"), g("iyz")], [g("ixz"), g("iyz"), g("izz")]])
    e = np.linalg.eigvalsh(i)  # ascending
    return e[0] > 0.0 and e[0] + e[1] >= e[2] - 1e-9 * abs(e).max()


def rot(yaw, pitch, roll):
    return pin.utils.rotate("z", yaw) @ pin.utils.rotate("y", pitch) @ pin.utils.rotate("x", roll)


def euler_rate(pitch, roll):
    """E with omega_body = E (yawdot, pitchdot, rolldot) for R = Rz Ry Rx."""
    sp, cp, sr, cr = math.sin(pitch), math.cos(pitch), math.sin(roll), math.cos(roll)
    return np.array([[-sp, 0.0, 1.0], [cp * sr, cr, 0.0], [cp * cr, -sr, 0.0]])


def euler_rate_dot(pitch, roll, pitchdot, rolldot):
    sp, cp, sr, cr = math.sin(pitch), math.cos(pitch), math.sin(roll), math.cos(roll)
    return np.array(
        [
            [-cp * pitchdot, 0.0, 0.0],
            [-sp * sr * pitchdot + cp * cr * rolldot, -sr * rolldot, 0.0],
            [-sp * cr * pitchdot - cp * sr * rolldot, -cr * rolldot, 0.0],
        ]
    )


class Conversion:
    """Our coordinates <-> Pinocchio's q, v for one model."""

    def __init__(self, model, floating):
        self.model = model
        self.floating = floating
        self.names = []  # our coordinate names, Pinocchio's order
        self.joints = []  # (pinocchio joint id, URDF joint name, our index, idx_q, idx_v, continuous)
        first = 2 if floating else 1
        if floating:
            assert model.joints[1].shortname() == "JointModelFreeFlyer"
            self.names += ROOT_COORDS
        for jid in range(first, model.njoints):
            jm = model.joints[jid]
            assert jm.nv == 1, (model.names[jid], jm.shortname())
            continuous = jm.nq == 2
            self.joints.append((jid, model.names[jid], len(self.names), jm.idx_q, jm.idx_v, continuous))
            self.names.append(coord_name(model.names[jid]))
        self.n = len(self.names)
        assert self.n == model.nv and len(set(self.names)) == self.n

    def q_pin(self, q):
        qp = np.zeros(self.model.nq)
        if self.floating:
            qp[0:3] = q[0:3]
            qp[3:7] = pin.Quaternion(rot(*q[3:6])).coeffs()  # x, y, z, w
        for _, _, i, iq, _, continuous in self.joints:
            if continuous:
                qp[iq], qp[iq + 1] = math.cos(q[i]), math.sin(q[i])
            else:
                qp[iq] = q[i]
        return qp

    def jac(self, q):
        """v_pin = J(q) qdot (v_pin in Pinocchio's v order)."""
        jm = np.zeros((self.model.nv, self.n))
        if self.floating:
            jm[0:3, 0:3] = rot(*q[3:6]).T
            jm[3:6, 3:6] = euler_rate(q[4], q[5])
        for _, _, i, _, iv, _ in self.joints:
            jm[iv, i] = 1.0
        return jm

    def jdot_qdot(self, q, qdot):
        """Jdot(q, qdot) qdot, analytically."""
        out = np.zeros(self.model.nv)
        if self.floating:
            omega = euler_rate(q[4], q[5]) @ qdot[3:6]
            out[0:3] = -np.cross(omega, rot(*q[3:6]).T @ qdot[0:3])
            out[3:6] = euler_rate_dot(q[4], q[5], qdot[4], qdot[5]) @ qdot[3:6]
        return out


def random_state(rng, conv, urdf_joints):
    q = np.zeros(conv.n)
    qdot = rng.uniform(-1.0, 1.0, conv.n)
    if conv.floating:
        q[0:3] = rng.uniform(-1.0, 1.0, 3)
        q[3:6] = rng.uniform(-0.7, 0.7, 3)
    for _, name, i, _, _, _ in conv.joints:
        j = urdf_joints[name]
        lo, hi = -1.0, 1.0
        if j["type"] != "continuous" and j["lower"] is not None:
            lo, hi = max(lo, j["lower"]), min(hi, j["upper"])
            if lo > hi:
                lo, hi = j["lower"], j["upper"]
        q[i] = rng.uniform(lo, hi)
    tau = rng.uniform(-5.0, 5.0, len(conv.joints))
    return q, qdot, tau


def rel(a, b):
    return np.linalg.norm(a - b) / max(1.0, np.linalg.norm(b))


def worst(what, err):
    WORST[what] = max(WORST.get(what, 0.0), err)


def check_conversion(conv, q, qdot, qddot):
    """J, Jdot by central differences; v and a by Pinocchio's Lie-group difference."""
    h = 1e-5
    jm = conv.jac(q)
    jd = conv.jdot_qdot(q, qdot)
    jd_fd = (conv.jac(q + h * qdot) - conv.jac(q - h * qdot)) @ qdot / (2 * h)
    assert rel(jd, jd_fd) < 1e-6, ("Jdot", rel(jd, jd_fd))
    worst("Jdot vs differences", rel(jd, jd_fd))
    m = conv.model
    traj = lambda t: conv.q_pin(q + t * qdot + 0.5 * t * t * qddot)
    q0 = traj(0.0)
    fwd, bwd = pin.difference(m, q0, traj(h)), pin.difference(m, q0, traj(-h))
    v = jm @ qdot
    assert rel(v, (fwd - bwd) / (2 * h)) < 1e-6, ("v", rel(v, (fwd - bwd) / (2 * h)))
    worst("J qdot vs pin.difference", rel(v, (fwd - bwd) / (2 * h)))
    h2 = 1e-4
    fwd, bwd = pin.difference(m, q0, traj(h2)), pin.difference(m, q0, traj(-h2))
    a = jm @ qddot + jd
    assert rel(a, (fwd + bwd) / (h2 * h2)) < 1e-5, ("a", rel(a, (fwd + bwd) / (h2 * h2)))
    worst("J qddot + Jdot qdot vs pin.difference", rel(a, (fwd + bwd) / (h2 * h2)))


def reduce(full, hold):
    """Pinocchio's reduced model with the held joints locked at q = 0."""
    if not hold:
        return full
    ids = [full.getJointId(j) for j in hold]
    assert all(0 < i < full.njoints for i in ids), (hold, ids)
    q_ref = pin.neutral(full)
    for jid in ids:
        jm = full.joints[jid]
        assert jm.nv == 1, (full.names[jid], jm.shortname())
        if jm.nq == 2:  # continuous: angle 0
            q_ref[jm.idx_q], q_ref[jm.idx_q + 1] = 1.0, 0.0
        else:
            q_ref[jm.idx_q] = 0.0
    reduced = pin.buildReducedModel(full, ids, q_ref)
    assert [n for n in full.names if n not in hold] == list(reduced.names)
    return reduced


def held_check(full_conv, full_data, conv, urdf_joints, q, qdot, mass, bias):
    """The reduced model's M and bias are the full model's at held q = qdot = qddot = 0."""
    full = full_conv.model
    index = {n: i for i, n in enumerate(full_conv.names)}
    keep = [index[n] for n in conv.names]
    qf, qdotf = np.zeros(full_conv.n), np.zeros(full_conv.n)
    qf[keep], qdotf[keep] = q, qdot
    dampf = np.zeros(full_conv.n)
    for _, jname, i, _, _, _ in full_conv.joints:
        dampf[i] = urdf_joints[jname]["damping"]
    jm = full_conv.jac(qf)
    qp, vp, jd = full_conv.q_pin(qf), jm @ qdotf, full_conv.jdot_qdot(qf, qdotf)
    mp = pin.crba(full, full_data, qp)
    mp = np.triu(mp) + np.triu(mp, 1).T
    mf = jm.T @ mp @ jm
    bf = jm.T @ pin.rnea(full, full_data, qp, vp, jd) + dampf * qdotf
    assert np.linalg.matrix_rank(mf) < full_conv.n  # why the joints are held
    err = max(rel(mass, mf[np.ix_(keep, keep)]), rel(bias, bf[keep]))
    assert err < 1e-12, err
    worst("held joints: reduced vs full model", err)


def robot_entry(name, urdf, root, hold, rng):
    path = os.path.join(URDF_DIR, urdf)
    urdf_joints, urdf_links = parse_urdf(path)
    floating = root == "floating"
    full = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating else pin.buildModelFromUrdf(path)
    model = reduce(full, hold)
    assert np.allclose(model.gravity.linear, [0.0, 0.0, -9.81]) and not model.gravity.angular.any()
    assert not model.armature.any()
    data = model.createData()
    conv = Conversion(model, floating)
    assert all(urdf_joints[j]["type"] in MOVING for j in hold) and len(set(hold)) == len(hold)
    moving = [n for n, j in urdf_joints.items() if j["type"] in MOVING and n not in hold]
    assert sorted(moving) == sorted(n for _, n, *_ in conv.joints)
    assert all(j["type"] in MOVING + ("fixed",) for j in urdf_joints.values())
    # a mimic joint only held, and the joint it mimics too (Pinocchio, with mimic=False, loads
    # both as ordinary joints; held, they stay at q = 0 in both)
    assert all(n in hold and j["mimic"] in hold for n, j in urdf_joints.items() if j["mimic"]), name

    damping = np.zeros(conv.n)
    for _, jname, i, _, iv, _ in conv.joints:
        damping[i] = urdf_joints[jname]["damping"]
        assert model.damping[iv] == damping[i], (jname, model.damping[iv], damping[i])
    # Pinocchio's aba and rnea leave damping out: same results with it zeroed
    undamped = model.copy()
    undamped.damping[:] = 0.0
    undata = undamped.createData()

    total_mass = sum(m for m in urdf_links.values() if m is not None)
    ff = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer())
    assert abs(pin.computeTotalMass(ff) - total_mass) < 1e-9 * max(1.0, total_mass)
    assert abs(pin.computeTotalMass(reduce(ff, hold)) - total_mass) < 1e-9 * max(1.0, total_mass)

    # the full model, for the held joints' check
    full_conv = Conversion(full, floating) if hold else None
    full_data = full.createData() if hold else None
    states = []
    for _ in range(STATES):
        q, qdot, tau_j = random_state(rng, conv, urdf_joints)
        tau = np.zeros(conv.n)
        for (_, _, i, _, _, _), t in zip(conv.joints, tau_j):
            tau[i] = t
        jm = conv.jac(q)
        qp, vp = conv.q_pin(q), jm @ qdot
        jd = conv.jdot_qdot(q, qdot)
        tau_pin = np.zeros(model.nv)  # the root gets no force: J^T tau_pin = tau - damping qdot
        for _, _, i, _, iv, _ in conv.joints:
            tau_pin[iv] = tau[i] - damping[i] * qdot[i]

        mp = pin.crba(model, data, qp)
        mp = np.triu(mp) + np.triu(mp, 1).T
        mass = jm.T @ mp @ jm
        mass = 0.5 * (mass + mass.T)
        bias = jm.T @ pin.rnea(model, data, qp, vp, jd) + damping * qdot
        assert rel(pin.rnea(undamped, undata, qp, vp, jd), pin.rnea(model, data, qp, vp, jd)) == 0.0

        if hold:
            held_check(full_conv, full_data, conv, urdf_joints, q, qdot, mass, bias)

        state = {
            "q": q.tolist(),
            "qdot": qdot.tolist(),
            "tau": {conv.names[i]: float(tau[i]) for _, _, i, _, _, _ in conv.joints},
        }
        assert np.linalg.matrix_rank(mass) == conv.n, (name, root)
        ap = pin.aba(model, data, qp, vp, tau_pin)
        assert rel(pin.aba(undamped, undata, qp, vp, tau_pin), ap) == 0.0
        qddot = np.linalg.solve(jm, ap - jd)
        # independent route: M qddot + bias = tau from crba and rnea
        qddot2 = np.linalg.solve(mass, tau - bias)
        err = rel(qddot2, qddot)
        assert err < 1e-10, (name, root, err, np.linalg.cond(mass))
        worst("aba vs crba/rnea", err)
        check_conversion(conv, q, qdot, qddot)
        state["qddot"] = qddot.tolist()
        state["mass_matrix"] = mass.reshape(-1).tolist()
        state["bias"] = bias.tolist()
        states.append(state)

    cond = float(np.linalg.cond(np.array(states[0]["mass_matrix"]).reshape(conv.n, conv.n)))
    assert math.isfinite(cond) and cond < 1e15, (name, root, cond)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    entry = {
        "name": name,
        "urdf": urdf,
        "urdf_sha256": digest,
        "root": root,
        "hold": list(hold),
        "coordinates": conv.names,
        "joint_types": {conv.names[i]: urdf_joints[n]["type"] for _, n, i, _, _, _ in conv.joints},
        "damping": {conv.names[i]: float(damping[i]) for _, _, i, _, _, _ in conv.joints},
        "friction": {conv.names[i]: urdf_joints[n]["friction"] for _, n, i, _, _, _ in conv.joints},
        "total_mass": total_mass,
        # every URDF link in file order, mass 0.0 where it has no <inertial>
        "links": [{"name": k, "mass": 0.0 if m is None else m} for k, m in urdf_links.items()],
        "links_without_inertial": [k for k, m in urdf_links.items() if m is None],
        # of the first state's M
        "mass_matrix_condition": cond,
        "states": states,
    }
    return entry


def main():
    robots = []
    for name, urdf, root, hold in ROBOTS:
        # one seed per robot, so that adding or dropping one leaves the others' states alone
        rng = np.random.default_rng([SEED, zlib.crc32(f"{name}/{root}".encode())])
        robots.append(robot_entry(name, urdf, root, hold, rng))
        r = robots[-1]
        held = f", held {', '.join(hold)}" if hold else ""
        print(f"{name:10s} {root:8s} {len(r['coordinates']):3d} coordinates, cond(M) {r['mass_matrix_condition']:.1e}{held}")
    doc = {
        "description": "Pinocchio reference dynamics for the URDF importer; see bench/pinocchio/urdf_reference.py",
        "pinocchio_version": pin.__version__,
        "example_robot_data_version": importlib.metadata.version("example-robot-data"),
        "numpy_version": np.__version__,
        "seed": SEED,
        "gravity": [0.0, 0.0, -9.81],
        "root_coordinates": ROOT_COORDS,
        "robots": robots,
    }
    for what, err in WORST.items():
        print(f"self-check {what}: largest relative error {err:.1e}")
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, allow_nan=False)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
