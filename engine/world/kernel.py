"""The rigid-body solve, compiled: Box2D v3's soft step over contacts in graph-colour order (numba).

:func:`solve_step` runs everything a step does once its contacts are known: per-contact constants (lever
arms, Jacobian rows, effective masses, soft-constraint coefficients), then ``substeps`` times integrate
velocities (gravity, damping, speed cap), warm start, solve, integrate positions and relax; then restitution,
and the position pass that keeps a light body from being pressed into static geometry under a heavy one.
See :mod:`engine.world.solver` for what each part does and why; this module is the arithmetic, one contact at
a time, in a fixed order (bit-identical results for the same inputs; no fastmath).

State rows: the awake dynamic bodies first (``dynamic_rows`` of them), then fixed rows (static geometry,
kinematic bodies, characters, sleepers) whose inverse mass is zero. A row's velocity is (vx, vy, w) in
px/s, px/s, rad/s; its displacement this step (dx, dy, da) in px, px, rad. A contact's normal points from A
to B: a positive relative normal velocity separates. The tangent is t = (ny, -nx).

Colours: no two contacts of one colour share a dynamic body, so solving a colour's contacts one after the
other gives the same result as solving them at once; colours follow each other (Gauss-Seidel).

Data layout: a few 2D float arrays with named columns (``NX``, ``SEP0``, ...) rather than tuples of many
arrays: it keeps numba's type inference (the cold compile) short and the per-contact loops free of
reference counting. The loops read a contact's numbers first, compute on scalars, then write back.

Compiled functions are cached on disk (``cache=True``): in the package's ``__pycache__`` when it is writable,
otherwise in numba's per-user cache directory (``NUMBA_CACHE_DIR`` overrides). :func:`engine.warm_up`
compiles everything ahead on a tiny scene.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

__all__ = ["BODY_COLUMNS", "CONTACT_COLUMNS", "PARAMETERS", "angle_trig", "compile_steps", "shaped", "solve_into",
           "solve_scratch_size", "solve_step"]

_jit = numba.njit(cache=True, nogil=True, fastmath=False)
"""How every kernel entry point is compiled: cached, no fastmath (fastmath reorders sums: results would
depend on the compiler, and replays on one machine must stay bit-identical)."""
_without_runtime = numba.njit(cache=True, nogil=True, fastmath=False, _nrt=False)  # type: ignore[call-overload]
"""The per-contact loops: compiled without numba's runtime, as they allocate nothing (their callers make the
arrays). With the runtime, numba counts references to every array handed to an inlined helper whose body
branches, in and out at every contact of every pass: a third of the solve. Without it there is nothing to
count."""


@intrinsic
def shaped(typingctx, flat, shape):
    """``flat`` (a C-contiguous array of exactly ``prod(shape)`` items) seen as a C-contiguous array of
    ``shape`` (a tuple of ints), sharing its memory: what ``flat.reshape(shape)`` gives, without numba's
    general reshape (a call into its helper library that tries every layout, some 8 ns: the step carves some
    sixty arrays out of a few buffers). The size is not checked: the carving code computes it."""
    if not (isinstance(flat, types.Array) and flat.layout == "C" and isinstance(shape, types.UniTuple)
            and isinstance(shape.dtype, types.Integer)):
        return None
    result = flat.copy(ndim=shape.count, layout="C")

    def codegen(context, builder, signature, args):
        source = make_array(signature.args[0])(context, builder, args[0])
        view = make_array(result)(context, builder)
        sizes = [builder.sext(size, cgutils.intp_t) if size.type != cgutils.intp_t else size
                 for size in cgutils.unpack_tuple(builder, args[1])]
        stride = source.itemsize
        strides = []
        for size in reversed(sizes):
            strides.insert(0, stride)
            stride = builder.mul(stride, size)
        populate_array(view, data=source.data, shape=sizes, strides=strides, itemsize=source.itemsize,
                       meminfo=source.meminfo, parent=source.parent)
        return impl_ret_borrowed(context, builder, result, view._getvalue())  # noqa: SLF001 (numba's struct API)

    return result(flat, shape), codegen


_inline = numba.njit(inline="always", fastmath=False)
"""Helpers of the per-contact loops, inlined where called (numba's typing of a function grows fast with its
size, so only the small helpers are inlined, and each loop is its own compiled function)."""

# Columns of the ``body`` array (rows, 6): inverse mass, inverse inertia, centre x, y (px) and angle (rad) at
# step start, and the fastest spin (rad/s) the step lets it have (see :func:`_cap_spin`).
INV_MASS, INV_INERTIA, CENTER_X, CENTER_Y, ANGLE, MAX_SPIN = range(6)
BODY_COLUMNS = 6

# Columns of the ``contact`` array (m, 22): unit normal (A to B), mixed friction and restitution, flags (1.0 =
# yes) "stiff" (A does not give way: static, kinematic, character) and "static" (A is static geometry: the
# position pass pushes B out of it), which points exist, the two contact points (px, world), their
# separations at step start (px, negative = overlap), and the friction anchors in A's and in B's frame.
(NX, NY, FRICTION, RESTITUTION, STIFF, STATIC, VALID0, VALID1, POINT0_X, POINT0_Y, POINT1_X, POINT1_Y, SEP0, SEP1,
 ANCHOR_A0_X, ANCHOR_A0_Y, ANCHOR_A1_X, ANCHOR_A1_Y, ANCHOR_B0_X, ANCHOR_B0_Y, ANCHOR_B1_X, ANCHOR_B1_Y) = range(22)
CONTACT_COLUMNS = 22

# The ``params`` vector: step (s), substeps, dynamic rows, gravity (px/s^2), the (bias rate 1/s, mass scale,
# impulse scale) of soft contacts between bodies, of stiff contacts and of the friction anchors, then
# :class:`~engine.bodies.PhysicsConfig` values.
(DT, SUBSTEPS, DYNAMIC_ROWS, GRAVITY_X, GRAVITY_Y, SOFT_RATE, SOFT_MASS, SOFT_IMPULSE, STIFF_RATE, STIFF_MASS,
 STIFF_IMPULSE, ANCHOR_RATE, ANCHOR_MASS, ANCHOR_IMPULSE, PUSH_MAX, BLOCK_LIMIT, LINEAR_DAMPING, ANGULAR_DAMPING,
 MAX_SPEED, RESTITUTION_THRESHOLD, MAX_STATIC_OVERLAP) = range(21)
PARAMETERS = 21

# Per-contact constants made by :func:`_contact_constants` (m, 24): normal and tangent effective masses per
# point (0 where the point is missing), the two normals' coupling, tangent 1 per tangent 0 impulse, tangent i
# per normal j impulse, whether the 2x2 block is used, the block inverse (negated) of hard and of soft points,
# the contact's (bias rate, mass scale, impulse scale), anchor drift along the tangent at step start (px), and
# the normal approach speed before the step (px/s, for restitution).
(NMASS0, NMASS1, TMASS0, TMASS1, K12, KT1T0, CROSS00, CROSS01, CROSS10, CROSS11, BLOCK, HARD_DIAG0, HARD_DIAG1,
 HARD_OFF, SOFT_DIAG0, SOFT_DIAG1, SOFT_OFF, RATE, MSCALE, ISCALE, DRIFT0, DRIFT1, RELATIVE0, RELATIVE1) = range(24)
_CONSTANTS = 24

# The Jacobian array (m, 3, 4, 6): velocity rows, position rows, and velocity change per unit impulse; each
# with rows normal 0, normal 1, tangent 0, tangent 1 (position: anchor tangents) over (A's vx, vy, w, B's).
_VELOCITY_ROWS, _POSITION_ROWS, _RESPONSE = range(3)

# Accumulated impulses (m, 4), carried from step to step: normal 0, normal 1, tangent 0, tangent 1.
_N0, _N1, _T0, _T1 = range(4)


@_inline
def _pair_dot(jac, k, kind, r, state, a, b, a_still):
    """:func:`_dot6`, or B's half only when ``a_still`` (a compile-time constant): A is static geometry, whose
    row never moves (its terms are zeros; the sum is the same but for the sign of an exact zero)."""
    if a_still:
        return jac[k, kind, r, 3] * state[b, 0] + jac[k, kind, r, 4] * state[b, 1] + jac[k, kind, r, 5] * state[b, 2]
    return _dot6(jac, k, kind, r, state, a, b)


@_inline
def _dot6(jac, k, kind, r, state, a, b):
    """Row ``r`` of contact ``k``'s Jacobian ``kind`` times the pair's state: A's row ``a`` then B's row ``b``
    of ``state`` (rows, 3)."""
    return (jac[k, kind, r, 0] * state[a, 0] + jac[k, kind, r, 1] * state[a, 1] + jac[k, kind, r, 2] * state[a, 2]
            + jac[k, kind, r, 3] * state[b, 0] + jac[k, kind, r, 4] * state[b, 1] + jac[k, kind, r, 5] * state[b, 2])


@_inline
def _set_row(jac, k, kind, r, ux, uy, arm_a, arm_b):
    """Row ``r`` of contact ``k``'s Jacobian ``kind`` along (``ux``, ``uy``) with its lever arms (A's negated)."""
    jac[k, kind, r, 0], jac[k, kind, r, 1], jac[k, kind, r, 2] = -ux, -uy, arm_a
    jac[k, kind, r, 3], jac[k, kind, r, 4], jac[k, kind, r, 5] = ux, uy, arm_b


@_inline
def _rotated(x, y, trig, row):
    """(``x``, ``y``) turned by row ``row``'s angle (``trig``: each row's cos and sin)."""
    c, s = trig[row, 0], trig[row, 1]
    return c * x - s * y, s * x + c * y


@_jit
def angle_trig(angle):
    """Each angle's cos and sin ((n, 2)): made once a step per row, not for every contact point (a body is in
    several contacts of two points each; cos and sin were most of the constants' time)."""
    trig = np.empty((len(angle), 2))
    for r in range(len(angle)):
        trig[r, 0], trig[r, 1] = math.cos(angle[r]), math.sin(angle[r])
    return trig


