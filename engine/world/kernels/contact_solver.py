"""The rigid-body solve (compiled): Box2D v3's soft step over a step's contacts in graph-colour order.

:func:`solve` runs everything a step does once its contacts are known: per-contact constants (lever arms,
Jacobian rows, effective masses, soft-constraint coefficients), then ``substeps`` times integrate velocities
(gravity, damping, speed cap), warm start, solve, integrate positions and relax; then restitution, and the
position passes that keep a light body from being pressed into static geometry under a heavy one.

Rows: the awake bodies first (``dynamic_rows`` of them), then fixed rows (static geometry, movers, sleepers an
awake body nears) whose inverse mass is zero. A row's velocity is (vx, vy, w) in px/s, px/s, rad/s; its
displacement this step (dx, dy, da) in px, px, rad. A contact's normal points from A to B: a positive relative
normal velocity separates. The tangent is t = (ny, -nx). A contact acts on its pair through rows: the normal at
point 0 and 1, the tangent at each point, and for the position terms the tangent at the two friction anchors.
Separation and anchor drift during the step are linear in the displacements (rotation to first order; each
body's spin is capped so the error stays within ``max_rotation_error``; the manifold is rebuilt every step).

Colours: no two contacts of one colour share a dynamic body, so solving a colour's contacts one after the
other gives the same result as solving them at once; colours follow each other (Gauss-Seidel). Contacts apart
at the start of the step and not closing within it are *light*: their colours solve the normals only.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .compile import helper, inlined, kernel
from .vector import length
from .layout import (
    ANCHOR_IMPULSE, ANCHOR_MASS, ANCHOR_RATE, BLOCK_LIMIT, DT, LINEAR_DAMPING, ANGULAR_DAMPING,
    MAX_SPEED, MAX_STATIC_OVERLAP, PUSH_MAX, RESTITUTION_THRESHOLD, SOFT_RATE, SOLVE_GRAVITY_X, SOLVE_GRAVITY_Y,
    STIFF_RATE, SUBSTEPS,
)

__all__ = ["ROW_COLUMNS", "TABLE_COLUMNS", "colour_order", "solve"]

# Columns of the rows array (R, ROW_COLUMNS): velocity, inverse mass and inertia, centre and angle at step start,
# extent (px: spin times it is a speed), whether the shape is a circle (1/0), gravity scale.
(ROW_VX, ROW_VY, ROW_W, ROW_INV_MASS, ROW_INV_INERTIA, ROW_X, ROW_Y, ROW_ANGLE, ROW_EXTENT, ROW_CIRCLE,
 ROW_GRAVITY_SCALE) = range(11)
ROW_COLUMNS = 11

# Columns of the contact table (m, TABLE_COLUMNS), in colour order: unit normal (A to B), mixed friction and
# restitution, flags (1.0 = yes) "stiff" (A does not give way, or the pair's masses are uneven) and "static" (A
# is static geometry: the position pass pushes B out of it), which points exist, the two points (px, world),
# their separations at step start (px), the friction anchors in A's and in B's frame, and "light".
(NX, NY, FRICTION, RESTITUTION, STIFF, STATIC, VALID0, VALID1, POINT0_X, POINT0_Y, POINT1_X, POINT1_Y, SEP0, SEP1,
 ANCHOR_A0_X, ANCHOR_A0_Y, ANCHOR_B0_X, ANCHOR_B0_Y, ANCHOR_A1_X, ANCHOR_A1_Y, ANCHOR_B1_X, ANCHOR_B1_Y,
 LIGHT) = range(23)
TABLE_COLUMNS = 23

# Per-contact constants (m, _CONSTANTS): normal and tangent effective masses per point (0 where the point is
# missing), the two normals' coupling, tangent 1 per tangent 0 impulse, tangent i per normal j impulse, whether
# the 2x2 block is used, the block inverse (negated) of hard and of soft points, the contact's (bias rate, mass
# scale, impulse scale), anchor drift along the tangent at step start (px), and the normal approach speed before
# the step (px/s, for restitution).
(NMASS0, NMASS1, TMASS0, TMASS1, K12, KT1T0, CROSS00, CROSS01, CROSS10, CROSS11, BLOCK, HARD_DIAG0, HARD_DIAG1,
 HARD_OFF, SOFT_DIAG0, SOFT_DIAG1, SOFT_OFF, RATE, MSCALE, ISCALE, DRIFT0, DRIFT1, RELATIVE0, RELATIVE1) = range(24)
_CONSTANTS = 24

# The Jacobian array (m, _JACOBIAN_COLUMNS), compact: the four rows normal 0, normal 1, tangent 0, tangent 1
# (position: the anchors' tangents), _ROW_WIDTH columns each: the unit vector (ux, uy) of the row, the lever arms
# of A and B in the velocity row and in the position row, and the velocity change per unit impulse along the
# row (A's vx, vy, w, B's). Row r over (A's vx, vy, w, B's) is (-ux, -uy, arm A, ux, uy, arm B), the position
# row with its own arms: two thirds of a dense (3, 4, 6) block, for the same numbers.
_VELOCITY_ROWS, _POSITION_ROWS = range(2)
_ROW_WIDTH = 12
_UX, _UY, _ARM_A, _ARM_B, _POSITION_ARM_A, _POSITION_ARM_B, _RESPONSE = range(7)
_JACOBIAN_COLUMNS = 4 * _ROW_WIDTH

# Accumulated impulses (m, 4), carried from step to step: normal 0, normal 1, tangent 0, tangent 1.
_N0, _N1, _T0, _T1 = range(4)


class _Solve(NamedTuple):
    """The arrays of one solve: the contacts' rows of A and B (m, 2), table, Jacobians, constants, impulses and
    largest normal impulses (m, 2); each row's velocity (R, 3), displacement (R, 3), and body numbers (R, 6:
    inverse mass, inverse inertia, centre x, y, angle, fastest spin allowed)."""

    pair: np.ndarray
    contact: np.ndarray
    jac: np.ndarray
    constants: np.ndarray
    impulse: np.ndarray
    max_normal: np.ndarray
    v: np.ndarray
    d: np.ndarray
    body: np.ndarray


_INV_MASS, _INV_INERTIA, _CENTER_X, _CENTER_Y, _ANGLE, _MAX_SPIN = range(6)


@helper
def _dot(jac, k, c, arm, state, a, b):
    """Row ``c`` (its first column) of contact ``k``'s Jacobian, with its arms at ``arm`` (velocity or position)
    after it, times rows ``a`` and ``b`` of ``state``: (-ux, -uy, arm A, ux, uy, arm B) . (A's, B's)."""
    ux, uy = jac[k, c + _UX], jac[k, c + _UY]  # (-ux, not a stored copy: the same number, a row narrower)
    return ((-ux) * state[a, 0] + (-uy) * state[a, 1] + jac[k, c + arm] * state[a, 2] + ux * state[b, 0]
            + uy * state[b, 1] + jac[k, c + arm + 1] * state[b, 2])


@helper
def _dots(jac, k, kind, state, a, b):
    """Rows 0-3 of contact ``k``'s Jacobian ``kind`` (velocity or position rows) times the rows ``a`` and ``b`` of
    ``state`` (R, 3). Straight-line code, as every helper of the per-contact loops that takes arrays: numba
    counts a reference to each array handed to an inlined helper whose body branches, at every contact."""
    arm = _ARM_A + 2 * kind
    return (_dot(jac, k, np.int64(0), arm, state, a, b), _dot(jac, k, np.int64(_ROW_WIDTH), arm, state, a, b),
            _dot(jac, k, 2 * _ROW_WIDTH, arm, state, a, b), _dot(jac, k, 3 * _ROW_WIDTH, arm, state, a, b))


@helper
def _set_rows(jac, k, r, ux, uy, arms):
    """Velocity and position row ``r`` of contact ``k``'s Jacobian along (``ux``, ``uy``), with the lever arms
    ``arms``: A's and B's of the velocity row, then of the position row."""
    c = r * _ROW_WIDTH
    jac[k, c + _UX], jac[k, c + _UY], jac[k, c + _ARM_A], jac[k, c + _ARM_B] = ux, uy, arms[0], arms[1]
    jac[k, c + _POSITION_ARM_A], jac[k, c + _POSITION_ARM_B] = arms[2], arms[3]


@helper
def _point_rows(contact, body, jac, trig, k, a, b, i):
    """Point ``i`` of contact ``k`` (rows ``a`` and ``b``): its velocity and position rows (all zero for a
    missing point). Lever arms run from each body's centre at step start to the point; the anchor rows use the
    friction anchors turned into the world's orientation (``trig``: each row's cos and sin). Returns the
    anchors' drift along the tangent. Straight-line (see :func:`_dots`)."""
    nx, ny = contact[k, NX], contact[k, NY]
    on = contact[k, VALID0 + i]  # (an invalid point's numbers are garbage: multiply them away)
    px, py = contact[k, POINT0_X + 2 * i], contact[k, POINT0_Y + 2 * i]
    rax, ray = px - body[a, _CENTER_X], py - body[a, _CENTER_Y]
    rbx, rby = px - body[b, _CENTER_X], py - body[b, _CENTER_Y]
    ax, ay = contact[k, ANCHOR_A0_X + 4 * i], contact[k, ANCHOR_A0_Y + 4 * i]
    bx, by = contact[k, ANCHOR_B0_X + 4 * i], contact[k, ANCHOR_B0_Y + 4 * i]
    qax, qay = trig[a, 0] * ax - trig[a, 1] * ay, trig[a, 1] * ax + trig[a, 0] * ay
    qbx, qby = trig[b, 0] * bx - trig[b, 1] * by, trig[b, 1] * bx + trig[b, 0] * by
    normal_a, normal_b = on * (ray * nx - rax * ny), on * (rbx * ny - rby * nx)
    _set_rows(jac, k, i, on * nx, on * ny, (normal_a, normal_b, normal_a, normal_b))
    _set_rows(jac, k, i + 2, on * ny, -on * nx, (on * (ray * ny + rax * nx), on * (-rbx * nx - rby * ny),
                                                    on * (qay * ny + qax * nx), on * (-qbx * nx - qby * ny)))
    gap = (body[b, _CENTER_X] - body[a, _CENTER_X]) * ny - (body[b, _CENTER_Y] - body[a, _CENTER_Y]) * nx
    return gap + (qbx - qax) * ny - (qby - qay) * nx


