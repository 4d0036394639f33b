"""A step's contacts (compiled): the manifold of every pair the broad phase found, keyed, with the impulses
and friction anchors of the last step's matching points (warm starting).

Participants: B is always a rigid body (a row of the state array); A is a static segment, a mover (kinematic
body or character, placed where it started the step) or a rigid body of a lower row. Shapes come from a
:class:`~.layout.Shapes` table: the bodies' rows first, then the movers'. Contacts are rows of the contact set's two
arrays (:mod:`.layout`), made ``speculative`` px early.

The seam rule: a one-point contact with a segment's rounded end cap, at an end the segment shares with another
segment, whose normal leans over that other segment, belongs to the other segment and is dropped. Without it
a crate sliding over a joint meets the caps there with a tilted speculative normal and trips.
"""

from __future__ import annotations

import math
import numpy as np

from engine.geometry import MAX_VERTICES

from .broad_phase import awake_pairs, filters_touch, level_pairs
from .compile import helper, inlined, kernel
from .layout import (
    A, ANCHOR0_AX, ANGLE, B, CLOSEST, CONTACT_FLOATS, CONTACT_INTS, DYNAMIC, ID0, ID1, JOINT_ORDER, JOINT_SIZE,
    JOINT_START, KEY, KIND, KINEMATIC, MOVER_KIND,
    MOVER_MAX_X, MOVER_MAX_Y, MOVER_MIN_X, MOVER_MIN_Y, MOVER_ONE_WAY_X, MOVER_VX, NORMAL0, NX, NY, ONE_WAY_COSINE,
    ONE_WAY_DEPTH, POINT0_X, RESTITUTION, SEGMENT_ONE_WAY, SEGMENT_RADIUS, SEGMENT_SHARED, SEP0, SLIDING0, SLOP,
    SPECULATIVE, STATIC, STEP_DT, TOUCHING, VALID0,
    VALID1, VX, X,
)
from .manifold import collide
from .vector import length

__all__ = ["gather", "one_way_holds", "pair_key", "place_and_box", "put_box", "warm_start"]

KEY_KIND_SHIFT, KEY_A_SHIFT = 58, 29
"""A pair key: A's kind from bit 58 up, A's id (a segment index, a mover's row, a body's id) in the 29 bits from
bit 29, B's body id in the lowest 29."""


@helper
def pair_key(kind, a_id, b_id):
    """The key of a pair: unique among a step's contacts, the same from step to step while the pair touches."""
    return (np.int64(kind) << KEY_KIND_SHIFT) | (np.int64(a_id) << KEY_A_SHIFT) | np.int64(b_id)


@helper
def put_box(boxes, s, core, start, end, c, sn, x, y, r):
    """Row ``s`` of ``boxes``: the box of the core vertices ``start`` to ``end`` turned by (``c``, ``sn``), moved
    by (``x``, ``y``) and grown by ``r`` px."""
    low_x = low_y = math.inf
    high_x = high_y = -math.inf
    for v in range(start, end):
        vx, vy = core[v, 0], core[v, 1]
        wx, wy = c * vx - sn * vy + x, sn * vx + c * vy + y
        low_x, low_y, high_x, high_y = min(low_x, wx), min(low_y, wy), max(high_x, wx), max(high_y, wy)
    boxes[s, 0], boxes[s, 1], boxes[s, 2], boxes[s, 3] = low_x - r, low_y - r, high_x + r, high_y + r


