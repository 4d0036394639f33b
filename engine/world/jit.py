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
from collections.abc import Callable, Iterator
from types import ModuleType

from .kernels.compile import COMPILED_PACKAGE, plain_kernels

__all__ = ["add_stages", "compile_stages", "kernels", "run_compiled", "run_plain", "running_plain"]

_active: ModuleType | None = None
_stage_makers: list[Callable[[ModuleType], Iterator[str]]] = []
_loaded = False


def add_stages(maker: Callable[[ModuleType], Iterator[str]]) -> None:
    """Register how a part of the world compiles its kernels (``maker(package)`` compiles or loads them from
    the compiled ``package``, callees first, yielding each stage's name): the world's parts register theirs
    when imported, in the order :func:`compile_stages` runs them."""
    _stage_makers.append(maker)


def compile_stages() -> Iterator[str]:
    """Compile (or load from the disk cache) every registered part's kernels, stage by stage; yields each
    stage's name once it is ready."""
    global _loaded
    compiled = importlib.import_module(COMPILED_PACKAGE)
    for maker in _stage_makers:
        yield from maker(compiled)
    _loaded = True


def kernels() -> ModuleType:
    """The kernels package in use (the compiled one unless :func:`run_plain` was called). The first time the
    compiled one is asked for in a process, every kernel is compiled or loaded, callees first
    (:func:`compile_stages`): loaded from numba's disk cache after a kernel that was compiled together with it,
    a kernel called from Python was seen to fail boxing its answer ("'descr' is NULL")."""
    global _active
    if _active is None:
        run_compiled()
    assert _active is not None
    return _active


def run_plain() -> None:
    """Run the kernels as plain Python from now on (nothing compiles; numba is not imported for them)."""
    global _active
    _active = plain_kernels()


def run_compiled() -> None:
    """Run the compiled kernels from now on (all compiled, or loaded from the disk cache, callees first)."""
    global _active
    compiled = importlib.import_module(COMPILED_PACKAGE)
    if not _loaded:
        for _ in compile_stages():
            pass
    _active = compiled


def running_plain() -> bool:
    """Whether the kernels run as plain Python."""
    return _active is not None and _active.__name__ != COMPILED_PACKAGE