@helper
def _inverse(x, present):
    return 1.0 / x if present > 0.0 and x > 0.0 else 0.0


@helper
def _response(jac, k, r, ma, ia_i, mb, ib_i):
    """Velocity change per unit impulse along row ``r`` of contact ``k``: the velocity row scaled by each
    participant's inverse mass and inertia."""
    c = r * _ROW_WIDTH
    ux, uy, out = jac[k, c + _UX], jac[k, c + _UY], c + _RESPONSE
    jac[k, out], jac[k, out + 1], jac[k, out + 2] = ma * (-ux), ma * (-uy), ia_i * jac[k, c + _ARM_A]
    jac[k, out + 3], jac[k, out + 4], jac[k, out + 5] = mb * ux, mb * uy, ib_i * jac[k, c + _ARM_B]


@helper
def _masses(jac, constants, ma, ia_i, mb, ib_i, k, valid0, valid1):
    """Contact ``k``'s effective masses J M^-1 J^T, couplings and 2x2 block (into its row of ``constants``),
    from its rows' structure: every row's linear part is a unit vector (normal or tangent, perpendicular), so two
    rows meet in the sum of inverse masses or not at all, plus the rotational terms. Returns (kn0, kn1, k12,
    det)."""
    both, w = ma + mb, _ROW_WIDTH
    # The rotational part of velocity rows r and q meeting: ia_i * arm_a(r) * arm_a(q) + ib_i * arm_b(r) * arm_b(q).
    a0, a1, a2, a3 = jac[k, _ARM_A], jac[k, w + _ARM_A], jac[k, 2 * w + _ARM_A], jac[k, 3 * w + _ARM_A]
    b0, b1, b2, b3 = jac[k, _ARM_B], jac[k, w + _ARM_B], jac[k, 2 * w + _ARM_B], jac[k, 3 * w + _ARM_B]
    kn0, kn1 = both + ia_i * a0 * a0 + ib_i * b0 * b0, both + ia_i * a1 * a1 + ib_i * b1 * b1
    kt0, kt1 = both + ia_i * a2 * a2 + ib_i * b2 * b2, both + ia_i * a3 * a3 + ib_i * b3 * b3
    constants[k, NMASS0], constants[k, NMASS1] = _inverse(kn0, valid0), _inverse(kn1, valid1)
    constants[k, TMASS0], constants[k, TMASS1] = _inverse(kt0, valid0), _inverse(kt1, valid1)
    constants[k, CROSS00], constants[k, CROSS01] = ia_i * a2 * a0 + ib_i * b2 * b0, ia_i * a2 * a1 + ib_i * b2 * b1
    constants[k, CROSS10], constants[k, CROSS11] = ia_i * a3 * a0 + ib_i * b3 * b0, ia_i * a3 * a1 + ib_i * b3 * b1
    k12 = both + ia_i * a0 * a1 + ib_i * b0 * b1
    constants[k, K12], constants[k, KT1T0] = k12, both + ia_i * a3 * a2 + ib_i * b3 * b2
    return kn0, kn1, k12, kn0 * kn1 - k12 * k12


