"""The kernels' disk cache stays true to their sources: a kernel module whose dependency changed gets a new
time stamp (numba then compiles it again), and only it (engine.world.kernels.compile.refresh_stale_caches)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from engine.world.kernels.compile import refresh_stale_caches

KERNELS = Path(__file__).resolve().parents[2] / "engine" / "world" / "kernels"


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "kernels"
    shutil.copytree(KERNELS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for path in folder.glob("*.py"):
        os.utime(path, (1_000_000_000, 1_000_000_000))  # (an old stamp, to see which ones are touched)
    return folder


def test_an_edited_dependency_touches_the_modules_that_use_it_and_no_other(tmp_path):
    folder = _copy(tmp_path)
    assert refresh_stale_caches(folder) == []  # (the first look: the digests are kept)
    with (folder / "manifold.py").open("a") as source:
        source.write("\n# an edit\n")
    touched = refresh_stale_caches(folder)
    assert set(touched) == {"narrow_phase", "rigid_step"}  # (the manifold's callers, directly or not)
    stamps = {path.stem: path.stat().st_mtime for path in folder.glob("*.py")}
    assert all(stamps[name] > 1_000_000_000 for name in touched)
    assert all(stamps[name] == 1_000_000_000 for name in stamps if name not in touched and name != "manifold")
    assert refresh_stale_caches(folder) == []  # (done once: nothing stale is left)


def test_an_unchanged_folder_touches_nothing(tmp_path):
    folder = _copy(tmp_path)
    refresh_stale_caches(folder)
    assert refresh_stale_caches(folder) == []
