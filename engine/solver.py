"""Rigid-body step: contacts from the kernel's manifolds, solved with Box2D v3's soft step, batched with numpy.

One call of :func:`step_bodies` advances every awake :class:`~engine.bodies.RigidBody` by ``dt``:

1. **Collide.** Awake bodies against static segments (broad phase, cached per body while it stays inside a
   padded box), kinematic bodies and characters (which the solver treats as kinematic: a crate resting on
   the player's head cannot push the player down), and each other (box overlap over all pairs at once).
   Polygon pairs go through :func:`~engine.geometry.batch.collide_batch` in groups of equal vertex counts;
   circles and the few kinematic pairs through the scalar ``collide``. Manifolds are made
   ``speculative_distance`` early. Points keep their accumulated impulses and friction anchors from the last
   step when their feature ids match (warm starting).
2. **Solve** in ``substeps`` substeps, each: integrate velocities (gravity, damping), warm start, solve the
   contacts *softly* (a stiff, heavily damped spring instead of a hard constraint: two-point normals as a
   2x2 block, Coulomb friction held at the contact anchors so stacks do not creep), integrate positions,
   then *relax* (solve again without position correction). Contacts are split into graph colours (no two
   contacts of a colour share a dynamic body), and each colour is one vectorised pass.
3. **Restitution**, once after the substeps, for points that approached faster than
   ``restitution_threshold``.
4. **Continuous collision** against static geometry for bodies that moved far this step.
5. **Sleep**: groups of touching bodies that all rested for ``time_to_sleep`` stop being simulated until
   something touches them.

The seam rule: a one-point contact with a segment's rounded end cap, at an end the segment shares with
another segment, whose normal leans over that other segment, belongs to the other segment and is dropped.
Without it a crate sliding over a joint meets the caps there with a tilted speculative normal and trips.

Everything runs in a fixed order, so the same inputs give bit-identical results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .bodies import ContactEvent, PhysicsConfig, RigidBody
from .geometry import AABB, CastHit, Manifold, Transform, collide
from .geometry.batch import collide_batch, world_polygons

if TYPE_CHECKING:
    from .world import World

__all__ = ["ContactSet", "step_bodies"]

_IDENTITY = Transform()
_STATIC, _KINEMATIC, _CHARACTER, _DYNAMIC = range(4)
_PAD = 16.0
"""Pixels. A body's static-geometry candidates are looked up for its box grown by this much and reused
until the body leaves that box (resting crates never look again)."""


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
    a: list = field(default_factory=list)
    """Participant A of each contact: a segment index (int), kinematic body, character or rigid body."""
    b: list = field(default_factory=list)
    """Rigid body B of each contact."""

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
        keep = m.valid.any(axis=1)
        if not keep.any():
            return
        idx = np.flatnonzero(keep)
        self.keys.append(keys[idx])
        self.a.extend(a_objs[i] for i in idx.tolist())
        self.b.extend(b_objs[i] for i in idx.tolist())
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
def _static_candidates(world: "World", body: RigidBody, box: AABB) -> list[int]:
    cached = body._static_cache
    if cached is not None and cached[0].min_x <= box.min_x and cached[0].min_y <= box.min_y \
            and cached[0].max_x >= box.max_x and cached[0].max_y >= box.max_y and cached[2] is world._broadphase:
        return cached[1]
    fat = box.grown(_PAD)
    found = world.static.query_list(fat)
    body._static_cache = (fat, found, world._broadphase)
    return found


def _leans_over_neighbour(world: "World", segment: int, a, b, point, normal) -> bool:
    """The seam rule for one one-point contact at a segment end (see the module docstring)."""
    ax, ay = a
    ex, ey = b[0] - ax, b[1] - ay
    t = (point[0] - ax) * ex + (point[1] - ay) * ey
    if 0.0 < t < ex * ex + ey * ey:
        return False
    end = 0 if t <= 0.0 else 1
    return any(normal[0] * ux + normal[1] * uy > 1e-6 for ux, uy in world.segment_joint_directions(segment, end))


def _collide_all(world: "World", cfg: PhysicsConfig, bodies: list[RigidBody], polys: dict) -> _Pairs:
    margin = cfg.speculative_distance
    pairs = _Pairs()
    bp = world.static
    awake = [k for k, b in enumerate(bodies) if not b.sleeping]
    boxes = polys["boxes"]

    # Static segments, batched per body vertex count.
    by_count: dict[int, tuple[list[int], list[int]]] = {}
    for k in awake:
        for seg in _static_candidates(world, bodies[k], boxes[k]):
            sx0, sy0, sx1, sy1 = bp._aabb_rows[seg]
            bx = boxes[k]
            if sx0 <= bx.max_x and sx1 >= bx.min_x and sy0 <= bx.max_y and sy1 >= bx.min_y:
                group = by_count.setdefault(bodies[k].shape.count, ([], []))
                group[0].append(k)
                group[1].append(seg)
    for count, (ks, segs) in by_count.items():
        if count == 1:
            for k, s in zip(ks, segs):
                m = collide(bp.shape(s), _IDENTITY, bodies[k].shape, bodies[k].transform, margin)
                if m is not None and not (len(m.points) == 1 and _leans_over_neighbour(
                        world, s, tuple(bp.a[s]), tuple(bp.b[s]), m.points[0].point, m.normal)):
                    pairs.add_manifold(_key(_STATIC, s, bodies[k].id), s, bodies[k], _STATIC, m, -1, k)
            continue
        sg = np.asarray(segs)
        seg_verts = np.stack([bp.a[sg], bp.b[sg]], axis=1)
        e = bp.b[sg] - bp.a[sg]
        length = np.hypot(e[:, 0], e[:, 1])
        n0 = np.stack([e[:, 1], -e[:, 0]], axis=1) / length[:, None]
        seg_normals = np.stack([n0, -n0], axis=1)
        verts, normals = polys[count]
        rows = np.asarray([polys["row"][k] for k in ks])
        batch = collide_batch(seg_verts, seg_normals, bp.radius[sg], verts[rows], normals[rows],
                          np.asarray([bodies[k].shape.radius for k in ks]), margin)
        # The seam rule, for the few one-point contacts at a segment end.
        single = batch.valid[:, 0] & ~batch.valid[:, 1]
        for i in np.flatnonzero(single).tolist():
            s = segs[i]
            if (s, 0) in world._joints or (s, 1) in world._joints:
                if _leans_over_neighbour(world, s, tuple(bp.a[s]), tuple(bp.b[s]), batch.point[i, 0], batch.normal[i]):
                    batch.valid[i, 0] = False
        body_ids = np.asarray([bodies[k].id for k in ks], dtype=np.int64)
        keys = (np.int64(_STATIC) << 58) | (sg.astype(np.int64) << 29) | body_ids
        pairs.add_batch(keys, segs, [bodies[k] for k in ks], _STATIC, batch, -1, ks)

    # Kinematic bodies and characters (few): scalar. They already moved this step; the solver sweeps them
    # again, from where they started, at the speed they moved, so crates are carried, not dragged.
    movers: list[tuple[int, int, Any, Transform]] = [
        (_KINEMATIC, i, kin, kin.previous_transform) for i, kin in enumerate(world.kinematic_bodies)
    ] + [(_CHARACTER, i, ch, Transform(ch.previous_position or ch.position)) for i, ch in enumerate(world.characters)]
    for kind, i, mover, start in movers:
        mbox = mover.shape.aabb(start)
        for k in awake:
            if mbox.overlaps(boxes[k]):
                m = collide(mover.shape, start, bodies[k].shape, bodies[k].transform, margin)
                if m is not None:
                    pairs.add_manifold(_key(kind, i, bodies[k].id), mover, bodies[k], kind, m, -1, k)

    # Body pairs: all box overlaps at once; at least one of the pair awake. A is the lower id.
    if len(bodies) > 1:
        bb = polys["box_array"]
        asleep = np.array([b.sleeping for b in bodies])
        ids = np.array([b.id for b in bodies])
        over = (bb[:, None, 0] <= bb[None, :, 2]) & (bb[:, None, 2] >= bb[None, :, 0]) \
            & (bb[:, None, 1] <= bb[None, :, 3]) & (bb[:, None, 3] >= bb[None, :, 1])
        over &= ids[:, None] < ids[None, :]
        over &= ~(asleep[:, None] & asleep[None, :])
        lo, hi = np.nonzero(over)
        for count_a in {b.shape.count for b in bodies}:
            for count_b in {b.shape.count for b in bodies}:
                sel = np.flatnonzero((np.array([bodies[i].shape.count for i in lo.tolist()]) == count_a)
                                     & (np.array([bodies[i].shape.count for i in hi.tolist()]) == count_b)) \
                    if len(lo) else np.zeros(0, dtype=np.int64)
                if not len(sel):
                    continue
                la_, hb_ = lo[sel], hi[sel]
                if count_a == 1 or count_b == 1:
                    for i, j in zip(la_.tolist(), hb_.tolist()):
                        m = collide(bodies[i].shape, bodies[i].transform, bodies[j].shape, bodies[j].transform, margin)
                        if m is not None:
                            pairs.add_manifold(_key(_DYNAMIC, bodies[i].id, bodies[j].id), bodies[i], bodies[j],
                                               _DYNAMIC, m, i, j)
                    continue
                va, na = polys[count_a]
                vb, nb = polys[count_b]
                ra = np.array([polys["row"][i] for i in la_.tolist()])
                rb = np.array([polys["row"][j] for j in hb_.tolist()])
                batch = collide_batch(va[ra], na[ra], polys["radius"][la_], vb[rb], nb[rb], polys["radius"][hb_],
                                      margin)
                keys = (np.int64(_DYNAMIC) << 58) | (ids[la_].astype(np.int64) << 29) | ids[hb_].astype(np.int64)
                pairs.add_batch(keys, [bodies[i] for i in la_.tolist()], [bodies[j] for j in hb_.tolist()],
                                _DYNAMIC, batch, la_, hb_)
    return pairs


def _world_polys(bodies: list[RigidBody], margin: float) -> dict:
    """World-frame cores of all bodies, grouped by vertex count, each body's row in its group, and every
    body's box grown by ``margin`` (as AABBs and as one (K, 4) array)."""
    radius = np.array([b.shape.radius for b in bodies])
    polys: dict = {"row": {}, "radius": radius}
    box_array = np.empty((len(bodies), 4))
    groups: dict[int, list[int]] = {}
    for k, b in enumerate(bodies):
        groups.setdefault(b.shape.count, []).append(k)
    for count, members in groups.items():
        for row, k in enumerate(members):
            polys["row"][k] = row
        verts = np.array([bodies[k].shape.vertices for k in members], dtype=np.float64)
        normals = np.array([bodies[k].shape.normals for k in members], dtype=np.float64).reshape(len(members), -1, 2)
        pos = np.array([bodies[k].position for k in members], dtype=np.float64)
        ang = np.array([bodies[k].angle for k in members], dtype=np.float64)
        wv, wn = world_polygons(verts, normals if count > 1 else np.zeros_like(verts), pos, ang)
        if count > 1:
            polys[count] = (wv, wn)
        grow = (radius[members] + margin)[:, None]
        box_array[members, 0:2] = wv.min(axis=1) - grow
        box_array[members, 2:4] = wv.max(axis=1) + grow
    polys["box_array"] = box_array
    polys["boxes"] = [AABB(*row) for row in box_array.tolist()]
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


