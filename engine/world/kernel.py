"""The rigid-body solve, compiled: Box2D v3's soft step over contacts in graph-colour order (numba).

:func:`solve_step` runs everything a step does once its contacts are known: per-contact constants (Jacobian
rows, effective masses, soft-constraint coefficients), then ``substeps`` times integrate velocities (gravity,
damping, speed cap), warm start, solve, integrate positions and relax; then restitution, and the position
pass that keeps a light body from being pressed into static geometry under a heavy one. See
:mod:`engine.world.solver` for what each part does and why; this module is the arithmetic, one contact at a
time, in a fixed order (bit-identical results for the same inputs; no fastmath).

State rows: the awake dynamic bodies first (``dynamic_rows`` of them), then fixed rows (static geometry,
kinematic bodies, characters, sleepers) whose inverse mass is zero. A row's velocity is (vx, vy, w) in
px/s, px/s, rad/s; its displacement this step (dx, dy, da) in px, px, rad. A contact's normal points from A
to B: a positive relative normal velocity separates. The tangent is t = (ny, -nx).

Colours: no two contacts of one colour share a dynamic body, so solving a colour's contacts one after the
other gives the same result as solving them at once; colours follow each other (Gauss-Seidel).

Compiled functions are cached on disk (``cache=True``): in the package's ``__pycache__`` when it is writable,
otherwise in numba's per-user cache directory (``NUMBA_CACHE_DIR`` overrides). :func:`engine.warm_up`
compiles everything ahead on a tiny scene.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

__all__ = ["SolveInput", "SolveParams", "SolveResult", "solve_inputs", "solve_params", "solve_step"]

_jit = numba.njit(cache=True, nogil=True, fastmath=False)
"""How every kernel entry point is compiled: cached, no fastmath (fastmath reorders sums: results would
depend on the compiler, and replays on one machine must stay bit-identical)."""
_inline = numba.njit(inline="always", fastmath=False)
"""Helpers of the per-contact loops: inlined where called, so that the tuples of arrays they read are not
passed (and reference-counted) per contact."""


class SolveInput(NamedTuple):
    """One solve's contacts, in colour order (``m`` contacts of two points each; an invalid point has
    zeros), and the state rows they act on. Pixels, seconds, radians; world frame."""

    velocity: np.ndarray
    """(rows, 3) at step start; updated in place to the end velocities."""
    inv_mass: np.ndarray
    """(rows,) 1/kg-equivalent (zero for fixed rows)."""
    inv_inertia: np.ndarray
    """(rows,)."""
    gravity_scale: np.ndarray
    """(dynamic_rows,)."""
    ia: np.ndarray
    """(m,) state row of participant A."""
    ib: np.ndarray
    """(m,) state row of rigid body B."""
    normal: np.ndarray
    """(m, 2) unit, from A to B."""
    friction: np.ndarray
    """(m,) mixed Coulomb coefficient."""
    restitution: np.ndarray
    """(m,) mixed restitution."""
    stiff: np.ndarray
    """(m,) against something that does not give way (static, kinematic, character)."""
    fixed_static: np.ndarray
    """(m,) A is static geometry (the position pass pushes B out of it)."""
    valid: np.ndarray
    """(m, 2) which points exist."""
    arm_a: np.ndarray
    """(m, 2, 2) contact point minus A's centre at step start (and ``arm_b`` for B)."""
    arm_b: np.ndarray
    anchor_a: np.ndarray
    """(m, 2, 2) friction anchor on A minus A's centre, world orientation at step start (and ``anchor_b``)."""
    anchor_b: np.ndarray
    separation: np.ndarray
    """(m, 2) at step start (negative = overlap)."""
    gap: np.ndarray
    """(m,) B's centre minus A's along the tangent: the anchors' drift is measured from it."""
    normal_impulse: np.ndarray
    """(m, 2) accumulated impulses carried from the last step; updated in place (and ``tangent_impulse``)."""
    tangent_impulse: np.ndarray
    colour_starts: np.ndarray
    """(colours + 1,) where each colour's contacts begin, and the end."""
    colour_light: np.ndarray
    """(colours,) which colours are light: separated, not closing; normals only, no friction."""


_INPUT_TYPES = {"ia": np.int64, "ib": np.int64, "colour_starts": np.int64, "stiff": np.bool_, "fixed_static": np.bool_,
                "valid": np.bool_, "colour_light": np.bool_}


