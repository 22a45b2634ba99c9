"""``nonholo.build``: a file of ``nonholonomic!`` models compiled into an importable module."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import _native

#: Bump when the generated crate's layout changes (part of the content hash).
_LAYOUT = "1"


def cache_dir() -> Path:
    """Where built modules and their shared target directory live: ``$NONHOLO_CACHE``, or
    ``~/.cache/nonholo``."""
    return Path(os.environ.get("NONHOLO_CACHE", Path.home() / ".cache" / "nonholo"))


def _source_dir() -> Path:
    """The nonholo repository the wheel was built from (``$NONHOLO_SOURCE`` overrides)."""
    path = Path(os.environ.get("NONHOLO_SOURCE", _native.__source_dir__))
    if not (path / "python" / "binding" / "Cargo.toml").exists():
        raise RuntimeError(
            f"nonholo.build needs the nonholo sources (looked in {path}): set NONHOLO_SOURCE "
            "to a checkout of the repository"
        )
    return path


def _models_in(text: str) -> list[str]:
    """The structs the ``nonholonomic!`` blocks of ``text`` declare (``struct Name;``)."""
    return re.findall(r"\bstruct\s+([A-Za-z_][A-Za-z0-9_]*)\s*;", text)


def build(path, models=None, name=None, release=True, quiet=True):
    """Compile the ``nonholonomic!`` models of the Rust file ``path`` into an extension
    module and import it: a ``ModelNamespace`` with one class per model.

    The file is an ordinary Rust module (``nonholo::prelude::*`` is in scope) holding
    ``nonholonomic!`` blocks and anything they use. ``models`` lists the structs to export
    (default: every ``struct Name;`` of the file). The module's name is ``name`` (default:
    the file's stem) with the hash of the file's content and of the installed library, so
    a rebuild happens only when the model (or the library) changes; the build (cargo, ``--release``) runs in
    ``cache_dir()``, whose one target directory all builds share. A failed build raises
    ``RuntimeError`` with cargo's messages (the macro's errors point into the file).

    ``ns.path`` is the built extension: ``client.upload_file(ns.path)`` sends it to the
    workers of a Dask cluster, where unpickled models import it.
    """
    path = Path(path).resolve()
    text = path.read_text(encoding="utf-8")
    models = list(models) if models is not None else _models_in(text)
    if not models:
        raise ValueError(f"{path} declares no `struct Name;` to export")
    source = _source_dir()
    stem = re.sub(r"\W", "_", name or path.stem)
    # the installed library takes part: a new wheel (a fixed bug) builds the module again
    wheel = os.stat(_native.__file__)
    digest = hashlib.sha256(
        "\0".join(
            [_LAYOUT, _native.__version__, f"{wheel.st_size}:{wheel.st_mtime_ns}", str(source), text, ",".join(models)]
        ).encode()
    ).hexdigest()[:12]
    module = f"{stem}_{digest}"
    cache = cache_dir()
    out = cache / "modules"
    suffix = ".so" if sys.platform != "win32" else ".pyd"
    target_file = out / f"{module}{suffix}"
    if not target_file.exists():
        _compile(path, source, module, models, cache, target_file, release, quiet)
    return _import(module, target_file)


def _compile(path, source, module, models, cache, target_file, release, quiet):
    crate = cache / "crates" / module
    (crate / "src").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, crate / "src" / "models.rs")
    lock = source / "python" / "Cargo.lock"
    if lock.exists():
        # the wheel's versions: the shared target directory reuses its compiled crates
        shutil.copyfile(lock, crate / "Cargo.lock")
    (crate / "Cargo.toml").write_text(
        f"""[package]
name = "{module}"
version = "0.1.0"
edition = "2024"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
nonholo = {{ path = "{source.as_posix()}" }}
nonholo-python = {{ path = "{(source / 'python' / 'binding').as_posix()}" }}
pyo3 = {{ version = "0.30", features = ["extension-module"] }}

[workspace]

[profile.release]
debug = false
""",
        encoding="utf-8",
    )
    exported = ", ".join(f"models::{m}" for m in models)
    (crate / "src" / "lib.rs").write_text(
        "//! Written by nonholo.build.\n"
        "#[allow(unused_imports)]\n"
        "mod models {\n    use nonholo::prelude::*;\n    include!(\"models.rs\");\n}\n"
        f"nonholo_python::export!({module}: {exported});\n",
        encoding="utf-8",
    )
    cmd = ["cargo", "build", "--lib", "--message-format=short"]
    if release:
        cmd.append("--release")
    env = dict(os.environ, CARGO_TARGET_DIR=str(cache / "target"))
    if shutil.which("cargo") is None:
        raise RuntimeError("nonholo.build needs cargo (a Rust toolchain: https://rustup.rs) on the PATH")
    done = subprocess.run(cmd, cwd=crate, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"building {path} failed:\n{done.stderr}")
    if not quiet:
        print(done.stderr, file=sys.stderr)
    profile = "release" if release else "debug"
    lib = cache / "target" / profile / _library_name(module)
    target_file.parent.mkdir(parents=True, exist_ok=True)
    # copied beside, then renamed: a process importing the module (another worker building
    # the same file at once) never sees half a library
    partial = target_file.with_name(f"{target_file.name}.{os.getpid()}.part")
    shutil.copyfile(lib, partial)
    os.replace(partial, target_file)


def _library_name(module: str) -> str:
    if sys.platform == "win32":
        return f"{module}.dll"
    if sys.platform == "darwin":
        return f"lib{module}.dylib"
    return f"lib{module}.so"


def _import(module, target_file):
    from ._namespace import ModelNamespace

    if module in sys.modules:
        return ModelNamespace(sys.modules[module])
    spec = importlib.util.spec_from_file_location(module, target_file)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sys.modules[module] = mod
    return ModelNamespace(mod)