@kernel
def _prepare(s, params, trig):
    """Every contact's Jacobian and constants for this step (``trig``: each row's cos and sin)."""
    pair, contact, jac, constants, body, v = s.pair, s.contact, s.jac, s.constants, s.body, s.v  # (bound once)
    for k in range(len(pair)):
        a, b = pair[k, 0], pair[k, 1]
        first = STIFF_RATE if contact[k, STIFF] > 0.0 else SOFT_RATE
        constants[k, RATE], constants[k, MSCALE] = params[first], params[first + 1]
        constants[k, ISCALE] = params[first + 2]
        for i in range(2):  # (a loop, not literal 0 and 1: numba would compile the helper once for each literal)
            constants[k, DRIFT0 + i] = _point_rows(contact, body, jac, trig, k, a, b, i)
        ma, mb, ia_i, ib_i = body[a, _INV_MASS], body[b, _INV_MASS], body[a, _INV_INERTIA], body[b, _INV_INERTIA]
        for row in range(4):
            _response(jac, k, row, ma, ia_i, mb, ib_i)
        kn0, kn1, k12, det = _masses(jac, constants, ma, ia_i, mb, ib_i, k, contact[k, VALID0], contact[k, VALID1])
        # Two-point contacts well enough conditioned (k11^2 / det below the limit) are solved as one block.
        block = contact[k, VALID0] > 0.0 and contact[k, VALID1] > 0.0 and kn0 * kn0 < params[BLOCK_LIMIT] * det
        inv_det = 1.0 / det if block else 0.0
        constants[k, BLOCK] = 1.0 if block else 0.0
        constants[k, HARD_DIAG0], constants[k, HARD_DIAG1] = -inv_det * kn1, -inv_det * kn0
        constants[k, HARD_OFF] = inv_det * k12
        soft_a = -constants[k, MSCALE] * inv_det
        constants[k, SOFT_DIAG0], constants[k, SOFT_DIAG1], constants[k, SOFT_OFF] = soft_a * kn1, soft_a * kn0, \
            -soft_a * k12
        relative0, relative1, _, _ = _dots(jac, k, np.int64(_VELOCITY_ROWS), v, a, b)
        constants[k, RELATIVE0], constants[k, RELATIVE1] = relative0, relative1