@kernel
def place_and_box(shapes, state, movers, rows, place, boxes, grow):
    """The placements (cos, sin, x, y) and boxes (grown by the radius and ``grow`` px) of the bodies of ``rows``
    (where ``state`` puts them) and of every mover (from its row), written into their shape rows of ``place``
    and ``boxes`` (the bodies' rows, then the movers'). The other bodies' rows are left as they are: sleepers
    lie where they were placed."""
    core, offsets, radius = shapes.core, shapes.offsets, shapes.radius  # (bound once: see grid_of)
    body_count = len(radius) - len(movers)
    for i in range(len(rows) + len(movers)):
        if i < len(rows):
            s = rows[i]
            x, y, angle = state[s, X], state[s, X + 1], state[s, ANGLE]
        else:
            s = body_count + i - len(rows)
            x, y, angle = movers[s - body_count, 0], movers[s - body_count, 1], movers[s - body_count, 2]
        c, sn = math.cos(angle), math.sin(angle)
        place[s, 0], place[s, 1], place[s, 2], place[s, 3] = c, sn, x, y
        put_box(boxes, s, core, offsets[s], offsets[s + 1], c, sn, x, y, radius[s] + grow)


@kernel
def body_boxes(state, count, core, offsets, radius, grow):
    """The first ``count`` bodies' boxes where ``state`` (:data:`~.layout.STATE_COLUMNS` rows) places them now,
    grown by their radius and ``grow`` px, (count, 4)."""
    boxes = np.empty((count, 4))
    for s in range(count):
        angle = state[s, ANGLE]
        put_box(boxes, s, core, offsets[s], offsets[s + 1], math.cos(angle), math.sin(angle), state[s, X],
                 state[s, X + 1], radius[s] + grow)
    return boxes


@helper
def _put(ints, floats, count, manifold, kind, a, b, key, slop):
    """Row ``count`` of the contact arrays from a manifold (see :mod:`.manifold`)."""
    nx, ny, valid0, x0, y0, sep0, id0, valid1, x1, y1, sep1, id1, _ = manifold
    closest = min(sep0, sep1)  # (a missing point's separation is +inf: no branch, see contact_solver._dots)
    ints[count, KEY], ints[count, KIND], ints[count, A], ints[count, B] = key, kind, a, b
    ints[count, ID0], ints[count, ID1] = id0, id1
    ints[count, VALID0], ints[count, VALID1] = valid0, valid1
    ints[count, TOUCHING] = closest < slop
    ints[count, SLIDING0] = ints[count, SLIDING0 + 1] = 0
    floats[count, NX], floats[count, NY] = nx, ny
    floats[count, POINT0_X], floats[count, POINT0_X + 1] = x0, y0
    floats[count, POINT0_X + 2], floats[count, POINT0_X + 3] = x1, y1
    floats[count, SEP0], floats[count, SEP0 + 1] = sep0, sep1
    for j in range(NORMAL0, CLOSEST):
        floats[count, j] = 0.0
    floats[count, CLOSEST] = closest


@helper
def _leans_over_neighbour(level, segment, px, py, nx, ny):
    """The seam rule for a one-point contact with ``segment`` (point ``px``, ``py``; normal ``nx``, ``ny``): at
    an end cap the segment shares with other segments, a normal leaning over one of them (along it, past 1e-6)
    makes the contact that neighbour's."""
    count, joints = len(level.segments), level.joints
    row = 2 * segment
    ax, ay = level.core[row, 0], level.core[row, 1]
    ex, ey = level.core[row + 1, 0] - ax, level.core[row + 1, 1] - ay
    t = (px - ax) * ex + (py - ay) * ey
    if 0.0 < t < ex * ex + ey * ey:
        return False
    here = segment if t <= 0.0 else segment + count
    hx, hy = level.joint_ends[here, 0], level.joint_ends[here, 1]
    size = joints[here, JOINT_SIZE]
    for k in range(joints[here, JOINT_START], joints[here, JOINT_START] + (size if size > 1 else 0)):
        other = joints[k, JOINT_ORDER]
        if other % count == segment:
            continue
        far = (other + count) % (2 * count)  # (the other end of that segment)
        dx, dy = level.joint_ends[far, 0] - hx, level.joint_ends[far, 1] - hy
        along = length(dx, dy)
        if along > 0 and nx * (dx / along) + ny * (dy / along) > 1e-6:
            return True
    return False