def solve_inputs(**arrays: np.ndarray) -> SolveInput:
    """A :class:`SolveInput` whose arrays all have the one dtype and layout the kernel is compiled for
    (C-contiguous float64, int64 rows, bool flags): any other would compile a new version mid-game."""
    return SolveInput(**{name: np.ascontiguousarray(value, dtype=_INPUT_TYPES.get(name, np.float64))
                         for name, value in arrays.items()})


class SolveParams(NamedTuple):
    """The step's scalars (see :class:`engine.bodies.PhysicsConfig`)."""

    dt: float
    substeps: int
    dynamic_rows: int
    gravity_x: float
    gravity_y: float
    soft: tuple[float, float, float]
    """(bias rate 1/s, mass scale, impulse scale) of contacts between bodies."""
    stiff: tuple[float, float, float]
    """The same for contacts with what does not give way."""
    anchor: tuple[float, float, float]
    """The same for the friction anchors."""
    push_max: float
    block_condition_limit: float
    linear_damping: float
    angular_damping: float
    max_linear_speed: float
    restitution_threshold: float
    max_static_overlap: float


def solve_params(**values: float | int | tuple[float, float, float]) -> SolveParams:
    """A :class:`SolveParams` with every number the type the kernel is compiled for (``substeps`` and
    ``dynamic_rows`` int, the rest float), whatever game code put into the config."""
    def typed(name: str, value):
        if name in ("substeps", "dynamic_rows"):
            return int(value)
        return tuple(float(x) for x in value) if isinstance(value, tuple) else float(value)

    return SolveParams(**{name: typed(name, value) for name, value in values.items()})


class SolveResult(NamedTuple):
    """What the solve leaves: displacement of every row (rows, 3) and which points slid (m, 2)."""

    displacement: np.ndarray
    sliding: np.ndarray


class _Rows(NamedTuple):
    """Per-contact constants of the solve (made once per step by :func:`_contact_constants`)."""

    jv: np.ndarray
    """(m, 4, 6) velocity Jacobian rows: normal 0, normal 1, tangent 0, tangent 1 over (A's vx, vy, w, B's)."""
    jp: np.ndarray
    """(m, 4, 6) position rows: normal 0, normal 1, anchor tangent 0, anchor tangent 1."""
    w: np.ndarray
    """(m, 4, 6) velocity change of the pair per unit impulse along each row."""
    nmass: np.ndarray
    """(m, 2) normal effective mass per point (0 where the point is missing)."""
    tmass: np.ndarray
    k12: np.ndarray
    """(m,) coupling of the two normals."""
    cross: np.ndarray
    """(m, 2, 2) tangent velocity at point i per unit normal impulse at point j."""
    k_t1t0: np.ndarray
    """(m,) tangent 1 velocity per unit tangent 0 impulse."""
    block: np.ndarray
    """(m,) two-point contacts solved as one 2x2 block."""
    hard_diag: np.ndarray
    """(m, 2) and ``hard_off`` (m,): the block's inverse, negated (hard contacts)."""
    hard_off: np.ndarray
    soft_diag: np.ndarray
    soft_off: np.ndarray
    rate: np.ndarray
    """(m,) bias rate, mass scale and impulse scale (soft or stiff) per contact."""
    mscale: np.ndarray
    iscale: np.ndarray
    drift0: np.ndarray
    """(m, 2) anchor drift along the tangent at step start."""
    relative: np.ndarray
    """(m, 2) normal approach speed before the step (for restitution)."""


@_inline
def _dot6(rows, k, r, state, a, b):
    """Contact ``k``'s Jacobian row ``r`` of ``rows`` (m, 4, 6) times the pair's state: A's row ``a`` then B's
    row ``b`` of ``state`` (rows, 3). (Indexes whole arrays rather than taking views: a view per contact
    costs a reference count each.)"""
    return (rows[k, r, 0] * state[a, 0] + rows[k, r, 1] * state[a, 1] + rows[k, r, 2] * state[a, 2]
            + rows[k, r, 3] * state[b, 0] + rows[k, r, 4] * state[b, 1] + rows[k, r, 5] * state[b, 2])


@_inline
def _set_row(rows, k, r, ux, uy, arm_a, arm_b):
    """Jacobian row ``r`` of contact ``k`` along (``ux``, ``uy``) with its lever arms (A's part negated)."""
    rows[k, r, 0], rows[k, r, 1], rows[k, r, 2] = -ux, -uy, arm_a
    rows[k, r, 3], rows[k, r, 4], rows[k, r, 5] = ux, uy, arm_b


