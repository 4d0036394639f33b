"""Point queries, ray casts and shape casts against rounded convex polygons.

Sign conventions:

* ``PointQuery.distance`` is signed: positive outside the shape, negative inside, 0 on the boundary.
  ``PointQuery.normal`` is the shape's outward unit normal at the closest boundary point.
* ``RayHit.normal`` and ``CastHit.normal`` are the target's outward unit normal at the hit, so they point
  against the motion (``dot(normal, direction) <= 0``).
* A ray (or cast) that starts inside (overlapping) the target reports a hit at distance (fraction) 0 with
  ``started_inside=True`` and the outward normal of the closest boundary point: the way out.
* A ray that only grazes the boundary (tangent) counts as a hit at the touching point.
* A miss is ``None``.

Every query works in the shape's local frame and transforms its answer back once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from .shapes import (
    VERTEX_TOLERANCE,
    GeometryError,
    RoundedPolygon,
    Transform,
    Vec2,
    _finite_point,
    convex_hull,
)

__all__ = [
    "CastHit",
    "PointQuery",
    "RayHit",
    "cast_against_sum",
    "closest_point",
    "contact_from_sum",
    "minkowski_difference",
    "ray_cast",
    "shape_cast",
]


class PointQuery(NamedTuple):
    """Result of :func:`closest_point` (world frame, pixels)."""

    point: Vec2
    """Closest point on the shape's boundary."""
    distance: float
    """Signed distance from the query point to the boundary: > 0 outside, < 0 inside."""
    inside: bool
    """True when the query point is strictly inside the shape (``distance < 0``)."""
    normal: Vec2
    """Outward unit normal of the boundary at ``point``."""


class RayHit(NamedTuple):
    """Result of :func:`ray_cast` (world frame, pixels)."""

    distance: float
    """Distance along the (normalised) ray direction to the hit."""
    point: Vec2
    """Hit point on the shape's boundary (the ray origin when the ray started inside)."""
    normal: Vec2
    """Outward unit surface normal at the hit."""
    started_inside: bool = False
    """True when the origin was inside the shape; then ``distance`` is 0."""


class CastHit(NamedTuple):
    """Result of :func:`shape_cast` (world frame, pixels)."""

    fraction: float
    """Fraction of the translation travelled before touching, in [0, 1]."""
    point: Vec2
    """Contact point on the target's surface at the time of impact."""
    normal: Vec2
    """Target's outward unit normal at the contact, pointing against the motion."""
    started_inside: bool = False
    """True when the shapes overlapped at the start; then ``fraction`` is 0 and ``normal`` the way out."""


# --------------------------------------------------------------------------------------------- core helpers
_SUPPORT_TIE = VERTEX_TOLERANCE
"""Pixels. Core vertices this close to the farthest one along a contact normal touch together (an edge).
The same tolerance under which the Minkowski hull merges nearly collinear vertices into one edge."""

_ON_SURFACE = 1e-9
"""Pixels. A ray origin this close outside a shape is on its surface."""

_ON_CORE = 1e-9
"""Pixels. A point this close to a core vertex or segment counts as on it: the direction from the core to
the point is then rounding noise, so a face normal is used instead."""

def core_closest(shape: RoundedPolygon, px: float, py: float) -> tuple[float, float, float, float, float, int]:
    """Closest point of the *core* polygon to the local point (px, py).

    Returns ``(qx, qy, signed_distance, nx, ny, feature)``: the closest core boundary point, the signed
    distance to the core (negative when inside it), the outward unit normal there, and the feature index
    (vertex index for a vertex, ``32 + edge`` for an edge face).
    """
    n = shape.count
    if n == 1:
        return _circle_closest(shape, px, py)
    if n == 2:
        return _segment_closest(shape, px, py)
    return _polygon_closest(shape, px, py)


def _circle_closest(shape: RoundedPolygon, px: float, py: float) -> tuple[float, float, float, float, float, int]:
    vx, vy = shape.vertices[0]
    dx, dy = px - vx, py - vy
    d = math.hypot(dx, dy)
    if d <= _ON_CORE:
        return vx, vy, 0.0, 0.0, 1.0, 0  # centre of a circle: any way out is as good; pick local up
    return vx, vy, d, dx / d, dy / d, 0


