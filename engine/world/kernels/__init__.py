"""The physics kernels: plain Python functions over numpy arrays, compiled with numba's public ``njit``.

Each module holds one stage of the rigid-body step, as Box2D v3's sources do:

* :mod:`.layout`: the named columns of every packed array (defined once; pure Python, no numba);
* :mod:`.vector`: arithmetic written to give the same bits compiled and plain;
* :mod:`.broad_phase`: the bodies' boxes, the body pairs (sort and sweep) and the level's grid;
* :mod:`.manifold`: the contact manifold of two rounded polygons (a segment is a two-vertex one);
* :mod:`.narrow_phase`: a step's contacts from the pairs, keyed and warm started from the last step's;
* :mod:`.contact_solver`: Box2D v3's soft step over the contacts in graph-colour order;
* :mod:`.island`: rest times and sleep of groups of touching bodies;
* :mod:`.rigid_step`: the whole step in one call;
* :mod:`.mover`: the character mover's casts, contacts and slides against the level's Minkowski sums.

How they run (:mod:`.compile`): imported as ``engine.world.kernels`` they are compiled (on first call, or
loaded from numba's disk cache); :func:`.compile.plain_kernels` loads the same files again as plain Python,
which the game runs while a background process compiles, and which runs under ``NUMBA_DISABLE_JIT=1`` too.
"""

import importlib
from types import ModuleType

STAGES = ("layout", "vector", "broad_phase", "manifold", "narrow_phase", "contact_solver", "island", "rigid_step", "mover")
"""The kernel modules, each imported when first asked for (``kernels.rigid_step``): importing this package
imports nothing else, numba included."""

__all__ = ["STAGES"]

if __name__ == "engine.world.kernels":  # (the compiled tree: before any kernel is compiled or loaded)
    from .compile import refresh_stale_caches

    refresh_stale_caches()


def __getattr__(name: str) -> ModuleType:
    if name in STAGES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
