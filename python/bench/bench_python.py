"""The Python package's numbers for BENCHMARKS.md.

1. The Whipple bicycle's 5 s ride from Python (``bike.simulate``: the reference start of
   tests/suite/python_reference.rs, tsit45, rtol = atol = 1e-10, sample_every 0.01), the
   best and median of repeated runs; the same ride from Rust is criterion's
   ``simulate_whipple/ride_5s`` (``cargo bench -p nonholo-benches --bench simulate --
   simulate_whipple``), run right before or after.
2. One rhs call from Python (the boundary's cost: argument conversion and a new array).
3. A sweep's throughput on a Dask LocalCluster of 1 and of 2 single-threaded worker
   processes: the bicycle's stability rows (``examples/sweep.py``) over 48 trails x 400
   speeds, 8 tasks of 6 trails each (a task of about 0.1 s: the scheduler's round trip
   per task, a few milliseconds, stays small beside it).

    python python/bench/bench_python.py
"""

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import nonholo

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "examples"))
import sweep  # noqa: E402


def reference_x0():
    import struct

    raw = json.loads((HERE.parent / "tests" / "data" / "rust_reference.json").read_text())
    return np.array([struct.unpack(">d", bytes.fromhex(h))[0] for h in raw["x0"]])


def timed(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def ride():
    bike = nonholo.models.WhippleBicycle()
    x0 = reference_x0()
    best, median = timed(lambda: bike.simulate(x0, (0.0, 5.0), rtol=1e-10, atol=1e-10, sample_every=0.01), 200)
    print(f"ride 5 s from Python: best {best * 1e3:.3f} ms, median {median * 1e3:.3f} ms")
    best, median = timed(lambda: bike.rhs(0.0, x0), 20000)
    print(f"rhs from Python: best {best * 1e6:.2f} us, median {median * 1e6:.2f} us")


def stability_chunk(bike, speeds, trails):
    return [r for c in trails for r in sweep.stability_rows(bike, speeds, c)]


def dask_scaling():
    import cloudpickle
    from dask.distributed import Client, LocalCluster

    cloudpickle.register_pickle_by_value(sweep)
    bike = nonholo.models.WhippleBicycle()
    speeds = list(np.linspace(0.5, 10.0, 400))
    trails = list(np.linspace(0.02, 0.14, 48))
    tasks = [trails[i:i + 6] for i in range(0, len(trails), 6)]
    rates = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.gather([client.submit(stability_chunk, bike, speeds[:2], t, pure=False) for t in tasks])
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                client.gather([client.submit(stability_chunk, bike, speeds, t, pure=False) for t in tasks])
                best = min(best, time.perf_counter() - t)
            rates[workers] = len(speeds) * len(trails) / best
            print(f"Dask, {workers} worker(s): {rates[workers]:.0f} linearizations/s ({best:.3f} s)")
    print(f"2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    ride()
    dask_scaling()
