"""nonholo: nonholonomic mechanical systems, compiled from Rust, as NumPy-speaking objects.

The library's models are in ``nonholo.models``; ``nonholo.build("my_models.rs")`` compiles a
file of ``nonholonomic!`` models into a module of its own (cached by content hash)::

    import numpy as np, nonholo
    bike = nonholo.models.WhippleBicycle()           # parameters as keywords and attributes
    x0 = bike.upright_state(speed=5.0)
    run = bike.simulate(x0, (0.0, 5.0), rtol=1e-10, atol=1e-10, sample_every=0.01)
    run.times, run.states, run.to_pandas()
    bike.linearize(0.0, x0, keep=["roll", "steer", "dot(roll)", "dot(steer)"]).eigenvalues()

Every model is a ``nonholo.Model``: ``rhs``, ``jacobians``, ``energy``, ``qdot``,
``state_from_qdot``, ``contact_loads``, ``simulate``, ``simulate_hybrid``, ``simulate_many``
(parallel, the GIL released), ``linearize``. Models pickle (their module, name and
parameters), so they travel to the workers of a Dask cluster. Errors the model or a run
reports are ``NonholoError``s carrying the Rust error's message (``.t``, ``.state`` where it
has them; ``.partial``, the trajectory up to the failure, for runs); arguments of the wrong
length or an unknown parameter are ``ValueError``s.
"""

from __future__ import annotations

import html as _html

from . import _native
from ._namespace import ModelNamespace, _rebuild
from ._build import build, cache_dir

__all__ = [
    "Model",
    "Trajectory",
    "Linearization",
    "NonholoError",
    "models",
    "build",
    "cache_dir",
    "lqr",
    "simulate_many",
]


class NonholoError(Exception):
    """An error the model or a run reported, with the Rust error's message.

    Attributes: ``kind`` (the Rust variant, ``"ContactLost"``), ``t`` and ``state`` where
    the error has them (else ``None``), and for runs ``partial``: the ``Trajectory``
    recorded before the run stopped.
    """

    t = None
    state = None
    kind = None
    partial = None


class _Viewer:
    """A run in nonholo's HTML viewer; Jupyter shows it inline (``_repr_html_``)."""

    def __init__(self, page: str, width: int, height: int):
        self.html = page
        self.width = width
        self.height = height

    def _repr_html_(self) -> str:
        # The viewer is a whole page (its script and styles): an iframe keeps it apart
        # from the notebook's own.
        return (
            f'<iframe srcdoc="{_html.escape(self.html, quote=True)}" '
            f'width="{self.width + 20}" height="{self.height + 60}" '
            'style="border:none"></iframe>'
        )

    def save(self, path: str) -> None:
        """Write the page to ``path`` (open it in any browser)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html)

    def __str__(self) -> str:
        return self.html


Model = _native.Model
Trajectory = _native.Trajectory
Linearization = _native.Linearization
lqr = _native.lqr

#: The library's models (``nonholo::models``): ``nonholo.models.WhippleBicycle()``.
models = ModelNamespace(_native)


def simulate_many(model, x0s, params=None, t_span=(0.0, 1.0), **options):
    """``model.simulate_many(x0s, t_span, params=params, **options)``: the runs in parallel
    on all cores, the GIL released; ``params`` a list of dicts (one per run) of the
    parameters that differ from ``model``'s."""
    return model.simulate_many(x0s, t_span, params=params, **options)