def _colours(ia: np.ndarray, ib: np.ndarray, dynamic_rows: int) -> list[np.ndarray]:
    """Greedy graph colouring: no dynamic row twice in a colour (fixed rows never conflict)."""
    colours: list[list[int]] = []
    used: list[set[int]] = []
    for k, (a, b) in enumerate(zip(ia.tolist(), ib.tolist())):
        for c, members in enumerate(used):
            if (a >= dynamic_rows or a not in members) and b not in members:
                colours[c].append(k)
                if a < dynamic_rows:
                    members.add(a)
                members.add(b)
                break
        else:
            colours.append([k])
            used.append({b} | ({a} if a < dynamic_rows else set()))
    return [np.asarray(c, dtype=np.int64) for c in colours]


class _Solver:
    """The soft-step contact solve in Jacobian form, over contacts sorted by graph colour.

    Body state lives in rows of ``v`` (velocity: px/s, px/s, rad/s) and ``d`` (displacement so far this step:
    px, px, rad): the awake dynamic bodies first, then fixed rows (static geometry, kinematic bodies,
    characters, sleepers) whose inverse mass is zero. A contact acts on the 6-vector of its pair (A's row, then
    B's) through Jacobian rows: the normal at point 0 and 1 (it points from A to B, so a positive relative
    normal velocity separates), the tangent t = (ny, -nx) at point 0 and 1, and for the position terms the
    tangent at the two friction anchors. An invalid point has zero rows: it gets no impulse.

    Separation and anchor drift during the step are linear in the displacements (rotation to first order: the
    error is |r| da^2 / 2, a thousandth of a pixel for a crate turning 0.01 rad in a step, and the manifold is
    rebuilt every step). A colour touches each dynamic body at most once, so one colour is one vectorised
    pass; colours follow each other (Gauss-Seidel).
    """

    def __init__(self, v: np.ndarray, inv_mass: np.ndarray, inv_inertia: np.ndarray, dynamic_rows: int,
                 contacts: dict, soft, stiff, anchor, inv_h: float, push_max: float) -> None:
        self.v = v
        self.d = np.zeros_like(v)
        self.inv_h, self.push_max = inv_h, push_max
        colours = _colours(contacts["ia"], contacts["ib"], dynamic_rows)
        self.order = np.concatenate(colours) if colours else np.zeros(0, dtype=np.int64)
        c = {name: value[self.order] for name, value in contacts.items()}
        self.slices: list[tuple[slice, slice]] = []
        start = 0
        for colour in colours:  # (contacts, their rows in pair_rows)
            self.slices.append((slice(start, start + len(colour)), slice(2 * start, 2 * (start + len(colour)))))
            start += len(colour)
        ia, ib = c["ia"], c["ib"]
        self.pair_rows = np.stack([ia, ib], axis=1).ravel()
        nx, ny = c["nx"][:, None], c["ny"][:, None]
        present = np.where(c["valid"], 1.0, 0.0)

        def rows(ax, ay, bx, by, ux, uy) -> np.ndarray:
            """(m, 2, 6) Jacobian rows along (ux, uy) at two points with offsets a from A's centre, b from B's."""
            j = np.empty((len(ia), 2, 6))
            j[..., 0], j[..., 1] = -ux * present, -uy * present
            j[..., 2] = -(ax * uy - ay * ux) * present
            j[..., 3], j[..., 4] = ux * present, uy * present
            j[..., 5] = (bx * uy - by * ux) * present
            return j

        normal = rows(c["rax"], c["ray"], c["rbx"], c["rby"], nx, ny)
        self.jv = np.concatenate([normal, rows(c["rax"], c["ray"], c["rbx"], c["rby"], ny, -nx)], axis=1)
        self.jp = np.concatenate([normal, rows(c["qax"], c["qay"], c["qbx"], c["qby"], ny, -nx)], axis=1)
        minv = np.stack([inv_mass[ia], inv_mass[ia], inv_inertia[ia], inv_mass[ib], inv_mass[ib], inv_inertia[ib]],
                        axis=1)
        self.w = minv[:, :, None] * self.jv.transpose(0, 2, 1)
        """(m, 6, 4): the pair's velocity change per unit impulse along each row."""
        k = np.einsum("mij,mjk->mik", self.jv, self.w)
        """(m, 4, 4): the rows' effective inverse mass, with their couplings."""
        kn, kt = k[:, [0, 1], [0, 1]], k[:, [2, 3], [2, 3]]
        self.nmass = np.where(kn > 0, 1.0 / np.where(kn > 0, kn, 1.0), 0.0)
        self.tmass = np.where(kt > 0, 1.0 / np.where(kt > 0, kt, 1.0), 0.0)
        self.k11, self.k22, self.k12 = k[:, 0, 0], k[:, 1, 1], k[:, 0, 1]
        det = self.k11 * self.k22 - self.k12 * self.k12
        self.block = c["valid"][:, 0] & c["valid"][:, 1] & (self.k11 * self.k11 < 1000.0 * det)
        """Two-point contacts well enough conditioned to solve their normals as one 2x2 block."""
        self.inv_det = np.where(self.block, 1.0 / np.where(self.block, det, 1.0), 0.0)
        self.tangent_from_normal = k[:, 2:, :2].copy()
        """(m, 2, 2): tangent velocity change per unit normal impulse."""
        self.k_t1t0 = k[:, 3, 2].copy()
        self.rate = np.where(c["stiff"], stiff[0], soft[0])
        self.mscale = np.where(c["stiff"], stiff[1], soft[1])
        self.iscale = np.where(c["stiff"], stiff[2], soft[2])
        self.anchor_rate, self.anchor_mscale, self.anchor_iscale = anchor
        self.friction = c["friction"]
        self.restitution_coefficient = c["restitution"]
        self.sep0 = c["sep"]
        tx, ty = ny, -nx
        self.drift0 = c["gap"][:, None] + (c["qbx"] - c["qax"]) * tx + (c["qby"] - c["qay"]) * ty
        self.nimp, self.timp = c["nimp"], c["timp"]
        self.sliding = np.zeros_like(c["valid"])
        self.max_normal = np.zeros_like(self.nimp)
        self.lam = np.empty((len(ia), 4))
        self.relative = np.einsum("mij,mj->mi", self.jv[:, :2], self._pair_state(self.v))
        """Normal approach speeds before the step, for restitution."""

    def _pair_state(self, state: np.ndarray, rows: slice = slice(None)) -> np.ndarray:
        return state.take(self.pair_rows[rows], axis=0).reshape(-1, 6)

    def warm_start(self) -> None:
        """Apply last step's accumulated impulses (summed per body: a body is in many contacts)."""
        self.lam[:, :2], self.lam[:, 2:] = self.nimp, self.timp
        dv = np.einsum("mij,mj->mi", self.w, self.lam).reshape(-1, 3)
        rows = len(self.v)
        for axis in range(3):
            self.v[:, axis] += np.bincount(self.pair_rows, dv[:, axis], rows)

    def solve(self, use_bias: bool) -> None:
        """One pass over all colours. ``use_bias``: soft position correction and friction anchors (the solve);
        without it, only speculative contacts keep their bias (the relax)."""
        p = np.einsum("mij,mj->mi", self.jp, self._pair_state(self.d))
        sep = self.sep0 + p[:, :2]
        spec = sep > 0.0
        if use_bias:
            bias = np.where(spec, sep * self.inv_h, np.maximum(self.rate[:, None] * sep, -self.push_max))
            mscale = np.where(spec, 1.0, self.mscale[:, None])
            iscale = np.where(spec, 0.0, self.iscale[:, None])
            same = self.block & (mscale[:, 0] == mscale[:, 1])
            tbias = np.clip(self.anchor_rate * (self.drift0 + p[:, 2:]), -self.push_max, self.push_max)
            tkeep, tgain = 1.0 - self.anchor_iscale, self.tmass * self.anchor_mscale
        else:
            bias = np.where(spec, sep * self.inv_h, 0.0)
            mscale, iscale, same = np.ones_like(sep), np.zeros_like(sep), self.block
            tbias, tkeep, tgain = np.zeros_like(sep), 1.0, self.tmass
        # Block solve of the two normals: impulse = -mscale K^-1 (vn + bias) - iscale acc.
        a = -mscale[:, 0] * self.inv_det
        b00, b01, b11 = a * self.k22, -a * self.k12, a * self.k11
        gain = self.nmass * mscale  # one point at a time: impulse = -gain (vn + bias) - iscale acc
        keep = 1.0 - iscale
        v, lam = self.v, self.lam
        for s, s2 in self.slices:
            rows = self.pair_rows[s2]
            rel = np.einsum("mij,mj->mi", self.jv[s], v.take(rows, axis=0).reshape(-1, 6))
            e0, e1 = rel[:, 0] + bias[s, 0], rel[:, 1] + bias[s, 1]
            acc0, acc1 = self.nimp[s, 0], self.nimp[s, 1]
            i0 = iscale[s, 0]
            d0 = b00[s] * e0 + b01[s] * e1 - i0 * acc0
            d1 = b01[s] * e0 + b11[s] * e1 - i0 * acc1
            use_block = same[s] & (acc0 + d0 >= 0.0) & (acc1 + d1 >= 0.0)
            if not use_block.all():
                q0 = np.maximum(keep[s, 0] * acc0 - gain[s, 0] * e0, 0.0) - acc0
                q1 = np.maximum(keep[s, 1] * acc1 - gain[s, 1] * (e1 + self.k12[s] * q0), 0.0) - acc1
                d0, d1 = np.where(use_block, d0, q0), np.where(use_block, d1, q1)
            acc0 += d0
            acc1 += d1
            if use_bias:
                mx = self.max_normal[s]
                np.maximum(mx[:, 0], d0, out=mx[:, 0])
                np.maximum(mx[:, 1], d1, out=mx[:, 1])
            # Friction at each point after the normals, held at the anchors while static (the solve).
            cross = self.tangent_from_normal[s]
            vt0 = rel[:, 2] + cross[:, 0, 0] * d0 + cross[:, 0, 1] * d1
            vt1 = rel[:, 3] + cross[:, 1, 0] * d0 + cross[:, 1, 1] * d1
            mu = self.friction[s]
            t0, t1 = self.timp[s, 0], self.timp[s, 1]
            new0 = tkeep * t0 - tgain[s, 0] * (vt0 + tbias[s, 0])
            limit0 = mu * acc0
            c0 = np.minimum(np.maximum(new0, -limit0), limit0)
            f0 = c0 - t0
            new1 = tkeep * t1 - tgain[s, 1] * (vt1 + self.k_t1t0[s] * f0 + tbias[s, 1])
            limit1 = mu * acc1
            c1 = np.minimum(np.maximum(new1, -limit1), limit1)
            f1 = c1 - t1
            if use_bias:
                self.sliding[s, 0] = c0 != new0
                self.sliding[s, 1] = c1 != new1
            t0[...] = c0
            t1[...] = c1
            ls = lam[s]
            ls[:, 0], ls[:, 1], ls[:, 2], ls[:, 3] = d0, d1, f0, f1
            v[rows] += np.einsum("mij,mj->mi", self.w[s], ls).reshape(-1, 3)

    def restitution(self, threshold: float) -> None:
        """Once after the substeps: points that approached faster than ``threshold`` (px/s) bounce back at
        their restitution times the approach speed."""
        e_coef = self.restitution_coefficient
        if not (e_coef > 0).any():
            return
        fast = (self.relative < -threshold) & (self.max_normal > 0) & (e_coef[:, None] > 0)
        for s, s2 in self.slices:
            if not fast[s].any():
                continue
            rows = self.pair_rows[s2]
            vn = np.einsum("mij,mj->mi", self.jv[s, :2], self.v.take(rows, axis=0).reshape(-1, 6))
            acc, target = self.nimp[s], e_coef[s][:, None] * self.relative[s]
            new0 = np.maximum(acc[:, 0] - self.nmass[s, 0] * (vn[:, 0] + target[:, 0]), 0.0)
            imp0 = np.where(fast[s, 0], new0 - acc[:, 0], 0.0)
            new1 = np.maximum(acc[:, 1] - self.nmass[s, 1] * (vn[:, 1] + self.k12[s] * imp0 + target[:, 1]), 0.0)
            imp1 = np.where(fast[s, 1], new1 - acc[:, 1], 0.0)
            acc[:, 0] += imp0
            acc[:, 1] += imp1
            impulse = np.stack([imp0, imp1], axis=1)
            self.v[rows] += np.einsum("mij,mj->mi", self.w[s, :, :2], impulse).reshape(-1, 3)