def _segment_closest(shape: RoundedPolygon, px: float, py: float) -> tuple[float, float, float, float, float, int]:
    (ax, ay), (bx, by) = shape.vertices
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
    if d <= _ON_CORE:
        # On the segment itself (an end included): the direction to the point is rounding noise; the
        # side normal is a valid way out.
        nx, ny = shape.normals[0]
        return qx, qy, 0.0, nx, ny, 32
    if feature == 32:
        # Beside the segment: the face normal of the side the point is on (no rounding noise).
        side = 0 if dx * shape.normals[0][0] + dy * shape.normals[0][1] > 0.0 else 1
        nx, ny = shape.normals[side]
        return qx, qy, d, nx, ny, 32 + side
    return qx, qy, d, dx / d, dy / d, feature


def _polygon_closest(shape: RoundedPolygon, px: float, py: float) -> tuple[float, float, float, float, float, int]:
    verts = shape.vertices
    n = shape.count
    normals = shape.normals
    # Largest face separation: inside the core if <= 0, and then that face is the nearest.
    best_i = 0
    best_sep = -math.inf
    for i in range(n):
        nx, ny = normals[i]
        vx, vy = verts[i]
        sep = nx * (px - vx) + ny * (py - vy)
        if sep > best_sep:
            best_sep, best_i = sep, i
    if best_sep <= 0.0:
        nx, ny = normals[best_i]
        return px - best_sep * nx, py - best_sep * ny, best_sep, nx, ny, 32 + best_i

    # Outside the core: the nearest point lies on an edge that faces the point.
    best_d2 = math.inf
    qx = qy = 0.0
    feature = 0
    for i in range(n):
        nx, ny = normals[i]
        ax, ay = verts[i]
        if nx * (px - ax) + ny * (py - ay) <= 0.0:
            continue
        bx, by = verts[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
        if t <= 0.0:
            cx, cy, f = ax, ay, i
        elif t >= 1.0:
            cx, cy, f = bx, by, (i + 1) % n
        else:
            cx, cy, f = ax + t * ex, ay + t * ey, 32 + i
        d2 = (px - cx) ** 2 + (py - cy) ** 2
        if d2 < best_d2:
            best_d2, qx, qy, feature = d2, cx, cy, f
    d = math.sqrt(best_d2)
    if feature >= 32:
        nx, ny = normals[feature - 32]
    elif d <= _ON_CORE:  # on a vertex: the face that sees the point best gives the normal
        nx, ny = normals[best_i]
    else:
        nx, ny = (px - qx) / d, (py - qy) / d
    return qx, qy, d, nx, ny, feature


def closest_point(shape: RoundedPolygon, xf: Transform, point: Sequence[float]) -> PointQuery:
    """Closest point on the boundary of ``shape`` (placed by ``xf``) to ``point`` (world, pixels).

    Per the seeds' point query: find the closest point of the core, decide inside/outside with the core's
    face normals, then move out by the radius along the normal.
    """
    px, py = xf.apply_inverse(_finite_point(point, "closest_point point"))
    qx, qy, d, nx, ny, _ = core_closest(shape, px, py)
    r = shape.radius
    local = (qx + r * nx, qy + r * ny)
    return PointQuery(xf.apply(local), d - r, d - r < 0.0, xf.rotate((nx, ny)))


# --------------------------------------------------------------------------------------------- rays
def _ray_circle(
    px: float, py: float, dx: float, dy: float, max_distance: float, cx: float, cy: float, r: float
) -> tuple[float, float, float, bool] | None:
    """First touch of the unit ray with the circle within ``max_distance``, for an origin outside it
    (callers have already answered origins inside or on the shape, so rounding in ``c`` must not re-decide
    that). Returns ``(t, nx, ny, False)``, the normal pointing out of the circle, or ``None``."""
    mx, my = px - cx, py - cy
    b = mx * dx + my * dy
    c = mx * mx + my * my - r * r
    if b >= 0.0:
        return None  # not moving towards the centre: an outside origin cannot reach the circle
    disc = b * b - c
    if disc < 0.0:
        return None
    t = max(-b - math.sqrt(disc), 0.0)
    if t > max_distance:
        return None
    hx, hy = px + t * dx - cx, py + t * dy - cy
    hl = math.hypot(hx, hy)
    return t, hx / hl, hy / hl, False


def ray_capsule(
    px: float, py: float, dx: float, dy: float, max_distance: float,
    ax: float, ay: float, bx: float, by: float, r: float,
) -> tuple[float, float, float, bool] | None:
    """Scalar ray cast against the capsule a-b of radius ``r`` (all plain floats, unit direction).
    Returns ``(t, nx, ny, started_inside)`` or ``None``; same conventions as :func:`ray_cast`."""
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    u = ((px - ax) * ex + (py - ay) * ey) / length2 if length2 > 0.0 else 0.0
    u = 0.0 if u < 0.0 else min(u, 1.0)
    ox, oy = px - (ax + u * ex), py - (ay + u * ey)
    length = math.sqrt(length2)
    side = (ey / length, -ex / length) if length > 0.0 else (0.0, 1.0)
    dist = math.hypot(ox, oy)
    if dist < r:
        if dist <= _ON_CORE:
            return 0.0, side[0], side[1], True
        return 0.0, ox / dist, oy / dist, True
    if dist - r <= _ON_SURFACE and dist > _ON_CORE and dx * ox + dy * oy < 0.0:
        return 0.0, ox / dist, oy / dist, False  # on the surface and heading in (see _local_ray)
    return _ray_capsule_outside(px, py, dx, dy, max_distance, ax, ay, bx, by, side, r)


def _ray_capsule_outside(
    px: float, py: float, dx: float, dy: float, max_distance: float,
    ax: float, ay: float, bx: float, by: float, side: Vec2, r: float,
) -> tuple[float, float, float, bool] | None:
    """Ray against a capsule for an origin known not to be inside: the two flat sides and two end caps,
    keeping the nearest. ``side`` is one unit normal of the segment."""
    best: tuple[float, float, float, bool] | None = None
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    if length2 > 0.0:
        for nx, ny in (side, (-side[0], -side[1])):
            den = nx * dx + ny * dy
            if den >= 0.0:
                continue
            height = nx * (px - ax) + ny * (py - ay) - r  # origin's height above this side, >= 0 here
            if height < 0.0:
                continue
            t = -height / den
            u = (px + t * dx - ax) * ex + (py + t * dy - ay) * ey
            if 0.0 <= u <= length2 and t <= max_distance and (best is None or t < best[0]):
                best = (t, nx, ny, False)
    if r > 0.0:
        for cx, cy in ((ax, ay), (bx, by)):
            cap = _ray_circle(px, py, dx, dy, max_distance, cx, cy, r)
            if cap is not None and (best is None or cap[0] < best[0]):
                best = cap
    return best


def _local_ray(
    shape: RoundedPolygon, px: float, py: float, dx: float, dy: float, max_distance: float
) -> tuple[float, float, float, bool] | None:
    """Ray cast in the shape's local frame. Returns ``(t, nx, ny, started_inside)``."""
    r = shape.radius
    verts = shape.vertices
    n = shape.count

    heights: list[float] = []
    if n >= 3:
        # Height of the origin above each outer edge's line: clearly above one means clearly outside, and
        # the closest-point test below (the costly part) is not needed.
        heights = [nx * (px - vx) + ny * (py - vy) - r for (nx, ny), (vx, vy) in zip(shape.normals, verts)]
    feature = -1
    on_face = -1
    if heights:
        top = max(heights)
        if abs(top) <= _ON_SURFACE:
            # On one outer edge's line: on the surface itself if within the edge's flat part (beyond it,
            # the line runs outside the corner circle, so the origin is outside the shape).
            i = heights.index(top)
            ax, ay = verts[i]
            bx, by = verts[(i + 1) % n]
            u = (px - ax) * (bx - ax) + (py - ay) * (by - ay)
            if 0.0 <= u <= (bx - ax) ** 2 + (by - ay) ** 2:
                on_face = i
    if on_face >= 0:
        nx, ny = shape.normals[on_face]
        if dx * nx + dy * ny < 0.0:
            return 0.0, nx, ny, False  # on the surface and heading in: a hit right here
    elif not heights or max(heights) <= _ON_SURFACE:
        # Inside (strictly)? Then the answer is the way out. The core's signed distance minus r decides.
        _, _, dcore, onx, ony, feature = core_closest(shape, px, py)
        if dcore - r < 0.0:
            return 0.0, onx, ony, True
        if dcore - r <= _ON_SURFACE and dx * onx + dy * ony < 0.0:
            # On the surface and heading in: a hit right here. Decided once, from the closest point, so
            # that the edge and corner tests below cannot disagree about a point rounding puts either side.
            return 0.0, onx, ony, False

    if n == 1:
        cx, cy = verts[0]
        return _ray_circle(px, py, dx, dy, max_distance, cx, cy, r)

    if n == 2:
        (ax, ay), (bx, by) = verts
        return _ray_capsule_outside(px, py, dx, dy, max_distance, ax, ay, bx, by, shape.normals[0], r)

    return _ray_polygon_outside(shape, px, py, dx, dy, max_distance, heights, feature)


def _ray_polygon_outside(shape: RoundedPolygon, px: float, py: float, dx: float, dy: float, max_distance: float,
                         heights: list[float], feature: int) -> tuple[float, float, float, bool] | None:
    """A ray from outside a rounded polygon (3+ core vertices; ``heights``: the origin's height above each
    outer edge line; ``feature``: the core's closest feature if known, else -1). Clips the ray against the
    polygon of the outer edges extended until they meet (Cyrus-Beck), then checks whether the entry lies on
    the flat part of that edge; if not, the ray entered through one corner's "ear" and only that corner's
    circle can be hit."""
    r = shape.radius
    verts = shape.vertices
    n = shape.count
    normals = shape.normals
    t_enter = 0.0
    t_exit = max_distance
    enter = -1
    for i in range(n):
        nx, ny = normals[i]
        height = heights[i]  # > 0: origin outside this extended edge
        den = nx * dx + ny * dy
        if den == 0.0:
            if height > 0.0:
                return None
            continue
        t = -height / den
        if den < 0.0:
            # `t == 0 == t_enter` with no entry yet: the origin lies on this edge and moves inward.
            if t > t_enter or (enter < 0 and t == t_enter):
                t_enter, enter = t, i
        elif t < t_exit:
            t_exit = t
        if t_enter > t_exit:
            return None

    if enter < 0:
        # Origin inside the extended polygon but outside the shape: it sits in a corner's ear, and the
        # nearest core feature is that corner's vertex.
        if feature < 0:
            feature = core_closest(shape, px, py)[5]
        if r == 0.0 or not 0 <= feature < 32:
            return None
        cx, cy = verts[feature]
    else:
        ax, ay = verts[enter]
        bx, by = verts[(enter + 1) % n]
        ex, ey = bx - ax, by - ay
        hx, hy = px + t_enter * dx, py + t_enter * dy
        u = (hx - ax) * ex + (hy - ay) * ey
        if r == 0.0 or 0.0 <= u <= ex * ex + ey * ey:
            nx, ny = normals[enter]
            return t_enter, nx, ny, False
        cx, cy = (ax, ay) if u < 0.0 else (bx, by)
    return _ray_circle(px, py, dx, dy, max_distance, cx, cy, r)


def _unit_direction(direction: Sequence[float], what: str) -> tuple[float, float]:
    dx, dy = _finite_point(direction, what)
    length = math.hypot(dx, dy)
    if length == 0.0:
        raise GeometryError(f"{what} must be non-zero, got {direction!r}")
    return dx / length, dy / length


def ray_cast(
    shape: RoundedPolygon,
    xf: Transform,
    origin: Sequence[float],
    direction: Sequence[float],
    max_distance: float,
) -> RayHit | None:
    """Cast a ray from ``origin`` along ``direction`` (any non-zero vector; it is normalised) for at most
    ``max_distance`` pixels against ``shape`` placed by ``xf``. Returns the first hit or ``None``."""
    ox, oy = _finite_point(origin, "ray_cast origin")
    wdx, wdy = _unit_direction(direction, "ray_cast direction")
    max_d = float(max_distance)
    if not (max_d >= 0.0):  # also rejects NaN
        raise GeometryError(f"ray_cast max_distance must be >= 0, got {max_distance!r}")
    px, py = xf.apply_inverse((ox, oy))
    dx, dy = xf.rotate_inverse((wdx, wdy))
    hit = _local_ray(shape, px, py, dx, dy, max_d)
    if hit is None:
        return None
    t, nx, ny, inside = hit
    return RayHit(t, (ox + t * wdx, oy + t * wdy), xf.rotate((nx, ny)), inside)


# --------------------------------------------------------------------------------------------- shape casts
def minkowski_difference(
    target: RoundedPolygon, xf_target: Transform, moving: RoundedPolygon, moving_angle: float
) -> RoundedPolygon:
    """The set of positions of the moving shape's origin at which it touches or overlaps ``target``:
    ``target (+) reflect(moving)``, in the world frame. Its core is the convex hull of the target's world
    core vertices minus the moving shape's rotated core vertices; its radius is the sum of both radii."""
    c, s = math.cos(moving_angle), math.sin(moving_angle)
    moved = [(c * x - s * y, s * x + c * y) for x, y in moving.vertices]
    if target.count == 2:
        a = xf_target.apply(target.vertices[0])
        b = xf_target.apply(target.vertices[1])
        return RoundedPolygon._trusted(_segment_sum(a, b, moved), target.radius + moving.radius)
    placed = [xf_target.apply(t) for t in target.vertices]
    hull = _box_sum_corners(placed, moved)  # (the hull already, as convex_hull lists it, or None)
    if hull is None:
        hull = convex_hull([(wx - mx, wy - my) for wx, wy in placed for mx, my in moved])
    return RoundedPolygon._trusted(hull, target.radius + moving.radius)


def _box_sum_corners(placed: list[Vec2], moved: list[Vec2]) -> list[Vec2] | None:
    """The four corners of ``placed`` (+) reflect(``moved``) when both are upright boxes (a platform and a
    character, mostly) at least a pixel wide and tall, else ``None``. Each corner is one of the sixteen
    differences (rounding keeps the order: the smallest difference is the smallest x less the largest), and
    every other difference lies on an edge (one coordinate exactly a corner's) or a pixel or more inside, so
    the hull of the four is the hull of the sixteen, the same numbers in the same order, for a fraction of the
    work; and the four, at least two pixels apart, are listed as the hull lists them (Andrew's chain from the
    lowest left corner, counter-clockwise), so they are that hull without making it."""
    box, other = _upright_box(placed), _upright_box(moved)
    if box is None or other is None:
        return None
    low_x, high_x = box[0] - other[2], box[2] - other[0]
    low_y, high_y = box[1] - other[3], box[3] - other[1]
    return [(low_x, low_y), (high_x, low_y), (high_x, high_y), (low_x, high_y)]


def _upright_box(ring: list[Vec2]) -> tuple[float, float, float, float] | None:
    """(min x, min y, max x, max y) of ``ring`` when it is a box with edges along the axes, at least a pixel wide
    and tall (4 corners: two x values and two y values, each pair once), else ``None``."""
    if len(ring) != 4 or len(set(ring)) != 4:
        return None
    xs, ys = {x for x, _ in ring}, {y for _, y in ring}
    if len(xs) != 2 or len(ys) != 2:
        return None
    low_x, high_x = min(xs), max(xs)
    low_y, high_y = min(ys), max(ys)
    if high_x - low_x < 1.0 or high_y - low_y < 1.0:
        return None
    return low_x, low_y, high_x, high_y


def _segment_sum(a: Vec2, b: Vec2, moved: list[Vec2]) -> list[Vec2]:
    """Core of segment a-b (+) reflect(moved), counter-clockwise, in linear time.

    The reflected core W = -moved is convex and counter-clockwise. Summing it with the segment stretches
    it along e = b - a: the chain of W that faces +e (from its lowest to its highest vertex across e) moves
    by b, the rest by a. Vertices left collinear where W has edges parallel to e are then dropped.
    """
    ex, ey = b[0] - a[0], b[1] - a[1]
    w = [(-x, -y) for x, y in moved]
    n = len(w)
    px, py = -ey, ex  # left of e
    heights = [x * px + y * py for x, y in w]
    low = min(range(n), key=heights.__getitem__)
    high = max(range(n), key=heights.__getitem__)
    if n <= 2 or heights[high] - heights[low] <= VERTEX_TOLERANCE * math.hypot(ex, ey):
        # A point or a segment parallel to e: the sum is a segment or a parallelogram; hull the few points.
        return convex_hull([(x + q[0], y + q[1]) for q in (a, b) for x, y in w])
    ring: list[Vec2] = []
    i = low
    while True:  # the chain facing +e, shifted by b
        ring.append((w[i][0] + b[0], w[i][1] + b[1]))
        if i == high:
            break
        i = (i + 1) % n
    while True:  # the rest, shifted by a
        ring.append((w[i][0] + a[0], w[i][1] + a[1]))
        if i == low:
            break
        i = (i + 1) % n
    return _drop_collinear(ring)


def _drop_collinear(ring: list[Vec2]) -> list[Vec2]:
    """Remove duplicate and collinear vertices (within VERTEX_TOLERANCE) from a convex counter-clockwise
    ring; a degenerate ring collapses to its two extreme points or to one point."""
    pts = list(ring)
    changed = True
    while changed and len(pts) > 2:
        changed = False
        for i in range(len(pts)):
            o, p, q = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
            cross = (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])
            base = math.hypot(q[0] - o[0], q[1] - o[1])
            if cross <= VERTEX_TOLERANCE * base or math.hypot(p[0] - o[0], p[1] - o[1]) <= VERTEX_TOLERANCE:
                del pts[i]
                changed = True
                break
    if len(pts) < 3:
        return convex_hull(ring)  # everything collinear: the hull keeps the two extreme points
    return pts