@_inline
def _point_rows(k, i, contact, body, a, b, jac, trig):
    """Point ``i`` of contact ``k``: its velocity and position rows (all zero for a missing point). Lever arms
    run from each body's centre at step start to the point; the anchor rows use the friction anchors turned
    into the world's orientation (``trig``: each row's cos and sin)."""
    nx, ny = contact[k, NX], contact[k, NY]
    on = contact[k, VALID0 + i]  # (an invalid point's numbers are garbage: multiply them away)
    rax, ray = contact[k, POINT0_X + 2 * i] - body[a, CENTER_X], contact[k, POINT0_Y + 2 * i] - body[a, CENTER_Y]
    rbx, rby = contact[k, POINT0_X + 2 * i] - body[b, CENTER_X], contact[k, POINT0_Y + 2 * i] - body[b, CENTER_Y]
    qax, qay = _rotated(contact[k, ANCHOR_A0_X + 2 * i], contact[k, ANCHOR_A0_Y + 2 * i], trig, a)
    qbx, qby = _rotated(contact[k, ANCHOR_B0_X + 2 * i], contact[k, ANCHOR_B0_Y + 2 * i], trig, b)
    normal_a, normal_b = on * (ray * nx - rax * ny), on * (rbx * ny - rby * nx)
    _set_row(jac, k, _VELOCITY_ROWS, i, on * nx, on * ny, normal_a, normal_b)
    _set_row(jac, k, _POSITION_ROWS, i, on * nx, on * ny, normal_a, normal_b)
    _set_row(jac, k, _VELOCITY_ROWS, i + 2, on * ny, -on * nx, on * (ray * ny + rax * nx), on * (-rbx * nx - rby * ny))
    _set_row(jac, k, _POSITION_ROWS, i + 2, on * ny, -on * nx, on * (qay * ny + qax * nx), on * (-qbx * nx - qby * ny))
    gap = (body[b, CENTER_X] - body[a, CENTER_X]) * ny - (body[b, CENTER_Y] - body[a, CENTER_Y]) * nx
    return gap + (qbx - qax) * ny - (qby - qay) * nx  # the anchors' drift along the tangent


