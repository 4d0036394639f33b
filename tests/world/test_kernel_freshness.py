"""The kernels' disk cache stays true to their sources: a kernel module whose dependency changed loses its cache
files (numba then compiles it again), and only it (engine.world.kernels.compile.refresh_stale_caches)."""

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


def _cache_files(folder: Path) -> dict[str, list[Path]]:
    """A cache file pair (index, data) per kernel module in ``folder``, named as numba names them."""
    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    for name in ("manifold", "narrow_phase", "rigid_step", "island", "mover"):
        made[name] = [folder / f"{name}.kernel-10.py311.nbi", folder / f"{name}.kernel-10.py311.1.nbc"]
        for path in made[name]:
            path.write_bytes(b"cached")
    return made


def test_the_modules_made_stale_lose_their_cache_files_beside_them_and_under_numba_cache_dir(tmp_path,
                                                                                              monkeypatch):
    """numba 0.68 checks a cached kernel against a hash of its own file's content, so a new time stamp does not
    make it compile again: the stale modules' cache files go, where numba keeps them (beside the sources, and
    under NUMBA_CACHE_DIR in a folder named for the source folder)."""
    import hashlib

    folder = _copy(tmp_path)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    source = os.path.abspath(folder)
    places = [folder / "__pycache__",
              tmp_path / "cache" / f"kernels_{hashlib.sha1(source.encode()).hexdigest()}"]
    refresh_stale_caches(folder)
    files = [_cache_files(place) for place in places]
    with (folder / "manifold.py").open("a") as source_file:
        source_file.write("\n# an edit\n")
    assert set(refresh_stale_caches(folder)) == {"narrow_phase", "rigid_step"}
    for made in files:
        assert not any(path.exists() for name in ("narrow_phase", "rigid_step") for path in made[name])
        assert all(path.exists() for name in ("manifold", "island", "mover") for path in made[name])


def test_an_unchanged_folder_touches_nothing(tmp_path):
    folder = _copy(tmp_path)
    refresh_stale_caches(folder)
    assert refresh_stale_caches(folder) == []