@helper
def _apply(jac, v, k, a, b, n0, n1, t0, t1):
    """Add contact ``k``'s velocity change for impulses ``n0``, ``n1`` (normals), ``t0``, ``t1`` to rows ``a``
    and ``b`` of ``v`` (a fixed row's change is zero: its response terms are). Straight-line (see
    :func:`_dots`), and as small as that: LLVM inlines it into the solve's loop only below a size."""
    r0, r1, r2, r3 = _RESPONSE, _ROW_WIDTH + _RESPONSE, 2 * _ROW_WIDTH + _RESPONSE, 3 * _ROW_WIDTH + _RESPONSE
    v[a, 0] += jac[k, r0] * n0 + jac[k, r1] * n1 + jac[k, r2] * t0 + jac[k, r3] * t1
    v[a, 1] += jac[k, r0 + 1] * n0 + jac[k, r1 + 1] * n1 + jac[k, r2 + 1] * t0 + jac[k, r3 + 1] * t1
    v[a, 2] += jac[k, r0 + 2] * n0 + jac[k, r1 + 2] * n1 + jac[k, r2 + 2] * t0 + jac[k, r3 + 2] * t1
    v[b, 0] += jac[k, r0 + 3] * n0 + jac[k, r1 + 3] * n1 + jac[k, r2 + 3] * t0 + jac[k, r3 + 3] * t1
    v[b, 1] += jac[k, r0 + 4] * n0 + jac[k, r1 + 4] * n1 + jac[k, r2 + 4] * t0 + jac[k, r3 + 4] * t1
    v[b, 2] += jac[k, r0 + 5] * n0 + jac[k, r1 + 5] * n1 + jac[k, r2 + 5] * t0 + jac[k, r3 + 5] * t1


@kernel
def _warm_start(s, change):
    """Apply last step's accumulated impulses (summed per row first in ``change``, shaped as the velocities:
    a body is in many contacts)."""
    pair, jac, impulse, v = s.pair, s.jac, s.impulse, s.v  # (bound once: see :func:`_dots`)
    for r in range(len(change)):
        change[r, 0] = change[r, 1] = change[r, 2] = 0.0
    for k in range(len(pair)):
        _apply(jac, change, k, pair[k, 0], pair[k, 1], impulse[k, _N0], impulse[k, _N1], impulse[k, _T0],
               impulse[k, _T1])
    for r in range(len(change)):
        for j in range(3):
            v[r, j] += change[r, j]


@helper
def _clamp(x, low, high):
    return min(max(x, low), high)


@helper
def _normal_terms(use_bias, sep0, sep1, acc0, acc1, rate, push_max, inv_h, hard, soft, nmass0, nmass1, mscale,
                  iscale, block):
    """A contact's normal solve terms for this pass, with the bias folded in (constant over the pass: its
    impulses change only when its own colour is solved): (block usable, diag 0, diag 1, off, block base 0,
    block base 1, gain 0, gain 1, point base 0, point base 1). The block impulse is ``diag * vn + off *
    swapped(vn) + block base``; one point at a time, the new accumulated impulse is ``max(point base - gain *
    vn, 0)``. ``use_bias``: soft position correction (the solve); without it only speculative points keep
    their bias (the relax). ``hard`` and ``soft``: the block's (diag 0, diag 1, off) of each kind."""
    spec0, spec1 = sep0 > 0.0, sep1 > 0.0  # speculative points: hard (they only stop an approach)
    if not use_bias:  # the relax: hard contacts (mass scale 1, impulse scale 0)
        bias0 = sep0 * inv_h if spec0 else 0.0
        bias1 = sep1 * inv_h if spec1 else 0.0
        diag0, diag1, off = hard
        return (block, diag0, diag1, off, diag0 * bias0 + off * bias1, diag1 * bias1 + off * bias0, nmass0, nmass1,
                acc0 - nmass0 * bias0, acc1 - nmass1 * bias1)
    bias0 = sep0 * inv_h if spec0 else max(rate * sep0, -push_max)
    bias1 = sep1 * inv_h if spec1 else max(rate * sep1, -push_max)
    diag0, diag1, off = hard if spec0 else soft
    keep = 0.0 if spec0 else iscale
    g0 = nmass0 if spec0 else nmass0 * mscale
    g1 = nmass1 if spec1 else nmass1 * mscale
    point0 = (1.0 if spec0 else 1.0 - iscale) * acc0 - g0 * bias0
    point1 = (1.0 if spec1 else 1.0 - iscale) * acc1 - g1 * bias1
    return (block and spec0 == spec1, diag0, diag1, off, diag0 * bias0 + off * bias1 - keep * acc0,
            diag1 * bias1 + off * bias0 - keep * acc1, g0, g1, point0, point1)


@helper
def _friction_terms(use_bias, t0, t1, tmass0, tmass1, drift0, drift1, anchor, push_max):
    """A contact's friction terms for this pass: (gain 0, gain 1, base 0, base 1); the new accumulated tangent
    impulse is ``base - gain * vt``, clamped to the friction cone. In the solve, the anchors' drift (px, held by
    a soft spring) is the bias; in the relax, none."""
    if not use_bias:
        return tmass0, tmass1, t0, t1
    rate, mscale, iscale = anchor
    bias0 = _clamp(rate * drift0, -push_max, push_max)
    bias1 = _clamp(rate * drift1, -push_max, push_max)
    g0, g1 = tmass0 * mscale, tmass1 * mscale
    return g0, g1, (1.0 - iscale) * t0 - g0 * bias0, (1.0 - iscale) * t1 - g1 * bias1


