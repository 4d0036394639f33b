"""The named columns of the kernels' packed arrays, defined once (pure Python: no numba here).

Units: pixels, seconds, radians (counter-clockwise); y up. A contact's normal points from A to B, so a
positive relative normal velocity separates; a separation below zero is an overlap. A contact's B is always a
rigid body; A is a static segment, a kinematic body, a character or another rigid body (:data:`STATIC` ..
:data:`DYNAMIC`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from engine.bodies import (
    ANGLE, FRICTION, GRAVITY_SCALE, INV_INERTIA, INV_MASS, PLACED, PREVIOUS_ANGLE, PREVIOUS_X, PREVIOUS_Y,
    RESTITUTION, SLEEP_TIME, SLEEPING, STATE_COLUMNS, VX, VY, W, X, Y,
)

__all__ = [
    "ANGLE", "FRICTION", "GRAVITY_SCALE", "INV_INERTIA", "INV_MASS", "Level", "PLACED", "PREVIOUS_ANGLE",
    "PREVIOUS_X", "PREVIOUS_Y", "RESTITUTION", "SLEEP_TIME", "SLEEPING", "STATE_COLUMNS", "Shapes", "VX", "VY", "W",
    "X", "Y",
]

# ----------------------------------------------------------------------------------------- kinds of A
STATIC, KINEMATIC, CHARACTER, DYNAMIC = 0, 1, 2, 3
"""What participant A of a contact is: a static segment, a kinematic body, a character, a rigid body."""

# ----------------------------------------------------------------------------------------- contacts
# A contact set is two arrays, one row per contact. Integers (m, CONTACT_INTS): the pair's key (unique in a
# step: A's kind, A and B's id, see :func:`~engine.world.kernels.narrow_phase.pair_key`), A's kind, A (a
# segment index, a mover's row or a body's row), B (a body's row), the two points' feature ids, which points
# exist (1/0), whether the pair touches (closest separation below the slop), which points slid (their
# friction ended the step at the cone's edge: a fresh anchor next step).
(KEY, KIND, A, B, ID0, ID1, VALID0, VALID1, TOUCHING, SLIDING0, SLIDING1) = range(11)
CONTACT_INTS = 11
# Floats (m, CONTACT_FLOATS): the unit normal, the two points (world, midway between the surfaces), their
# separations at step start (px), the accumulated impulses (normal 0, normal 1, tangent 0, tangent 1) and the
# friction anchors of each point in A's then B's frame (x, y), and the closest separation (+inf: no point).
(NX, NY, POINT0_X, POINT0_Y, POINT1_X, POINT1_Y, SEP0, SEP1, NORMAL0, NORMAL1, TANGENT0, TANGENT1,
 ANCHOR0_AX, ANCHOR0_AY, ANCHOR0_BX, ANCHOR0_BY, ANCHOR1_AX, ANCHOR1_AY, ANCHOR1_BX, ANCHOR1_BY, CLOSEST) = range(21)
CONTACT_FLOATS = 21

# ----------------------------------------------------------------------------------------- movers
# Kinematic bodies and characters as the rigid step sees them (M, MOVER_COLUMNS): placement at step start
# (they have moved already: the solve sweeps them again from there at the speed they moved, so crates are
# carried, not dragged), velocity (px/s, rad/s), friction against bodies, A's kind (KINEMATIC or CHARACTER),
# whether it moves (1/0), its box over the step (start and end), px, the unit direction it is solid from
# when it is one-way ((0, 0): solid from every side), and for a character the row + 1 of the rigid body it
# stands on (0: none; it rides that body, and does not hold it down).
(MOVER_X, MOVER_Y, MOVER_ANGLE, MOVER_VX, MOVER_VY, MOVER_W, MOVER_FRICTION, MOVER_KIND, MOVER_MOVING,
 MOVER_MIN_X, MOVER_MIN_Y, MOVER_MAX_X, MOVER_MAX_Y, MOVER_ONE_WAY_X, MOVER_ONE_WAY_Y, MOVER_STANDS_ON) = range(16)
MOVER_COLUMNS = 16

# ----------------------------------------------------------------------------------------- kinematic bodies
# Columns of a kinematic body's row in its world's ``KinematicSet`` (K, KINEMATIC_COLUMNS): placement (px, px,
# rad), velocity (px/s, px/s, rad/s), placement before the last step, whether game code placed it since the last
# step began (1/0), whether it had when that step began, and how far along its path it is (px).
(KINEMATIC_X, KINEMATIC_Y, KINEMATIC_ANGLE, KINEMATIC_VX, KINEMATIC_VY, KINEMATIC_W, KINEMATIC_PREVIOUS_X,
 KINEMATIC_PREVIOUS_Y, KINEMATIC_PREVIOUS_ANGLE, KINEMATIC_PLACED, KINEMATIC_PLACED_AT_STEP,
 KINEMATIC_PATH_DISTANCE) = range(12)
KINEMATIC_COLUMNS = 12

# ----------------------------------------------------------------------------------------- step settings
# The step's settings vector (made from :class:`~engine.bodies.PhysicsConfig`, the gravity and the step).
(GRAVITY_X, GRAVITY_Y, STEP_DT, LIGHT_GAP, UNEVEN_RATIO, ROTATION_ERROR, SPECULATIVE, SLOP, SLEEP_ON,
 SLEEP_VELOCITY, TIME_TO_SLEEP, CONTINUOUS_ON, STATIC_FRICTION, CRUSH_DEPTH) = range(14)
SETTINGS = 14

# The solve's parameters (one row per substep count: the usual, and that of a step with bodies of uneven
# mass in contact): step (s), substeps, dynamic rows (set per step), gravity (px/s^2), the (bias rate 1/s,
# mass scale, impulse scale) of soft contacts between bodies, of stiff contacts and of the friction anchors,
# then PhysicsConfig values.
(DT, SUBSTEPS, DYNAMIC_ROWS, SOLVE_GRAVITY_X, SOLVE_GRAVITY_Y, SOFT_RATE, SOFT_MASS, SOFT_IMPULSE, STIFF_RATE,
 STIFF_MASS, STIFF_IMPULSE, ANCHOR_RATE, ANCHOR_MASS, ANCHOR_IMPULSE, PUSH_MAX, BLOCK_LIMIT, LINEAR_DAMPING,
 ANGULAR_DAMPING, MAX_SPEED, RESTITUTION_THRESHOLD, MAX_STATIC_OVERLAP) = range(21)
PARAMETERS = 21

# ----------------------------------------------------------------------------------------- events
# A step's events (E, EVENT_COLUMNS): kind, A's kind, A, B (as in a contact), with a normal each (E, 2).
EVENT_KIND, EVENT_A_KIND, EVENT_A, EVENT_B = range(4)
EVENT_COLUMNS = 4
BEGAN, ENDED, CRUSHED, SQUEEZED = 0, 1, 2, 3
"""A pair began touching (normal from A to B), stopped touching (no normal), A squeezed B (B crushed), or B
pressed A (a character: A crushed) against what holds it; a squeeze's normal is the push's direction."""

# ----------------------------------------------------------------------------------------- step status
RESTING = -1
"""The step's status when every body sleeps, none was placed and nothing could wake one: nothing was done."""

