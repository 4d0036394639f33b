"""Exact mass properties of rounded convex polygons.

A rounded polygon splits exactly into three kinds of pieces: the core polygon, one rectangle of depth
``radius`` on the outside of every core edge, and one circular sector of radius ``radius`` at every core
vertex (the sectors' angles add up to a full turn). Area, first and second moments of each piece are known
in closed form, so the sums are exact (no approximation by pushing vertices out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from .shapes import GeometryError, RoundedPolygon, Vec2, _finite_scalar

__all__ = ["MassProperties", "mass_properties"]


class MassProperties(NamedTuple):
    """Mass properties in the shape's local frame."""

    mass: float
    """Mass = density x area (density in mass units per square pixel)."""
    area: float
    """Area in square pixels."""
    centroid: Vec2
    """Centre of mass (local frame, pixels)."""
    inertia: float
    """Rotational inertia about the centroid (mass x pixels^2)."""


def _polygon_moments(points: Sequence[Vec2]) -> tuple[float, float, float, float]:
    """Signed area, first moments (Sx, Sy) and polar second moment about the origin of a simple polygon."""
    area = sx = sy = j = 0.0
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        cross = x1 * y2 - x2 * y1
        area += cross
        sx += (x1 + x2) * cross
        sy += (y1 + y2) * cross
        j += (x1 * x1 + x1 * x2 + x2 * x2 + y1 * y1 + y1 * y2 + y2 * y2) * cross
    return area / 2.0, sx / 6.0, sy / 6.0, j / 12.0


def _sector_moments(center: Vec2, start_angle: float, sweep: float, r: float) -> tuple[float, float, float, float]:
    """Area, first moments and polar second moment about the origin of a circular sector."""
    area = 0.5 * sweep * r * r
    if sweep >= 2.0 * math.pi - 1e-12:
        offset = 0.0
    else:
        # Centroid of a sector lies on its bisector at 4 r sin(sweep/2) / (3 sweep) from the apex.
        offset = 4.0 * r * math.sin(0.5 * sweep) / (3.0 * sweep)
    mid = start_angle + 0.5 * sweep
    cx = center[0] + offset * math.cos(mid)
    cy = center[1] + offset * math.sin(mid)
    j_apex = 0.25 * sweep * r**4  # polar moment about the apex
    j_centroid = j_apex - area * offset * offset
    j_origin = j_centroid + area * (cx * cx + cy * cy)
    return area, area * cx, area * cy, j_origin


def mass_properties(shape: RoundedPolygon, density: float = 1.0) -> MassProperties:
    """Exact mass, area, centroid and rotational inertia (about the centroid) of ``shape`` with uniform
    ``density`` (> 0, mass per square pixel). Raises :class:`GeometryError` for a shape of zero area (a
    segment with radius 0)."""
    rho = _finite_scalar(density, "mass_properties density")
    if rho <= 0.0:
        raise GeometryError(f"mass_properties density must be > 0, got {density!r}")
    verts, normals, r, n = shape.vertices, shape.normals, shape.radius, shape.count

    area = sx = sy = j = 0.0
    if n >= 3:
        a, mx, my, jj = _polygon_moments(verts)
        area, sx, sy, j = a, mx, my, jj
    if r > 0.0:
        if n == 1:
            pieces = [_sector_moments(verts[0], 0.0, 2.0 * math.pi, r)]
        else:
            pieces = []
            for i in range(n):
                (x1, y1), (x2, y2) = verts[i], verts[(i + 1) % n]
                nx, ny = normals[i]
                # Rectangle outside edge i, listed counter-clockwise.
                rect = [(x1, y1), (x1 + r * nx, y1 + r * ny), (x2 + r * nx, y2 + r * ny), (x2, y2)]
                pa, pmx, pmy, pj = _polygon_moments(rect)
                if pa < 0.0:
                    pa, pmx, pmy, pj = -pa, -pmx, -pmy, -pj
                pieces.append((pa, pmx, pmy, pj))
                # Sector at the vertex between edge i-1 and edge i: from normal i-1 to normal i (CCW).
                pnx, pny = normals[i - 1]
                start = math.atan2(pny, pnx)
                sweep = (math.atan2(ny, nx) - start) % (2.0 * math.pi)
                pieces.append(_sector_moments((x1, y1), start, sweep, r))
        for pa, pmx, pmy, pj in pieces:
            area += pa
            sx += pmx
            sy += pmy
            j += pj
    if area <= 0.0:
        raise GeometryError(f"mass_properties needs a shape with area; {shape!r} has none")
    cx, cy = sx / area, sy / area
    inertia = rho * (j - area * (cx * cx + cy * cy))
    return MassProperties(rho * area, area, (cx, cy), inertia)
