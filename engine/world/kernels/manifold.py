"""The contact manifold of two rounded convex polygons (compiled): Box2D v3's ``b2CollidePolygons`` with radii.

It is :func:`engine.geometry.collide` (the readable reference, which tests compare against) for shapes given
as rows of arrays: separating axes on the cores with the reference-face hysteresis, the incident face, the
vertex-vertex axis where only rounded corners can touch, parallel edges side by side as a line contact, and
the clip. It works in A's local frame and maps the results back. A circle (one-vertex core) against anything
is the closest core point of the other shape to the circle's centre. A static segment is a two-vertex shape.

A shape is ``core[first:first + count]``, rows of (x, y, nx, ny): its local core vertices counter-clockwise
and the outward unit normal of the edge that starts at each (a segment's two rows carry its two sides), a
radius (px) and a placement (cos, sin, x, y): local -> world is rotate, then translate.

The answer is a :data:`NO_CONTACT`-shaped tuple: the unit normal from A to B (world), then per point whether
it is there, its place (world, px, midway between the surfaces), its separation (px, negative = overlap) and
its feature id ``(feature_of_A << 8) | feature_of_B``; last the edge of A the ids name (-1: none, or a circle's
contact). A point farther apart than ``margin`` px is left out.
"""

from __future__ import annotations

import math

import numpy as np

from .compile import helper, kernel
from .vector import length

__all__ = ["DISJOINT_TOLERANCE", "FLIP_TOLERANCE", "NO_CONTACT", "collide"]

FLIP_TOLERANCE = 0.01
"""Pixels: the reference face stays A's unless B's face separates clearly more (stable ids frame to frame);
equal to :mod:`engine.geometry.collide`'s (a test checks)."""
DISJOINT_TOLERANCE = 0.01
"""Pixels: cores closer than this are clipped rather than measured vertex to vertex (as the reference)."""
ON_CORE = 1e-9
"""Pixels: a point this close to a core counts as on it (as :func:`engine.geometry.queries.core_closest`)."""

NO_CONTACT = (0.0, 0.0, False, 0.0, 0.0, math.inf, 0, False, 0.0, 0.0, math.inf, 0, -1)
"""(nx, ny, valid0, x0, y0, separation0, id0, valid1, x1, y1, separation1, id1, edge of A): no point."""


@helper
def _make_id(feature_a, feature_b):
    return np.int64((feature_a & 0xFF) << 8 | (feature_b & 0xFF))


@helper
def _next(i, count):
    """The vertex after ``i`` round a polygon of ``count`` vertices."""
    return i + 1 if i + 1 < count else 0


@helper
def _to_world(place, x, y):
    """A point of A's frame in the world (``place``: A's cos, sin, x, y)."""
    c, s, px, py = place
    return c * x - s * y + px, s * x + c * y + py


@helper
def _turned(place, x, y):
    """A direction of A's frame in the world."""
    c, s = place[0], place[1]
    return c * x - s * y, s * x + c * y


@helper
def _into_frame(core, first, count, place_b, place_a, local):
    """Shape B's core (rows ``first``.. of ``count``) in A's local frame, into ``local`` rows 0..: vertices
    and normals."""
    cb, sb, bx, by = place_b
    ca, sa, ax, ay = place_a
    for i in range(count):
        x, y, nx, ny = core[first + i, 0], core[first + i, 1], core[first + i, 2], core[first + i, 3]
        dx, dy = cb * x - sb * y + bx - ax, sb * x + cb * y + by - ay
        local[i, 0], local[i, 1] = ca * dx + sa * dy, -sa * dx + ca * dy
        wx, wy = cb * nx - sb * ny, sb * nx + cb * ny
        local[i, 2], local[i, 3] = ca * wx + sa * wy, -sa * wx + ca * wy


@helper
def _max_separation(core1, first1, count1, core2, first2, count2):
    """(face, separation): the face of core 1 that separates most from core 2 (same frame); the first on ties."""
    best_i, best = 0, -math.inf
    for i in range(count1):
        nx, ny, vx, vy = core1[first1 + i, 2], core1[first1 + i, 3], core1[first1 + i, 0], core1[first1 + i, 1]
        s = math.inf
        for j in range(count2):
            s = min(s, nx * (core2[first2 + j, 0] - vx) + ny * (core2[first2 + j, 1] - vy))
        if s > best:
            best, best_i = s, i
    return best_i, best


