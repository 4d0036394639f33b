"""Seamless collision outlines: merge solid shapes into outlines and turn them into segment chains.

Every solid shape of a map (each colliding tile, every Solid object) is a polygon. Their union has no edge
between two adjacent tiles, so a floor of a hundred tiles becomes one long edge and a slope that meets a flat
becomes one continuous outline. Each outline ring (outer boundaries and holes alike) becomes a closed chain
of thick rounded segments; collinear vertices are dropped so straight runs are single segments.

The union costs time linear in the number of shapes (plus a sort). A general polygon union (shapely's
``union_all``) costs ~80 us per tile and more as the result grows holes, so a 1000 x 200 map of random tiles
took minutes. Here:

1. Shapes whose bounding boxes overlap (two layers' tiles in one cell, an object over tiles) are merged by
   shapely in small groups; every other shape (nearly all tiles: each stays inside its own cell) is already
   interior-disjoint from the rest.
2. For interior-disjoint polygons the union's boundary is exactly the edges not cancelled by an opposite
   edge on the same line: edges are grouped by their line (exact integers on a 1/64 px grid), and a sweep
   along each line keeps the stretches covered once (numpy, no Python loop per edge).
3. The kept edges are chained into rings (solid on the left); where two regions touch at a single vertex,
   each ring turns as far left as it can, so the regions stay separate rings, as shapely would give them.

Anything inconsistent in step 3 (it cannot happen for valid input, but input is whatever a map holds)
falls back to one shapely union of everything. Coordinates are whatever frame the caller uses (the loader
passes the engine's y-up pixels).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from typing import TYPE_CHECKING

import numpy as np

from ..geometry import Vec2

if TYPE_CHECKING:
    from shapely.geometry import Polygon

__all__ = ["merge_outlines", "merge_packed", "merge_packed_arrays", "pack_rings", "ring_segments", "shared_rings"]

_GRID = 1e-6
"""Pixels. Vertices are snapped to this grid before a shapely union, so corners that should coincide do."""

_COLLINEAR = 1e-6
"""Pixels. A vertex closer than this to the line through its neighbours is dropped."""

_SCALE = 64
"""Grid steps per pixel for the exact edge arithmetic: 1/64 px. Coordinates within 1e7 px are below 2^30
steps, so line offsets (products of two coordinates' worth) stay within int64."""

_BATCH = 64
"""Boxes per spatial query when looking for overlaps."""

_OVERLAP_BUDGET = 100_000
"""Overlapping pairs (beyond one per shape) after which shapes are too tangled for grouping to pay: one
shapely union of everything is then faster (100,000 overlapping rectangles: ~3 s)."""

_SIMPLE_MAX = 6
"""Polygons with more vertices than this are checked and merged by shapely rather than here."""


def merge_outlines(polygons: Iterable[Sequence[Sequence[float]]]) -> list[list[Vec2]]:
    """Union of the given polygons (each a ring of points, either winding) as a list of rings: every
    outer boundary and every hole, without repeated or collinear vertices, solid on the left (outer
    boundaries counter-clockwise, holes clockwise, in a y-up frame)."""
    return merge_packed(*pack_rings(list(polygons)))


def merge_packed(points: np.ndarray, sizes: np.ndarray) -> list[list[Vec2]]:
    """:func:`merge_outlines` of polygons laid end to end: ``points`` ((n, 2) px), ``sizes`` each polygon's
    point count. Polygons of fewer than 3 points or with a point that is not finite are left out."""
    merged, counts = merge_packed_arrays(points, sizes)
    return shared_rings(merged, counts.tolist())


def merge_packed_arrays(points: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`merge_packed`'s rings laid end to end, as arrays: their points ((n, 2) float64 px) and each ring's
    point count (int64). The same numbers as the lists :func:`merge_packed` gives, for a caller that goes on
    with arrays (a large map has 900,000 points: making them into lists and back costs a second)."""
    points, sizes = _usable(np.asarray(points, dtype=float).reshape(-1, 2), np.asarray(sizes, dtype=np.int64))
    if not len(sizes):
        return np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    if np.abs(points).max() * _SCALE >= 1 << 30:  # beyond the exact integer arithmetic's range
        return pack_rings(_shapely_union(np.split(points, start[1:])))
    try:
        grid_pts, grid_start, grid_size = _disjoint_rings(points, start, sizes)
        edges = _boundary_edges(grid_pts, _following(grid_start, grid_size))
        verts, counts = _chain(edges)
    except _Inconsistent:
        return pack_rings(_shapely_union(np.split(points, start[1:])))
    return verts / _SCALE, counts  # (ints below 2^31: exact floats)


def pack_rings(rings: Sequence[Sequence[Sequence[float]]]) -> tuple[np.ndarray, np.ndarray]:
    """Rings (or chains) laid end to end: (their points (n, 2) float64 px, each one's point count int64)."""
    points = np.array([p for ring in rings for p in ring], dtype=np.float64).reshape(-1, 2)
    return points, np.array([len(ring) for ring in rings], dtype=np.int64)


def shared_rings(points: np.ndarray, sizes: Sequence[int]) -> list[list[Vec2]]:
    """Rings laid end to end (``points`` (n, 2), ``sizes`` each ring's point count) as lists of (x, y) tuples in
    which each distinct coordinate is one float object, shared by every point that has it: a large map repeats
    few coordinates (its tile grid; a 1000 x 200 map of random tiles has 900,000 points and 34,000 distinct
    coordinates), and a float object of its own for each would keep some 40 MiB more. The same numbers, bit
    for bit."""
    flat = np.ascontiguousarray(points, dtype=np.float64).reshape(-1)
    bits, which = np.unique(flat.view(np.int64), return_inverse=True)  # (by their bits: 0.0 is not -0.0)
    floats = bits.view(np.float64).tolist()
    coordinates = iter(which.reshape(-1).tolist())
    pairs = [(floats[i], floats[j]) for i, j in zip(coordinates, coordinates)]
    rings, at = [], 0
    for size in sizes:
        rings.append(pairs[at:at + size])
        at += size
    return rings


def _usable(points: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The packed polygons of at least 3 points, all finite."""
    long_enough = sizes >= 3
    points, sizes = points[np.repeat(long_enough, sizes)], sizes[long_enough]
    if not len(sizes):
        return points, sizes
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    finite = np.logical_and.reduceat(np.isfinite(points).all(axis=1), start)
    return points[np.repeat(finite, sizes)], sizes[finite]


def _following(start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """For packed rings (vertex arrays laid end to end), the index of each vertex's successor in its ring."""
    nxt = np.arange(int(size.sum())) + 1
    nxt[start + size - 1] = start
    return nxt


class _Inconsistent(Exception):
    """The kept edges do not chain into closed rings, or the shapes overlap too much to group."""


def _shapely_parts(rings: list[np.ndarray]) -> list[Polygon]:
    """The union of ``rings`` by shapely, as polygons (for overlapping groups and as the fallback). The
    polygons are made in one vectorised call: a Python loop of ``Polygon()`` costs ~70 us a shape."""
    import shapely
    from shapely.geometry import MultiPolygon, Polygon

    if not rings:
        return []
    coords = np.concatenate(rings)
    owner = np.repeat(np.arange(len(rings)), [len(r) for r in rings])
    polys = np.asarray(shapely.polygons(shapely.linearrings(coords, indices=owner)), dtype=object)
    broken = ~shapely.is_valid(polys)
    if broken.any():
        polys[broken] = shapely.buffer(polys[broken], 0)
    polys = polys[~shapely.is_empty(polys) & (shapely.area(polys) > 0)]
    if not len(polys):
        return []
    merged = shapely.set_precision(shapely.union_all(polys), _GRID)
    parts = merged.geoms if isinstance(merged, MultiPolygon) else [merged]
    return [p for p in parts if isinstance(p, Polygon) and not p.is_empty]


def _shapely_union(rings: list[np.ndarray]) -> list[list[Vec2]]:
    from shapely.geometry.polygon import orient

    out: list[list[Vec2]] = []
    for part in _shapely_parts(rings):
        part = orient(part, 1.0)  # outer boundary counter-clockwise, holes clockwise, as the fast path gives
        for ring in [part.exterior, *part.interiors]:
            cleaned = _drop_collinear([(float(x), float(y)) for x, y in ring.coords[:-1]])
            if len(cleaned) >= 3:
                out.append(cleaned)
    return out


def _signed_areas(pts: np.ndarray, start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Signed area of each packed ring (positive: counter-clockwise in a y-up frame)."""
    nxt = pts[_following(start, size)]
    return 0.5 * np.add.reduceat(pts[:, 0] * nxt[:, 1] - nxt[:, 0] * pts[:, 1], start)


def _simple(pts: np.ndarray, start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Which packed rings (of at most :data:`_SIMPLE_MAX` vertices) have no two non-adjacent edges touching
    or crossing, checked in one numpy pass per vertex count."""
    ok = np.zeros(len(start), dtype=bool)
    for k in range(3, _SIMPLE_MAX + 1):
        idx = np.nonzero(size == k)[0]
        if not len(idx):
            continue
        a = pts[start[idx, None] + np.arange(k)]  # (n, k, 2)
        b = np.roll(a, -1, axis=1)
        good = np.ones(len(idx), dtype=bool)
        for i in range(k):
            for j in range(i + 2, k):
                if i == 0 and j == k - 1:
                    continue  # adjacent through the closing edge
                good &= ~_segments_cross(a[:, i], b[:, i], a[:, j], b[:, j])
        ok[idx] = good
    return ok


def _segments_cross(p1: np.ndarray, p2: np.ndarray, q1: np.ndarray, q2: np.ndarray) -> np.ndarray:
    """Whether segments p1-p2 and q1-q2 touch or cross (rows of points)."""

    def orient(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        return np.sign((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]))

    d1, d2, d3, d4 = orient(q1, q2, p1), orient(q1, q2, p2), orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 * d2 <= 0) & (d3 * d4 <= 0)


def _disjoint_rings(pts: np.ndarray, start: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Packed integer rings (1/64 px), solid on the left, of pairwise interior-disjoint regions covering the
    union of the packed input rings: shapes alone in their bounding box as they are (turned
    counter-clockwise), overlapping groups and anything not simple merged by shapely."""
    areas = _signed_areas(pts, start, size)
    keep = np.abs(areas) > 1e-9
    lo, hi = np.minimum.reduceat(pts, start, axis=0), np.maximum.reduceat(pts, start, axis=0)
    left, right = _overlapping_boxes(lo, hi)
    group = _components(len(start), left, right)
    alone = _simple(pts, start, size) & keep & (np.bincount(group, minlength=len(start))[group] == 1)
    # Alone rings, clockwise ones reversed, packed again.
    ring_of = np.repeat(np.arange(len(start)), size)
    pos = np.arange(len(pts)) - start[ring_of]
    flipped = np.where(areas[ring_of] < 0, start[ring_of] + size[ring_of] - 1 - pos, np.arange(len(pts)))
    chosen = alone[ring_of]
    out_pts = [pts[flipped[chosen]]]
    out_size = [size[alone]]
    members: dict[int, list[np.ndarray]] = {}
    for i in np.nonzero(~alone & keep)[0].tolist():
        members.setdefault(int(group[i]), []).append(pts[start[i]:start[i] + size[i]])
    extra = []
    for parts in members.values():
        for part in _shapely_parts(parts):
            for k, ring in enumerate([part.exterior, *part.interiors]):
                arr = np.asarray(ring.coords[:-1], dtype=float)
                if len(arr) >= 3:  # outer boundary counter-clockwise, holes clockwise: solid on the left
                    ccw = _signed_areas(arr, np.array([0]), np.array([len(arr)]))[0] > 0
                    extra.append(arr if ccw == (k == 0) else arr[::-1])
    out_pts.extend(extra)
    out_size.append(np.array([len(e) for e in extra], dtype=int))
    sizes = np.concatenate(out_size)
    packed = np.rint(np.concatenate(out_pts) * _SCALE).astype(np.int64)
    return packed, np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int), sizes


def _overlapping_boxes(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i < j) of boxes whose interiors overlap (in any order). Too many of them (see
    :data:`_OVERLAP_BUDGET`) raise :class:`_Inconsistent`: shapely unions everything."""
    found = _overlaps_on_grid(lo, hi)
    if found is None:
        return _overlaps_by_tree(lo, hi)
    if len(found[0]) > _OVERLAP_BUDGET + len(lo):
        raise _Inconsistent
    return found


def _overlaps_on_grid(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_overlapping_boxes` through a grid of cells the size of a typical box (a tile map's: its tiles):
    boxes whose interiors overlap share a cell their interiors reach into, and nearly every cell holds one box,
    so only boxes sharing a cell are compared (numpy, no spatial index: a 200,000-tile map's index and queries
    took 0.4 s). ``None`` when the boxes cover too many cells or share cells too often for this to pay."""
    if not len(lo):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    size = np.maximum(np.median(hi - lo, axis=0), 1e-3)  # (a cell's width and height, px)
    first = np.floor(lo / size).astype(np.int64)
    last = np.maximum(first, np.ceil(hi / size).astype(np.int64) - 1)  # (a box ending on a cell's edge stops there)
    across = last - first + 1
    count = across[:, 0] * across[:, 1]
    columns, rows = (int(v) + 1 for v in last.max(axis=0) - first.min(axis=0))
    if int(count.sum()) > 4 * len(lo) + 100_000 or columns * rows >= 1 << 62:
        return None
    box = np.repeat(np.arange(len(lo)), count)
    k = _ranks(count)  # each box's cells, row by row
    cell = first[box] + np.stack([k % across[box, 0], k // across[box, 0]], axis=1)
    cell -= first.min(axis=0)
    key = cell[:, 0] * rows + cell[:, 1]
    order = np.argsort(key)
    key, box = key[order], box[order]
    run_start = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    run_size = np.diff(np.append(run_start, len(key)))
    if int((run_size * (run_size - 1) // 2).sum()) > _OVERLAP_BUDGET + len(lo):
        return None
    shared = run_size > 1
    if not shared.any():
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # The boxes of each shared cell, paired with those after them in its run: the pairs d places apart, d = 1, 2...
    at = np.repeat(run_start[shared], run_size[shared]) + _ranks(run_size[shared])
    run_end = np.repeat(run_start[shared] + run_size[shared], run_size[shared])
    left, right = [], []
    for d in range(1, int(run_size.max())):
        i = at[at + d < run_end]
        left.append(box[i])
        right.append(box[i + d])
    a, b = np.concatenate(left), np.concatenate(right)
    a, b = np.minimum(a, b), np.maximum(a, b)
    eps = 1e-9
    overlap = (a < b) & (np.minimum(hi[a, 0], hi[b, 0]) - np.maximum(lo[a, 0], lo[b, 0]) > eps) \
        & (np.minimum(hi[a, 1], hi[b, 1]) - np.maximum(lo[a, 1], lo[b, 1]) > eps)
    pairs = np.unique(np.stack([a[overlap], b[overlap]], axis=1), axis=0)  # (a pair may share several cells)
    return pairs[:, 0], pairs[:, 1]


def _ranks(sizes: np.ndarray) -> np.ndarray:
    """0, 1, ..., n - 1 for each n of ``sizes``, laid end to end."""
    return np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)


def _overlaps_by_tree(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_overlapping_boxes` through shapely's spatial index, queried in small batches so that a pile of
    overlapping shapes (hostile or not) stops the search early instead of listing billions of pairs."""
    import shapely  # (imported by the first level loaded: a program that only steps a world never loads it)

    boxes = shapely.box(lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1])
    tree = shapely.STRtree(boxes)
    budget = _OVERLAP_BUDGET + len(boxes)
    found_left, found_right = [], []
    eps = 1e-9
    first, batch = 0, _BATCH
    while first < len(boxes):
        left, right = tree.query(boxes[first:first + batch])
        left = left + first
        first += batch
        # Few candidates per box (a tile touches its 8 neighbours): ask for more boxes at a time.
        batch = min(batch * 2, 8192) if len(left) < 16 * batch else _BATCH
        overlap = (left < right) & (np.minimum(hi[left, 0], hi[right, 0]) - np.maximum(lo[left, 0], lo[right, 0]) > eps) \
            & (np.minimum(hi[left, 1], hi[right, 1]) - np.maximum(lo[left, 1], lo[right, 1]) > eps)
        found_left.append(left[overlap])
        found_right.append(right[overlap])
        budget -= int(overlap.sum())
        if budget < 0:
            raise _Inconsistent
    return np.concatenate(found_left), np.concatenate(found_right)


def _components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Connected components (union-find) of n items joined by the pairs (a[i], b[i])."""
    parent = np.arange(n)

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = int(parent[x])
        return x

    for i, j in zip(a.tolist(), b.tolist()):
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    return np.array([find(i) for i in range(n)]) if len(a) else parent


def _boundary_edges(pts: np.ndarray, following: np.ndarray) -> np.ndarray:
    """The directed edges (rows x0, y0, x1, y1) of the union of interior-disjoint integer rings (packed; the
    edge from each vertex to ``pts[following]``): on each line, the stretches where the edges along it do not
    cancel (two neighbours' shared edge runs both ways)."""
    if not len(pts):
        return np.zeros((0, 4), dtype=np.int64)
    ends = pts[following]
    d = ends - pts
    moving = (d != 0).any(axis=1)
    pts, ends, d = pts[moving], ends[moving], d[moving]
    u = d // np.gcd(np.abs(d[:, 0]), np.abs(d[:, 1]))[:, None]
    backwards = (u[:, 0] < 0) | ((u[:, 0] == 0) & (u[:, 1] < 0))
    u[backwards] *= -1
    sign = np.where(backwards, -1, 1)
    offset = u[:, 0] * pts[:, 1] - u[:, 1] * pts[:, 0]  # the same for every point of the line
    vertical = u[:, 0] == 0
    t0, t1 = np.where(vertical, pts[:, 1], pts[:, 0]), np.where(vertical, ends[:, 1], ends[:, 0])
    # Each edge is +sign from its low end to its high end along the line's own direction.
    ux, uy, c = (np.concatenate([v, v]) for v in (u[:, 0], u[:, 1], offset))
    t = np.concatenate([np.minimum(t0, t1), np.maximum(t0, t1)])
    delta = np.concatenate([sign, -sign])
    order = _line_order(ux, uy, c, t)
    ux, uy, c, t, delta = ux[order], uy[order], c[order], t[order], delta[order]
    cover = np.cumsum(delta)  # each line's deltas sum to zero, so the running sum restarts at every line
    same_line = (ux[1:] == ux[:-1]) & (uy[1:] == uy[:-1]) & (c[1:] == c[:-1])
    keep = np.nonzero(same_line & (t[1:] > t[:-1]) & (cover[:-1] != 0))[0]
    lux, luy, lc, ta, tb = ux[keep], uy[keep], c[keep], t[keep], t[keep + 1]
    steep = lux == 0
    safe = np.where(steep, 1, lux)
    xa, xb = np.where(steep, -lc, ta), np.where(steep, -lc, tb)
    ya, yb = np.where(steep, ta, (lc + luy * ta) // safe), np.where(steep, tb, (lc + luy * tb) // safe)
    forward = cover[keep] > 0
    return np.stack([np.where(forward, xa, xb), np.where(forward, ya, yb),
                     np.where(forward, xb, xa), np.where(forward, yb, ya)], axis=1)


def _line_order(ux: np.ndarray, uy: np.ndarray, c: np.ndarray, t: np.ndarray) -> np.ndarray:
    """An order of the edge ends sorting them by line (``ux``, ``uy``, ``c``), then by ``t`` along it (ends at the
    same place in any order). The four keys packed into one integer when their spans allow (a tile map's
    always do): one sort of a million numbers instead of numpy's ten times slower four-key ``lexsort``."""
    if not len(t):
        return np.zeros(0, dtype=np.int64)
    keys = (ux, uy, c, t)
    low = [int(k.min()) for k in keys]
    spans = [int(k.max()) - lo + 1 for k, lo in zip(keys, low)]
    if math.prod(spans) >= 1 << 62:
        return np.lexsort((t, c, uy, ux))
    packed = np.zeros(len(t), dtype=np.int64)
    for k, lo, span in zip(keys, low, spans):
        packed = packed * span + (k - lo)
    return np.argsort(packed)


def _chain(edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed integer rings from directed boundary edges, straight-run vertices dropped, laid end to end:
    (vertices (n, 2), each ring's vertex count; rings left with fewer than 3 are left out). Where regions touch
    at a vertex (several edges leave it), an arriving edge continues along the one turning furthest left."""
    m = len(edges)
    if not m:
        return np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64)
    ends = np.concatenate([edges[:, :2], edges[:, 2:]]) + (1 << 30)  # both within 0 .. 2^31 (see _SCALE)
    ids = np.unique(ends[:, 0] << 31 | ends[:, 1], return_inverse=True)[1].reshape(-1)
    start, end = ids[:m], ids[m:]
    out_count = np.bincount(start, minlength=ids.max() + 1)
    if not np.array_equal(out_count, np.bincount(end, minlength=ids.max() + 1)):
        raise _Inconsistent
    order = np.argsort(start, kind="stable")
    first = np.searchsorted(start[order], np.arange(len(out_count)))
    after = order[first[end]]
    pinched = np.nonzero(out_count[end] > 1)[0]
    if len(pinched):
        widest = int(out_count.max())
        slots = first[end[pinched], None] + np.arange(widest)
        valid = np.arange(widest) < out_count[end[pinched], None]
        choices = order[np.minimum(slots, m - 1)]
        back = (edges[pinched, :2] - edges[pinched, 2:]).astype(float)[:, None, :]
        way = (edges[choices, 2:] - edges[choices, :2]).astype(float)
        turn = np.mod(np.arctan2(back[..., 0] * way[..., 1] - back[..., 1] * way[..., 0],
                                 (back * way).sum(axis=2)), 2 * math.pi)
        turn[~valid] = -1.0
        after[pinched] = choices[np.arange(len(pinched)), np.argmax(turn, axis=1)]
    if not np.array_equal(np.bincount(after, minlength=m), np.ones(m, dtype=np.int64)):
        raise _Inconsistent
    cycles, sizes = _cycles(after.tolist(), start.tolist(), set(np.nonzero(out_count > 1)[0].tolist()))
    verts = edges[cycles, :2]
    ring_start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int)
    nxt = _following(ring_start, np.asarray(sizes))
    prev = np.empty_like(nxt)
    prev[nxt] = np.arange(len(nxt))
    a, b = verts - verts[prev], verts[nxt] - verts
    straight = (a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0] == 0) & ((a * b).sum(axis=1) > 0)
    ring_of = np.repeat(np.arange(len(sizes)), sizes)[~straight]
    counts = np.bincount(ring_of, minlength=len(sizes))
    return verts[~straight][counts[ring_of] >= 3], counts[counts >= 3]


def _cycles(after: list[int], origin: list[int], pinches: set[int]) -> tuple[list[int], list[int]]:
    """The cycles of the permutation ``after`` of edges, laid end to end, and their lengths. A cycle passing
    twice through a vertex where regions touch (``origin[e]`` is edge e's start vertex) is cut there into
    simple rings, as shapely gives them (a hole touching its outline at a point is its own ring)."""
    seen = [False] * len(after)
    order: list[int] = []
    sizes: list[int] = []
    for e0 in range(len(after)):
        if seen[e0]:
            continue
        path: list[int] = []
        at: dict[int, int] = {}
        e = e0
        while not seen[e]:
            seen[e] = True
            v = origin[e]
            if v in pinches:
                if v in at:
                    loop = path[at[v]:]
                    del path[at[v]:]
                    for x in loop:
                        at.pop(origin[x], None)
                    order.extend(loop)
                    sizes.append(len(loop))
                at[v] = len(path)
            path.append(e)
            e = after[e]
        order.extend(path)
        sizes.append(len(path))
    return order, [n for n in sizes if n]


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
