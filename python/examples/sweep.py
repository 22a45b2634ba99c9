"""Two studies spread over a Dask cluster, their results written as Parquet.

1. The Whipple bicycle's stability map: the eigenvalues of its upright linearization over
   forward speed and trail (parameter ``c``): where it weaves, where it is self-stable,
   where it capsizes.
2. A Monte Carlo of the differential-drive robot's skids: thrown sideways with a random
   payload (chassis mass), friction and speed, how long its wheels slide before they grip.

Run it on this machine (a LocalCluster of one single-threaded worker per core)::

    python python/examples/sweep.py

or on a real cluster by giving the scheduler's address::

    python python/examples/sweep.py tcp://scheduler:8786

Each task is a chunk of cases; a model travels to the workers pickled (its module, name
and parameters), and every worker imports nonholo there (``pip install`` it on the
workers; a module from ``nonholo.build`` goes by ``client.upload_file(ns.path)``).
"""

from __future__ import annotations

import sys

import numpy as np

import nonholo

KEEP = ["roll", "steer", "dot(roll)", "dot(steer)"]


def stability_rows(bike, speeds, trail):
    """One row per speed: the largest real part of the eigenvalues of the upright
    bicycle with trail ``trail`` (the geometry's pitch solved again)."""
    model = bike.replace(c=trail)
    rows = []
    for v in speeds:
        eig = model.linearize(0.0, model.upright_state(v), keep=KEEP).eigenvalues()
        rows.append({"trail": trail, "speed": v, "max_real": float(max(eig.real)),
                     "oscillatory": bool(np.any(np.abs(eig.imag) > 1e-9))})
    return rows


def skid_rows(robot, cases):
    """One row per case ``(m_c, mu, v_side)``: the robot rolling forward at 0.5 m/s and
    thrown sideways at ``v_side``; when all its wheels grip again, and how far sideways
    it has gone by then."""
    rows = []
    names = robot.coordinates
    for m_c, mu, v_side in cases:
        model = robot.replace(m_c=m_c, mu=mu)
        q0 = np.zeros(model.nq)
        qdot0 = np.zeros(model.nq)
        qdot0[names.index("x")] = 0.5
        qdot0[names.index("phi_l")] = qdot0[names.index("phi_r")] = 0.5 / model.r
        qdot0[names.index("y")] = v_side
        run = model.simulate_hybrid(q0, qdot0, (0.0, 2.0), rtol=1e-8, atol=1e-8)
        grips = [e["t"] for e in run.events if e.get("event") == "grip"]
        t_grip = max(grips) if grips else np.nan
        slide = run.at(t_grip)[names.index("y")] if grips else np.nan
        rows.append({"m_c": float(m_c), "mu": float(mu), "v_side": float(v_side),
                     "grip_time": t_grip, "slide": float(slide)})
    return rows


def chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]


def stability_tasks(bike, speeds, trails):
    return [(bike, speeds, c) for c in trails]


def skid_cases(n, seed=0):
    rng = np.random.default_rng(seed)
    return list(zip(rng.uniform(3.0, 10.0, n), rng.uniform(0.3, 0.9, n), rng.uniform(0.3, 1.5, n)))


def run(client, n_speeds=60, trails=(0.02, 0.05, 0.08, 0.11, 0.14), n_skids=40, out=None):
    """Both studies on ``client`` (a ``dask.distributed.Client``); returns two DataFrames
    and writes them as Parquet under ``out`` when given."""
    import pandas as pd

    bike = nonholo.models.WhippleBicycle()
    speeds = list(np.linspace(0.5, 10.0, n_speeds))
    futures = [client.submit(stability_rows, *t, pure=False) for t in stability_tasks(bike, speeds, trails)]
    robot = nonholo.models.DiffDriveRobot()
    futures += [client.submit(skid_rows, robot, c, pure=False) for c in chunks(skid_cases(n_skids), 5)]
    results = client.gather(futures)
    stability = pd.DataFrame([r for rows in results[:len(trails)] for r in rows])
    skids = pd.DataFrame([r for rows in results[len(trails):] for r in rows])
    if out is not None:
        stability.to_parquet(f"{out}/bicycle_stability.parquet")
        skids.to_parquet(f"{out}/robot_skids.parquet")
    return stability, skids


def main(address=None):
    from dask.distributed import Client, LocalCluster

    if address is None:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
        client = Client(cluster)
    else:
        client = Client(address)
    stability, skids = run(client, out=".")
    stable = stability[stability.max_real < 0].groupby("trail").speed.agg(["min", "max"])
    print("self-stable speeds by trail (m/s):\n", stable)
    print("robot skids: grip time (s)\n", skids.grip_time.describe())
    client.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
