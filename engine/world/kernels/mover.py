"""The character mover's casts and contacts, compiled (numba): a shape swept against many Minkowski sums in one
call, whatever the sums are of (the level's thick segments, crates, platforms, other characters) and whatever
convex rounded shape sweeps (a polygon, a capsule, a circle; turned or not).

:func:`cast_sums` is :func:`engine.geometry.cast_against_sum` for every row of a sum table at once, and
:func:`contact_sums` is :func:`engine.geometry.contact_from_sum` likewise. They follow the readable reference in
:mod:`engine.geometry.queries` (``core_closest``, ``_local_ray``, ``_ray_polygon_outside``,
``_ray_capsule_outside``, ``_ray_circle``, ``_contact_point``) step for step and in the same arithmetic order, so
they give the same bits: Python's ``math.hypot`` (CPython's own correctly rounded algorithm, not the C library's)
is rebuilt in :func:`py_hypot`, and Python's ``x ** 2`` (the C library's ``pow``, which differs from ``x * x`` in
the last bit now and then) is ``x ** two`` with ``two`` a run-time 2.0 that the compiler cannot fold into a
multiplication.

A sum is a rounded convex core (1 vertex: a circle; 2: a capsule; 3 or more: a polygon) of radius the target's
plus the moving shape's, one row of a sum table (see ``layout.SUM_*``): the cast of a shape against a thick
segment or a rounded polygon is a ray cast of its origin against their Minkowski sum.
:class:`~engine.world.static.StaticGeometry` builds a level segment's row once per segment and moving core;
``World`` builds a body's row once per placement of the body and the moving shape (both with the reference
:func:`~engine.geometry.minkowski_difference`, through ``layout.sum_row``). A body's row keeps the body's own core,
so that a face-to-face contact reports the middle of the touching stretch as the reference does for bodies
(``edge_midpoints``); a segment's does not (its first end, as the reference's ``edge_midpoints=False``).

The kinematic bodies' step is here too (:func:`advance_kinematic`: each platform moved by its velocity or along
its path, and its box over the step, in one call for all of them), as is the box test a gather makes of what moves
(:func:`boxes_near`).

The mover's own entry point (what ``World`` calls for ``Scene.slide``, ``touching`` and ``first_hit``) is one,
reading the character's constants from one array (:func:`mover_constants`): :func:`slide_touch` (a slide, and
what the character touches where it ended; by nothing: what it touches; or only the first hit of a sweep). The mover
makes its moves from these in Python (``engine.character.Mover``): one route, whatever is near.

Units: pixels. Normals point from the target towards the moving shape (against the motion).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np

from .broad_phase import filter_values_touch
from .compile import helper, inlined, kernel
from .layout import (
    KINEMATIC_ANGLE, KINEMATIC_COLUMNS, KINEMATIC_PATH_DISTANCE, KINEMATIC_PLACED, KINEMATIC_PLACED_AT_STEP,
    KINEMATIC_PREVIOUS_ANGLE, KINEMATIC_PREVIOUS_X, KINEMATIC_PREVIOUS_Y, KINEMATIC_VX, KINEMATIC_VY, KINEMATIC_W,
    KINEMATIC_X, KINEMATIC_Y,
    MOVE_CAST_MAX_X, MOVE_CAST_MAX_Y, MOVE_CAST_MIN_X, MOVE_CAST_MIN_Y, MOVE_CAST_RADIUS, MOVE_COLUMNS,
    MOVE_CONSTANT_SPEED, MOVE_FLOOR_LIMIT, MOVE_GRAZE_COSINE, MOVE_MARGIN, MOVE_MAX_SLIDES, MOVE_MAX_X, MOVE_MAX_Y,
    MOVE_MIN_X, MOVE_MIN_Y, MOVE_RADIUS, MOVE_SLOP, MOVE_TWO, MOVE_UP_X, MOVE_UP_Y, SUM_COUNT, SUM_FIRST_VERTEX,
    SUM_MAX_X, SUM_MAX_Y, SUM_MIN_X, SUM_MIN_Y, SUM_SEGMENT_RADIUS, SUM_TARGET_AT, sum_row_width,
)

__all__ = ["SUM_FIRST_VERTEX", "advance_kinematic", "boxes_near", "cast_sums", "compile_steps", "contact_sums",
           "mover_constants", "py_hypot", "slide_touch", "sum_row_width", "thousandths"]

_ON_SURFACE = 1e-9
"""Pixels: as ``engine.geometry.queries._ON_SURFACE``."""
_ON_CORE = 1e-9
"""Pixels: as ``engine.geometry.queries._ON_CORE``."""
_SUPPORT_TIE = 1e-4
"""Pixels: as ``engine.geometry.queries._SUPPORT_TIE`` (``VERTEX_TOLERANCE``)."""

# Columns of :func:`cast_sums`' answer and of :func:`contact_sums`' answer.
CAST_ROW, CAST_FRACTION, CAST_POINT_X, CAST_POINT_Y, CAST_NORMAL_X, CAST_NORMAL_Y, CAST_INSIDE = range(7)
CONTACT_ROW, CONTACT_SEPARATION, CONTACT_NORMAL_X, CONTACT_NORMAL_Y, CONTACT_POINT_X, CONTACT_POINT_Y = range(6)


@helper
def _split(x):
    """Veltkamp's split of ``x`` into a high half and the exact rest (CPython's ``dl_split``)."""
    t = x * 134217729.0
    hi = t - (t - x)
    return hi, x - hi


@helper
def _exact_product(x, y):
    """``x * y`` as a rounded part and its error (Dekker's product, CPython's ``dl_mul``)."""
    xh, xl = _split(x)
    yh, yl = _split(y)
    p = xh * yh
    q = xh * yl + xl * yh
    z = p + q
    return z, p - z + q + xl * yl


@kernel
def py_hypot(a, b):
    """Python's ``math.hypot(a, b)``, the same bits: CPython 3.11's ``vector_norm`` for two values (scale by
    a power of two, sum the squares with their exact errors, one correction step after the square root)."""
    a, b = abs(a), abs(b)
    m = b if b > a else a
    if math.isinf(m):
        return m
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if m == 0.0:
        return m
    _, exponent = math.frexp(m)
    if exponent < -1023:
        return math.hypot(a, b)  # subnormal: far below a pixel, the C library's answer is as good
    scale = math.ldexp(1.0, -exponent)
    total, low, carry = 1.0, 0.0, 0.0
    for x in (a * scale, b * scale):
        square, square_error = _exact_product(x, x)
        summed = total + square
        carry += (total - summed) + square
        total = summed
        low += square_error
    h = math.sqrt(total - 1.0 + (low + carry))
    square, square_error = _exact_product(-h, h)
    summed = total + square
    carry += (total - summed) + square
    total = summed
    low += square_error
    x = total - 1.0 + (low + carry)
    h += x / (2.0 * h)
    return h / scale


@helper
def _vertex(row, i):
    base = SUM_FIRST_VERTEX + 4 * i
    return row[base], row[base + 1]


@helper
def _height(row, i, r, px, py):
    """How far the point (px, py) lies beyond the line of edge ``i`` of a sum row's polygon grown by ``r``."""
    base = SUM_FIRST_VERTEX + 4 * i
    return row[base + 2] * (px - row[base]) + row[base + 3] * (py - row[base + 1]) - r


