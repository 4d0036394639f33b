"""Preparing the physics kernels: compiled once per machine into numba's disk cache, loaded afterwards.

* :func:`warm_up` compiles (or loads from the cache) every kernel in this process, stage by stage
  (``ledgekit warmup`` from the command line).
* :class:`BackgroundWarmUp` is for a game, which must never wait for the compiler: the kernels run at once as
  plain Python (:func:`engine.world.jit.run_plain`) while a background *process* (``python -m engine.warmup``)
  compiles them into the disk cache and reports its progress; then this process loads them from the cache on a
  thread and switches to them between two steps (:func:`engine.world.jit.run_compiled`). From a warm cache the
  whole takes a second or two.
* :func:`first_start` tells whether the kernels of this version were ever prepared on this machine (a stamp
  file in the user's cache folder), so a game says "first start only" only then.
"""

from __future__ import annotations

import hashlib
import math
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["WARM_UP_STAGES", "BackgroundWarmUp", "first_start", "warm_up"]

_STAGE_SECONDS = (
    ("manifolds", 3.3), ("broad phase", 5.4), ("contacts", 0.65), ("colours and sleep", 1.0), ("rigid step", 18.2),
    ("character casts", 3.2), ("character contacts", 0.2), ("character slides", 2.4), ("character touches", 0.1),
    ("crowd boxes", 0.6), ("level grid", 0.1),
)
"""The compiled stages in the order they run, with the CPU seconds each took on a cold cache (a 2-core machine,
numba 0.68.1, round 11): progress is reported in proportion to them, so that it moves as the work does (the
stages take 0.1 to 18 s). Only the proportions matter."""

WARM_UP_STAGES = len(_STAGE_SECONDS)
"""How many times :func:`warm_up` reports progress (once per compiled stage)."""

_DONE_AFTER = tuple(sum(s for _, s in _STAGE_SECONDS[:k + 1]) / sum(s for _, s in _STAGE_SECONDS)
                    for k in range(WARM_UP_STAGES))
"""The fraction done after each stage."""

_FIRST_START_SECONDS = 90.0
"""Seconds a first start's compile is guessed to take before any stage has finished (the background process is
niced and shares the machine with the game), for :attr:`BackgroundWarmUp.fraction`'s pace."""


def warm_up(progress: Callable[[float, str], None] | None = None) -> float:
    """Compile (or load from the cache) every physics kernel; returns the seconds it took.

    ``progress(fraction, stage)`` is called after each stage, with the fraction done (0 to 1] and the stage's
    name. Safe to call from a background thread and more than once (later calls return at once)."""
    from .world.jit import compile_stages

    global _ready
    start = time.perf_counter()
    for done, stage in enumerate(compile_stages()):
        if progress is not None:
            progress(_DONE_AFTER[min(done, WARM_UP_STAGES - 1)], stage)
    _ready = True
    stamp = _stamp_path()
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.touch()
    return time.perf_counter() - start


_ready = False
"""Whether :func:`warm_up` finished in this process (the kernels stay loaded)."""


def _stamp_path() -> Path:
    """The file that says this version's kernels were prepared on this machine: named by a digest of the
    kernels' sources and the Python and numba versions, in ``$XDG_CACHE_HOME/ledgekit`` (``~/.cache``)."""
    from importlib.metadata import PackageNotFoundError, version

    here = Path(__file__).parent / "world" / "kernels"
    digest = hashlib.sha1(sys.version.encode())
    try:
        digest.update(version("numba").encode())
    except PackageNotFoundError:
        pass
    for path in sorted(here.glob("*.py")):
        digest.update(path.read_bytes())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ledgekit" / f"kernels-{digest.hexdigest()[:16]}.ready"


def first_start() -> bool:
    """Whether the physics kernels of this version compile now: never prepared on this machine, or numba's disk
    cache of them is gone since (then a game that trusted the stamp alone would freeze compiling in its own
    process)."""
    from .world.kernels.compile import cache_holds_every_kernel_module

    try:
        return not _stamp_path().is_file() or not cache_holds_every_kernel_module()
    except OSError:
        return True


