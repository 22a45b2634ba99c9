"""A user's own file of models, compiled by nonholo.build and cached by content hash."""

import time

import numpy as np
import pytest

import nonholo


def test_a_built_model_runs_like_the_library_one(my_models):
    mine = my_models.MySkate(alpha=0.2)
    library = nonholo.models.Skate(alpha=0.2)
    assert mine.coordinates == library.coordinates and mine.speeds == ["v", "w"]
    x0 = [0.0, 0.0, 0.4, 1.0, 0.7]
    np.testing.assert_array_equal(mine.rhs(0.0, x0), library.rhs(0.0, x0))
    a = mine.simulate(x0, (0.0, 2.0), rtol=1e-10, atol=1e-10)
    b = library.simulate(x0, (0.0, 2.0), rtol=1e-10, atol=1e-10)
    assert np.max(np.abs(a.states[-1] - b.states[-1])) < 1e-12


def test_a_second_build_is_a_cache_hit(my_models):
    from conftest import DATA

    start = time.perf_counter()
    again = nonholo.build(DATA / "my_skate.rs")
    assert time.perf_counter() - start < 1.0
    assert again.module is my_models.module


def test_a_changed_file_is_a_new_module(my_models, tmp_path):
    from conftest import DATA

    changed = tmp_path / "my_skate.rs"
    changed.write_text((DATA / "my_skate.rs").read_text().replace("m = 1.0", "m = 2.0"))
    other = nonholo.build(changed)
    assert other.module.__name__ != my_models.module.__name__
    assert other.MySkate().m == 2.0 and my_models.MySkate().m == 1.0


def test_a_model_with_a_mistake_is_a_build_error_naming_it(tmp_path):
    bad = tmp_path / "bad.rs"
    bad.write_text(
        "nonholonomic! {\n    pub struct Bad;\n    parameters { m = 1.0 }\n"
        "    coordinates { x }\n    kinetic_energy = 0.5 * m * dot(y).powi(2);\n}\n"
    )
    with pytest.raises(RuntimeError, match="y"):
        nonholo.build(bad)
