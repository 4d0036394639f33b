"""Collision that rests on the art: static segment cores inset so their thick, rounded surface lies on the
drawn edges of tiles and objects.

The world's static collision is thick segments: everything within ``radius`` px of a segment's core is solid.
The merged outlines of :mod:`engine.level.outlines` lie on the drawn edges; used as cores, their surface would
stand ``radius`` px proud of the art (bodies hover over the grass, the hero stops short of walls). Here each
solid region (an outer outline with its holes) is shrunk by the radius (shapely's negative buffer with mitre
joins) and the shrunk outline becomes the cores. Their surface then lies on the drawn edges exactly along
every straight edge and into every concave corner; a convex corner is rounded inside the tile, cut by at most
``radius * (1 / sin(a / 2) - 1)`` px at a corner of interior angle ``a`` (0.83 px for a right angle at the
default 2 px). Regions are inset after the union, so the shared edges of neighbouring tiles are gone first
and a floor stays one straight core; a slope meeting a flat keeps one vertex at the join.

Sharp tips (a convex corner under 60 degrees, a lone slope tile's thin end) would lose more than a radius of
their length to the inset: each gets a spur, a segment along its bisector from the core's corner to a radius
short of the tip, so it stays solid to its end (standing out of its sides by less than a radius near the tip).

Thin parts: a region, or a part of one, thinner than ``2 * radius`` has no inset core (the shrink removes it).
It collides along its centre line instead (the long axis of its smallest enclosing rectangle, ends pulled in
by the radius), so it stays solid and stands out of its drawn edges by ``radius - thickness / 2``; each one is
listed as a :class:`ThinPart` for the loader to warn about.

One-way segments (open: a character passes them from below) are moved against their pass direction by the
radius, joints of a polyline mitred, and their two free ends pulled in by the radius (at most a quarter of the
end segment's length), so the top surface lies on the drawn top and the ends round inside the platform.

Solid polylines are lines, not areas: their cores stay on the drawn line and they are ``radius`` thick on each
side. Units: pixels, in whatever frame the caller passes (the loader: the engine's, y up).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from ..geometry import Vec2
from .outlines import pack_rings, shared_rings

__all__ = ["ThinPart", "inset_one_way", "inset_rings"]

_MITRE_LIMIT = 8.0
"""A concave corner's core vertex may go this many radii from the drawn corner before shapely bevels it (a
bevel that far away still leaves the surface on the corner: anything at least ``radius`` from it does)."""

_THIN_EDGE = 2.0
"""Radii. A region with an edge shorter than this may have a part the inset removes (a part thinner than two
radii ends in a short edge or a sharp tip; tips get spurs): the part it loses is worked out."""

_SPUR_ANGLE = math.radians(60.0)
"""A convex corner sharper than this gets a spur (see :class:`Insets`): the inset pulls the core's corner
``radius / sin(a / 2)`` px back from a tip of angle ``a``, so the tip's last ``radius * (1 / sin(a / 2) - 1)`` px
(2 px at 60 degrees and a 2 px radius, 6.7 px at 26.6 degrees) would not collide."""

_LOST_LENGTH = 3.0
"""Radii. A piece lost to the inset longer than this is a thin part (a right-angled corner loses pieces about
one radius long, a 45-degree tip about 2.2): its centre line collides."""

_COLLINEAR = 1e-6
"""Pixels. A core vertex closer than this to the line through its neighbours is dropped."""

_MIN_LINE = 0.5
"""Pixels. A centre line is never pulled in shorter than this (a speck stays a short line, not a point)."""


@dataclass(frozen=True)
class ThinPart:
    """A solid part thinner than twice the segment radius: it collides along ``line`` (its centre line), so
    its collision stands ``radius - thickness / 2`` px out of its drawn edges."""

    line: tuple[Vec2, Vec2]
    thickness: float
    """Pixels: the part's width across its centre line."""
    where: Vec2
    """The part's middle (pixels, the caller's frame)."""


