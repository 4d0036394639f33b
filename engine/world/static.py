"""The world's static geometry: thick segments (capsules), solid or one-way, behind a broad phase.

:class:`StaticGeometry` owns the segments, their colliders, the broad phase, the joints between segments
(for the rigid-body seam rule) and the cache of Minkowski sums the character mover casts against. It is
built while a level loads and read-only while the world steps.

Units: pixels; y-up. A one-way segment is solid only against things coming from its ``one_way`` side.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..geometry import RoundedPolygon, StaticBroadPhase, Transform, Vec2, minkowski_difference
from ..types import (
    DEFAULT_FILTER, BodyKind, Collider, CollisionFilter, Neighbour, WorldError, require_nonnegative, unit_or_none,
)
from .filters import filter_arrays
from .jit import kernels
from .kernels.layout import (
    SEGMENT_BOX, SEGMENT_COLUMNS, SEGMENT_FILTER, SEGMENT_INT_COLUMNS, SEGMENT_MARK, SEGMENT_ONE_WAY, SEGMENT_RADIUS,
    SEGMENT_SHARED, SUM_COUNT, Level, sum_row, sum_row_width,
)

__all__ = ["QueryConfig", "StaticGeometry"]

_IDENTITY = Transform()

_PIECES = 256
"""The segments added since the last build are kept in at most this many arrays of each kind (then joined)."""


@dataclass(frozen=True)
class QueryConfig:
    """Sizes of the caches behind scene queries. Validated when made."""

    sum_cache_shapes: int = 64
    """Distinct moving shapes whose Minkowski sums with static segments are kept (characters of a game use a
    handful); past it the cache starts over."""
    sum_cache_segments: int = 200_000
    """Sums kept per shape (a segment a character came near); past it that shape's sums start over. At about
    1 KiB a sum, 200k is ~200 MiB at worst, reached only by crossing a 100k-segment level end to end."""
    joint_tolerance: float = 1e-6
    """Pixels. Segment ends closer than this are one joint (chains share exact end points)."""

    def __post_init__(self) -> None:
        for name in ("sum_cache_shapes", "sum_cache_segments"):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= 1):
                raise WorldError(f"QueryConfig.{name} must be an integer >= 1, got {value!r}")
        require_nonnegative(self, ("joint_tolerance",))


class StaticGeometry:
    """Static thick segments with one collider each, a lazily (re)built broad phase and the joint table."""

    def __init__(self, config: QueryConfig | None = None) -> None:
        self.config = config or QueryConfig()
        self._a: list[np.ndarray] = []
        self._b: list[np.ndarray] = []
        self._r: list[np.ndarray] = []
        self._one_way: list[np.ndarray] = []
        self._pending_colliders: list[tuple[int, CollisionFilter, Any]] = []
        self._joined = 0
        """How many of the first arrays of :attr:`_a` (and of the other three) are joined pieces already."""
        self._broadphase: StaticBroadPhase | None = None
        self._colliders = _Colliders(np.zeros((0, 2)), [])
        self._neighbours: dict[int, Neighbour] = {}
        self._joints = _Joints(np.zeros((0, 2)), np.zeros((0, 2)), 1e-6)
        self._sums: dict[RoundedPolygon, dict[int, RoundedPolygon]] = {}
        self._sum_tables: dict[tuple[Vec2, ...], _SumTable] = {}
        self._last_sum_table: tuple[tuple[Vec2, ...], _SumTable] | None = None
        """The core vertices and table of the last :meth:`sum_table` call, one of ``_sum_tables``' entries."""
        self._count = 0
        self._filter_arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._kernel_level: tuple[StaticBroadPhase, Any, _LevelQuery] | None = None
        self._kernel_level_arrays: tuple[Any, tuple[Any, ...]] | None = None

    def __len__(self) -> int:
        return self._count

    # ---------------------------------------------------------------- building
    def add_segments(
        self, a: Sequence[Sequence[float]] | np.ndarray, b: Sequence[Sequence[float]] | np.ndarray,
        radius: float | Sequence[float] = 2.0, one_way: Sequence[float] | None = None,
        filter: CollisionFilter | None = None, user_data: Any = None,
    ) -> range:
        """Add thick segments from ``a[i]`` to ``b[i]`` (pixels) with ``radius``; ``one_way`` (a direction)
        makes them one-way. Returns the range of their segment indices."""
        a_arr = np.asarray(a, dtype=np.float64).reshape(-1, 2)
        b_arr = np.asarray(b, dtype=np.float64).reshape(-1, 2)
        if a_arr.shape != b_arr.shape:
            raise WorldError(f"add_segments: {len(a_arr)} start points but {len(b_arr)} end points")
        r_arr = np.broadcast_to(np.asarray(radius, dtype=np.float64), (len(a_arr),)).copy()
        direction = unit_or_none(one_way, "one_way")
        ow = np.zeros((len(a_arr), 2)) if direction is None else np.tile(direction, (len(a_arr), 1))
        if filter is not None and not isinstance(filter, CollisionFilter):
            raise WorldError(f"add_segments: filter must be a CollisionFilter, got {filter!r}")
        start = self._count
        # Validate now, naming the bad segment, rather than at the first query.
        bad = ~(np.isfinite(a_arr).all(axis=1) & np.isfinite(b_arr).all(axis=1) & np.isfinite(r_arr) & (r_arr >= 0))
        if bad.any():
            i = int(np.argmax(bad))
            raise WorldError(
                f"segment {start + i} is not finite or has a negative radius: {a_arr[i]!r} -> {b_arr[i]!r}, r={r_arr[i]!r}"
            )
        self._a.append(a_arr)
        self._b.append(b_arr)
        self._r.append(r_arr)
        self._one_way.append(ow)
        if len(self._a) - self._joined >= _PIECES:  # (a level adds a chain at a time: tens of thousands of small
            # arrays, joined a few hundred at a time, each once)
            for pieces in (self._a, self._b, self._r, self._one_way):
                pieces[self._joined:] = [np.concatenate(pieces[self._joined:])]
            self._joined += 1
        flt = filter or DEFAULT_FILTER
        last = self._pending_colliders[-1] if self._pending_colliders else None
        if last is not None and last[1] is flt and last[2] is user_data:  # (one group for segments added alike)
            self._pending_colliders[-1] = (last[0] + len(a_arr), flt, user_data)
        else:
            self._pending_colliders.append((len(a_arr), flt, user_data))
        self._count += len(a_arr)
        self._broadphase = None
        return range(start, start + len(a_arr))

    def boxes_of(self, added: range) -> np.ndarray:
        """The boxes (rows of min x, min y, max x, max y, px, the radius included) of the segments an
        :meth:`add_segments` or :meth:`add_chain` call just added (its answer)."""
        if not len(added):
            return np.zeros((0, 4))
        if added.stop != self._count or len(self._a[-1]) < len(added):
            raise WorldError(f"boxes_of: {added!r} is not the last segments added")
        last = slice(len(self._a[-1]) - len(added), None)
        a, b, r = self._a[-1][last], self._b[-1][last], self._r[-1][last, None]
        return np.hstack([np.minimum(a, b) - r, np.maximum(a, b) + r])

    def add_chain(
        self, points: Sequence[Sequence[float]], radius: float = 2.0, closed: bool = False,
        one_way: Sequence[float] | None = None, filter: CollisionFilter | None = None, user_data: Any = None,
    ) -> range:
        """Add a chain of thick segments through ``points`` (closed: back to the first point)."""
        pts = [tuple(map(float, p)) for p in points]
        if len(pts) < 2:
            raise WorldError(f"a chain needs at least 2 points, got {len(pts)}")
        ends = pts[1:] + (pts[:1] if closed else [])
        return self.add_segments(pts[: len(ends)], ends, radius, one_way, filter, user_data)

    @property
    def broadphase(self) -> StaticBroadPhase:
        """The broad phase over every segment (rebuilt after segments are added)."""
        if self._broadphase is None:
            self._rebuild()
        assert self._broadphase is not None
        return self._broadphase

    def _rebuild(self) -> None:
        a = np.concatenate(self._a) if self._a else np.zeros((0, 2))
        b = np.concatenate(self._b) if self._b else np.zeros((0, 2))
        r = np.concatenate(self._r) if self._r else np.zeros(0)
        ow = np.concatenate(self._one_way) if self._one_way else np.zeros((0, 2))
        if self._a:  # (kept as one piece each: the pieces go)
            self._a, self._b, self._r, self._one_way, self._joined = [a], [b], [r], [ow], 1
        self._broadphase = StaticBroadPhase(a, b, r)
        self._sums.clear()
        self._sum_tables.clear()
        self._last_sum_table = None
        self._neighbours.clear()
        self._colliders = _Colliders(ow, self._pending_colliders)
        self._joints = _Joints(a, b, self.config.joint_tolerance)
        counts = [count for count, _, _ in self._pending_colliders]
        groups = filter_arrays([flt for _, flt, _ in self._pending_colliders])
        self._filter_arrays = None if groups is None else (
            np.repeat(groups[0], counts), np.repeat(groups[1], counts), np.repeat(groups[2], counts))

    # ---------------------------------------------------------------- reading
    def kernel_level(self) -> Any:
        """The segments as the kernels read them (:class:`~engine.world.kernels.layout.Level`): made once per
        build of the broad phase."""
        return self._level_now()[1]

    def _level_now(self) -> tuple[StaticBroadPhase, Any, _LevelQuery]:
        bp = self.broadphase
        if self._kernel_level is None or self._kernel_level[0] is not bp:
            one_way = self._colliders.one_way
            level = _level_arrays(bp, self._joints, self._filter_arrays, one_way)
            self._kernel_level = (bp, level, _LevelQuery(bp, one_way))
        return self._kernel_level

    def kernel_level_arrays(self) -> tuple[Any, ...]:
        """:meth:`kernel_level`'s fields as a plain tuple (as the rigid step takes them), made once."""
        made = self._kernel_level_arrays
        bp = self._broadphase
        if made is not None and bp is not None and made[0] is bp:  # (a step asks every time: kept short)
            return made[1]
        level = self.kernel_level()
        self._kernel_level_arrays = (self._broadphase, tuple(level))
        return self._kernel_level_arrays[1]

    def filter_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(category, mask, group) per segment; ``None`` when every segment has the default filter."""
        self.broadphase  # noqa: B018 - builds them if needed
        return self._filter_arrays

    def collider(self, segment: int) -> Collider:
        if self._broadphase is None:  # (builds the colliders; asked for every hit and contact a query reports)
            self._rebuild()
        return self._colliders[segment]

    def shape(self, segment: int) -> RoundedPolygon:
        return self.broadphase.shape(segment)

    def neighbours_in(self, box: Sequence[float], ignored: set[int] | None = None,
                      query: CollisionFilter | None = None) -> list[Neighbour]:
        """The segments whose thick shapes may touch ``box`` (min_x, min_y, max_x, max_y), as neighbours;
        without those whose colliders' ids are in ``ignored`` or whose filters do not touch ``query``."""
        bp = self.broadphase
        found = []
        made = self._neighbours
        check = query is not None and not (query is DEFAULT_FILTER and self._filter_arrays is None)
        for i in bp.query_list(box):
            neighbour = made.get(i)
            if neighbour is None:
                neighbour = made[i] = Neighbour(self._colliders[i], bp.shape(i), _IDENTITY, bp.box(i))
            if ignored and id(neighbour.collider) in ignored:
                continue
            if check and not query.touches(neighbour.collider.filter):  # type: ignore[union-attr]
                continue
            found.append(neighbour)
        return found

    def neighbour(self, segment: int) -> Neighbour:
        """Segment ``segment`` as a gathered neighbour (made once)."""
        found = self._neighbours.get(segment)
        if found is None:
            bp = self.broadphase
            found = self._neighbours[segment] = Neighbour(self._colliders[segment], bp.shape(segment), _IDENTITY,
                                                          bp.box(segment))
        return found

    def segments_in(self, box: Sequence[float], query: CollisionFilter) -> np.ndarray:
        """:meth:`neighbours_in` (without ignoring any) as the segments' indices, sorted, in one compiled
        call (:func:`~engine.world.kernels.broad_phase.segments_in_box`, the rigid step's broad phase)."""
        arguments = self.kernel_query(box, query)
        if arguments is None:
            return np.array([n.collider.segment for n in self.neighbours_in(box, None, query)], dtype=np.int64)
        count = kernels().broad_phase.segments_in_box(*arguments)
        return arguments[2][:count].copy()  # (the gathered keep it: not a view of the reused array)

    def kernel_query(self, box: Sequence[float], query: CollisionFilter) -> tuple[Any, ...] | None:
        """The arguments of :func:`~engine.world.kernels.broad_phase.segments_in_box` for ``box`` (min_x, min_y,
        max_x, max_y, px) and ``query`` (the filters checked unless the query and every segment have the default
        one): the level's arrays, the query, the array the segments go into. ``None`` when the grid cannot be queried
        compiled."""
        scratch = self._level_now()[2]
        if not scratch.usable:
            return None
        check = not (query is DEFAULT_FILTER and self._filter_arrays is None)
        scratch.box[0, 0], scratch.box[0, 1], scratch.box[0, 2], scratch.box[0, 3] = box
        return self.kernel_level_arrays(), (scratch.box, query.category, query.mask, query.group, check), scratch.found

    def has_one_way(self, segments: np.ndarray) -> bool:
        """Whether any of ``segments`` is one-way."""
        scratch = self._level_now()[2]
        return scratch.any_one_way and bool(scratch.one_way[segments].any())

    def ray_cast(self, origin: Sequence[float], direction: Sequence[float], max_distance: float) -> Any:
        """The nearest segment hit by a ray (see :meth:`StaticBroadPhase.ray_cast`)."""
        return self.broadphase.ray_cast(origin, direction, max_distance)

    def shape_cast(self, shape: RoundedPolygon, xf: Transform, translation: Sequence[float]) -> Any:
        """The nearest segment hit by a swept shape (see :meth:`StaticBroadPhase.shape_cast`)."""
        return self.broadphase.shape_cast(shape, xf, translation)

    def joint_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Which segment ends meet, for the rigid-body seam rule (compiled: contacts with a segment's rounded
        end cap that lean over a neighbour are that neighbour's business): every end's point ((2N, 2); end
        ``e`` is segment ``e % N``'s start when ``e < N``, else its end), the ends sorted so that those that
        meet are side by side, and each end's first place in that order and how many ends meet there."""
        self.broadphase  # noqa: B018 - builds the joint table if needed
        joints = self._joints
        return joints.ends, joints.order, joints.group_start, joints.group_size

    def joint_flags(self) -> np.ndarray:
        """(N,) bool: whether either end of each segment meets another segment."""
        self.broadphase  # noqa: B018
        return self._joints.shared_flags()

    def sum_table(self, shape: RoundedPolygon, segments: list[int] | np.ndarray) -> _SumTable | None:
        """The table of the Minkowski sums of the segments with the upright ``shape``'s core (a polygon, a
        capsule's segment or a circle's centre), for the compiled queries (:mod:`engine.world.kernels.mover`; the
        radius is added there, so a shape and its skin-grown copy share it), with the rows of ``segments`` built.
        Each row is built once per segment and core, with the reference
        :func:`~engine.geometry.minkowski_difference`. ``None`` when one of those sums has more vertices than a
        row holds (which a segment's sum with a convex core never has)."""
        table = self.table_of(shape)
        built = table.built
        segments = segments.tolist() if isinstance(segments, np.ndarray) else segments
        if not all(map(built.__getitem__, segments)):  # (all built, mostly: checked at C speed)
            for segment in segments:
                if not built[segment]:
                    table.build(self.broadphase, segment)
        if table.unusable and not table.unusable.isdisjoint(segments):
            return None
        return table

    def table_of(self, shape: RoundedPolygon) -> _SumTable:
        """The kept :meth:`sum_table` of a ``shape``'s core (made empty the first time) with its rows as
        they are: for a compiled query that checks the rows it reads itself (an unbuilt row's vertex count
        is 0) and asks :meth:`sum_table` for them when one is missing."""
        vertices = shape.vertices
        last = self._last_sum_table
        if last is not None and last[0] is vertices:
            table = last[1]  # the same core as the last call (a character's every query): no tuple hashed
        else:
            kept = self._sum_tables.get(vertices)
            if kept is None:
                if len(self._sum_tables) >= self.config.sum_cache_shapes:
                    self._sum_tables.clear()
                kept = self._sum_tables[vertices] = _SumTable(shape, len(self))
            table = kept
            self._last_sum_table = (vertices, table)  # (kept alive with it: its id stays its own)
        return table

    def minkowski_sum(self, shape: RoundedPolygon, segment: int) -> RoundedPolygon:
        """Minkowski sum of ``segment`` and a non-rotating ``shape``, built once and kept: a character sweeps
        the same shape against the same segments every step."""
        sums = self._sums.get(shape)
        if sums is None:
            if len(self._sums) >= self.config.sum_cache_shapes:
                self._sums.clear()
            sums = self._sums[shape] = {}
        found = sums.get(segment)
        if found is None:
            if len(sums) >= self.config.sum_cache_segments:
                sums.clear()
            found = sums[segment] = minkowski_difference(self.shape(segment), _IDENTITY, shape, 0.0)
        return found


class _LevelQuery:
    """What the compiled static queries need besides the level: whether its grid can be keyed (cells within
    2**30 of the origin; a level tens of billions of px wide is queried the scalar way), the query box and the
    array the found segments go into (reused), and the one-way flags."""

    def __init__(self, broadphase: StaticBroadPhase, one_way: np.ndarray) -> None:
        ix, iy, _, _ = broadphase.cell_table()
        self.usable = not (len(ix) and max(np.abs(ix).max(), np.abs(iy).max()) >= 2**30)
        self.box = np.zeros((1, 4))
        self.found = np.zeros(len(broadphase), dtype=np.int64)
        self.one_way: np.ndarray = np.asarray(one_way.any(axis=1))
        """(N,) bool: which segments are one-way."""
        self.any_one_way = bool(self.one_way.any())


class _SumTable:
    """The rows of one moving core's Minkowski sums with the segments (see ``engine.world.kernels.mover.SUM_*``),
    each built when its segment is first asked for. Rows of untouched segments cost no memory until written
    (``np.zeros`` maps pages lazily)."""

    def __init__(self, shape: RoundedPolygon, segments: int) -> None:
        self.shape = shape
        self.core = np.array(shape.vertices, dtype=np.float64).reshape(-1, 2)
        """The moving core's vertices (k, 2), px, in its own frame."""
        self.rows = np.zeros((segments, sum_row_width(shape.count)))
        self.built = bytearray(segments)
        """1 where the segment's row is built."""
        self.unusable: set[int] = set()
        """Segments whose sum is not a polygon the rows can hold (never asked of the compiled queries)."""

    def build(self, broadphase: StaticBroadPhase, segment: int) -> None:
        """Fill ``segment``'s row."""
        capsule = broadphase.shape(segment)
        grown = minkowski_difference(capsule, _IDENTITY, self.shape, 0.0)
        row = self.rows[segment]
        self.built[segment] = 1
        if not 1 <= grown.count <= self.shape.count + 2:
            row[SUM_COUNT] = grown.count
            self.unusable.add(segment)
            return
        row[:] = sum_row(grown.vertices, grown.normals, capsule.radius, broadphase.box(segment), width=len(row))


def _level_arrays(bp: StaticBroadPhase, joints: "_Joints",
                  filters: tuple[np.ndarray, np.ndarray, np.ndarray] | None, one_way: np.ndarray) -> Any:
    """The broad phase's segments as a :class:`~engine.world.kernels.layout.Level` (see there)."""
    count = len(bp)
    edge = bp.b - bp.a
    length = np.hypot(edge[:, 0], edge[:, 1])
    side = np.stack([edge[:, 1], -edge[:, 0]], axis=1) / np.where(length > 0, length, 1.0)[:, None]
    core = np.empty((2 * count, 4))
    core[0::2, :2], core[1::2, :2], core[0::2, 2:], core[1::2, 2:] = bp.a, bp.b, side, -side
    if filters is None:
        filter_rows = np.tile([DEFAULT_FILTER.category, DEFAULT_FILTER.mask, DEFAULT_FILTER.group], (count, 1))
    else:
        filter_rows = np.stack(filters, axis=1)
    keys, starts, members = bp.cell_arrays() if count else (np.zeros(0, np.int64),) * 3
    segments = np.empty((count, SEGMENT_COLUMNS))
    segments[:, SEGMENT_RADIUS] = bp.radius
    segments[:, SEGMENT_BOX:SEGMENT_BOX + 4] = np.asarray(bp.aabbs).reshape(count, 4)
    segments[:, SEGMENT_ONE_WAY:SEGMENT_ONE_WAY + 2] = one_way.reshape(count, 2)
    segment_ints = np.empty((count, SEGMENT_INT_COLUMNS), np.int64)
    segment_ints[:, SEGMENT_FILTER:SEGMENT_FILTER + 3] = filter_rows
    segment_ints[:, SEGMENT_SHARED] = np.asarray(joints.shared_flags(), dtype=np.bool_)
    segment_ints[:, SEGMENT_MARK] = -1
    joint_rows = np.stack([joints.order, np.asarray(joints.group_start), np.asarray(joints.group_size)],
                          axis=1).astype(np.int64).reshape(2 * count, 3)
    return Level(core, segments, segment_ints, np.array(joints.ends, dtype=np.float64).reshape(2 * count, 2),
                 joint_rows, float(bp.cell_size), np.array(keys, dtype=np.int64), np.array(starts, dtype=np.int64),
                 np.array(members, dtype=np.int64), np.zeros(1, dtype=np.int64))


class _Colliders:
    """The segments' colliders, each made when first asked for and kept (the same object every time: queries
    tell colliders apart by identity); a level of hundreds of thousands of segments asks for those near its
    characters and bodies only. ``one_way`` ((N, 2)): each segment's one-way direction (zero: solid);
    ``groups``: (count, filter, user data) of the segments added together, in order."""

    def __init__(self, one_way: np.ndarray, groups: list[tuple[int, CollisionFilter, Any]]) -> None:
        self.one_way = one_way
        self._groups = list(groups)
        self._starts = [0]
        for count, _, _ in groups:
            self._starts.append(self._starts[-1] + count)
        self._made: dict[int, Collider] = {}

    def __getitem__(self, segment: int) -> Collider:
        found = self._made.get(segment)
        if found is None:
            count = len(self.one_way)
            index = int(segment) + count if segment < 0 else int(segment)  # (a plain int, as the segment's number)
            if not 0 <= index < count:
                raise IndexError(f"segment {segment} is not one of the {count} static segments")
            _, flt, data = self._groups[bisect_right(self._starts, index) - 1]
            ox, oy = self.one_way[index].tolist()
            found = Collider(BodyKind.STATIC, (ox, oy) if ox or oy else None, None, index, flt, data)
            self._made[segment] = self._made[index] = found
        return found


class _Joints:
    """Which segment ends meet (end points within ``tolerance`` px), found with one sort of all the ends when
    the broad phase is built; the directions along the other segments at an end are worked out by the seam
    rule for the few contacts it looks at (a level has hundreds of thousands of ends)."""

    def __init__(self, a: np.ndarray, b: np.ndarray, tolerance: float) -> None:
        self.count = len(a)
        self.ends = np.concatenate([a, b]).reshape(-1, 2)
        """End ``e``: segment ``e % count``'s start (``e < count``) or end."""
        scale = 1.0 / tolerance if tolerance > 0 else 1e6
        keys = self.ends * scale
        np.round(keys, out=keys)  # (whole numbers, compared and sorted as floats: as integers they would be alike)
        self.order = np.lexsort((keys[:, 1], keys[:, 0]))
        new_group = np.zeros(len(keys), dtype=bool)
        new_group[:1] = True
        for column in (0, 1):  # (a column at a time: a level has hundreds of thousands of ends)
            ordered = keys[self.order, column]
            new_group[1:] |= ordered[1:] != ordered[:-1]
        del keys, ordered
        starts = np.flatnonzero(new_group)
        group = np.cumsum(new_group) - 1
        sizes = np.diff(np.append(starts, len(new_group)))
        self.group_start = np.empty(len(new_group), dtype=np.int64)
        self.group_size = np.empty(len(new_group), dtype=np.int64)
        self.group_start[self.order] = starts[group]
        self.group_size[self.order] = sizes[group]

    def shared_flags(self) -> np.ndarray:
        """Whether either end of each segment meets another segment ((N,) bool)."""
        return (self.group_size[:self.count] > 1) | (self.group_size[self.count:] > 1)
