"""Keep the memory a step frees for the next step, rather than give it back to the system and fault it in again.

A crate step's kernels make their working arrays afresh each step (the contacts, their Jacobians and constants:
about 5 MB for 1,000 crates) and free them at its end. glibc's malloc then hands the freed top of its heap back to
the system once it exceeds its *trim threshold*, which it sets itself to twice the largest block it has seen freed
from its own memory map (so about 2 MB here): the next step takes the same memory back and the kernel zero-fills
every page of it again. Measured on the 990-crate pyramid: 600 minor page faults a step, 0.7-1.0 ms of the step's
3.5 ms in the system (thread CPU time); with the thresholds below, 5 faults and 2.6 ms.

:func:`keep_step_memory` sets the two thresholds once to the ceiling glibc's own adjustment would reach on a
64-bit system (blocks up to 32 MiB from the heap, the heap's free top kept up to 64 MiB), so the steps reuse their
memory from the first. At most 64 MiB stays resident beyond what is in use; the rest is still given back. Nothing
happens on a C library other than glibc (macOS, Windows, musl): their allocators are left as they are.
"""

from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["MMAP_THRESHOLD", "TRIM_THRESHOLD", "keep_step_memory"]

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
"""``mallopt``'s parameter numbers (glibc's ``malloc.h``)."""
MMAP_THRESHOLD = 32 * 1024 * 1024
"""Bytes: smaller blocks come from the heap (glibc's ``DEFAULT_MMAP_THRESHOLD_MAX`` on 64-bit systems)."""
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD
"""Bytes: the heap's free top is given back to the system beyond this (glibc's own rule: twice the above)."""

_set: bool | None = None
"""Whether the thresholds were set (None: not tried yet)."""


def keep_step_memory() -> bool:
    """Set glibc's thresholds (once per process; later calls only say how it went). Returns whether they are
    set: False off glibc."""
    global _set
    if _set is None:
        _set = _set_thresholds()
    return _set


def _set_thresholds() -> bool:
    if not sys.platform.startswith("linux") or not _glibc():
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # (the C library the process already runs on)
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def _glibc() -> bool:
    """Whether the process runs on glibc (musl, say, has a ``mallopt`` that does nothing)."""
    try:
        return os.confstr("CS_GNU_LIBC_VERSION") is not None
    except (ValueError, OSError):
        return False