@_inline
def _arms(jac, k, r, s, ia_i, ib_i):
    """The rotational part of velocity rows ``r`` and ``s`` of contact ``k`` meeting."""
    v = _VELOCITY_ROWS
    return ia_i * jac[k, v, r, 2] * jac[k, v, s, 2] + ib_i * jac[k, v, r, 5] * jac[k, v, s, 5]


@_inline
def _inverse(x, present):
    return 1.0 / x if present > 0.0 and x > 0.0 else 0.0


@_inline
def _masses(k, contact, body, a, b, jac, out):
    """Contact ``k``'s effective masses J M^-1 J^T, couplings and 2x2 block, from its rows' structure: every
    row's linear part is a unit vector (normal or tangent, perpendicular), so two rows meet in the sum of
    inverse masses or not at all, plus the rotational terms. ``out``: the contact's constants row."""
    ma, mb, ia_i, ib_i = body[a, INV_MASS], body[b, INV_MASS], body[a, INV_INERTIA], body[b, INV_INERTIA]
    both = ma + mb
    for r in range(4):
        for j, scale in ((0, ma), (1, ma), (2, ia_i), (3, mb), (4, mb), (5, ib_i)):
            jac[k, _RESPONSE, r, j] = scale * jac[k, _VELOCITY_ROWS, r, j]
    kn0, kn1 = both + _arms(jac, k, 0, 0, ia_i, ib_i), both + _arms(jac, k, 1, 1, ia_i, ib_i)
    kt0, kt1 = both + _arms(jac, k, 2, 2, ia_i, ib_i), both + _arms(jac, k, 3, 3, ia_i, ib_i)
    valid0, valid1 = contact[k, VALID0], contact[k, VALID1]
    out[NMASS0], out[NMASS1] = _inverse(kn0, valid0), _inverse(kn1, valid1)
    out[TMASS0], out[TMASS1] = _inverse(kt0, valid0), _inverse(kt1, valid1)
    out[CROSS00], out[CROSS01] = _arms(jac, k, 2, 0, ia_i, ib_i), _arms(jac, k, 2, 1, ia_i, ib_i)
    out[CROSS10], out[CROSS11] = _arms(jac, k, 3, 0, ia_i, ib_i), _arms(jac, k, 3, 1, ia_i, ib_i)
    k12 = out[K12] = both + _arms(jac, k, 0, 1, ia_i, ib_i)
    out[KT1T0] = both + _arms(jac, k, 3, 2, ia_i, ib_i)
    det = kn0 * kn1 - k12 * k12
    return kn0, kn1, k12, det