@_inline
def _jacobian_rows(k, i, normal, arm_a, arm_b, anchor_a, anchor_b, valid, jv, jp):
    """Point ``i`` of contact ``k``: its Jacobian rows into ``jv`` and ``jp`` (all zero for a missing point)."""
    nx, ny = normal[k, 0], normal[k, 1]
    rax, ray, rbx, rby = arm_a[k, i, 0], arm_a[k, i, 1], arm_b[k, i, 0], arm_b[k, i, 1]
    qax, qay, qbx, qby = anchor_a[k, i, 0], anchor_a[k, i, 1], anchor_b[k, i, 0], anchor_b[k, i, 1]
    on = 1.0 if valid[k, i] else 0.0  # (an invalid point's arms are garbage: multiply them away)
    _set_row(jv, k, i, on * nx, on * ny, on * (ray * nx - rax * ny), on * (rbx * ny - rby * nx))
    _set_row(jp, k, i, on * nx, on * ny, on * (ray * nx - rax * ny), on * (rbx * ny - rby * nx))
    _set_row(jv, k, i + 2, on * ny, -on * nx, on * (ray * ny + rax * nx), on * (-rbx * nx - rby * ny))
    _set_row(jp, k, i + 2, on * ny, -on * nx, on * (qay * ny + qax * nx), on * (-qbx * nx - qby * ny))


@_inline
def _dot_arms(jv, k, r, s, ia_i, ib_i):
    """The rotational part of rows ``r`` and ``s`` of contact ``k`` meeting: A's inverse inertia times their
    A arms plus B's times their B arms."""
    return ia_i * jv[k, r, 2] * jv[k, s, 2] + ib_i * jv[k, r, 5] * jv[k, s, 5]


@_inline
def _masses(jv, k, both, ia_i, ib_i):
    """Contact ``k``'s effective inverse masses J M^-1 J^T from its rows' structure: every row's linear part is a
    unit vector (normal or tangent, perpendicular), so two rows meet in the sum of inverse masses (``both``)
    or not at all, plus the rotational terms. Returns (normal 0, normal 1, tangent 0, tangent 1, normal 0-1,
    tangent 1-0, and the tangent at point i per normal impulse at point j: 00, 01, 10, 11)."""
    return (both + _dot_arms(jv, k, 0, 0, ia_i, ib_i), both + _dot_arms(jv, k, 1, 1, ia_i, ib_i),
            both + _dot_arms(jv, k, 2, 2, ia_i, ib_i), both + _dot_arms(jv, k, 3, 3, ia_i, ib_i),
            both + _dot_arms(jv, k, 0, 1, ia_i, ib_i), both + _dot_arms(jv, k, 3, 2, ia_i, ib_i),
            _dot_arms(jv, k, 2, 0, ia_i, ib_i), _dot_arms(jv, k, 2, 1, ia_i, ib_i),
            _dot_arms(jv, k, 3, 0, ia_i, ib_i), _dot_arms(jv, k, 3, 1, ia_i, ib_i))


@_inline
def _inverse(x, present):
    return 1.0 / x if present and x > 0.0 else 0.0