@helper
def _normal(row, i):
    base = SUM_FIRST_VERTEX + 4 * i
    return row[base + 2], row[base + 3]


@kernel
def _core_closest(row, n, px, py, two):
    """``queries.core_closest`` on a sum row: (qx, qy, signed core distance, nx, ny, feature) of the point's
    nearest place on the sum's core, a circle's centre (1 vertex), a segment (2) or a polygon (3 or more)."""
    if n <= 2:
        return _point_or_segment_closest(row, n, px, py)
    best_i = np.int64(0)  # (numpy integers here: a literal start would compile its callees twice)
    best_sep = -math.inf
    for i in range(n):
        nx, ny = _normal(row, i)
        vx, vy = _vertex(row, i)
        sep = nx * (px - vx) + ny * (py - vy)
        if sep > best_sep:
            best_sep, best_i = sep, i
    if best_sep <= 0.0:
        nx, ny = _normal(row, best_i)
        return px - best_sep * nx, py - best_sep * ny, best_sep, nx, ny, 32 + best_i
    best_d2 = math.inf
    qx = qy = 0.0
    feature = np.int64(0)
    for i in range(n):
        nx, ny = _normal(row, i)
        ax, ay = _vertex(row, i)
        if nx * (px - ax) + ny * (py - ay) <= 0.0:
            continue
        j = (i + 1) % n
        bx, by = _vertex(row, j)
        ex, ey = bx - ax, by - ay
        t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
        if t <= 0.0:
            cx, cy, f = ax, ay, i
        elif t >= 1.0:
            cx, cy, f = bx, by, j
        else:
            cx, cy, f = ax + t * ex, ay + t * ey, 32 + i
        d2 = (px - cx) ** two + (py - cy) ** two
        if d2 < best_d2:
            best_d2, qx, qy, feature = d2, cx, cy, f
    d = math.sqrt(best_d2)
    if feature >= 32:
        nx, ny = _normal(row, feature - 32)
    elif d <= _ON_CORE:
        nx, ny = _normal(row, best_i)
    else:
        nx, ny = (px - qx) / d, (py - qy) / d
    return qx, qy, d, nx, ny, feature


@helper
def _point_or_segment_closest(row, n, px, py):
    """``queries._circle_closest`` (``n`` 1) or ``_segment_closest`` (``n`` 2, its two sides' normals in the
    row's normal columns) on a sum row, with one distance computed for both."""
    ax, ay = _vertex(row, np.int64(0))
    qx, qy, feature = ax, ay, 0
    if n == 2:
        bx, by = _vertex(row, np.int64(1))
        ex, ey = bx - ax, by - ay
        t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
        if t >= 1.0:
            qx, qy, feature = bx, by, 1
        elif t > 0.0:
            qx, qy, feature = ax + t * ex, ay + t * ey, 32
    dx, dy = px - qx, py - qy
    d = py_hypot(dx, dy)
    if d <= _ON_CORE:
        if n == 1:
            return qx, qy, 0.0, 0.0, 1.0, 0  # a circle's centre: any way out is as good; the reference picks up
        nx, ny = _normal(row, np.int64(0))  # on the segment: the direction is rounding noise, a side normal a way out
        return qx, qy, 0.0, nx, ny, 32
    if feature == 32:  # beside the segment: the normal of the side the point is on (no rounding noise)
        sx, sy = _normal(row, np.int64(0))
        side = 0 if dx * sx + dy * sy > 0.0 else 1
        nx, ny = _normal(row, side)
        return qx, qy, d, nx, ny, 32 + side
    return qx, qy, d, dx / d, dy / d, feature


@kernel
def _ray_circle(px, py, dx, dy, max_distance, cx, cy, r):
    """``queries._ray_circle``: (hit, t, nx, ny) for an origin outside the circle."""
    mx, my = px - cx, py - cy
    b = mx * dx + my * dy
    c = mx * mx + my * my - r * r
    if b >= 0.0:
        return False, 0.0, 0.0, 0.0
    disc = b * b - c
    if disc < 0.0:
        return False, 0.0, 0.0, 0.0
    t = -b - math.sqrt(disc)
    t = 0.0 if 0.0 > t else t  # Python's max(t, 0.0)
    if t > max_distance:
        return False, 0.0, 0.0, 0.0
    hx, hy = px + t * dx - cx, py + t * dy - cy
    hl = py_hypot(hx, hy)
    return True, t, hx / hl, hy / hl


@helper
def _ray_capsule_outside(row, ax, ay, bx, by, r, px, py, dx, dy, max_distance):
    """``queries._ray_capsule_outside`` on a 2-vertex sum row (ends (ax, ay), (bx, by), its first normal a side's):
    (hit, t, nx, ny) of a ray from outside the capsule, the nearest of its two flat sides and two end caps. With
    both ends at a 1-vertex row's centre it is ``queries._ray_circle`` on that circle (no sides; the second cap
    is the first again, never nearer)."""
    hit, best_t, best_nx, best_ny = False, 0.0, 0.0, 0.0
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    sx, sy = _normal(row, np.int64(0))
    den = sx * dx + sy * dy
    if length2 > 0.0 and den != 0.0:  # only the side the ray heads into can let it in (the other's den is >= 0)
        nx, ny = (sx, sy) if den < 0.0 else (-sx, -sy)
        den = -den if den > 0.0 else den  # (exactly the other side's nx * dx + ny * dy)
        height = nx * (px - ax) + ny * (py - ay) - r
        if height >= 0.0:
            t = -height / den
            u = (px + t * dx - ax) * ex + (py + t * dy - ay) * ey
            if 0.0 <= u <= length2 and t <= max_distance:
                hit, best_t, best_nx, best_ny = True, t, nx, ny
    if r > 0.0:
        cap, t, nx, ny = _ray_circle(px, py, dx, dy, max_distance, ax, ay, r)
        if cap and (not hit or t < best_t):
            hit, best_t, best_nx, best_ny = True, t, nx, ny
        cap, t, nx, ny = _ray_circle(px, py, dx, dy, max_distance, bx, by, r)
        if cap and (not hit or t < best_t):
            hit, best_t, best_nx, best_ny = True, t, nx, ny
    return hit, best_t, best_nx, best_ny


