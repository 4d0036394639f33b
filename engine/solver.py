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
from typing import TYPE_CHECKING, Any

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

    def add_batch(self, keys, a_objs, b_objs, a_kind, m) -> None:
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

    def add_manifold(self, key, a_obj, b_obj, a_kind, m: Manifold) -> None:
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

    def stacked(self):
        if not self.keys:
            return None
        cat = np.concatenate
        return (cat(self.keys), self.a, self.b, cat(self.a_kind), cat(self.normal), cat(self.point),
                cat(self.separation), cat(self.ids), cat(self.valid))


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
                    pairs.add_manifold(_key(_STATIC, s, bodies[k].id), s, bodies[k], _STATIC, m)
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
        pairs.add_batch(keys, segs, [bodies[k] for k in ks], _STATIC, batch)

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
                    pairs.add_manifold(_key(kind, i, bodies[k].id), mover, bodies[k], kind, m)

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
                                               _DYNAMIC, m)
                    continue
                va, na = polys[count_a]
                vb, nb = polys[count_b]
                ra = np.array([polys["row"][i] for i in la_.tolist()])
                rb = np.array([polys["row"][j] for j in hb_.tolist()])
                batch = collide_batch(va[ra], na[ra], polys["radius"][la_], vb[rb], nb[rb], polys["radius"][hb_],
                                      margin)
                keys = (np.int64(_DYNAMIC) << 58) | (ids[la_].astype(np.int64) << 29) | ids[hb_].astype(np.int64)
                pairs.add_batch(keys, [bodies[i] for i in la_.tolist()], [bodies[j] for j in hb_.tolist()],
                                _DYNAMIC, batch)
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
    """The soft-step contact solve over contacts sorted by colour; each colour is a contiguous slice."""

    def __init__(self, c: dict, vx, vy, w, inv_m, inv_i, dynamic_rows: int, soft, stiff, anchor, inv_h: float,
                 push_max: float) -> None:
        self.vx, self.vy, self.w = vx, vy, w
        self.dx = np.zeros_like(vx)
        self.dy = np.zeros_like(vx)
        self.da = np.zeros_like(vx)
        self.inv_m, self.inv_i = inv_m, inv_i
        self.inv_h, self.push_max = inv_h, push_max
        colours = _colours(c["ia"], c["ib"], dynamic_rows)
        order = np.concatenate(colours) if colours else np.zeros(0, dtype=np.int64)
        self.order = order
        self.c = {name: value[order] for name, value in c.items()}
        c = self.c
        self.slices = []
        start = 0
        for colour in colours:
            self.slices.append(slice(start, start + len(colour)))
            start += len(colour)
        ia, ib = c["ia"], c["ib"]
        nx, ny = c["nx"], c["ny"]
        ma, mb, iia, iib = inv_m[ia], inv_m[ib], inv_i[ia], inv_i[ib]
        # Per point: anchor cross products and effective masses; the 2x2 normal block.
        rna = c["rax"] * ny[:, None] - c["ray"] * nx[:, None]
        rnb = c["rbx"] * ny[:, None] - c["rby"] * nx[:, None]
        rta = c["rax"] * -nx[:, None] - c["ray"] * ny[:, None]
        rtb = c["rbx"] * -nx[:, None] - c["rby"] * ny[:, None]
        kn = ma[:, None] + mb[:, None] + iia[:, None] * rna * rna + iib[:, None] * rnb * rnb
        kt = ma[:, None] + mb[:, None] + iia[:, None] * rta * rta + iib[:, None] * rtb * rtb
        v = c["valid"]
        self.nmass = np.where(v & (kn > 0), 1.0 / np.where(kn > 0, kn, 1.0), 0.0)
        self.tmass = np.where(v & (kt > 0), 1.0 / np.where(kt > 0, kt, 1.0), 0.0)
        self.k11, self.k22 = kn[:, 0], kn[:, 1]
        self.k12 = ma + mb + iia * rna[:, 0] * rna[:, 1] + iib * rnb[:, 0] * rnb[:, 1]
        det = self.k11 * self.k22 - self.k12 * self.k12
        self.block = v[:, 0] & v[:, 1] & (self.k11 * self.k11 < 1000.0 * det)
        self.inv_det = np.where(self.block, 1.0 / np.where(self.block, det, 1.0), 0.0)
        self.ma, self.mb, self.iia, self.iib = ma, mb, iia, iib
        self.rate = np.where(c["stiff"], stiff[0], soft[0])
        self.anchor_rate, self.anchor_mscale, self.anchor_iscale = anchor
        self.mscale = np.where(c["stiff"], stiff[1], soft[1])
        self.iscale = np.where(c["stiff"], stiff[2], soft[2])
        self.max_normal = np.zeros_like(c["nimp"])
        self.relative = self._vn_all()
        self.turn()

    def _vn_all(self):
        c = self.c
        ia, ib = c["ia"], c["ib"]
        dvx = self.vx[ib][:, None] - self.w[ib][:, None] * c["rby"] - self.vx[ia][:, None] + self.w[ia][:, None] * c["ray"]
        dvy = self.vy[ib][:, None] + self.w[ib][:, None] * c["rbx"] - self.vy[ia][:, None] - self.w[ia][:, None] * c["rax"]
        return dvx * c["nx"][:, None] + dvy * c["ny"][:, None]

    def warm_start(self) -> None:
        c = self.c
        nx, ny = c["nx"][:, None], c["ny"][:, None]
        px = c["nimp"] * nx + c["timp"] * ny  # tangent = (ny, -nx)
        py = c["nimp"] * ny - c["timp"] * nx
        ta = (c["rax"] * py - c["ray"] * px).sum(1)
        tb = (c["rbx"] * py - c["rby"] * px).sum(1)
        sx, sy = px.sum(1), py.sum(1)
        ia, ib, k = c["ia"], c["ib"], len(self.vx)
        self.vx += np.bincount(ib, self.mb * sx, k) - np.bincount(ia, self.ma * sx, k)
        self.vy += np.bincount(ib, self.mb * sy, k) - np.bincount(ia, self.ma * sy, k)
        self.w += np.bincount(ib, self.iib * tb, k) - np.bincount(ia, self.iia * ta, k)

    def turn(self) -> None:
        """Cosine and sine of every body's rotation so far this step (after each position update)."""
        self.cos_da = np.cos(self.da)
        self.sin_da = np.sin(self.da)

    def solve(self, use_bias: bool) -> None:
        c = self.c
        vx, vy, w = self.vx, self.vy, self.w
        for s in self.slices:
            ia, ib = c["ia"][s], c["ib"][s]
            vax, vay, wa = vx[ia], vy[ia], w[ia]
            vbx, vby, wb = vx[ib], vy[ib], w[ib]
            nx, ny = c["nx"][s], c["ny"][s]
            nx2, ny2 = nx[:, None], ny[:, None]
            rax, ray, rbx, rby = c["rax"][s], c["ray"][s], c["rbx"][s], c["rby"][s]
            ma, mb, iia, iib = self.ma[s], self.mb[s], self.iia[s], self.iib[s]
            valid = c["valid"][s]
            # Separation now, from the position deltas (anchors turned with the bodies).
            ca, sa = self.cos_da[ia][:, None], self.sin_da[ia][:, None]
            cb, sb = self.cos_da[ib][:, None], self.sin_da[ib][:, None]
            ddx = (self.dx[ib] - self.dx[ia])[:, None]
            ddy = (self.dy[ib] - self.dy[ia])[:, None]
            sep = (ddx + cb * rbx - sb * rby - ca * rax + sa * ray) * nx2 \
                + (ddy + sb * rbx + cb * rby - sa * rax - ca * ray) * ny2 + c["base"][s]
            spec = sep > 0.0
            mscale: Any
            iscale: Any
            m0: Any
            i0: Any
            if use_bias:
                soft_bias = np.maximum(self.rate[s][:, None] * sep, -self.push_max)
                bias = np.where(spec, sep * self.inv_h, soft_bias)
                mscale = np.where(spec, 1.0, self.mscale[s][:, None])
                iscale = np.where(spec, 0.0, self.iscale[s][:, None])
            else:
                bias = np.where(spec, sep * self.inv_h, 0.0)
                mscale, iscale = 1.0, 0.0
            acc = c["nimp"][s]
            e = (vbx[:, None] - wb[:, None] * rby - vax[:, None] + wa[:, None] * ray) * nx2 \
                + (vby[:, None] + wb[:, None] * rbx - vay[:, None] - wa[:, None] * rax) * ny2 + bias
            # Both points at once where they both push (the common case), else one after the other.
            k11, k22, k12, inv_det = self.k11[s], self.k22[s], self.k12[s], self.inv_det[s]
            if use_bias:
                m0, i0 = mscale[:, 0], iscale[:, 0]
                same = self.block[s] & (mscale[:, 0] == mscale[:, 1])
            else:
                m0, i0 = 1.0, 0.0
                same = self.block[s]
            d1 = -m0 * (k22 * e[:, 0] - k12 * e[:, 1]) * inv_det - i0 * acc[:, 0]
            d2 = -m0 * (k11 * e[:, 1] - k12 * e[:, 0]) * inv_det - i0 * acc[:, 1]
            use_block = same & (acc[:, 0] + d1 >= 0) & (acc[:, 1] + d2 >= 0)
            if use_block.all():
                i_0, i_1 = d1, d2
            else:
                nm = self.nmass[s]
                ms0 = mscale[:, 0] if use_bias else 1.0
                ms1 = mscale[:, 1] if use_bias else 1.0
                is0 = iscale[:, 0] if use_bias else 0.0
                is1 = iscale[:, 1] if use_bias else 0.0
                q0 = np.maximum(acc[:, 0] - nm[:, 0] * ms0 * e[:, 0] - is0 * acc[:, 0], 0.0) - acc[:, 0]
                e1 = e[:, 1] + k12 * q0
                q1 = np.maximum(acc[:, 1] - nm[:, 1] * ms1 * e1 - is1 * acc[:, 1], 0.0) - acc[:, 1]
                i_0 = np.where(use_block, d1, q0) * valid[:, 0]
                i_1 = np.where(use_block, d2, q1) * valid[:, 1]
            acc[:, 0] += i_0
            acc[:, 1] += i_1
            if use_bias:
                mx = self.max_normal[s]
                np.maximum(mx[:, 0], i_0, out=mx[:, 0])
                np.maximum(mx[:, 1], i_1, out=mx[:, 1])
            px0, py0, px1, py1 = i_0 * nx, i_0 * ny, i_1 * nx, i_1 * ny
            sx, sy = px0 + px1, py0 + py1
            vax = vax - ma * sx
            vay = vay - ma * sy
            wa = wa - iia * (rax[:, 0] * py0 - ray[:, 0] * px0 + rax[:, 1] * py1 - ray[:, 1] * px1)
            vbx = vbx + mb * sx
            vby = vby + mb * sy
            wb = wb + iib * (rbx[:, 0] * py0 - rby[:, 0] * px0 + rbx[:, 1] * py1 - rby[:, 1] * px1)

            # Friction at each point, held at the anchors while static.
            limit = c["friction"][s][:, None] * acc
            timp = c["timp"][s]
            if use_bias:
                qax, qay, qbx, qby = c["qax"][s], c["qay"][s], c["qbx"][s], c["qby"][s]
                drift = (ddx + cb * qbx - sb * qby - ca * qax + sa * qay) * ny2 \
                    - (ddy + sb * qbx + cb * qby - sa * qax - ca * qay) * nx2 + c["gap"][s][:, None]
                tbias = np.clip(self.anchor_rate * drift, -self.push_max, self.push_max)
                tms, tis = self.anchor_mscale, self.anchor_iscale
                sliding = c["sliding"][s]
            tm = self.tmass[s]
            for j in (0, 1):
                vt = (vbx - wb * rby[:, j] - vax + wa * ray[:, j]) * ny - (vby + wb * rbx[:, j] - vay - wa * rax[:, j]) * nx
                acc_t = timp[:, j]
                if use_bias:
                    new = acc_t - tm[:, j] * tms * (vt + tbias[:, j]) - tis * acc_t
                else:
                    new = acc_t - tm[:, j] * vt
                clamped = np.clip(new, -limit[:, j], limit[:, j])
                if use_bias:
                    sliding[:, j] = clamped != new
                imp = clamped - acc_t
                timp[:, j] = clamped
                px, py = imp * ny, -imp * nx
                vax = vax - ma * px
                vay = vay - ma * py
                wa = wa - iia * (rax[:, j] * py - ray[:, j] * px)
                vbx = vbx + mb * px
                vby = vby + mb * py
                wb = wb + iib * (rbx[:, j] * py - rby[:, j] * px)
            vx[ia], vy[ia], w[ia] = vax, vay, wa
            vx[ib], vy[ib], w[ib] = vbx, vby, wb

    def restitution(self, threshold: float) -> None:
        c = self.c
        if not (c["restitution"] > 0).any():
            return
        for s in self.slices:
            e_coef = c["restitution"][s]
            rel = self.relative[s]
            fast = (rel < -threshold) & (self.max_normal[s] > 0) & (e_coef[:, None] > 0) & c["valid"][s]
            if not fast.any():
                continue
            ia, ib = c["ia"][s], c["ib"][s]
            nx, ny = c["nx"][s], c["ny"][s]
            for j in (0, 1):
                rax, ray, rbx, rby = c["rax"][s, j], c["ray"][s, j], c["rbx"][s, j], c["rby"][s, j]
                dvx = self.vx[ib] - self.w[ib] * rby - self.vx[ia] + self.w[ia] * ray
                dvy = self.vy[ib] + self.w[ib] * rbx - self.vy[ia] - self.w[ia] * rax
                vn = dvx * nx + dvy * ny
                acc = c["nimp"][s, j]
                new = np.maximum(acc - self.nmass[s, j] * (vn + e_coef * rel[:, j]), 0.0)
                imp = np.where(fast[:, j], new - acc, 0.0)
                c["nimp"][s, j] = acc + imp
                px, py = imp * nx, imp * ny
                self.vx[ia] -= self.ma[s] * px
                self.vy[ia] -= self.ma[s] * py
                self.w[ia] -= self.iia[s] * (rax * py - ray * px)
                self.vx[ib] += self.mb[s] * px
                self.vy[ib] += self.mb[s] * py
                self.w[ib] += self.iib[s] * (rbx * py - rby * px)


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

    if found is None:  # no contacts: the bodies still fall
        found = (np.zeros(0, dtype=np.int64), [], [], np.zeros(0, dtype=np.int64), np.zeros((0, 2)),
                 np.zeros((0, 2, 2)), np.zeros((0, 2)), np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2), dtype=bool))
    keys, a_objs, b_objs, a_kind, normal, point, sep, ids, valid = found
    # An awake body touching a sleeping one wakes it (its neighbours follow next step).
    touching_now = np.where(valid, sep, np.inf).min(axis=1, initial=np.inf) < cfg.linear_slop
    for i in np.flatnonzero(touching_now & (a_kind == _DYNAMIC)).tolist():
        a, b = a_objs[i], b_objs[i]
        if a.sleeping != b.sleeping:
            a.wake()
            b.wake()
    new = _solve_step(world, cfg, dt, bodies, old, keys, a_objs, b_objs, a_kind, normal, point, sep, ids, valid)
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


