"""Finding a map by name: what lets a game (or ``python -m game --level demo``) take a level's name as well as
its path, so a command works from any folder once the game's levels are installed as package data.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .model import LevelError

__all__ = ["MAP_SUFFIXES", "find_map", "maps_in"]

MAP_SUFFIXES = (".tmx", ".tmj")
"""The map files Ledgekit loads: Tiled's XML (``.tmx``) and JSON (``.tmj``) maps."""


def maps_in(folder: Path) -> list[Path]:
    """The map files directly in ``folder``, sorted by name (none when it is not a folder)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in MAP_SUFFIXES and p.is_file())


def find_map(name: str | Path, folders: Iterable[Path]) -> Path:
    """``name`` when it is an existing file (a path, relative to the working folder), else the map of that name
    in the first of ``folders`` that has one: ``demo``, ``demo.tmx`` and ``demo.tmj`` all name ``demo.tmx``.

    Raises :class:`LevelError` saying what was looked for and which maps the folders hold.
    """
    path = Path(name)
    if path.is_file():
        return path
    folders = list(folders)
    stem = path.stem if path.suffix.lower() in MAP_SUFFIXES else path.name
    if path.name == str(name):  # a bare name, not a path into some folder
        for folder in folders:
            for suffix in MAP_SUFFIXES:
                if (folder / f"{stem}{suffix}").is_file():
                    return folder / f"{stem}{suffix}"
    known = sorted({p.stem for folder in folders for p in maps_in(folder)})
    raise LevelError(f"{name}: no such map file, and no level of that name"
                     + (f" (the levels are: {', '.join(known)})" if known else ""))