@helper
def _ray_polygon_outside(row, n, r, px, py, dx, dy, max_distance, feature, two):
    """``queries._ray_polygon_outside``: (hit, t, nx, ny) of a ray from outside the rounded polygon (the
    origin's heights above the edges worked out again, to the same bits, rather than kept in an array)."""
    t_enter = 0.0
    t_exit = max_distance
    enter = np.int64(-1)
    for i in range(n):
        nx, ny = _normal(row, i)
        height = _height(row, i, r, px, py)
        den = nx * dx + ny * dy
        if den == 0.0:
            if height > 0.0:
                return False, 0.0, 0.0, 0.0
            continue
        t = -height / den
        if den < 0.0:
            if t > t_enter or (enter < 0 and t == t_enter):
                t_enter, enter = t, i
        elif t < t_exit:
            t_exit = t
        if t_enter > t_exit:
            return False, 0.0, 0.0, 0.0
    if enter < 0:
        if feature < 0:
            feature = _core_closest(row, n, px, py, two)[5]
        if r == 0.0 or not 0 <= feature < 32:
            return False, 0.0, 0.0, 0.0
        cx, cy = _vertex(row, feature)
    else:
        ax, ay = _vertex(row, enter)
        bx, by = _vertex(row, (enter + 1) % n)
        ex, ey = bx - ax, by - ay
        hx, hy = px + t_enter * dx, py + t_enter * dy
        u = (hx - ax) * ex + (hy - ay) * ey
        if r == 0.0 or 0.0 <= u <= ex * ex + ey * ey:
            nx, ny = _normal(row, enter)
            return True, t_enter, nx, ny
        cx, cy = (ax, ay) if u < 0.0 else (bx, by)
    return _ray_circle(px, py, dx, dy, max_distance, cx, cy, r)


@helper
def _local_ray(row, n, r, px, py, dx, dy, max_distance, two):
    """``queries._local_ray`` for a sum core of any vertex count: (hit, t, nx, ny, started_inside)."""
    top = 0.0
    feature = np.int64(-1)
    on_face = np.int64(-1)
    if n >= 3:
        top_i = np.int64(0)
        top = _height(row, np.int64(0), r, px, py)
        for i in range(1, n):
            height = _height(row, i, r, px, py)
            if height > top:
                top, top_i = height, i  # the first of the highest, as Python's max() and list.index() find it
        if abs(top) <= _ON_SURFACE:
            ax, ay = _vertex(row, top_i)
            bx, by = _vertex(row, (top_i + 1) % n)
            u = (px - ax) * (bx - ax) + (py - ay) * (by - ay)
            if 0.0 <= u <= (bx - ax) ** two + (by - ay) ** two:
                on_face = top_i
    if on_face >= 0:
        nx, ny = _normal(row, on_face)
        if dx * nx + dy * ny < 0.0:
            return True, 0.0, nx, ny, False
    elif n < 3 or top <= _ON_SURFACE:
        _, _, dcore, onx, ony, feature = _core_closest(row, n, px, py, two)
        if dcore - r < 0.0:
            return True, 0.0, onx, ony, True
        if dcore - r <= _ON_SURFACE and dx * onx + dy * ony < 0.0:
            return True, 0.0, onx, ony, False
    if n <= 2:  # a circle is a capsule whose ends are one (one code for both: less to compile)
        ax, ay = _vertex(row, np.int64(0))
        bx, by = _vertex(row, n - 1)
        hit, t, nx, ny = _ray_capsule_outside(row, ax, ay, bx, by, r, px, py, dx, dy, max_distance)
    else:
        hit, t, nx, ny = _ray_polygon_outside(row, n, r, px, py, dx, dy, max_distance, feature, two)
    return hit, t, nx, ny, False


@helper
def _point(core, row, start, i, moved, c, s, ox, oy):
    """With ``moved``, vertex ``i`` of the moving ``core`` turned by the angle of cosine ``c`` and sine ``s`` and
    moved to (ox, oy), as ``queries._contact_point`` places it; else point ``i`` of those kept as x, y pairs in
    the sum row ``row`` from ``start`` on (the target's world core)."""
    if moved:
        x, y = core[i, 0], core[i, 1]
        return ox + c * x - s * y, oy + s * x + c * y
    return row[start + 2 * i], row[start + 2 * i + 1]


@helper
def _support_feature(core, row, start, count, moved, c, s, ox, oy, nx, ny, tx, ty):
    """``queries._support_feature`` of ``count`` points (see :func:`_point`): how many lie within the tie
    tolerance of the farthest along (nx, ny), the first of them, and the least and the greatest of their places
    along (tx, ty) (found as Python's ``min`` and ``max`` find them, in order)."""
    x, y = _point(core, row, start, np.int64(0), moved, c, s, ox, oy)
    best = x * nx + y * ny
    for i in range(1, count):
        x, y = _point(core, row, start, i, moved, c, s, ox, oy)
        d = x * nx + y * ny
        if d > best:
            best = d
    found = 0
    first_x = first_y = lo = hi = 0.0
    for i in range(count):
        x, y = _point(core, row, start, i, moved, c, s, ox, oy)
        if x * nx + y * ny >= best - _SUPPORT_TIE:
            along = x * tx + y * ty
            if found == 0:
                first_x, first_y, lo, hi = x, y, along, along
            else:
                lo = along if along < lo else lo
                hi = along if along > hi else hi
            found += 1
    return found, first_x, first_y, lo, hi


