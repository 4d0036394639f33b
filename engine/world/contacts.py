"""Contact gathering for the rigid-body step: which bodies touch what, as batched manifolds.

:func:`collide_all` finds this step's contacts of the awake bodies: against static segments (broad-phase
candidates cached per body while it stays inside a padded box), kinematic bodies and characters (scalar
``collide``: they are few), and each other (sweep and prune along x). Polygon pairs go through
:func:`~engine.geometry.batch.collide_batch`, one batch per pair of vertex counts; a count's static segments
ride, padded, in the batch of its equal-count body pairs. Manifolds are made ``speculative_distance`` early.

The seam rule: a one-point contact with a segment's rounded end cap, at an end the segment shares with
another segment, whose normal leans over that other segment, belongs to the other segment and is dropped.
Without it a crate sliding over a joint meets the caps there with a tilted speculative normal and trips.

:class:`ContactSet` is what a step leaves for the next one (warm starting, events, the debug overlay);
:class:`ShapeTable` is what the step needs of the bodies' shapes, kept by the world. This module is the
solver's (:mod:`engine.solver`); its names are public to it, not to games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np

from ..bodies import PhysicsConfig, RigidBody
from ..geometry import Manifold, Transform, Vec2, collide
from ..geometry.batch import BatchManifolds, collide_batch, padded_segments, world_polygons
from ..types import DEFAULT_FILTER
from .filters import filter_arrays, filter_columns, filters_touch
from .static import StaticGeometry

__all__ = [
    "CHARACTER", "DYNAMIC", "KINEMATIC", "STATIC", "Colouring", "ContactSet", "Found", "RigidScene", "ShapeTable",
    "collide_all", "overlapping_pairs", "pick", "world_polys",
]

_IDENTITY = Transform()
STATIC, KINEMATIC, CHARACTER, DYNAMIC = range(4)
"""What participant A of a contact is: a static segment, a kinematic body, a character, a rigid body."""


class RigidScene(NamedTuple):
    """What the rigid-body step reads of the rest of the world (it writes none of it but the bodies)."""

    static: StaticGeometry
    kinematic_bodies: Sequence[Any]
    characters: Sequence[Any]
    """Characters: kinematic shapes to the solver (they moved this step from ``previous_position``)."""
    gravity: Vec2
    config: PhysicsConfig
    static_friction: float
    """Friction coefficient of static geometry and kinematic bodies against rigid bodies."""


def pick(items: list, index: np.ndarray) -> list:
    """``[items[i] for i in index]``, at C speed."""
    if len(index) == 0:
        return []
    if len(index) == 1:
        return [items[int(index[0])]]
    return list(itemgetter(*index.tolist())(items))


def _key(kind: int, a: int, b: int) -> int:
    return (kind << 58) | (a << 29) | b


class Colouring(NamedTuple):
    """A solve's graph colouring (made by the solver, kept with the contact set for the next step)."""

    rows_a: np.ndarray
    """Solver rows of each contact's A, in the order the contacts were found."""
    rows_b: np.ndarray
    light: np.ndarray
    """Which contacts were light (normals only), in the same order."""
    order: np.ndarray
    """The contacts in colour order (indices into the found order)."""
    sizes: list[int]
    """Contacts per colour."""
    light_colours: list[bool]
    """Which colours are solved with the light kernel."""


