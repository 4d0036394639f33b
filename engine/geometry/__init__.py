"""Ledgekit's geometry kernel: pure functions on small immutable values.

Scope: one shape family, the **rounded convex polygon** (a convex core polygon Minkowski-summed with a disc
of radius r >= 0): circles (1 core vertex), capsules / thick segments (2), boxes and convex polygons (3+).
Out of scope: concave shapes (split them, or use segment chains), state of any kind (that is the world's).

===================  ==========================================================================
``collide``          contact manifold between two shapes (normal A->B, 1-2 points, feature ids)
``closest_point``    closest boundary point, signed distance, inside flag, outward normal
``ray_cast``         first hit of a ray (distance, point, normal)
``shape_cast``       first contact of a shape swept along a translation (fraction, point, normal)
``mass_properties``  exact area, centroid and rotational inertia
``StaticBroadPhase`` grid over many static thick segments: AABB and swept queries, batched casts
===================  ==========================================================================

Conventions, everywhere: pixels and seconds; y-up; angles in radians, counter-clockwise; a manifold normal
points from A to B; separation and signed distance are negative when overlapping / inside; a miss is
``None``; bad input raises :class:`GeometryError` (a ``ValueError``) naming the bad value.
"""

from .broadphase import SegmentHit, StaticBroadPhase, boxes_touching, ray_cast_capsules, touching_pairs
from .collide import ContactPoint, Manifold, collide
from .mass import MassProperties, mass_properties
from .queries import (
    CastHit,
    PointQuery,
    RayHit,
    cast_against_sum,
    closest_point,
    contact_from_sum,
    minkowski_difference,
    ray_cast,
    shape_cast,
)
from .shapes import (
    AABB,
    MAX_VERTICES,
    VERTEX_TOLERANCE,
    GeometryError,
    RoundedPolygon,
    Transform,
    Vec2,
    convex_hull,
)

__all__ = [
    "AABB",
    "MAX_VERTICES",
    "VERTEX_TOLERANCE",
    "CastHit",
    "ContactPoint",
    "GeometryError",
    "Manifold",
    "MassProperties",
    "PointQuery",
    "RayHit",
    "RoundedPolygon",
    "SegmentHit",
    "StaticBroadPhase",
    "Transform",
    "Vec2",
    "boxes_touching",
    "cast_against_sum",
    "closest_point",
    "collide",
    "contact_from_sum",
    "convex_hull",
    "mass_properties",
    "minkowski_difference",
    "ray_cast",
    "ray_cast_capsules",
    "shape_cast",
    "touching_pairs",
]
