"""A normal (non-editable) install carries the whole game: the built wheel holds every package of the source
tree, every shipped level, tileset, Tiled project, image and sound, and ``py.typed``; installed into a folder
of its own, the demo finds its levels and assets through the package from any working folder.

The wheel is built without build isolation (no network): the ``[test]`` extra brings a setuptools that builds
wheels itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow  # builds and installs a wheel (about 15 s)

LEVEL_FILES = ("*.tmx", "*.tsx", "*.tiled-project")
ASSET_FILES = ("*.png", "*.wav")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    (found,) = out.glob("ledgekit-*.whl")
    return found


def _names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def _source_packages() -> set[str]:
    """Every package of the source tree's engine/ and game/ (folders with an ``__init__.py``)."""
    return {str(p.parent.relative_to(ROOT)) for top in ("engine", "game") for p in (ROOT / top).rglob("__init__.py")}


def test_the_wheel_holds_every_package_and_module(wheel):
    names = _names(wheel)
    for package in _source_packages():
        modules = {str(p.relative_to(ROOT)) for p in (ROOT / package).glob("*.py")}
        assert modules <= names, f"{package}: {sorted(modules - names)} missing from the wheel"
    assert {"engine/py.typed", "game/py.typed"} <= names  # mypy users get the types, not "missing stubs"
    assert not any(n.startswith(("tests/", "levels/", "assets/")) for n in names)  # no stray top-level folder


def test_the_wheel_holds_every_level_image_and_sound(wheel):
    names = _names(wheel)
    levels = {f"game/levels/{p.name}" for pattern in LEVEL_FILES for p in (ROOT / "levels").glob(pattern)}
    assets = {f"game/assets/{p.name}" for pattern in ASSET_FILES for p in (ROOT / "assets").glob(pattern)}
    assert len(levels) >= 7 and len(assets) >= 15  # 5 maps, the tileset and the project; 9 images, 7 sounds
    assert levels <= names, sorted(levels - names)
    assert assets <= names, sorted(assets - names)
    assert not any("benchmarks" in n for n in names)  # the benchmark charts stay in the repository


def _run(args: list[str], site: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site), "ARCADE_HEADLESS": "1"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel's ``game`` package installed in a folder of its own (first on the path of the runs below).

    Its ``engine`` stays this checkout's: numba caches the compiled kernels beside their source files, so an
    installed engine would compile them all again (minutes); the wheel's engine files are checked above.
    """
    site = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                           "--target", str(site), str(wheel)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    game_only = tmp_path_factory.mktemp("game_only")
    (site / "game").rename(game_only / "game")
    return game_only


def test_the_installed_game_finds_its_levels_and_assets_from_any_folder(installed, tmp_path):
    done = _run(["-c", "import game.data as d, game.app as a; print(d.levels_folder()); print(a.ASSETS); "
                 "print(' '.join(p.name for p in a.level_order(d.shipped_levels())))"], installed, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    levels, assets, listed = done.stdout.splitlines()
    assert Path(levels) == installed / "game" / "levels" and Path(assets) == installed / "game" / "assets"
    assert not Path(levels).is_relative_to(ROOT)
    shipped = sorted(p.name for p in (ROOT / "levels").glob("*.tmx"))
    assert sorted(listed.split()) == shipped  # the title screen lists every shipped level


def test_the_installed_game_plays_a_shipped_level_by_name(installed, tmp_path):
    done = _run(["-m", "game", "--headless", "--level", "demo", "--frames", "60"], installed, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("60 steps, ")
    done = _run(["-m", "game", "--headless", "--level", "no_such_level", "--frames", "1"], installed, tmp_path)
    assert done.returncode == 2 and "the levels are: 1_hills_and_ledges, 2_crates" in done.stderr


def test_the_installed_checker_checks_the_shipped_levels(installed, tmp_path):
    done = _run(["-m", "engine.level.cli", "check", "--shipped"], installed, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert str(installed / "game" / "levels" / "demo.tmx") in done.stdout
    assert done.stdout.strip().endswith("5 map(s) checked: 0 error(s), 0 warning(s)")