@kernel
def _solve_pass(s, colour_starts, colour_light, use_bias, params):
    """One pass over all colours, in order: the solve (``use_bias``: soft position correction, the anchors'
    drift) or the relax. Each contact: the two normals (as a 2x2 block when it is usable and pushes at both
    points, else point 0 then point 1), then friction at each point (none for a light contact). Reads the
    arrays, computes on scalars (:func:`_normal_terms`, :func:`_friction_terms`), writes back."""
    pair, contact, jac, constants, impulse, max_normal, v, d = s.pair, s.contact, s.jac, s.constants, s.impulse, \
        s.max_normal, s.v, s.d  # (bound once: see :func:`_dots`)
    inv_h, push_max = params[SUBSTEPS] / params[DT], params[PUSH_MAX]
    anchor = (params[ANCHOR_RATE], params[ANCHOR_MASS], params[ANCHOR_IMPULSE])
    # Each row's product alone (:func:`_dot`), and only those this pass reads: a light contact's tangents are
    # not solved, and the relax does not hold the anchors (their drift). (The columns as np.int64: one version.)
    normal0, normal1, tangent0, tangent1 = np.int64(0), np.int64(_ROW_WIDTH), np.int64(2 * _ROW_WIDTH), \
        np.int64(3 * _ROW_WIDTH)
    velocity_arm, position_arm = np.int64(_ARM_A), np.int64(_POSITION_ARM_A)
    for colour in range(len(colour_light)):
        light = colour_light[colour]
        for k in range(colour_starts[colour], colour_starts[colour + 1]):
            a, b = pair[k, 0], pair[k, 1]
            vn0, vn1 = _dot(jac, k, normal0, velocity_arm, v, a, b), _dot(jac, k, normal1, velocity_arm, v, a, b)
            # (A normal's position row is its velocity row; the anchors' rows are the position rows' tangents.)
            moved0 = _dot(jac, k, normal0, position_arm, d, a, b)
            moved1 = _dot(jac, k, normal1, position_arm, d, a, b)
            vt0 = vt1 = drifted0 = drifted1 = 0.0
            if not light:
                vt0 = _dot(jac, k, tangent0, velocity_arm, v, a, b)
                vt1 = _dot(jac, k, tangent1, velocity_arm, v, a, b)
            if not light and use_bias:
                drifted0 = _dot(jac, k, tangent0, position_arm, d, a, b)
                drifted1 = _dot(jac, k, tangent1, position_arm, d, a, b)
            sep0, sep1 = contact[k, SEP0] + moved0, contact[k, SEP1] + moved1
            drift0, drift1 = constants[k, DRIFT0] + drifted0, constants[k, DRIFT1] + drifted1
            acc0, acc1, t0, t1 = impulse[k, _N0], impulse[k, _N1], impulse[k, _T0], impulse[k, _T1]
            hard = (constants[k, HARD_DIAG0], constants[k, HARD_DIAG1], constants[k, HARD_OFF])
            soft = (constants[k, SOFT_DIAG0], constants[k, SOFT_DIAG1], constants[k, SOFT_OFF])
            same, diag0, diag1, off, base0, base1, g0, g1, point0, point1 = _normal_terms(
                use_bias, sep0, sep1, acc0, acc1, constants[k, RATE], push_max, inv_h, hard, soft,
                constants[k, NMASS0], constants[k, NMASS1], constants[k, MSCALE], constants[k, ISCALE],
                constants[k, BLOCK] > 0.0)
            n0 = diag0 * vn0 + off * vn1 + base0
            n1 = diag1 * vn1 + off * vn0 + base1
            if light or not (same and n0 >= -acc0 and n1 >= -acc1):
                n0 = max(point0 - g0 * vn0, 0.0) - acc0
                n1 = max(point1 - g1 * (vn1 + constants[k, K12] * n0), 0.0) - acc1
            acc0, acc1 = acc0 + n0, acc1 + n1
            if use_bias:  # (restitution asks whether the solve pushed a point)
                max_normal[k, 0], max_normal[k, 1] = max(max_normal[k, 0], n0), max(max_normal[k, 1], n1)
            f0 = f1 = 0.0
            if not light:  # friction after the normals, held at the anchors while static (the solve)
                tg0, tg1, tbase0, tbase1 = _friction_terms(use_bias, t0, t1, constants[k, TMASS0],
                                                           constants[k, TMASS1], drift0, drift1, anchor, push_max)
                mu = contact[k, FRICTION]
                vt0 += constants[k, CROSS00] * n0 + constants[k, CROSS01] * n1
                vt1 += constants[k, CROSS10] * n0 + constants[k, CROSS11] * n1
                new0 = _clamp(tbase0 - tg0 * vt0, -mu * acc0, mu * acc0)
                f0 = new0 - t0
                new1 = _clamp(tbase1 - tg1 * (vt1 + constants[k, KT1T0] * f0), -mu * acc1, mu * acc1)
                f1 = new1 - t1
                t0, t1 = new0, new1
            impulse[k, _N0], impulse[k, _N1], impulse[k, _T0], impulse[k, _T1] = acc0, acc1, t0, t1
            _apply(jac, v, k, a, b, n0, n1, f0, f1)


@kernel
def _integrate_velocities(gravity_scale, params, v, h):
    """Gravity, damping and the speed cap for the dynamic rows over one substep of ``h`` seconds."""
    linear = 1.0 / (1.0 + h * params[LINEAR_DAMPING])
    angular = 1.0 / (1.0 + h * params[ANGULAR_DAMPING])
    top = params[MAX_SPEED]
    for r in range(len(gravity_scale)):
        scale = gravity_scale[r]
        v[r, 0] += h * (params[SOLVE_GRAVITY_X] * scale)
        v[r, 1] += h * (params[SOLVE_GRAVITY_Y] * scale)
        if linear != 1.0:
            v[r, 0] *= linear
            v[r, 1] *= linear
        if angular != 1.0:
            v[r, 2] *= angular
        if abs(v[r, 0]) + abs(v[r, 1]) <= 0.99 * top:
            continue  # (the speed is at most that sum: far below the cap, without the square root)
        speed = length(v[r, 0], v[r, 1])
        if speed > top:
            v[r, 0] *= top / speed
            v[r, 1] *= top / speed