@helper
def _most_opposed(core, first, count, sx, sy):
    """The face whose normal is most anti-parallel to (sx, sy): the incident face (the first on ties)."""
    best_i, best = 0, math.inf
    for i in range(count):
        d = sx * core[first + i, 2] + sy * core[first + i, 3]
        if d < best:
            best, best_i = d, i
    return best_i


@helper
def _clamp_unit(x):
    return min(max(x, 0.0), 1.0)


@helper
def _segment_closest(p1x, p1y, q1x, q1y, p2x, p2y, q2x, q2y):
    """Closest points of segments p1-q1 and p2-q2: (f1, f2, c1x, c1y, c2x, c2y), fractions exactly 0 or 1 at
    an end."""
    d1x, d1y, d2x, d2y = q1x - p1x, q1y - p1y, q2x - p2x, q2y - p2y
    rx, ry = p1x - p2x, p1y - p2y
    dd1, dd2 = d1x * d1x + d1y * d1y, d2x * d2x + d2y * d2y
    rd1, rd2, d12 = rx * d1x + ry * d1y, rx * d2x + ry * d2y, d1x * d2x + d1y * d2y
    denom = dd1 * dd2 - d12 * d12
    f1 = _clamp_unit((d12 * rd2 - rd1 * dd2) / denom) if denom != 0.0 else 0.0
    f2 = (d12 * f1 + rd2) / dd2
    if f2 < 0.0:
        f2, f1 = 0.0, _clamp_unit(-rd1 / dd1)
    elif f2 > 1.0:
        f2, f1 = 1.0, _clamp_unit((d12 - rd1) / dd1)
    return f1, f2, p1x + f1 * d1x, p1y + f1 * d1y, p2x + f2 * d2x, p2y + f2 * d2y


@helper
def _parallel_overlap(v11x, v11y, v12x, v12y, v21x, v21y, v22x, v22y):
    """Edge 2 is parallel to edge 1 (within about 0.3 degrees) and overlaps it, seen along edge 1, by more than
    the disjoint tolerance."""
    ex, ey, fx, fy = v12x - v11x, v12y - v11y, v22x - v21x, v22y - v21y
    le, lf = length(ex, ey), length(fx, fy)
    if abs(ex * fy - ey * fx) > 0.005 * le * lf:
        return False
    tx, ty = ex / le, ey / le
    a = (v21x - v11x) * tx + (v21y - v11y) * ty
    b = (v22x - v11x) * tx + (v22y - v11y) * ty
    return min(le, max(a, b)) - max(0.0, min(a, b)) > DISJOINT_TOLERANCE


@helper
def _clip(v11x, v11y, v12x, v12y, v21x, v21y, v22x, v22y, nx, ny, r1, r2):
    """Clip incident edge v21-v22 against the side planes of reference edge v11-v12 (outward normal n, radii r1
    and r2 of the reference and incident shapes): the lower and the upper point, each midway between the
    surfaces, with its separation: (lx, ly, lower_sep, ux, uy, upper_sep)."""
    tx, ty = -ny, nx  # along the reference edge, from v11 towards v12
    upper1 = (v12x - v11x) * tx + (v12y - v11y) * ty
    # Both edges run counter-clockwise, so opposite ways: v22 is the incident edge's "lower" end.
    upper2 = (v21x - v11x) * tx + (v21y - v11y) * ty
    lower2 = (v22x - v11x) * tx + (v22y - v11y) * ty
    span = upper2 - lower2
    lx, ly, ux, uy = v22x, v22y, v21x, v21y
    if lower2 < 0.0 and span > 1e-12:
        f = (0.0 - lower2) / span
        lx, ly = v22x + f * (v21x - v22x), v22y + f * (v21y - v22y)
    if upper2 > upper1 and span > 1e-12:
        f = (upper1 - lower2) / span
        ux, uy = v22x + f * (v21x - v22x), v22y + f * (v21y - v22y)
    sep_lower = (lx - v11x) * nx + (ly - v11y) * ny
    sep_upper = (ux - v11x) * nx + (uy - v11y) * ny
    shift_l, shift_u = 0.5 * (r1 - r2 - sep_lower), 0.5 * (r1 - r2 - sep_upper)
    return (lx + shift_l * nx, ly + shift_l * ny, sep_lower - (r1 + r2),
            ux + shift_u * nx, uy + shift_u * ny, sep_upper - (r1 + r2))