# ------------------------------------------------------------------------------------------------ step
def step_bodies(world: "World", dt: float) -> list[ContactEvent]:
    """Advance the world's rigid bodies by ``dt`` seconds; returns the contact begin/end events."""
    cfg = world.physics
    bodies = world.bodies
    for b in bodies:
        if not b.sleeping:
            b.previous_transform = b.transform
        elif b.previous_transform.position != b.position or b.previous_transform.angle != b.angle:
            b.previous_transform = b.transform  # moved by hand while asleep
    if not bodies:
        if len(world._contacts) or world._touching:
            world._contacts = ContactSet()
            world._touching = {}
        return []
    _wake_touched_sleepers(world)
    if all(b.sleeping for b in bodies):
        return []  # everything rests: contacts and touching pairs stand as they were, nothing to report
    polys = _world_polys(bodies, cfg.speculative_distance)
    found = _collide_all(world, cfg, bodies, polys).stacked()
    old: ContactSet = world._contacts

    # Sleeping bodies are not re-collided: nothing near them moved, so their contacts stand as they were.
    carried = [i for i in range(len(old)) if old.b[i].sleeping and not (
        isinstance(old.a[i], RigidBody) and not old.a[i].sleeping)]

    # An awake body touching a sleeping one wakes it (its neighbours follow next step).
    touching_now = np.where(found.valid, found.separation, np.inf).min(axis=1, initial=np.inf) < cfg.linear_slop
    for i in np.flatnonzero(touching_now & (found.a_kind == _DYNAMIC)).tolist():
        a, b = found.a[i], found.b[i]
        if a.sleeping != b.sleeping:
            a.wake()
            b.wake()
    new = _solve_step(world, cfg, dt, bodies, old, found)
    if carried:
        for name in ("keys", "ids", "valid", "normal", "point", "normal_impulse", "tangent_impulse", "sliding",
                     "la", "lb", "touching"):
            setattr(new, name, np.concatenate([getattr(new, name), getattr(old, name)[carried]]))
        new.a = list(new.a) + [old.a[i] for i in carried]
        new.b = list(new.b) + [old.b[i] for i in carried]
    world._contacts = new
    if cfg.continuous:
        _continuous(world, [b for b in bodies if not b.sleeping])
    _sleep(world, new, dt)
    return _events(world, new)