@_jit
def _contact_constants(inp, p):
    """Every contact's constants for this step (a :class:`_Rows`). Arrays are filled as locals and bundled at
    the end (stores through a tuple of arrays inside the loop would be reference-counted per contact)."""
    m = len(inp.ia)
    jv, jp, w = np.zeros((m, 4, 6)), np.zeros((m, 4, 6)), np.zeros((m, 4, 6))
    nmass, tmass, cross, drift0, relative = (np.zeros((m, 2)), np.zeros((m, 2)), np.zeros((m, 2, 2)),
                                             np.zeros((m, 2)), np.zeros((m, 2)))
    k12, k_t1t0, hard_off, soft_off = np.zeros(m), np.zeros(m), np.zeros(m), np.zeros(m)
    hard_diag, soft_diag, block = np.zeros((m, 2)), np.zeros((m, 2)), np.zeros(m, dtype=np.bool_)
    rate, mscale, iscale = np.zeros(m), np.zeros(m), np.zeros(m)
    ia, ib, inv_mass, inv_inertia, valid, normal = inp.ia, inp.ib, inp.inv_mass, inp.inv_inertia, inp.valid, inp.normal
    arm_a, arm_b, anchor_a, anchor_b, gap, velocity = inp.arm_a, inp.arm_b, inp.anchor_a, inp.anchor_b, inp.gap, inp.velocity
    for k in range(m):
        a, b = ia[k], ib[k]
        rate[k], mscale[k], iscale[k] = p.stiff if inp.stiff[k] else p.soft
        for i in range(2):
            _jacobian_rows(k, i, normal, arm_a, arm_b, anchor_a, anchor_b, valid, jv, jp)
        ma, mb, ia_i, ib_i = inv_mass[a], inv_mass[b], inv_inertia[a], inv_inertia[b]
        for r in range(4):
            w[k, r, 0], w[k, r, 1], w[k, r, 2] = ma * jv[k, r, 0], ma * jv[k, r, 1], ia_i * jv[k, r, 2]
            w[k, r, 3], w[k, r, 4], w[k, r, 5] = mb * jv[k, r, 3], mb * jv[k, r, 4], ib_i * jv[k, r, 5]
        kn0, kn1, kt0, kt1, k12[k], k_t1t0[k], cross[k, 0, 0], cross[k, 0, 1], cross[k, 1, 0], cross[k, 1, 1] = \
            _masses(jv, k, ma + mb, ia_i, ib_i)
        valid0, valid1 = valid[k, 0], valid[k, 1]
        nmass[k, 0], nmass[k, 1] = _inverse(kn0, valid0), _inverse(kn1, valid1)
        tmass[k, 0], tmass[k, 1] = _inverse(kt0, valid0), _inverse(kt1, valid1)
        det = kn0 * kn1 - k12[k] * k12[k]
        solid = valid0 and valid1 and kn0 * kn0 < p.block_condition_limit * det  # well enough conditioned
        inv_det = 1.0 / det if solid else 0.0
        block[k] = solid
        hard_diag[k, 0], hard_diag[k, 1], hard_off[k] = -inv_det * kn1, -inv_det * kn0, inv_det * k12[k]
        soft_a = -mscale[k] * inv_det
        soft_diag[k, 0], soft_diag[k, 1], soft_off[k] = soft_a * kn1, soft_a * kn0, -soft_a * k12[k]
        nx, ny = normal[k, 0], normal[k, 1]
        for i in range(2):
            along_x, along_y = anchor_b[k, i, 0] - anchor_a[k, i, 0], anchor_b[k, i, 1] - anchor_a[k, i, 1]
            drift0[k, i] = gap[k] + along_x * ny - along_y * nx
            relative[k, i] = _dot6(jv, k, i, velocity, a, b)
    return _Rows(jv, jp, w, nmass, tmass, k12, cross, k_t1t0, block, hard_diag, hard_off, soft_diag, soft_off, rate,
                 mscale, iscale, drift0, relative)


@_inline
def _apply(v, w, k, a, b, impulses, rows):
    """Add contact ``k``'s pair velocity change for ``impulses`` along its first ``rows`` Jacobian rows."""
    for j in range(3):
        da, db = 0.0, 0.0
        for r in range(rows):
            da += w[k, r, j] * impulses[r]
            db += w[k, r, j + 3] * impulses[r]
        v[a, j] += da
        v[b, j] += db


