"""Broad phase for static level geometry: many thick segments (capsules) in a uniform grid.

A level is thousands of thick segments that never move, and every query a game makes is local (a
character's next move, a crate's neighbourhood). A uniform grid answers such queries in time that depends
on how much geometry is *near* the query, not on the size of the level: the flat scaling the issue asks
for. Each segment is entered in every grid cell its thick shape touches (not every cell of its bounding
box, so long diagonal segments stay cheap).

Narrow-phase work over the candidates is batched with numpy: a ray, or a circle cast (a ray against the
capsules grown by the circle's radius), is tested against all candidates in one vectorised pass. Other
cast shapes use the exact scalar :func:`~engine.geometry.queries.shape_cast` per candidate.

The structure is immutable once built. Units are pixels, y-up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .queries import CastHit, RayHit, _unit_direction, ray_capsule, shape_cast
from .shapes import AABB, GeometryError, RoundedPolygon, Transform, _finite_point

__all__ = ["SegmentHit", "StaticBroadPhase", "boxes_touching", "ray_cast_capsules", "touching_pairs"]


_SCALAR_CANDIDATES = 16
"""Below this many candidates plain-float tests beat numpy's per-call overhead (measured with
tests/benchmarks/bench_geometry.py: ~3 us per capsule scalar, ~80 us fixed for the vectorised pass)."""


class SegmentHit(NamedTuple):
    """The nearest hit of a broad-phase query: which segment, and the hit itself."""

    segment: int
    """Index of the segment in the order it was given to :class:`StaticBroadPhase`."""
    hit: RayHit | CastHit


def ray_cast_capsules(
    origin: Sequence[float],
    direction: Sequence[float],
    max_distance: float,
    a: np.ndarray,
    b: np.ndarray,
    radius: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised ray cast against N capsules at once.

    ``direction`` must be a unit vector; ``a`` and ``b`` are (N, 2) end points, ``radius`` (N,). Returns
    ``(t, normals, inside)``: per capsule the hit distance (``inf`` for a miss), the outward unit normal at
    the hit ((N, 2)) and whether the origin starts inside it (then ``t`` is 0 and the normal is the way
    out). Same conventions as :func:`~engine.geometry.queries.ray_cast`.
    """
    px, py = float(origin[0]), float(origin[1])
    dx, dy = float(direction[0]), float(direction[1])
    ax, ay = a[:, 0], a[:, 1]
    ex, ey = b[:, 0] - ax, b[:, 1] - ay
    len2 = ex * ex + ey * ey
    safe_len2 = np.where(len2 > 0.0, len2, 1.0)
    # Closest point of each segment to the origin: decides "starts inside".
    u0 = np.clip(((px - ax) * ex + (py - ay) * ey) / safe_len2, 0.0, 1.0)
    cx, cy = ax + u0 * ex, ay + u0 * ey
    ox, oy = px - cx, py - cy
    dist0 = np.hypot(ox, oy)
    inside = dist0 < radius

    t_best = np.full(len(ax), np.inf)
    nx_best = np.zeros(len(ax))
    ny_best = np.zeros(len(ax))

    # Flat sides: the segment's two normals, offset by the radius.
    inv_len = np.where(len2 > 0.0, 1.0 / np.sqrt(safe_len2), 0.0)
    snx, sny = ey * inv_len, -ex * inv_len
    with np.errstate(divide="ignore", invalid="ignore"):
        for sign in (1.0, -1.0):
            nx, ny = sign * snx, sign * sny
            den = nx * dx + ny * dy
            height = nx * (px - ax) + ny * (py - ay) - radius
            t = -height / den
            hx, hy = px + t * dx, py + t * dy
            u = (hx - ax) * ex + (hy - ay) * ey
            ok = (den < 0.0) & (height >= 0.0) & (u >= 0.0) & (u <= len2) & (len2 > 0.0) & (t < t_best)
            t_best = np.where(ok, t, t_best)
            nx_best = np.where(ok, nx, nx_best)
            ny_best = np.where(ok, ny, ny_best)

        # End caps.
        for qx, qy in ((ax, ay), (b[:, 0], b[:, 1])):
            mx, my = px - qx, py - qy
            bb = mx * dx + my * dy
            c = mx * mx + my * my - radius * radius
            disc = bb * bb - c
            t = np.maximum(-bb - np.sqrt(np.maximum(disc, 0.0)), 0.0)
            ok = (disc >= 0.0) & (bb < 0.0) & (radius > 0.0) & (t < t_best)
            hx, hy = mx + t * dx, my + t * dy
            inv_r = np.where(radius > 0.0, 1.0 / np.where(radius > 0.0, radius, 1.0), 0.0)
            t_best = np.where(ok, t, t_best)
            nx_best = np.where(ok, hx * inv_r, nx_best)
            ny_best = np.where(ok, hy * inv_r, ny_best)

        # Starting inside: distance 0, the way out is away from the segment (or its normal when on it).
        on_core = dist0 == 0.0
        out_x = np.where(on_core, snx, ox / np.where(on_core, 1.0, dist0))
        out_y = np.where(on_core, sny, oy / np.where(on_core, 1.0, dist0))
        # On the surface and heading in: a hit at 0, decided from the closest point as the scalar cast does.
        on_surface = ~inside & (dist0 - radius <= 1e-9) & ~on_core & (out_x * dx + out_y * dy < 0.0)
        t_best = np.where(on_surface, 0.0, t_best)
        nx_best = np.where(on_surface, out_x, nx_best)
        ny_best = np.where(on_surface, out_y, ny_best)
    t_best = np.where(inside, 0.0, t_best)
    t_best = np.where(t_best <= max_distance, t_best, np.inf)
    normals = np.stack([np.where(inside, out_x, nx_best), np.where(inside, out_y, ny_best)], axis=1)
    return t_best, normals, inside


