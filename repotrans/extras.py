"""Optional backends: what each one imports, and how to install what it lacks.

A backend a user can choose (an embedding backend, the Ray executor) imports libraries only at first
use. `missing` tries those imports (transitive ones included: `onnxruntime.quantization` needs
`ml_dtypes`, which onnxruntime does not declare) so that `doctor` can name what is absent and the
backend can stop with a one-line ConfigError instead of a traceback in the middle of a batch.
The install hint quotes the requirement as this package declares it (pyproject.toml), so the hint and
the declaration cannot drift apart.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from importlib import metadata

from repotrans.errors import ConfigError

DISTRIBUTION = "repotrans"


@dataclass(frozen=True)
class Backend:
    """One optional backend."""
    name: str                   # as the user chooses it (`--embedding-backend onnx-int8`, `--executor ray`)
    purpose: str                # what it is for, shown by doctor
    modules: tuple[str, ...]    # imported at first use, in this order
    requirements: tuple[str, ...]  # the distributions that provide them (pip names)


BACKENDS: tuple[Backend, ...] = (
    Backend("onnx", "embedding backend (the default)", ("onnxruntime", "tokenizers"),
            ("onnxruntime", "tokenizers")),
    Backend("onnx-int8", "embedding backend, int8-quantised", ("onnxruntime", "onnx", "onnxruntime.quantization"),
            ("onnxruntime", "onnx", "ml_dtypes")),
    Backend("torch", "embedding backend (sentence-transformers)", ("torch", "sentence_transformers"),
            ("torch", "sentence-transformers")),
    Backend("ray", "executor for batch/ablate --executor ray", ("ray",), ("ray",)),
)
BY_NAME = {backend.name: backend for backend in BACKENDS}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(requirement: str) -> str:
    """`requirement` as this package declares it (with its bounds), else the bare name."""
    try:
        lines = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return requirement
    for line in lines:
        spec = line.split(";")[0].strip()
        name = re.match(r"[A-Za-z0-9_.\-]+", spec)
        if name and _canonical(name.group(0)) == _canonical(requirement):
            return spec
    return requirement


def missing(name: str) -> str | None:
    """None when backend `name` imports; else one line: the module that is missing and the install command."""
    backend = BY_NAME[name]
    for module in backend.modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            lacking = getattr(exc, "name", None) or module
            wanted = " ".join(f"'{declared(r)}'" for r in backend.requirements)
            return (f"{backend.name} ({backend.purpose}) cannot import {lacking!r}: "
                    f"install it with: pip install {wanted}")
    return None


def require(name: str) -> None:
    """Raise a ConfigError naming the missing module and its install command, if backend `name` lacks one."""
    problem = missing(name)
    if problem:
        raise ConfigError(problem)