@_jit
def _contact_constants(contact, body, velocity, pair, params, trig):
    """Every contact's Jacobian (m, 3, 4, 6) and constants (m, 24) for this step (``trig``: each row's cos and
    sin of its angle, (rows, 2), :func:`angle_trig`)."""
    m = len(pair)
    jac, constants = np.empty((m, 3, 4, 6)), np.zeros((m, _CONSTANTS))  # (every row of jac is written)
    _fill_constants(contact, body, velocity, pair, params, trig, jac, constants)
    return jac, constants


@_without_runtime
def _fill_constants(contact, body, velocity, pair, params, trig, jac, constants):
    """:func:`_contact_constants` into ``jac`` and ``constants`` (``trig``: each row's cos and sin)."""
    for k in range(len(pair)):
        a, b = pair[k, 0], pair[k, 1]
        out = constants[k]
        first = STIFF_RATE if contact[k, STIFF] > 0.0 else SOFT_RATE
        out[RATE], out[MSCALE], out[ISCALE] = params[first], params[first + 1], params[first + 2]
        out[DRIFT0] = _point_rows(k, 0, contact, body, a, b, jac, trig)
        out[DRIFT1] = _point_rows(k, 1, contact, body, a, b, jac, trig)
        kn0, kn1, k12, det = _masses(k, contact, body, a, b, jac, out)
        # Two-point contacts well enough conditioned (k11^2 / det below the limit) are solved as one block.
        block = contact[k, VALID0] > 0.0 and contact[k, VALID1] > 0.0 and kn0 * kn0 < params[BLOCK_LIMIT] * det
        inv_det = 1.0 / det if block else 0.0
        out[BLOCK] = 1.0 if block else 0.0
        out[HARD_DIAG0], out[HARD_DIAG1], out[HARD_OFF] = -inv_det * kn1, -inv_det * kn0, inv_det * k12
        soft_a = -out[MSCALE] * inv_det
        out[SOFT_DIAG0], out[SOFT_DIAG1], out[SOFT_OFF] = soft_a * kn1, soft_a * kn0, -soft_a * k12
        out[RELATIVE0] = _dot6(jac, k, _VELOCITY_ROWS, 0, velocity, a, b)
        out[RELATIVE1] = _dot6(jac, k, _VELOCITY_ROWS, 1, velocity, a, b)


@_inline
def _apply(v, jac, k, a, b, n0, n1, t0, t1, a_still=False):
    """Add contact ``k``'s pair velocity change for impulses ``n0``, ``n1`` (normals), ``t0``, ``t1`` (to B's
    row only when ``a_still``: static geometry's row has no mass, its change is zero)."""
    r = _RESPONSE
    for j in range(3):
        if not a_still:
            v[a, j] += jac[k, r, 0, j] * n0 + jac[k, r, 1, j] * n1 + jac[k, r, 2, j] * t0 + jac[k, r, 3, j] * t1
        v[b, j] += (jac[k, r, 0, j + 3] * n0 + jac[k, r, 1, j + 3] * n1 + jac[k, r, 2, j + 3] * t0
                    + jac[k, r, 3, j + 3] * t1)


@_without_runtime
def _warm_start(pair, contact, jac, impulse, v, change):
    """Apply last step's accumulated impulses (summed per row first, in ``change``, a scratch array shaped as
    ``v``: a body is in many contacts; static geometry's row is left as it is, see :func:`_apply`)."""
    for r in range(len(change)):
        for j in range(3):
            change[r, j] = 0.0
    for k in range(len(pair)):
        a, b, n0, n1, t0, t1 = pair[k, 0], pair[k, 1], impulse[k, _N0], impulse[k, _N1], impulse[k, _T0], impulse[k, _T1]
        if contact[k, STATIC] > 0.0:
            _apply(change, jac, k, a, b, n0, n1, t0, t1, True)
        else:
            _apply(change, jac, k, a, b, n0, n1, t0, t1)
    for r in range(len(change)):
        for j in range(3):
            v[r, j] += change[r, j]
@_inline
def _clamp(x, low, high):
    return min(max(x, low), high)


@_inline
def _normal_terms(use_bias, sep0, sep1, acc0, acc1, rate, push_max, inv_h, hard, soft, nmass0, nmass1, mscale,
                  iscale, block):
    """A contact's normal solve terms for this pass, with the bias folded in (constant over the pass: its
    impulses change only when its own colour is solved): (block usable, diag 0, diag 1, off, block base 0,
    block base 1, gain 0, gain 1, point base 0, point base 1). The block impulse is ``diag * vn + off *
    swapped(vn) + block base``; one point at a time, the new accumulated impulse is ``max(point base - gain *
    vn, 0)``. ``use_bias``: soft position correction (the solve); without it only speculative points keep
    their bias (the relax). ``hard`` and ``soft``: the block's (diag 0, diag 1, off) of each kind.

    Scalars only: the per-contact loops read arrays first and branch on numbers (branches around array use
    cost reference counting per contact)."""
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


