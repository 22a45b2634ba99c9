"""The library's models from Python: the same numbers as Rust, SciPy's integrator, the
bicycle benchmark, pickling, batches and errors."""

import pickle
import time

import numpy as np
import pytest

import nonholo

KEEP = ["roll", "steer", "dot(roll)", "dot(steer)"]


@pytest.fixture(scope="module")
def bike():
    return nonholo.models.WhippleBicycle()


def test_rhs_equals_rust_bit_for_bit(bike, reference):
    dx = bike.rhs(0.0, np.array(reference["x0"]))
    assert dx.tobytes() == np.array(reference["rhs"]).tobytes()
    # a list works as well as an array
    assert bike.rhs(0.0, list(reference["x0"])).tobytes() == dx.tobytes()


def test_a_ride_from_python_is_the_ride_from_rust(bike, reference):
    run = bike.simulate(reference["x0"], (0.0, 5.0), rtol=1e-10, atol=1e-10, sample_every=0.01)
    assert len(run) == reference["samples"]
    assert run.times[-1] == reference["t1"][0]
    assert run.states[-1].tobytes() == np.array(reference["x1"]).tobytes()


def test_scipy_on_model_rhs_agrees_with_simulate(bike, reference):
    from scipy.integrate import solve_ivp

    x0 = np.array(reference["x0"])
    ours = bike.simulate(x0, (0.0, 5.0), rtol=1e-10, atol=1e-10).states[-1]
    theirs = solve_ivp(bike.rhs, (0.0, 5.0), x0, method="DOP853", rtol=1e-10, atol=1e-10)
    assert theirs.success
    assert np.max(np.abs(theirs.y[:, -1] - ours)) < 1e-7


def test_weave_and_capsize_speeds_are_the_benchmarks(bike, benchmark):
    def worst(v):
        return max(e.real for e in bike.linearize(0.0, bike.upright_state(v), keep=KEEP).eigenvalues())

    def root(lo, hi):
        f_lo = worst(lo)
        while hi - lo > 1e-12:
            mid = 0.5 * (lo + hi)
            if (worst(mid) > 0) == (f_lo > 0):
                lo = mid
            else:
                hi = mid
        return 0.5 * (lo + hi)

    assert abs(root(4.0, 5.0) - benchmark["weave_speed"]) < 1e-9
    assert abs(root(5.5, 6.5) - benchmark["capsize_speed"]) < 1e-9


def test_models_pickle_with_their_parameters(bike):
    other = bike.replace(r_r=0.35)
    back = pickle.loads(pickle.dumps(other))
    assert type(back) is nonholo.models.WhippleBicycle
    assert back == other and back != bike and back.r_r == 0.35
    x = back.upright_state(5.0)
    assert back.rhs(0.0, x).tobytes() == other.rhs(0.0, x).tobytes()


def test_parameters_are_keywords_and_attributes():
    skate = nonholo.models.Skate(m=2.0)
    assert skate.m == 2.0 and skate.inertia == 0.1
    assert skate.parameters == {"m": 2.0, "inertia": 0.1, "g": 9.81, "alpha": 0.0, "c": 0.0}
    assert skate.coordinates == ["x", "y", "theta"] and skate.speeds == ["v", "w"]
    assert isinstance(skate, nonholo.Model)
    # m v' = m g sin(alpha) cos(theta) along the blade: zero on the level
    x = skate.state(theta=0.3, v=1.0, w=0.5)
    np.testing.assert_allclose(skate.rhs(0.0, x)[:3], [np.cos(0.3), np.sin(0.3), 0.5], rtol=1e-15)


def test_bad_input_is_a_clear_exception(bike):
    x = bike.upright_state(5.0)
    with pytest.raises(ValueError, match="has 3 entries; the model needs 11"):
        bike.rhs(0.0, x[:3])
    bad = x.copy()
    bad[0] = np.nan
    with pytest.raises(ValueError, match=r"the state\[0\] is NaN"):
        bike.rhs(0.0, bad)
    with pytest.raises(ValueError, match="has no parameter `wheel`"):
        nonholo.models.WhippleBicycle(wheel=0.3)
    with pytest.raises(ValueError, match="unknown method `rk4`"):
        bike.simulate(x, (0.0, 1.0), method="rk4")
    with pytest.raises(ValueError, match="must be a 1-D array"):
        bike.rhs(0.0, "not a state")
    with pytest.raises(AttributeError):
        bike.no_such_thing


def test_a_failed_run_raises_with_its_partial_trajectory(bike):
    with pytest.raises(nonholo.NonholoError) as e:
        bike.simulate(bike.upright_state(5.0, roll_rate=0.5), (0.0, 5.0), max_steps=10)
    assert e.value.partial is not None and len(e.value.partial) >= 1
    assert "10" in str(e.value)


def test_bad_parameters_are_named_before_the_run():
    disk = nonholo.models.RollingDisk3d(m=-1.0)
    with pytest.raises(nonholo.NonholoError, match="m"):
        disk.check_parameters()


def test_jacobians_are_the_derivative_of_rhs(bike):
    x = bike.upright_state(5.0, roll_rate=0.3, steer_rate=0.2)
    a, b = bike.jacobians(0.0, x)
    assert a.shape == (11, 11) and b.shape == (11, 3)
    h = 1e-6
    for j in (3, 6, 8, 10):
        e = np.zeros(11)
        e[j] = h
        fd = (bike.rhs(0.0, x + e) - bike.rhs(0.0, x - e)) / (2 * h)
        np.testing.assert_allclose(a[:, j], fd, rtol=1e-6, atol=1e-6)