# ----------------------------------------------------------------------------------------- the character mover
# Columns of a Minkowski sum-table row (:mod:`.mover`): the sum core's vertex count (1: a circle, 2: a capsule's
# segment, 3 or more: a polygon), the target's radius (px; a segment's or a body's), the target's bounding box (px,
# its thickness included), the column where the target's own core starts (0: not kept, the contact point is then the
# moving shape's support point; else that column holds the target's vertex count and the next ones its world
# vertices x, y: the contact point is the middle of where two faces touch, as ``engine.geometry``'s
# ``edge_midpoints``), then per sum core vertex its x, y and the outward unit normal of the edge that starts there
# (a 2-vertex core: its two sides' normals).
SUM_COUNT, SUM_SEGMENT_RADIUS, SUM_MIN_X, SUM_MIN_Y, SUM_MAX_X, SUM_MAX_Y, SUM_TARGET_AT, SUM_FIRST_VERTEX = range(8)


# Columns of a character's constants for the mover's kernels (``mover_constants``): its skin-grown cast shape's
# radius and box in its own frame (px), the up vector, the cosine of the steepest floor, whether a grounded walk
# keeps its lateral speed on slopes (1.0 / 0.0), the graze cosine, the most slides a move makes, its own shape's
# radius and box (px), how far a surface still counts as touched (px), the penetration slop (px), and 2.0 (the
# kernels' ``x ** two``, read at run time so that the compiler cannot fold it).
(MOVE_CAST_RADIUS, MOVE_CAST_MIN_X, MOVE_CAST_MIN_Y, MOVE_CAST_MAX_X, MOVE_CAST_MAX_Y, MOVE_UP_X, MOVE_UP_Y,
 MOVE_FLOOR_LIMIT, MOVE_CONSTANT_SPEED, MOVE_GRAZE_COSINE, MOVE_MAX_SLIDES, MOVE_RADIUS, MOVE_MIN_X, MOVE_MIN_Y,
 MOVE_MAX_X, MOVE_MAX_Y, MOVE_MARGIN, MOVE_SLOP, MOVE_TWO, MOVE_COLUMNS) = range(20)