def shape_cast(
    moving: RoundedPolygon,
    xf: Transform,
    translation: Sequence[float],
    target: RoundedPolygon,
    xf_target: Transform,
) -> CastHit | None:
    """Sweep ``moving`` (placed by ``xf``, not rotating) along ``translation`` (pixels) and return the first
    contact with ``target`` (placed by ``xf_target``), or ``None``.

    This is a ray cast of the moving shape's origin against the Minkowski sum of the target with the
    reflected moving shape (for a circle: the target grown by the circle's radius). A zero translation
    reports only a starting overlap.
    """
    tx, ty = _finite_point(translation, "shape_cast translation")
    sum_shape = minkowski_difference(target, xf_target, moving, xf.angle)
    return cast_against_sum(sum_shape, moving, xf, tx, ty, target, xf_target)


def cast_against_sum(
    sum_shape: RoundedPolygon,
    moving: RoundedPolygon,
    xf: Transform,
    tx: float,
    ty: float,
    target: RoundedPolygon,
    xf_target: Transform,
    edge_midpoints: bool = True,
) -> CastHit | None:
    """:func:`shape_cast` with the Minkowski sum already built (``minkowski_difference(target, xf_target,
    moving, xf.angle)``): callers that sweep the same shape against the same static target many times
    build the sum once and keep it. With ``edge_midpoints=False`` a face-to-face contact reports one end of
    the touching stretch instead of its middle (cheaper)."""
    length = math.hypot(tx, ty)
    ox, oy = xf.position
    if length == 0.0:
        _, _, d, nx, ny, _ = core_closest(sum_shape, ox, oy)
        if d - sum_shape.radius < 0.0:
            point = _contact_point(moving, xf, ox, oy, nx, ny, target, xf_target, edge_midpoints)
            return CastHit(0.0, point, (nx, ny), True)
        return None
    dx, dy = tx / length, ty / length
    hit = _local_ray(sum_shape, ox, oy, dx, dy, length)
    if hit is None:
        return None
    t, nx, ny, inside = hit
    hx, hy = ox + t * dx, oy + t * dy
    point = _contact_point(moving, xf, hx, hy, nx, ny, target, xf_target, edge_midpoints)
    return CastHit(min(t / length, 1.0), point, (nx, ny), inside)


