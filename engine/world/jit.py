"""Which physics kernels the world runs: the compiled ones, or the same functions as plain Python.

:func:`kernels` is what the world's parts call (``kernels().rigid_step.step(...)``). By default it is the
compiled package, :mod:`engine.world.kernels`: numba compiles each kernel on its first call, or loads it from
its disk cache. A game that must not wait for the compiler on a first start calls :func:`run_plain` (its
kernels then run as Python, slower but at once) while a background process fills the disk cache
(:mod:`engine.warmup`), then :func:`run_compiled`. Nothing else in the engine imports numba, so a program that
only loads levels (``ledgekit check``) never does.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .kernels.compile import COMPILED_PACKAGE, plain_kernels

__all__ = ["kernels", "run_compiled", "run_plain", "running_plain"]

_active: ModuleType | None = None


def kernels() -> ModuleType:
    """The kernels package in use (the compiled one unless :func:`run_plain` was called)."""
    global _active
    if _active is None:
        _active = importlib.import_module(COMPILED_PACKAGE)
    return _active


def run_plain() -> None:
    """Run the kernels as plain Python from now on (nothing compiles; numba is not imported for them)."""
    global _active
    _active = plain_kernels()


def run_compiled() -> None:
    """Run the compiled kernels from now on (each compiles, or loads from the disk cache, at its first call)."""
    global _active
    _active = importlib.import_module(COMPILED_PACKAGE)


def running_plain() -> bool:
    """Whether the kernels run as plain Python."""
    return _active is not None and _active.__name__ != COMPILED_PACKAGE