@inlined
def gather(state, shapes, level, place, boxes, asleep, awake, sleepers, movers, settings):
    """This step's contacts of the awake bodies (``awake``: their rows, ascending; ``asleep``: each body's flag;
    ``sleepers``: the index of the sleepers' boxes, :func:`~.broad_phase.sleeper_index`; ``place`` and
    ``boxes``: every shape's placement and box grown by the speculative distance, :func:`place_and_box`):
    against the level's segments, the movers, and each other (pairs of two sleepers left out; an awake body
    against a sleeper included, which wakes it when they touch). The candidate pairs come first, so the
    contacts go into arrays made once. Returns the contact arrays and how many rows are used."""
    local = np.empty((MAX_VERTICES, 4))
    ahead, early = _level_reach(state, shapes, awake, settings[STEP_DT])
    segments, bodies = _level_candidates(shapes, level, boxes, awake, early)
    mover_rows, mover_bodies = _mover_candidates(shapes, boxes, awake, movers, state, settings[STEP_DT])
    first, second = awake_pairs(boxes, awake, asleep, sleepers)
    room = len(segments) + len(mover_rows) + len(first)
    ints, floats = np.empty((room, CONTACT_INTS), np.int64), np.empty((room, CONTACT_FLOATS))
    count = _on_level(state, shapes, level, place, segments, bodies, (ahead, early), settings, local, ints,
                      floats, np.int64(0))
    count = _on_movers(state, shapes, place, mover_rows, mover_bodies, movers, settings, local, ints, floats, count)
    count = _between_bodies(shapes, place, first, second, settings, local, ints, floats, count)
    return ints, floats, count


@helper
def _level_reach(state, shapes, awake, dt):
    """For each of the ``awake`` bodies (one entry per body row; the others 0): how far (px) its farthest
    point moves in the step at its velocity and spin (``ahead``: how much earlier than the speculative
    distance the second point of its contacts with the level is made), and how much earlier a contact with
    the level is made at all (``early``: as far, for a body that moves less than its reach and does not
    bounce; else 0). See :func:`_on_level`."""
    ahead, early = np.zeros(len(state)), np.zeros(len(state))
    extent, reach = shapes.extent, shapes.reach  # (bound once: numba counts references in loops)
    for b in awake:
        ahead[b] = (length(state[b, VX], state[b, VX + 1]) + abs(state[b, VX + 2]) * 2.0 * extent[b]) * dt
        if ahead[b] < reach[b] and state[b, RESTITUTION] == 0.0:
            early[b] = ahead[b]
    return ahead, early


@kernel
def _level_candidates(shapes, level, boxes, awake, early):
    """The (segment, body) pairs whose boxes (grown by ``early``, :func:`_level_reach`) overlap and whose
    filters touch, of the ``awake`` bodies."""
    grown = np.empty((len(awake), 4))
    for i in range(len(awake)):
        b = awake[i]
        grown[i, 0], grown[i, 1] = boxes[b, 0] - early[b], boxes[b, 1] - early[b]
        grown[i, 2], grown[i, 3] = boxes[b, 2] + early[b], boxes[b, 3] + early[b]
    segments, owners = level_pairs(level, grown)
    segment_filters, body_filters, kept = level.segment_ints, shapes.filters, 0  # (its filter: columns 0-2)
    for i in range(len(segments)):
        b = awake[owners[i]]
        if filters_touch(segment_filters, segments[i], body_filters, b):
            segments[kept], owners[kept] = segments[i], b
            kept += 1
    return segments[:kept], owners[:kept]