def _solve_step(world, cfg, dt, bodies, old: ContactSet, found: _Found) -> ContactSet:
    keys, valid, normal, point, ids = found.keys, found.valid, found.normal, found.point, found.ids
    awake_index = [k for k, b in enumerate(bodies) if not b.sleeping]
    awake = [bodies[k] for k in awake_index]
    dyn = len(awake)
    row_of_body = np.full(len(bodies), -1, dtype=np.int64)
    row_of_body[awake_index] = np.arange(dyn)
    state = [(b.velocity[0], b.velocity[1], b.angular_velocity) for b in awake]
    inv_m = [b.inv_mass for b in awake]
    inv_i = [b.inv_inertia for b in awake]
    centers = [b.position for b in awake]
    angles = [b.angle for b in awake]
    fixed: dict[object, int] = {}

    def fixed_row(key, vel, ang_vel, center, angle) -> int:
        row = fixed.get(key)
        if row is None:
            row = fixed[key] = len(state)
            state.append((vel[0], vel[1], ang_vel))
            inv_m.append(0.0)
            inv_i.append(0.0)
            centers.append(center)
            angles.append(angle)
        return row

    # Rows of each contact's participants: awake bodies and static geometry at once, the few others one by one.
    a_kind = found.a_kind
    dynamic = a_kind == _DYNAMIC
    a_body = np.where(dynamic, found.a_index, 0)
    ib = row_of_body[found.b_index]
    ia = np.where(dynamic, row_of_body[a_body], -1)
    body_friction = np.array([b.friction for b in bodies])
    body_restitution = np.array([b.restitution for b in bodies])
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
    v = np.array(state, dtype=np.float64).reshape(-1, 3)
    inv_m_a, inv_i_a = np.array(inv_m), np.array(inv_i)
    center = np.array(centers, dtype=np.float64).reshape(-1, 2)
    angle = np.array(angles, dtype=np.float64)
    count = len(keys)

    # Warm starting: the same pair and the same feature id carry their impulses and friction anchors.
    nimp = np.zeros((count, 2))
    timp = np.zeros((count, 2))
    la = np.zeros((count, 2, 2))
    lb = np.zeros((count, 2, 2))
    have_anchor = np.zeros((count, 2), dtype=bool)
    if len(old):
        order = np.argsort(old.keys, kind="stable")
        pos = np.searchsorted(old.keys[order], keys)
        pos = np.minimum(pos, len(order) - 1)
        match = old.keys[order][pos] == keys
        src = order[pos]
        for j in (0, 1):
            for jo in (0, 1):
                same = match & valid[:, j] & old.valid[src, jo] & (old.ids[src, jo] == ids[:, j])
                nimp[same, j] = old.normal_impulse[src[same], jo]
                timp[same, j] = old.tangent_impulse[src[same], jo]
                keep = same & ~old.sliding[src, jo]
                la[keep, j] = old.la[src[keep], jo]
                lb[keep, j] = old.lb[src[keep], jo]
                have_anchor[keep, j] = True
    # New anchors where none carried over: the contact point in each body's frame at step start.
    ca_, sa_ = np.cos(angle[ia]), np.sin(angle[ia])
    cb_, sb_ = np.cos(angle[ib]), np.sin(angle[ib])
    for j in (0, 1):
        fresh = ~have_anchor[:, j]
        rx = point[:, j, 0] - center[ia, 0]
        ry = point[:, j, 1] - center[ia, 1]
        la[fresh, j, 0] = (ca_ * rx + sa_ * ry)[fresh]
        la[fresh, j, 1] = (-sa_ * rx + ca_ * ry)[fresh]
        rx = point[:, j, 0] - center[ib, 0]
        ry = point[:, j, 1] - center[ib, 1]
        lb[fresh, j, 0] = (cb_ * rx + sb_ * ry)[fresh]
        lb[fresh, j, 1] = (-sb_ * rx + cb_ * ry)[fresh]
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
        "sep": np.where(valid, found.separation, 0.0),
        "gap": (center[ib, 0] - center[ia, 0]) * normal[:, 1] - (center[ib, 1] - center[ia, 1]) * normal[:, 0],
        "nimp": nimp, "timp": timp,
    }

    h = dt / cfg.substeps
    hertz = min(cfg.contact_hertz, 0.25 / h)
    solver = _Solver(v, inv_m_a, inv_i_a, dyn, data, _soft(hertz, cfg.contact_damping_ratio, h),
                     _soft(2.0 * hertz, cfg.contact_damping_ratio, h),
                     _soft(min(cfg.friction_anchor_hertz, hertz), cfg.contact_damping_ratio, h),
                     1.0 / h, cfg.contact_push_max_velocity)
    gravity = np.array(world.gravity) * np.array([b.gravity_scale for b in awake])[:, None]
    lin = 1.0 / (1.0 + h * cfg.linear_damping)
    ang_d = 1.0 / (1.0 + h * cfg.angular_damping)
    moving = v[:dyn]
    for _ in range(cfg.substeps):
        moving[:, :2] = (moving[:, :2] + h * gravity) * lin
        moving[:, 2] *= ang_d
        speed = np.hypot(moving[:, 0], moving[:, 1])
        over = speed > cfg.max_linear_speed
        if over.any():
            moving[:, :2] *= np.where(over, cfg.max_linear_speed / np.where(over, speed, 1.0), 1.0)[:, None]
        if count:
            solver.warm_start()
            solver.solve(True)
        solver.d += h * v
        if count:
            solver.solve(False)
    if count:
        solver.restitution(cfg.restitution_threshold)
    for b, (dx, dy, da), (vx, vy, w) in zip(awake, solver.d[:dyn].tolist(), moving.tolist()):
        b.position = (b.position[0] + dx, b.position[1] + dy)
        b.angle += da
        b.velocity = (vx, vy)
        b.angular_velocity = w

    # Back to the original contact order for storage.
    back = np.empty_like(solver.order)
    back[solver.order] = np.arange(len(solver.order))
    return ContactSet(
        keys=keys, ids=ids, valid=valid, normal=normal, point=point,
        normal_impulse=solver.nimp[back], tangent_impulse=solver.timp[back], sliding=solver.sliding[back],
        la=la, lb=lb, touching=np.where(valid, found.separation, np.inf).min(axis=1, initial=np.inf) < cfg.linear_slop,
        a=list(found.a), b=list(found.b),
    )


