"""numba's disk cache checks a compiled function against its own source file only: a cached kernel that
calls a kernel of another module keeps that module's old code after it is edited alone. The engine's kernel
modules are checked together (:func:`engine.world.kernel_cache.refresh_kernel_cache`): shown here on two tiny
cached modules, in fresh processes as a game would start."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CALLEE = "import numba\n\n@numba.njit(cache=True)\ndef value():\n    return {}\n"
CALLER = "import numba\nimport callee\n\n@numba.njit(cache=True)\ndef get():\n    return callee.value()\n"


def run(folder: Path, refresh: bool) -> int:
    """What the cached caller returns in a new process (with or without the refresh before it runs)."""
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(folder)!r})
        import callee, caller
        if {refresh!r}:
            from engine.world.kernel_cache import refresh_kernel_cache
            refresh_kernel_cache([callee, caller])
        print(caller.get())
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def edit_callee(folder: Path, number: int) -> None:
    path = folder / "callee.py"
    path.write_text(CALLEE.format(number))
    stamp = path.stat().st_mtime + 10  # (a clearly newer time stamp, as an edit a while later has)
    os.utime(path, (stamp, stamp))


@pytest.mark.parametrize("refresh", [False, True])
def test_an_edited_callee_is_used_by_its_cached_caller_only_with_the_refresh(tmp_path, refresh):
    (tmp_path / "caller.py").write_text(CALLER)
    edit_callee(tmp_path, 1)
    assert run(tmp_path, refresh) == 1  # (compiled and cached)
    edit_callee(tmp_path, 2)
    # numba alone keeps the caller's cached code, with the old callee inside; the refresh drops it.
    assert run(tmp_path, refresh) == (2 if refresh else 1)
    assert run(tmp_path, refresh) == (2 if refresh else 1)  # (and the fresh compile is cached again)


def test_the_engines_kernels_carry_the_digest_of_their_sources():
    from engine.world import KERNEL_MODULES, kernel
    from engine.world.kernel_cache import STAMP_NAME, refresh_kernel_cache, source_digest
    modules = list(KERNEL_MODULES)
    assert not refresh_kernel_cache(modules)  # (done at import: the sources have not changed since)
    stamp = Path(kernel.solve_step._cache._cache_path) / STAMP_NAME
    assert stamp.read_text() == source_digest(modules)


def test_every_module_with_cached_kernels_is_refreshed_with_the_others():
    """A module whose compiled functions are cached on disk and left out of ``KERNEL_MODULES`` would keep its
    cached code after an edit of a module it calls."""
    import importlib
    import pkgutil

    import engine.world
    from numba.core.caching import FunctionCache
    from numba.core.registry import CPUDispatcher

    cached = set()
    for info in pkgutil.iter_modules(engine.world.__path__):
        module = importlib.import_module(f"engine.world.{info.name}")
        if any(isinstance(getattr(thing, "_cache", None), FunctionCache) for thing in vars(module).values()
               if isinstance(thing, CPUDispatcher) and thing.__module__ == module.__name__):
            cached.add(module.__name__)
    assert cached == {module.__name__ for module in engine.world.KERNEL_MODULES}
