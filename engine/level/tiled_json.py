"""Reading Tiled's JSON files (``.tmj`` maps, ``.tsj`` tilesets) into the model of :mod:`engine.level.model`."""

from __future__ import annotations

from pathlib import Path

from .model import LevelError, TiledMap, Tileset

__all__ = ["read_json_map", "read_json_tileset"]


def read_json_map(path: Path) -> TiledMap:
    """A ``.tmj`` map."""
    raise LevelError(f"{path}: JSON maps are not read yet; save the map as .tmx")


def read_json_tileset(path: Path, firstgid: int, used_by: Path) -> Tileset:
    """A ``.tsj`` tileset used by a map, its gids starting at ``firstgid``."""
    raise LevelError(f"{path}: JSON tilesets are not read yet (used by {used_by}); save the tileset as .tsx")