@_inline
def _friction_terms(use_bias, t0, t1, tmass0, tmass1, drift0, drift1, anchor, push_max):
    """A contact's friction terms for this pass: (gain 0, gain 1, base 0, base 1); the new accumulated tangent
    impulse is ``base - gain * vt``, clamped to the friction cone. In the solve, the anchors' drift (``drift``:
    px, held by a soft spring) is the bias; in the relax, none. Scalars only (see :func:`_normal_terms`)."""
    if not use_bias:
        return tmass0, tmass1, t0, t1
    rate, mscale, iscale = anchor
    bias0 = _clamp(rate * drift0, -push_max, push_max)
    bias1 = _clamp(rate * drift1, -push_max, push_max)
    g0, g1 = tmass0 * mscale, tmass1 * mscale
    return g0, g1, (1.0 - iscale) * t0 - g0 * bias0, (1.0 - iscale) * t1 - g1 * bias1


@_inline
def _solve_contact(k, pair, contact, jac, constants, impulse, v, d, use_bias, light, max_normal, inv_h, push_max,
                   anchor, a_still):
    """One contact's impulses: the two normals (as a 2x2 block when it is usable and pushes at both points,
    else point 0 then point 1), then friction at each point (none for a light contact). Reads the arrays,
    computes on scalars, writes back. ``inv_h`` (1/s), ``push_max`` (px/s) and ``anchor`` (the anchors' soft
    coefficients) are the pass's, read from the parameters once per pass. ``a_still`` (a compile-time
    constant): A is static geometry, and only B's half of each row is read and changed (a third less work)."""
    a, b = pair[k, 0], pair[k, 1]
    vel, pos = _VELOCITY_ROWS, _POSITION_ROWS
    vn0, vn1 = _pair_dot(jac, k, vel, 0, v, a, b, a_still), _pair_dot(jac, k, vel, 1, v, a, b, a_still)
    vt0, vt1 = _pair_dot(jac, k, vel, 2, v, a, b, a_still), _pair_dot(jac, k, vel, 3, v, a, b, a_still)
    # (A normal's position row is its velocity row: the same numbers, read once for both.)
    sep0 = contact[k, SEP0] + _pair_dot(jac, k, vel, 0, d, a, b, a_still)
    sep1 = contact[k, SEP1] + _pair_dot(jac, k, vel, 1, d, a, b, a_still)
    drift0 = drift1 = 0.0
    if use_bias:
        drift0 = constants[k, DRIFT0] + _pair_dot(jac, k, pos, 2, d, a, b, a_still)
        drift1 = constants[k, DRIFT1] + _pair_dot(jac, k, pos, 3, d, a, b, a_still)
    acc0, acc1, t0, t1 = impulse[k, _N0], impulse[k, _N1], impulse[k, _T0], impulse[k, _T1]
    hard = (constants[k, HARD_DIAG0], constants[k, HARD_DIAG1], constants[k, HARD_OFF])
    soft = (constants[k, SOFT_DIAG0], constants[k, SOFT_DIAG1], constants[k, SOFT_OFF])
    same, diag0, diag1, off, base0, base1, g0, g1, point0, point1 = _normal_terms(
        use_bias, sep0, sep1, acc0, acc1, constants[k, RATE], push_max, inv_h, hard, soft, constants[k, NMASS0],
        constants[k, NMASS1], constants[k, MSCALE], constants[k, ISCALE], constants[k, BLOCK] > 0.0)
    tg0, tg1, tbase0, tbase1 = _friction_terms(use_bias, t0, t1, constants[k, TMASS0], constants[k, TMASS1], drift0,
                                               drift1, anchor, push_max)
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
        mu = contact[k, FRICTION]
        vt0 += constants[k, CROSS00] * n0 + constants[k, CROSS01] * n1
        vt1 += constants[k, CROSS10] * n0 + constants[k, CROSS11] * n1
        new0 = _clamp(tbase0 - tg0 * vt0, -mu * acc0, mu * acc0)
        f0 = new0 - t0
        new1 = _clamp(tbase1 - tg1 * (vt1 + constants[k, KT1T0] * f0), -mu * acc1, mu * acc1)
        f1 = new1 - t1
        t0, t1 = new0, new1
    impulse[k, _N0], impulse[k, _N1], impulse[k, _T0], impulse[k, _T1] = acc0, acc1, t0, t1
    _apply(v, jac, k, a, b, n0, n1, f0, f1, a_still)


@_inline
def _colours_in_order(pair, contact, jac, constants, impulse, colour_starts, colour_light, v, d, use_bias, max_normal,
                      inv_h, push_max, anchor):
    """:func:`_solve_contact` for every contact, colour after colour (inlined into :func:`_solve_pass` once per
    kind of pass, and once per kind of contact: on static geometry or between bodies)."""
    for colour in range(len(colour_light)):
        light = colour_light[colour]
        for k in range(colour_starts[colour], colour_starts[colour + 1]):
            if contact[k, STATIC] > 0.0:
                _solve_contact(k, pair, contact, jac, constants, impulse, v, d, use_bias, light, max_normal, inv_h,
                               push_max, anchor, True)
            else:
                _solve_contact(k, pair, contact, jac, constants, impulse, v, d, use_bias, light, max_normal, inv_h,
                               push_max, anchor, False)