@helper
def _support_point(core, radius, c, s, ox, oy, nx, ny):
    """``queries._contact_point`` with ``edge_midpoints=False``: the surface point of the moving shape (``core``,
    ``radius``, turned by the angle of cosine ``c`` and sine ``s``, its origin at (ox, oy)) farthest against
    (nx, ny)."""
    best = math.inf
    sx = sy = 0.0
    for i in range(core.shape[0]):
        x, y = core[i, 0], core[i, 1]
        wx, wy = c * x - s * y, s * x + c * y
        d = wx * nx + wy * ny
        if d < best:
            best, sx, sy = d, wx, wy
    return ox + sx - radius * nx, oy + sy - radius * ny


@helper
def _contact_point(row, core, radius, c, s, ox, oy, nx, ny):
    """``queries._contact_point`` of the moving shape (``core``, ``radius``, turned by the angle whose cosine
    and sine are ``c``, ``s``) whose origin is at (ox, oy), across a contact of normal (nx, ny): with the target's
    core kept in the row (``SUM_TARGET_AT``) the middle of the stretch where two faces touch (``edge_midpoints``),
    else the moving shape's support point (``edge_midpoints=False``)."""
    k = core.shape[0]
    target_at = int(row[SUM_TARGET_AT])
    if target_at == 0:
        return _support_point(core, radius, c, s, ox, oy, nx, ny)
    mine = theirs = 0
    mine_x = mine_y = mine_lo = mine_hi = theirs_x = theirs_y = theirs_lo = theirs_hi = 0.0
    for side in range(2):  # (a loop around one call: one copy of the support feature's code to compile)
        if side == 0:  # the moving shape's vertices, placed, farthest against the normal
            start, count, moved, fx, fy, place_x, place_y, cx, sx = 0, k, True, -nx, -ny, ox, oy, c, s
        else:  # the target's world vertices, farthest along it
            start, count, moved, fx, fy, place_x, place_y, cx, sx = (target_at + 1, int(row[target_at]), False, nx,
                                                                     ny, 0.0, 0.0, 1.0, 0.0)
        found, x, y, lo, hi = _support_feature(core, row, start, count, moved, cx, sx, place_x, place_y, fx, fy, -ny,
                                               nx)
        if side == 0:
            mine, mine_x, mine_y, mine_lo, mine_hi = found, x, y, lo, hi
        else:
            theirs, theirs_x, theirs_y, theirs_lo, theirs_hi = found, x, y, lo, hi
    rt = row[SUM_SEGMENT_RADIUS]
    if theirs == 1:
        return theirs_x + rt * nx, theirs_y + rt * ny
    if mine == 1:
        return mine_x - radius * nx, mine_y - radius * ny
    # The Python reference takes min() and max() of mine's places along (-ny, nx) and of theirs', then
    # max(lows) and min(highs): the first unless the second is strictly beyond it.
    lo = theirs_lo if theirs_lo > mine_lo else mine_lo
    hi = theirs_hi if theirs_hi < mine_hi else mine_hi
    along = 0.5 * (lo + hi)
    height = theirs_x * nx + theirs_y * ny + rt
    return along * -ny + height * nx, along * nx + height * ny


@helper
def _in_box(row, min_x, min_y, max_x, max_y):
    """Whether the row's target box overlaps the query box (the world's ``_near`` test)."""
    return row[SUM_MIN_X] <= max_x and row[SUM_MAX_X] >= min_x and row[SUM_MIN_Y] <= max_y and row[SUM_MAX_Y] >= min_y


@kernel
def _cast_row(row, core, radius, c, s, ox, oy, tx, ty, length, two):
    """``queries.cast_against_sum`` of the shape (turned by the angle of cosine ``c`` and sine ``s``) against
    one sum row, ``length`` being ``hypot(tx, ty)``: (hit, fraction, point x, y, normal x, y, started inside)."""
    n = int(row[SUM_COUNT])
    r = row[SUM_SEGMENT_RADIUS] + radius
    if length == 0.0:
        _, _, d, nx, ny, _ = _core_closest(row, n, ox, oy, two)
        if not d - r < 0.0:
            return False, 0.0, 0.0, 0.0, 0.0, 0.0, False
        fraction, hx, hy, inside = 0.0, ox, oy, True
    else:
        dx, dy = tx / length, ty / length
        hit, t, nx, ny, inside = _local_ray(row, n, r, ox, oy, dx, dy, length, two)
        if not hit:
            return False, 0.0, 0.0, 0.0, 0.0, 0.0, False
        hx, hy = ox + t * dx, oy + t * dy
        fraction = t / length
        fraction = 1.0 if 1.0 < fraction else fraction  # Python's min(fraction, 1.0)
    px, py = _contact_point(row, core, radius, c, s, hx, hy, nx, ny)
    return True, fraction, px, py, nx, ny, inside


@kernel
def cast_sums(table, segments, core, radius, c, s, ox, oy, tx, ty, min_x, min_y, max_x, max_y, two):
    """Sweep the shape (core vertices ``core`` (k, 2) in its own frame, ``radius`` px, turned by the angle of
    cosine ``c`` and sine ``s``, the angle the rows' sums were made for) from (ox, oy) by (tx, ty) against the
    sum-table rows ``table[segments]`` whose target boxes overlap the query box.
    Returns one row per hit (``CAST_*`` columns: index into ``segments``, fraction, contact point, normal,
    started inside 1.0/0.0), nearest first and, between equal fractions, in ``segments``' order (a stable
    sort, as ``list.sort``). ``two`` must be 2.0."""
    length = py_hypot(tx, ty)
    out = np.empty((segments.shape[0], 7))
    count = 0
    for k in range(segments.shape[0]):
        row = table[segments[k]]
        if not _in_box(row, min_x, min_y, max_x, max_y):
            continue
        hit, fraction, px, py, nx, ny, inside = _cast_row(row, core, radius, c, s, ox, oy, tx, ty, length, two)
        if not hit:
            continue
        j = count
        while j > 0 and out[j - 1, CAST_FRACTION] > fraction:  # insertion sort: stable, and hits are few
            for col in range(7):  # (column by column: a whole-row copy costs numba seconds of compiling)
                out[j, col] = out[j - 1, col]
            j -= 1
        out[j, CAST_ROW], out[j, CAST_FRACTION], out[j, CAST_POINT_X], out[j, CAST_POINT_Y] = k, fraction, px, py
        out[j, CAST_NORMAL_X], out[j, CAST_NORMAL_Y], out[j, CAST_INSIDE] = nx, ny, 1.0 if inside else 0.0
        count += 1
    return out[:count]