@kernel
def _mover_candidates(shapes, boxes, awake, movers, state, dt):
    """The (mover, body) pairs whose boxes overlap (the mover's over the whole step; the body's, against a
    kinematic body, grown by its move over the step at its velocity: see :func:`_on_movers`) and whose filters
    touch, of the ``awake`` bodies."""
    body_count = len(shapes.radius) - len(movers)
    total = 0
    for write in range(2):  # (counted, then written into arrays of that size)
        rows, bodies = np.empty(total if write else 0, np.int64), np.empty(total if write else 0, np.int64)
        total = 0
        for i in range(len(movers)):
            for b in awake:
                reach = dt if movers[i, MOVER_KIND] == KINEMATIC else 0.0
                reach_x, reach_y = abs(state[b, VX]) * reach, abs(state[b, VX + 1]) * reach
                if not (movers[i, MOVER_MIN_X] <= boxes[b, 2] + reach_x
                        and movers[i, MOVER_MAX_X] >= boxes[b, 0] - reach_x
                        and movers[i, MOVER_MIN_Y] <= boxes[b, 3] + reach_y
                        and movers[i, MOVER_MAX_Y] >= boxes[b, 1] - reach_y):
                    continue
                if filters_touch(shapes.filters, body_count + i, shapes.filters, b):
                    if write:
                        rows[total], bodies[total] = i, b
                    total += 1
        if write:
            return rows, bodies
    return np.empty(0, np.int64), np.empty(0, np.int64)


@helper
def _shape_place(place, s):
    return place[s, 0], place[s, 1], place[s, 2], place[s, 3]


@kernel
def _on_level(state, shapes, level, place, segments, bodies, reaches, settings, local, ints, floats, count):
    """:func:`gather`'s contacts of bodies with the level's segments (A: the segment), the seam rule and
    one-way segments applied; returns how many rows are used. Made early by the speculative distance, and by
    how far the body moves in the step (``reaches``: ``ahead`` and ``early`` of :func:`_level_reach`):

    - a contact's second point as far as the body moves: a crate a little tilted, landing at 650 px/s, has
      both lower corners in its contact with the floor, not only the lowest, so when that one stops, the
      solve stops the other swinging down too (it was pressed 2-4 px into the floor, unseen);
    - the contact itself as far as a body moves that moves less than its reach (it is not swept after the
      solve) and does not bounce: a 66 px crate falling at 900 px/s from 5 px above the floor met it 4 px
      early and ended 9 px in it. Not a body that bounces: a contact made early stops a body in the solve's
      relax pass, which restitution does not see (a ball stopped dead on the floor); nor one that moves its
      reach or more: the sweep stops it on the surface, where its next step bounces it."""
    margin, slop, kind = settings[SPECULATIVE], settings[SLOP], np.int64(STATIC)  # (np.int64: not a literal)
    identity, two = (1.0, 0.0, 0.0, 0.0), np.int64(2)
    ahead, early = reaches
    level_core, level_segments, level_ints, core, offsets, radius = level.core, level.segments, level.segment_ints, \
        shapes.core, shapes.offsets, shapes.radius  # (bound once: numba counts references on what it reads in a loop)
    for i in range(len(segments)):
        s, b = segments[i], bodies[i]
        manifold = collide(level_core, 2 * s, two, level_segments[s, SEGMENT_RADIUS], identity, core, offsets[b],
                           offsets[b + 1] - offsets[b], radius[b], _shape_place(place, b), margin + ahead[b], local)
        if not (manifold[2] or manifold[7]) or min(manifold[5], manifold[10]) > margin + early[b]:
            continue
        if not one_way_holds(manifold, level_segments[s, SEGMENT_ONE_WAY], level_segments[s, SEGMENT_ONE_WAY + 1],
                             state[b, VX], state[b, VX + 1], settings):
            continue
        if manifold[2] and not manifold[7] and level_ints[s, SEGMENT_SHARED] and _leans_over_neighbour(
                level, s, manifold[3], manifold[4], manifold[0], manifold[1]):
            continue
        _put(ints, floats, count, manifold, kind, s, b, pair_key(kind, s, shapes.ids[b]), slop)
        count += 1
    return count