@kernel
def _integrate_positions(v, d, h):
    """Every row's displacement this step grows by its velocity over ``h`` seconds."""
    for r in range(len(v)):
        for j in range(3):
            d[r, j] += h * v[r, j]


@kernel
def _cap_spin(body, v, dynamic_rows):
    """Keep each dynamic row's spin within its fastest allowed: separations during a step are linear in the turn
    (the error is about extent x turn^2 / 2), so a crate struck hard at a corner must not turn so far in one
    step that its corner goes through the floor unseen."""
    for r in range(dynamic_rows):
        v[r, 2] = _clamp(v[r, 2], -body[r, _MAX_SPIN], body[r, _MAX_SPIN])


@kernel
def _restitution(s, params):
    """Once after the substeps: points that approached faster than the threshold and were pushed bounce back
    at their restitution times the approach speed."""
    threshold = params[RESTITUTION_THRESHOLD]
    pair, contact, jac, constants, impulse, max_normal, v = s.pair, s.contact, s.jac, s.constants, s.impulse, \
        s.max_normal, s.v
    for k in range(len(pair)):
        e, acc0, acc1 = contact[k, RESTITUTION], impulse[k, _N0], impulse[k, _N1]
        relative0, relative1 = constants[k, RELATIVE0], constants[k, RELATIVE1]
        fast0 = relative0 < -threshold and max_normal[k, 0] > 0.0 and e > 0.0
        fast1 = relative1 < -threshold and max_normal[k, 1] > 0.0 and e > 0.0
        if not (fast0 or fast1):
            continue  # (no bounce: the impulses stay, nothing to apply)
        a, b = pair[k, 0], pair[k, 1]
        vn0, vn1, _, _ = _dots(jac, k, np.int64(_VELOCITY_ROWS), v, a, b)
        new0 = max(acc0 - constants[k, NMASS0] * (vn0 + e * relative0), 0.0)
        n0 = new0 - acc0 if fast0 else 0.0
        new1 = max(acc1 - constants[k, NMASS1] * (vn1 + constants[k, K12] * n0 + e * relative1), 0.0)
        n1 = new1 - acc1 if fast1 else 0.0
        impulse[k, _N0], impulse[k, _N1] = acc0 + n0, acc1 + n1
        _apply(jac, v, k, a, b, n0, n1, 0.0, 0.0)


@helper
def _nearest(contact, jac, d, k, a, b):
    """Contact ``k``'s smaller separation now (px; this step's linear estimate), inf when it has no point."""
    arm = np.int64(_POSITION_ARM_A)  # (the normals' rows alone: see _solve_pass)
    moved0, moved1 = _dot(jac, k, np.int64(0), arm, d, a, b), _dot(jac, k, np.int64(_ROW_WIDTH), arm, d, a, b)
    first = contact[k, SEP0] + moved0 if contact[k, VALID0] > 0.0 else np.inf
    second = contact[k, SEP1] + moved1 if contact[k, VALID1] > 0.0 else np.inf
    return min(first, second)


@helper
def _held(support, row, ux, uy):
    """Whether moving ``row`` along (``ux``, ``uy``) would push it into what holds it up (``support``: the sum of
    the normals it rests against, from static geometry or a held body)."""
    sx, sy = support[row, 0], support[row, 1]
    return sx * ux + sy * uy < -0.5 * length(sx, sy)


@kernel
def _propagate_shock(s, dyn, limit):
    """Position-level shock propagation for body pairs: two bodies overlapping more than ``limit`` px are
    moved apart to that depth, but a body resting on the level (or on a body that rests on it) is not moved into
    what holds it: its partner takes the whole correction. A light crate under a heavy one is not driven into
    the floor, and the heavy one stops sinking into it. Each moved pair also loses its approach speed. Three
    rounds reach three bodies up a stack per step."""
    support = np.zeros((dyn, 2))
    pair, contact, jac, v, d, body = s.pair, s.contact, s.jac, s.v, s.d, s.body
    for k in range(len(pair)):
        b = pair[k, 1]
        if contact[k, STATIC] > 0.0 and b < dyn and _nearest(contact, jac, d, k, pair[k, 0], b) < limit:
            support[b, 0] += contact[k, NX]
            support[b, 1] += contact[k, NY]
    for _ in range(3):
        moved = False
        for k in range(len(pair)):
            if contact[k, STATIC] > 0.0:
                continue
            a, b = pair[k, 0], pair[k, 1]
            deficit = -limit - _nearest(contact, jac, d, k, a, b)
            if not deficit > 1e-9:
                continue
            nx, ny = contact[k, NX], contact[k, NY]
            wa = body[a, _INV_MASS] if a < dyn and not _held(support, a, -nx, -ny) else 0.0
            wb = body[b, _INV_MASS] if b < dyn and not _held(support, b, nx, ny) else 0.0
            if not wa + wb > 0.0:
                continue  # both held (wedged): the solver's business
            fa, fb = wa / (wa + wb), wb / (wa + wb)
            approach = min((v[b, 0] - v[a, 0]) * nx + (v[b, 1] - v[a, 1]) * ny, 0.0)
            for j in range(2):
                n = nx if j == 0 else ny
                d[a, j] -= n * deficit * fa
                d[b, j] += n * deficit * fb
                v[a, j] += n * approach * fa
                v[b, j] -= n * approach * fb
                if b < dyn and fa == 0.0:  # b now rests on a held body
                    support[b, j] += n
                if a < dyn and fb == 0.0:
                    support[a, j] -= n
            moved = True
        if not moved:
            return


