"""How far a place is from a target through the open space of a level: the order ``ledgekit check --reach``
tries its states in (:mod:`engine.level.reach`), never its verdict.

A :class:`DistanceField` is the length of the shortest way from each cell of a grid over the level to a target
area, moving through cells whose centres are not inside the level's solid geometry (straight steps cost the
cell's size, diagonal ones its size times sqrt 2). It is optimistic on purpose: it knows nothing of gravity,
jump height, doors, platforms or crates, so a way up a wall counts as much as a way across. What it adds to a
straight line: a wall between the player and the target is gone round -- over its top -- so climbing a ladder
or riding a lift up to that top counts as getting nearer, where a straight line would rank it a step aside.

Units: pixels, engine frame (y up, origin at the map's bottom-left).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

import numpy as np

__all__ = ["FIELD_CELL", "DistanceField"]

FIELD_CELL = 16.0
"""Pixels: the grid's cell size (half a tile of the shipped levels)."""
HEADROOM = 4
"""Cells of open space the grid has above the map's top (a jump may go over it)."""
_STEPS = tuple((dx, dy, math.hypot(dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


class DistanceField:
    """Shortest distances (px) through open cells to a target's box, over a grid covering the level.

    ``rings`` are the level's solid outlines (engine frame; holes are rings too: a point is solid when it is
    inside an odd number of them), ``width`` and ``height`` the map's size (px), ``box`` the target's area
    (min_x, min_y, max_x, max_y, px). Made once per target: a few tenths of a CPU second for a 600-tile level.
    """

    def __init__(self, rings: Sequence[Sequence[tuple[float, float]]], width: float, height: float,
                 box: tuple[float, float, float, float]) -> None:
        self.columns = max(1, math.ceil(width / FIELD_CELL))
        self.rows = max(1, math.ceil(height / FIELD_CELL)) + HEADROOM
        self.open = ~_solid_cells(rings, self.columns, self.rows)
        self.distance = self._spread(box)

    def _cell(self, x: float, y: float) -> tuple[int, int]:
        column = min(max(int(x // FIELD_CELL), 0), self.columns - 1)
        row = min(max(int(y // FIELD_CELL), 0), self.rows - 1)
        return column, row

    def _spread(self, box: tuple[float, float, float, float]) -> np.ndarray:
        """Dijkstra from every open cell in ``box`` (the one nearest its centre when none is open)."""
        distance = np.full((self.columns, self.rows), np.inf)
        first_column, first_row = self._cell(box[0], box[1])
        last_column, last_row = self._cell(box[2], box[3])
        queue = [(0.0, c, r) for c in range(first_column, last_column + 1) for r in range(first_row, last_row + 1)
                 if self.open[c, r]]
        if not queue:
            queue = [(0.0, *self._cell((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))]
        for _, c, r in queue:
            distance[c, r] = 0.0
        heapq.heapify(queue)
        open_cells, columns, rows = self.open, self.columns, self.rows
        while queue:
            d, c, r = heapq.heappop(queue)
            if d > distance[c, r]:
                continue
            for dc, dr, length in _STEPS:
                nc, nr = c + dc, r + dr
                if 0 <= nc < columns and 0 <= nr < rows and open_cells[nc, nr]:
                    nd = d + length * FIELD_CELL
                    if nd < distance[nc, nr]:
                        distance[nc, nr] = nd
                        heapq.heappush(queue, (nd, nc, nr))
        return distance

    def at(self, x: float, y: float) -> float:
        """The distance (px) from the point (x, y) to the target: its cell's, or, for a point in a solid or
        shut-in cell (a centre pressed into a slope), the least of its neighbours' plus a cell."""
        column, row = self._cell(x, y)
        found = float(self.distance[column, row])
        if math.isfinite(found):
            return found
        around = self.distance[max(column - 1, 0):column + 2, max(row - 1, 0):row + 2]
        return float(around.min()) + FIELD_CELL

    def heading_across(self, x: float, y: float) -> int:
        """-1 or 1: the way across (left or right) in which the distance falls from (x, y), a cell's size away;
        0 when it falls neither way."""
        here = self.at(x, y)
        left, right = self.at(x - FIELD_CELL, y), self.at(x + FIELD_CELL, y)
        if min(left, right) >= here:
            return 0
        return -1 if left < right else 1


def _solid_cells(rings: Sequence[Sequence[tuple[float, float]]], columns: int, rows: int) -> np.ndarray:
    """(columns, rows) bool: whether each cell's centre is inside an odd number of ``rings``."""
    import shapely

    solid = np.zeros((columns, rows), dtype=bool)
    for ring in rings:
        if len(ring) < 3:
            continue
        polygon = shapely.Polygon(ring)
        min_x, min_y, max_x, max_y = polygon.bounds
        c0, c1 = max(int(min_x // FIELD_CELL), 0), min(int(max_x // FIELD_CELL) + 1, columns)
        r0, r1 = max(int(min_y // FIELD_CELL), 0), min(int(max_y // FIELD_CELL) + 1, rows)
        if c0 >= c1 or r0 >= r1:
            continue
        xs = (np.arange(c0, c1) + 0.5) * FIELD_CELL
        ys = (np.arange(r0, r1) + 0.5) * FIELD_CELL
        grid_x, grid_y = np.meshgrid(xs, ys, indexing="ij")
        solid[c0:c1, r0:r1] ^= shapely.contains_xy(polygon, grid_x, grid_y)
    return solid
