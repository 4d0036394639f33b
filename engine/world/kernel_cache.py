"""Keeps numba's disk cache of the physics kernels true to their source.

numba checks a cached function against its own source file only (its time stamp and size). A kernel that
calls a kernel of another module (the step's glue calls the solve, the solve's set-up calls the warm start)
is compiled together with the callee's code, so after an edit of the callee's module alone (a ``git pull`` in
an editable checkout, a patched file) the caller would load the old callee's code from the cache: old
behaviour, silently. :func:`refresh_kernel_cache` keeps a digest of every kernel module's source beside the
cache and, when it differs, drops the cached entries of all of them, so they compile again, together.

(An install of a new release replaces every file, which numba notices by itself; this is for partial changes.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from numba.core.caching import FunctionCache
from numba.core.registry import CPUDispatcher

__all__ = ["STAMP_NAME", "refresh_kernel_cache", "source_digest"]

STAMP_NAME = "ledgekit-kernels.digest"
"""The file, in the kernels' cache directory, that holds the digest of their sources when they were cached."""


def source_digest(modules: Sequence[ModuleType]) -> str:
    """A digest of the modules' source files (SHA-1, hex), in the order given."""
    digest = hashlib.sha1()
    for module in modules:
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()


def _caches(modules: Sequence[ModuleType]) -> list[FunctionCache]:
    """The disk caches of the cached kernels in ``modules`` (numba keeps one per compiled function, as the
    dispatcher's ``_cache``)."""
    caches = (getattr(thing, "_cache", None) for module in modules for thing in vars(module).values()
              if isinstance(thing, CPUDispatcher))
    return [cache for cache in caches if isinstance(cache, FunctionCache)]


def refresh_kernel_cache(modules: Sequence[ModuleType]) -> bool:
    """Drop the disk cache entries of every cached kernel in ``modules`` when the modules' sources differ from
    those the cache was made from (or no digest was kept yet); returns whether it dropped them. Call it before
    any of them runs in the process. A cache directory that cannot be written is left as it is (numba then
    uses its own per-user directory, checked the same way next time)."""
    caches = _caches(modules)
    if not caches:
        return False
    stamp = Path(caches[0]._cache_path) / STAMP_NAME
    digest = source_digest(modules)
    try:
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        for cache in caches:
            cache.flush()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        return False
    return True