@_inline
def _warm_start(inp, c, v):
    """Apply last step's accumulated impulses (summed per row first: a body is in many contacts)."""
    change = np.zeros_like(v)
    lam = np.empty(4)
    for k in range(len(inp.ia)):
        lam[0], lam[1] = inp.normal_impulse[k, 0], inp.normal_impulse[k, 1]
        lam[2], lam[3] = inp.tangent_impulse[k, 0], inp.tangent_impulse[k, 1]
        _apply(change, c.w, k, inp.ia[k], inp.ib[k], lam, 4)
    v += change


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
def _solve_contact(inp, c, p, v, d, k, use_bias, light, max_normal, inv_h, lam):
    """One contact's impulses: the two normals (as a 2x2 block when it is usable and pushes at both points,
    else point 0 then point 1), then friction at each point (none for a light contact). Reads the arrays,
    computes on scalars, writes back."""
    a, b = inp.ia[k], inp.ib[k]
    jv, jp, acc, t = c.jv, c.jp, inp.normal_impulse, inp.tangent_impulse
    vn0, vn1 = _dot6(jv, k, 0, v, a, b), _dot6(jv, k, 1, v, a, b)
    vt0, vt1 = _dot6(jv, k, 2, v, a, b), _dot6(jv, k, 3, v, a, b)
    sep0 = inp.separation[k, 0] + _dot6(jp, k, 0, d, a, b)
    sep1 = inp.separation[k, 1] + _dot6(jp, k, 1, d, a, b)
    drift0 = c.drift0[k, 0] + _dot6(jp, k, 2, d, a, b)
    drift1 = c.drift0[k, 1] + _dot6(jp, k, 3, d, a, b)
    acc0, acc1, t0, t1, k12, k_t1t0 = acc[k, 0], acc[k, 1], t[k, 0], t[k, 1], c.k12[k], c.k_t1t0[k]
    cross00, cross01, cross10, cross11 = c.cross[k, 0, 0], c.cross[k, 0, 1], c.cross[k, 1, 0], c.cross[k, 1, 1]
    hard = (c.hard_diag[k, 0], c.hard_diag[k, 1], c.hard_off[k])
    soft = (c.soft_diag[k, 0], c.soft_diag[k, 1], c.soft_off[k])
    same, diag0, diag1, off, base0, base1, g0, g1, point0, point1 = _normal_terms(
        use_bias, sep0, sep1, acc0, acc1, c.rate[k], p.push_max, inv_h, hard, soft, c.nmass[k, 0], c.nmass[k, 1],
        c.mscale[k], c.iscale[k], c.block[k])
    tg0, tg1, tbase0, tbase1 = _friction_terms(use_bias, t0, t1, c.tmass[k, 0], c.tmass[k, 1], drift0, drift1,
                                               p.anchor, p.push_max)
    mu, seen0, seen1 = inp.friction[k], max_normal[k, 0], max_normal[k, 1]
    n0 = diag0 * vn0 + off * vn1 + base0
    n1 = diag1 * vn1 + off * vn0 + base1
    if light or not (same and n0 >= -acc0 and n1 >= -acc1):
        n0 = max(point0 - g0 * vn0, 0.0) - acc0
        n1 = max(point1 - g1 * (vn1 + k12 * n0), 0.0) - acc1
    acc0, acc1 = acc0 + n0, acc1 + n1
    if use_bias:  # (restitution asks whether the solve pushed a point)
        seen0, seen1 = max(seen0, n0), max(seen1, n1)
    f0 = f1 = 0.0
    if not light:  # friction after the normals, held at the anchors while static (the solve)
        vt0 += cross00 * n0 + cross01 * n1
        vt1 += cross10 * n0 + cross11 * n1
        new0 = _clamp(tbase0 - tg0 * vt0, -mu * acc0, mu * acc0)
        f0 = new0 - t0
        new1 = _clamp(tbase1 - tg1 * (vt1 + k_t1t0 * f0), -mu * acc1, mu * acc1)
        f1 = new1 - t1
        t0, t1 = new0, new1
    acc[k, 0], acc[k, 1], t[k, 0], t[k, 1] = acc0, acc1, t0, t1
    max_normal[k, 0], max_normal[k, 1] = seen0, seen1
    lam[0], lam[1], lam[2], lam[3] = n0, n1, f0, f1
    _apply(v, c.w, k, a, b, lam, 4)


@_inline
def _solve_pass(inp, c, p, v, d, use_bias, max_normal):
    """One pass over all colours, in order."""
    inv_h = p.substeps / p.dt
    lam = np.empty(4)
    for colour in range(len(inp.colour_light)):
        light = inp.colour_light[colour]
        for k in range(inp.colour_starts[colour], inp.colour_starts[colour + 1]):
            _solve_contact(inp, c, p, v, d, k, use_bias, light, max_normal, inv_h, lam)


@_inline
def _integrate_velocities(inp, p, v, h):
    """Gravity, damping and the speed cap for the dynamic rows over one substep of ``h`` seconds."""
    linear = 1.0 / (1.0 + h * p.linear_damping)
    angular = 1.0 / (1.0 + h * p.angular_damping)
    top = p.max_linear_speed
    for r in range(p.dynamic_rows):
        scale = inp.gravity_scale[r]
        v[r, 0] += h * (p.gravity_x * scale)
        v[r, 1] += h * (p.gravity_y * scale)
        if linear != 1.0:
            v[r, 0] *= linear
            v[r, 1] *= linear
        if angular != 1.0:
            v[r, 2] *= angular
        speed = math.hypot(v[r, 0], v[r, 1])
        if speed > top:
            v[r, 0] *= top / speed
            v[r, 1] *= top / speed


