"""Where and how Tiled draws a tile object, in the engine frame (pixels, y up, angles counter-clockwise).

Tiled (libtiled's ``MapRenderer`` / ``CellRenderer``) draws a tile object's tile stretched over the object's
width and height (not repeated), its bottom-left corner at the object's (x, y), turned about that corner by
the object's rotation (clockwise on screen), flipped inside its own box, and moved by its tileset's
``tileoffset`` scaled as the tile is scaled, in the object's turned frame. Its layer's opacity and tint (its
groups' multiplied in) apply to the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..geometry import Vec2
from .model import FLIP_H, FLIP_V, MapObject, TiledMap, Tint

__all__ = ["TilePicture", "object_picture"]


@dataclass(frozen=True)
class TilePicture:
    """One drawn tile: ``gid`` with its flip bits, the picture's ``center`` (px, engine frame), its ``size``
    (px, width and height before turning), ``angle`` (radians, counter-clockwise), ``opacity`` (0-1) and
    ``tint``."""

    gid: int
    center: Vec2
    size: Vec2
    angle: float
    opacity: float
    tint: Tint


def object_picture(tiled: TiledMap, obj: MapObject) -> TilePicture | None:
    """How Tiled draws tile object ``obj`` of map ``tiled``; ``None`` for an object without a tile, or whose
    tile is in no tileset of the map."""
    ts = tiled.tileset_of(obj.gid) if obj.kind == "tile" and obj.gid else None
    if ts is None:
        return None
    tile_w, tile_h = ts.tile_size(obj.gid - ts.firstgid)
    width, height = obj.width or tile_w, obj.height or tile_h
    scale_x, scale_y = width / max(tile_w, 1), height / max(tile_h, 1)
    # The picture's centre in the object's own frame (Tiled's: y down, origin at its bottom-left corner).
    local_x = width / 2 + ts.offset[0] * scale_x
    local_y = -height / 2 + ts.offset[1] * scale_y
    x, y = obj.place(local_x, local_y)
    gid = obj.gid | (FLIP_H if obj.flip_h else 0) | (FLIP_V if obj.flip_v else 0)
    map_height = tiled.height * tiled.tileheight
    return TilePicture(gid, (x, map_height - y), (width, height), -math.radians(obj.rotation), obj.opacity, obj.tint)
