"""Which reader reads which Tiled file, by suffix.

A TMX map may use a JSON tileset (``.tsj``) and a JSON map a TSX one, so each format's reader needs the
other's tileset reader. Rather than import each other, the readers register here when they are imported
(``engine.level`` imports both), and look the other up here by the file's suffix.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .model import LevelError, TiledMap, Tileset

__all__ = ["MAP_READERS", "TILESET_READERS", "read_map_file", "read_tileset_file"]

MAP_READERS: dict[str, Callable[[Path], TiledMap]] = {}
"""Suffix (lower case, with the dot) -> ``reader(path)`` of a map."""
TILESET_READERS: dict[str, Callable[[Path, int, Path, Any], Tileset]] = {}
"""Suffix -> ``reader(path, firstgid, used_by, budget)`` of an external tileset."""


def read_map_file(path: Path) -> TiledMap:
    """The map at ``path``, read by the reader of its suffix (``.tmx``, ``.tmj``, ``.json``)."""
    reader = MAP_READERS.get(path.suffix.lower())
    if reader is None:
        known = ", ".join(sorted(MAP_READERS))
        raise LevelError(f"{path}: not a map file Ledgekit reads (the suffix is not one of {known})")
    return reader(path)


def read_tileset_file(path: Path, firstgid: int, used_by: Path, budget: Any) -> Tileset:
    """The external tileset at ``path`` (used by the map ``used_by``), read by the reader of its suffix."""
    reader = TILESET_READERS.get(path.suffix.lower())
    if reader is None:
        known = ", ".join(sorted(TILESET_READERS))
        raise LevelError(f"{used_by}: tileset {path.name!r} is not a tileset file Ledgekit reads ({known})")
    return reader(path, firstgid, used_by, budget)
