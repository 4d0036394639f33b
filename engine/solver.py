"""Rigid-body step: contacts from the kernel's manifolds, solved with Box2D v3's soft step, batched with numpy.

One call of :func:`step_bodies` advances every awake :class:`~engine.bodies.RigidBody` by ``dt``:

1. **Collide.** Awake bodies against static segments (broad phase, cached per body while it stays inside a
   padded box), kinematic bodies and characters (which the solver treats as kinematic: a crate resting on
   the player's head cannot push the player down), and each other (sweep and prune along x). Polygon pairs
   go through :func:`~engine.geometry.batch.collide_batch`, one batch per pair of vertex counts; a count's
   static segments ride, padded, in the batch of its equal-count body pairs. Circles and the few kinematic
   pairs go through the scalar ``collide``. Manifolds are made ``speculative_distance`` early. Points keep
   their accumulated impulses and friction anchors from the last step when their feature ids match (warm
   starting).
2. **Solve** in ``substeps`` substeps, each: integrate velocities (gravity, damping), warm start, solve the
   contacts *softly* (a stiff, heavily damped spring instead of a hard constraint: two-point normals as a
   2x2 block, Coulomb friction held at the contact anchors so stacks do not creep), integrate positions,
   then *relax* (solve again without position correction). Contacts are split into graph colours (no two
   contacts of a colour share a dynamic body; kept from step to step while the same pairs touch), and each
   colour is one vectorised pass (see :class:`_Solver`). Contacts separated at the start of the step and
   not closing within it (a pile's side neighbours) are *light*: their colours solve the normals only.
3. **Restitution**, once after the substeps, for points that approached faster than
   ``restitution_threshold``.
4. **Continuous collision** against static geometry for bodies that moved far this step.
5. **Sleep**: groups of touching bodies that all rested for ``time_to_sleep`` stop being simulated until
   something touches them.

The seam rule: a one-point contact with a segment's rounded end cap, at an end the segment shares with
another segment, whose normal leans over that other segment, belongs to the other segment and is dropped.
Without it a crate sliding over a joint meets the caps there with a tilted speculative normal and trips.

Everything runs in a fixed order, so the same inputs give bit-identical results. At the sizes of a game
level (tens to hundreds of contacts per colour) numpy's cost is per call, not per element, so the code
counts calls: per-step constants are made once, and each colour pass is a few dozen array operations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .bodies import ContactEvent, PhysicsConfig, RigidBody
from .geometry import CastHit, Manifold, Transform, collide
from .geometry.batch import BatchManifolds, collide_batch, padded_segments, world_polygons
from .world_types import WorldError

if TYPE_CHECKING:
    from .world import World

__all__ = ["ContactSet", "step_bodies"]

_IDENTITY = Transform()
_STATIC, _KINEMATIC, _CHARACTER, _DYNAMIC = range(4)
_PAD = 16.0
"""Pixels. A body's static-geometry candidates are looked up for its box grown by this much and reused
until the body leaves that box (resting crates never look again)."""


def _pick(items: list, index: np.ndarray) -> list:
    """``[items[i] for i in index]``, at C speed."""
    if len(index) == 0:
        return []
    if len(index) == 1:
        return [items[int(index[0])]]
    return list(itemgetter(*index.tolist())(items))


def _key(kind: int, a: int, b: int) -> int:
    return (kind << 58) | (a << 29) | b


@dataclass
class ContactSet:
    """The contacts of the last step, kept for warm starting, events and the debug overlay."""

    keys: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    ids: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    valid: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=bool))
    normal: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    point: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    normal_impulse: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    tangent_impulse: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    sliding: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=bool))
    la: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    lb: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    touching: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    a_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Position of A in the world's body list, -1 where A is not a rigid body."""
    b_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Position of B in the world's body list."""
    a: list = field(default_factory=list)
    """Participant A of each contact: a segment index (int), kinematic body, character or rigid body."""
    b: list = field(default_factory=list)
    """Rigid body B of each contact."""
    colouring: Any = None
    """(rows of A, rows of B and light flags in the order the contacts were found, colour order, colour sizes,
    light colours) of the last solve: reused while the same pairs touch the same rows the same way."""

    def __len__(self) -> int:
        return len(self.keys)


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
        self.a.extend(_pick(a_objs, idx))
        self.b.extend(_pick(b_objs, idx))
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

    def stacked(self) -> "_Found":
        if not self.keys:
            return _Found(np.zeros(0, dtype=np.int64), [], [], np.zeros(0, dtype=np.int64), np.zeros((0, 2)),
                          np.zeros((0, 2, 2)), np.zeros((0, 2)), np.zeros((0, 2), dtype=np.int64),
                          np.zeros((0, 2), dtype=bool), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        cat = np.concatenate
        return _Found(cat(self.keys), self.a, self.b, cat(self.a_kind), cat(self.normal), cat(self.point),
                      cat(self.separation), cat(self.ids), cat(self.valid), cat(self.a_index), cat(self.b_index))


class _Found(NamedTuple):
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


# ------------------------------------------------------------------------------------------------ collide
class _ShapeTable:
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


def _shape_table(world: "World") -> _ShapeTable:
    table = world._shape_table
    bodies = world.bodies
    if table is not None and len(table.bodies) == len(bodies) and table.starts(bodies):
        return table
    if table is None or not table.starts(bodies):
        world._contacts = ContactSet()  # bodies removed or reordered: its body indices are stale
    table = world._shape_table = _ShapeTable(bodies)
    return table


def _static_candidates(world: "World", table: _ShapeTable, awake: list[int],
                       box_array: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(body, segment) pairs of static segments near the awake bodies' boxes. Each body's segments are looked
    up for its box padded by ``_PAD`` and reused until the body leaves that box: resting and slowly moving
    crates never look again."""
    bp = world.static
    if table.near_of is not bp:
        table.near_box[:] = (np.inf, np.inf, -np.inf, -np.inf)
        table.near_of = bp
    rows = np.asarray(awake, dtype=np.int64)
    box, fat = box_array[rows], table.near_box[rows]
    inside = (fat[:, 0] <= box[:, 0]) & (fat[:, 1] <= box[:, 1]) & (fat[:, 2] >= box[:, 2]) & (fat[:, 3] >= box[:, 3])
    for k in rows[~inside].tolist():
        padded = box_array[k] + (-_PAD, -_PAD, _PAD, _PAD)
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


def _leans_over_neighbour(world: "World", segment: int, a, b, point, normal) -> bool:
    """The seam rule for one one-point contact at a segment end (see the module docstring)."""
    ax, ay = a
    ex, ey = b[0] - ax, b[1] - ay
    t = (point[0] - ax) * ex + (point[1] - ay) * ey
    if 0.0 < t < ex * ex + ey * ey:
        return False
    end = 0 if t <= 0.0 else 1
    return any(normal[0] * ux + normal[1] * uy > 1e-6 for ux, uy in world.segment_joint_directions(segment, end))


def _collide_all(world: "World", cfg: PhysicsConfig, bodies: list[RigidBody], table: _ShapeTable,
                 polys: dict, asleep: np.ndarray) -> _Pairs:
    margin = cfg.speculative_distance
    pairs = _Pairs()
    bp = world.static
    awake = np.flatnonzero(~asleep).tolist()
    box_array = polys["box_array"]

    # Static segments near each awake body (cached lists), box-tested at once. Circles go through the scalar
    # collide; the others ride in the batch of their vertex count's body pairs (below).
    ks_all, segs_all = _static_candidates(world, table, awake, box_array)
    sb, bb = bp.aabbs[segs_all], box_array[ks_all]
    touch = (sb[:, 0] <= bb[:, 2]) & (sb[:, 2] >= bb[:, 0]) & (sb[:, 1] <= bb[:, 3]) & (sb[:, 3] >= bb[:, 1])
    ks_all, segs_all = ks_all[touch], segs_all[touch]
    static_by_count: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for count in table.groups:
        pick = table.count[ks_all] == count
        if not pick.any():
            continue
        ks, sg = ks_all[pick], segs_all[pick]
        if count > 1:
            static_by_count[count] = (ks, sg)
            continue
        for k, s in zip(ks.tolist(), sg.tolist()):
            m = collide(bp.shape(s), _IDENTITY, bodies[k].shape, bodies[k].transform, margin)
            if m is not None and not (len(m.points) == 1 and _leans_over_neighbour(
                    world, s, tuple(bp.a[s]), tuple(bp.b[s]), m.points[0].point, m.normal)):
                pairs.add_manifold(_key(_STATIC, s, bodies[k].id), s, bodies[k], _STATIC, m, -1, k)

    # Kinematic bodies and characters (few): scalar. They already moved this step; the solver sweeps them
    # again, from where they started, at the speed they moved, so crates are carried, not dragged.
    movers: list[tuple[int, int, Any, Transform]] = [
        (_KINEMATIC, i, kin, kin.previous_transform) for i, kin in enumerate(world.kinematic_bodies)
    ] + [(_CHARACTER, i, ch, Transform(ch.previous_position or ch.position)) for i, ch in enumerate(world.characters)]
    awake_boxes = box_array[awake]
    for kind, i, mover, start in movers:
        mbox = mover.shape.aabb(start)
        near = (awake_boxes[:, 0] <= mbox.max_x) & (awake_boxes[:, 2] >= mbox.min_x) \
            & (awake_boxes[:, 1] <= mbox.max_y) & (awake_boxes[:, 3] >= mbox.min_y)
        for j in np.flatnonzero(near).tolist():
            k = awake[j]
            m = collide(mover.shape, start, bodies[k].shape, bodies[k].transform, margin)
            if m is not None:
                pairs.add_manifold(_key(kind, i, bodies[k].id), mover, bodies[k], kind, m, -1, k)

    # Body pairs: all box overlaps at once; at least one of the pair awake. A is the lower id.
    body_groups: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    ids = table.ids
    if len(bodies) > 1:
        lo, hi = _overlapping_pairs(box_array, ids)
        keep = ~(asleep[lo] & asleep[hi])
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
                        pairs.add_manifold(_key(_DYNAMIC, bodies[i].id, bodies[j].id), bodies[i], bodies[j],
                                           _DYNAMIC, m, i, j)

    # The batches: one per vertex-count pair; a count's static segments (A, padded to the count) ride with its
    # equal-count body pairs, so that a pile costs one batch, not two.
    for count_a, count_b in sorted(set(body_groups) | {(n, n) for n in static_by_count}):
        la_, hb_ = body_groups.get((count_a, count_b), (np.zeros(0, dtype=np.int64),) * 2)
        ks, sg = static_by_count.get(count_a, (np.zeros(0, dtype=np.int64),) * 2) if count_a == count_b \
            else (np.zeros(0, dtype=np.int64),) * 2
        va, na = polys[count_a]
        vb, nb = polys[count_b]
        seg_a, seg_b = bp.a[sg], bp.b[sg]
        if count_a == 2:
            e = seg_b - seg_a
            n0 = np.stack([e[:, 1], -e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
            seg_verts, seg_normals = np.stack([seg_a, seg_b], axis=1), np.stack([n0, -n0], axis=1)
            seg_fake = np.zeros((len(sg), 2), dtype=bool)
        else:
            seg_verts, seg_normals, seg_fake = padded_segments(seg_a, seg_b, count_a)
        rows_a, rows_b = table.row[la_], np.concatenate([table.row[ks], table.row[hb_]])
        batch = collide_batch(
            np.concatenate([seg_verts, va[rows_a]]), np.concatenate([seg_normals, na[rows_a]]),
            np.concatenate([bp.radius[sg], table.radius[la_]]), vb[rows_b], nb[rows_b],
            np.concatenate([table.radius[ks], table.radius[hb_]]), margin,
            np.concatenate([seg_fake, np.zeros((len(la_), count_a), dtype=bool)]))
        split = len(sg)
        if split:
            static = BatchManifolds(*(field[:split] for field in batch))
            # The seam rule, for the few one-point contacts at a segment end.
            single = static.valid[:, 0] & ~static.valid[:, 1]
            for i in np.flatnonzero(single).tolist():
                s = int(sg[i])
                if ((s, 0) in world._joints or (s, 1) in world._joints) and _leans_over_neighbour(
                        world, s, tuple(bp.a[s]), tuple(bp.b[s]), static.point[i, 0], static.normal[i]):
                    static.valid[i, 0] = False
            keys = (np.int64(_STATIC) << 58) | (sg << 29) | ids[ks]
            pairs.add_batch(keys, sg.tolist(), _pick(bodies, ks), _STATIC, static, -1, ks)
        if len(la_):
            between = BatchManifolds(*(field[split:] for field in batch))
            keys = (np.int64(_DYNAMIC) << 58) | (ids[la_] << 29) | ids[hb_]
            pairs.add_batch(keys, _pick(bodies, la_), _pick(bodies, hb_), _DYNAMIC, between, la_, hb_)
    return pairs


def _overlapping_pairs(boxes: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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


def _world_polys(table: _ShapeTable, margin: float, position: np.ndarray, angle: np.ndarray) -> dict:
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


# ------------------------------------------------------------------------------------------------ solve
def _soft(hertz: float, zeta: float, h: float) -> tuple[float, float, float]:
    """(bias rate, mass scale, impulse scale) of a soft constraint (Box2D v3 ``b2MakeSoft``)."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


def _colours(ia: np.ndarray, ib: np.ndarray, dynamic_rows: int,
             light: np.ndarray) -> tuple[list[np.ndarray], list[bool]]:
    """Greedy graph colouring: each contact takes the lowest colour that neither of its dynamic rows has yet
    (fixed rows never conflict; colours are bit masks per row). The other contacts are coloured first; then
    the ``light`` ones, which fill the gaps those colours left (solved there with the full kernel) and open
    light colours (the light kernel) only for the rest. Returns the colours (contact indices) and which of
    them are light."""
    used = [0] * (dynamic_rows + 1)
    fixed = dynamic_rows  # every fixed row shares this slot, cleared after each contact: it never conflicts
    colour = np.empty(len(ia), dtype=np.int64)
    full_colours = 0
    for want in (False, True):
        members = np.flatnonzero(light == want)
        for k, a, b in zip(members.tolist(), np.minimum(ia[members], fixed).tolist(),
                           np.minimum(ib[members], fixed).tolist()):
            taken = used[a] | used[b]
            bit = ~taken & (taken + 1)  # lowest free colour
            used[a] |= bit
            used[b] |= bit
            used[fixed] = 0
            colour[k] = bit.bit_length() - 1
        if not want:
            full_colours = int(colour[members].max()) + 1 if len(members) else 0
    order = np.argsort(colour, kind="stable")
    bounds = np.searchsorted(colour[order], np.arange(colour.max() + 2 if len(colour) else 1))
    colours = [order[bounds[c]:bounds[c + 1]] for c in range(len(bounds) - 1)]
    kept = [c for c in range(len(colours)) if len(colours[c])]
    return [colours[c] for c in kept], [c >= full_colours for c in kept]


class _Solver:
    """The soft-step contact solve in Jacobian form, over contacts sorted by graph colour.

    Body state lives in rows of ``v`` (velocity: px/s, px/s, rad/s) and ``d`` (displacement so far this step:
    px, px, rad): the awake dynamic bodies first, then fixed rows (static geometry, kinematic bodies,
    characters, sleepers) whose inverse mass is zero. A contact acts on the 6-vector of its pair (A's row, then
    B's) through Jacobian rows: the normal at point 0 and 1 (it points from A to B, so a positive relative
    normal velocity separates), the tangent t = (ny, -nx) at point 0 and 1, and for the position terms the
    tangent at the two friction anchors. An invalid point has zero rows: it gets no impulse.

    Separation and anchor drift during the step are linear in the displacements (rotation to first order: the
    error is |r| da^2 / 2, a thousandth of a pixel for a crate turning 0.01 rad in a step, 0.3 px for one
    tumbling at 10 rad/s, none for a rolling circle; the manifold is rebuilt every step). A colour touches
    each dynamic body at most once, so one colour is one vectorised pass; colours follow each other
    (Gauss-Seidel). Light colours (contacts separated and not closing, see
    :func:`step_bodies`) solve the two normals one after the other and no friction: a friction impulse is
    bounded by the normal one, which such a contact only gets if something pushes it shut within the step.

    Per-point arrays are stored point-major, (2, m), so that one point's values over a colour are contiguous:
    at this size numpy's cost is per call, and contiguous operands keep each call cheap.
    """

    def __init__(self, v: np.ndarray, inv_mass: np.ndarray, inv_inertia: np.ndarray, colour_sizes: list[int],
                 colour_kinds: list[bool], c: dict, soft, stiff, anchor, inv_h: float, push_max: float) -> None:
        """``c``: the contacts' arrays, sorted by colour (``colour_sizes`` contacts in each; ``colour_kinds``
        says which colours are light: normals only)."""
        self.v = v
        self.d = np.zeros_like(v)
        self.inv_h, self.push_max = inv_h, push_max
        ia, ib = c["ia"], c["ib"]
        count = len(ia)
        self.pair_rows = np.stack([ia, ib], axis=1).ravel()
        nx, ny = c["nx"], c["ny"]
        nx2, ny2 = nx[:, None], ny[:, None]
        missing = ~c["valid"].T  # (2, m)
        rax, ray, rbx, rby = c["rax"], c["ray"], c["rbx"], c["rby"]
        # Lever arms (2, m): the angular parts of the rows, normal n and tangent t = (ny, -nx), for A (sign
        # included: A's rows are the negated ones) and B; an invalid point's are zero.
        arm_an = np.where(missing, 0.0, (ray * nx2 - rax * ny2).T)
        arm_bn = np.where(missing, 0.0, (rbx * ny2 - rby * nx2).T)
        arm_at = np.where(missing, 0.0, (ray * ny2 + rax * nx2).T)
        arm_bt = np.where(missing, 0.0, (-rbx * nx2 - rby * ny2).T)
        arm_qa = np.where(missing, 0.0, (c["qay"] * ny2 + c["qax"] * nx2).T)
        arm_qb = np.where(missing, 0.0, (-c["qbx"] * nx2 - c["qby"] * ny2).T)
        present = ~missing
        lin_n = np.where(present, 1.0, 0.0)

        def rows(ux: np.ndarray, uy: np.ndarray, arm_a: np.ndarray, arm_b: np.ndarray) -> np.ndarray:
            """(2, m, 6) Jacobian rows along (ux, uy) ((m,) each) at the two points, with their lever arms."""
            j = np.empty((2, count, 6))
            j[..., 0], j[..., 1] = -ux * lin_n, -uy * lin_n
            j[..., 2] = arm_a
            j[..., 3], j[..., 4] = ux * lin_n, uy * lin_n
            j[..., 5] = arm_b
            return j

        normal = rows(nx, ny, arm_an, arm_bn)
        jv = np.concatenate([normal, rows(ny, -nx, arm_at, arm_bt)])
        """(4, m, 6): velocity Jacobian rows normal 0, normal 1, tangent 0, tangent 1."""
        self.jp = np.concatenate([normal, rows(ny, -nx, arm_qa, arm_qb)])
        """(4, m, 6): position Jacobian rows normal 0, normal 1, anchor tangent 0, anchor tangent 1."""
        minv = np.stack([inv_mass[ia], inv_mass[ia], inv_inertia[ia], inv_mass[ib], inv_mass[ib], inv_inertia[ib]],
                        axis=1)
        w = minv * jv
        """(4, m, 6): the pair's velocity change per unit impulse along each row."""
        # Effective inverse masses J M^-1 J^T and their couplings, from the rows' structure: every row's
        # linear part is a unit vector (the normal or the tangent, which are perpendicular), so two rows meet
        # in the sum of inverse masses (or not at all) plus the rotational terms.
        both = inv_mass[ia] + inv_mass[ib]
        ia_i, ib_i = inv_inertia[ia], inv_inertia[ib]

        def coupling(a1, b1, a2, b2, linear):
            return linear + ia_i * a1 * a2 + ib_i * b1 * b2

        kn = coupling(arm_an, arm_bn, arm_an, arm_bn, both)
        kt = coupling(arm_at, arm_bt, arm_at, arm_bt, both)
        self.nmass = np.where(present & (kn > 0), 1.0 / np.where(kn > 0, kn, 1.0), 0.0)
        self.tmass = np.where(present & (kt > 0), 1.0 / np.where(kt > 0, kt, 1.0), 0.0)
        k11, k22 = kn[0], kn[1]
        self.k12 = coupling(arm_an[0], arm_bn[0], arm_an[1], arm_bn[1], both)
        cross = coupling(arm_at[:, None], arm_bt[:, None], arm_an[None], arm_bn[None], 0.0)
        """(2, 2, m): tangent velocity at point i per unit normal impulse at point j."""
        k_t1t0 = coupling(arm_at[1], arm_bt[1], arm_at[0], arm_bt[0], both)
        det = k11 * k22 - self.k12 * self.k12
        self.block = c["valid"][:, 0] & c["valid"][:, 1] & (k11 * k11 < 1000.0 * det)
        """Two-point contacts well enough conditioned to solve their normals as one 2x2 block."""
        self.inv_det = np.where(self.block, 1.0 / np.where(self.block, det, 1.0), 0.0)
        self.k_swapped = np.stack([k22, k11])
        self.hard_diag, self.hard_off = -self.inv_det * self.k_swapped, self.inv_det * self.k12
        self.rate = np.where(c["stiff"], stiff[0], soft[0])
        self.mscale = np.where(c["stiff"], stiff[1], soft[1])
        self.iscale = np.where(c["stiff"], stiff[2], soft[2])
        self.anchor_rate, anchor_mscale, self.anchor_iscale = anchor
        # The block and point-by-point constants of soft (touching) and hard (speculative) points.
        soft_a = -self.mscale * self.inv_det
        self.soft_diag, self.soft_off = soft_a * self.k_swapped, -soft_a * self.k12
        self.soft_gain, self.soft_keep = self.nmass * self.mscale, 1.0 - self.iscale
        self.anchor_gain = self.tmass * anchor_mscale
        self.restitution_coefficient = c["restitution"]
        self.sep0 = c["sep"].T
        self.drift0 = (c["gap"][:, None] + (c["qbx"] - c["qax"]) * ny2 - (c["qby"] - c["qay"]) * nx2).T
        self.nimp, self.timp = c["nimp"].T.copy(), c["timp"].T.copy()
        self.friction = c["friction"]
        self.bounces = bool((c["restitution"] > 0).any())
        self.max_normal = np.zeros((2, count))
        self.lam = np.empty((4, count))
        self.relative = np.einsum("imj,mj->im", jv[:2], self._pair_state(self.v))
        """(2, m): normal approach speeds before the step, for restitution."""
        # Per colour, the step's constants as contiguous arrays: contacts, flat index of the pair's six state
        # values, Jacobian, impulse-to-velocity, tangent velocity per normal impulse, friction, couplings.
        index = self.state_index = (3 * self.pair_rows[:, None] + np.arange(3)).reshape(-1, 6)
        """(m, 6): where each contact's pair (A's vx, vy, w, then B's) sits in the flat state."""
        self.colours = []
        start = 0
        for size, light in zip(colour_sizes, colour_kinds):
            s = slice(start, start + size)
            start += size
            used = slice(0, 2) if light else slice(0, 4)  # (the light kernel needs the normal rows only)
            self.colours.append((s, index[s], np.ascontiguousarray(jv[used, s]),
                                 np.ascontiguousarray(w[used, s]), self.k12[s], np.ascontiguousarray(cross[:, 0, s]),
                                 np.ascontiguousarray(cross[:, 1, s]), c["friction"][s], k_t1t0[s], light))
        self.w = w

    def _pair_state(self, state: np.ndarray) -> np.ndarray:
        """(m, 6): each contact's A row then B row of ``state`` ((rows, 3))."""
        return state.take(self.pair_rows, axis=0).reshape(-1, 6)

    def warm_start(self) -> None:
        """Apply last step's accumulated impulses (summed per body: a body is in many contacts)."""
        self.lam[:2], self.lam[2:] = self.nimp, self.timp
        dv = np.einsum("imj,im->mj", self.w, self.lam)
        flat = self.v.reshape(-1)
        flat += np.bincount(self.state_index.ravel(), dv.ravel(), len(flat))

    def solve(self, use_bias: bool) -> None:
        """One pass over all colours. ``use_bias``: soft position correction and friction anchors (the solve);
        without it, only speculative contacts keep their bias (the relax)."""
        d_pairs = self._pair_state(self.d)
        acc, tacc = self.nimp, self.timp
        if use_bias:
            p = np.einsum("imj,mj->im", self.jp, d_pairs)
            sep = self.sep0 + p[:2]
            spec = sep > 0.0  # speculative points: hard (they only stop an approach), the rest soft
            bias = np.where(spec, sep * self.inv_h, np.maximum(self.rate * sep, -self.push_max))
            hard0 = spec[0]
            same = self.block & (hard0 == spec[1])
            tbias = np.minimum(np.maximum(self.anchor_rate * (self.drift0 + p[2:]), -self.push_max), self.push_max)
            tgain = self.anchor_gain
            tbase = (1.0 - self.anchor_iscale) * tacc - tgain * tbias
            # Constant over the pass (a contact's impulses change only when its own colour is solved), with the
            # bias folded in (vn = relative normal velocity):
            # block: impulse = -mscale K^-1 (vn + bias) - iscale acc = diag * vn + off * swapped(vn) + block_base;
            # one point at a time: new acc = max(point_base - gain * vn, 0), impulse = new acc - acc;
            # friction: new = tbase - tgain * vt, clamped to the friction cone.
            diag = np.where(hard0, self.hard_diag, self.soft_diag)
            off = np.where(hard0, self.hard_off, self.soft_off)
            block_base = diag * bias + off * bias[::-1] - np.where(hard0, 0.0, self.iscale) * acc
            gain = np.where(spec, self.nmass, self.soft_gain)
            point_base = np.where(spec, 1.0, self.soft_keep) * acc - gain * bias
        else:  # the relax: hard contacts (mscale 1, iscale 0), bias only where speculative
            sep = self.sep0 + np.einsum("imj,mj->im", self.jp[:2], d_pairs)
            bias = np.where(sep > 0.0, sep * self.inv_h, 0.0)
            same, diag, off, gain = self.block, self.hard_diag, self.hard_off, self.nmass
            block_base = diag * bias + off * bias[::-1]
            point_base = acc - gain * bias
            tgain, tbase = self.tmass, tacc.copy()
        floor = -acc
        track = use_bias and self.bounces
        flat, lam, chosen = self.v.reshape(-1), self.lam, np.empty_like(acc)
        einsum, maximum, minimum, subtract = np.einsum, np.maximum, np.minimum, np.subtract  # (hot loop)

        def one_at_a_time(s: slice, vn: np.ndarray, k12: np.ndarray, out: np.ndarray) -> None:
            """The two normal impulses, point 0 then point 1 (which sees point 0's), into ``out`` (2, m)."""
            subtract(maximum(point_base[0, s] - gain[0, s] * vn[0], 0.0), acc[0, s], out=out[0])
            subtract(maximum(point_base[1, s] - gain[1, s] * (vn[1] + k12 * out[0]), 0.0), acc[1, s], out=out[1])

        for s, index, jv, w, k12, cross0, cross1, mu, k_t1t0, light in self.colours:
            rel = einsum("imj,mj->im", jv, flat.take(index))
            vn = rel[:2]
            ls = lam[:, s]  # this colour's impulses: normal 0, normal 1, tangent 0, tangent 1
            if light:  # separated contacts: the normals only
                one_at_a_time(s, vn, k12, ls)
                acc[:, s] += ls[:2]
                if track:
                    maximum(self.max_normal[:, s], ls[:2], out=self.max_normal[:, s])
                flat[index] += einsum("imj,im->mj", w, ls[:2])
                continue
            d = diag[:, s] * vn + off[s] * vn[::-1] + block_base[:, s]
            use_block = same[s] & (d >= floor[:, s]).all(axis=0)
            if use_block.all():
                ls[:2] = d
            else:
                one_at_a_time(s, vn, k12, chosen[:, s])
                np.copyto(ls[:2], np.where(use_block, d, chosen[:, s]))
            d = ls[:2]
            acc[:, s] += d
            if track:
                maximum(self.max_normal[:, s], d, out=self.max_normal[:, s])
            # Friction at each point after the normals, held at the anchors while static (the solve).
            vt = rel[2:] + cross0 * d[0] + cross1 * d[1]
            limit = mu * acc[:, s]
            t = tacc[:, s]
            before = t.copy()
            minimum(maximum(tbase[0, s] - tgain[0, s] * vt[0], -limit[0]), limit[0], out=t[0])
            subtract(t[0], before[0], out=ls[2])
            minimum(maximum(tbase[1, s] - tgain[1, s] * (vt[1] + k_t1t0 * ls[2]), -limit[1]), limit[1], out=t[1])
            subtract(t[1], before[1], out=ls[3])
            flat[index] += einsum("imj,im->mj", w, ls)

    def sliding(self) -> np.ndarray:
        """(2, m): points whose friction ended the step at the cone's edge (their anchors are let go)."""
        return np.abs(self.timp) >= self.friction * self.nimp * (1.0 - 1e-9)

    def restitution(self, threshold: float) -> None:
        """Once after the substeps: points that approached faster than ``threshold`` (px/s) bounce back at
        their restitution times the approach speed."""
        e_coef = self.restitution_coefficient
        if not self.bounces:
            return
        fast = (self.relative < -threshold) & (self.max_normal > 0) & (e_coef > 0)
        flat = self.v.reshape(-1)
        for s, index, jv, w, k12, *_ in self.colours:
            if not fast[:, s].any():
                continue
            vn = np.einsum("imj,mj->im", jv[:2], flat.take(index))
            acc, target = self.nimp[:, s], e_coef[s] * self.relative[:, s]
            new0 = np.maximum(acc[0] - self.nmass[0, s] * (vn[0] + target[0]), 0.0)
            imp0 = np.where(fast[0, s], new0 - acc[0], 0.0)
            new1 = np.maximum(acc[1] - self.nmass[1, s] * (vn[1] + k12 * imp0 + target[1]), 0.0)
            imp1 = np.where(fast[1, s], new1 - acc[1], 0.0)
            acc[0] += imp0
            acc[1] += imp1
            flat[index] += np.einsum("imj,im->mj", w[:2], np.stack([imp0, imp1]))


# ------------------------------------------------------------------------------------------------ step
def step_bodies(world: "World", dt: float) -> list[ContactEvent]:
    """Advance the world's rigid bodies by ``dt`` seconds; returns the contact begin/end events."""
    cfg = world.physics
    bodies = world.bodies
    if not bodies:
        if len(world._contacts) or world._touching:
            world._contacts = ContactSet()
            world._touching = {}
        return []
    movers = [k.aabb() for k in world.kinematic_bodies if k.velocity != (0.0, 0.0) or k.angular_velocity != 0.0]
    movers += [ch.shape.aabb(ch.transform) for ch in world.characters if ch.velocity != (0.0, 0.0)]
    if not movers and all(b.sleeping for b in bodies):
        # Everything rests and nothing moves that could wake it: only a sleeper that game code moved needs
        # looking at (its placement checked; it did not move in this step).
        by_hand = [b for b in bodies if b._previous[0] is not b.position or b._previous[1] is not b.angle]
        if by_hand:
            _placements(by_hand)
            for b in by_hand:
                b._previous = (b.position, b.angle)
        return []
    position, angle = _placements(bodies)
    for b in bodies:
        b._previous = (b.position, b.angle)  # (for a sleeper the same, unless game code moved it)
    table = _shape_table(world)
    polys = _wake_touched_sleepers(world, table, position, angle, movers)
    asleep = np.array([b.sleeping for b in bodies])
    if asleep.all():
        return []  # everything rests: contacts and touching pairs stand as they were, nothing to report
    if polys is None:
        polys = _world_polys(table, cfg.speculative_distance, position, angle)
    found = _collide_all(world, cfg, bodies, table, polys, asleep).stacked()
    old: ContactSet = world._contacts

    # Sleeping bodies are not re-collided: nothing near them moved, so their contacts stand as they were.
    carried = np.flatnonzero(asleep[old.b_index] & ~((old.a_index >= 0) & ~asleep[old.a_index]))

    # An awake body touching a sleeping one wakes it (its neighbours follow next step).
    nearest = np.where(found.valid, found.separation, np.inf)
    touching_now = np.minimum(nearest[:, 0], nearest[:, 1]) < cfg.linear_slop
    mixed = (found.a_kind == _DYNAMIC) & (asleep[found.a_index] != asleep[found.b_index])
    for i in np.flatnonzero(touching_now & mixed).tolist():
        found.a[i].wake()
        found.b[i].wake()
        asleep[found.a_index[i]] = asleep[found.b_index[i]] = False
    awake = np.flatnonzero(~asleep)
    new, moved, motion = _solve_step(world, cfg, dt, bodies, old, found, touching_now, position, angle, awake, table)
    if len(carried):
        for name in ("keys", "ids", "valid", "normal", "point", "normal_impulse", "tangent_impulse", "sliding",
                     "la", "lb", "touching", "a_index", "b_index"):
            setattr(new, name, np.concatenate([getattr(new, name), getattr(old, name)[carried]]))
        new.a = new.a + _pick(old.a, carried)
        new.b = new.b + _pick(old.b, carried)
    world._contacts = new
    if cfg.continuous:
        _continuous(world, bodies, moved, table, awake)
    _sleep(world, found, touching_now, dt, table, awake, motion)
    return _events(world, old, new)


def _placements(bodies: list[RigidBody]) -> tuple[np.ndarray, np.ndarray]:
    """Every body's position (K, 2) and angle (K,), checked finite at once (a body placed at NaN by game code
    would otherwise poison every body it touches)."""
    try:
        position = np.array([b.position for b in bodies], dtype=np.float64).reshape(-1, 2)
        angle = np.array([b.angle for b in bodies], dtype=np.float64)
        bad = ~(np.isfinite(position[:, 0]) & np.isfinite(position[:, 1]) & np.isfinite(angle))
    except (TypeError, ValueError):  # not pairs of numbers: find the body
        bad = np.array([not (_finite_pair(b.position) and _finite_numbers(b.angle)) for b in bodies])
    if bad.any():
        b = bodies[int(np.flatnonzero(bad)[0])]
        raise WorldError(f"rigid body {b.name or b.id!r} has a bad placement (not a finite x, y and angle): "
                         f"position {b.position!r}, angle {b.angle!r}")
    for b, xy in zip(bodies, position.tolist()):
        b.position = (xy[0], xy[1])  # plain floats from here on (game code may have set ints or numpy scalars)
    return position, angle


def _finite_numbers(*values: Any) -> bool:
    try:
        return all(math.isfinite(float(v)) for v in values)
    except (TypeError, ValueError):
        return False


def _motion(bodies: list[RigidBody]) -> np.ndarray:
    """(K, 8): every body's velocity x, y, angular velocity, inverse mass and inertia, friction, restitution
    and gravity scale, read each step (game code may change them), checked finite at once."""
    fields = ("velocity", "angular_velocity", "inv_mass", "inv_inertia", "friction", "restitution", "gravity_scale")
    try:
        props = np.fromiter(chain.from_iterable(
            (b.velocity[0], b.velocity[1], b.angular_velocity, b.inv_mass, b.inv_inertia, b.friction, b.restitution,
             b.gravity_scale) for b in bodies), dtype=np.float64, count=8 * len(bodies)).reshape(-1, 8)
        if np.isfinite(props).all():
            return props
    except (TypeError, ValueError, IndexError):
        pass
    for b in bodies:  # find the body and the field to name
        for name in fields:
            value = getattr(b, name)
            if not (_finite_pair(value) if name == "velocity" else _finite_numbers(value)):
                raise WorldError(f"rigid body {b.name or b.id!r} has a bad {name}: {value!r}")
    raise AssertionError("a non-finite motion value that no field holds")


def _finite_pair(value: Any) -> bool:
    try:
        return len(value) == 2 and _finite_numbers(*value)
    except TypeError:
        return False


def _solve_step(world, cfg, dt, bodies, old: ContactSet, found: _Found, touching: np.ndarray, position: np.ndarray,
                angle: np.ndarray, awake_rows: np.ndarray, table: _ShapeTable) -> tuple[ContactSet, np.ndarray,
                                                                                        np.ndarray]:
    """Solve this step's contacts and move the awake bodies (``awake_rows``). Returns the contact set, how far
    each awake body moved ((n, 2) px) and its velocity at the end ((n, 3): px/s, px/s, rad/s)."""
    keys, valid, normal, point, ids = found.keys, found.valid, found.normal, found.point, found.ids
    awake_index = awake_rows
    awake = _pick(bodies, awake_index)
    dyn = len(awake)
    row_of_body = np.full(len(bodies), -1, dtype=np.int64)
    row_of_body[awake_index] = np.arange(dyn)
    props = _motion(bodies)
    fixed: dict[object, int] = {}
    fixed_state: list[tuple[float, float, float]] = []
    fixed_centers: list = []
    fixed_angles: list[float] = []

    def fixed_row(key, vel, ang_vel, center, turned) -> int:
        row = fixed.get(key)
        if row is None:
            row = fixed[key] = dyn + len(fixed_state)
            fixed_state.append((vel[0], vel[1], ang_vel))
            fixed_centers.append(center)
            fixed_angles.append(turned)
        return row

    # Rows of each contact's participants: awake bodies and static geometry at once, the few others one by one.
    a_kind = found.a_kind
    dynamic = a_kind == _DYNAMIC
    a_body = np.where(dynamic, found.a_index, 0)
    ib = row_of_body[found.b_index]
    ia = np.where(dynamic, row_of_body[a_body], -1)
    body_friction, body_restitution = props[:, 5], props[:, 6]
    fa = np.where(dynamic, body_friction[a_body], world.static_friction)
    ea = np.where(dynamic, body_restitution[a_body], 0.0)
    static = a_kind == _STATIC
    if static.any():
        ia[static] = fixed_row("static", (0.0, 0.0), 0.0, (0.0, 0.0), 0.0)
    for k in np.flatnonzero((ia < 0) | (ib < 0)).tolist():
        a, b = found.a[k], found.b[k]
        if ib[k] < 0:  # a sleeping body an awake one only nears: it holds still this step
            ib[k] = fixed_row(("s", b.id), b.velocity, b.angular_velocity, b.position, b.angle)
        if ia[k] >= 0:
            continue
        if a_kind[k] == _KINEMATIC:
            ia[k] = fixed_row(("k", id(a)), a.velocity, a.angular_velocity, a.previous_transform.position,
                              a.previous_transform.angle)
        elif a_kind[k] == _CHARACTER:
            start = a.previous_position or a.position
            moved = ((a.position[0] - start[0]) / dt, (a.position[1] - start[1]) / dt)
            ia[k] = fixed_row(("c", id(a)), moved, 0.0, start, 0.0)
            fa[k] = a.config.friction
        else:
            ia[k] = fixed_row(("s", a.id), a.velocity, a.angular_velocity, a.position, a.angle)
    friction = np.sqrt(fa * body_friction[found.b_index])
    restitution = np.maximum(ea, body_restitution[found.b_index])

    fixed_rows = len(fixed_state)
    v = np.concatenate([props[awake_index, :3], np.array(fixed_state, dtype=np.float64).reshape(-1, 3)])
    inv_m = np.concatenate([props[awake_index, 3], np.zeros(fixed_rows)])
    inv_i = np.concatenate([props[awake_index, 4], np.zeros(fixed_rows)])

    # Light contacts get the light kernel (normals only, no friction): separated by more than the slop at the
    # start of the step and not closing that gap within it, even turning and falling. They are speculative
    # contacts that will only stop an approach, such as a pile's side neighbours, and a friction impulse is
    # bounded by the normal one, which stays zero. Bodies that do close in (a crate landing, a stack
    # settling) get friction from the step they touch.
    nearest = np.where(valid, found.separation, np.inf)
    gap = np.minimum(nearest[:, 0], nearest[:, 1]) - cfg.linear_slop
    reach = np.concatenate([table.sleep_extent[awake_index], np.zeros(fixed_rows)])
    closing = (v[ia, 0] - v[ib, 0]) * normal[:, 0] + (v[ia, 1] - v[ib, 1]) * normal[:, 1] \
        + np.abs(v[ia, 2]) * reach[ia] + np.abs(v[ib, 2]) * reach[ib] \
        + np.abs(world.gravity[0] * normal[:, 0] + world.gravity[1] * normal[:, 1]) * dt
    light = (gap > 0.0) & (closing * dt < gap) & ((a_kind == _DYNAMIC) | (a_kind == _STATIC))

    # Graph colours (kept while the same pairs touch the same rows), and every contact array in colour order.
    colouring = old.colouring
    if colouring is None or not (np.array_equal(colouring[0], ia) and np.array_equal(colouring[1], ib)
                                 and np.array_equal(colouring[2], light)):
        colours, kinds = _colours(ia, ib, dyn, light)
        by_colour = np.concatenate(colours) if colours else np.zeros(0, dtype=np.int64)
        colouring = (ia, ib, light, by_colour, [len(c) for c in colours], kinds)
    by_colour, colour_sizes, colour_kinds = colouring[3], colouring[4], colouring[5]
    light = light[by_colour]
    keys, valid, normal, point, ids = keys[by_colour], valid[by_colour], normal[by_colour], point[by_colour], \
        ids[by_colour]
    ia, ib, friction, restitution = ia[by_colour], ib[by_colour], friction[by_colour], restitution[by_colour]
    a_kind, separation, touching = a_kind[by_colour], found.separation[by_colour], touching[by_colour]
    start_position, start_angle = position[awake_index], angle[awake_index]
    center = np.concatenate([start_position, np.array(fixed_centers, dtype=np.float64).reshape(-1, 2)])
    angle = np.concatenate([start_angle, np.array(fixed_angles, dtype=np.float64)])
    count = len(keys)

    # Warm starting: the same pair and the same feature id carry their impulses and friction anchors (a point
    # may have moved to the other slot).
    nimp = np.zeros((count, 2))
    timp = np.zeros((count, 2))
    la = np.zeros((count, 2, 2))
    lb = np.zeros((count, 2, 2))
    keep = np.zeros((count, 2), dtype=bool)
    if len(old):
        if len(old) == count and np.array_equal(old.keys, keys):
            src, match = np.arange(count), np.ones(count, dtype=bool)  # the same pairs in the same order
        else:
            order = np.argsort(old.keys, kind="stable")
            pos = np.minimum(np.searchsorted(old.keys[order], keys), len(order) - 1)
            match = old.keys[order][pos] == keys
            src = order[pos]
        old_valid, old_ids = old.valid[src], old.ids[src]
        candidate = match[:, None] & valid
        direct = candidate & old_valid & (old_ids == ids)
        crossed = candidate & old_valid[:, ::-1] & (old_ids[:, ::-1] == ids) & ~direct
        if crossed.any():
            carried, row, slot = direct | crossed, src[:, None], np.where(crossed, (1, 0), (0, 1))
            old_n, old_t, old_s = old.normal_impulse[row, slot], old.tangent_impulse[row, slot], old.sliding[row, slot]
            old_la, old_lb = old.la[row, slot], old.lb[row, slot]
        else:  # every point kept its slot (the usual case)
            carried = direct
            old_n, old_t, old_s = old.normal_impulse[src], old.tangent_impulse[src], old.sliding[src]
            old_la, old_lb = old.la[src], old.lb[src]
        nimp = np.where(carried, old_n, 0.0)
        timp = np.where(carried & ~light[:, None], old_t, 0.0)  # (light contacts solve no friction)
        keep = carried & ~old_s
        la = np.where(keep[..., None], old_la, 0.0)
        lb = np.where(keep[..., None], old_lb, 0.0)
    # New anchors where none carried over: the contact point in each body's frame at step start.
    fresh_row, fresh_slot = np.divmod(np.flatnonzero(~keep.ravel()), 2)
    if len(fresh_row):
        p = point[fresh_row, fresh_slot]
        for anchors, rows in ((la, ia[fresh_row]), (lb, ib[fresh_row])):
            c, s_ = np.cos(angle[rows]), np.sin(angle[rows])
            rx, ry = p[:, 0] - center[rows, 0], p[:, 1] - center[rows, 1]
            anchors[fresh_row, fresh_slot] = np.stack([c * rx + s_ * ry, c * ry - s_ * rx], axis=1)
    ca_, sa_ = np.cos(angle[ia]), np.sin(angle[ia])
    cb_, sb_ = np.cos(angle[ib]), np.sin(angle[ib])
    # Anchor offsets from the centres at step start, in world orientation.
    data = {
        "ia": ia, "ib": ib, "nx": normal[:, 0], "ny": normal[:, 1], "friction": friction,
        "restitution": restitution, "stiff": a_kind != _DYNAMIC, "valid": valid,
        "rax": point[..., 0] - center[ia, 0][:, None], "ray": point[..., 1] - center[ia, 1][:, None],
        "rbx": point[..., 0] - center[ib, 0][:, None], "rby": point[..., 1] - center[ib, 1][:, None],
        "qax": ca_[:, None] * la[..., 0] - sa_[:, None] * la[..., 1],
        "qay": sa_[:, None] * la[..., 0] + ca_[:, None] * la[..., 1],
        "qbx": cb_[:, None] * lb[..., 0] - sb_[:, None] * lb[..., 1],
        "qby": sb_[:, None] * lb[..., 0] + cb_[:, None] * lb[..., 1],
        "sep": np.where(valid, separation, 0.0),
        "gap": (center[ib, 0] - center[ia, 0]) * normal[:, 1] - (center[ib, 1] - center[ia, 1]) * normal[:, 0],
        "nimp": nimp, "timp": timp,
    }

    h = dt / cfg.substeps
    hertz = min(cfg.contact_hertz, 0.25 / h)
    solver = _Solver(v, inv_m, inv_i, colour_sizes, colour_kinds, data, _soft(hertz, cfg.contact_damping_ratio, h),
                     _soft(2.0 * hertz, cfg.contact_damping_ratio, h),
                     _soft(min(cfg.friction_anchor_hertz, hertz), cfg.contact_damping_ratio, h),
                     1.0 / h, cfg.contact_push_max_velocity)
    gravity = np.array(world.gravity) * props[awake_index, 7][:, None]
    lin = 1.0 / (1.0 + h * cfg.linear_damping)
    ang_d = 1.0 / (1.0 + h * cfg.angular_damping)
    moving = v[:dyn]
    gravity_step = h * gravity
    for _ in range(cfg.substeps):
        moving[:, :2] += gravity_step
        if lin != 1.0:
            moving[:, :2] *= lin
        if ang_d != 1.0:
            moving[:, 2] *= ang_d
        if np.abs(moving[:, :2]).max(initial=0.0) > 0.7 * cfg.max_linear_speed:  # (a cheap test first)
            speed = np.hypot(moving[:, 0], moving[:, 1])
            over = speed > cfg.max_linear_speed
            moving[:, :2] *= np.where(over, cfg.max_linear_speed / np.where(over, speed, 1.0), 1.0)[:, None]
        if count:
            solver.warm_start()
            solver.solve(True)
        solver.d += h * v
        if count:
            solver.solve(False)
    if count:
        solver.restitution(cfg.restitution_threshold)
    end_position = (start_position + solver.d[:dyn, :2]).tolist()
    end_angle = (start_angle + solver.d[:dyn, 2]).tolist()
    for b, (x, y), turned, (vx, vy, w) in zip(awake, end_position, end_angle, moving.tolist()):
        b.position = (x, y)
        b.angle = turned
        b.velocity = (vx, vy)
        b.angular_velocity = w

    contacts = ContactSet(
        keys=keys, ids=ids, valid=valid, normal=normal, point=point,
        normal_impulse=solver.nimp.T.copy(), tangent_impulse=solver.timp.T.copy(), sliding=solver.sliding().T.copy(),
        la=la, lb=lb, touching=touching, a_index=found.a_index[by_colour], b_index=found.b_index[by_colour],
        a=_pick(found.a, by_colour), b=_pick(found.b, by_colour),
        colouring=colouring,
    )
    return contacts, solver.d[:dyn, :2], moving


def _wake_touched_sleepers(world: "World", table: _ShapeTable, position: np.ndarray, angle: np.ndarray,
                           movers: list) -> dict | None:
    """Moving kinematic bodies and characters (``movers``: their boxes) wake the sleeping bodies they touch.
    Returns this step's :func:`_world_polys` when it had to make them (only when something moves and
    something sleeps)."""
    asleep = np.array([b.sleeping for b in world.bodies])
    if not movers or not asleep.any():
        return None
    polys = _world_polys(table, world.physics.speculative_distance, position, angle)
    boxes = polys["box_array"]
    touched = np.zeros(len(boxes), dtype=bool)
    for m in movers:
        touched |= (boxes[:, 0] <= m.max_x) & (boxes[:, 2] >= m.min_x) & (boxes[:, 1] <= m.max_y) \
            & (boxes[:, 3] >= m.min_y)
    for k in np.flatnonzero(touched & asleep).tolist():
        world.bodies[k].wake()
    return polys


def _continuous(world: "World", bodies: list[RigidBody], moved: np.ndarray, table: _ShapeTable,
                awake_rows: np.ndarray) -> None:
    """Fast bodies are swept against static geometry from where they were to where the solver put them
    (``moved``: (n, 2) px for the awake rows), and stopped at the first touch: nothing passes through a thin
    platform in one step."""
    bp = world.static
    awake = awake_rows.tolist()
    for i in np.flatnonzero(np.hypot(moved[:, 0], moved[:, 1]) >= table.reach[awake_rows]).tolist():
        b = bodies[awake[i]]
        origin = b.previous_transform.position
        dx, dy = moved[i].tolist()
        found = bp.shape_cast(b.shape, Transform(origin, b.angle), (dx, dy))
        hit = found.hit if found is not None else None
        if not isinstance(hit, CastHit) or hit.started_inside or hit.fraction >= 1.0:
            continue
        length = math.hypot(dx, dy)
        if (hit.normal[0] * dx + hit.normal[1] * dy) > -0.2 * length:
            continue  # a glancing touch (sliding along the floor over a joint) is the solver's business
        f = hit.fraction
        back = min(f, world.physics.linear_slop / length)  # stop just short of the surface
        b.position = (origin[0] + dx * (f - back), origin[1] + dy * (f - back))


def _sleep(world: "World", found: _Found, touching: np.ndarray, dt: float, table: _ShapeTable,
           awake_rows: np.ndarray, motion: np.ndarray) -> None:
    """Count how long each awake body has rested (``motion``: their velocities, (n, 3)); groups of touching
    bodies that all rested ``time_to_sleep`` fall asleep together. Touching a moving kinematic body or a
    character keeps a body awake."""
    cfg = world.physics
    if not cfg.enable_sleep:
        return
    bodies = world.bodies
    awake = awake_rows.tolist()
    if not awake:
        return
    spin = np.abs(motion[:, 2]) * table.sleep_extent[awake_rows]
    resting = (np.hypot(motion[:, 0], motion[:, 1]) <= cfg.sleep_linear_velocity) & (spin <= cfg.sleep_linear_velocity)
    rested = np.where(resting, np.array([bodies[k].sleep_time for k in awake]) + dt, 0.0)
    if not (rested >= cfg.time_to_sleep).any():
        for k, t in zip(awake, rested.tolist()):
            bodies[k].sleep_time = t
        return  # nobody has rested long enough: no group can sleep yet
    row = np.full(len(bodies), -1, dtype=np.int64)
    row[awake] = np.arange(len(awake))
    pushers = touching & ((found.a_kind == _KINEMATIC) | (found.a_kind == _CHARACTER))
    for i in np.flatnonzero(pushers).tolist():
        if _moving(found.a[i]) and row[found.b_index[i]] >= 0:
            rested[row[found.b_index[i]]] = 0.0
    for k, t in zip(awake, rested.tolist()):
        bodies[k].sleep_time = t
    pairs = touching & (found.a_kind == _DYNAMIC)
    ea, eb = row[found.a_index[pairs]], row[found.b_index[pairs]]
    both = (ea >= 0) & (eb >= 0)
    group = _components(len(awake), ea[both], eb[both])
    least = np.full(len(awake), np.inf)
    np.minimum.at(least, group, rested)
    for i in np.flatnonzero(least[group] >= cfg.time_to_sleep).tolist():
        b = bodies[awake[i]]
        b.sleeping = True
        b.velocity = (0.0, 0.0)
        b.angular_velocity = 0.0


def _components(count: int, ea: np.ndarray, eb: np.ndarray) -> np.ndarray:
    """Connected components of ``count`` nodes joined by edges ``ea``-``eb``: each node's label is the
    smallest node of its component (hooking plus pointer jumping, a few array passes per round)."""
    label = np.arange(count)
    while True:
        la, lb = label[ea], label[eb]
        differ = la != lb
        if not differ.any():
            return label
        np.minimum.at(label, np.maximum(la, lb)[differ], np.minimum(la, lb)[differ])
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped


def _moving(participant: Any) -> bool:
    velocity = getattr(participant, "velocity", (0.0, 0.0))
    return velocity != (0.0, 0.0) or getattr(participant, "angular_velocity", 0.0) != 0.0


def _events(world: "World", old: ContactSet, contacts: ContactSet) -> list[ContactEvent]:
    """Begin / end events from the change in touching pairs since the last step."""
    now_keys = contacts.keys[contacts.touching]
    if len(now_keys) == len(world._touching) and np.array_equal(np.sort(now_keys), np.sort(old.keys[old.touching])):
        return []  # the same pairs touch as last step (the common case in a resting pile)
    events: list[ContactEvent] = []
    now = {int(contacts.keys[i]): i for i in np.flatnonzero(contacts.touching).tolist()}
    before = world._touching
    for key, i in now.items():
        if key not in before:
            events.append(ContactEvent("begin", contacts.a[i], contacts.b[i], tuple(contacts.normal[i].tolist())))
    for key, (a, b) in before.items():
        if key not in now:
            events.append(ContactEvent("end", a, b, (0.0, 0.0)))
    world._touching = {key: (contacts.a[i], contacts.b[i]) for key, i in now.items()}
    return events