@kernel
def _push_out(s, dyn, limit):
    """A position pass (two rounds, for bodies in a corner): a body sunk more than ``limit`` px into static
    geometry is moved back out to that depth along the normal and loses its velocity into the surface. Per
    body the largest push each way along x and along y is taken (two points of one floor must not add up);
    in a wedge, where those leave the body inside one of two surfaces (their pushes along an axis cancel),
    the one move that takes it out of both (:func:`_wedge`)."""
    up, down, change = np.zeros((dyn, 2)), np.zeros((dyn, 2)), np.zeros((dyn, 2))
    deepest, other = np.zeros((dyn, 4)), np.zeros((dyn, 4))  # (normal x, y, deficit, 1.0: there is one)
    pair, contact, jac, v, d = s.pair, s.contact, s.jac, s.v, s.d
    for _ in range(2):
        for r in range(dyn):
            up[r, 0] = up[r, 1] = down[r, 0] = down[r, 1] = change[r, 0] = change[r, 1] = 0.0
            deepest[r, 3] = other[r, 3] = 0.0
        moved = False
        for k in range(len(pair)):
            b = pair[k, 1]
            if not (contact[k, STATIC] > 0.0 and b < dyn):
                continue
            deficit = -limit - _nearest(contact, jac, d, k, pair[k, 0], b)
            if deficit > -_AT_LIMIT:  # (at the limit: no push, but a wedge's other side must not be pushed into)
                _keep_pushes(deepest, other, b, contact[k, NX], contact[k, NY], max(deficit, 0.0))
            if not deficit > 1e-9:
                continue
            moved = True
            into = min(v[b, 0] * contact[k, NX] + v[b, 1] * contact[k, NY], 0.0)
            for j in range(2):
                n = contact[k, NX + j]
                up[b, j] = max(up[b, j], max(n * deficit, 0.0))
                down[b, j] = min(down[b, j], min(n * deficit, 0.0))
                change[b, j] += n * into
        if not moved:
            return
        for r in range(dyn):
            px, py = _wedge(deepest, other, r, up[r, 0] + down[r, 0], up[r, 1] + down[r, 1])
            d[r, 0] += px
            d[r, 1] += py
            for j in range(2):
                v[r, j] -= change[r, j]


_AT_LIMIT = 0.05
"""Pixels: a static contact this close to the push-out depth, or deeper, is a side of a wedge (see :func:`_wedge`)."""


@helper
def _keep_pushes(deepest, other, b, nx, ny, deficit):
    """Keep, of body ``b``'s pushes out of static geometry (``deficit`` px, 0 at the limit), the deepest and the
    deepest of those turned from it by more than about 25 degrees (rows: normal x, y, deficit, 1.0 when kept)."""
    if deepest[b, 3] == 0.0 or deficit > deepest[b, 2]:
        if deepest[b, 3] > 0.0 and deepest[b, 0] * nx + deepest[b, 1] * ny < 0.9:
            other[b, 0], other[b, 1], other[b, 2], other[b, 3] = deepest[b, 0], deepest[b, 1], deepest[b, 2], 1.0
        deepest[b, 0], deepest[b, 1], deepest[b, 2], deepest[b, 3] = nx, ny, deficit, 1.0
    elif (other[b, 3] == 0.0 or deficit > other[b, 2]) and deepest[b, 0] * nx + deepest[b, 1] * ny < 0.9:
        other[b, 0], other[b, 1], other[b, 2], other[b, 3] = nx, ny, deficit, 1.0


@helper
def _wedge(deepest, other, r, px, py):
    """Body ``r``'s move out of static geometry: (``px``, ``py``), the largest pushes along the axes, unless two
    of its pushes meet at an angle that those leave it inside of (a wedge: a floor and a slope over it); then
    the move that takes it out of one and not into the other (the two normals' 2x2 system: back the way it
    came); not for two surfaces nearly facing each other (it does not fit between them: it is left)."""
    ax, ay, da = deepest[r, 0], deepest[r, 1], deepest[r, 2]
    bx, by, db = other[r, 0], other[r, 1], other[r, 2]
    if other[r, 3] == 0.0 or (px * ax + py * ay >= da - 1e-9 and px * bx + py * by >= db - 1e-9):
        return px, py
    det = ax * by - ay * bx
    if abs(det) < 0.2:  # (within about 12 degrees of facing each other: no way out that is not a fling)
        return px, py
    return (da * by - db * ay) / det, (ax * db - bx * da) / det


# ------------------------------------------------------------------------------------------ colours
_OVERFLOW = 62
"""The last colour: contacts of a body that already has this many colours all go here (solved one after the
other like any colour, they are correct, only no longer independent; it takes a body in 62 contacts)."""


