"""How a kernel is compiled: :func:`kernel`, numba's public ``njit`` with a disk cache, or nothing at all;
:func:`helper` and :func:`inlined` for the functions kernels call.

A kernel is written once, as a plain Python function over numpy arrays and numbers. Loaded as the package
``engine.world.kernels`` it is compiled by ``numba.njit(cache=True, nogil=True, error_model="numpy")``; loaded as
:data:`PLAIN_PACKAGE` (:func:`plain_kernels`: the same files, a second module tree) it stays plain Python and
numba is never imported. Under ``NUMBA_DISABLE_JIT=1`` numba's ``njit`` itself returns the plain function, so
both trees run as Python (for pdb and line coverage).

No fastmath: it reorders sums, and results must not depend on the compiler (replays are bit-identical on one
machine). numpy's error model: a float division does not check for zero (inf or nan, as numpy gives), so no
kernel has a path that raises there, and LLVM can drop the reference counts numba takes on array arguments
(see engine/README.md); the world's inputs never divide by zero, so the results are the same.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

__all__ = ["COMPILED_PACKAGE", "PLAIN_PACKAGE", "cache_holds_every_kernel_module", "helper", "inlined", "kernel",
           "plain_kernels"]

COMPILED_PACKAGE = "engine.world.kernels"
PLAIN_PACKAGE = "engine.world.kernels_plain"
"""The name the kernels' files are loaded under a second time, as plain Python."""

F = TypeVar("F", bound=Callable[..., Any])


def kernel(function: F) -> F:
    """``function`` compiled with ``numba.njit(cache=True, nogil=True, error_model="numpy")``; unchanged in the
    plain tree."""
    if function.__module__.startswith(PLAIN_PACKAGE):
        return function
    import numba

    return numba.njit(cache=True, nogil=True, error_model="numpy")(function)  # type: ignore[return-value]


def helper(function: F) -> F:
    """A helper of kernels, ``numba.njit(nogil=True, error_model="numpy")`` without a disk cache of its own:
    compiled once, for the kernels that call it, which carry its code in their own cache entries (LLVM inlines
    it there where that pays). Not ``inline="always"``: numba then deep-copies the helper's IR into every call
    site and types it again there, which was a fifth of a cold start (67 s of CPU with it, 55 s without; steps
    no slower in interleaved runs). Unchanged in the plain tree."""
    if function.__module__.startswith(PLAIN_PACKAGE):
        return function
    import numba

    return numba.njit(nogil=True, error_model="numpy")(function)  # type: ignore[return-value]


def inlined(function: F) -> F:
    """A part of one kernel, written as a function of its own for reading and called from one place only:
    ``numba.njit(inline="always", nogil=True, error_model="numpy")``, its code typed and compiled inside its
    caller, with no library of its own. numba gives every other compiled function a library and links into it
    its callees' code, which LLVM optimises and emits again there: a part that calls a large tree (the gathering
    of a step's contacts, the solve, the mover's slide) made one more copy of that whole tree (about a second of
    a cold start each). Called from one place only (``tests/test_house.py`` checks it): numba copies an inlined
    function's code into every place that calls it. Unchanged in the plain tree."""
    if function.__module__.startswith(PLAIN_PACKAGE):
        return function
    import numba

    return numba.njit(inline="always", nogil=True, error_model="numpy")(function)  # type: ignore[return-value]


def plain_kernels() -> ModuleType:
    """The kernels package loaded (once) from the same files as plain Python: nothing is compiled."""
    module = sys.modules.get(PLAIN_PACKAGE)
    if module is None:
        here = Path(__file__).parent
        spec = importlib.util.spec_from_file_location(PLAIN_PACKAGE, here / "__init__.py",
                                                      submodule_search_locations=[str(here)])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[PLAIN_PACKAGE] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[PLAIN_PACKAGE]
            raise
    return module


_STAMP = "ledgekit-kernels.json"
"""The file, beside the kernels' own ``__pycache__``, that keeps each kernel module's dependency digest."""