@_without_runtime
def _solve_pass(pair, contact, jac, constants, impulse, colour_starts, colour_light, v, d, use_bias, max_normal,
                params):
    """One pass over all colours, in order. ``use_bias``: 1.0 for the solve, 0.0 for the relax (a number, not
    a bool, so that numba compiles one version, not one per constant). Inside, each kind of pass is its own
    loop with ``use_bias`` a constant: the compiler then drops what a relax does not use (the anchors' drift,
    the largest-impulse record), about a sixth of the pass."""
    inv_h, push_max = params[SUBSTEPS] / params[DT], params[PUSH_MAX]
    anchor = (params[ANCHOR_RATE], params[ANCHOR_MASS], params[ANCHOR_IMPULSE])
    if use_bias > 0.0:
        _colours_in_order(pair, contact, jac, constants, impulse, colour_starts, colour_light, v, d, True, max_normal,
                          inv_h, push_max, anchor)
    else:
        _colours_in_order(pair, contact, jac, constants, impulse, colour_starts, colour_light, v, d, False, max_normal,
                          inv_h, push_max, anchor)


@_without_runtime
def _integrate_velocities(gravity_scale, params, v, h):
    """Gravity, damping and the speed cap for the dynamic rows over one substep of ``h`` seconds."""
    linear = 1.0 / (1.0 + h * params[LINEAR_DAMPING])
    angular = 1.0 / (1.0 + h * params[ANGULAR_DAMPING])
    top = params[MAX_SPEED]
    for r in range(len(gravity_scale)):
        scale = gravity_scale[r]
        v[r, 0] += h * (params[GRAVITY_X] * scale)
        v[r, 1] += h * (params[GRAVITY_Y] * scale)
        if linear != 1.0:
            v[r, 0] *= linear
            v[r, 1] *= linear
        if angular != 1.0:
            v[r, 2] *= angular
        if abs(v[r, 0]) + abs(v[r, 1]) <= 0.99 * top:
            continue  # (the speed is at most that sum: far below the cap, without the square root)
        speed = math.hypot(v[r, 0], v[r, 1])
        if speed > top:
            v[r, 0] *= top / speed
            v[r, 1] *= top / speed


@_without_runtime
def _integrate_positions(v, d, h):
    """Every row's displacement this step grows by its velocity over ``h`` seconds (a loop: ``d += h * v``
    made a temporary array each substep)."""
    for r in range(len(v)):
        for j in range(3):
            d[r, j] += h * v[r, j]


@_without_runtime
def _cap_spin(body, v, dynamic_rows):
    """Keep each dynamic row's spin within its ``MAX_SPIN``: separations during a step are linear in the turn
    (the error is about extent x turn^2 / 2), so a crate struck hard at a corner must not turn so far in one
    step that its corner goes through the floor unseen."""
    for r in range(dynamic_rows):
        v[r, 2] = _clamp(v[r, 2], -body[r, MAX_SPIN], body[r, MAX_SPIN])


@_without_runtime
def _restitution(pair, contact, jac, constants, impulse, v, max_normal, params):
    """Once after the substeps: points that approached faster than the threshold and were pushed bounce back
    at their restitution times the approach speed."""
    threshold = params[RESTITUTION_THRESHOLD]
    for k in range(len(pair)):
        a, b, e, c = pair[k, 0], pair[k, 1], contact[k, RESTITUTION], constants[k]
        relative0, relative1, acc0, acc1 = c[RELATIVE0], c[RELATIVE1], impulse[k, _N0], impulse[k, _N1]
        fast0 = relative0 < -threshold and max_normal[k, 0] > 0.0 and e > 0.0
        fast1 = relative1 < -threshold and max_normal[k, 1] > 0.0 and e > 0.0
        if not (fast0 or fast1):
            continue  # (no bounce: the impulses stay, nothing to apply)
        vn0, vn1 = _dot6(jac, k, _VELOCITY_ROWS, 0, v, a, b), _dot6(jac, k, _VELOCITY_ROWS, 1, v, a, b)
        new0 = max(acc0 - c[NMASS0] * (vn0 + e * relative0), 0.0)
        n0 = new0 - acc0 if fast0 else 0.0
        new1 = max(acc1 - c[NMASS1] * (vn1 + c[K12] * n0 + e * relative1), 0.0)
        n1 = new1 - acc1 if fast1 else 0.0
        impulse[k, _N0], impulse[k, _N1] = acc0 + n0, acc1 + n1
        _apply(v, jac, k, a, b, n0, n1, 0.0, 0.0)


@_inline
def _nearest(k, pair, contact, jac, d):
    """Contact ``k``'s smaller separation now (px; this step's linear estimate), inf when it has no point."""
    a, b = pair[k, 0], pair[k, 1]
    nearest = np.inf
    for i in range(2):
        sep = contact[k, SEP0 + i] + _dot6(jac, k, _POSITION_ROWS, i, d, a, b)
        nearest = min(nearest, sep) if contact[k, VALID0 + i] > 0.0 else nearest
    return nearest


