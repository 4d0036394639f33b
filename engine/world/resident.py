"""What a process keeps in memory once its kernels are ready: the compiler's own code is let go.

Loading the compiled kernels (from numba's disk cache) runs LLVM, whose library (``libllvmlite.so``, 170 MB
on disk) is mapped into the process: the pages of its code that loading touched, some 50-70 MiB, stay
counted in the process's resident memory although nothing runs them again unless a kernel must compile
anew. :func:`release_compiler_pages` hands those pages back to the system (``madvise(MADV_DONTNEED)``):
they are clean copies of the file (never written), so the system reads them again from its file cache if
they are ever run again; nothing changes for the process but its footprint. Pages the process wrote (the
library's relocated data) are kept. Only where the system tells which pages are clean (Linux's
``/proc/self/smaps``); elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
import re
import sys
from pathlib import Path

__all__ = ["release_compiler_pages"]

_LIBRARY = "libllvmlite"
"""The compiler's library, as its file is named."""

_MADV_DONTNEED = 4
_MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")


def _clean_mappings(smaps: str, library: str) -> list[tuple[int, int]]:
    """The (start, end) addresses of ``library``'s read-only mappings of which no page was written (from the
    text of ``/proc/self/smaps``)."""
    found: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    written = 0
    for line in smaps.splitlines():
        head = _MAPPING.match(line)
        if head is not None:
            if current is not None and not written:
                found.append(current)
            start, end, permissions, path = head.groups()
            current = (int(start, 16), int(end, 16)) if library in path and "w" not in permissions else None
            written = 0
        elif current is not None and line.startswith(("Private_Dirty:", "Shared_Dirty:", "Anonymous:")):
            written += int(line.split()[1])
    if current is not None and not written:
        found.append(current)
    return found


_released = False
"""Whether this process let the pages go already (the kernels are loaded once; later warm-ups find them)."""


def release_compiler_pages(again: bool = False) -> int:
    """Hand back to the system the compiler's clean code pages this process holds (see the module's
    docstring), once a process unless ``again``; returns how many bytes of address range were let go (0 where
    it cannot tell, or done already)."""
    global _released
    if (_released and not again) or not sys.platform.startswith("linux"):
        return 0
    _released = True
    try:
        smaps = Path("/proc/self/smaps").read_text()
        libc = ctypes.CDLL(None, use_errno=True)  # (the process's own symbols: the C library's madvise)
    except OSError:
        return 0
    madvise = libc.madvise
    madvise.argtypes, madvise.restype = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int), ctypes.c_int
    released = 0
    for start, end in _clean_mappings(smaps, _LIBRARY):
        if madvise(start, end - start, _MADV_DONTNEED) == 0:
            released += end - start
    return released