@helper
def _first_blocking(table, segments, core, radius, local_box, ox, oy, tx, ty, graze_cosine, two):
    """The mover's ``_first_hit`` over the sum-table rows ``table[segments]`` (static solid segments, or bodies
    that are no one-way platforms) of its upright cast shape (``local_box``: its box in its own frame): the
    nearest hit (the first in ``segments``' order between equal fractions) that the sweep runs into rather than
    grazes. Returns (index into ``segments`` or -1, fraction, point x, y, normal x, y, started inside)."""
    length = py_hypot(tx, ty)
    min_x = local_box[0] + ox + (0.0 if 0.0 < tx else tx)  # AABB.swept: Python's min(tx, 0.0) and max
    min_y = local_box[1] + oy + (0.0 if 0.0 < ty else ty)
    max_x = local_box[2] + ox + (0.0 if 0.0 > tx else tx)
    max_y = local_box[3] + oy + (0.0 if 0.0 > ty else ty)
    best = -1
    best_fraction = best_px = best_py = best_nx = best_ny = 0.0
    best_inside = False
    for k in range(segments.shape[0]):
        row = table[segments[k]]
        if not _in_box(row, min_x, min_y, max_x, max_y):
            continue
        hit, fraction, px, py, nx, ny, inside = _cast_row(row, core, radius, 1.0, 0.0, ox, oy, tx, ty, length, two)
        if not hit or tx * nx + ty * ny >= -graze_cosine * length:
            continue  # a miss, or moving away from it, along it or skimming it
        if best < 0 or fraction < best_fraction:
            best, best_fraction, best_px, best_py, best_nx, best_ny, best_inside = k, fraction, px, py, nx, ny, inside
    return best, best_fraction, best_px, best_py, best_nx, best_ny, best_inside


@helper
def _surface(nx, ny, ux, uy, floor_limit):
    """``character._classify``: 0 floor, 1 wall, 2 ceiling (``floor_limit``: cos of the steepest floor)."""
    d = nx * ux + ny * uy
    if d >= floor_limit - _MOVER_EPS:
        return 0
    if d <= -floor_limit + _MOVER_EPS:
        return 2
    return 1


_MOVER_EPS = 1e-9
"""As ``engine.character._EPS``."""


@helper
def _slide_sums(table, segments, core, radius, box_min_x, box_min_y, box_max_x, box_max_y, px, py, dx, dy, vx, vy,
               ux, uy, grounded, floor_limit, constant_speed, graze_cosine, max_slides, first_only, two):
    """``Mover._slide`` among sum-table rows that push nothing (no rigid bodies, no one-way colliders), the shape
    being the skin-grown cast shape (``box_*``: its box in its own frame), from (px, py) by (dx, dy) px with
    velocity (vx, vy) px/s; (ux, uy) is the unit up vector. Returns the stops (rows: index into ``segments``,
    fraction, point x, y, normal x, y, started inside, where the slide stopped x, y) and the end position and
    velocity. With ``first_only``, the mover's ``_first_hit``: one sweep, however short, and its stop if any."""
    local_box = (box_min_x, box_min_y, box_max_x, box_max_y)
    slides = 1 if first_only else max_slides
    stops = np.empty((slides, 9))
    count = 0
    for _ in range(slides):
        if dx * dx + dy * dy < 1e-18 and not first_only:
            break
        k, f, hx, hy, nx, ny, inside = _first_blocking(table, segments, core, radius, local_box, px, py, dx, dy,
                                                       graze_cosine, two)
        if k < 0:
            px, py = px + dx, py + dy
            break
        px, py = px + dx * f, py + dy * f
        stops[count, 0], stops[count, 1], stops[count, 2], stops[count, 3] = k, f, hx, hy
        stops[count, 4], stops[count, 5], stops[count, 6] = nx, ny, 1.0 if inside else 0.0
        stops[count, 7], stops[count, 8] = px, py
        count += 1
        surface = _surface(nx, ny, ux, uy, floor_limit)
        vu = vx * ux + vy * uy
        if surface == 0 and vu < 0 or surface == 2 and vu > 0:
            vx, vy = vx - ux * vu, vy - uy * vu
        elif surface == 1:
            vn = vx * nx + vy * ny
            if vn < 0:
                vx, vy = vx - nx * vn, vy - ny * vn
        dx, dy = _slide_rest(dx, dy, f, nx, ny, ux, uy, surface, grounded, constant_speed)
        for j in range(count - 1):  # a crease: the slide would push into a plane hit earlier, so stop there
            if dx * stops[j, 4] + dy * stops[j, 5] < -_MOVER_EPS:
                dx = dy = 0.0
                break
    return stops[:count], px, py, vx, vy


@helper
def _slide_rest(dx, dy, f, nx, ny, ux, uy, surface, grounded, constant_speed):
    """The rest of a slide's displacement after a hit at fraction ``f``, projected onto the hit plane (and
    kept at its lateral length on a grounded walk onto a floor; a grounded walk does not climb walls)."""
    rx, ry = dx * (1.0 - f), dy * (1.0 - f)
    rn = rx * nx + ry * ny
    lateral_before = abs(rx * -uy + ry * ux)
    rx, ry = rx - nx * rn, ry - ny * rn
    if grounded and surface == 0 and constant_speed:
        lateral_after = abs(rx * -uy + ry * ux)
        if lateral_after > _MOVER_EPS:
            scale = lateral_before / lateral_after
            rx, ry = rx * scale, ry * scale
    elif grounded and surface == 1:
        up_part = rx * ux + ry * uy
        if up_part > 0:
            rx, ry = rx - ux * up_part, ry - uy * up_part
    return rx, ry


@kernel
def contact_sums(table, segments, core, radius, ox, oy, margin, min_x, min_y, max_x, max_y, two):
    """Contacts of the upright shape (``core``, ``radius``) at (ox, oy) with the sum-table rows
    ``table[segments]`` whose segment boxes overlap the query box and whose separation is at most ``margin``
    px, in ``segments``' order (``CONTACT_*`` columns: index into ``segments``, separation (negative =
    overlap), normal towards the shape, contact point: the shape's support point, ``edge_midpoints=False``, as
    the level's segments' rows ask; a row's target core is not read)."""
    out = np.empty((segments.shape[0], 6))
    count = 0
    for k in range(segments.shape[0]):
        row = table[segments[k]]
        if not _in_box(row, min_x, min_y, max_x, max_y):
            continue
        n = int(row[SUM_COUNT])
        _, _, d, nx, ny, _ = _core_closest(row, n, ox, oy, two)
        separation = d - (row[SUM_SEGMENT_RADIUS] + radius)
        if not separation <= margin:
            continue
        hx, hy = ox - nx * separation, oy - ny * separation
        px, py = _support_point(core, radius, 1.0, 0.0, hx, hy, nx, ny)
        out[count, CONTACT_ROW], out[count, CONTACT_SEPARATION] = k, separation
        out[count, CONTACT_NORMAL_X], out[count, CONTACT_NORMAL_Y] = nx, ny
        out[count, CONTACT_POINT_X], out[count, CONTACT_POINT_Y] = px, py
        count += 1
    return out[:count]