@_inline
def _held(support, row, ux, uy):
    """Whether moving ``row`` along (``ux``, ``uy``) would push it into what holds it up (``support``: the sum of
    the normals it rests against, from static geometry or a held body)."""
    sx, sy = support[row, 0], support[row, 1]
    return sx * ux + sy * uy < -0.5 * math.hypot(sx, sy)


@_without_runtime
def _propagate_shock(pair, contact, jac, body, v, d, params, support):
    """Position-level shock propagation for body pairs: two bodies overlapping more than ``MAX_STATIC_OVERLAP``
    px are moved apart to that depth, but a body resting on the level (or on a body that rests on it) is not
    moved into what holds it: its partner takes the whole correction. A light crate under a heavy one is not
    driven into the floor, and the heavy one stops sinking into it (the soft contact between them alone sags
    in proportion to the mass ratio). Each moved pair also loses its approach speed. Three rounds reach three
    bodies up a stack per step. ``support``: zeros, one row per dynamic row, for what holds each one up."""
    dyn, limit = int(params[DYNAMIC_ROWS]), params[MAX_STATIC_OVERLAP]
    for k in range(len(pair)):
        b = pair[k, 1]
        if contact[k, STATIC] > 0.0 and b < dyn and _nearest(k, pair, contact, jac, d) < limit:
            support[b, 0] += contact[k, NX]
            support[b, 1] += contact[k, NY]
    for _ in range(3):
        moved = False
        for k in range(len(pair)):
            if contact[k, STATIC] > 0.0:
                continue
            a, b = pair[k, 0], pair[k, 1]
            deficit = -limit - _nearest(k, pair, contact, jac, d)
            if not deficit > 1e-9:
                continue
            nx, ny = contact[k, NX], contact[k, NY]
            wa = body[a, INV_MASS] if a < dyn and not _held(support, a, -nx, -ny) else 0.0
            wb = body[b, INV_MASS] if b < dyn and not _held(support, b, nx, ny) else 0.0
            if not wa + wb > 0.0:
                continue  # both held (wedged): the solver's business
            fa, fb = wa / (wa + wb), wb / (wa + wb)
            approach = min((v[b, 0] - v[a, 0]) * nx + (v[b, 1] - v[a, 1]) * ny, 0.0)
            for j, n in ((0, nx), (1, ny)):
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


@_without_runtime
def _push_out(pair, contact, jac, v, d, params, up, down, change):
    """A position pass (two rounds, for bodies in a corner): a body sunk more than ``MAX_STATIC_OVERLAP`` px
    into static geometry is moved back out to that depth along the normal and loses its velocity into the
    surface. Per body the largest push each way along x and along y is taken (two points of one floor must
    not add up). Separations are this step's linear estimate (the manifold is rebuilt next step). ``up``,
    ``down``, ``change``: scratch, one row per dynamic row, zeroed here at each round."""
    dyn = int(params[DYNAMIC_ROWS])
    for _ in range(2):
        for r in range(dyn):
            for j in range(2):
                up[r, j] = down[r, j] = change[r, j] = 0.0
        moved = False
        for k in range(len(pair)):
            b = pair[k, 1]
            if not (contact[k, STATIC] > 0.0 and b < dyn):
                continue
            deficit = -params[MAX_STATIC_OVERLAP] - _nearest(k, pair, contact, jac, d)
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
            for j in range(2):
                d[r, j] += up[r, j] + down[r, j]
                v[r, j] -= change[r, j]


@_jit
def solve_step(velocity, body, gravity_scale, pair, contact, impulse, colour_starts, colour_light, params, trig):
    """Solve one step's contacts (``pair``: rows of A and B, ``contact``: their numbers, in colour order) and
    move the rows (``trig``: each row's cos and sin of its angle at step start, :func:`angle_trig`).
    ``velocity`` (rows, 3) and the accumulated ``impulse`` (m, 4) are updated in place. Returns every row's
    displacement (rows, 3) and which points slid (m, 2): their friction ended the step at the cone's edge."""
    m, rows = len(pair), len(velocity)
    d, sliding = np.zeros_like(velocity), np.empty((m, 2), dtype=np.bool_)
    solve_into(velocity, body, gravity_scale, pair, contact, impulse, colour_starts, colour_light, params, trig,
               np.empty(solve_scratch_size(m, rows, int(params[DYNAMIC_ROWS]))), d, sliding)
    return d, sliding


@_inline
def solve_scratch_size(m, rows, dynamic_rows):
    """How many floats :func:`solve_into` works in, for ``m`` contacts, ``rows`` rows, ``dynamic_rows`` of them
    dynamic: the Jacobians and constants, each contact's largest normal impulses, a velocity change per row,
    and three pairs of numbers per dynamic row for the position passes."""
    return m * (3 * 4 * 6 + _CONSTANTS + 2) + rows * 3 + dynamic_rows * 2 * 3