@_inline
def _restitution(inp, c, p, v, max_normal):
    """Once after the substeps: points that approached faster than the threshold and were pushed bounce back
    at their restitution times the approach speed."""
    lam = np.zeros(4)
    acc, jv, relative, nmass = inp.normal_impulse, c.jv, c.relative, c.nmass
    for k in range(len(inp.ia)):
        a, b, e = inp.ia[k], inp.ib[k], inp.restitution[k]
        relative0, relative1, acc0, acc1 = relative[k, 0], relative[k, 1], acc[k, 0], acc[k, 1]
        fast0 = relative0 < -p.restitution_threshold and max_normal[k, 0] > 0.0 and e > 0.0
        fast1 = relative1 < -p.restitution_threshold and max_normal[k, 1] > 0.0 and e > 0.0
        vn0, vn1 = _dot6(jv, k, 0, v, a, b), _dot6(jv, k, 1, v, a, b)
        new0 = max(acc0 - nmass[k, 0] * (vn0 + e * relative0), 0.0)
        lam[0] = new0 - acc0 if fast0 else 0.0
        new1 = max(acc1 - nmass[k, 1] * (vn1 + c.k12[k] * lam[0] + e * relative1), 0.0)
        lam[1] = new1 - acc1 if fast1 else 0.0
        acc[k, 0], acc[k, 1] = acc0 + lam[0], acc1 + lam[1]
        _apply(v, c.w, k, a, b, lam, 2)


@_inline
def _project_out(inp, c, p, v, d):
    """A position pass (two rounds, for bodies in a corner): a body sunk more than ``max_static_overlap`` px
    into static geometry is moved back out to that depth along the normal and loses its velocity into the
    surface. Per body the largest push each way along x and along y is taken (two points of one floor must
    not add up). Separations are this step's linear estimate (the manifold is rebuilt next step)."""
    dyn = p.dynamic_rows
    for _ in range(2):
        up, down, change = np.zeros((dyn, 2)), np.zeros((dyn, 2)), np.zeros((dyn, 2))
        moved = False
        for k in range(len(inp.ia)):
            a, b = inp.ia[k], inp.ib[k]
            if not inp.fixed_static[k] or b >= dyn:
                continue
            nearest = np.inf
            for i in range(2):
                if inp.valid[k, i]:
                    nearest = min(nearest, inp.separation[k, i] + _dot6(c.jp, k, i, d, a, b))
            deficit = -p.max_static_overlap - nearest
            if not deficit > 1e-9:
                continue
            moved = True
            n = inp.normal
            into = min(v[b, 0] * n[k, 0] + v[b, 1] * n[k, 1], 0.0)
            for j in range(2):
                up[b, j] = max(up[b, j], max(n[k, j] * deficit, 0.0))
                down[b, j] = min(down[b, j], min(n[k, j] * deficit, 0.0))
                change[b, j] += n[k, j] * into
        if not moved:
            return
        d[:dyn, :2] += up + down
        v[:dyn, :2] -= change


@_jit
def solve_step(inp, p):
    """Solve one step's contacts and move the rows: ``inp.velocity`` and the accumulated impulses are updated
    in place. Returns the displacement of every row and which points slid (a :class:`SolveResult`)."""
    c = _contact_constants(inp, p)
    v = inp.velocity
    d = np.zeros_like(v)
    m = len(inp.ia)
    max_normal = np.zeros((m, 2))
    h = p.dt / p.substeps
    for _ in range(p.substeps):
        _integrate_velocities(inp, p, v, h)
        if m:
            _warm_start(inp, c, v)
            _solve_pass(inp, c, p, v, d, True, max_normal)
        d += h * v
        if m:
            _solve_pass(inp, c, p, v, d, False, max_normal)
    if m:
        _restitution(inp, c, p, v, max_normal)
        _project_out(inp, c, p, v, d)
    sliding = np.zeros((m, 2), dtype=np.bool_)  # points whose friction ended at the cone's edge
    for k in range(m):
        for i in range(2):
            sliding[k, i] = abs(inp.tangent_impulse[k, i]) >= inp.friction[k] * inp.normal_impulse[k, i] * (1.0 - 1e-9)
    return SolveResult(d, sliding)