def inset_rings(rings: Sequence[Sequence[Vec2]], radius: float,
                packed: tuple[np.ndarray, np.ndarray] | None = None) -> Insets:
    """Cores for closed outlines (solid on the left: outer boundaries counter-clockwise, holes clockwise, as
    :func:`~engine.level.outlines.merge_outlines` gives them) such that thick segments of ``radius`` px along
    them have their surface on the outlines; spurs for sharp tips; centre lines for thin parts. Every step
    works on all outlines at once (shapely's and numpy's array calls): a large map has tens of thousands.
    ``packed``: the same rings laid end to end, (points (n, 2) px, each ring's point count), when the caller
    has them (as :func:`~engine.level.outlines.merge_packed_arrays` gives them: packing a large map's lists
    again costs a fraction of a second)."""
    if radius <= 0 or not rings:
        return Insets([list(r) for r in rings], [], [])
    pts, size = pack_rings(rings) if packed is None else packed
    pts, size = np.asarray(pts, dtype=float).reshape(-1, 2), np.asarray(size, dtype=np.int64)
    start = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    regions, region_of = _regions(pts, start, size)
    cores = shapely.buffer(regions, -radius, join_style="mitre", mitre_limit=_MITRE_LIMIT)
    corners = _Corners(pts, start, size)
    suspect = np.zeros(len(regions), dtype=bool)
    short = corners.ring_has(corners.length < _THIN_EDGE * radius) & (region_of >= 0)
    suspect[region_of[short]] = True
    suspect |= shapely.is_empty(cores)
    ring_suspect = np.zeros(len(start), dtype=bool)
    ring_suspect[region_of >= 0] = suspect[region_of[region_of >= 0]]
    spurs = corners.spurs(radius, ~ring_suspect)
    del corners, pts  # (a large map's peak memory is in what follows: every array not needed goes first)
    thin = _lost_parts(regions[suspect], cores[suspect], radius)
    del regions
    return Insets(_core_rings(cores), spurs, thin)


@dataclass(frozen=True)
class Insets:
    """What :func:`inset_rings` makes (pixels, the caller's frame)."""

    rings: list[list[Vec2]]
    """Closed chains: the cores, solid on the left."""
    spurs: list[list[Vec2]]
    """Open chains (two points each): one along each sharp tip, from its core corner to a radius short of the
    drawn tip, so the tip stays solid to its end."""
    thin: list[ThinPart]


class _Corners:
    """The vertices of packed rings (solid on the left) with their edges, lengths and turns."""

    def __init__(self, pts: np.ndarray, start: np.ndarray, size: np.ndarray) -> None:
        following = _following(start, size)
        self.pts, self.start = pts, start
        self.edge = pts[following] - pts  # leaving each vertex
        self.before = self.edge[np.argsort(following)]  # arriving at each vertex
        self.length = np.hypot(self.edge[:, 0], self.edge[:, 1])
        cross = self.before[:, 0] * self.edge[:, 1] - self.before[:, 1] * self.edge[:, 0]
        self.turn = np.arctan2(cross, (self.before * self.edge).sum(axis=1))  # > 0: convex (solid on the left)
        self.ring = _ring_ids(start, size)

    def ring_has(self, flagged: np.ndarray) -> np.ndarray:
        """Per ring, whether any of its vertices is flagged."""
        return np.logical_or.reduceat(flagged, self.start)

    def spurs(self, radius: float, rings: np.ndarray) -> list[list[Vec2]]:
        """For each convex corner sharper than :data:`_SPUR_ANGLE` of the chosen ``rings``: the line along its
        bisector from the core's corner (``radius / sin(a / 2)`` from the tip) to ``radius`` from the tip."""
        sharp = np.nonzero((self.turn > math.pi - _SPUR_ANGLE) & rings[self.ring])[0]
        if not len(sharp):
            return []
        before = self.before[sharp] / np.hypot(*self.before[sharp].T)[:, None]
        after = self.edge[sharp] / np.maximum(self.length[sharp], 1e-12)[:, None]
        inward = after - before
        inward /= np.hypot(*inward.T)[:, None]
        half = (math.pi - self.turn[sharp]) / 2  # half the corner's interior angle
        tip = self.pts[sharp]
        core = tip + inward * (radius / np.sin(half))[:, None]
        end = tip + inward * radius
        return shared_rings(np.stack([core, end], axis=1), [2] * len(core))


def _ring_ids(start: np.ndarray, size: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(len(start)), size)


