"""Collision geometry of tiles, placed exactly where Tiled draws them, in the engine frame (pixels, y up,
origin at the map's bottom-left).

Tiled draws an orthogonal map's tile at cell (col, row) with its image's bottom-left corner at the cell's
bottom-left, ``(col * tilewidth, (row + 1) * tileheight)`` (y down), moved by the tileset's ``<tileoffset>``
and by the layer's offset (its groups' included). A tile taller or wider than the grid (image-collection
tiles keep their own image size) hangs up and right from there. Flip flags act inside the tile's own size:
diagonal first (swap x and y), then horizontal, then vertical. The same shapes serve tile objects, scaled to
the object's size, flipped, rotated about its bottom-left corner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..geometry import Vec2
from .model import FLIP_D, FLIP_H, FLIP_V, GID_MASK, MapObject, TiledMap, TileLayer

__all__ = ["TileGeometry", "TileShapes", "TilePlacer"]

_ALL_FLIPS = (0, FLIP_H, FLIP_V, FLIP_D, FLIP_H | FLIP_V, FLIP_H | FLIP_D, FLIP_V | FLIP_D, FLIP_H | FLIP_V | FLIP_D)


@dataclass
class TileShapes:
    """One gid's collision, flips applied, relative to the tile's anchor (engine frame, pixels): the anchor is
    the bottom-left of the cell the tile stands in (tileset offset included in the shapes)."""

    polygons: list[list[Vec2]]
    chains: list[list[Vec2]]
    one_way: bool


@dataclass
class TileGeometry:
    """Everything tile layers add to the static world (engine frame, pixels)."""

    polygons: list[list[Vec2]] = field(default_factory=list)
    chains: list[list[Vec2]] = field(default_factory=list)
    one_way_tops: list[tuple[float, float, float]] = field(default_factory=list)
    """(left, right, top) of every one-way tile's collision shape."""


def _flip(px: float, py: float, raw: int, w: float, h: float) -> tuple[float, float]:
    """A tile-local point (Tiled frame, y down) under the gid's flip flags, inside a w x h tile."""
    if raw & FLIP_D:
        px, py = py, px
    if raw & FLIP_H:
        px = w - px
    if raw & FLIP_V:
        py = h - py
    return px, py


class TilePlacer:
    """Places tiles' collision shapes; each gid (with its flips) is worked out once and cached."""

    def __init__(self, tiled: TiledMap) -> None:
        self.tiled = tiled
        self.map_h = tiled.height * tiled.tileheight
        self._cache: dict[int, TileShapes] = {}
        self.full_blocks = self._full_block_gids()

    def shapes(self, raw: int) -> TileShapes:
        """The collision of a raw gid (flip bits included) relative to its anchor; empty for unknown gids."""
        cached = self._cache.get(raw)
        if cached is None:
            cached = self._cache[raw] = self._work_out(raw)
        return cached

    def _work_out(self, raw: int) -> TileShapes:
        gid = raw & GID_MASK
        ts = self.tiled.tileset_of(gid)
        if ts is None:
            return TileShapes([], [], False)
        local = gid - ts.firstgid
        w, h = ts.tile_size(local)
        ox, oy = ts.offset
        polygons, chains = [], []
        for shape in ts.tile_shapes.get(local, []):
            points = [_flip(px, py, raw, w, h) for px, py in shape.outline()]
            # Tiled (y down, from the tile's top-left) -> engine (y up, from the tile's bottom-left).
            moved = [(px + ox, h - py - oy) for px, py in points]
            if shape.kind == "polyline":
                if len(moved) >= 2:
                    chains.append(moved)
            elif shape.kind not in ("point", "text") and len(moved) >= 3:
                polygons.append(moved)
        one_way = bool(ts.tile_properties.get(local, {}).get("one_way", False))
        return TileShapes(polygons, chains, one_way)

    def _full_block_gids(self) -> set[int]:
        """Gids (any flips) whose collision is exactly their whole grid cell and which are not one-way: runs
        of them become one rectangle before the union (far fewer shapes to merge)."""
        full: set[int] = set()
        tw, th = self.tiled.tilewidth, self.tiled.tileheight
        for ts in self.tiled.tilesets:
            if ts.offset != (0.0, 0.0) or ts.image_tiles:
                continue
            for local, shapes in ts.tile_shapes.items():
                if ts.tile_size(local) != (tw, th) or ts.tile_properties.get(local, {}).get("one_way"):
                    continue
                if len(shapes) == 1 and shapes[0].kind == "rectangle" and shapes[0].rotation == 0 and (
                        shapes[0].x, shapes[0].y, shapes[0].width, shapes[0].height) == (0, 0, tw, th):
                    full.update((ts.firstgid + local) | flags for flags in _ALL_FLIPS)
        return full

    def layer(self, layer: TileLayer, into: TileGeometry) -> None:
        """Add one tile layer's collision (its offset applied) to ``into``."""
        tw, th = self.tiled.tilewidth, self.tiled.tileheight
        dx, dy = layer.offset[0], -layer.offset[1]  # Tiled's offset is y down
        full = self.full_blocks
        for row, cells in enumerate(layer.cells):
            base_y = self.map_h - (row + 1) * th + dy
            block_start = -1
            for col, raw in enumerate([*cells, 0]):
                if raw in full:
                    if block_start < 0:
                        block_start = col
                    continue
                if block_start >= 0:
                    x0, x1 = block_start * tw + dx, col * tw + dx
                    into.polygons.append([(x0, base_y), (x1, base_y), (x1, base_y + th), (x0, base_y + th)])
                    block_start = -1
                if not raw:
                    continue
                self._place(self.shapes(raw), col * tw + dx, base_y, into)

    @staticmethod
    def _place(shapes: TileShapes, ax: float, ay: float, into: TileGeometry) -> None:
        for poly in shapes.polygons:
            placed = [(ax + x, ay + y) for x, y in poly]
            if shapes.one_way:
                xs = [p[0] for p in placed]
                into.one_way_tops.append((min(xs), max(xs), max(p[1] for p in placed)))
            else:
                into.polygons.append(placed)
        if not shapes.one_way:
            into.chains.extend([[(ax + x, ay + y) for x, y in chain] for chain in shapes.chains])

    def object_shapes(self, obj: MapObject) -> tuple[list[list[Vec2]], list[list[Vec2]]] | None:
        """A tile object's collision in the engine frame: its tile's shapes scaled to the object's size,
        flipped and rotated as Tiled draws the object. None when its tile has no collision shapes."""
        raw = obj.gid | (FLIP_H if obj.flip_h else 0) | (FLIP_V if obj.flip_v else 0)
        ts = self.tiled.tileset_of(obj.gid)
        if ts is None:
            return None
        shapes = self.shapes(raw)
        if not shapes.polygons and not shapes.chains:
            return None
        w, h = ts.tile_size(obj.gid - ts.firstgid)
        sx = obj.width / w if obj.width > 0 else 1.0
        sy = obj.height / h if obj.height > 0 else 1.0
        angle = -math.radians(obj.rotation)  # Tiled turns clockwise on screen
        c, s = math.cos(angle), math.sin(angle)
        ox, oy = obj.x, self.map_h - obj.y  # the object's bottom-left corner, engine frame

        def place(points: list[Vec2]) -> list[Vec2]:
            return [(ox + c * x * sx - s * y * sy, oy + s * x * sx + c * y * sy) for x, y in points]

        return [place(p) for p in shapes.polygons], [place(p) for p in shapes.chains]