@helper
def _point_closest(core, first, count, px, py):
    """Closest core point of a shape (a point, segment or polygon core) to (px, py) in its frame:
    (qx, qy, signed distance (negative inside a polygon), nx, ny, feature: vertex i or face 32 + i)."""
    if count == 1:
        vx, vy = core[first, 0], core[first, 1]
        d = length(px - vx, py - vy)
        if d <= ON_CORE:
            return vx, vy, 0.0, 0.0, 1.0, 0  # the centre itself: any way out is as good; local up
        return vx, vy, d, (px - vx) / d, (py - vy) / d, 0
    if count == 2:
        return _segment_point_closest(core, first, px, py)
    return _polygon_point_closest(core, first, count, px, py)


@helper
def _segment_point_closest(core, first, px, py):
    """:func:`_point_closest` of a segment: features 0 and 1 its ends, 32 + side its sides."""
    ax, ay, bx, by = core[first, 0], core[first, 1], core[first + 1, 0], core[first + 1, 1]
    ex, ey = bx - ax, by - ay
    t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
    if t <= 0.0:
        qx, qy, feature = ax, ay, 0
    elif t >= 1.0:
        qx, qy, feature = bx, by, 1
    else:
        qx, qy, feature = ax + t * ex, ay + t * ey, 32
    dx, dy = px - qx, py - qy
    d = length(dx, dy)
    if d <= ON_CORE:  # on the segment: the side normal is a valid way out
        return qx, qy, 0.0, core[first, 2], core[first, 3], 32
    if feature == 32:  # beside the segment: that side's normal (no rounding noise)
        side = 0 if dx * core[first, 2] + dy * core[first, 3] > 0.0 else 1
        return qx, qy, d, core[first + side, 2], core[first + side, 3], 32 + side
    return qx, qy, d, dx / d, dy / d, feature


@helper
def _polygon_point_closest(core, first, count, px, py):
    """:func:`_point_closest` of a polygon core."""
    best_i, best_sep = 0, -math.inf
    for i in range(count):
        sep = core[first + i, 2] * (px - core[first + i, 0]) + core[first + i, 3] * (py - core[first + i, 1])
        if sep > best_sep:
            best_sep, best_i = sep, i
    if best_sep <= 0.0:  # inside: the face of largest separation is the nearest
        nx, ny = core[first + best_i, 2], core[first + best_i, 3]
        return px - best_sep * nx, py - best_sep * ny, best_sep, nx, ny, 32 + best_i
    best_d2, qx, qy, feature = math.inf, 0.0, 0.0, 0
    for i in range(count):  # outside: the nearest point lies on an edge that faces the point
        ax, ay = core[first + i, 0], core[first + i, 1]
        if core[first + i, 2] * (px - ax) + core[first + i, 3] * (py - ay) <= 0.0:
            continue
        j = _next(i, count)
        ex, ey = core[first + j, 0] - ax, core[first + j, 1] - ay
        t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
        if t <= 0.0:
            cx, cy, f = ax, ay, i
        elif t >= 1.0:
            cx, cy, f = ax + ex, ay + ey, j
        else:
            cx, cy, f = ax + t * ex, ay + t * ey, 32 + i
        d2 = (px - cx) ** 2 + (py - cy) ** 2
        if d2 < best_d2:
            best_d2, qx, qy, feature = d2, cx, cy, f
    d = math.sqrt(best_d2)
    if feature >= 32:
        return qx, qy, d, core[first + feature - 32, 2], core[first + feature - 32, 3], feature
    if d <= ON_CORE:  # on a vertex: the face that sees the point best gives the normal
        return qx, qy, d, core[first + best_i, 2], core[first + best_i, 3], feature
    return qx, qy, d, (px - qx) / d, (py - qy) / d, feature