@helper
def _thousandths(x):
    """Python's ``round(x, 3)`` as the whole number of thousandths it stands for: ``x * 1000`` rounded to the
    nearest whole number, ties to even, on the exact product (Python rounds the exact decimal value of ``x``;
    the float product may round across a half). Distinct results stand for distinct ``round(x, 3)`` and in the
    same order, so comparing these compares those (for the pixel-sized values here, far below 2**40)."""
    product, error = _exact_product(x, 1000.0)  # product + error == x * 1000 exactly
    whole = np.floor(product)  # (a float: math.floor makes an integer here)
    part = product - whole  # exact; a multiple of the product's last place, so only 0.5 itself is near a half
    odd = np.floor(whole * 0.5) * 2.0 != whole
    if part > 0.5 or part == 0.5 and (error > 0.0 or error == 0.0 and odd):
        return whole + 1.0
    return whole


@kernel
def thousandths(x):
    """:func:`_thousandths` on its own (its test compares it with Python's ``round``)."""
    return _thousandths(x)


@helper
def _touch_sums(table, segments, core, radius, ox, oy, margin, box_min_x, box_min_y, box_max_x, box_max_y, ux, uy,
               floor_limit, penetration_slop, two):
    """``Mover._classify_contacts`` among static solid segments only: :func:`contact_sums`' contacts (within
    ``margin`` px of the upright shape at (ox, oy), ``box_*`` being its box in its own frame, in that box
    placed and grown by ``margin``: ``World.contacts``' query box) and, as places in them (-1: none), the floor
    (the nearest, its separation rounded to thousandths of a pixel as the mover's ``round(separation, 3)``;
    between equally near ones the most level, then the first), the nearest wall and the nearest ceiling
    (the first between equally near ones), with the number of walls and whether one contact overlaps
    deeper than ``penetration_slop`` px. (ux, uy): the unit up vector; ``floor_limit``: cos of the steepest
    floor."""
    min_x, min_y = box_min_x + ox - margin, box_min_y + oy - margin  # shape.aabb(Transform((ox, oy))).grown(margin)
    max_x, max_y = box_max_x + ox + margin, box_max_y + oy + margin
    found = contact_sums(table, segments, core, radius, ox, oy, margin, min_x, min_y, max_x, max_y, two)
    floor = wall = ceiling = -1
    walls = 0
    overlapping = False
    floor_key = floor_level = 0.0
    for i in range(found.shape[0]):
        separation, nx, ny = found[i, CONTACT_SEPARATION], found[i, CONTACT_NORMAL_X], found[i, CONTACT_NORMAL_Y]
        if separation < -penetration_slop:
            overlapping = True
        surface = _surface(nx, ny, ux, uy, floor_limit)
        if surface == 0:
            key, level = _thousandths(separation), -(nx * ux + ny * uy)  # the mover's _floor_key
            if floor < 0 or key < floor_key or key == floor_key and level < floor_level:
                floor, floor_key, floor_level = i, key, level
        elif surface == 2:
            if ceiling < 0 or separation < found[ceiling, CONTACT_SEPARATION]:
                ceiling = i
        else:
            if wall < 0 or separation < found[wall, CONTACT_SEPARATION]:
                wall = i
            walls += 1
    return found, floor, wall, ceiling, walls, overlapping


MOVER_CONSTANTS = 19
"""Length of a mover's constants (see :func:`mover_constants`)."""


def mover_constants(cast_radius: float, cast_box: Sequence[float], up: Sequence[float], floor_limit: float,
                    constant_speed: bool, graze_cosine: float, max_slides: int, radius: float, box: Sequence[float],
                    margin: float, penetration_slop: float) -> np.ndarray:
    """What stays the same from move to move of one character, in one array for the mover's kernels (columns
    ``layout.MOVE_*``; a float64 holds each exactly: the flag as 1.0 or 0.0, the whole number of slides as
    itself): its skin-grown cast
    shape's radius and box in its own frame (px), the unit up vector, the cosine of the steepest floor,
    whether a grounded walk keeps its lateral speed on slopes, the graze cosine, the most slides a move makes,
    its own shape's radius and box, how far a surface still counts as touched (px), the penetration slop (px),
    and last the ``two`` (2.0) of the kernels' ``x ** two``, read from the array at run time so that the
    compiler cannot fold it into a multiplication. (A call's cost is mostly its arguments' here: one array
    beats nineteen numbers.)"""
    constants = np.array([cast_radius, *cast_box, *up, floor_limit, 1.0 if constant_speed else 0.0, graze_cosine,
                          float(max_slides), radius, *box, margin, penetration_slop, 2.0], dtype=np.float64)
    assert len(constants) == MOVE_COLUMNS  # (the columns as layout names them)
    return constants