def sum_row_width(core_vertices: int) -> int:
    """Columns of a sum-table row for a moving core of ``core_vertices`` vertices (a segment's sum with it has
    at most two more)."""
    return SUM_FIRST_VERTEX + 4 * (core_vertices + 2)


def sum_row(vertices: Sequence[Sequence[float]], normals: Sequence[Sequence[float]], target_radius: float,
            box: Sequence[float], target: Sequence[Sequence[float]] | None = None, width: int = 0) -> np.ndarray:
    """A sum-table row (``layout.SUM_*`` columns, at least ``width`` of them) of a Minkowski sum whose core has
    these ``vertices`` and edge ``normals`` (as ``RoundedPolygon`` keeps them; a circle's core has none),
    against a target of radius ``target_radius`` px whose box (min x, min y, max x, max y, px) is ``box``. With
    ``target`` (the target's core vertices in the world) the row keeps them, and the casts report the middle of
    a face-to-face contact (``edge_midpoints``)."""
    count = len(vertices)
    target_at = SUM_FIRST_VERTEX + 4 * count if target is not None else 0
    size = target_at + 1 + 2 * len(target) if target is not None else SUM_FIRST_VERTEX + 4 * count
    row = np.zeros(max(size, width))
    row[SUM_COUNT], row[SUM_SEGMENT_RADIUS], row[SUM_TARGET_AT] = count, target_radius, target_at
    row[SUM_MIN_X], row[SUM_MIN_Y], row[SUM_MAX_X], row[SUM_MAX_Y] = box
    for i, (x, y) in enumerate(vertices):
        row[SUM_FIRST_VERTEX + 4 * i], row[SUM_FIRST_VERTEX + 4 * i + 1] = x, y
    for i, (nx, ny) in enumerate(normals):
        row[SUM_FIRST_VERTEX + 4 * i + 2], row[SUM_FIRST_VERTEX + 4 * i + 3] = nx, ny
    if target is not None:
        row[target_at] = len(target)
        for i, (x, y) in enumerate(target):
            row[target_at + 1 + 2 * i], row[target_at + 2 + 2 * i] = x, y
    return row


ONE_WAY_COSINE = 0.5
"""A one-way segment holds a crate whose contact normal lies within 60 degrees of the side it is solid from
(the character mover's default ``MoverConfig.one_way_angle``)."""
ONE_WAY_DEPTH = 2.0
"""Pixels: how deep in a one-way segment a crate may be found, besides what its speed brought it this step, and
still be held (a resting crate sinks a little under a load; one deeper came through from the other side)."""

