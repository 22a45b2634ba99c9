"""The models of an extension module as Python classes (subclasses of ``nonholo.Model``)."""

from __future__ import annotations

import importlib

import numpy as np

_NAMESPACES: dict = {}


class _Named:
    """What every model class adds in Python: states by name, ``replace``."""

    def state(self, **values) -> np.ndarray:
        """The state ``[q, z]`` with the named entries set and the others zero:
        ``disk.state(theta=0.1, **{"dot(phi)": 2.0})``."""
        names = list(self.coordinates) + list(self.speeds)
        x = np.zeros(len(names))
        for key, value in values.items():
            if key not in names:
                raise ValueError(f"{self.name} has no coordinate or speed `{key}` ({', '.join(names)})")
            x[names.index(key)] = value
        return x

    def replace(self, **changes):
        """The same model with some parameters changed: ``bike.replace(r_r=0.35)``."""
        params = dict(self.parameters)
        unknown = [k for k in changes if k not in params]
        if unknown:
            raise ValueError(f"{self.name} has no parameter {', '.join(unknown)} ({', '.join(params)})")
        params.update(changes)
        return type(self)(**params)


class _WhippleBicycle:
    """The Whipple bicycle's upright state at a speed."""

    def upright_state(self, speed: float, roll_rate: float = 0.0, steer_rate: float = 0.0) -> np.ndarray:
        """Upright straight running at forward ``speed`` (m/s): the pitch solved from the
        front contact, ``dot(th_r) = -speed / r_r``, and the given lean and steer rates."""
        q = self.solve_configuration(0.0, np.zeros(self.nq))
        x = np.concatenate([q, np.zeros(self.nz)])
        speeds = list(self.speeds)
        x[self.nq + speeds.index("dot(roll)")] = roll_rate
        x[self.nq + speeds.index("dot(th_r)")] = -speed / self.r_r
        x[self.nq + speeds.index("dot(steer)")] = steer_rate
        return x


# Extra methods of the library's own models (module `nonholo._native`).
_LIBRARY_EXTRAS = {"WhippleBicycle": _WhippleBicycle}


def _model_class(module, registry, name: str, base, extras):
    params = registry.parameters(name)
    listed = ", ".join(p if d is None else f"{p}={d:g}" for p, d in params)

    def __new__(cls, **parameters):
        return base.__new__(cls, registry, name, **parameters)

    doc = (
        f"{name}({listed}): the model `{name}` of `{registry.module}`, compiled by "
        "nonholonomic!. Parameters are keywords (defaults as shown) and attributes."
    )
    bases = tuple(extras) + (_Named, base)
    return type(name, bases, {"__new__": __new__, "__doc__": doc, "__module__": "nonholo.models" if registry.module == "_native" else registry.module})


class ModelNamespace:
    """The models of one compiled extension module: one class per model, by its Rust name
    (``ns.Skate(m=1.0, i=0.1)``). ``names`` lists them; ``module`` is the extension module
    (``module.__file__`` is what ``dask.distributed.Client.upload_file`` sends)."""

    def __init__(self, module):
        registry = module.__registry__
        self.module = module
        self.names = list(registry.names())
        base = module.Model
        library = registry.module == "_native"
        for name in self.names:
            extras = [_LIBRARY_EXTRAS[name]] if library and name in _LIBRARY_EXTRAS else []
            setattr(self, name, _model_class(module, registry, name, base, extras))
        _NAMESPACES[registry.module] = self

    @property
    def path(self) -> str:
        """The extension module's file."""
        return self.module.__file__

    def __repr__(self) -> str:
        return f"<nonholo models of {self.module.__name__}: {', '.join(self.names)}>"


def _rebuild(module_name: str, model_name: str, parameters: dict):
    """Unpickle a model: import its module (on a worker: the extension uploaded there),
    and build the model again."""
    ns = _NAMESPACES.get(module_name)
    if ns is None:
        if module_name == "_native":
            from . import models as ns  # the library's models
        else:
            ns = ModelNamespace(importlib.import_module(module_name))
    return getattr(ns, model_name)(**parameters)