@helper
def one_way_holds(manifold, ux, uy, vx, vy, settings):
    """Whether a contact (``manifold``, its normal from A to the body B) holds with A solid from direction
    (``ux``, ``uy``): always when that is (0, 0) (A is solid from every side); for a one-way A, when the normal
    lies within :data:`~.layout.ONE_WAY_COSINE` of that direction and the body is no deeper in A (its closest
    separation, px) than it could have come this step from that side (its velocity ``vx``, ``vy`` px/s relative
    to A, against the direction, over the step, plus :data:`~.layout.ONE_WAY_DEPTH`). A body coming up from
    below passes; once above, it lands."""
    if ux == 0.0 and uy == 0.0:
        return True
    if manifold[0] * ux + manifold[1] * uy < ONE_WAY_COSINE:
        return False
    closest = min(manifold[5], manifold[10])
    approach = max(0.0, -(vx * ux + vy * uy)) * settings[STEP_DT]
    return closest > -(approach + ONE_WAY_DEPTH)


@kernel
def _on_movers(state, shapes, place, mover_rows, bodies, movers, settings, local, ints, floats, count):
    """:func:`gather`'s contacts of bodies with the movers (A: the mover, where it started the step); a one-way
    mover holds a body as a one-way segment does (:func:`one_way_holds`, with the body's speed relative to it).
    Made early by the speculative distance, and with a kinematic body as far as the two close in on each other
    at their velocities over the step (Box2D's speculative contacts, their distance grown to the approach): a
    crate stack falling onto a lift at 20 px a step meets it in the solve, where the bottom crate's stop
    reaches the top one (the sweep that would stop it after the solve leaves the top one going on into it)."""
    slop, body_count, dt = settings[SLOP], len(shapes.radius) - len(movers), settings[STEP_DT]
    core, offsets, radius, ids = shapes.core, shapes.offsets, shapes.radius, shapes.ids  # (bound once, as above)
    for p in range(len(mover_rows)):
        i, b = mover_rows[p], bodies[p]
        s, kind = body_count + i, np.int64(movers[i, MOVER_KIND])
        closing = 0.0
        if kind == KINEMATIC:  # (not a character: the shove asks whether a body ran into it within the step)
            closing = length(state[b, VX] - movers[i, MOVER_VX], state[b, VX + 1] - movers[i, MOVER_VX + 1]) * dt
        manifold = collide(core, offsets[s], offsets[s + 1] - offsets[s], radius[s], _shape_place(place, s), core,
                           offsets[b], offsets[b + 1] - offsets[b], radius[b], _shape_place(place, b),
                           settings[SPECULATIVE] + closing, local)  # (no helper between: see _between_bodies)
        if not (manifold[2] or manifold[7]):
            continue
        if not one_way_holds(manifold, movers[i, MOVER_ONE_WAY_X], movers[i, MOVER_ONE_WAY_X + 1],
                             state[b, VX] - movers[i, MOVER_VX], state[b, VX + 1] - movers[i, MOVER_VX + 1], settings):
            continue
        _put(ints, floats, count, manifold, kind, i, b, pair_key(kind, ids[s], ids[b]), slop)
        count += 1
    return count


@kernel
def _between_bodies(shapes, place, first, second, settings, local, ints, floats, count):
    """:func:`gather`'s contacts between bodies (A: the lower row) of the pairs the sweep found."""
    margin, slop, kind = settings[SPECULATIVE], settings[SLOP], np.int64(DYNAMIC)
    core, offsets, radius, ids, filters = shapes.core, shapes.offsets, shapes.radius, shapes.ids, shapes.filters
    for p in range(len(first)):  # (the arrays bound once: numba counts references on what it reads in a loop)
        a, b = first[p], second[p]
        if not filters_touch(filters, a, filters, b):
            continue
        # (collide called here, not through a helper taking the table: numba would count references on its
        # arrays at every pair)
        manifold = collide(core, offsets[a], offsets[a + 1] - offsets[a], radius[a], _shape_place(place, a), core,
                           offsets[b], offsets[b + 1] - offsets[b], radius[b], _shape_place(place, b), margin, local)
        if manifold[2] or manifold[7]:
            _put(ints, floats, count, manifold, kind, a, b, pair_key(kind, ids[a], ids[b]), slop)
            count += 1
    return count