@helper
def _circle_contact(core_a, first_a, count_a, radius_a, place_a, core_b, first_b, count_b, radius_b, place_b,
                    margin):
    """A or B is a circle: the closest core point of the other shape to the circle's centre (in the other's
    frame) gives the axis, as :func:`engine.geometry.collide` does. One point, or none."""
    a_is_circle = count_a == 1
    if a_is_circle:
        centre_core, centre_first, centre_place, r_circle = core_a, first_a, place_a, radius_a
        core, first, count, place, r_other = core_b, first_b, count_b, place_b, radius_b
    else:
        centre_core, centre_first, centre_place, r_circle = core_b, first_b, place_b, radius_b
        core, first, count, place, r_other = core_a, first_a, count_a, place_a, radius_a
    wx, wy = _to_world(centre_place, centre_core[centre_first, 0], centre_core[centre_first, 1])
    c, s, ox, oy = place
    dx, dy = wx - ox, wy - oy
    px, py = c * dx + s * dy, -s * dx + c * dy
    qx, qy, d, nx, ny, feature = _point_closest(core, first, count, px, py)
    separation = d - r_other - r_circle
    if separation > margin:
        return NO_CONTACT
    # Midway between the other's surface (q + r_other n) and the circle's (centre - r_circle n).
    mx = 0.5 * (qx + r_other * nx + px - r_circle * nx)
    my = 0.5 * (qy + r_other * ny + py - r_circle * ny)
    wnx, wny = _turned(place, nx, ny)
    if a_is_circle:  # n points from the other shape to the circle: from B to A here
        wnx, wny = -wnx, -wny
    zero = np.int64(0)  # (a literal 0 as an argument would compile another version)
    fid = _make_id(zero, feature) if a_is_circle else _make_id(feature, zero)
    x, y = _to_world(place, mx, my)
    return (wnx, wny, True, x, y, separation, fid, False, 0.0, 0.0, math.inf, np.int64(0), np.int64(-1))


@helper
def _vertex_contact(core_a, first_a, count_a, ea, local, count_b, eb, ra, rb, place_a, margin):
    """The cores are apart (or both are segments): when the closest points of A's edge ``ea`` and B's edge
    ``eb`` (in A's frame, ``local``) are two vertices, not of parallel edges side by side, the contact is one
    point on the vertex-vertex axis. Returns (decided, manifold): decided False means clip as usual."""
    i11, i12, i21, i22 = ea, _next(ea, count_a), eb, _next(eb, count_b)
    a1x, a1y = core_a[first_a + i11, 0], core_a[first_a + i11, 1]
    a2x, a2y = core_a[first_a + i12, 0], core_a[first_a + i12, 1]
    b1x, b1y, b2x, b2y = local[i21, 0], local[i21, 1], local[i22, 0], local[i22, 1]
    f1, f2, c1x, c1y, c2x, c2y = _segment_closest(a1x, a1y, a2x, a2y, b1x, b1y, b2x, b2y)
    if not ((f1 == 0.0 or f1 == 1.0) and (f2 == 0.0 or f2 == 1.0)):
        return False, NO_CONTACT  # (before the distance: edges side by side, the usual case)
    dx, dy = c2x - c1x, c2y - c1y
    distance = length(dx, dy)
    if distance <= DISJOINT_TOLERANCE or _parallel_overlap(a1x, a1y, a2x, a2y, b1x, b1y, b2x, b2y):
        return False, NO_CONTACT  # (parallel edges side by side, crates stacked square: a line contact)
    separation = distance - (ra + rb)
    if separation > margin:
        return True, NO_CONTACT
    nx, ny = dx / distance, dy / distance
    mx = 0.5 * (c1x + ra * nx + c2x - rb * nx)
    my = 0.5 * (c1y + ra * ny + c2y - rb * ny)
    feature = _make_id(i11 if f1 == 0.0 else i12, i21 if f2 == 0.0 else i22)
    wnx, wny = _turned(place_a, nx, ny)
    x, y = _to_world(place_a, mx, my)
    return True, (wnx, wny, True, x, y, separation, feature, False, 0.0, 0.0, math.inf, np.int64(0), np.int64(ea))


