"""Where the demo's files are: its levels (``game.levels``) and art and sounds (``game.assets``) are package
data, found through :mod:`importlib.resources`, so an installed game finds them from any folder.

In the repository they are the top-level ``levels/`` and ``assets/`` folders; ``pyproject.toml`` maps them
into the ``game`` package, so an editable install finds the same files.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from engine.level.find import find_map, maps_in

__all__ = ["assets_folder", "find_level", "levels_folder", "shipped_levels"]


def _folder(package: str) -> Path:
    """The folder of a data package, as a file system path (arcade and the level loader open files by path)."""
    folder = files(package)
    if not isinstance(folder, Path):  # e.g. a zip import: the files have no path to open
        raise RuntimeError(f"{package} is not installed as plain files ({folder!r}); reinstall Ledgekit with pip")
    return folder


def levels_folder() -> Path:
    """The folder of the shipped levels, their tileset (``tiles.tsx``) and Tiled project."""
    return _folder("game.levels")


def assets_folder() -> Path:
    """The folder of the shipped images (``*.png``) and sounds (``*.wav``)."""
    return _folder("game.assets")


def shipped_levels() -> list[Path]:
    """Every map the demo ships (``.tmx`` and ``.tmj``), sorted by file name."""
    return maps_in(levels_folder())


def find_level(name: str | Path) -> Path:
    """A level file from a path or a shipped level's name (``demo``, ``1_hills_and_ledges``, ``demo.tmx``).

    Raises :class:`engine.LevelError` naming the shipped levels when it is neither.
    """
    return find_map(name, [levels_folder()])