def test_energy_is_conserved_on_a_ride(bike):
    x = bike.upright_state(5.0, roll_rate=0.5)
    run = bike.simulate(x, (0.0, 3.0), rtol=1e-10, atol=1e-10, sample_every=0.1)
    e = [bike.energy(t, s) for t, s in zip(run.times, run.states)]
    assert max(e) - min(e) < 1e-7 * abs(e[0])
    assert run.max_constraint_residual() < 1e-8


def test_contact_loads_are_arrays_per_contact(bike):
    loads = bike.contact_loads(0.0, bike.upright_state(5.0))
    assert loads["contacts"] == bike.contacts
    assert loads["force"].shape == (2, 3) and loads["normal"].shape == (2,)
    # upright and steady: the normals carry the weight
    weight = 9.81 * (bike.m_r + bike.m_b + bike.m_h + bike.m_f)
    assert abs(loads["normal"].sum() - weight) < 1e-9 * weight


def test_simulate_many_equals_the_serial_loop(bike):
    # inside the self-stable band; the rider's mass does not move the contact geometry
    x0s = [bike.upright_state(v, roll_rate=0.2) for v in (4.6, 5.0, 5.3, 5.6)]
    params = [{"m_b": m} for m in (70.0, 80.0, 85.0, 90.0)]
    runs = nonholo.simulate_many(bike, x0s, params=params, t_span=(0.0, 2.0), keep="final")
    for x0, p, run in zip(x0s, params, runs):
        serial = bike.replace(**p).simulate(x0, (0.0, 2.0))
        assert len(run) == 1
        assert run.states[-1].tobytes() == serial.states[-1].tobytes()


def test_simulate_many_returns_failures_in_place(bike):
    x0s = [bike.upright_state(5.0), bike.upright_state(5.0)]
    runs = bike.simulate_many(x0s, (0.0, 1.0), params=[{}, {"m_r": -2.0}], errors="return")
    assert isinstance(runs[0], nonholo.Trajectory)
    assert isinstance(runs[1], nonholo.NonholoError)


def test_trajectory_tables_and_events():
    wheel = nonholo.models.RimlessWheel()
    assert wheel.coordinates
    run = nonholo.models.Skate().simulate([0, 0, 0, 1.0, 1.0], (0.0, 1.0), sample_every=0.25)
    assert run.names == ["x", "y", "theta", "v", "w"]
    assert run.times.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    frame = run.to_pandas()
    assert list(frame.columns) == ["t", "x", "y", "theta", "v", "w"]
    np.testing.assert_array_equal(frame["theta"].to_numpy(), run.column("theta"))
    assert run.to_csv().startswith("t,")


def test_a_skid_reports_its_events():
    robot = nonholo.models.DiffDriveRobot()
    q0 = np.zeros(robot.nq)
    qdot0 = np.zeros(robot.nq)
    # thrown sideways: the wheels slide, then grip
    names = robot.coordinates
    qdot0[names.index("y")] = 1.0
    run = robot.simulate_hybrid(q0, qdot0, (0.0, 3.0), rtol=1e-10, atol=1e-10)
    kinds = [(e["kind"], e.get("event")) for e in run.events]
    assert ("contact", "grip") in kinds
    # the loads recorded at every sample: sliding wheels use all the friction there is
    loads = run.contact_loads()
    n, k = len(run), len(robot.contacts)
    assert loads["sliding"].shape == (n, k) and loads["force"].shape == (n, k, 3)
    sliding = loads["sliding"]
    assert sliding[1:].any() and not sliding[-1].any()
    np.testing.assert_allclose(loads["utilization"][sliding], 1.0, atol=1e-9)
    assert run.max_constraint_residual() < 1e-8


def test_linearize_and_lqr(bike):
    lin = bike.linearize(0.0, bike.upright_state(3.0), keep=KEEP, inputs=["t_steer"])
    assert lin.a.shape == (4, 4) and lin.b.shape == (4, 1)
    assert max(e.real for e in lin.eigenvalues()) > 0  # below the weave speed
    gain = lin.lqr(np.eye(4), np.eye(1))
    assert max(p.real for p in gain["poles"]) < 0
    assert gain["k"].shape == (1, 4)


def test_a_run_animates_inline(bike):
    run = bike.simulate(bike.upright_state(5.0, roll_rate=0.5), (0.0, 1.0), sample_every=0.05)
    viewer = run.animate(width=320, height=240)
    assert "<canvas" in viewer.html
    assert viewer._repr_html_().startswith("<iframe srcdoc=")
    skate_run = nonholo.models.Skate().simulate([0, 0, 0, 1.0, 1.0], (0.0, 1.0))
    with pytest.raises(nonholo.NonholoError, match="no frames"):
        skate_run.animate()


def test_runs_release_the_gil(bike):
    import threading

    x0 = bike.upright_state(5.0, roll_rate=0.5)
    finished = threading.Event()
    spans = []

    def runs():
        start = time.perf_counter()
        bike.simulate_many([x0] * 100, (0.0, 5.0), rtol=1e-12, atol=1e-12, keep="final")
        spans.append(time.perf_counter() - start)
        finished.set()

    worker = threading.Thread(target=runs)
    worker.start()
    last, worst = time.perf_counter(), 0.0
    while not finished.is_set():
        now = time.perf_counter()
        worst, last = max(worst, now - last), now
    worker.join()
    # the Python thread kept running while the runs went on (held, it would have stalled
    # for the whole batch)
    assert spans[0] > 0.1 and worst < 0.25 * spans[0]