def contact_from_sum(
    sum_shape: RoundedPolygon,
    moving: RoundedPolygon,
    xf: Transform,
    target: RoundedPolygon,
    xf_target: Transform,
    edge_midpoints: bool = True,
) -> tuple[float, Vec2, Vec2]:
    """Separation, normal (from the target towards the moving shape) and contact point of ``moving``
    (placed by ``xf``) against ``target``, read off the prebuilt Minkowski sum: the signed distance of the
    moving shape's origin to the sum is the separation along the minimum-translation direction."""
    ox, oy = xf.position
    _, _, d, nx, ny, _ = core_closest(sum_shape, ox, oy)
    separation = d - sum_shape.radius
    hx, hy = ox - nx * separation, oy - ny * separation  # where the origin would just touch
    return separation, (nx, ny), _contact_point(moving, xf, hx, hy, nx, ny, target, xf_target, edge_midpoints)


def _support_feature(points: list[Vec2], nx: float, ny: float) -> list[Vec2]:
    """The vertex (or the two vertices of the edge) of a convex core farthest along (nx, ny)."""
    best = max(x * nx + y * ny for x, y in points)
    return [(x, y) for x, y in points if x * nx + y * ny >= best - _SUPPORT_TIE]


def _contact_point(
    moving: RoundedPolygon,
    xf: Transform,
    ox: float,
    oy: float,
    nx: float,
    ny: float,
    target: RoundedPolygon,
    xf_target: Transform,
    edge_midpoints: bool = True,
) -> Vec2:
    """World point where ``moving`` (origin at (ox, oy), rotation of ``xf``) touches ``target`` across a
    contact of normal (nx, ny) (the target's outward normal). Each side touches with a vertex or with an
    edge; where both touch with edges (parallel faces) the middle of their common stretch is reported
    (with ``edge_midpoints=False``: the moving shape's support vertex, one end of that stretch)."""
    c, s = xf.cos, xf.sin
    if not edge_midpoints:
        best = math.inf
        sx = sy = 0.0
        for x, y in moving.vertices:
            wx, wy = c * x - s * y, s * x + c * y
            d = wx * nx + wy * ny
            if d < best:
                best, sx, sy = d, wx, wy
        r = moving.radius
        return (ox + sx - r * nx, oy + sy - r * ny)
    moved = [(ox + c * x - s * y, oy + s * x + c * y) for x, y in moving.vertices]
    mine = _support_feature(moved, -nx, -ny)
    theirs = _support_feature([xf_target.apply(v) for v in target.vertices], nx, ny)
    rt, rm = target.radius, moving.radius
    if len(theirs) == 1:
        return (theirs[0][0] + rt * nx, theirs[0][1] + rt * ny)
    if len(mine) == 1:
        return (mine[0][0] - rm * nx, mine[0][1] - rm * ny)
    tx, ty = -ny, nx
    lo = max(min(p[0] * tx + p[1] * ty for p in mine), min(p[0] * tx + p[1] * ty for p in theirs))
    hi = min(max(p[0] * tx + p[1] * ty for p in mine), max(p[0] * tx + p[1] * ty for p in theirs))
    along = 0.5 * (lo + hi)
    height = theirs[0][0] * nx + theirs[0][1] * ny + rt
    return (along * tx + height * nx, along * ty + height * ny)
