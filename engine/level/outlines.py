"""Seamless collision outlines: merge solid tile shapes into outlines and turn them into segment chains.

Every solid tile of a layer contributes its collision polygons (from the tileset), placed at the tile's
position. Their union (shapely's ``unary_union``: no hand-written clipping) has no edge between two
adjacent tiles, so a floor of a hundred tiles becomes one long edge and a slope that meets a flat becomes
one continuous outline. Each outline ring (outer boundaries and holes alike) becomes a closed chain of thick
rounded segments; collinear vertices are dropped so straight runs are single segments.

Coordinates here are whatever frame the caller uses (the loader passes the engine's y-up pixels).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.ops import unary_union

from ..geometry import Vec2

__all__ = ["merge_outlines", "ring_segments"]

_GRID = 1e-6
"""Pixels. Vertices are snapped to this grid before the union, so tile corners that should coincide do."""

_COLLINEAR = 1e-6
"""Pixels. A vertex closer than this to the line through its neighbours is dropped."""


def merge_outlines(polygons: Iterable[Sequence[Sequence[float]]]) -> list[list[Vec2]]:
    """Union of the given polygons (each a ring of points, either winding) as a list of rings: every
    outer boundary and every hole, without repeated or collinear vertices."""
    shapes = []
    for ring in polygons:
        poly = Polygon(ring)
        if not poly.is_valid:
            poly = poly.buffer(0)
        if not poly.is_empty and poly.area > 0:
            shapes.append(poly)
    if not shapes:
        return []
    merged = shapely.set_precision(unary_union(shapes), _GRID)
    parts = merged.geoms if isinstance(merged, MultiPolygon) else [merged]
    rings: list[list[Vec2]] = []
    for part in parts:
        if not isinstance(part, Polygon) or part.is_empty:
            continue
        for ring in [part.exterior, *part.interiors]:
            cleaned = _drop_collinear([(float(x), float(y)) for x, y in ring.coords[:-1]])
            if len(cleaned) >= 3:
                rings.append(cleaned)
    return rings


def _drop_collinear(points: list[Vec2]) -> list[Vec2]:
    """Remove vertices on the line through their neighbours (and repeats), in one pass around the ring plus
    a fix-up where the ring closes."""

    def straight(o: Vec2, p: Vec2, q: Vec2) -> bool:
        cross = (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])
        base = ((q[0] - o[0]) ** 2 + (q[1] - o[1]) ** 2) ** 0.5
        return p == o or abs(cross) <= _COLLINEAR * max(base, 1e-12)

    kept: list[Vec2] = []
    for p in points:
        while len(kept) >= 2 and straight(kept[-2], kept[-1], p):
            kept.pop()
        if not kept or kept[-1] != p:
            kept.append(p)
    # Where the ring closes: the last and first vertices may be on a straight run too.
    changed = True
    while changed and len(kept) >= 3:
        changed = False
        if straight(kept[-2], kept[-1], kept[0]):
            kept.pop()
            changed = True
        elif straight(kept[-1], kept[0], kept[1]):
            kept.pop(0)
            changed = True
    return kept


def ring_segments(ring: Sequence[Vec2], closed: bool = True) -> list[tuple[Vec2, Vec2]]:
    """Consecutive point pairs of a ring (or an open chain when ``closed`` is false)."""
    pairs = list(zip(ring, ring[1:]))
    if closed and len(ring) > 2:
        pairs.append((ring[-1], ring[0]))
    return pairs
