import json
import struct
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def from_bits(items):
    return [struct.unpack(">d", bytes.fromhex(h))[0] for h in items]


@pytest.fixture(scope="module")
def reference():
    """tests/suite/python_reference.rs's numbers (bit patterns) as floats."""
    raw = json.loads((DATA / "rust_reference.json").read_text())
    return {k: (from_bits(v) if isinstance(v, list) else v) for k, v in raw.items() if k != "_about"}


@pytest.fixture(scope="module")
def benchmark():
    root = Path(__file__).resolve().parents[2]
    return json.loads((root / "tests" / "data" / "meijaard2007.json").read_text())


@pytest.fixture(scope="module")
def my_models():
    """The user's file compiled by nonholo.build (cached by content hash)."""
    import nonholo

    return nonholo.build(DATA / "my_skate.rs")