@helper
def _local(c, sn, ox, oy, x, y):
    """World point (``x``, ``y``) in a frame turned by (``c``, ``sn``) (cos, sin) about origin (``ox``, ``oy``)."""
    rx, ry = x - ox, y - oy
    return c * rx + sn * ry, c * ry - sn * rx


@helper
def _key_slot(key, mask):
    """Where a pair's key (:func:`pair_key`) goes in a hash table of ``mask`` + 1 slots (a power of two): its
    two ids mixed by odd multipliers (the pairs of a row of crates, ids ``a`` and ``a`` + 1, spread), within 57
    bits (no overflow)."""
    return ((key >> KEY_A_SHIFT) * 2654436 + (key & np.int64((1 << KEY_A_SHIFT) - 1)) * 40503) & mask


@kernel
def warm_start(ints, floats, count, old_ints, old_floats, old_count, place, body_count, placed):
    """Each contact's accumulated impulses and friction anchors, carried from the last step's contact of the
    same key where a point's feature id matches (in the same slot, else the other); a point that slid, or is
    new, gets a fresh anchor (its place in each participant's frame at step start: static geometry's is the
    world's, a mover's shape row is ``body_count`` + its row); a pair with a body game code ``placed`` since
    starts afresh (its old anchors are where the body was). Returns each contact's row among the last step's
    (-1: a new pair). (One loop, no helper taking arrays: numba would count references at every point.)"""
    size = 2
    while size < 2 * old_count:  # (a hash table of the last step's keys, at most half full: open addressing)
        size *= 2
    slots, mask = np.full(size, -1, np.int64), size - 1
    for j in range(old_count):
        at = _key_slot(old_ints[j, KEY], mask)
        while slots[at] >= 0:  # (keys are unique: no key is there yet)
            at = (at + 1) & mask
        slots[at] = j
    source = np.full(count, -1, np.int64)
    for i in range(count):
        key, src = ints[i, KEY], -1
        at = _key_slot(key, mask)
        while slots[at] >= 0:
            if old_ints[slots[at], KEY] == key:
                src = slots[at]
                break
            at = (at + 1) & mask
        source[i] = src
        kind, b = ints[i, KIND], ints[i, B]
        a = ints[i, A] if kind == DYNAMIC else body_count + ints[i, A]  # (a shape row; unused for static)
        if placed[b] or (kind == DYNAMIC and placed[a]):
            src = -1
        for slot in range(2):
            if not ints[i, VALID0 + slot]:
                continue
            old = -1
            if src >= 0 and old_ints[src, VALID0 + slot] and old_ints[src, ID0 + slot] == ints[i, ID0 + slot]:
                old = slot
            elif src >= 0 and old_ints[src, VALID1 - slot] and old_ints[src, ID1 - slot] == ints[i, ID0 + slot]:
                old = 1 - slot
            anchor = ANCHOR0_AX + 4 * slot
            if old >= 0:
                floats[i, NORMAL0 + slot] = old_floats[src, NORMAL0 + old]
                floats[i, NORMAL0 + 2 + slot] = old_floats[src, NORMAL0 + 2 + old]
            if old >= 0 and not old_ints[src, SLIDING0 + old]:
                for j in range(4):
                    floats[i, anchor + j] = old_floats[src, ANCHOR0_AX + 4 * old + j]
                continue
            x, y = floats[i, POINT0_X + 2 * slot], floats[i, POINT0_X + 2 * slot + 1]
            if kind == STATIC:
                floats[i, anchor], floats[i, anchor + 1] = x, y
            else:
                floats[i, anchor], floats[i, anchor + 1] = _local(place[a, 0], place[a, 1], place[a, 2], place[a, 3],
                                                                  x, y)
            floats[i, anchor + 2], floats[i, anchor + 3] = _local(place[b, 0], place[b, 1], place[b, 2], place[b, 3],
                                                                  x, y)
    return source