def _signed_areas(pts: np.ndarray, start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Each packed ring's shoelace area, positive when counter-clockwise (y up)."""
    nxt = pts[_following(start, size)]
    return 0.5 * np.add.reduceat(pts[:, 0] * nxt[:, 1] - nxt[:, 0] * pts[:, 1], start)


def _following(start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """For packed rings, the index of each vertex's successor in its ring."""
    nxt = np.arange(int(size.sum())) + 1
    nxt[start + size - 1] = start
    return nxt


def _regions(pts: np.ndarray, start: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shapely polygons of the solid regions: each outer ring with the holes inside it (a hole goes to the
    smallest outer boundary covering it: an island in a hole has holes of its own); and each ring's region
    (-1 for a hole no outline covers, which cannot come from a union)."""
    polys = np.asarray(shapely.polygons(shapely.linearrings(pts, indices=_ring_ids(start, size))), dtype=object)
    signed = _signed_areas(pts, start, size)
    outer, holes = np.nonzero(signed > 0)[0], np.nonzero(signed < 0)[0]
    shells = polys[outer]
    region_of = np.full(len(start), -1, dtype=np.int64)
    region_of[outer] = np.arange(len(outer))
    if not len(holes):
        return shells, region_of
    hole_at, shell_at = shapely.STRtree(shells).query(polys[holes], predicate="covered_by")
    area = shapely.area(shells)
    by_area = np.lexsort((area[shell_at], hole_at))  # per hole, the smallest covering shell first
    hole_at, shell_at = hole_at[by_area], shell_at[by_area]
    first = np.concatenate([[True], hole_at[1:] != hole_at[:-1]]) if len(hole_at) else np.zeros(0, dtype=bool)
    region_of[holes[hole_at[first]]] = shell_at[first]
    inner: dict[int, list[np.ndarray]] = {}
    for h, s in zip(hole_at[first].tolist(), shell_at[first].tolist()):
        i = int(holes[h])
        inner.setdefault(s, []).append(pts[start[i]:start[i] + size[i]])
    for s, hole_rings in inner.items():
        i = int(outer[s])
        shells[s] = Polygon(pts[start[i]:start[i] + size[i]], hole_rings)
    return shells, region_of


def _core_rings(cores: np.ndarray) -> list[list[Vec2]]:
    """The rings of the inset regions, solid on the left, without collinear or repeated vertices."""
    parts = shapely.get_parts(cores)
    parts = parts[~shapely.is_empty(parts)]
    if not len(parts):
        return []
    rings, owner = shapely.get_rings(parts, return_index=True)
    del parts  # (copies of the cores, as the rings are: a large map's peak memory is here)
    exterior = np.concatenate([[True], owner[1:] != owner[:-1]])
    coords, ring_of = shapely.get_coordinates(rings, return_index=True)
    count = len(rings)
    del rings
    closing = np.concatenate([ring_of[1:] != ring_of[:-1], [True]])  # each ring repeats its first point last
    coords, ring_of = coords[~closing], ring_of[~closing]
    # Drop collinear and repeated vertices (all at once: a run of them lies on one line).
    size = np.bincount(ring_of, minlength=count)
    start = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    nxt = coords[_following(start, size)]
    prev = coords[np.argsort(_following(start, size))]
    cross = (coords[:, 0] - prev[:, 0]) * (nxt[:, 1] - prev[:, 1]) - (coords[:, 1] - prev[:, 1]) * (nxt[:, 0] - prev[:, 0])
    base = np.hypot(nxt[:, 0] - prev[:, 0], nxt[:, 1] - prev[:, 1])
    keep = (np.abs(cross) > _COLLINEAR * np.maximum(base, 1e-12)) & (coords != prev).any(axis=1)
    del nxt, prev, cross, base
    coords, ring_of = coords[keep], ring_of[keep]
    size = np.bincount(ring_of, minlength=count)
    start = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    ccw = (_signed_areas(coords, start, size) > 0) if len(coords) else np.zeros(count, dtype=bool)
    # Outer boundaries counter-clockwise, holes clockwise (solid on the left): the others reversed, in place.
    at = np.arange(len(coords))
    turned = (ccw != exterior)[ring_of]
    last = start[ring_of] + size[ring_of] - 1
    source = np.where(turned, last - (at - start[ring_of]), at)
    long = size >= 3
    return shared_rings(coords[source[long[ring_of]]], size[long].tolist())


def _lost_parts(regions: np.ndarray, cores: np.ndarray, radius: float) -> list[ThinPart]:
    """The parts of the regions that their inset cores (grown back by the radius) do not cover and that are
    longer than corners lose: each collides along its centre line."""
    if not len(regions):
        return []
    covered = shapely.buffer(cores, radius * (1 + 1e-6), quad_segs=16)
    pieces, owner = shapely.get_parts(shapely.difference(regions, covered), return_index=True)
    whole = shapely.is_empty(cores)[owner]  # the whole region is thin: each piece counts, however short
    bounds = shapely.bounds(pieces)
    diagonal = np.hypot(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
    # (A piece whose box is shorter than the length that counts cannot count: most are rounded corners.)
    keep = (shapely.get_type_id(pieces) == 3) & ((diagonal >= _LOST_LENGTH * radius) | whole)
    boxes, whole = shapely.oriented_envelope(pieces[keep]), whole[keep]
    four = (shapely.get_type_id(boxes) == 3) & (shapely.get_num_coordinates(boxes) == 5)  # (no width: a line)
    boxes, whole = boxes[four], whole[four]
    if not len(boxes):
        return []
    corners = shapely.get_coordinates(shapely.get_exterior_ring(boxes)).reshape(len(boxes), 5, 2)[:, :4]
    sides = corners[:, 1:3] - corners[:, 0:2]  # (n, 2 sides, 2)
    lengths = np.hypot(sides[..., 0], sides[..., 1])
    along = np.argmax(lengths, axis=1)
    rows = np.arange(len(boxes))
    length, width = lengths[rows, along], lengths[rows, 1 - along]
    unit = sides[rows, along] / np.maximum(length, 1e-12)[:, None]
    middle = corners.mean(axis=1)
    half = length / 2 - np.minimum(radius, np.maximum(0.0, (length - _MIN_LINE) / 2))
    a, b = middle - unit * half[:, None], middle + unit * half[:, None]
    out = []
    for i in np.nonzero((length >= _LOST_LENGTH * radius) | whole)[0].tolist():  # else: a corner rounded inside
        out.append(ThinPart(((float(a[i, 0]), float(a[i, 1])), (float(b[i, 0]), float(b[i, 1]))), float(width[i]),
                            (float(middle[i, 0]), float(middle[i, 1]))))
    return out


def inset_one_way(segments: Sequence[tuple[Vec2, Vec2, Vec2]], radius: float) -> list[tuple[Vec2, Vec2, Vec2]]:
    """One-way segments (start, end, the direction a character must come from), moved against their
    direction by ``radius`` so a thick segment's top surface lies on the drawn top. Consecutive segments
    sharing an end (a polyline) stay joined (mitred); each run's free ends are pulled in by the radius (at most
    a quarter of the end segment), so the platform's ends round inside it."""
    if radius <= 0:
        return list(segments)
    out: list[tuple[Vec2, Vec2, Vec2]] = []
    run: list[tuple[Vec2, Vec2, Vec2]] = []
    for seg in segments:
        if run and (run[-1][1] != seg[0] or run[-1][2] != seg[2]):
            out.extend(_inset_run(run, radius))
            run = []
        run.append(seg)
    if run:
        out.extend(_inset_run(run, radius))
    return out


def _inset_segment(a: Vec2, b: Vec2, direction: Vec2, radius: float) -> tuple[Vec2, Vec2, Vec2]:
    """One one-way segment on its own (nearly every one: a run of tiles is one), inset in plain floats."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return a, b, direction
    ux, uy = dx / length, dy / length
    nx, ny = (-uy, ux) if -uy * direction[0] + ux * direction[1] >= 0 else (uy, -ux)  # facing `direction`
    pull = min(radius, length / 4)
    return ((a[0] - radius * nx + pull * ux, a[1] - radius * ny + pull * uy),
            (b[0] - radius * nx - pull * ux, b[1] - radius * ny - pull * uy), direction)


def _inset_run(run: list[tuple[Vec2, Vec2, Vec2]], radius: float) -> list[tuple[Vec2, Vec2, Vec2]]:
    """One joined run of one-way segments, inset (see :func:`inset_one_way`)."""
    if len(run) == 1:
        return [_inset_segment(*run[0], radius)]
    direction = run[0][2]
    points = np.array([run[0][0]] + [seg[1] for seg in run], dtype=float)
    edges = np.diff(points, axis=0)
    lengths = np.hypot(edges[:, 0], edges[:, 1])
    normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1) / lengths[:, None]
    normals *= np.where((normals @ np.asarray(direction)) < 0, -1.0, 1.0)[:, None]  # the side facing `direction`
    core = points.copy()
    core[0] -= radius * normals[0]
    core[-1] -= radius * normals[-1]
    for i in range(1, len(points) - 1):
        n1, n2 = normals[i - 1], normals[i]
        cos = float(n1 @ n2)
        mitre = (n1 + n2) / (1 + cos) if cos > -0.9 else (n1 + n2) / 2  # a hairpin: no sharp mitre
        core[i] -= radius * mitre
    core[0] += edges[0] / lengths[0] * min(radius, lengths[0] / 4)
    core[-1] -= edges[-1] / lengths[-1] * min(radius, lengths[-1] / 4)
    return [((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), direction) for a, b in zip(core[:-1], core[1:])]