def _wake_touched_sleepers(world: "World") -> None:
    """Moving kinematic bodies and characters wake the sleeping bodies they touch."""
    sleepers = [b for b in world.bodies if b.sleeping]
    if not sleepers:
        return
    movers = [(k.aabb(), k.velocity != (0.0, 0.0) or k.angular_velocity != 0.0) for k in world.kinematic_bodies]
    movers += [(ch.shape.aabb(ch.transform), ch.velocity != (0.0, 0.0)) for ch in world.characters]
    for b in sleepers:
        box = b.aabb().grown(world.physics.speculative_distance)
        if any(moving and mbox.overlaps(box) for mbox, moving in movers):
            b.wake()


def _continuous(world: "World", awake: list[RigidBody]) -> None:
    """Fast bodies are swept against static geometry from where they were to where the solver put them,
    and stopped at the first touch: nothing passes through a thin platform in one step."""
    bp = world.static
    for b in awake:
        start = b.previous_transform
        dx, dy = b.position[0] - start.position[0], b.position[1] - start.position[1]
        extent = min(b.shape.local_aabb.width, b.shape.local_aabb.height)
        if math.hypot(dx, dy) < 0.25 * extent:
            continue
        found = bp.shape_cast(b.shape, Transform(start.position, b.angle), (dx, dy))
        hit = found.hit if found is not None else None
        if not isinstance(hit, CastHit) or hit.started_inside or hit.fraction >= 1.0:
            continue
        length = math.hypot(dx, dy)
        if (hit.normal[0] * dx + hit.normal[1] * dy) > -0.2 * length:
            continue  # a glancing touch (sliding along the floor over a joint) is the solver's business
        f = hit.fraction
        back = min(f, world.physics.linear_slop / length)  # stop just short of the surface
        b.position = (start.position[0] + dx * (f - back), start.position[1] + dy * (f - back))


