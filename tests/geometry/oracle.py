"""Shapely as an independent oracle for rounded convex polygons, and hypothesis strategies for shapes.

``to_shapely`` buffers the core by the radius with 64 segments per quarter circle. The buffer's arcs are
chords inside the true arcs, at most ``r * (1 - cos(pi / 256))`` (7.6e-5 r) away from them, so for the
radii drawn here (<= 12 px) the oracle is within 1e-3 px of the exact shape. ``TOL`` (0.01 px) leaves room
for that and for floating-point noise.
"""

from __future__ import annotations

import math

from hypothesis import assume
from hypothesis import strategies as st
from shapely.geometry import LineString, MultiPoint, Point, Polygon

from engine.geometry import GeometryError, RoundedPolygon, Transform

TOL = 0.01
QUAD_SEGS = 64


def close(a: float, b: float, tol: float = TOL) -> bool:
    return abs(a - b) <= tol


def close_vec(a, b, tol: float = TOL) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= tol


def to_shapely(shape: RoundedPolygon, xf: Transform | None = None):
    xf = xf or Transform()
    verts = [xf.apply(v) for v in shape.vertices]
    r = shape.radius
    if shape.count == 1:
        core = Point(verts[0])
    elif shape.count == 2:
        core = LineString(verts)
    else:
        core = Polygon(verts)
    return core.buffer(r, quad_segs=QUAD_SEGS) if r > 0 else core


coords = st.floats(-40, 40, allow_nan=False, allow_infinity=False)
# Zero, or a radius large enough for shapely to buffer a segment into a polygon.
radii = st.one_of(st.just(0.0), st.floats(0.05, 12.0, allow_nan=False, allow_infinity=False))


@st.composite
def convex_polygons(draw, min_radius: float = 0.0):
    pts = draw(st.lists(st.tuples(coords, coords), min_size=3, max_size=8))
    hull = MultiPoint(pts).convex_hull
    assume(isinstance(hull, Polygon) and hull.area > 20.0)
    ring = list(hull.exterior.coords)[:-1]
    r = draw(radii.filter(lambda v: v >= min_radius))
    try:
        shape = RoundedPolygon(ring, r)
    except GeometryError:
        assume(False)
    # Keep cores whose edges are not tiny slivers: the oracle's own precision would dominate.
    for i in range(shape.count):
        (x1, y1), (x2, y2) = shape.vertices[i], shape.vertices[(i + 1) % shape.count]
        assume(math.hypot(x2 - x1, y2 - y1) > 0.5)
    return shape


@st.composite
def capsules(draw):
    p1 = draw(st.tuples(coords, coords))
    p2 = draw(st.tuples(coords, coords))
    assume(math.hypot(p2[0] - p1[0], p2[1] - p1[1]) > 0.5)
    return RoundedPolygon.capsule(p1, p2, draw(radii))


@st.composite
def circles(draw):
    return RoundedPolygon.circle(draw(st.floats(0.5, 15.0)), draw(st.tuples(coords, coords)))


shapes = st.one_of(convex_polygons(), capsules(), circles())
angles = st.floats(-math.pi, math.pi, allow_nan=False)
transforms = st.builds(lambda x, y, a: Transform((x, y), a), coords, coords, angles)