class BackgroundWarmUp:
    """The physics kernels made ready without the game ever waiting for them, for a game to poll from its
    frame loop: :attr:`playable` at once (the kernels run as plain Python meanwhile, slower but the same
    numbers), :attr:`done` once the compiled ones run; :attr:`fraction` and :attr:`stage` say how far the
    background compile is (show them while :attr:`done` is false, with "first start only" when
    :attr:`first_start`). ``plain_meanwhile=False`` keeps the compiled kernels and makes :attr:`playable` wait
    for them (a program that must not run slower for a while)."""

    def __init__(self, plain_meanwhile: bool = True) -> None:
        self._report = (0.0, time.perf_counter())
        """The fraction the background process last reported and when (one tuple: the thread replaces it whole
        while the game reads it; see :attr:`fraction`)."""
        self.stage = "starting"
        """The last stage finished (for the progress text)."""
        self.seconds: float | None = None
        """How long it took, once done."""
        self.error: BaseException | None = None
        """What went wrong, if compiling failed (the game should say so and stop)."""
        self.first_start = first_start()
        """Whether the kernels compile now (this version never ran on this machine): minutes of CPU, not a
        second or two."""
        self._plain = plain_meanwhile
        self._thread: threading.Thread | None = None
        if _ready:  # already done in this process (a second window, a test): nothing to wait for
            self._report, self.stage, self.seconds = (1.0, time.perf_counter()), "ready", 0.0
            return
        if plain_meanwhile:
            from .world.jit import run_plain

            run_plain()
        self._started = time.perf_counter()
        self._thread = threading.Thread(target=self._run, name="ledgekit-warm-up", daemon=True)
        self._thread.start()

    @property
    def fraction(self) -> float:
        """How far it is, 0 to 1, moving steadily: the background process reports each stage as it ends (weighted
        by its usual share of the work), and between two reports the fraction eases towards the next stage's
        at the pace seen so far (86 % of the way when the stage should have ended: the rigid step's stage is half
        the work, and a slower curve jumped by a fifth of the bar at its end), never reaching it before the
        report."""
        done, reported_at = self._report
        if done >= 1.0 or self.done:
            return done
        following = next((f for f in _DONE_AFTER if f > done + 1e-4), 1.0)  # (the reports are rounded)
        seconds_per_unit = (reported_at - self._started) / done if done > 0.0 else _FIRST_START_SECONDS
        expected = max((following - done) * seconds_per_unit, 1e-3)
        waited = time.perf_counter() - reported_at
        return done + (following - done) * 0.95 * (1.0 - math.exp(-2.0 * waited / expected))

    @property
    def done(self) -> bool:
        """Whether it has finished: the compiled kernels run (unless :attr:`error` is set)."""
        return self._thread is None or not self._thread.is_alive()

    def wait(self) -> BaseException | None:
        """Block until it has finished (a program about to end lets the compile it started fill the cache rather
        than leave it half done); returns :attr:`error`."""
        if self._thread is not None:
            self._thread.join()
        return self.error

    @property
    def playable(self) -> bool:
        """Whether physics may step now (at once when the plain kernels run meanwhile)."""
        return self._plain or self.done

    def _run(self) -> None:
        try:
            self._compile_elsewhere()
            self.stage = "loading"
            warm_up()  # (from the disk cache the background process filled: well under a second of work)
            from .world.jit import run_compiled

            run_compiled()
            self._report, self.stage = (1.0, time.perf_counter()), "ready"
            self.seconds = time.perf_counter() - self._started
        except BaseException as error:  # (reported to the game's thread through ``error``)
            self.error = error

    def _compile_elsewhere(self) -> None:
        """Run ``python -m engine.warmup`` and follow its progress lines (``fraction stage``) until it ends."""
        nice = (lambda: os.nice(5)) if hasattr(os, "nice") else None  # (the game's frames come first)
        # (Started in the folder that holds this very ``engine`` package, which ``-m`` puts first on the path: the
        # folder the game was started from may hold another one, a clone beside an installed copy.)
        home = Path(__file__).resolve().parent.parent
        job = subprocess.Popen([sys.executable, "-m", "engine.warmup"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=nice, cwd=home)
        assert job.stdout is not None and job.stderr is not None
        for line in job.stdout:
            fraction, _, stage = line.strip().partition(" ")
            try:
                self._report, self.stage = (min(float(fraction), 0.99), time.perf_counter()), stage
            except ValueError:
                continue
        errors = job.stderr.read()
        if job.wait() != 0:
            raise RuntimeError(f"compiling the physics kernels failed: {errors.strip()[-2000:]}")


def _main() -> int:
    """``python -m engine.warmup``: compile the kernels into the disk cache, a ``fraction stage`` line each."""
    warm_up(lambda fraction, stage: print(f"{fraction:.6f} {stage}", flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