@kernel
def colour_order(pair, dynamic_rows, light):
    """Graph colours of the contacts (``pair``: rows of A and B; the first ``dynamic_rows`` rows are dynamic;
    fixed rows never conflict): each contact takes the lowest colour neither of its dynamic rows has yet (bit
    masks per row); the full (not ``light``) contacts first, then the light ones, which fill the gaps and open
    light colours only for the rest. Returns the contacts in colour order (a stable counting sort), each colour's
    first contact (and the end) and which colours are light."""
    used = np.zeros(dynamic_rows + 1, np.int64)
    fixed = dynamic_rows  # every fixed row shares this slot, cleared after each contact: it never conflicts
    colour, sizes = np.zeros(len(pair), np.int64), np.zeros(64, np.int64)
    full_colours = 0
    for want in (False, True):
        for k in range(len(pair)):
            if light[k] != want:
                continue
            a, b = min(pair[k, 0], fixed), min(pair[k, 1], fixed)
            taken, c = used[a] | used[b], 0
            while c < _OVERFLOW and (taken >> c) & 1:
                c += 1
            used[a] |= np.int64(1) << c
            used[b] |= np.int64(1) << c
            used[fixed] = 0
            colour[k] = c
            sizes[c] += 1
            if not want:
                full_colours = max(full_colours, c + 1)
    present = 0
    for c in range(64):
        present += sizes[c] > 0
    starts, light_colours = np.zeros(present + 1, np.int64), np.zeros(present, np.bool_)
    first, at, i = np.zeros(64, np.int64), 0, 0
    for c in range(64):
        first[c] = at
        at += sizes[c]
        if sizes[c]:
            starts[i + 1], light_colours[i] = at, c >= full_colours
            i += 1
    order = np.empty(len(pair), np.int64)
    for k in range(len(pair)):
        order[first[colour[k]]] = k
        first[colour[k]] += 1
    return order, starts, light_colours


# ------------------------------------------------------------------------------------------ the solve
@helper
def _bodies(rows, dynamic_rows, max_rotation_error, dt):
    """The solve's body numbers (R, 6) from the rows: inverse mass and inertia, placement at step start, and the
    fastest spin that keeps a turn's error in the step's linear separations within ``max_rotation_error`` px
    (none for a circle, whose contacts do not change as it turns)."""
    body = np.zeros((len(rows), 6))
    for r in range(len(rows)):
        body[r, _INV_MASS], body[r, _INV_INERTIA] = rows[r, ROW_INV_MASS], rows[r, ROW_INV_INERTIA]
        body[r, _CENTER_X], body[r, _CENTER_Y], body[r, _ANGLE] = rows[r, ROW_X], rows[r, ROW_Y], rows[r, ROW_ANGLE]
        if r < dynamic_rows:
            reach = 0.0 if rows[r, ROW_CIRCLE] > 0.0 else rows[r, ROW_EXTENT]
            body[r, _MAX_SPIN] = math.sqrt(2.0 * max_rotation_error / max(reach, 1e-12)) / dt
    return body


@inlined
def solve(rows, dynamic_rows, pair, table, impulse, colours, params, max_rotation_error):
    """Solve one step's contacts (``pair``: rows of A and B; ``table``: their numbers, see
    :data:`TABLE_COLUMNS`; ``impulse`` (m, 4): their accumulated impulses, updated in place; all in colour
    order, ``colours``: each colour's first contact and the end, and which colours are light, see
    :func:`colour_order`) and move the rows (``rows``: see :data:`ROW_COLUMNS`, the first ``dynamic_rows`` awake
    bodies; their velocities are updated in place). ``params``: one row of the solve's parameters;
    ``max_rotation_error`` px. Returns every row's displacement (R, 3) and which points slid (m, 2): their
    friction ended the step at the cone's edge."""
    m, count = len(pair), len(rows)
    starts, light_colours = colours
    v = np.empty((count, 3))
    for r in range(count):
        for j in range(3):
            v[r, j] = rows[r, ROW_VX + j]
    s = _Solve(pair, table, np.empty((m, _JACOBIAN_COLUMNS)), np.zeros((m, _CONSTANTS)), impulse, np.zeros((m, 2)), v,
               np.zeros((count, 3)), _bodies(rows, dynamic_rows, max_rotation_error, params[DT]))
    trig = np.empty((count, 2))
    for r in range(count):
        trig[r, 0], trig[r, 1] = math.cos(rows[r, ROW_ANGLE]), math.sin(rows[r, ROW_ANGLE])
    _prepare(s, params, trig)
    gravity_scale, change = np.empty(dynamic_rows), np.zeros((count, 3))
    for r in range(dynamic_rows):
        gravity_scale[r] = rows[r, ROW_GRAVITY_SCALE]
    substeps = int(params[SUBSTEPS])
    h = params[DT] / substeps
    solving = substeps > 0  # (True, False: not literals, which would compile a version of the pass each)
    relaxing = not solving
    for _ in range(substeps):
        _integrate_velocities(gravity_scale, params, s.v, h)
        _cap_spin(s.body, s.v, dynamic_rows)  # (before the solve too: a spin set by game code drives no contact)
        if m:
            _warm_start(s, change)
            _solve_pass(s, starts, light_colours, solving, params)
        _cap_spin(s.body, s.v, dynamic_rows)
        _integrate_positions(s.v, s.d, h)
        if m:
            _solve_pass(s, starts, light_colours, relaxing, params)
    if m:
        _restitution(s, params)
        limit = params[MAX_STATIC_OVERLAP]
        _push_out(s, dynamic_rows, limit)
        _propagate_shock(s, dynamic_rows, limit)
        _push_out(s, dynamic_rows, limit)
    for r in range(count):
        for j in range(3):
            rows[r, ROW_VX + j] = s.v[r, j]
    sliding = np.empty((m, 2), np.bool_)
    for k in range(m):
        for i in range(2):
            sliding[k, i] = abs(impulse[k, _T0 + i]) >= table[k, FRICTION] * impulse[k, _N0 + i] * (1.0 - 1e-9)
    return s.d, sliding
