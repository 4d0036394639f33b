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

import numpy as np

from ..geometry import Vec2
from .outlines import pack_rings
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
    """Everything tile layers and Solid objects add to the static world (engine frame, pixels)."""

    polygons: list[list[Vec2]] = field(default_factory=list)
    """Solid polygons added one by one (objects'); the tile layers' are packed (:meth:`add_packed`)."""
    chains: list[list[Vec2]] = field(default_factory=list)
    one_way_tops: list[tuple[float, float, float]] = field(default_factory=list)
    """(left, right, top) of every one-way tile's collision shape."""
    _packed: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def add_packed(self, points: np.ndarray, sizes: np.ndarray) -> None:
        """Add solid polygons laid end to end: ``points`` ((n, 2) px), ``sizes`` each polygon's point count."""
        self._packed.append((points, sizes))

    def all_polygons(self) -> tuple[np.ndarray, np.ndarray]:
        """Every solid polygon, packed (points, sizes): those added packed, in the order added, then
        :attr:`polygons`."""
        listed_points, listed_sizes = pack_rings(self.polygons)
        points = [p for p, _ in self._packed] + [listed_points]
        sizes = [n for _, n in self._packed] + [listed_sizes]
        return np.concatenate(points).reshape(-1, 2), np.concatenate(sizes).astype(np.int64)


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
        """Add one tile layer's collision (its offset applied) to ``into``, in the cells' order (row by row, left
        to right), a run of whole-cell blocks as one rectangle where the run ends. Each gid's cells are placed
        at once and the polygons stay packed (a large map has hundreds of thousands of cells, a few dozen
        gids)."""
        if not layer.cells or not layer.cells[0]:
            return
        cells = np.array(layer.cells, dtype=np.int64)
        full = np.isin(cells, np.fromiter(self.full_blocks, dtype=np.int64, count=len(self.full_blocks)))
        solid: list[tuple[np.ndarray, np.ndarray]] = []  # ((n, k, 2) points, (n, 3) keys) per gid and shape
        rows, ends, starts = _runs(full)
        if len(rows):
            solid.append((self._run_rectangles(layer, rows, starts, ends), _keys(rows, ends, -1)))
        tops: list[tuple[list[tuple[float, float, float]], np.ndarray]] = []
        chains: list[tuple[np.ndarray, np.ndarray]] = []
        placed = (cells != 0) & ~full
        for raw in np.unique(cells[placed]).tolist():
            shapes = self.shapes(raw)
            if not shapes.polygons and not shapes.chains:
                continue
            row, col = np.nonzero(placed & (cells == raw))
            anchors = self._anchors(layer, row, col)[:, None, :]
            for k, poly in enumerate(shapes.polygons):
                points, keys = anchors + np.array(poly, dtype=np.float64), _keys(row, col, k)
                if shapes.one_way:
                    xs, ys = points[:, :, 0], points[:, :, 1]  # (left, right, top) of each placed copy
                    tops.append((list(zip(xs.min(1).tolist(), xs.max(1).tolist(), ys.max(1).tolist())), keys))
                else:
                    solid.append((points, keys))
            for k, chain in enumerate([] if shapes.one_way else shapes.chains):
                chains.append((anchors + np.array(chain, dtype=np.float64), _keys(row, col, k)))
        if solid:
            into.add_packed(*_packed_in_order(solid))
        into.one_way_tops.extend(_in_order([t for group, _ in tops for t in group], [keys for _, keys in tops]))
        into.chains.extend(_in_order([list(map(tuple, c)) for group, _ in chains for c in group.tolist()],
                                     [keys for _, keys in chains]))

    def _anchors(self, layer: TileLayer, row: np.ndarray, col: np.ndarray) -> np.ndarray:
        """Each cell's anchor (the bottom-left of the cell, the layer's offset applied; px, engine frame)."""
        tw, th = self.tiled.tilewidth, self.tiled.tileheight
        dx, dy = layer.offset[0], -layer.offset[1]  # Tiled's offset is y down
        return np.stack([col * tw + dx, self.map_h - (row + 1) * th + dy], axis=1).astype(np.float64)

    def _run_rectangles(self, layer: TileLayer, rows: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """The rectangles ((n, 4, 2) px) of runs of whole-cell blocks: row, first column, the column after."""
        th = self.tiled.tileheight
        left, bottom = self._anchors(layer, rows, starts).T
        right = self._anchors(layer, rows, ends)[:, 0]
        return np.stack([left, bottom, right, bottom, right, bottom + th, left, bottom + th], axis=1).reshape(-1, 4, 2)

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


def _runs(full: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of true cells along each row of ``full`` ((rows, cols) bools): their rows, the column after each
    run's last cell, and each run's first column, in row then column order."""
    edges = np.diff(np.pad(full, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    return rows, ends, starts


def _keys(rows: np.ndarray, cols: np.ndarray, part: int) -> np.ndarray:
    """(row, column, part) rows: where each placed polygon comes in a walk over the cells (``part``: its place
    among its cell's polygons; -1 for a run of blocks, which comes before the cell where it ends)."""
    return np.stack([rows, cols, np.full_like(rows, part)], axis=1)


def _order(keys: list[np.ndarray]) -> np.ndarray:
    """The order of items by their (row, column, part) keys (stacked in the items' order): the order a
    cell-by-cell walk would have made them in."""
    stacked = np.concatenate(keys)
    return np.lexsort((stacked[:, 2], stacked[:, 1], stacked[:, 0]))


def _in_order(items: list, keys: list[np.ndarray]) -> list:
    """``items`` in the cells' order (see :func:`_order`)."""
    return [items[k] for k in _order(keys).tolist()] if items else []


def _packed_in_order(groups: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Polygons given as groups of equal size ((n, k, 2) points, (n, 3) keys), packed end to end in the cells'
    order: (points (N, 2), each polygon's size)."""
    sizes = np.concatenate([np.full(len(points), points.shape[1]) for points, _ in groups])
    flat = np.concatenate([points.reshape(-1, 2) for points, _ in groups])
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    order = _order([keys for _, keys in groups])
    taken = sizes[order]
    within = np.arange(int(taken.sum())) - np.repeat(np.cumsum(taken) - taken, taken)
    return flat[np.repeat(first[order], taken) + within], taken