@_without_runtime
def solve_into(velocity, body, gravity_scale, pair, contact, impulse, colour_starts, colour_light, params, trig,
               scratch, d, sliding):
    """:func:`solve_step` into ``d`` (zeros, (rows, 3): the displacement) and ``sliding`` ((m, 2)), working in
    ``scratch`` (:func:`solve_scratch_size` floats). Without numba's runtime: a call with the runtime counts
    every array handed to it in and out (about 10 ns each), and this one allocates nothing."""
    m, rows, dyn = len(pair), len(velocity), int(params[DYNAMIC_ROWS])
    at = m * 3 * 4 * 6
    jac, constants = shaped(scratch[:at], (m, 3, 4, 6)), shaped(scratch[at:at + m * _CONSTANTS], (m, _CONSTANTS))
    at += m * _CONSTANTS
    max_normal = shaped(scratch[at:at + 2 * m], (m, 2))
    change = shaped(scratch[at + 2 * m:at + 2 * m + 3 * rows], (rows, 3))
    at += 2 * m + 3 * rows
    per_row = shaped(scratch[at:at + 6 * dyn], (3, dyn, 2))
    first, second, third = per_row[0], per_row[1], per_row[2]
    constants[:] = 0.0
    max_normal[:] = 0.0
    _fill_constants(contact, body, velocity, pair, params, trig, jac, constants)
    v = velocity
    substeps = int(params[SUBSTEPS])
    h = params[DT] / substeps
    for _ in range(substeps):
        _integrate_velocities(gravity_scale, params, v, h)
        if m:
            _warm_start(pair, contact, jac, impulse, v, change)
            _solve_pass(pair, contact, jac, constants, impulse, colour_starts, colour_light, v, d, 1.0, max_normal,
                        params)
        _cap_spin(body, v, dyn)
        _integrate_positions(v, d, h)
        if m:
            _solve_pass(pair, contact, jac, constants, impulse, colour_starts, colour_light, v, d, 0.0, max_normal,
                        params)
    if m:
        _restitution(pair, contact, jac, constants, impulse, v, max_normal, params)
        _push_out(pair, contact, jac, v, d, params, first, second, third)
        first[:] = 0.0
        _propagate_shock(pair, contact, jac, body, v, d, params, first)
        _push_out(pair, contact, jac, v, d, params, first, second, third)
    for k in range(m):
        for i in range(2):
            sliding[k, i] = abs(impulse[k, _T0 + i]) >= contact[k, FRICTION] * impulse[k, _N0 + i] * (1.0 - 1e-9)


def compile_steps():
    """Compile (or load from the disk cache) each kernel function in turn, on a one-contact scene: a crate
    resting on the floor. Yields each function's name once it is ready (for progress displays)."""
    velocity = np.zeros((2, 3))
    body = np.zeros((2, BODY_COLUMNS))
    body[0, INV_MASS], body[0, INV_INERTIA], body[0, CENTER_Y], body[0, MAX_SPIN] = 1.0, 0.01, 16.0, 30.0
    pair = np.array([[1, 0]], dtype=np.int64)
    contact = np.zeros((1, CONTACT_COLUMNS))
    contact[0, NY], contact[0, FRICTION], contact[0, STIFF], contact[0, STATIC] = 1.0, 0.6, 1.0, 1.0
    contact[0, VALID0], contact[0, VALID1], contact[0, POINT0_X], contact[0, POINT1_X] = 1.0, 1.0, -8.0, 8.0
    params = np.zeros(PARAMETERS)
    params[DT], params[SUBSTEPS], params[DYNAMIC_ROWS], params[GRAVITY_Y], params[MAX_SPEED] = 1 / 60, 4, 1, -1800, 4e3
    impulse, starts, light = np.zeros((1, 4)), np.array([0, 1], dtype=np.int64), np.zeros(1, dtype=np.bool_)
    trig = angle_trig(np.ascontiguousarray(body[:, ANGLE]))  # (as the step makes it: one contiguous array)
    jac, constants = _contact_constants(contact, body, velocity, pair, params, trig)
    yield "contact constants"
    _warm_start(pair, contact, jac, impulse, velocity, np.zeros_like(velocity))
    _integrate_velocities(np.ones(1), params, velocity, 1 / 240)
    yield "integration"
    _solve_pass(pair, contact, jac, constants, impulse, starts, light, velocity, np.zeros((2, 3)), 1.0,
                np.zeros((1, 2)), params)
    yield "contact solve"
    _restitution(pair, contact, jac, constants, impulse, velocity, np.zeros((1, 2)), params)
    _cap_spin(body, velocity, 1)
    scratch = np.zeros((3, 1, 2))
    _push_out(pair, contact, jac, velocity, np.zeros((2, 3)), params, scratch[0], scratch[1], scratch[2])
    _propagate_shock(pair, contact, jac, body, velocity, np.zeros((2, 3)), params, scratch[0])
    yield "restitution and position pass"
    solve_step(velocity, body, np.ones(1), pair, contact, impulse, starts, light, params, trig)
    yield "rigid-body step"