@dataclass
class ContactSet:
    """The contacts of the last step, kept for warm starting, events and the debug overlay."""

    keys: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    ids: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    valid: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=bool))
    normal: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    point: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    impulse: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    """Accumulated impulses: normal at point 0 and 1, tangent at point 0 and 1."""
    sliding: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=bool))
    anchors: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 4)))
    """Friction anchors per point: x, y in A's frame, then in B's."""
    touching: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    a_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Position of A in the world's body list, -1 where A is not a rigid body."""
    b_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Position of B in the world's body list."""
    a: list = field(default_factory=list)
    """Participant A of each contact: a segment index (int), kinematic body, character or rigid body."""
    b: list = field(default_factory=list)
    """Rigid body B of each contact."""
    colouring: Colouring | None = None
    """The last solve's graph colours: reused while the same pairs touch the same rows the same way."""

    def __len__(self) -> int:
        return len(self.keys)

    def extended(self, other: "ContactSet", rows: np.ndarray) -> "ContactSet":
        """This set followed by ``other``'s contacts ``rows`` (a sleeping pile's contacts carried over)."""
        arrays = {name: np.concatenate([getattr(self, name), getattr(other, name)[rows]]) for name in (
            "keys", "ids", "valid", "normal", "point", "impulse", "sliding", "anchors",
            "touching", "a_index", "b_index")}
        return ContactSet(**arrays, a=self.a + pick(other.a, rows), b=self.b + pick(other.b, rows),
                          colouring=self.colouring)