@kernel
def collide(core_a, first_a, count_a, radius_a, place_a, core_b, first_b, count_b, radius_b, place_b, margin,
            local):
    """The manifold of shape A and shape B (see the module docstring), points within ``margin`` px (the
    speculative distance). ``local``: scratch rows (at least B's vertex count, 4 columns) for B's core in A's
    frame."""
    if count_a < 2 or count_b < 2:
        return _circle_contact(core_a, first_a, count_a, radius_a, place_a, core_b, first_b, count_b, radius_b,
                               place_b, margin)
    _into_frame(core_b, first_b, count_b, place_b, place_a, local)
    reach, first_local = margin + (radius_a + radius_b), np.int64(0)  # (np.int64: not a literal, one version)
    ea, sep_a = _max_separation(core_a, first_a, count_a, local, first_local, count_b)
    if sep_a > reach:
        return NO_CONTACT
    eb, sep_b = _max_separation(local, first_local, count_b, core_a, first_a, count_a)
    if sep_b > reach:
        return NO_CONTACT
    flip = sep_b > sep_a + FLIP_TOLERANCE
    if flip:
        ea = _most_opposed(core_a, first_a, count_a, local[eb, 2], local[eb, 3])
    else:
        eb = _most_opposed(local, first_local, count_b, core_a[first_a + ea, 2], core_a[first_a + ea, 3])
    # Two (nearly) collinear segment cores have only their shared normal as a face axis, blind to a gap along
    # the line: their closest points are checked even when the separating axes say "overlapping".
    if max(sep_a, sep_b) > DISJOINT_TOLERANCE or (count_a == 2 and count_b == 2):
        decided, found = _vertex_contact(core_a, first_a, count_a, ea, local, count_b, eb, radius_a, radius_b,
                                         place_a, margin)
        if decided:
            return found
    return _clipped(core_a, first_a, count_a, radius_a, place_a, local, count_b, radius_b, ea, eb, flip, margin)


@helper
def _clipped(core_a, first_a, count_a, radius_a, place_a, local, count_b, radius_b, ea, eb, flip, margin):
    """:func:`collide`'s face contact: A's edge ``ea`` and B's edge ``eb`` (in A's frame, ``local``), the
    reference face B's when ``flip``."""
    a1, a2, b1, b2 = first_a + ea, first_a + _next(ea, count_a), eb, _next(eb, count_b)
    a1x, a1y, a2x, a2y = core_a[a1, 0], core_a[a1, 1], core_a[a2, 0], core_a[a2, 1]
    b1x, b1y, b2x, b2y = local[b1, 0], local[b1, 1], local[b2, 0], local[b2, 1]
    if flip:  # B's edge is the reference, A's the incident edge
        nx, ny = local[b1, 2], local[b1, 3]
        lx, ly, lsep, ux, uy, usep = _clip(b1x, b1y, b2x, b2y, a1x, a1y, a2x, a2y, nx, ny, radius_b, radius_a)
        nx, ny = -nx, -ny
        # (slot 0 is always A's a1 against B's b2: the reference lists the upper point first here)
        lx, ly, lsep, ux, uy, usep = ux, uy, usep, lx, ly, lsep
    else:
        nx, ny = core_a[a1, 2], core_a[a1, 3]
        lx, ly, lsep, ux, uy, usep = _clip(a1x, a1y, a2x, a2y, b1x, b1y, b2x, b2y, nx, ny, radius_a, radius_b)
    valid0, valid1 = lsep <= margin, usep <= margin
    if not (valid0 or valid1):
        return NO_CONTACT
    wnx, wny = _turned(place_a, nx, ny)
    x0, y0 = _to_world(place_a, lx, ly)
    x1, y1 = _to_world(place_a, ux, uy)
    return (wnx, wny, valid0, x0, y0, lsep if valid0 else math.inf, _make_id(a1 - first_a, b2), valid1, x1, y1,
            usep if valid1 else math.inf, _make_id(a2 - first_a, b1), np.int64(ea))