# ----------------------------------------------------------------------------------------- bundles
# (Defined here, with no numba about, so that Python makes them the same way whether the kernels run compiled or
# as plain Python: numba types a named tuple by its class.)
# Columns of a level's segment table (N, SEGMENT_COLUMNS): radius (px), box (min x, min y, max x, max y, px, the
# radius included), and the unit direction a one-way segment is solid from ((0, 0) for a solid one).
SEGMENT_RADIUS, SEGMENT_BOX, SEGMENT_ONE_WAY = 0, 1, 5
SEGMENT_COLUMNS = 7

# Columns of a level's segment integers (N, SEGMENT_INT_COLUMNS): collision filter (category, mask, group), whether
# an end of the segment meets another segment (1/0: the seam rule looks there), and the scratch mark of the last
# look-up that found it (so that each is found once).
SEGMENT_FILTER, SEGMENT_SHARED, SEGMENT_MARK = 0, 3, 4
SEGMENT_INT_COLUMNS = 5

# Columns of a level's joints (2N, 3), one row per segment end: the ends sorted so that those that meet are side
# by side (a permutation of the rows), each end's first place in that order, and how many ends meet there.
JOINT_ORDER, JOINT_START, JOINT_SIZE = range(3)


class Level(NamedTuple):
    """The level's static segments as the kernels read them (made once per level by
    :class:`~engine.world.static.StaticGeometry`). Segment ``s`` is rows ``2s`` and ``2s + 1`` of ``core`` (its
    ends, with its two side normals); grid cell ``(ix, iy)`` has key ``ix * 2**32 + iy + 2**31``, its segments
    are ``members[cell_starts[c]:cell_starts[c + 1]]`` for the cell's row ``c`` in the sorted ``cell_keys``.
    (Nine arrays: numba counts a reference on every array a kernel takes, at every call, and each kernel's
    wrapper unboxes each one.)"""

    core: np.ndarray
    """(2N, 4): each segment's ends with its side normals (x, y, nx, ny), as a two-vertex shape."""
    segments: np.ndarray
    """(N, :data:`SEGMENT_COLUMNS`): radius, box and one-way direction. Crates meet a one-way segment only from
    its side (see :func:`~.narrow_phase.one_way_holds`); the character mover's compiled calls leave one-way
    segments to its Python path."""
    segment_ints: np.ndarray
    """(N, :data:`SEGMENT_INT_COLUMNS`) int64: filter, shared ends, look-up mark."""
    joint_ends: np.ndarray
    """(2N, 2): end ``e`` is segment ``e % N``'s start (``e < N``) or its end."""
    joints: np.ndarray
    """(2N, 3) int64: :data:`JOINT_ORDER`, :data:`JOINT_START`, :data:`JOINT_SIZE`."""
    cell_size: float
    """px."""
    cell_keys: np.ndarray
    cell_starts: np.ndarray
    members: np.ndarray
    stamp: np.ndarray
    """(1,) int64: the last look-up mark used (the kernels count it up, one per look-up)."""


class Shapes(NamedTuple):
    """The shapes the rigid step collides: the bodies' (first), then the movers'."""

    core: np.ndarray
    """(V, 4): every shape's local core vertices and edge normals (x, y, nx, ny), one shape after the other."""
    offsets: np.ndarray
    """(S + 1,) int64: shape s is rows ``offsets[s]:offsets[s + 1]`` of ``core``."""
    radius: np.ndarray
    """(S,) px."""
    extent: np.ndarray
    """(S,) px: how far the farthest corner is from the centre, roughly (a spin times it is a speed)."""
    reach: np.ndarray
    """(S,) px: a body that moves farther than this in a step is swept against the level."""
    filters: np.ndarray
    """(S, 3) int64: category, mask, group."""
    ids: np.ndarray
    """(S,) int64: each body's id (a mover's: its row among the movers), for the pair keys."""
