"""Compile the physics kernels ahead: :func:`warm_up` (and ``ledgekit warmup`` on the command line).

The rigid-body solve is compiled with numba the first time it runs on a machine (tens of seconds, once) and
loaded from numba's disk cache afterwards (a fraction of a second). A game calls :func:`warm_up` at start-up,
for instance on a background thread behind its title screen with a progress bar, so that the first physics
step never freezes the window; a player or an installer can run ``ledgekit warmup`` once instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["WARM_UP_STAGES", "BackgroundWarmUp", "warm_up"]

WARM_UP_STAGES = 14
"""How many times :func:`warm_up` reports progress (once per compiled stage)."""


def warm_up(progress: Callable[[float, str], None] | None = None) -> float:
    """Compile (or load from the cache) every physics kernel; returns the seconds it took.

    ``progress(fraction, stage)`` is called after each stage, with the fraction done (0 to 1] and the stage's
    name. Safe to call from a background thread and more than once (later calls return at once)."""
    from itertools import chain

    from .world.cast_kernel import compile_steps as mover_steps
    from .world.collide_kernel import compile_steps as manifold_steps
    from .world.kernel import compile_steps as solve_steps
    from .world.step_kernel import compile_steps as glue_steps
    from .world.warmstart import compile_steps as preparation_steps

    global _ready
    start = time.perf_counter()
    stages = chain(manifold_steps(), preparation_steps(), solve_steps(), glue_steps(), mover_steps())
    for done, stage in enumerate(stages, start=1):
        if progress is not None:
            progress(done / WARM_UP_STAGES, stage)
    _ready = True
    return time.perf_counter() - start


_ready = False
"""Whether :func:`warm_up` finished in this process (the kernels stay loaded)."""


class BackgroundWarmUp:
    """:func:`warm_up` on a daemon thread, for a game to poll from its frame loop: show :attr:`fraction` and
    :attr:`stage` on a "preparing physics" bar while :attr:`done` is false, and run no physics step until it
    is true (a step would wait for the compiler anyway, freezing the window).

    The compiler holds Python's interpreter lock in bursts, so the window stays responsive but may drop a few
    frames during the first start; from the disk cache it takes well under a second."""

    def __init__(self) -> None:
        self.fraction = 0.0
        """Fraction of the stages done, 0 to 1."""
        self.stage = "starting"
        """The last stage finished (for the progress text)."""
        self.seconds: float | None = None
        """How long it took, once done."""
        self.error: BaseException | None = None
        """What went wrong, if compiling failed (the game should say so and stop)."""
        self._thread: threading.Thread | None = None
        if _ready:  # already done in this process (a second window, a test): nothing to wait for
            self.fraction, self.stage, self.seconds = 1.0, "ready", 0.0
            return
        self._thread = threading.Thread(target=self._run, name="ledgekit-warm-up", daemon=True)
        self._thread.start()

    @property
    def done(self) -> bool:
        """Whether it has finished (successfully unless :attr:`error` is set)."""
        return self._thread is None or not self._thread.is_alive()

    def _run(self) -> None:
        def report(fraction: float, stage: str) -> None:
            self.fraction, self.stage = fraction, stage

        try:
            self.seconds = warm_up(report)
        except BaseException as error:  # (reported to the game's thread through ``error``)
            self.error = error