def boxes_touching(boxes: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """Which rows of ``boxes`` ((n, 4): min x, min y, max x, max y, px) overlap or touch ``box`` (the same
    four numbers, e.g. an :class:`~engine.geometry.AABB`), as an (n,) bool mask."""
    min_x, min_y, max_x, max_y = box
    return (boxes[:, 0] <= max_x) & (boxes[:, 2] >= min_x) & (boxes[:, 1] <= max_y) & (boxes[:, 3] >= min_y)


def touching_pairs(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j) of a row of ``first`` and a row of ``second`` (each (n, 4): min x, min y, max x, max y,
    px) whose boxes overlap or touch, as :func:`boxes_touching` tests them; in row-major order (by i, then j),
    all at once (a few dozen by a few dozen boxes: one array test instead of one call per row)."""
    near = (second[None, :, 0] <= first[:, None, 2]) & (second[None, :, 2] >= first[:, None, 0]) \
        & (second[None, :, 1] <= first[:, None, 3]) & (second[None, :, 3] >= first[:, None, 1])
    return np.nonzero(near)  # type: ignore[return-value]


_BUILD_CHUNK = 32_768
"""Segments whose grid cells are worked out together while the grid is built (the arrays of a chunk, a few
per cell entry, stay a few MiB; all at once they were some 300 MiB on a 465k-segment level)."""


class StaticBroadPhase:
    """Immutable uniform-grid index over static thick segments.

    ``a`` and ``b`` are the segments' end points ((N, 2), pixels), ``radius`` their thickness (a scalar or
    (N,)). ``cell_size`` (pixels) defaults to twice the median segment extent, clamped to [32, 512].
    """

    def __init__(
        self,
        a: Sequence[Sequence[float]] | np.ndarray,
        b: Sequence[Sequence[float]] | np.ndarray,
        radius: float | Sequence[float] | np.ndarray = 0.0,
        cell_size: float | None = None,
    ) -> None:
        a_arr = np.asarray(a, dtype=np.float64).reshape(-1, 2)
        b_arr = np.asarray(b, dtype=np.float64).reshape(-1, 2)
        if a_arr.shape != b_arr.shape:
            raise GeometryError(f"StaticBroadPhase: {len(a_arr)} start points but {len(b_arr)} end points")
        n = len(a_arr)
        r_arr = np.broadcast_to(np.asarray(radius, dtype=np.float64), (n,)).copy()
        for name, arr in (("start point", a_arr), ("end point", b_arr), ("radius", r_arr)):
            bad = ~np.isfinite(arr).reshape(n, -1).all(axis=1) if n else np.zeros(0, bool)
            if bad.any():
                i = int(np.argmax(bad))
                raise GeometryError(f"StaticBroadPhase: segment {i} has a non-finite {name}: {arr[i]!r}")
        if (r_arr < 0.0).any():
            i = int(np.argmax(r_arr < 0.0))
            raise GeometryError(f"StaticBroadPhase: segment {i} has a negative radius: {r_arr[i]!r}")
        self.a, self.b, self.radius = a_arr, b_arr, r_arr
        lo = np.minimum(a_arr, b_arr) - r_arr[:, None]
        hi = np.maximum(a_arr, b_arr) + r_arr[:, None]
        self.aabbs = np.concatenate([lo, hi], axis=1) if n else np.zeros((0, 4))
        self.max_radius = float(r_arr.max()) if n else 0.0

        if cell_size is None:
            extent = (hi - lo).max(axis=1) if n else np.array([64.0])
            cell_size = float(np.clip(2.0 * np.median(extent), 32.0, 512.0))
        cell = float(cell_size)
        if not (math.isfinite(cell) and cell > 0.0):
            raise GeometryError(f"StaticBroadPhase cell_size must be a positive number, got {cell_size!r}")
        self.cell_size = cell
        self._cells: dict[tuple[int, int], np.ndarray] = self._build_cells() if n else {}
        # Plain-Python copies for small queries, where numpy's per-call overhead would dominate: made for the
        # cells and segments those queries meet (a level of 400k segments would keep some 100 MiB of them).
        self._cell_lists: dict[tuple[int, int], list[int]] = {}
        self._aabb_rows: dict[int, tuple[float, float, float, float]] = {}
        for arr in (self.a, self.b, self.radius, self.aabbs):
            arr.setflags(write=False)
        self._shapes: dict[int, RoundedPolygon] = {}
        self._cell_table: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._cell_arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.a)

    # ------------------------------------------------------------------ build
    def _build_cells(self) -> dict[tuple[int, int], np.ndarray]:
        parts = [self._cells_of(first, min(first + _BUILD_CHUNK, len(self.a)))
                 for first in range(0, len(self.a), _BUILD_CHUNK)]  # (a chunk at a time: its arrays stay small)
        seg, ix, iy = (np.concatenate([part[k] for part in parts]) for k in range(3))
        del parts
        order = np.lexsort((seg, iy, ix))
        seg = seg[order]  # (one array at a time: the unsorted one goes before the next is made)
        ix = ix[order]
        iy = iy[order]
        del order
        boundaries = np.flatnonzero((np.diff(ix) != 0) | (np.diff(iy) != 0)) + 1
        cells: dict[tuple[int, int], np.ndarray] = {}
        seg.setflags(write=False)
        starts = np.concatenate([[0], boundaries])
        for group_start, group_end, cx, cy in zip(starts.tolist(), np.concatenate([boundaries, [len(seg)]]).tolist(),
                                                  ix[starts].tolist(), iy[starts].tolist()):
            cells[(cx, cy)] = seg[group_start:group_end]
        return cells

    def _cells_of(self, first: int, end: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The (segment, cell x, cell y) entries of the segments ``first`` to ``end`` (exclusive): every cell
        each one's thick shape really touches."""
        inv = 1.0 / self.cell_size
        aabbs = self.aabbs[first:end]
        lo = np.floor(aabbs[:, :2] * inv).astype(np.int64)
        hi = np.floor(aabbs[:, 2:] * inv).astype(np.int64)
        span = hi - lo + 1
        counts = span[:, 0] * span[:, 1]
        local = np.repeat(np.arange(end - first), counts)
        # Offset of each entry within its segment's cell rectangle.
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        k = np.arange(counts.sum()) - starts
        w = span[local, 0]
        ix = lo[local, 0] + k % w
        iy = lo[local, 1] + k // w
        seg = local + first
        # Keep only cells the thick segment really touches: distance from the cell centre to the segment
        # at most half the cell diagonal plus the radius.
        cx = (ix + 0.5) * self.cell_size
        cy = (iy + 0.5) * self.cell_size
        ax, ay = self.a[seg, 0], self.a[seg, 1]
        ex, ey = self.b[seg, 0] - ax, self.b[seg, 1] - ay
        len2 = ex * ex + ey * ey
        t = np.clip(((cx - ax) * ex + (cy - ay) * ey) / np.where(len2 > 0, len2, 1.0), 0.0, 1.0)
        dist = np.hypot(cx - (ax + t * ex), cy - (ay + t * ey))
        keep = dist <= self.cell_size * (0.5 * math.sqrt(2.0)) + self.radius[seg] + 1e-9
        return seg[keep], ix[keep], iy[keep]

    def cell_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The grid as flat arrays, for compiled queries: the occupied cells' (ix, iy) sorted by ix then iy
        (two int64 arrays), and their members, cell ``c``'s being ``members[offsets[c]:offsets[c + 1]]``
        (sorted segment indices). Made once."""
        if self._cell_table is None:
            keys = sorted(self._cells)
            ix = np.array([k[0] for k in keys], dtype=np.int64)
            iy = np.array([k[1] for k in keys], dtype=np.int64)
            sizes = [len(self._cells[k]) for k in keys]
            offsets = np.zeros(len(keys) + 1, dtype=np.int64)
            offsets[1:] = np.cumsum(sizes) if keys else []
            members = np.concatenate([self._cells[k] for k in keys]).astype(np.int64) if keys \
                else np.zeros(0, np.int64)
            self._cell_table = (ix, iy, offsets, members)
        return self._cell_table

    # ------------------------------------------------------------------ queries
    def box(self, index: int) -> tuple[float, float, float, float]:
        """Segment ``index``'s bounding box (min_x, min_y, max_x, max_y), its thickness included."""
        row = self._aabb_rows.get(index)
        if row is None:
            min_x, min_y, max_x, max_y = self.aabbs[index].tolist()
            row = self._aabb_rows[index] = (min_x, min_y, max_x, max_y)
        return row

    def shape(self, index: int) -> RoundedPolygon:
        """Segment ``index`` as a capsule :class:`RoundedPolygon` in the world frame (cached)."""
        shape = self._shapes.get(index)
        if shape is None:
            ax, ay = self.a[index].tolist()
            bx, by = self.b[index].tolist()
            shape = RoundedPolygon._trusted(((ax, ay), (bx, by)), float(self.radius[index]))
            self._shapes[index] = shape
        return shape

    def query_aabb(self, box: Sequence[float]) -> np.ndarray:
        """Candidate segments for ``box`` ``(min_x, min_y, max_x, max_y)``: every segment whose thick shape
        overlaps the box is returned (no misses), and only segments whose bounding box overlaps it. A long
        diagonal segment whose bounding box covers the query but whose shape passes far away is usually
        left out, because it is entered only in the grid cells its shape touches."""
        min_x, min_y, max_x, max_y = (float(v) for v in box)
        inv = 1.0 / self.cell_size
        x0, x1 = math.floor(min_x * inv), math.floor(max_x * inv)
        y0, y1 = math.floor(min_y * inv), math.floor(max_y * inv)
        cells = self._cells
        found = []
        if (x1 - x0 + 1) * (y1 - y0 + 1) <= 4 * len(cells) + 16:
            for ix in range(x0, x1 + 1):
                for iy in range(y0, y1 + 1):
                    members = cells.get((ix, iy))
                    if members is not None:
                        found.append(members)
        else:  # a box larger than the grid itself: walk the occupied cells instead
            for (ix, iy), members in cells.items():
                if x0 <= ix <= x1 and y0 <= iy <= y1:
                    found.append(members)
        if not found:
            return np.zeros(0, dtype=np.int64)
        candidates = found[0] if len(found) == 1 else np.unique(np.concatenate(found))
        boxes = self.aabbs[candidates]
        return candidates[boxes_touching(boxes, (min_x, min_y, max_x, max_y))]

    def cell_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`cell_table` with each cell as one key, ``ix * 2**32 + iy + 2**31`` (ascending, as (ix,
        iy)): the keys, the start of each cell's members (then the end), and the members. Made once."""
        if self._cell_arrays is None:
            ix, iy, offsets, members = self.cell_table()
            self._cell_arrays = (ix * 2**32 + iy + 2**31, offsets, members)
        return self._cell_arrays

    def query_list(self, box: Sequence[float]) -> list[int]:
        """Same answer as :meth:`query_aabb`, as a sorted Python list; faster for the small, local boxes
        a character or a body asks about every step."""
        min_x, min_y, max_x, max_y = box
        inv = 1.0 / self.cell_size
        x0, x1 = math.floor(min_x * inv), math.floor(max_x * inv)
        y0, y1 = math.floor(min_y * inv), math.floor(max_y * inv)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 64:
            return self.query_aabb(box).tolist()
        cells, lists = self._cells, self._cell_lists
        found: set[int] = set()
        for ix in range(x0, x1 + 1):
            for iy in range(y0, y1 + 1):
                members = lists.get((ix, iy))
                if members is None:
                    cell = cells.get((ix, iy))
                    if cell is None:
                        continue
                    members = lists[(ix, iy)] = cell.tolist()
                found.update(members)
        rows, box_of = self._aabb_rows, self.box
        result = []
        for i in sorted(found):
            bx0, by0, bx1, by1 = rows.get(i) or box_of(i)
            if bx0 <= max_x and bx1 >= min_x and by0 <= max_y and by1 >= min_y:
                result.append(i)
        return result

    def query_swept(self, box: Sequence[float], translation: Sequence[float], grow: float = 0.0) -> np.ndarray:
        """Segments whose boxes overlap ``box`` swept along ``translation`` and grown by ``grow`` pixels:
        the candidates of a cast."""
        sweep = AABB(*box).swept(translation).grown(grow)
        return self.query_aabb(sweep)

    def ray_cast(
        self, origin: Sequence[float], direction: Sequence[float], max_distance: float, radius: float = 0.0
    ) -> SegmentHit | None:
        """Nearest hit of a ray (``radius`` 0) or a circle cast (``radius`` > 0, the circle's centre moving
        from ``origin``) along ``direction`` for at most ``max_distance`` pixels. ``RayHit.point`` is the
        centre's position at the hit; the contact point is ``point - radius * normal``."""
        ox, oy = _finite_point(origin, "ray_cast origin")
        dx, dy = _unit_direction(direction, "ray_cast direction")
        max_d = float(max_distance)
        if not (0.0 <= max_d < math.inf):
            raise GeometryError(f"ray_cast max_distance must be finite and >= 0, got {max_distance!r}")
        rad = float(radius)
        if not (0.0 <= rad < math.inf):
            raise GeometryError(f"ray_cast radius must be finite and >= 0, got {radius!r}")
        ex, ey = ox + dx * max_d, oy + dy * max_d
        box = (min(ox, ex) - rad, min(oy, ey) - rad, max(ox, ex) + rad, max(oy, ey) + rad)
        candidates = self.query_aabb(box)
        if len(candidates) == 0:
            return None
        if len(candidates) <= _SCALAR_CANDIDATES:
            best_i, best = -1, None
            for i, (ax, ay), (bx, by), r in zip(
                candidates.tolist(), self.a[candidates].tolist(), self.b[candidates].tolist(),
                self.radius[candidates].tolist(),
            ):
                found = ray_capsule(ox, oy, dx, dy, max_d, ax, ay, bx, by, r + rad)
                if found is not None and (best is None or found[0] < best[0]):
                    best_i, best = i, found
            if best is None:
                return None
            tk, nx, ny, inside = best
            return SegmentHit(best_i, RayHit(tk, (ox + tk * dx, oy + tk * dy), (nx, ny), inside))
        t, normals, inside_all = ray_cast_capsules(
            (ox, oy), (dx, dy), max_d, self.a[candidates], self.b[candidates], self.radius[candidates] + rad
        )
        k = int(np.argmin(t))
        if not math.isfinite(t[k]):
            return None
        tk = float(t[k])
        normal = (float(normals[k, 0]), float(normals[k, 1]))
        return SegmentHit(int(candidates[k]), RayHit(tk, (ox + tk * dx, oy + tk * dy), normal, bool(inside_all[k])))

    def shape_cast(
        self, moving: RoundedPolygon, xf: Transform, translation: Sequence[float]
    ) -> SegmentHit | None:
        """Nearest contact of ``moving`` (placed by ``xf``) swept along ``translation`` against the
        segments, as :func:`~engine.geometry.queries.shape_cast` would report it for the nearest segment.
        Circles take the vectorised path."""
        tx, ty = _finite_point(translation, "shape_cast translation")
        length = math.hypot(tx, ty)
        if moving.count == 1 and length > 0.0:
            center = xf.apply(moving.vertices[0])
            found = self.ray_cast(center, (tx, ty), length, moving.radius)
            if found is None:
                return None
            ray_hit = found.hit
            assert isinstance(ray_hit, RayHit)
            nx, ny = ray_hit.normal
            point = (ray_hit.point[0] - moving.radius * nx, ray_hit.point[1] - moving.radius * ny)
            cast_hit = CastHit(ray_hit.distance / length, point, ray_hit.normal, ray_hit.started_inside)
            return SegmentHit(found.segment, cast_hit)
        candidates = self.query_swept(moving.aabb(xf), (tx, ty))
        best: SegmentHit | None = None
        best_fraction = math.inf
        for i in candidates.tolist():
            hit = shape_cast(moving, xf, (tx, ty), self.shape(i), _IDENTITY)
            if hit is not None and hit.fraction < best_fraction:
                best, best_fraction = SegmentHit(i, hit), hit.fraction
        return best


_IDENTITY = Transform()