@inlined
def _slide_touch(table, segments, core, mover, px, py, dx, dy, vx, vy, grounded, touch, first_only, stops_out,
                 touched_out):
    """:func:`_slide_sums` of the skin-grown cast shape (``mover``: the character's :func:`mover_constants`) by
    (dx, dy) px from (px, py) with velocity (vx, vy) px/s, then, with ``touch``, :func:`_touch_sums` of the
    character's own shape where the slide ended: the mover's slide and what it touches after it in one call.
    The answers go into the caller's arrays (handing new arrays back to Python costs more than the work
    here): the stops into the first rows of ``stops_out`` (at least ``max_slides`` rows of
    :func:`_slide_sums`' columns), the floor, wall and ceiling contacts into rows 0, 1 and 2 of ``touched_out``
    (``CONTACT_*`` columns). Returns (the number of stops, the end position x, y and velocity x, y, whether
    there is a floor, a wall, a ceiling, the number of walls, whether one contact overlaps deeper than
    ``penetration_slop``; without ``touch`` no floor, wall or ceiling)."""
    ux, uy, floor_limit, two = mover[MOVE_UP_X], mover[MOVE_UP_Y], mover[MOVE_FLOOR_LIMIT], mover[MOVE_TWO]
    stops, px, py, vx, vy = _slide_sums(
        table, segments, core, mover[MOVE_CAST_RADIUS], mover[MOVE_CAST_MIN_X], mover[MOVE_CAST_MIN_Y],
        mover[MOVE_CAST_MAX_X], mover[MOVE_CAST_MAX_Y], px, py, dx, dy, vx, vy, ux, uy, grounded, floor_limit,
        mover[MOVE_CONSTANT_SPEED] != 0.0, mover[MOVE_GRAZE_COSINE], int(mover[MOVE_MAX_SLIDES]), first_only, two)
    for i in range(stops.shape[0]):  # (a loop: an array slice assignment compiles a string-formatting error path)
        for j in range(stops.shape[1]):
            stops_out[i, j] = stops[i, j]
    if not touch:
        return stops.shape[0], px, py, vx, vy, False, False, False, 0, False
    found, floor, wall, ceiling, walls, overlapping = _touch_sums(
        table, segments, core, mover[MOVE_RADIUS], px, py, mover[MOVE_MARGIN], mover[MOVE_MIN_X], mover[MOVE_MIN_Y],
        mover[MOVE_MAX_X], mover[MOVE_MAX_Y], ux, uy, floor_limit, mover[MOVE_SLOP], two)
    places = (floor, wall, ceiling)
    for slot in range(3):
        if places[slot] >= 0:
            for c in range(touched_out.shape[1]):  # (column by column, as in cast_sums)
                touched_out[slot, c] = found[places[slot], c]
    return stops.shape[0], px, py, vx, vy, floor >= 0, wall >= 0, ceiling >= 0, walls, overlapping


@kernel
def slide_touch(table, segments, core, mover, moving, skip, px, py, dx, dy, vx, vy, grounded, touch, first_only,
                stops_out, touched_out):
    """The mover's slide among the sum-table rows ``table[segments]`` (static solid segments, or bodies when it
    pushes none: no one-way colliders), and with ``touch`` what the character touches where it ended
    (:func:`_slide_touch`, whose answer it returns). A slide by (0, 0) is what the character touches where it is.
    With ``first_only`` it is the mover's first hit instead (``_first_hit``: one sweep, grazes skipped; its stop,
    if any, in ``stops_out``'s first row). Every one of ``segments`` must have a usable row in ``table``: built
    (an unbuilt row's vertex count is 0) and its sum a core of at least one vertex that the row holds, as
    ``StaticGeometry.sum_table`` hands the compiled queries. Otherwise it does nothing and answers -1 stops:
    the caller has the rows built first. ``moving`` (n, 4: min x, min y, max x, max y, px) are the boxes of what
    moves, as a gather tests them: when one of them but row ``skip`` (-1: none) overlaps or touches the cast
    shape's box swept by (dx, dy) from (px, py), it does nothing and answers -2 stops (the caller gathers what is
    there; a probe's gather and its first hit in one call when nothing moves near). An empty ``moving``: no test."""
    if moving.shape[0]:
        min_x = mover[MOVE_CAST_MIN_X] + px + (dx if dx < 0.0 else 0.0)  # (the swept box, as the mover makes it)
        min_y = mover[MOVE_CAST_MIN_Y] + py + (dy if dy < 0.0 else 0.0)
        max_x = mover[MOVE_CAST_MAX_X] + px + (dx if dx > 0.0 else 0.0)
        max_y = mover[MOVE_CAST_MAX_Y] + py + (dy if dy > 0.0 else 0.0)
        for i in range(moving.shape[0]):
            if i != skip and not (moving[i, 0] > max_x or moving[i, 2] < min_x or moving[i, 1] > max_y
                                  or moving[i, 3] < min_y):
                return -2, px, py, vx, vy, False, False, False, 0, False
    width = table.shape[1]
    for s in segments:
        count = table[s, SUM_COUNT]
        if not (1.0 <= count and SUM_FIRST_VERTEX + 4.0 * count <= width):
            return -1, px, py, vx, vy, False, False, False, 0, False
    return _slide_touch(table, segments, core, mover, px, py, dx, dy, vx, vy, grounded, touch, first_only, stops_out,
                        touched_out)


@kernel
def boxes_near(boxes, filters, min_x, min_y, max_x, max_y, category, mask, group, found):
    """Indices, in order, of the ``boxes`` (rows min_x, min_y, max_x, max_y, px) that overlap or touch the
    query box and whose ``filters`` (rows category, mask, group) touch the query's filter
    (``CollisionFilter.touches``): the characters a mover's gather finds in a crowd. They go into the first
    places of ``found`` (as long as ``boxes``: handing a new array back to Python would cost more than the
    search); returns how many."""
    count = 0
    for i in range(boxes.shape[0]):
        if boxes[i, 0] > max_x or boxes[i, 2] < min_x or boxes[i, 1] > max_y or boxes[i, 3] < min_y:
            continue
        if not filter_values_touch(category, mask, group, filters[i, 0], filters[i, 1], filters[i, 2]):
            continue
        found[count] = i
        count += 1
    return count