def _sleep(world: "World", contacts: ContactSet, dt: float) -> None:
    cfg = world.physics
    if not cfg.enable_sleep:
        return
    awake = [b for b in world.bodies if not b.sleeping]
    for b in awake:
        box = b.shape.local_aabb
        extent = 0.5 * max(box.width, box.height)
        spin = abs(b.angular_velocity) * extent
        if math.hypot(*b.velocity) > cfg.sleep_linear_velocity or spin > cfg.sleep_linear_velocity:
            b.sleep_time = 0.0
        else:
            b.sleep_time += dt
    # Groups of touching bodies sleep together; touching a moving kinematic body or a character keeps awake.
    if not any(b.sleep_time >= cfg.time_to_sleep for b in awake):
        return  # nobody has rested long enough: no group can sleep yet
    parent = {b.id: b.id for b in awake}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in np.flatnonzero(contacts.touching).tolist():
        a, b = contacts.a[i], contacts.b[i]
        if b.sleeping:
            continue
        if not isinstance(a, (int, RigidBody)) and _moving(a):
            b.sleep_time = 0.0
        if isinstance(a, RigidBody) and a.id in parent and b.id in parent:
            ra, rb = find(a.id), find(b.id)
            if ra != rb:
                parent[ra] = rb
    rest: dict[int, float] = {}
    for b in awake:
        r = find(b.id)
        rest[r] = min(rest.get(r, math.inf), b.sleep_time)
    for b in awake:
        if rest[find(b.id)] >= cfg.time_to_sleep:
            b.sleeping = True
            b.velocity = (0.0, 0.0)
            b.angular_velocity = 0.0


def _moving(participant: Any) -> bool:
    velocity = getattr(participant, "velocity", (0.0, 0.0))
    return velocity != (0.0, 0.0) or getattr(participant, "angular_velocity", 0.0) != 0.0


def _events(world: "World", contacts: ContactSet) -> list[ContactEvent]:
    """Begin / end events from the change in touching pairs since the last step."""
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
