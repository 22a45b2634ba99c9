"""Sweeps on a Dask LocalCluster give what the serial loop gives; a module built by
nonholo.build reaches the workers by upload_file."""

import sys
from pathlib import Path

import numpy as np
import pytest

import nonholo

distributed = pytest.importorskip("dask.distributed")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import sweep  # noqa: E402


@pytest.fixture(scope="module")
def client():
    import cloudpickle

    # this file's functions go to the workers by value (they cannot import the tests)
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    with distributed.Client(cluster) as c:
        c.upload_file(str(Path(sweep.__file__)))
        yield c
    cluster.close()


def test_a_sweep_on_the_cluster_is_the_serial_loop(client, tmp_path):
    stability, skids = sweep.run(client, n_speeds=12, trails=(0.05, 0.08), n_skids=10, out=tmp_path)
    bike = nonholo.models.WhippleBicycle()
    speeds = list(np.linspace(0.5, 10.0, 12))
    serial = [r for c in (0.05, 0.08) for r in sweep.stability_rows(bike, speeds, c)]
    assert stability.to_dict("records") == serial
    robot = nonholo.models.DiffDriveRobot()
    assert skids.to_dict("records") == sweep.skid_rows(robot, sweep.skid_cases(10))
    import pandas as pd

    assert pd.read_parquet(tmp_path / "bicycle_stability.parquet").equals(stability)
    # the benchmark bicycle (trail 0.08) is self-stable between its weave and capsize speeds
    stable = stability[(stability.trail == 0.08) & (stability.max_real < 0)].speed
    assert 4.29 < stable.min() and stable.max() < 6.03


def remote_energy(model, x):
    return model.energy(0.0, x)


def test_a_built_module_reaches_the_workers(client, my_models):
    client.upload_file(my_models.path)
    skate = my_models.MySkate(m=3.0)
    x = [0.0, 0.0, 0.2, 2.0, 1.0]
    assert client.submit(remote_energy, skate, x).result() == skate.energy(0.0, x)
