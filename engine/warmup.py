"""Compile the physics kernels ahead: :func:`warm_up` (and ``ledgekit warmup`` on the command line).

The rigid-body solve is compiled with numba the first time it runs on a machine (tens of seconds, once) and
loaded from numba's disk cache afterwards (a fraction of a second). A game calls :func:`warm_up` at start-up,
for instance on a background thread behind its title screen with a progress bar, so that the first physics
step never freezes the window; a player or an installer can run ``ledgekit warmup`` once instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["WARM_UP_STAGES", "warm_up"]

WARM_UP_STAGES = 7
"""How many times :func:`warm_up` reports progress (once per compiled stage)."""


def warm_up(progress: Callable[[float, str], None] | None = None) -> float:
    """Compile (or load from the cache) every physics kernel; returns the seconds it took.

    ``progress(fraction, stage)`` is called after each stage, with the fraction done (0 to 1] and the stage's
    name. Safe to call from a background thread and more than once (later calls return at once)."""
    from itertools import chain

    from .world.collide_kernel import compile_steps as manifold_steps
    from .world.kernel import compile_steps as solve_steps
    from .world.warmstart import compile_steps as preparation_steps

    start = time.perf_counter()
    for done, stage in enumerate(chain(manifold_steps(), preparation_steps(), solve_steps()), start=1):
        if progress is not None:
            progress(done / WARM_UP_STAGES, stage)
    return time.perf_counter() - start