class _Pairs:
    """Manifolds gathered for this step, in one list per field, then stacked."""

    def __init__(self) -> None:
        self.keys: list[np.ndarray] = []
        self.a: list = []
        self.b: list = []
        self.a_kind: list[np.ndarray] = []
        self.normal: list[np.ndarray] = []
        self.point: list[np.ndarray] = []
        self.separation: list[np.ndarray] = []
        self.ids: list[np.ndarray] = []
        self.valid: list[np.ndarray] = []
        self.a_index: list[np.ndarray] = []
        self.b_index: list[np.ndarray] = []

    def add_batch(self, keys, a_objs, b_objs, a_kind, m, a_index, b_index) -> None:
        """``a_index`` / ``b_index``: positions in the world's body list (-1 where A is not a rigid body)."""
        keep = m.valid[:, 0] | m.valid[:, 1]
        if not keep.any():
            return
        idx = np.flatnonzero(keep)
        self.keys.append(keys[idx])
        self.a.extend(pick(a_objs, idx))
        self.b.extend(pick(b_objs, idx))
        self.a_kind.append(np.full(len(idx), a_kind))
        self.normal.append(m.normal[idx])
        self.point.append(m.point[idx])
        self.separation.append(m.separation[idx])
        self.ids.append(m.id[idx])
        self.valid.append(m.valid[idx])
        self.a_index.append(np.broadcast_to(np.asarray(a_index, dtype=np.int64), keep.shape)[idx])
        self.b_index.append(np.asarray(b_index, dtype=np.int64)[idx])

    def add_manifold(self, key, a_obj, b_obj, a_kind, m: Manifold, a_index: int, b_index: int) -> None:
        point = np.zeros((1, 2, 2))
        sep = np.full((1, 2), np.inf)
        ids = np.zeros((1, 2), dtype=np.int64)
        valid = np.zeros((1, 2), dtype=bool)
        for j, p in enumerate(m.points):
            point[0, j] = p.point
            sep[0, j] = p.separation
            ids[0, j] = p.id
            valid[0, j] = True
        self.keys.append(np.array([key], dtype=np.int64))
        self.a.append(a_obj)
        self.b.append(b_obj)
        self.a_kind.append(np.array([a_kind]))
        self.normal.append(np.array([m.normal], dtype=np.float64))
        self.point.append(point)
        self.separation.append(sep)
        self.ids.append(ids)
        self.valid.append(valid)
        self.a_index.append(np.array([a_index], dtype=np.int64))
        self.b_index.append(np.array([b_index], dtype=np.int64))

    def stacked(self) -> "Found":
        if not self.keys:
            return Found(np.zeros(0, dtype=np.int64), [], [], np.zeros(0, dtype=np.int64), np.zeros((0, 2)),
                          np.zeros((0, 2, 2)), np.zeros((0, 2)), np.zeros((0, 2), dtype=np.int64),
                          np.zeros((0, 2), dtype=bool), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        cat = np.concatenate
        return Found(cat(self.keys), self.a, self.b, cat(self.a_kind), cat(self.normal), cat(self.point),
                      cat(self.separation), cat(self.ids), cat(self.valid), cat(self.a_index), cat(self.b_index))


class Found(NamedTuple):
    """This step's manifolds, one row per pair (two points each; ``valid`` says which points exist)."""

    keys: np.ndarray
    a: list
    b: list
    a_kind: np.ndarray
    normal: np.ndarray
    point: np.ndarray
    separation: np.ndarray
    ids: np.ndarray
    valid: np.ndarray
    a_index: np.ndarray
    """Position of A in the world's body list, -1 where A is a segment, kinematic body or character."""
    b_index: np.ndarray
    """Position of B in the world's body list."""


class ShapeTable:
    """What the step needs of each body's shape (local cores grouped by vertex count, radii, ids, extents),
    built once and kept by the world while the same bodies keep the same shapes."""

    def __init__(self, bodies: list[RigidBody]) -> None:
        self.bodies = list(bodies)
        self.shapes = [b.shape for b in bodies]
        self.ids = np.array([b.id for b in bodies], dtype=np.int64)
        self.count = np.array([sh.count for sh in self.shapes], dtype=np.int64)
        self.radius = np.array([sh.radius for sh in self.shapes], dtype=np.float64)
        boxes = [sh.local_aabb for sh in self.shapes]
        self.sleep_extent = np.array([0.5 * max(bx.width, bx.height) for bx in boxes])
        """Pixels: how far a body's farthest corner is, roughly (spin times this is a speed)."""
        self.reach = np.array([0.25 * min(bx.width, bx.height) for bx in boxes])
        """Pixels: a body moving farther than this in a step is swept for continuous collision."""
        self.row = np.zeros(len(bodies), dtype=np.int64)
        """Each body's row within its vertex-count group."""
        self.near_box = np.tile([np.inf, np.inf, -np.inf, -np.inf], (len(bodies), 1))
        """(K, 4): the padded box each body's static candidates were looked up for (empty: not yet)."""
        self.near: list[list[int]] = [[] for _ in bodies]
        """Each body's static segments near ``near_box``."""
        self.near_of: Any = None
        """The broad phase those lookups were made in."""
        self.groups: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        """Vertex count -> (member bodies, local core vertices (K, n, 2), local edge normals (K, n, 2))."""
        for count in sorted(set(self.count.tolist())):
            members = np.flatnonzero(self.count == count)
            self.row[members] = np.arange(len(members))
            verts = np.array([self.shapes[k].vertices for k in members.tolist()], dtype=np.float64)
            normals = np.array([self.shapes[k].normals for k in members.tolist()], dtype=np.float64)
            self.groups[count] = (members, verts, normals.reshape(verts.shape) if count > 1 else np.zeros_like(verts))

    def starts(self, bodies: list[RigidBody]) -> bool:
        """``bodies`` begins with this table's bodies, with the same shapes (equal: nothing changed)."""
        return len(bodies) >= len(self.bodies) and all(
            b is was and b.shape is shape for b, was, shape in zip(bodies, self.bodies, self.shapes))


def _static_candidates(static: StaticGeometry, table: ShapeTable, awake: list[int], box_array: np.ndarray,
                       pad: float) -> tuple[np.ndarray, np.ndarray]:
    """(body, segment) pairs of static segments near the awake bodies' boxes. Each body's segments are looked
    up for its box padded by ``pad`` px and reused until the body leaves that box: resting and slowly moving
    crates never look again."""
    bp = static.broadphase
    if table.near_of is not bp:
        table.near_box[:] = (np.inf, np.inf, -np.inf, -np.inf)
        table.near_of = bp
    rows = np.asarray(awake, dtype=np.int64)
    box, fat = box_array[rows], table.near_box[rows]
    inside = (fat[:, 0] <= box[:, 0]) & (fat[:, 1] <= box[:, 1]) & (fat[:, 2] >= box[:, 2]) & (fat[:, 3] >= box[:, 3])
    for k in rows[~inside].tolist():
        padded = box_array[k] + (-pad, -pad, pad, pad)
        table.near_box[k] = padded
        table.near[k] = bp.query_list(padded.tolist())
    ks: list[int] = []
    segs: list[int] = []
    near = table.near
    for k in awake:
        found = near[k]
        if found:
            ks.extend([k] * len(found))
            segs.extend(found)
    return np.array(ks, dtype=np.int64), np.array(segs, dtype=np.int64)


def _leans_over_neighbour(static: StaticGeometry, segment: int, a, b, point, normal) -> bool:
    """The seam rule for one one-point contact at a segment end (see the module docstring)."""
    ax, ay = a
    ex, ey = b[0] - ax, b[1] - ay
    t = (point[0] - ax) * ex + (point[1] - ay) * ey
    if 0.0 < t < ex * ex + ey * ey:
        return False
    end = 0 if t <= 0.0 else 1
    return any(normal[0] * ux + normal[1] * uy > 1e-6 for ux, uy in static.joint_directions(segment, end))


def collide_all(scene: RigidScene, bodies: list[RigidBody], table: ShapeTable, polys: dict,
                asleep: np.ndarray) -> _Pairs:
    """Manifolds of the awake bodies (``asleep``: each body's flag) against everything they may touch,
    ``speculative_distance`` early; pairs whose collision filters say no are left out."""
    margin = scene.config.speculative_distance
    pairs = _Pairs()
    awake = np.flatnonzero(~asleep).tolist()
    body_filters = filter_arrays([b.filter for b in bodies])
    static_by_count = _collide_static(scene, bodies, table, polys["box_array"], awake, body_filters, pairs)
    _collide_movers(scene, bodies, polys["box_array"], awake, margin, pairs)
    body_groups = _collide_body_pairs(bodies, table, polys["box_array"], asleep, body_filters, margin, pairs)
    _collide_batches(scene.static, bodies, table, polys, static_by_count, body_groups, margin, pairs)
    return pairs


_NO_ROWS = np.zeros(0, dtype=np.int64)


def _collide_static(scene: RigidScene, bodies: list[RigidBody], table: ShapeTable, box_array: np.ndarray,
                    awake: list[int], body_filters, pairs: _Pairs) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Static segments near each awake body (cached lists), box-tested at once. Circles go through the scalar
    collide here; for the other vertex counts the (body, segment) rows are returned, to ride in the batch of
    that count's body pairs."""
    static, margin = scene.static, scene.config.speculative_distance
    bp = static.broadphase
    ks_all, segs_all = _static_candidates(static, table, awake, box_array, scene.config.candidate_padding)
    sb, bb = bp.aabbs[segs_all], box_array[ks_all]
    touch = (sb[:, 0] <= bb[:, 2]) & (sb[:, 2] >= bb[:, 0]) & (sb[:, 1] <= bb[:, 3]) & (sb[:, 3] >= bb[:, 1])
    static_filters = static.filter_arrays()
    if static_filters is not None or body_filters is not None:
        seg_f = static_filters or filter_columns([DEFAULT_FILTER] * len(static))
        body_f = body_filters or filter_columns([DEFAULT_FILTER] * len(bodies))
        touch &= filters_touch(tuple(x[segs_all] for x in seg_f), tuple(x[ks_all] for x in body_f))  # type: ignore[arg-type]
    ks_all, segs_all = ks_all[touch], segs_all[touch]
    static_by_count: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for count in table.groups:
        of_count = table.count[ks_all] == count
        if not of_count.any():
            continue
        ks, sg = ks_all[of_count], segs_all[of_count]
        if count > 1:
            static_by_count[count] = (ks, sg)
            continue
        for k, s in zip(ks.tolist(), sg.tolist()):
            m = collide(bp.shape(s), _IDENTITY, bodies[k].shape, bodies[k].transform, margin)
            if m is not None and not (len(m.points) == 1 and _leans_over_neighbour(
                    static, s, tuple(bp.a[s]), tuple(bp.b[s]), m.points[0].point, m.normal)):
                pairs.add_manifold(_key(STATIC, s, bodies[k].id), s, bodies[k], STATIC, m, -1, k)
    return static_by_count


def _collide_movers(scene: RigidScene, bodies: list[RigidBody], box_array: np.ndarray, awake: list[int],
                    margin: float, pairs: _Pairs) -> None:
    """Kinematic bodies and characters (few): scalar. They already moved this step; the solver sweeps them
    again, from where they started, at the speed they moved, so crates are carried, not dragged."""
    movers: list[tuple[int, int, Any, Transform]] = [
        (KINEMATIC, i, kin, kin.previous_transform) for i, kin in enumerate(scene.kinematic_bodies)
    ] + [(CHARACTER, i, ch, Transform(ch.previous_position or ch.position)) for i, ch in enumerate(scene.characters)]
    awake_boxes = box_array[awake]
    for kind, i, mover, start in movers:
        mbox = mover.shape.aabb(start)
        near = (awake_boxes[:, 0] <= mbox.max_x) & (awake_boxes[:, 2] >= mbox.min_x) \
            & (awake_boxes[:, 1] <= mbox.max_y) & (awake_boxes[:, 3] >= mbox.min_y)
        for j in np.flatnonzero(near).tolist():
            k = awake[j]
            if not mover.filter.touches(bodies[k].filter):
                continue
            m = collide(mover.shape, start, bodies[k].shape, bodies[k].transform, margin)
            if m is not None:
                pairs.add_manifold(_key(kind, i, bodies[k].id), mover, bodies[k], kind, m, -1, k)


def _collide_body_pairs(bodies: list[RigidBody], table: ShapeTable, box_array: np.ndarray, asleep: np.ndarray,
                        body_filters, margin: float, pairs: _Pairs) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """Body pairs: all box overlaps at once, at least one of the pair awake, A the lower id. Pairs with a circle
    are collided here (scalar); the others are returned per vertex-count pair for the batches."""
    body_groups: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    if len(bodies) < 2:
        return body_groups
    lo, hi = overlapping_pairs(box_array, table.ids)
    keep = ~(asleep[lo] & asleep[hi])
    if body_filters is not None:
        keep &= filters_touch(tuple(x[lo] for x in body_filters), tuple(x[hi] for x in body_filters))  # type: ignore[arg-type]
    lo, hi = lo[keep], hi[keep]
    count_lo, count_hi = table.count[lo], table.count[hi]
    for count_a in table.groups:
        for count_b in table.groups:
            sel = np.flatnonzero((count_lo == count_a) & (count_hi == count_b))
            if not len(sel):
                continue
            la_, hb_ = lo[sel], hi[sel]
            if count_a > 1 and count_b > 1:
                body_groups[(count_a, count_b)] = (la_, hb_)
                continue
            for i, j in zip(la_.tolist(), hb_.tolist()):
                m = collide(bodies[i].shape, bodies[i].transform, bodies[j].shape, bodies[j].transform, margin)
                if m is not None:
                    pairs.add_manifold(_key(DYNAMIC, bodies[i].id, bodies[j].id), bodies[i], bodies[j], DYNAMIC, m, i, j)
    return body_groups


def _collide_batches(static: StaticGeometry, bodies: list[RigidBody], table: ShapeTable, polys: dict,
                     static_by_count: dict, body_groups: dict, margin: float, pairs: _Pairs) -> None:
    """One batch per vertex-count pair; a count's static segments (A, padded to the count) ride with its
    equal-count body pairs, so that a pile costs one batch, not two."""
    bp, ids = static.broadphase, table.ids
    for count_a, count_b in sorted(set(body_groups) | {(n, n) for n in static_by_count}):
        la_, hb_ = body_groups.get((count_a, count_b), (_NO_ROWS, _NO_ROWS))
        ks, sg = static_by_count.get(count_a, (_NO_ROWS, _NO_ROWS)) if count_a == count_b else (_NO_ROWS, _NO_ROWS)
        va, na = polys[count_a]
        vb, nb = polys[count_b]
        seg_verts, seg_normals, seg_fake = padded_segments(bp.a[sg], bp.b[sg], count_a)
        rows_a, rows_b = table.row[la_], np.concatenate([table.row[ks], table.row[hb_]])
        batch = collide_batch(
            np.concatenate([seg_verts, va[rows_a]]), np.concatenate([seg_normals, na[rows_a]]),
            np.concatenate([bp.radius[sg], table.radius[la_]]), vb[rows_b], nb[rows_b],
            np.concatenate([table.radius[ks], table.radius[hb_]]), margin,
            np.concatenate([seg_fake, np.zeros((len(la_), count_a), dtype=bool)]))
        split = len(sg)
        if split:
            on_static = BatchManifolds(*(field[:split] for field in batch))
            # The seam rule, for the few one-point contacts at a segment end.
            single = on_static.valid[:, 0] & ~on_static.valid[:, 1]
            for i in np.flatnonzero(single).tolist():
                s = int(sg[i])
                if static.has_joint(s) and _leans_over_neighbour(
                        static, s, tuple(bp.a[s]), tuple(bp.b[s]), on_static.point[i, 0], on_static.normal[i]):
                    on_static.valid[i, 0] = False
            keys = (np.int64(STATIC) << 58) | (sg << 29) | ids[ks]
            pairs.add_batch(keys, sg.tolist(), pick(bodies, ks), STATIC, on_static, -1, ks)
        if len(la_):
            between = BatchManifolds(*(field[split:] for field in batch))
            keys = (np.int64(DYNAMIC) << 58) | (ids[la_] << 29) | ids[hb_]
            pairs.add_batch(keys, pick(bodies, la_), pick(bodies, hb_), DYNAMIC, between, la_, hb_)


def overlapping_pairs(boxes: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (lo, hi) of overlapping boxes ((K, 4): min_x, min_y, max_x, max_y), ``lo`` the one with the
    lower id, sorted by (lo, hi). Sweep and prune along x: each box is paired with the boxes that start
    within its x extent (sorted by start), then the y extents are tested."""
    order = np.argsort(boxes[:, 0], kind="stable")
    start = boxes[order, 0]
    stop = np.searchsorted(start, boxes[order, 2], side="right")
    first = np.arange(1, len(order) + 1)
    span = np.maximum(stop - first, 0)
    total = int(span.sum())
    i = np.repeat(np.arange(len(order)), span)
    j = i + 1 + (np.arange(total) - np.repeat(np.cumsum(span) - span, span))
    a, b = order[i], order[j]
    meet = (boxes[a, 1] <= boxes[b, 3]) & (boxes[a, 3] >= boxes[b, 1])
    a, b = a[meet], b[meet]
    lower = ids[a] < ids[b]
    lo, hi = np.where(lower, a, b), np.where(lower, b, a)
    sort = np.lexsort((hi, lo))
    return lo[sort], hi[sort]


def world_polys(table: ShapeTable, margin: float, position: np.ndarray, angle: np.ndarray) -> dict:
    """World-frame cores of all bodies per vertex count ((K, n, 2) vertices and normals, rows as in the
    table), and every body's box grown by its radius and ``margin`` as a (K, 4) array."""
    polys: dict = {}
    box_array = np.empty((len(table.bodies), 4))
    for count, (members, verts, normals) in table.groups.items():
        wv, wn = world_polygons(verts, normals, position[members], angle[members])
        if count > 1:
            polys[count] = (wv, wn)
        grow = (table.radius[members] + margin)[:, None]
        low, high = wv[:, 0].copy(), wv[:, 0].copy()
        for i in range(1, count):  # (reductions along a short axis are slow in numpy)
            np.minimum(low, wv[:, i], out=low)
            np.maximum(high, wv[:, i], out=high)
        box_array[members, 0:2] = low - grow
        box_array[members, 2:4] = high + grow
    polys["box_array"] = box_array
    return polys