def _solve_step(world, cfg, dt, bodies, old: ContactSet, keys, a_objs, b_objs, a_kind, normal, point, sep, ids,
                valid) -> ContactSet:
    awake = [b for b in bodies if not b.sleeping]
    row_of = {b.id: k for k, b in enumerate(awake)}
    vx = [b.velocity[0] for b in awake]
    vy = [b.velocity[1] for b in awake]
    w = [b.angular_velocity for b in awake]
    inv_m = [b.inv_mass for b in awake]
    inv_i = [b.inv_inertia for b in awake]
    gscale = [b.gravity_scale for b in awake]
    centers = [b.position for b in awake]
    angles = [b.angle for b in awake]
    fixed: dict[object, int] = {}

    def fixed_row(key, vel, ang_vel, center, angle) -> int:
        row = fixed.get(key)
        if row is None:
            row = fixed[key] = len(vx)
            vx.append(vel[0])
            vy.append(vel[1])
            w.append(ang_vel)
            inv_m.append(0.0)
            inv_i.append(0.0)
            gscale.append(0.0)
            centers.append(center)
            angles.append(angle)
        return row

    count = len(keys)
    ia = np.empty(count, dtype=np.int64)
    ib = np.empty(count, dtype=np.int64)
    friction = np.empty(count)
    restitution = np.empty(count)
    for k in range(count):
        a, b, kind = a_objs[k], b_objs[k], int(a_kind[k])
        if b.id in row_of:
            ib[k] = row_of[b.id]
        else:  # a sleeping body an awake one only nears: it holds still this step
            ib[k] = fixed_row(("s", b.id), b.velocity, b.angular_velocity, b.position, b.angle)
        if kind == _STATIC:
            ia[k] = fixed_row("static", (0.0, 0.0), 0.0, (0.0, 0.0), 0.0)
            fa, ea = world.static_friction, 0.0
        elif kind == _KINEMATIC:
            ia[k] = fixed_row(("k", id(a)), a.velocity, a.angular_velocity, a.previous_transform.position,
                              a.previous_transform.angle)
            fa, ea = world.static_friction, 0.0
        elif kind == _CHARACTER:
            start = a.previous_position or a.position
            moved = ((a.position[0] - start[0]) / dt, (a.position[1] - start[1]) / dt)
            ia[k] = fixed_row(("c", id(a)), moved, 0.0, start, 0.0)
            fa, ea = a.config.friction, 0.0
        elif a.id in row_of:
            ia[k] = row_of[a.id]
            fa, ea = a.friction, a.restitution
        else:
            ia[k] = fixed_row(("s", a.id), a.velocity, a.angular_velocity, a.position, a.angle)
            fa, ea = a.friction, a.restitution
        friction[k] = math.sqrt(fa * b.friction)
        restitution[k] = max(ea, b.restitution)
    vx_a, vy_a, w_a = np.array(vx), np.array(vy), np.array(w)
    inv_m_a, inv_i_a = np.array(inv_m), np.array(inv_i)
    center = np.array(centers, dtype=np.float64).reshape(-1, 2)
    angle = np.array(angles, dtype=np.float64)

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
    qax = ca_[:, None] * la[..., 0] - sa_[:, None] * la[..., 1]
    qay = sa_[:, None] * la[..., 0] + ca_[:, None] * la[..., 1]
    qbx = cb_[:, None] * lb[..., 0] - sb_[:, None] * lb[..., 1]
    qby = sb_[:, None] * lb[..., 0] + cb_[:, None] * lb[..., 1]

    nx, ny = normal[:, 0], normal[:, 1]
    rax = point[..., 0] - center[ia, 0][:, None]
    ray = point[..., 1] - center[ia, 1][:, None]
    rbx = point[..., 0] - center[ib, 0][:, None]
    rby = point[..., 1] - center[ib, 1][:, None]
    base = np.where(valid, sep, 0.0) - ((rbx - rax) * nx[:, None] + (rby - ray) * ny[:, None])
    gap = (center[ib, 0] - center[ia, 0]) * ny - (center[ib, 1] - center[ia, 1]) * nx
    data = {
        "ia": ia, "ib": ib, "nx": nx, "ny": ny, "friction": friction, "restitution": restitution,
        "stiff": a_kind != _DYNAMIC, "valid": valid, "rax": rax, "ray": ray, "rbx": rbx, "rby": rby, "base": base,
        "qax": qax, "qay": qay, "qbx": qbx, "qby": qby, "gap": gap, "nimp": nimp, "timp": timp,
        "sliding": np.zeros((count, 2), dtype=bool),
    }

    h = dt / cfg.substeps
    hertz = min(cfg.contact_hertz, 0.25 / h)
    solver = _Solver(data, vx_a, vy_a, w_a, inv_m_a, inv_i_a, len(awake), _soft(hertz, cfg.contact_damping_ratio, h),
                     _soft(2.0 * hertz, cfg.contact_damping_ratio, h),
                     _soft(min(cfg.friction_anchor_hertz, hertz), cfg.contact_damping_ratio, h),
                     1.0 / h, cfg.contact_push_max_velocity)
    dyn = len(awake)
    gx, gy = world.gravity
    gs = np.array(gscale)[:dyn]
    lin = 1.0 / (1.0 + h * cfg.linear_damping)
    ang_d = 1.0 / (1.0 + h * cfg.angular_damping)
    for _ in range(cfg.substeps):
        solver.vx[:dyn] = (solver.vx[:dyn] + h * gx * gs) * lin
        solver.vy[:dyn] = (solver.vy[:dyn] + h * gy * gs) * lin
        solver.w[:dyn] *= ang_d
        speed = np.hypot(solver.vx[:dyn], solver.vy[:dyn])
        over = speed > cfg.max_linear_speed
        if over.any():
            scale = np.where(over, cfg.max_linear_speed / np.where(over, speed, 1.0), 1.0)
            solver.vx[:dyn] *= scale
            solver.vy[:dyn] *= scale
        if count:
            solver.warm_start()
            solver.solve(True)
        solver.dx += h * solver.vx
        solver.dy += h * solver.vy
        solver.da += h * solver.w
        solver.turn()
        if count:
            solver.solve(False)
    if count:
        solver.restitution(cfg.restitution_threshold)
    for k, b in enumerate(awake):
        b.position = (b.position[0] + float(solver.dx[k]), b.position[1] + float(solver.dy[k]))
        b.angle += float(solver.da[k])
        b.velocity = (float(solver.vx[k]), float(solver.vy[k]))
        b.angular_velocity = float(solver.w[k])

    # Back to the original contact order for storage.
    back = np.empty_like(solver.order)
    back[solver.order] = np.arange(len(solver.order))
    result = ContactSet(
        keys=keys, ids=ids, valid=valid, normal=normal, point=point,
        normal_impulse=solver.c["nimp"][back], tangent_impulse=solver.c["timp"][back],
        sliding=solver.c["sliding"][back], la=la, lb=lb,
        touching=np.where(valid, sep, np.inf).min(axis=1, initial=np.inf) < cfg.linear_slop,
        a=list(a_objs), b=list(b_objs),
    )
    return result


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
