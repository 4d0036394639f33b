"""Contact gathering, compiled (numba): manifolds of many rounded-polygon pairs in one call, and the
body-pair broad phase that finds those pairs.

:func:`collide_pairs` is :func:`engine.geometry.collide` for many pairs of rounded polygons (boxes, polygons,
capsules, static segments, circles), any mix of vertex counts, one call per step. It is the same
algorithm, step for step and in the same arithmetic order, as the readable reference in
:mod:`engine.geometry.collide` (``_collide_polygons``, ``_clip`` and their helpers): separating axes on the
cores with the reference-face hysteresis, the incident face, the vertex-vertex axis where only rounded
corners can touch, parallel edges side by side as a line contact, and the clip. Like the reference it works
in A's local frame and maps the results back, so both agree to rounding. A circle (one-vertex core) against
anything is, as in the reference, the closest core point of the other shape to the circle's centre.

Shapes are given as flat arrays: shape ``s`` owns rows ``offsets[s]:offsets[s + 1]`` of ``vertices`` and
``normals`` (its local core, counter-clockwise, and outward unit edge normals; for two vertices the two
sides of the segment), ``radius[s]`` (px) and ``placement[s]`` = (x, y, angle): local -> world is rotate by
the angle (radians, counter-clockwise), then translate (px). Static geometry is placed at (0, 0, 0).

Outputs per pair, as ``collide`` gives them: the unit normal from A to B (world), up to two points (world,
px) midway between the two surfaces, their separations (px, negative = overlap), feature ids
``(feature_of_A << 8) | feature_of_B`` and which of the two slots hold a point. The slots keep the clip's
order (the reference lists only the valid ones); an empty slot has point (0, 0) and separation +inf.

:func:`overlapping_boxes` is the body-pair broad phase: sweep and prune along x over the bodies' boxes.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

from .cast_kernel import filters_touch, py_hypot
from .kernel import shaped
from .step_memory import (
    FOUND_BUFFERS, GATHER_SCRATCH, SWEEP_SCRATCH, borrowed, grow_scratch, scratch_short, warm_up_memory,
)

__all__ = [
    "KEY_A_MASK", "KEY_A_SHIFT", "KEY_KIND_SHIFT", "PairManifolds", "body_boxes", "collide_pairs", "compile_steps",
    "found_arrays", "found_kept", "found_of", "found_views", "gather_in", "gather_into", "gather_manifolds",
    "overlapping_boxes", "packed_found", "picked_found", "placed_boxes", "refresh_near", "same_values", "sweep_pairs",
    "touch_summary",
]

_jit = numba.njit(cache=True, nogil=True, fastmath=False)
"""Entry points: cached on disk, no fastmath (results must not depend on the compiler's reordering)."""
_inline = numba.njit(inline="always", fastmath=False)
"""Small helpers, inlined where called."""
_without_runtime = numba.njit(cache=True, nogil=True, fastmath=False, _nrt=False)  # type: ignore[call-overload]
"""The pair loop: compiled without numba's runtime, as it allocates nothing. With the runtime, numba counted
references to every array handed to an inlined helper whose body branches, in and out at every pair (some 80 ns a
box pair, a third of its manifold); without it there is nothing to count. (``_nrt`` is numba's own switch, not in
its type stubs.)"""

FLIP_TOLERANCE = 0.01
"""Pixels: the reference face stays A's unless B's face separates clearly more (stable ids from frame to
frame). Equal to :mod:`engine.geometry.collide`'s (a test checks): numba freezes globals at compile time."""
DISJOINT_TOLERANCE = 0.01
"""Pixels: cores closer than this are clipped rather than measured vertex to vertex (as the reference)."""


class PairManifolds(NamedTuple):
    """Manifolds of P pairs (see the module docstring for units and signs)."""

    normal: np.ndarray
    """(P, 2): unit normal from A to B."""
    point: np.ndarray
    """(P, 2, 2): pair, slot, xy."""
    separation: np.ndarray
    """(P, 2): signed gap between the surfaces along the normal; +inf in an empty slot."""
    id: np.ndarray
    """(P, 2) int64: feature pair ids."""
    valid: np.ndarray
    """(P, 2) bool: which slots hold a point."""
    a_edge: np.ndarray
    """(P,) int64: the edge of A whose end vertices A's feature ids name (-1 where there is no contact, and for
    a circle's contacts, whose ids name the closest features: vertex i, or face 32 + i)."""


@_inline
def _make_id(feature_a, feature_b):
    return (feature_a & 0xFF) << 8 | (feature_b & 0xFF)


@_inline
def _clamp_unit(x):
    return min(max(x, 0.0), 1.0)


@_inline
def _into_frame(vertices, first, count, cos_b, sin_b, bx, by, cos_a, sin_a, ax, ay, out_v):
    """Shape B's core vertices (rows ``first``.. of ``count``) in A's local frame, into ``out_v`` rows 0.."""
    for i in range(count):
        x, y = vertices[first + i, 0], vertices[first + i, 1]
        wx, wy = cos_b * x - sin_b * y + bx, sin_b * x + cos_b * y + by
        dx, dy = wx - ax, wy - ay
        out_v[i, 0], out_v[i, 1] = cos_a * dx + sin_a * dy, -sin_a * dx + cos_a * dy


@_inline
def _normals_into_frame(normals, first, count, cos_b, sin_b, cos_a, sin_a, out_n):
    """Shape B's edge normals (rows ``first``.. of ``count``) turned into A's local frame, into ``out_n``."""
    for i in range(count):
        x, y = normals[first + i, 0], normals[first + i, 1]
        wx, wy = cos_b * x - sin_b * y, sin_b * x + cos_b * y
        out_n[i, 0], out_n[i, 1] = cos_a * wx + sin_a * wy, -sin_a * wx + cos_a * wy


@_inline
def _next(i, count):
    """The vertex after ``i`` (0 <= i < count) round the polygon: ``(i + 1) % count`` without the division."""
    return i + 1 if i + 1 < count else 0


@_inline
def _max_separation(verts1, normals1, first1, count1, verts2, first2, count2):
    """(face, separation): the face of core 1 that separates most from core 2 (same frame); the first on ties."""
    best_i = 0
    best = -math.inf
    for i in range(count1):
        nx, ny = normals1[first1 + i, 0], normals1[first1 + i, 1]
        vx, vy = verts1[first1 + i, 0], verts1[first1 + i, 1]
        s = math.inf
        for j in range(count2):
            s = min(s, nx * (verts2[first2 + j, 0] - vx) + ny * (verts2[first2 + j, 1] - vy))
        if s > best:
            best, best_i = s, i
    return best_i, best


@_inline
def _most_opposed(normals, first, count, sx, sy):
    """The face whose normal is most anti-parallel to (sx, sy): the incident face (the first on ties)."""
    best_i = 0
    best = math.inf
    for i in range(count):
        d = sx * normals[first + i, 0] + sy * normals[first + i, 1]
        if d < best:
            best, best_i = d, i
    return best_i


@_inline
def _segment_closest(p1x, p1y, q1x, q1y, p2x, p2y, q2x, q2y):
    """Closest points of segments p1-q1 and p2-q2: (f1, f2, c1x, c1y, c2x, c2y), fractions exactly 0 or 1 at
    an end."""
    d1x, d1y = q1x - p1x, q1y - p1y
    d2x, d2y = q2x - p2x, q2y - p2y
    rx, ry = p1x - p2x, p1y - p2y
    dd1 = d1x * d1x + d1y * d1y
    dd2 = d2x * d2x + d2y * d2y
    rd1 = rx * d1x + ry * d1y
    rd2 = rx * d2x + ry * d2y
    d12 = d1x * d2x + d1y * d2y
    denom = dd1 * dd2 - d12 * d12
    f1 = 0.0
    if denom != 0.0:
        f1 = _clamp_unit((d12 * rd2 - rd1 * dd2) / denom)
    f2 = (d12 * f1 + rd2) / dd2
    if f2 < 0.0:
        f2 = 0.0
        f1 = _clamp_unit(-rd1 / dd1)
    elif f2 > 1.0:
        f2 = 1.0
        f1 = _clamp_unit((d12 - rd1) / dd1)
    return f1, f2, p1x + f1 * d1x, p1y + f1 * d1y, p2x + f2 * d2x, p2y + f2 * d2y


@_inline
def _parallel_overlap(v11x, v11y, v12x, v12y, v21x, v21y, v22x, v22y):
    """Edge 2 is parallel to edge 1 (within about 0.3 degrees) and overlaps it, seen along edge 1, by more than
    the disjoint tolerance."""
    ex, ey = v12x - v11x, v12y - v11y
    fx, fy = v22x - v21x, v22y - v21y
    le, lf = math.hypot(ex, ey), math.hypot(fx, fy)
    if abs(ex * fy - ey * fx) > 0.005 * le * lf:
        return False
    tx, ty = ex / le, ey / le
    a = (v21x - v11x) * tx + (v21y - v11y) * ty
    b = (v22x - v11x) * tx + (v22y - v11y) * ty
    return min(le, max(a, b)) - max(0.0, min(a, b)) > DISJOINT_TOLERANCE


@_inline
def _clip(v11x, v11y, v12x, v12y, v21x, v21y, v22x, v22y, nx, ny, r1, r2):
    """Clip incident edge v21-v22 against the side planes of reference edge v11-v12 (outward normal n, radii
    r1 and r2 of the reference and incident shapes). Returns the lower and the upper point, each midway
    between the surfaces, with its separation: (lx, ly, lower_sep, ux, uy, upper_sep)."""
    tx, ty = -ny, nx  # along the reference edge, from v11 towards v12
    upper1 = (v12x - v11x) * tx + (v12y - v11y) * ty
    # Both edges run counter-clockwise, so opposite ways: v22 is the incident edge's "lower" end.
    upper2 = (v21x - v11x) * tx + (v21y - v11y) * ty
    lower2 = (v22x - v11x) * tx + (v22y - v11y) * ty
    span = upper2 - lower2
    lx, ly = v22x, v22y
    if lower2 < 0.0 and span > 1e-12:
        f = (0.0 - lower2) / span
        lx, ly = v22x + f * (v21x - v22x), v22y + f * (v21y - v22y)
    ux, uy = v21x, v21y
    if upper2 > upper1 and span > 1e-12:
        f = (upper1 - lower2) / span
        ux, uy = v22x + f * (v21x - v22x), v22y + f * (v21y - v22y)
    sep_lower = (lx - v11x) * nx + (ly - v11y) * ny
    sep_upper = (ux - v11x) * nx + (uy - v11y) * ny
    radius = r1 + r2
    shift_l = 0.5 * (r1 - r2 - sep_lower)
    shift_u = 0.5 * (r1 - r2 - sep_upper)
    return (lx + shift_l * nx, ly + shift_l * ny, sep_lower - radius,
            ux + shift_u * nx, uy + shift_u * ny, sep_upper - radius)


@_inline
def _put_point(out_point, out_sep, out_ids, out_valid, p, slot, x, y, separation, feature, place, margin):
    """Write a point given in A's frame (``place`` = cos, sin, x, y of A) into slot ``slot`` of pair ``p`` if
    its separation is within ``margin``."""
    if separation > margin:
        return
    c, s, px, py = place
    out_point[p, slot, 0], out_point[p, slot, 1] = c * x - s * y + px, s * x + c * y + py
    out_sep[p, slot], out_ids[p, slot], out_valid[p, slot] = separation, feature, True


@_inline
def _put_normal(out_normal, p, nx, ny, place):
    c, s = place[0], place[1]
    out_normal[p, 0], out_normal[p, 1] = c * nx - s * ny, s * nx + c * ny


ON_CORE = 1e-9
"""Pixels: a point this close to a core counts as on it (its direction from the core is rounding noise, so a
face normal is used), as in :func:`engine.geometry.queries.core_closest`."""


@_inline
def _point_circle_closest(vertices, first, px, py):
    """Closest core point of a one-vertex core to (px, py): (qx, qy, distance, nx, ny, feature)."""
    vx, vy = vertices[first, 0], vertices[first, 1]
    dx, dy = px - vx, py - vy
    d = math.hypot(dx, dy)
    if d <= ON_CORE:
        return vx, vy, 0.0, 0.0, 1.0, 0  # the centre itself: any way out is as good; local up
    return vx, vy, d, dx / d, dy / d, 0


@_inline
def _point_segment_closest(vertices, normals, first, px, py):
    """Closest core point of a segment to (px, py): features 0 and 1 the ends, 32 + side the sides."""
    ax, ay, bx, by = vertices[first, 0], vertices[first, 1], vertices[first + 1, 0], vertices[first + 1, 1]
    ex, ey = bx - ax, by - ay
    t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
    if t <= 0.0:
        qx, qy, feature = ax, ay, 0
    elif t >= 1.0:
        qx, qy, feature = bx, by, 1
    else:
        qx, qy, feature = ax + t * ex, ay + t * ey, 32
    dx, dy = px - qx, py - qy
    d = math.hypot(dx, dy)
    if d <= ON_CORE:  # on the segment: the side normal is a valid way out
        return qx, qy, 0.0, normals[first, 0], normals[first, 1], 32
    if feature == 32:  # beside the segment: that side's normal (no rounding noise)
        side = 0 if dx * normals[first, 0] + dy * normals[first, 1] > 0.0 else 1
        return qx, qy, d, normals[first + side, 0], normals[first + side, 1], 32 + side
    return qx, qy, d, dx / d, dy / d, feature


@_inline
def _point_polygon_closest(vertices, normals, first, count, px, py):
    """Closest core point of a polygon to (px, py), signed distance (negative inside): features i the
    vertices, 32 + i the faces."""
    best_i, best_sep = 0, -math.inf
    for i in range(count):
        sep = normals[first + i, 0] * (px - vertices[first + i, 0]) + normals[first + i, 1] * (py - vertices[first + i, 1])
        if sep > best_sep:
            best_sep, best_i = sep, i
    if best_sep <= 0.0:  # inside: the face of largest separation is the nearest
        nx, ny = normals[first + best_i, 0], normals[first + best_i, 1]
        return px - best_sep * nx, py - best_sep * ny, best_sep, nx, ny, 32 + best_i
    best_d2, qx, qy, feature = math.inf, 0.0, 0.0, 0
    for i in range(count):  # outside: the nearest point lies on an edge that faces the point
        ax, ay = vertices[first + i, 0], vertices[first + i, 1]
        if normals[first + i, 0] * (px - ax) + normals[first + i, 1] * (py - ay) <= 0.0:
            continue
        j = _next(i, count)
        bx, by = vertices[first + j, 0], vertices[first + j, 1]
        ex, ey = bx - ax, by - ay
        t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
        if t <= 0.0:
            cx, cy, f = ax, ay, i
        elif t >= 1.0:
            cx, cy, f = bx, by, j
        else:
            cx, cy, f = ax + t * ex, ay + t * ey, 32 + i
        d2 = (px - cx) ** 2 + (py - cy) ** 2
        if d2 < best_d2:
            best_d2, qx, qy, feature = d2, cx, cy, f
    d = math.sqrt(best_d2)
    if feature >= 32:
        return qx, qy, d, normals[first + feature - 32, 0], normals[first + feature - 32, 1], feature
    if d <= ON_CORE:  # on a vertex: the face that sees the point best gives the normal
        return qx, qy, d, normals[first + best_i, 0], normals[first + best_i, 1], feature
    return qx, qy, d, (px - qx) / d, (py - qy) / d, feature


@_inline
def _circle_contact(p, a, b, vertices, normals, offsets, radius, placement, trig, margin,
                    out_normal, out_point, out_sep, out_ids, out_valid):
    """Pair ``p`` where A or B is a circle: the closest core point of the other shape to the circle's centre
    (in the other's frame) gives the axis, as ``engine.geometry.collide`` does. One point, or none."""
    a_is_circle = offsets[a + 1] - offsets[a] == 1
    circle, other = (a, b) if a_is_circle else (b, a)
    first, count = offsets[other], offsets[other + 1] - offsets[other]
    x, y = vertices[offsets[circle], 0], vertices[offsets[circle], 1]
    cos_c, sin_c = trig[circle, 0], trig[circle, 1]
    wx, wy = cos_c * x - sin_c * y + placement[circle, 0], sin_c * x + cos_c * y + placement[circle, 1]
    place = (trig[other, 0], trig[other, 1], placement[other, 0], placement[other, 1])
    dx, dy = wx - place[2], wy - place[3]
    px, py = place[0] * dx + place[1] * dy, -place[1] * dx + place[0] * dy
    if count == 1:
        qx, qy, d, nx, ny, feature = _point_circle_closest(vertices, first, px, py)
    elif count == 2:
        qx, qy, d, nx, ny, feature = _point_segment_closest(vertices, normals, first, px, py)
    else:
        qx, qy, d, nx, ny, feature = _point_polygon_closest(vertices, normals, first, count, px, py)
    r_other, r_circle = radius[other], radius[circle]
    separation = d - r_other - r_circle
    if separation > margin:
        return
    # Midway between the other's surface (q + r_other n) and the circle's (centre - r_circle n).
    mx = 0.5 * (qx + r_other * nx + px - r_circle * nx)
    my = 0.5 * (qy + r_other * ny + py - r_circle * ny)
    _put_normal(out_normal, p, nx, ny, place)
    if a_is_circle:  # n points from the other shape to the circle: from B to A here
        out_normal[p, 0], out_normal[p, 1] = -out_normal[p, 0], -out_normal[p, 1]
    fid = _make_id(0, feature) if a_is_circle else _make_id(feature, 0)
    _put_point(out_point, out_sep, out_ids, out_valid, p, 0, mx, my, separation, fid, place, margin)


@_inline
def _vertex_contact(va, fa, na_count, ea, vb, nb_count, eb, ra, rb, place, margin, p,
                    out_normal, out_point, out_sep, out_ids, out_valid):
    """The cores are apart (or both are segments): if the closest points of A's edge ``ea`` (rows from ``fa``
    of ``va``) and B's edge ``eb`` (rows from 0 of ``vb``, in A's frame) are two vertices, not of parallel
    edges side by side, the contact is one point on the vertex-vertex axis. Returns whether that decided the
    pair (written, or too far apart); False: clip as usual."""
    i11, i12 = ea, _next(ea, na_count)
    i21, i22 = eb, _next(eb, nb_count)
    a1x, a1y, a2x, a2y = va[fa + i11, 0], va[fa + i11, 1], va[fa + i12, 0], va[fa + i12, 1]
    b1x, b1y, b2x, b2y = vb[i21, 0], vb[i21, 1], vb[i22, 0], vb[i22, 1]
    f1, f2, c1x, c1y, c2x, c2y = _segment_closest(a1x, a1y, a2x, a2y, b1x, b1y, b2x, b2y)
    if not ((f1 == 0.0 or f1 == 1.0) and (f2 == 0.0 or f2 == 1.0)):
        return False  # (before the distance: edges side by side, the usual case, need no square root)
    dx, dy = c2x - c1x, c2y - c1y
    distance = math.hypot(dx, dy)
    if distance <= DISJOINT_TOLERANCE:
        return False
    if _parallel_overlap(a1x, a1y, a2x, a2y, b1x, b1y, b2x, b2y):
        return False  # parallel edges side by side (crates stacked square): a two-point line contact
    if distance - (ra + rb) > margin:
        return True
    nx, ny = dx / distance, dy / distance
    mx = 0.5 * (c1x + ra * nx + c2x - rb * nx)
    my = 0.5 * (c1y + ra * ny + c2y - rb * ny)
    feature = _make_id(i11 if f1 == 0.0 else i12, i21 if f2 == 0.0 else i22)
    _put_normal(out_normal, p, nx, ny, place)
    _put_point(out_point, out_sep, out_ids, out_valid, p, 0, mx, my, distance - (ra + rb), feature, place, margin)
    return True


@_inline
def _collide_one(p, a, b, vertices, normals, offsets, radius, placement, trig, margin, local_v, local_n,
                 out_normal, out_point, out_sep, out_ids, out_valid, out_edge):
    """Pair ``p`` (shapes ``a`` and ``b``; ``trig``: each shape's cos and sin) into row ``p`` of the outputs,
    which arrive empty. B's core is moved into A's frame (``local_v``, ``local_n``: scratch rows). Inlined
    into the pair loops: a call passing thirteen arrays cost about a tenth of a box pair's manifold (the cold
    compile takes no longer)."""
    fa, na_count = offsets[a], offsets[a + 1] - offsets[a]
    fb, nb_count = offsets[b], offsets[b + 1] - offsets[b]
    if na_count < 2 or nb_count < 2:
        _circle_contact(p, a, b, vertices, normals, offsets, radius, placement, trig, margin,
                        out_normal, out_point, out_sep, out_ids, out_valid)
        return
    place = (trig[a, 0], trig[a, 1], placement[a, 0], placement[a, 1])
    _into_frame(vertices, fb, nb_count, trig[b, 0], trig[b, 1], placement[b, 0], placement[b, 1],
                place[0], place[1], place[2], place[3], local_v)
    ra, rb = radius[a], radius[b]
    reach = margin + (ra + rb)
    ea, sep_a = _max_separation(vertices, normals, fa, na_count, local_v, 0, nb_count)
    if sep_a > reach:
        return
    # (B's normals only now: A's faces alone rule out many pairs of a loose pile)
    _normals_into_frame(normals, fb, nb_count, trig[b, 0], trig[b, 1], place[0], place[1], local_n)
    eb, sep_b = _max_separation(local_v, local_n, 0, nb_count, vertices, fa, na_count)
    if sep_b > reach:
        return
    flip = sep_b > sep_a + FLIP_TOLERANCE
    if flip:
        ea = _most_opposed(normals, fa, na_count, local_n[eb, 0], local_n[eb, 1])
    else:
        eb = _most_opposed(local_n, 0, nb_count, normals[fa + ea, 0], normals[fa + ea, 1])
    out_edge[p] = ea
    # Two (nearly) collinear segment cores have only their shared normal as a face axis, blind to a gap along
    # the line: their closest points are checked even when the separating axes say "overlapping".
    if max(sep_a, sep_b) > DISJOINT_TOLERANCE or (na_count == 2 and nb_count == 2):
        # (np.int64: numba would otherwise also compile a version for the literal 0 of its first typing pass)
        if _vertex_contact(vertices, fa, na_count, np.int64(ea), local_v, nb_count, np.int64(eb), ra, rb, place,
                           margin, p, out_normal, out_point, out_sep, out_ids, out_valid):
            if not out_valid[p, 0]:
                out_edge[p] = -1
            return
    a1, a2, b1, b2 = fa + ea, fa + _next(ea, na_count), eb, _next(eb, nb_count)
    a1x, a1y, a2x, a2y = vertices[a1, 0], vertices[a1, 1], vertices[a2, 0], vertices[a2, 1]
    b1x, b1y, b2x, b2y = local_v[b1, 0], local_v[b1, 1], local_v[b2, 0], local_v[b2, 1]
    if flip:  # B's edge is the reference, A's the incident edge
        nx, ny = local_n[b1, 0], local_n[b1, 1]
        lx, ly, lsep, ux, uy, usep = _clip(b1x, b1y, b2x, b2y, a1x, a1y, a2x, a2y, nx, ny, rb, ra)
        _put_normal(out_normal, p, -nx, -ny, place)
        # The reference lists the upper point first here: slot 0 is always A's a1 against B's b2.
        lx, ly, lsep, ux, uy, usep = ux, uy, usep, lx, ly, lsep
    else:
        nx, ny = normals[a1, 0], normals[a1, 1]
        lx, ly, lsep, ux, uy, usep = _clip(a1x, a1y, a2x, a2y, b1x, b1y, b2x, b2y, nx, ny, ra, rb)
        _put_normal(out_normal, p, nx, ny, place)
    _put_point(out_point, out_sep, out_ids, out_valid, p, 0, lx, ly, lsep, _make_id(a1 - fa, b2), place, margin)
    _put_point(out_point, out_sep, out_ids, out_valid, p, 1, ux, uy, usep, _make_id(a2 - fa, b1), place, margin)
    if not (out_valid[p, 0] or out_valid[p, 1]):
        out_edge[p] = -1


@_jit
def _collide_pairs(vertices, normals, offsets, radius, placement, pair_a, pair_b, margin):
    """:func:`collide_pairs`' work: each shape's cos and sin once, then the pairs one after the other."""
    count = len(pair_a)
    out_normal = np.zeros((count, 2))
    out_point = np.zeros((count, 2, 2))
    out_sep = np.full((count, 2), np.inf)
    out_ids = np.zeros((count, 2), dtype=np.int64)
    out_valid = np.zeros((count, 2), dtype=np.bool_)
    out_edge = np.full(count, -1, dtype=np.int64)
    shapes = len(offsets) - 1
    trig = np.empty((shapes, 2))
    widest = 1
    for s in range(shapes):
        trig[s, 0], trig[s, 1] = math.cos(placement[s, 2]), math.sin(placement[s, 2])
        widest = max(widest, offsets[s + 1] - offsets[s])
    local_v, local_n = np.empty((widest, 2)), np.empty((widest, 2))
    _collide_all(pair_a, pair_b, vertices, normals, offsets, radius, placement, trig, margin, local_v, local_n,
                 out_normal, out_point, out_sep, out_ids, out_valid, out_edge)
    return out_normal, out_point, out_sep, out_ids, out_valid, out_edge


@_without_runtime
def _collide_all(pair_a, pair_b, vertices, normals, offsets, radius, placement, trig, margin, local_v, local_n,
                 out_normal, out_point, out_sep, out_ids, out_valid, out_edge):
    """Pair ``p`` = (``pair_a[p]``, ``pair_b[p]``) into row ``p`` of the outputs, which arrive empty, for every
    pair (``trig``: each shape's cos and sin; ``local_v``, ``local_n``: scratch rows for the widest core)."""
    for p in range(len(pair_a)):
        _collide_one(p, pair_a[p], pair_b[p], vertices, normals, offsets, radius, placement, trig, margin,
                     local_v, local_n, out_normal, out_point, out_sep, out_ids, out_valid, out_edge)


def collide_pairs(vertices: np.ndarray, normals: np.ndarray, offsets: np.ndarray, radius: np.ndarray,
                  placement: np.ndarray, pair_a: np.ndarray, pair_b: np.ndarray, margin: float) -> PairManifolds:
    """Manifolds of shapes ``pair_a[p]`` (A) and ``pair_b[p]`` (B) for every pair ``p``: ``vertices`` and
    ``normals`` (V, 2), ``offsets`` (S + 1,), ``radius`` (S,), ``placement`` (S, 3) as in the module docstring.
    ``margin`` (px, >= 0) is the speculative distance, as in ``collide``.
    The arrays are made C-contiguous in the one dtype the kernel is compiled for (another would compile a new
    version mid-game)."""
    def real(x: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(x, dtype=np.float64)

    def whole(x: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(x, dtype=np.int64)

    return PairManifolds(*_collide_pairs(real(vertices), real(normals), whole(offsets), real(radius),
                                         real(placement), whole(pair_a), whole(pair_b), float(margin)))


@_without_runtime
def _sort_by_min_x(order, boxes):
    """Sort ``order`` (rows of ``boxes``) in place by min x, ties by row: numpy's stable argsort of min x.
    Insertion sort: the caller keeps the order from step to step, and bodies move little in a step, so it
    is nearly sorted already (a few moves per body)."""
    for i in range(1, len(order)):
        item = order[i]
        key = boxes[item, 0]
        j = i - 1
        while j >= 0 and (boxes[order[j], 0] > key or (boxes[order[j], 0] == key and order[j] > item)):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = item


@_without_runtime
def _swept_boxes(boxes, order, asleep, swept, sleeps):
    """The boxes and sleep flags copied in sweep order (``order``, by min x), into ``swept`` and ``sleeps``: the
    sweep's inner loop then reads memory in sequence, not through ``order``."""
    for i in range(len(order)):
        for c in range(4):
            swept[i, c] = boxes[order[i], c]
        sleeps[i] = asleep[order[i]]


@_without_runtime
def _swept_pairs(swept, sleeps, order, ids, lo, hi):
    """Sweep and prune over the boxes in sweep order (``swept``, by min x): each box against the boxes after it
    that start within its x extent, then their y extents; pairs of two sleepers (``sleeps``) are left out.
    Writes the pairs' rows (lower id first), in the order found, into ``lo`` and ``hi``; returns how many
    pairs, or -1 when they do not fit."""
    total = 0
    for i in range(len(order)):
        a_max_x, a_min_y, a_max_y, a_sleeps = swept[i, 2], swept[i, 1], swept[i, 3], sleeps[i]
        for j in range(i + 1, len(order)):
            if swept[j, 0] > a_max_x:
                break
            if a_min_y <= swept[j, 3] and a_max_y >= swept[j, 1] and not (a_sleeps and sleeps[j]):
                if total == len(lo):
                    return -1
                a, b = order[i], order[j]
                lo[total], hi[total] = (a, b) if ids[a] < ids[b] else (b, a)
                total += 1
    return total


@_without_runtime
def _sorted_pairs(lo, hi, first, out_lo, out_hi):
    """The pairs (``lo``, ``hi``: rows) sorted by (lo, hi) into ``out_lo`` and ``out_hi``: a counting sort by
    lo (``first``: zeros, one more than there are rows), then each lo's his by insertion (they are few)."""
    for p in range(len(lo)):
        first[lo[p] + 1] += 1
    rows = len(first) - 1
    for k in range(rows):
        first[k + 1] += first[k]
    for p in range(len(lo)):  # (``first[k]`` moves up to the next free place of lo k, then back)
        at = first[lo[p]]
        out_lo[at], out_hi[at] = lo[p], hi[p]
        first[lo[p]] += 1
    for k in range(rows - 1, 0, -1):
        first[k] = first[k - 1]
    first[0] = 0
    for k in range(rows):
        for i in range(first[k] + 1, first[k + 1]):
            item, j = out_hi[i], i - 1
            while j >= first[k] and out_hi[j] > item:
                out_hi[j + 1] = out_hi[j]
                j -= 1
            out_hi[j + 1] = item


@_jit
def sweep_pairs(boxes, order, ids, asleep):
    """All pairs (lo, hi) of overlapping boxes ((K, 4): min_x, min_y, max_x, max_y, px; touching counts),
    ``lo`` the one with the lower id (``ids``: (K,), distinct), sorted by (lo, hi) row; without the pairs of
    two boxes flagged in ``asleep`` ((K,) bool). ``order``: the rows, last sorted by min x (sorted again in
    place: keep it for the next call). The work is done without numba's runtime (:func:`_sweep_into`); here
    only the arrays are made (a step's gathering sweeps in its memory's scratch instead: :func:`_sweep_in`)."""
    count, room = len(order), _sweep_room(len(order))
    while True:  # (rarely twice: a pile averages under three pairs per body)
        floats, ints, flags = np.empty(4 * count), np.empty(count + 1 + 4 * room, np.int64), np.empty(count, np.bool_)
        total = _sweep_into(boxes, order, ids, asleep, floats, ints, flags)
        if total >= 0:
            return _swept_out(ints, count, total)
        room *= 2


@_inline
def _sweep_room(count):
    """Room for this many pairs of ``count`` boxes, at first."""
    return 16 + 4 * count


@_inline
def _swept_out(ints, count, total):
    """The ``total`` pairs (lo, hi) :func:`_sweep_into` sorted into its int scratch ``ints`` (of ``count``
    boxes)."""
    room = (len(ints) - count - 1) // 4
    return ints[count + 1 + 2 * room:count + 1 + 2 * room + total], ints[count + 1 + 3 * room:count + 1 + 3 * room + total]


@_without_runtime
def _sweep_into(boxes, order, ids, asleep, floats, ints, flags):
    """:func:`sweep_pairs`' work in scratch: the boxes and sleep flags in sweep order (``floats``, ``flags``:
    4 and 1 a box), then in ``ints`` a counting sort's starts (one more than there are boxes) and room for the
    pairs four times over (found lo, hi; sorted lo, hi: read them with :func:`_swept_out`). Returns how many
    pairs, or -1 when the room is short (nothing sorted then)."""
    count = len(order)
    room = (len(ints) - count - 1) // 4
    _sort_by_min_x(order, boxes)
    swept, sleeps = shaped(floats[:4 * count], (count, 4)), flags[:count]
    _swept_boxes(boxes, order, asleep, swept, sleeps)
    first, pairs = ints[:count + 1], ints[count + 1:]
    total = _swept_pairs(swept, sleeps, order, ids, pairs[:room], pairs[room:2 * room])
    if total < 0:
        return total
    first[:] = 0
    _sorted_pairs(pairs[:total], pairs[room:room + total], first, pairs[2 * room:2 * room + total],
                  pairs[3 * room:3 * room + total])
    return total


@_jit
def _sweep_in(m):
    """:func:`sweep_pairs` of the step memory ``m``'s boxes, ids, sleep flags and sweep order, in its sweep
    scratch (grown when short: :func:`~engine.world.step_memory.grow_scratch`); returns how many pairs
    (read them with :func:`_swept_out`, within the step)."""
    count = _bodies_in(m)
    if count < 2:
        return 0
    room = _sweep_room(count)
    while True:
        if scratch_short(m, SWEEP_SCRATCH, 4 * count, count + 1 + 4 * room, count):
            grow_scratch(m, SWEEP_SCRATCH, 4 * count, count + 1 + 4 * room, count)
        total = _sweep_borrowed(m)
        if total >= 0:
            return total
        room = 2 * ((len(m.sweep_ints) - count - 1) // 4)


@_without_runtime
def _sweep_borrowed(m):
    """:func:`_sweep_into` of the step memory ``m``'s arrays (borrowed: see
    :func:`~engine.world.step_memory.borrowed`)."""
    return _sweep_into(borrowed(m, "boxes"), borrowed(m, "sweep_order"), borrowed(m, "ids"), borrowed(m, "asleep"),
                       borrowed(m, "sweep_floats"), borrowed(m, "sweep_ints"), borrowed(m, "sweep_flags"))


def overlapping_boxes(boxes: np.ndarray, ids: np.ndarray, asleep: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sweep_pairs` from no order (the step keeps its order from step to step instead)."""
    count = len(boxes)
    flags = np.zeros(count, dtype=np.bool_) if asleep is None else np.ascontiguousarray(asleep, dtype=np.bool_)
    return sweep_pairs(np.ascontiguousarray(boxes, dtype=np.float64), np.arange(count, dtype=np.int64),
                       np.ascontiguousarray(ids, dtype=np.int64), flags)


@_jit
def _cell_members(ix, iy, cell_keys):
    """The row of grid cell (ix, iy) in ``cell_keys`` (see ``StaticBroadPhase.cell_arrays``), -1 if empty."""
    key = np.int64(ix) * 4294967296 + iy + 2147483648
    at = np.searchsorted(cell_keys, key)
    return at if at < len(cell_keys) and cell_keys[at] == key else -1


@_jit
def _segments_near(box, cell_size, cell_keys, cell_starts, members, segment_boxes, stamp, mark, out):
    """``StaticBroadPhase.query_list(box)``: the segments in the grid cells ``box`` touches whose boxes overlap
    it, ascending, written into ``out``; returns how many. ``mark``: a per-segment scratch array, ``stamp`` a
    value it does not hold yet."""
    inv = 1.0 / cell_size
    x0, x1 = math.floor(box[0] * inv), math.floor(box[2] * inv)
    y0, y1 = math.floor(box[1] * inv), math.floor(box[3] * inv)
    walk = (x1 - x0 + 1) * (y1 - y0 + 1) > len(cell_keys)  # a box larger than the grid: the occupied cells
    count = 0
    for cell in range(len(cell_keys) if walk else (x1 - x0 + 1) * (y1 - y0 + 1)):
        if walk:
            ix, iy = cell_keys[cell] // 4294967296, cell_keys[cell] % 4294967296 - 2147483648
            row = cell if x0 <= ix <= x1 and y0 <= iy <= y1 else -1
        else:
            row = _cell_members(x0 + cell // (y1 - y0 + 1), y0 + cell % (y1 - y0 + 1), cell_keys)
        if row < 0:
            continue
        for m in range(cell_starts[row], cell_starts[row + 1]):
            s = members[m]
            if mark[s] != stamp and segment_boxes[s, 0] <= box[2] and segment_boxes[s, 2] >= box[0] \
                    and segment_boxes[s, 1] <= box[3] and segment_boxes[s, 3] >= box[1]:
                mark[s] = stamp
                if count == len(out):
                    return -1  # (no room: the caller grows ``out``)
                j = count
                while j > 0 and out[j - 1] > s:  # (insertion: the lists are short)
                    out[j] = out[j - 1]
                    j -= 1
                out[j], count = s, count + 1
    return count


@_inline
def _inside_near_box(near_boxes, boxes, k):
    """Whether body ``k``'s box lies within the padded box its near segments were looked up for."""
    return (near_boxes[k, 0] <= boxes[k, 0] and near_boxes[k, 1] <= boxes[k, 1] and near_boxes[k, 2] >= boxes[k, 2]
            and near_boxes[k, 3] >= boxes[k, 3])


@_without_runtime
def near_lists_stand(near_boxes, boxes, awake, kept_awake):
    """Whether :func:`refresh_near` would change nothing: the awake bodies are ``kept_awake`` and each one's box
    lies within its padded box (the usual step; without numba's runtime, so asking costs nothing)."""
    if len(awake) != len(kept_awake):
        return False
    for i in range(len(awake)):
        if awake[i] != kept_awake[i] or not _inside_near_box(near_boxes, boxes, awake[i]):
            return False
    return True


@_jit
def refresh_near(near_boxes, near_start, near_members, boxes, awake, kept_awake, pad, cell_size, cell_keys,
                 cell_starts, members, segment_boxes):
    """Each body's static segments near it (``near_members[near_start[k]:near_start[k + 1]]``) were looked up
    for its box padded by ``pad`` px (``near_boxes[k]``). Awake bodies (``awake``) whose box (``boxes``) left
    that padded box look again (``near_boxes`` updated in place). Returns whether nothing changed and the
    awake bodies are ``kept_awake`` (the caller's (body, segment) pairs stand); the lists (start, members);
    and the (body, segment) pairs of the awake bodies, body by body (empty when nothing changed)."""
    if near_lists_stand(near_boxes, boxes, awake, kept_awake):
        return True, near_start, near_members, awake[:0], awake[:0]
    outside = np.zeros(len(awake), dtype=np.bool_)
    for i in range(len(awake)):
        outside[i] = not _inside_near_box(near_boxes, boxes, awake[i])
    count = len(near_start) - 1
    fresh_start, fresh = np.zeros(len(awake) + 1, dtype=np.int64), np.empty(64, dtype=np.int64)
    mark, out, stamp = np.full(len(segment_boxes), -1, dtype=np.int64), np.empty(64, dtype=np.int64), 0
    for i in range(len(awake)):
        if outside[i]:
            k = awake[i]
            near_boxes[k, 0], near_boxes[k, 1] = boxes[k, 0] + -pad, boxes[k, 1] + -pad
            near_boxes[k, 2], near_boxes[k, 3] = boxes[k, 2] + pad, boxes[k, 3] + pad
            found = _segments_near(near_boxes[k], cell_size, cell_keys, cell_starts, members, segment_boxes, stamp,
                                   mark, out)
            stamp += 1
            while found < 0:  # (no room in ``out``)
                out = np.empty(2 * len(out), dtype=np.int64)
                found = _segments_near(near_boxes[k], cell_size, cell_keys, cell_starts, members, segment_boxes,
                                       stamp, mark, out)
                stamp += 1
            while fresh_start[i] + found > len(fresh):
                fresh = np.concatenate((fresh, np.empty(len(fresh), dtype=np.int64)))
            fresh[fresh_start[i]:fresh_start[i] + found] = out[:found]
        else:
            found = 0
        fresh_start[i + 1] = fresh_start[i] + found
    return _merged_near(count, near_start, near_members, awake, outside, fresh_start, fresh)


@_jit
def _merged_near(count, near_start, near_members, awake, outside, fresh_start, fresh):
    """:func:`refresh_near`'s lists: the fresh ones of the bodies that looked again, the others' as they
    were; and the awake bodies' (body, segment) pairs."""
    fresh_of = np.full(count, -1, dtype=np.int64)
    for i in range(len(awake)):
        if outside[i]:
            fresh_of[awake[i]] = i
    start = np.zeros(count + 1, dtype=np.int64)
    for k in range(count):
        i = fresh_of[k]
        size = fresh_start[i + 1] - fresh_start[i] if i >= 0 else near_start[k + 1] - near_start[k]
        start[k + 1] = start[k] + size
    merged = np.empty(start[count], dtype=np.int64)
    for k in range(count):
        i = fresh_of[k]
        source = fresh[fresh_start[i]:fresh_start[i + 1]] if i >= 0 else near_members[near_start[k]:near_start[k + 1]]
        merged[start[k]:start[k + 1]] = source
    total = 0
    for k in awake:
        total += start[k + 1] - start[k]
    ks, segs, at = np.empty(total, dtype=np.int64), np.empty(total, dtype=np.int64), 0
    for k in awake:
        for m in range(start[k], start[k + 1]):
            ks[at], segs[at], at = k, merged[m], at + 1
    return False, start, merged, ks, segs


@_jit
def _static_touching(candidate_body, candidate_segment, segment_boxes, boxes):
    """The (body, segment) candidates whose boxes overlap (touching counts), in the candidates' order."""
    ks, sg = np.empty_like(candidate_body), np.empty_like(candidate_segment)
    kept = _static_touching_into(candidate_body, candidate_segment, segment_boxes, boxes, ks, sg)
    return ks[:kept], sg[:kept]


@_without_runtime
def _static_touching_into(candidate_body, candidate_segment, segment_boxes, boxes, ks, sg):
    """:func:`_static_touching` into the first rows of ``ks`` and ``sg`` (room for every candidate); returns
    how many."""
    kept = 0
    for i in range(len(candidate_body)):
        s, b = candidate_segment[i], candidate_body[i]
        if (segment_boxes[s, 0] <= boxes[b, 2] and segment_boxes[s, 2] >= boxes[b, 0]
                and segment_boxes[s, 1] <= boxes[b, 3] and segment_boxes[s, 3] >= boxes[b, 1]):
            ks[kept], sg[kept], kept = b, s, kept + 1
    return kept


@_jit
def _with_segments(vertices, normals, offsets, radius, body_trig, ends_a, ends_b, side, segment_radius, segments):
    """The bodies' shape arrays followed by one two-vertex shape per entry of ``segments`` (its world ends,
    sides ``side`` and ``-side``, placed at the origin), and every shape's cos and sin (the bodies':
    ``body_trig``)."""
    bodies, first_row, count = len(offsets) - 1, offsets[-1], len(segments)
    all_v, all_n = np.empty((first_row + 2 * count, 2)), np.empty((first_row + 2 * count, 2))
    all_offsets, all_radius = np.empty(bodies + count + 1, dtype=np.int64), np.empty(bodies + count)
    trig = np.empty((bodies + count, 2))
    _with_segments_into(vertices, normals, offsets, radius, body_trig, ends_a, ends_b, side, segment_radius, segments,
                        all_v, all_n, all_offsets, all_radius, trig)
    return all_v, all_n, all_offsets, all_radius, trig


@_without_runtime
def _with_segments_into(vertices, normals, offsets, radius, body_trig, ends_a, ends_b, side, segment_radius,
                        segments, all_v, all_n, all_offsets, all_radius, trig):
    """:func:`_with_segments` into its arrays (each sized for the bodies and ``segments``)."""
    bodies, first_row, count = len(offsets) - 1, offsets[-1], len(segments)
    for row in range(first_row):  # (loops: an array copied into a slice would need the runtime)
        for c in range(2):
            all_v[row, c], all_n[row, c] = vertices[row, c], normals[row, c]
    for k in range(bodies + 1):
        all_offsets[k] = offsets[k]
    for k in range(bodies):
        all_radius[k], trig[k, 0], trig[k, 1] = radius[k], body_trig[k, 0], body_trig[k, 1]
    for j in range(count):
        s, row = segments[j], first_row + 2 * j
        for c in range(2):
            all_v[row, c], all_v[row + 1, c] = ends_a[s, c], ends_b[s, c]
            all_n[row, c], all_n[row + 1, c] = side[s, c], -side[s, c]
        all_offsets[bodies + j + 1] = row + 2
        all_radius[bodies + j] = segment_radius[s]
        trig[bodies + j, 0], trig[bodies + j, 1] = 1.0, 0.0  # (cos and sin of 0: the segments' placement)


@_jit
def _manifolds(vertices, normals, offsets, radius, placement, trig, pair_a, pair_b, margin):
    """Manifolds of the shape pairs (as :func:`_collide_pairs`, with each shape's cos and sin given)."""
    count, shapes = len(pair_a), len(offsets) - 1
    out_normal, out_point, out_sep = np.empty((count, 2)), np.empty((count, 2, 2)), np.empty((count, 2))
    out_ids, out_valid = np.empty((count, 2), dtype=np.int64), np.empty((count, 2), dtype=np.bool_)
    out_edge = np.empty(count, dtype=np.int64)
    widest = _widest(offsets)
    _manifolds_into(vertices, normals, offsets, radius, placement, trig, pair_a, pair_b, margin, np.empty((widest, 2)),
                    np.empty((widest, 2)), np.empty((shapes, 3)), out_normal, out_point, out_sep, out_ids, out_valid,
                    out_edge)
    return out_normal, out_point, out_sep, out_ids, out_valid, out_edge


@_inline
def _widest(offsets):
    """The most vertices of any shape (at least 2: a segment's)."""
    widest = 2
    for s in range(len(offsets) - 1):
        widest = max(widest, offsets[s + 1] - offsets[s])
    return widest


@_without_runtime
def _manifolds_into(vertices, normals, offsets, radius, placement, trig, pair_a, pair_b, margin, local_v, local_n,
                    padded, out_normal, out_point, out_sep, out_ids, out_valid, out_edge):
    """:func:`_manifolds` into its outputs (one row per pair; they arrive uninitialised), with scratch rows for
    the widest core (``local_v``, ``local_n``) and every shape's placement (``padded``: the bodies' from
    ``placement``, the segments' at the origin, unturned)."""
    out_normal[:], out_point[:], out_sep[:], out_ids[:], out_valid[:], out_edge[:] = 0.0, 0.0, np.inf, 0, False, -1
    padded[:] = 0.0
    for k in range(len(placement)):
        for j in range(3):
            padded[k, j] = placement[k, j]
    _collide_all(pair_a, pair_b, vertices, normals, offsets, radius, padded, trig, margin, local_v, local_n,
                 out_normal, out_point, out_sep, out_ids, out_valid, out_edge)


KEY_KIND_SHIFT, KEY_A_SHIFT, KEY_A_MASK = 58, 29, 2**29 - 1
"""A contact's pair key: A's kind in the bits from ``KEY_KIND_SHIFT`` up, A (a static contact's segment index,
else a body id) in the 29 bits from ``KEY_A_SHIFT``, B's body id in the lowest 29 (see
``engine.world.contacts._key``, which makes the keys of the contacts collided in Python)."""


@_jit
def _kept_rows(static_pairs, a_rows, b_rows, ids, count, out_ids, out_valid, out_edge, segment_shared):
    """Which pairs have a point; renumbers the segments' features as the padded segment did (reached through
    its back edge, b is ``n - 2`` and a ``n - 1`` for a body of ``n > 2`` vertices); each kept pair's key;
    and which kept static pairs the seam rule must look at (one point, at a segment with a joint)."""
    total = len(a_rows)
    keep, keys, seam = np.empty(total, dtype=np.bool_), np.empty(total, dtype=np.int64), np.empty(total, np.bool_)
    _kept_rows_into(static_pairs, a_rows, b_rows, ids, count, out_ids, out_valid, out_edge, segment_shared, keep, keys,
                    seam)
    return keep, keys, seam


@_without_runtime
def _kept_rows_into(static_pairs, a_rows, b_rows, ids, count, out_ids, out_valid, out_edge, segment_shared, keep, keys,
                    seam):
    """:func:`_kept_rows` into ``keep``, ``keys`` and ``seam`` (one row per pair, uninitialised)."""
    for p in range(len(a_rows)):
        keep[p], seam[p] = out_valid[p, 0] or out_valid[p, 1], False
        if p < static_pairs:
            n = count[b_rows[p]]
            for slot in range(2):
                if out_edge[p] == 1 and n > 2 and out_valid[p, slot]:
                    out_ids[p, slot] = (n - 1 - (out_ids[p, slot] >> 8)) << 8 | (out_ids[p, slot] & 0xFF)
            keys[p] = (np.int64(0) << KEY_KIND_SHIFT) | (a_rows[p] << KEY_A_SHIFT) | ids[b_rows[p]]
            seam[p] = out_valid[p, 0] and not out_valid[p, 1] and segment_shared[a_rows[p]]
        else:
            keys[p] = (np.int64(3) << KEY_KIND_SHIFT) | (ids[a_rows[p]] << KEY_A_SHIFT) | ids[b_rows[p]]


@_inline
def _leans_over_neighbour(segment, px, py, nx, ny, ends_a, ends_b, joints):
    """The seam rule for a one-point contact (first point ``px``, ``py``; normal ``nx``, ``ny``) with
    ``segment``: at an end cap the segment shares with other segments (``joints``:
    :meth:`~engine.world.static.StaticGeometry.joint_table`), a normal leaning over one of them (along it,
    past 1e-6) makes the contact that neighbour's business."""
    ends, order, group_start, group_size = joints
    count = len(ends_a)
    ax, ay = ends_a[segment, 0], ends_a[segment, 1]
    ex, ey = ends_b[segment, 0] - ax, ends_b[segment, 1] - ay
    t = (px - ax) * ex + (py - ay) * ey
    if 0.0 < t < ex * ex + ey * ey:
        return False
    here = segment if t <= 0.0 else segment + count
    hx, hy = ends[here, 0], ends[here, 1]
    for k in range(group_start[here], group_start[here] + group_size[here] if group_size[here] > 1 else 0):
        other = order[k]
        if other % count == segment:
            continue
        far = (other + count) % (2 * count)  # (the other end of that segment)
        dx, dy = ends[far, 0] - hx, ends[far, 1] - hy
        length = py_hypot(dx, dy)
        if length > 0 and nx * (dx / length) + ny * (dy / length) > 1e-6:
            return True
    return False


@_jit
def gather_manifolds(vertices, normals, offsets, radius, placement, trig, ends_a, ends_b, side, segment_radius,
                     segment_boxes, segment_shared, joints, boxes, ids, count, candidate_body, candidate_segment, lo,
                     hi, margin, asleep, slop):
    """Every body-segment and body-body manifold of a step that has a point, in one call: the static
    candidates (bodies ``candidate_body`` near segments ``candidate_segment``) whose boxes overlap, then the
    body pairs ``lo`` (A) and ``hi`` (B). Shapes as :func:`collide_pairs` takes them (the bodies'; ``boxes``
    their grown boxes, ``ids`` and ``count`` their ids and vertex counts), segments as the broad phase holds
    them (world ends, radius, box; ``side``: each one's unit side normal; ``segment_shared``: an end meets
    another segment; ``joints``: which ends meet, for the seam rule, :func:`_leans_over_neighbour`). Returns
    the kept pairs (with a point, and not dropped by the seam rule), static ones first, packed
    (:func:`found_arrays`: A's kind is 0 static or 3 body, A's row a segment or body, A's body row -1 for a
    segment; touch summary with ``asleep`` and ``slop`` as :func:`touch_summary`), the contacts that wake a
    sleeper (rows) and how many pairs are static.

    The stages (:func:`_static_touching`, :func:`_with_segments`, :func:`_manifolds`, :func:`_kept_rows`, the
    seam rule) run without numba's runtime in three scratch arrays (:func:`_manifold_scratch`), then the kept
    rows are copied out (:func:`_compact_rows`): a call with the runtime counts every array handed to it in and
    out, and each array made costs an allocation."""
    sizes = (len(offsets) - 1, offsets[-1], len(candidate_body), len(candidate_body) + len(lo), _widest(offsets))
    floats, ints, flags = _scratch_buffers(*sizes)
    static_pairs, kept, kept_static = _manifold_rows(
        vertices, normals, offsets, radius, placement, trig, ends_a, ends_b, side, segment_radius, segment_boxes,
        segment_shared, joints, boxes, ids, count, candidate_body, candidate_segment, lo, hi, margin, floats, ints,
        flags, sizes)
    return _found_out(floats, ints, flags, sizes, static_pairs + len(lo), static_pairs, kept, kept_static, asleep,
                      slop)


@_jit
def _found_out(floats, ints, flags, sizes, pairs, static_pairs, kept, kept_static, asleep, slop):
    """:func:`gather_manifolds`' outputs from its scratch (``kept`` of the ``pairs`` pairs kept): the kept
    contacts packed, the rows that wake a sleeper, how many kept pairs are static."""
    found_ints, found_floats, found_flags = found_buffers(kept)
    wakers = np.empty(kept, np.int64)
    waking = _compact_found(floats, ints, flags, sizes, pairs, static_pairs, asleep, slop, found_ints, found_floats,
                            found_flags, wakers)
    return found_ints, found_floats, found_flags, wakers[:waking], kept_static


@_jit
def _scratch_buffers(bodies, first_row, static_room, pair_room, widest):
    """The float, int and flag scratch of :func:`_manifold_scratch`."""
    float_size, int_size, flag_size = _scratch_sizes(bodies, first_row, static_room, pair_room, widest)
    return np.empty(float_size), np.empty(int_size, np.int64), np.empty(flag_size, np.bool_)


@_inline
def _scratch_sizes(bodies, first_row, static_room, pair_room, widest):
    """How long the float, int and flag scratch of :func:`_manifold_scratch` are."""
    shapes = bodies + static_room
    return (2 * 2 * (first_row + 2 * static_room) + shapes * (1 + 2 + 3) + 2 * 2 * widest + pair_room * 8,
            shapes + 1 + 2 * static_room + pair_room * 7, pair_room * 4)


@_inline
def _manifold_scratch(floats, ints, flags, sizes):
    """The stages' arrays, carved out of the scratch (``sizes``: bodies, their vertex rows, room for static
    pairs and for all pairs, the widest core): the shapes with the segments (vertices, normals, offsets,
    radius, cos and sin, placement), the core scratch rows, the static pairs kept (bodies, segments), every
    pair's shapes and A's row, its manifold (normal, point, separation, ids, valid, A's edge) and key, and
    whether it is kept and the seam rule looks at it."""
    bodies, first_row, static_room, pair_room, widest = sizes
    shapes, rows = bodies + static_room, first_row + 2 * static_room
    all_v, all_n = shaped(floats[:2 * rows], (rows, 2)), shaped(floats[2 * rows:4 * rows], (rows, 2))
    at = 4 * rows
    all_radius, trig = floats[at:at + shapes], shaped(floats[at + shapes:at + 3 * shapes], (shapes, 2))
    padded = shaped(floats[at + 3 * shapes:at + 6 * shapes], (shapes, 3))
    at += 6 * shapes
    local_v = shaped(floats[at:at + 2 * widest], (widest, 2))
    local_n = shaped(floats[at + 2 * widest:at + 4 * widest], (widest, 2))
    at += 4 * widest
    normal = shaped(floats[at:at + 2 * pair_room], (pair_room, 2))
    point = shaped(floats[at + 2 * pair_room:at + 6 * pair_room], (pair_room, 2, 2))
    sep = shaped(floats[at + 6 * pair_room:at + 8 * pair_room], (pair_room, 2))
    all_offsets, ks, sg = ints[:shapes + 1], ints[shapes + 1:shapes + 1 + static_room], ints[
        shapes + 1 + static_room:shapes + 1 + 2 * static_room]
    at = shapes + 1 + 2 * static_room
    pair_a, pair_b, a_rows = ints[at:at + pair_room], ints[at + pair_room:at + 2 * pair_room], ints[
        at + 2 * pair_room:at + 3 * pair_room]
    fid = shaped(ints[at + 3 * pair_room:at + 5 * pair_room], (pair_room, 2))
    edge = ints[at + 5 * pair_room:at + 6 * pair_room]
    keys = ints[at + 6 * pair_room:at + 7 * pair_room]
    valid, keep, seam = shaped(flags[:2 * pair_room], (pair_room, 2)), flags[2 * pair_room:3 * pair_room], \
        flags[3 * pair_room:4 * pair_room]
    return (all_v, all_n, all_offsets, all_radius, trig, padded, local_v, local_n, ks, sg, pair_a, pair_b, a_rows,
            normal, point, sep, fid, valid, edge, keys, keep, seam)


@_without_runtime
def _manifold_rows(vertices, normals, offsets, radius, placement, trig, ends_a, ends_b, side, segment_radius,
                   segment_boxes, segment_shared, joints, boxes, ids, count, candidate_body, candidate_segment, lo, hi,
                   margin, floats, ints, flags, sizes):
    """:func:`gather_manifolds`' stages in its scratch (see :func:`_manifold_scratch`); returns how many static
    pairs touch by their boxes, how many pairs are kept, how many of them static."""
    (all_v, all_n, all_offsets, all_radius, all_trig, padded, local_v, local_n, ks, sg, pair_a, pair_b, a_rows,
     normal, point, sep, fid, valid, edge, keys, keep, seam) = _manifold_scratch(floats, ints, flags, sizes)
    bodies, first_row = sizes[0], sizes[1]
    static_pairs = _static_touching_into(candidate_body, candidate_segment, segment_boxes, boxes, ks, sg)
    shapes, pairs = bodies + static_pairs, static_pairs + len(lo)
    _with_segments_into(vertices, normals, offsets, radius, trig, ends_a, ends_b, side, segment_radius,
                        sg[:static_pairs], all_v[:first_row + 2 * static_pairs], all_n[:first_row + 2 * static_pairs],
                        all_offsets[:shapes + 1], all_radius[:shapes], all_trig[:shapes])
    for p in range(static_pairs):
        pair_a[p], pair_b[p], a_rows[p] = bodies + p, ks[p], sg[p]
    for i in range(len(lo)):
        pair_a[static_pairs + i], pair_b[static_pairs + i], a_rows[static_pairs + i] = lo[i], hi[i], lo[i]
    _manifolds_into(all_v[:first_row + 2 * static_pairs], all_n[:first_row + 2 * static_pairs],
                    all_offsets[:shapes + 1], all_radius[:shapes], placement, all_trig[:shapes], pair_a[:pairs],
                    pair_b[:pairs], margin, local_v, local_n, padded[:shapes], normal[:pairs], point[:pairs],
                    sep[:pairs], fid[:pairs], valid[:pairs], edge[:pairs])
    _kept_rows_into(static_pairs, a_rows[:pairs], pair_b[:pairs], ids, count, fid[:pairs], valid[:pairs],
                    edge[:pairs], segment_shared, keep[:pairs], keys[:pairs], seam[:pairs])
    kept = kept_static = 0
    for p in range(pairs):
        if seam[p]:
            keep[p] = not _leans_over_neighbour(a_rows[p], point[p, 0, 0], point[p, 0, 1], normal[p, 0], normal[p, 1],
                                                ends_a, ends_b, joints)
        kept += keep[p]
        kept_static += keep[p] and p < static_pairs
    return static_pairs, kept, kept_static


@_without_runtime
def _compact_found(floats, ints, flags, sizes, pairs, static_pairs, asleep, slop, found_ints, found_floats,
                   found_flags, wakers):
    """The kept rows of :func:`_manifold_rows`' pairs (the first ``pairs`` of the scratch) into the packed
    contacts (:func:`found_arrays`), with their touch summary; writes the rows that wake a sleeper into
    ``wakers`` and returns how many."""
    (_, _, _, _, _, _, _, _, _, _, _, pair_b, a_rows, normal, point, sep, fid, valid, _, keys, keep,
     _) = _manifold_scratch(floats, ints, flags, sizes)
    (out_keys, kind, out_a_rows, a_index, out_b_rows, out_fid, out_normal, out_point, out_sep, closest, out_valid,
     touching) = found_views(found_ints, found_floats, found_flags)
    return _compact_rows(keep[:pairs], static_pairs, keys, a_rows, pair_b, fid, normal, point, sep, valid, asleep,
                         slop, out_keys, kind, out_a_rows, a_index, out_b_rows, out_fid, out_normal, out_point,
                         out_sep, closest, out_valid, touching, wakers)


@_without_runtime
def _compact_rows(keep, static_pairs, keys, a_rows, b_rows, fid, normal, point, sep, valid, asleep, slop, out_keys,
                  kind, out_a_rows, a_index, out_b_rows, out_fid, out_normal, out_point, out_sep, closest, out_valid,
                  touching, wakers):
    """:func:`_compact_found`'s loop: the rows ``keep`` of the manifolds, with the static pairs (the first
    ``static_pairs``) of kind 0 and A's body row -1, the others kind 3 and A's body row ``a_rows``, and their
    touch summary. Writes the rows that wake a sleeper into ``wakers``; returns how many."""
    count, row = 0, 0
    for p in range(len(keep)):
        if not keep[p]:
            continue
        kind[row], a_index[row] = (0, -1) if p < static_pairs else (3, a_rows[p])  # (0: STATIC, 3: DYNAMIC)
        out_keys[row], out_a_rows[row], out_b_rows[row] = keys[p], a_rows[p], b_rows[p]
        for slot in range(2):
            out_normal[row, slot], out_sep[row, slot] = normal[p, slot], sep[p, slot]
            out_point[row, slot, 0], out_point[row, slot, 1] = point[p, slot, 0], point[p, slot, 1]
            out_fid[row, slot], out_valid[row, slot] = fid[p, slot], valid[p, slot]
        if _touch(row, out_sep, out_valid, kind, a_index, out_b_rows, asleep, slop, closest, touching):
            wakers[count], count = row, count + 1
        row += 1
    return count


@_jit
def body_boxes(vertices, offsets, radius, position, angle, margin):
    """Every body's placement ((K, 3): x, y, angle) and box ((K, 4): min x, min y, max x, max y, px) grown by
    its radius and ``margin`` px: its core (``vertices`` rows ``offsets[k]:offsets[k + 1]``, local) turned by
    ``angle`` and moved to ``position``."""
    placement, boxes, _ = placed_boxes(vertices, offsets, radius, position, angle, margin)
    return placement, boxes


@_jit
def placed_boxes(vertices, offsets, radius, position, angle, margin):
    """:func:`body_boxes`, and every body's cos and sin of its angle ((K, 2): made once a step, here, for the
    manifolds and the solve)."""
    count = len(offsets) - 1
    placement, boxes, trig = np.empty((count, 3)), np.empty((count, 4)), np.empty((count, 2))
    _place(vertices, offsets, radius, position, angle, margin, placement, boxes, trig)
    return placement, boxes, trig


@_without_runtime
def _place(vertices, offsets, radius, position, angle, margin, placement, boxes, trig):
    """:func:`placed_boxes` into its three arrays."""
    for k in range(len(offsets) - 1):
        c, s = math.cos(angle[k]), math.sin(angle[k])
        trig[k, 0], trig[k, 1] = c, s
        x, y = position[k, 0], position[k, 1]
        placement[k, 0], placement[k, 1], placement[k, 2] = x, y, angle[k]
        low_x = low_y = math.inf
        high_x = high_y = -math.inf
        for v in range(offsets[k], offsets[k + 1]):
            vx, vy = vertices[v, 0], vertices[v, 1]
            wx, wy = c * vx - s * vy + x, s * vx + c * vy + y
            low_x, low_y, high_x, high_y = min(low_x, wx), min(low_y, wy), max(high_x, wx), max(high_y, wy)
        grow = radius[k] + margin
        boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3] = low_x - grow, low_y - grow, high_x + grow, high_y + grow


# A step's contacts go back to Python packed, in three buffers (each array numba hands to Python costs
# 0.3 us): ``ints`` 7, ``floats`` 9 and ``flags`` 3 values a contact; :func:`found_arrays` carves them (and
# :data:`engine.world.contacts.FOUND_FIELDS` as Python reads them: a test checks they agree).


def _found_layout(ints, floats, flags):
    """The arrays of packed contacts, as views: keys, A's kind, A's row (segment or body), A's body row (-1
    for a segment), B's body row, feature ids (m, 2); normal (m, 2), point (m, 2, 2), separation (m, 2, px),
    closest (the smaller separation, +inf without points); valid (m, 2), touching (closest within the slop)."""
    m = len(ints) // 7
    return (ints[:m], ints[m:2 * m], ints[2 * m:3 * m], ints[3 * m:4 * m], ints[4 * m:5 * m],
            shaped(ints[5 * m:7 * m], (m, 2)), shaped(floats[:2 * m], (m, 2)), shaped(floats[2 * m:6 * m], (m, 2, 2)),
            shaped(floats[6 * m:8 * m], (m, 2)), floats[8 * m:9 * m], shaped(flags[:2 * m], (m, 2)), flags[2 * m:3 * m])


found_arrays = _jit(_found_layout)
found_views = _inline(_found_layout)
"""(The same views inside runtime-free code, where carving them costs nothing.)"""


@_jit
def found_buffers(m):
    """Room for ``m`` packed contacts (see :func:`found_arrays`)."""
    return np.empty(7 * m, dtype=np.int64), np.empty(9 * m), np.empty(3 * m, dtype=np.bool_)


@_jit
def packed_found(keys, a_kind, a_rows, a_index, b_index, ids, normal, point, separation, closest, valid, touching):
    """Contacts given array by array (:func:`found_arrays`' order), packed."""
    ints, floats, flags = found_buffers(len(keys))
    (keys_to, a_kind_to, a_rows_to, a_index_to, b_index_to, ids_to, normal_to, point_to, separation_to, closest_to,
     valid_to, touching_to) = found_arrays(ints, floats, flags)
    keys_to[:], a_kind_to[:], a_rows_to[:], a_index_to[:], b_index_to[:], ids_to[:] = keys, a_kind, a_rows, a_index, \
        b_index, ids
    normal_to[:], point_to[:], separation_to[:], closest_to[:] = normal, point, separation, closest
    valid_to[:], touching_to[:] = valid, touching
    return ints, floats, flags


@_inline
def _touch(k, separation, valid, a_kind, a_index, b_index, asleep, slop, closest, touching):
    """Contact ``k``'s smallest separation (px; +inf without points) into ``closest``, whether it is within
    ``slop`` px into ``touching``; returns whether it touches between an awake and a sleeping body."""
    first = separation[k, 0] if valid[k, 0] else math.inf
    second = separation[k, 1] if valid[k, 1] else math.inf
    closest[k] = min(first, second)
    touching[k] = closest[k] < slop
    return touching[k] and a_kind[k] == 3 and asleep[a_index[k]] != asleep[b_index[k]]  # (3: DYNAMIC)


@_jit
def picked_found(ints, floats, flags, rows):
    """The contacts ``rows`` of packed contacts (:func:`found_arrays`), packed."""
    (keys, a_kind, a_rows, a_index, b_index, ids, normal, point, separation, closest, valid,
     touching) = found_arrays(ints, floats, flags)
    return packed_found(keys[rows], a_kind[rows], a_rows[rows], a_index[rows], b_index[rows], ids[rows], normal[rows],
                        point[rows], separation[rows], closest[rows], valid[rows], touching[rows])


@_jit
def touch_summary(separation, valid, a_kind, a_index, b_index, asleep, slop):
    """Each contact's smallest separation (px; +inf without points), whether it is within ``slop`` px, and the
    touching contacts between an awake and a sleeping body (which wake the sleeper)."""
    m = len(a_kind)
    closest, touching, mixed = np.empty(m), np.empty(m, dtype=np.bool_), np.empty(m, dtype=np.bool_)
    _touch_rows(separation, valid, a_kind, a_index, b_index, asleep, slop, closest, touching, mixed)
    return closest, touching, np.flatnonzero(mixed)


@_without_runtime
def _touch_rows(separation, valid, a_kind, a_index, b_index, asleep, slop, closest, touching, mixed):
    """:func:`touch_summary`'s loop (without the runtime, as :func:`_compact_rows`)."""
    for k in range(len(a_kind)):
        mixed[k] = _touch(k, separation, valid, a_kind, a_index, b_index, asleep, slop, closest, touching)


@_jit
def _filtered(first, second, category, mask, group, other_category, other_mask, other_group, default):
    """The pairs (``first`` rows of the first filter arrays, ``second`` of the other) whose collision filters
    touch (:meth:`~engine.types.CollisionFilter.touches`); empty filter arrays: every row has ``default``
    (category, mask, group)."""
    keep = np.empty(len(first), dtype=np.bool_)
    for p in range(len(first)):
        i, j = first[p], second[p]
        ca, ma, ga = (category[i], mask[i], group[i]) if len(category) else (default[0], default[1], default[2])
        cb, mb, gb = (other_category[j], other_mask[j], other_group[j]) if len(other_category) else (
            default[0], default[1], default[2])
        keep[p] = filters_touch(ca, ma, ga, cb, mb, gb)
    return first[keep], second[keep]


@_jit
def gather_in(m, pad, margin, slop, default_filter):
    """A step's contacts of the awake bodies against static segments and each other, in one call, from what a
    :class:`~engine.world.step_memory.StepMemory` ``m`` keeps (the bodies' start placement and sleep flags, the
    shape table, the level, the near lists and sweep order), which it updates: the boxes (grown by ``margin``
    px) and every body's cos and sin (:func:`placed_boxes`), each awake body's near segments
    (:func:`refresh_near`, padded by ``pad`` px), and the awake rows the solve moves. The body pairs come from
    :func:`sweep_pairs`, the pairs whose collision filters touch are kept (``default_filter``: category, mask,
    group of a body or segment without its own), then :func:`gather_manifolds`' stages (touch summary: ``slop``
    px). Returns the contacts, packed (:func:`found_arrays`; new arrays: a contact set made of them may keep
    them); the contacts that wake a sleeper (rows); how many contacts are static; how many bodies are awake.

    (The stages read the memory's fields rather than being handed its arrays, as ``gather_manifolds`` is: a
    call between compiled functions with numba's runtime counts every array handed over in and out, some 10 ns
    each; the runtime-free stages take them for nothing.)"""
    pairs, static_pairs, kept, kept_static, sizes, awake_count = _gather_stages(m, pad, margin, default_filter)
    ints, floats, flags, wakers, static_count = _found_out(m.gather_floats, m.gather_ints, m.gather_flags, sizes,
                                                           pairs, static_pairs, kept, kept_static, m.asleep, slop)
    return ints, floats, flags, wakers, static_count, awake_count


@_jit
def gather_into(m, pad, margin, slop, default_filter):
    """:func:`gather_in` for the one-call step: the contacts go into the memory's found buffers (read with
    :func:`found_of` in runtime-free code, :func:`found_kept` elsewhere), where the next gathering writes over
    them. No body sleeps: no contact wakes one. Returns how many bodies are awake."""
    pairs, static_pairs, kept, _, sizes, awake_count = _gather_stages(m, pad, margin, default_filter)
    if scratch_short(m, FOUND_BUFFERS, 9 * kept, 8 * kept, 3 * kept):  # (found_buffers' room, then a waker row each)
        grow_scratch(m, FOUND_BUFFERS, 9 * kept, 8 * kept, 3 * kept)
    m.found_count = kept
    _compact_found_in(m, sizes, pairs, static_pairs, slop)
    return awake_count


@_jit
def _gather_stages(m, pad, margin, default_filter):
    """:func:`gather_in`'s stages up to the manifolds, in the memory's gathering scratch: the placement, the
    near lists, the body pairs, the collision filters, the manifolds. Returns how many pairs there were
    (static first), how many static, how many kept and how many of them static, the scratch's sizes
    (:func:`_manifold_scratch`) and how many bodies are awake. The usual step (no filters, the near lists
    standing) handles no array here: its stages read the memory's fields borrowed."""
    _place_in(m, margin)
    if not _near_lists_stand_in(m):
        _refresh_near_in(m, pad)
    elif not _awake_kept_in(m):
        m.awake = m.kept_awake
    total = _sweep_in(m)
    if _has_filters_in(m):
        return _filtered_stages(m, margin, default_filter, total)
    sizes = _gather_sizes_in(m, total)
    _room_for_gathering(m, sizes)
    static_pairs, kept, kept_static = _manifold_rows_kept_in(m, total, margin, sizes)
    return static_pairs + total, static_pairs, kept, kept_static, sizes, _awake_count_in(m)


@_jit
def _refresh_near_in(m, pad):
    """The awake bodies' near lists looked up again (:func:`refresh_near`), kept with the awake rows."""
    awake = np.flatnonzero(~m.asleep)
    _, m.near_start, m.near_members, ks, segs = refresh_near(
        m.near_box, m.near_start, m.near_members, m.boxes, awake, m.kept_awake, pad, m.cell_size, m.cell_keys,
        m.cell_starts, m.members, m.segment_boxes)
    m.kept_awake, m.kept_bodies, m.kept_segments = awake, ks, segs
    m.awake = awake


@_jit
def _filtered_stages(m, margin, default_filter, total):
    """:func:`_gather_stages` from the sweep's ``total`` pairs on, when bodies or segments have collision
    filters: the pairs whose filters do not touch are left out (arrays made here)."""
    ks, segs, category, offsets = m.kept_bodies, m.kept_segments, m.category, m.offsets
    static_segs, static_ks = _filtered(segs, ks, m.segment_category, m.segment_mask, m.segment_group, category,
                                       m.mask, m.group, default_filter)
    lo, hi = _swept_out(m.sweep_ints, len(offsets) - 1, total)
    if len(category):
        lo, hi = _filtered(lo, hi, category, m.mask, m.group, category, m.mask, m.group, default_filter)
    sizes = _gathering_sizes(offsets, len(static_ks), len(lo))
    _room_for_gathering(m, sizes)
    static_pairs, kept, kept_static = _manifold_rows_in(m, static_ks, static_segs, lo, hi, margin, sizes)
    return static_pairs + len(lo), static_pairs, kept, kept_static, sizes, len(m.awake)


@_without_runtime
def _awake_kept_in(m):
    """Whether the memory's awake rows are its kept ones (the same rows)."""
    return same_values(borrowed(m, "awake"), borrowed(m, "kept_awake"))


@_without_runtime
def same_values(x, y):
    """Whether arrays ``x`` and ``y`` (1-d) hold the same values in the same order (runtime-free)."""
    if len(x) != len(y):
        return False
    for i in range(len(x)):
        if x[i] != y[i]:
            return False
    return True


@_without_runtime
def _has_filters_in(m):
    """Whether any body or segment of the memory has a collision filter of its own."""
    return len(borrowed(m, "category")) > 0 or len(borrowed(m, "segment_category")) > 0


@_without_runtime
def _bodies_in(m):
    """How many bodies the memory has."""
    return len(borrowed(m, "sweep_order"))


@_without_runtime
def _awake_count_in(m):
    """How many bodies the memory's solve moves."""
    return len(borrowed(m, "awake"))


@_without_runtime
def _gather_sizes_in(m, total):
    """:func:`_gathering_sizes` of the memory's bodies, their near segments and ``total`` body pairs."""
    return _gathering_sizes(borrowed(m, "offsets"), len(borrowed(m, "kept_bodies")), total)


@_inline
def _gathering_sizes(offsets, static_room, body_pairs):
    """:func:`_manifold_scratch`'s sizes for the shapes of ``offsets``, ``static_room`` (body, segment) pairs
    and ``body_pairs`` body pairs."""
    return len(offsets) - 1, offsets[-1], static_room, static_room + body_pairs, _widest(offsets)


@_inline
def _room_for_gathering(m, sizes):
    """The memory's gathering scratch grown for :func:`_manifold_scratch`'s ``sizes`` when short (asked
    runtime-free first: see :func:`~engine.world.step_memory.grow_scratch`)."""
    float_size, int_size, flag_size = _scratch_sizes(sizes[0], sizes[1], sizes[2], sizes[3], sizes[4])
    if scratch_short(m, GATHER_SCRATCH, float_size, int_size, flag_size):
        grow_scratch(m, GATHER_SCRATCH, float_size, int_size, flag_size)


@_without_runtime
def _manifold_rows_kept_in(m, total, margin, sizes):
    """:func:`_manifold_rows_in` of the memory's near lists and the sweep's ``total`` body pairs."""
    lo, hi = _swept_out(borrowed(m, "sweep_ints"), _bodies_in(m), total)
    return _manifold_rows_in(m, borrowed(m, "kept_bodies"), borrowed(m, "kept_segments"), lo, hi, margin, sizes)


@_without_runtime
def _compact_found_in(m, sizes, pairs, static_pairs, slop):
    """:func:`_compact_found` of the memory's gathering scratch into its found buffers."""
    ints, floats, flags = found_of(m)
    _compact_found(borrowed(m, "gather_floats"), borrowed(m, "gather_ints"), borrowed(m, "gather_flags"), sizes,
                   pairs, static_pairs, borrowed(m, "asleep"), slop, ints, floats, flags,
                   borrowed(m, "found_ints")[len(ints):])


@_inline
def _found_prefix(ints, floats, flags, count):
    """The first ``count`` found contacts of found buffers, packed (:func:`found_arrays`)."""
    return ints[:7 * count], floats[:9 * count], flags[:3 * count]


@_inline
def found_of(m):
    """The contacts the memory's last :func:`gather_into` found, packed (:func:`found_arrays`), borrowed: for
    runtime-free code (views of buffers the next gathering writes over)."""
    return _found_prefix(borrowed(m, "found_ints"), borrowed(m, "found_floats"), borrowed(m, "found_flags"),
                         borrowed(m, "found_count"))


@_jit
def found_kept(m):
    """:func:`found_of` for code with numba's runtime."""
    return _found_prefix(m.found_ints, m.found_floats, m.found_flags, m.found_count)


@_without_runtime
def _place_in(m, margin):
    """:func:`_place` of the step memory ``m``'s bodies, into its placement, boxes and cos and sin (its fields
    borrowed: see :func:`~engine.world.step_memory.borrowed`)."""
    _place(borrowed(m, "vertices"), borrowed(m, "offsets"), borrowed(m, "radius"), borrowed(m, "position"),
           borrowed(m, "angle"), margin, borrowed(m, "placement"), borrowed(m, "boxes"), borrowed(m, "trig"))


@_without_runtime
def _near_lists_stand_in(m):
    """:func:`near_lists_stand` for the step memory ``m``'s near lists, its bodies' sleep flags and boxes (the
    awake rows compared with the kept ones as they are read: no array of them is made)."""
    asleep, kept_awake = borrowed(m, "asleep"), borrowed(m, "kept_awake")
    near_boxes, boxes = borrowed(m, "near_box"), borrowed(m, "boxes")
    awake = 0
    for k in range(len(asleep)):
        if asleep[k]:
            continue
        if awake == len(kept_awake) or kept_awake[awake] != k or not _inside_near_box(near_boxes, boxes, k):
            return False
        awake += 1
    return awake == len(kept_awake)


@_without_runtime
def _manifold_rows_in(m, candidate_body, candidate_segment, lo, hi, margin, sizes):
    """:func:`_manifold_rows` of the step memory ``m``'s bodies (placed by :func:`_place_in`) against its
    level, in its gathering scratch."""
    joints = (borrowed(m, "joint_ends"), borrowed(m, "joint_order"), borrowed(m, "joint_start"),
              borrowed(m, "joint_size"))
    return _manifold_rows(
        borrowed(m, "vertices"), borrowed(m, "normals"), borrowed(m, "offsets"), borrowed(m, "radius"),
        borrowed(m, "placement"), borrowed(m, "trig"), borrowed(m, "ends_a"), borrowed(m, "ends_b"),
        borrowed(m, "side"), borrowed(m, "segment_radius"), borrowed(m, "segment_boxes"),
        borrowed(m, "segment_joint"), joints, borrowed(m, "boxes"), borrowed(m, "ids"), borrowed(m, "count"),
        candidate_body, candidate_segment, lo, hi, margin, borrowed(m, "gather_floats"), borrowed(m, "gather_ints"),
        borrowed(m, "gather_flags"), sizes)


def compile_steps():
    """Compile (or load from the disk cache) :func:`_collide_pairs` on two boxes and the broad phase; yields
    the stage's name."""
    overlapping_boxes(np.array([[0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 2.0, 2.0]]), np.array([0, 1]))
    body_boxes(np.zeros((1, 2)), np.array([0, 1]), np.ones(1), np.zeros((1, 2)), np.zeros(1), 0.5)
    box = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    box_normals = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    collide_pairs(np.concatenate([box, box]), np.concatenate([box_normals, box_normals]), np.array([0, 4, 8]),
                  np.zeros(2), np.array([[0.0, 0.0, 0.0], [0.0, 1.5, 0.1]]), np.array([0]), np.array([1]), 0.5)
    ends_a, ends_b, segment_radius = np.array([[-5.0, 0.0]]), np.array([[5.0, 0.0]]), np.ones(1)
    segment_boxes = np.array([[-6.0, -1.0, 6.0, 1.0]])
    for fixed in (ends_a, ends_b, segment_radius, segment_boxes):
        fixed.setflags(write=False)  # (as the static broad phase holds them: numba types read-only apart)
    one = np.array([1], dtype=np.int64)
    joints = (np.concatenate([ends_a, ends_b]), np.array([0, 1]), np.array([0, 1]), np.ones(2, dtype=np.int64))
    refresh_near(np.zeros((2, 4)), np.zeros(3, dtype=np.int64), np.zeros(0, dtype=np.int64),
                 np.array([[-1.5, 0.5, 1.5, 3.5], [-1.5, 2.0, 1.5, 5.0]]), np.array([0, 1]), one, 1.0, 64.0,
                 np.array([2**31 - 1, 2**31], dtype=np.int64), np.array([0, 1, 1]), one - 1, segment_boxes)
    gather_manifolds(np.concatenate([box, box]), np.concatenate([box_normals, box_normals]), np.array([0, 4, 8]),
                     np.zeros(2), np.array([[0.0, 2.0, 0.0], [0.0, 3.5, 0.1]]),
                     np.array([[1.0, 0.0], [math.cos(0.1), math.sin(0.1)]]), ends_a, ends_b,
                     np.array([[0.0, -1.0]]), segment_radius, segment_boxes, np.zeros(1, dtype=np.bool_), joints,
                     np.array([[-1.5, 0.5, 1.5, 3.5], [-1.5, 2.0, 1.5, 5.0]]), np.array([0, 1]), np.array([4, 4]),
                     one - 1, one - 1, one - 1, one, 0.5, np.zeros(2, dtype=np.bool_), 0.25)
    found = gather_in(warm_up_memory(), 1.0, 0.5, 0.25, np.array([1, -1, 0]))
    picked_found(*found[:3], one[:0].copy())
    touch_summary(np.zeros((1, 2)), np.ones((1, 2), dtype=np.bool_), one - 1, -one, one - 1, np.zeros(1, np.bool_),
                  0.25)  # (the scalar contacts of kinematic bodies and characters)
    yield "contact gathering"