def _dependencies(here: Path) -> dict[str, set[str]]:
    """Each kernel module's name and the kernel modules it imports (``from .name import``)."""
    import re

    graph = {}
    for path in sorted(here.glob("*.py")):
        graph[path.stem] = set(re.findall(r"^from \.(\w+) import", path.read_text(), flags=re.MULTILINE))
    return graph


def refresh_stale_caches(here: Path | None = None) -> list[str]:
    """Make numba compile again the kernel modules whose dependencies changed since their disk cache was made.

    numba checks a cached function against its own source file only (numba 0.68: a hash of its content), but a
    kernel is compiled together with the kernels it calls from other modules: after an edit of a callee's module
    alone (a ``git pull``, a patched file) the caller would load the old callee's code from the cache. So each
    module's digest over its own source and its dependencies' digests is kept beside the cache; for a module
    whose digest changed while its own source did not, its cache files are removed (numba's documented remedy
    for changes in functions called from other files; a new time stamp alone no longer counts since numba
    hashes the content) from the cache beside it and from ``NUMBA_CACHE_DIR``'s, so it compiles again, and only
    it. Returns the modules made stale. A folder that cannot be written is left as it is."""
    import hashlib
    import json
    import os

    here = here or Path(__file__).parent
    graph = _dependencies(here)
    own = {name: hashlib.sha1((here / f"{name}.py").read_bytes()).hexdigest() for name in graph}
    digests: dict[str, str] = {}

    def digest(name: str, seen: frozenset[str] = frozenset()) -> str:
        if name not in digests:
            parts = [own[name]]
            parts += [digest(dep, seen | {name}) for dep in sorted(graph[name]) if dep in graph and dep not in seen]
            digests[name] = hashlib.sha1("".join(parts).encode()).hexdigest()
        return digests[name]

    stamp = here / "__pycache__" / _STAMP
    try:
        kept = json.loads(stamp.read_text()) if stamp.is_file() else {}
    except (OSError, ValueError):
        kept = {}
    touched = []
    now = {}
    for name in graph:
        now[name] = [own[name], digest(name)]
        before = kept.get(name)
        if before and before[0] == own[name] and before[1] != now[name][1]:
            touched.append(name)
    try:
        for name in touched:
            os.utime(here / f"{name}.py")
            for folder in _cache_folders(here):
                for cached in [*folder.glob(f"{name}.*.nbi"), *folder.glob(f"{name}.*.nbc")]:
                    cached.unlink()
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(json.dumps(now, indent=0, sort_keys=True))
    except OSError:
        return []
    return touched


def cache_holds_every_kernel_module(here: Path | None = None) -> bool:
    """Whether numba's disk cache (where :func:`_cache_folders` says it is) holds an index (``.nbi``) for every
    kernel module of ``here``, the compiled kernels' package: a first start's background compile filled it,
    and nothing cleared it since (a removed ``__pycache__``, another ``NUMBA_CACHE_DIR``)."""
    import re

    here = here or Path(__file__).parent
    with_kernels = [path.stem for path in sorted(here.glob("*.py"))
                    if re.search(r"^@kernel$", path.read_text(), flags=re.MULTILINE)]
    (folder,) = _cache_folders(here, in_use_only=True)
    return all(next(folder.glob(f"{name}.*.nbi"), None) for name in with_kernels)


def _cache_folders(here: Path, in_use_only: bool = False) -> list[Path]:
    """Where numba keeps the disk cache of the kernel modules in ``here``, as its documentation on caching says:
    ``__pycache__`` beside them, and a folder of its own under ``NUMBA_CACHE_DIR`` when that is set (named for
    the source folder: its name and the SHA-1 of its absolute path); those that exist. ``in_use_only``: the one
    numba reads and writes now (``NUMBA_CACHE_DIR``'s when it is set), whether it exists or not."""
    import hashlib
    import os

    folders = [here / "__pycache__"]
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        source = os.path.abspath(here)
        folders.append(Path(root) / f"{os.path.basename(source)}_{hashlib.sha1(source.encode()).hexdigest()}")
    if in_use_only:
        return folders[-1:]
    return [folder for folder in folders if folder.is_dir()]