@kernel
def advance_kinematic(state, dt, rows, legs, lengths, speeds, local_boxes, boxes):
    """A step of ``dt`` s for a world's kinematic bodies (``state``: their rows, ``layout.KINEMATIC_*`` columns):
    each body's placement kept as the previous one and whether game code placed it as the step's; then moved by
    its velocity, or, for the bodies of ``rows`` (ascending), along its path: ``legs`` (P, L, 5) are each path's
    legs (start x, y, end x, y, length px; a shorter path padded with legs 0 long, and every path ending with a
    leg from its start to its start, infinitely long), ``lengths`` and ``speeds`` (P,) the paths' lengths (px)
    and speeds (px/s), and the velocity becomes the one that takes it there (one placed by game code is put
    back on its path at once, as if it had been there). ``boxes`` (n, 4) gets each body's box where it is,
    grown over where it was (``local_boxes``: each shape's box in its own frame, px), which holds unless a body
    is turned now or was before. Returns (whether game code had placed any, whether any is turned, the fastest
    speed, px/s). The same numbers as ``KinematicSet``'s array operations gave, in the same order."""
    placed_any = turned = False
    fastest = 0.0
    p = 0
    for k in range(state.shape[0]):
        placed = state[k, KINEMATIC_PLACED]
        state[k, KINEMATIC_PLACED_AT_STEP] = placed
        placed_any = placed_any or placed != 0.0
        state[k, KINEMATIC_PLACED] = 0.0
        x, y = state[k, KINEMATIC_X], state[k, KINEMATIC_Y]
        state[k, KINEMATIC_PREVIOUS_X], state[k, KINEMATIC_PREVIOUS_Y] = x, y
        state[k, KINEMATIC_PREVIOUS_ANGLE] = state[k, KINEMATIC_ANGLE]
        if p < rows.shape[0] and rows[p] == k:  # (along its path: where it is now, and where it was if placed)
            distance = state[k, KINEMATIC_PATH_DISTANCE] + speeds[p] * dt
            state[k, KINEMATIC_PATH_DISTANCE] = distance
            tx = ty = 0.0
            for back in range(2 if placed != 0.0 else 1):
                # numpy's mod (the paths' length is positive), then one leg's length after another taken off
                # until a leg (not 0 long) holds what is left; the point that far along it.
                left = np.fmod(distance - speeds[p] * dt if back else distance, lengths[p])
                if left == 0.0:
                    left = 0.0
                elif left < 0.0:
                    left += lengths[p]
                j = 0
                while j < legs.shape[1] - 1 and not (left <= legs[p, j, 4] and legs[p, j, 4] > 0.0):
                    left = left + -legs[p, j, 4]
                    j += 1
                q = left / legs[p, j, 4]
                px = legs[p, j, 0] + q * (legs[p, j, 2] - legs[p, j, 0])
                py = legs[p, j, 1] + q * (legs[p, j, 3] - legs[p, j, 1])
                if back:
                    state[k, KINEMATIC_PREVIOUS_X], state[k, KINEMATIC_PREVIOUS_Y] = px, py
                    x, y = px, py
                else:
                    tx, ty = px, py
            state[k, KINEMATIC_VX], state[k, KINEMATIC_VY] = (tx - x) / dt, (ty - y) / dt
            state[k, KINEMATIC_X], state[k, KINEMATIC_Y] = tx, ty
            p += 1
        else:
            state[k, KINEMATIC_X] = x + state[k, KINEMATIC_VX] * dt
            state[k, KINEMATIC_Y] = y + state[k, KINEMATIC_VY] * dt
        state[k, KINEMATIC_ANGLE] += state[k, KINEMATIC_W] * dt
        fastest = max(fastest, np.hypot(state[k, KINEMATIC_VX], state[k, KINEMATIC_VY]))
        turned = turned or state[k, KINEMATIC_ANGLE] != 0.0 or state[k, KINEMATIC_PREVIOUS_ANGLE] != 0.0
        for c in range(2):  # (x, then y: numpy's minimum and maximum, a tie going to the box where it was)
            now = local_boxes[k, c] + state[k, KINEMATIC_X + c]
            before = local_boxes[k, c] + state[k, KINEMATIC_PREVIOUS_X + c]
            boxes[k, c] = now if now < before else before
            now = local_boxes[k, c + 2] + state[k, KINEMATIC_X + c]
            before = local_boxes[k, c + 2] + state[k, KINEMATIC_PREVIOUS_X + c]
            boxes[k, c + 2] = now if now > before else before
    return placed_any, turned, fastest


def compile_steps() -> Iterator[str]:
    """Compile (or load from the disk cache) the mover's kernels on a box over a flat segment; yields each
    stage's name once it is ready (for progress displays)."""
    core = np.array([[-8.0, -14.0], [8.0, -14.0], [8.0, 14.0], [-8.0, 14.0]])
    rows = np.zeros((1, sum_row_width(4)))
    rows[0, :SUM_FIRST_VERTEX] = 4, 1.0, -101.0, -1.0, 101.0, 1.0, 0.0
    sum_core = ((-108.0, -14.0), (108.0, -14.0), (108.0, 14.0), (-108.0, 14.0))
    sum_normals = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))
    for i, ((x, y), (nx, ny)) in enumerate(zip(sum_core, sum_normals)):
        rows[0, SUM_FIRST_VERTEX + 4 * i:SUM_FIRST_VERTEX + 4 * i + 4] = x, y, nx, ny
    segments = np.zeros(1, dtype=np.int64)
    cast_sums(rows, segments, core, 2.5, 1.0, 0.0, 0.0, 20.0, 0.0, -10.0, -10.0, -18.0, 10.0, 36.0, 2.0)
    yield "character casts"
    contact_sums(rows, segments, core, 2.0, 0.0, 17.5, 1.5, -10.0, 0.0, 10.0, 36.0, 2.0)
    yield "character contacts"
    mover = mover_constants(2.5, (-10.5, -16.5, 10.5, 16.5), (0.0, 1.0), 0.64, True, 1e-4, 4, 2.0,
                            (-10.0, -16.0, 10.0, 16.0), 1.5, 0.01)
    nothing_moves = np.zeros((0, 4))
    slide_touch(rows, segments, core, mover, nothing_moves, -1, 0.0, 20.0, 0.0, -1.0, 0.0, -1.0, True, True, False,
                np.zeros((4, 9)), np.zeros((3, 6)))
    yield "character slides"
    slide_touch(rows, segments, core, mover, nothing_moves, -1, 0.0, 20.0, 0.0, -10.0, 0.0, 0.0, False, False, True,
                np.zeros((1, 9)), np.zeros((3, 6)))  # (a first hit: the slide's own kernel, nothing more to compile)
    yield "character touches"
    boxes_near(np.zeros((1, 4)), np.ones((1, 3), dtype=np.int64), -1.0, -1.0, 1.0, 1.0, 1, 1, 0,
               np.zeros(1, dtype=np.int64))
    legs = np.array([[[0.0, 0.0, 10.0, 0.0, 10.0], [10.0, 0.0, 0.0, 0.0, 10.0], [0.0, 0.0, 0.0, 0.0, np.inf]]])
    advance_kinematic(np.zeros((2, KINEMATIC_COLUMNS)), 0.5, np.zeros(1, dtype=np.int64), legs, np.array([20.0]),
                      np.array([4.0]), np.zeros((2, 4)), np.zeros((2, 4)))
    yield "crowd boxes"
