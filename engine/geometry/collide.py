"""Contact manifolds between two rounded convex polygons.

``collide(a, xf_a, b, xf_b)`` returns a :class:`Manifold` whose ``normal`` is a unit vector pointing
**from A to B** (moving B along it separates the shapes), with one or two :class:`ContactPoint` s. Each
point lies midway between the two surfaces; ``separation`` is the signed gap between the surfaces along the
normal (**negative means overlap**). ``id`` names the pair of features that made the point (reference edge
vertex and incident vertex), so a solver can carry impulses from frame to frame (warm starting).

The algorithm is the seeds' rounded-polygon contact algorithm, organised as in Box2D v3:

1. Separating-axis test on the face normals of both cores. A gap wider than the two radii (plus the
   speculative ``margin``) on any axis: no contact.
2. Reference face = the face of least penetration (with a small bias so the choice does not flicker
   between frames); incident face = the other core's face most anti-parallel to it.
3. Cores overlapping: clip the incident edge to the reference edge's side planes: up to two points, so
   resting parallel faces get a line contact.
4. Cores apart (only the rounded parts may touch): the closest points of the two edges decide. Two
   vertices closest: one point along the vertex-vertex axis (the corner-circle case, the axis the face
   normals miss). Otherwise: clip as in 3.

A circle (one-vertex core) against anything is a closest-point query of its centre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from .queries import core_closest
from .shapes import RoundedPolygon, Transform, Vec2

__all__ = ["ContactPoint", "Manifold", "collide"]

# Pixels. Hysteresis so the reference face prefers A unless B's face is clearly better (stable ids).
_FLIP_TOLERANCE = 0.01
# Pixels. Cores closer than this are treated as touching and clipped rather than measured vertex-vertex;
# it also keeps the vertex-vertex normal away from a division by a tiny length.
_DISJOINT_TOLERANCE = 0.01


class ContactPoint(NamedTuple):
    """One contact point (world frame, pixels)."""

    point: Vec2
    """Midpoint between the two surfaces."""
    separation: float
    """Signed gap between the surfaces along the manifold normal; negative = overlap."""
    id: int
    """Feature pair id, ``(feature_of_A << 8) | feature_of_B``; stable while the same features touch."""


class Manifold(NamedTuple):
    """Contact between shape A and shape B (world frame)."""

    normal: Vec2
    """Unit vector from A to B."""
    points: tuple[ContactPoint, ...]
    """One or two contact points."""

    @property
    def separation(self) -> float:
        """The smallest (deepest) separation of the points."""
        return min(p.separation for p in self.points)


def _make_id(feature_a: int, feature_b: int) -> int:
    return (feature_a & 0xFF) << 8 | (feature_b & 0xFF)


def collide(
    a: RoundedPolygon,
    xf_a: Transform,
    b: RoundedPolygon,
    xf_b: Transform,
    margin: float = 0.0,
) -> Manifold | None:
    """Contact manifold between ``a`` placed by ``xf_a`` and ``b`` placed by ``xf_b``, or ``None``.

    ``margin`` (pixels, >= 0) is a speculative distance: points whose separation is at most ``margin`` are
    reported too (a solver uses them to stop fast bodies before they touch). With the default 0, touching
    shapes report a contact of separation 0 and apart shapes report ``None``.
    """
    if a.count == 1 or b.count == 1:
        return _collide_circle(a, xf_a, b, xf_b, margin)
    return _collide_polygons(a, xf_a, b, xf_b, margin)


def _collide_circle(
    a: RoundedPolygon, xf_a: Transform, b: RoundedPolygon, xf_b: Transform, margin: float
) -> Manifold | None:
    if a.count == 1:
        circle, xf_c, other, xf_o = a, xf_a, b, xf_b
    else:
        circle, xf_c, other, xf_o = b, xf_b, a, xf_a
    # Circle centre in the other shape's frame; the other's core closest point gives the axis.
    cx, cy = xf_o.apply_inverse(xf_c.apply(circle.vertices[0]))
    qx, qy, d, nx, ny, feature = core_closest(other, cx, cy)
    r_o, r_c = other.radius, circle.radius
    separation = d - r_o - r_c
    if separation > margin:
        return None
    # Midpoint between the other's surface (q + r_o n) and the circle's surface (c - r_c n).
    mx = 0.5 * (qx + r_o * nx + cx - r_c * nx)
    my = 0.5 * (qy + r_o * ny + cy - r_c * ny)
    wnx, wny = xf_o.rotate((nx, ny))
    # `n` points from the other shape to the circle: that is A->B when the circle is B.
    normal = (-wnx, -wny) if a.count == 1 else (wnx, wny)
    feature_id = _make_id(0, feature) if a.count == 1 else _make_id(feature, 0)
    return Manifold(normal, (ContactPoint(xf_o.apply((mx, my)), separation, feature_id),))


def _max_separation(
    verts1: tuple[Vec2, ...], normals1: tuple[Vec2, ...], verts2: list[Vec2]
) -> tuple[int, float]:
    """The face of core 1 with the largest separation from core 2 (both in the same frame)."""
    best_i = 0
    best = -math.inf
    for i, (nx, ny) in enumerate(normals1):
        vx, vy = verts1[i]
        s = min(nx * (wx - vx) + ny * (wy - vy) for wx, wy in verts2)
        if s > best:
            best, best_i = s, i
    return best_i, best


def _segment_closest(
    p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2
) -> tuple[float, float, Vec2, Vec2]:
    """Closest points of segments p1-q1 and p2-q2: ``(f1, f2, c1, c2)`` with fractions clamped to [0, 1]
    (exactly 0 or 1 at an end)."""
    d1x, d1y = q1[0] - p1[0], q1[1] - p1[1]
    d2x, d2y = q2[0] - p2[0], q2[1] - p2[1]
    rx, ry = p1[0] - p2[0], p1[1] - p2[1]
    dd1 = d1x * d1x + d1y * d1y
    dd2 = d2x * d2x + d2y * d2y
    rd1 = rx * d1x + ry * d1y
    rd2 = rx * d2x + ry * d2y
    d12 = d1x * d2x + d1y * d2y
    denom = dd1 * dd2 - d12 * d12
    f1 = 0.0
    if denom != 0.0:
        f1 = min(max((d12 * rd2 - rd1 * dd2) / denom, 0.0), 1.0)
    f2 = (d12 * f1 + rd2) / dd2
    if f2 < 0.0:
        f2 = 0.0
        f1 = min(max(-rd1 / dd1, 0.0), 1.0)
    elif f2 > 1.0:
        f2 = 1.0
        f1 = min(max((d12 - rd1) / dd1, 0.0), 1.0)
    c1 = (p1[0] + f1 * d1x, p1[1] + f1 * d1y)
    c2 = (p2[0] + f2 * d2x, p2[1] + f2 * d2y)
    return f1, f2, c1, c2


def _parallel_overlap(v11: Vec2, v12: Vec2, v21: Vec2, v22: Vec2) -> bool:
    """Whether edge v21-v22 is parallel to edge v11-v12 (within about 0.3 degrees) and overlaps it, seen
    along v11-v12, by more than the disjoint tolerance."""
    ex, ey = v12[0] - v11[0], v12[1] - v11[1]
    fx, fy = v22[0] - v21[0], v22[1] - v21[1]
    le, lf = math.hypot(ex, ey), math.hypot(fx, fy)
    if abs(ex * fy - ey * fx) > 0.005 * le * lf:
        return False
    tx, ty = ex / le, ey / le
    a = (v21[0] - v11[0]) * tx + (v21[1] - v11[1]) * ty
    b = (v22[0] - v11[0]) * tx + (v22[1] - v11[1]) * ty
    return min(le, max(a, b)) - max(0.0, min(a, b)) > _DISJOINT_TOLERANCE


def _collide_polygons(
    a: RoundedPolygon, xf_a: Transform, b: RoundedPolygon, xf_b: Transform, margin: float
) -> Manifold | None:
    # Work in A's local frame: B's core is moved there once.
    verts_a, normals_a = a.vertices, a.normals
    verts_b = [xf_a.apply_inverse(xf_b.apply(v)) for v in b.vertices]
    normals_b = [xf_a.rotate_inverse(xf_b.rotate(n)) for n in b.normals]
    radius = a.radius + b.radius

    edge_a, sep_a = _max_separation(verts_a, normals_a, verts_b)
    if sep_a > margin + radius:
        return None
    edge_b, sep_b = _max_separation(tuple(verts_b), tuple(normals_b), list(verts_a))
    if sep_b > margin + radius:
        return None

    flip = sep_b > sep_a + _FLIP_TOLERANCE
    if flip:
        sx, sy = normals_b[edge_b]
        edge_a = min(range(a.count), key=lambda i: sx * normals_a[i][0] + sy * normals_a[i][1])
    else:
        sx, sy = normals_a[edge_a]
        edge_b = min(range(b.count), key=lambda i: sx * normals_b[i][0] + sy * normals_b[i][1])

    # Two segment cores that are (nearly) collinear have only their shared normal as a face axis, which
    # cannot see a gap along the line: their closest points must be checked even when the SAT says
    # "overlapping".
    both_segments = a.count == 2 and b.count == 2
    if max(sep_a, sep_b) > _DISJOINT_TOLERANCE or both_segments:
        # The cores are apart: only the rounded parts can touch. The closest points of the two candidate
        # edges tell a vertex-vertex contact (the axis between closest points) from an edge contact.
        i11, i12 = edge_a, (edge_a + 1) % a.count
        i21, i22 = edge_b, (edge_b + 1) % b.count
        f1, f2, c1, c2 = _segment_closest(verts_a[i11], verts_a[i12], verts_b[i21], verts_b[i22])
        dx, dy = c2[0] - c1[0], c2[1] - c1[1]
        distance = math.hypot(dx, dy)
        vertex_pair = f1 in (0.0, 1.0) and f2 in (0.0, 1.0) and distance > _DISJOINT_TOLERANCE
        if vertex_pair and _parallel_overlap(verts_a[i11], verts_a[i12], verts_b[i21], verts_b[i22]):
            # Parallel edges side by side (equal crates stacked square) have their closest points at
            # vertices too, but they touch along a stretch: that is a two-point line contact.
            vertex_pair = False
        if vertex_pair:
            if distance - radius > margin:
                return None
            nx, ny = dx / distance, dy / distance
            ra, rb = a.radius, b.radius
            mx = 0.5 * (c1[0] + ra * nx + c2[0] - rb * nx)
            my = 0.5 * (c1[1] + ra * ny + c2[1] - rb * ny)
            feature = _make_id(i11 if f1 == 0.0 else i12, i21 if f2 == 0.0 else i22)
            point = ContactPoint(xf_a.apply((mx, my)), distance - radius, feature)
            return Manifold(xf_a.rotate((nx, ny)), (point,))

    return _clip(a, verts_a, normals_a, b, verts_b, normals_b, edge_a, edge_b, flip, xf_a, margin)


def _clip(
    a: RoundedPolygon,
    verts_a: tuple[Vec2, ...],
    normals_a: tuple[Vec2, ...],
    b: RoundedPolygon,
    verts_b: list[Vec2],
    normals_b: list[Vec2],
    edge_a: int,
    edge_b: int,
    flip: bool,
    xf_a: Transform,
    margin: float,
) -> Manifold | None:
    """Clip the incident edge against the reference edge's side planes (A's local frame)."""
    verts1: Sequence[Vec2]
    normals1: Sequence[Vec2]
    verts2: Sequence[Vec2]
    if flip:
        verts1, normals1, r1, i11 = verts_b, normals_b, b.radius, edge_b
        verts2, r2, i21 = verts_a, a.radius, edge_a
        i12, i22 = (edge_b + 1) % b.count, (edge_a + 1) % a.count
    else:
        verts1, normals1, r1, i11 = verts_a, normals_a, a.radius, edge_a
        verts2, r2, i21 = verts_b, b.radius, edge_b
        i12, i22 = (edge_a + 1) % a.count, (edge_b + 1) % b.count
    nx, ny = normals1[i11]
    v11, v12 = verts1[i11], verts1[i12]
    v21, v22 = verts2[i21], verts2[i22]
    tx, ty = -ny, nx  # tangent along the reference edge, from v11 towards v12

    lower1 = 0.0
    upper1 = (v12[0] - v11[0]) * tx + (v12[1] - v11[1]) * ty
    # The incident edge runs opposite to the reference edge (both counter-clockwise), so v22 is "lower".
    upper2 = (v21[0] - v11[0]) * tx + (v21[1] - v11[1]) * ty
    lower2 = (v22[0] - v11[0]) * tx + (v22[1] - v11[1]) * ty
    span = upper2 - lower2

    if lower2 < lower1 and span > 1e-12:
        f = (lower1 - lower2) / span
        v_lower = (v22[0] + f * (v21[0] - v22[0]), v22[1] + f * (v21[1] - v22[1]))
    else:
        v_lower = v22
    if upper2 > upper1 and span > 1e-12:
        f = (upper1 - lower2) / span
        v_upper = (v22[0] + f * (v21[0] - v22[0]), v22[1] + f * (v21[1] - v22[1]))
    else:
        v_upper = v21

    sep_lower = (v_lower[0] - v11[0]) * nx + (v_lower[1] - v11[1]) * ny
    sep_upper = (v_upper[0] - v11[0]) * nx + (v_upper[1] - v11[1]) * ny
    radius = r1 + r2
    # Move each point to the middle between the reference surface (r1 above the reference edge) and the
    # incident surface (r2 below the incident edge).
    shift_l = 0.5 * (r1 - r2 - sep_lower)
    shift_u = 0.5 * (r1 - r2 - sep_upper)
    p_lower = (v_lower[0] + shift_l * nx, v_lower[1] + shift_l * ny)
    p_upper = (v_upper[0] + shift_u * nx, v_upper[1] + shift_u * ny)

    points = []
    if not flip:
        candidates = (
            (p_lower, sep_lower - radius, _make_id(i11, i22)),
            (p_upper, sep_upper - radius, _make_id(i12, i21)),
        )
        normal = (nx, ny)
    else:
        candidates = (
            (p_upper, sep_upper - radius, _make_id(i21, i12)),
            (p_lower, sep_lower - radius, _make_id(i22, i11)),
        )
        normal = (-nx, -ny)
    for p, s, fid in candidates:
        if s <= margin:
            points.append(ContactPoint(xf_a.apply(p), s, fid))
    if not points:
        return None
    return Manifold(xf_a.rotate(normal), tuple(points))
