"""mass_properties: closed forms and the shapely oracle."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry.polygon import orient

from engine.geometry import GeometryError, RoundedPolygon, mass_properties
from tests.geometry.oracle import capsules, circles, convex_polygons, to_shapely


def polygon_polar_moment(geom):
    """Area, centroid and polar moment about the centroid of a shapely polygon, from its ring."""
    xy = np.asarray(orient(geom, 1.0).exterior.coords)  # counter-clockwise
    x0, y0, x1, y1 = xy[:-1, 0], xy[:-1, 1], xy[1:, 0], xy[1:, 1]
    cross = x0 * y1 - x1 * y0
    area = cross.sum() / 2
    cx = ((x0 + x1) * cross).sum() / (6 * area)
    cy = ((y0 + y1) * cross).sum() / (6 * area)
    j = ((x0 * x0 + x0 * x1 + x1 * x1 + y0 * y0 + y0 * y1 + y1 * y1) * cross).sum() / 12
    return area, (cx, cy), j - area * (cx * cx + cy * cy)


def test_box():
    m = mass_properties(RoundedPolygon.box(10, 5, center=(3, 4)), density=2)
    assert math.isclose(m.mass, 2 * 200) and m.centroid == pytest.approx((3, 4))
    assert math.isclose(m.inertia, 400 * (20**2 + 10**2) / 12)


def test_circle():
    m = mass_properties(RoundedPolygon.circle(3, (1, 1)), density=0.5)
    assert math.isclose(m.area, math.pi * 9) and m.centroid == pytest.approx((1, 1))
    assert math.isclose(m.inertia, 0.5 * m.area * 9 / 2)


def test_capsule_matches_the_closed_form():
    length, r = 12.0, 2.5
    m = mass_properties(RoundedPolygon.capsule((-6, 0), (6, 0), r))
    box_mass = 2 * r * length
    disc_mass = math.pi * r * r
    d = 4 * r / (3 * math.pi)
    expected = box_mass * (length**2 + 4 * r * r) / 12 + disc_mass * (r * r / 2 + length**2 / 4 + length * d)
    assert math.isclose(m.area, box_mass + disc_mass)
    assert math.isclose(m.inertia, expected, rel_tol=1e-12)


def test_rounded_box_equals_its_exact_decomposition():
    # 20 x 20 outer box with corner radius 4: a 20x20 square minus four corner pieces of (16 - 4 pi).
    m = mass_properties(RoundedPolygon.box(10, 10, radius=4))
    assert math.isclose(m.area, 400 - 4 * (16 - 4 * math.pi))


@pytest.mark.parametrize("density", [0, -1, float("nan"), float("inf")])
def test_bad_density_is_rejected(density):
    with pytest.raises(GeometryError, match="density"):
        mass_properties(RoundedPolygon.box(1, 1), density)


def test_shape_without_area_is_rejected():
    with pytest.raises(GeometryError, match="has none"):
        mass_properties(RoundedPolygon.segment((0, 0), (1, 0)))


@given(st.one_of(convex_polygons(), capsules().filter(lambda c: c.radius > 0.5), circles()), st.floats(0.1, 10))
def test_mass_properties_match_shapely(shape, density):
    """Against the buffered polygon; its chords lose a relative ~1e-4 of the arcs' area."""
    area, centroid, inertia = polygon_polar_moment(to_shapely(shape))
    m = mass_properties(shape, density)
    assert math.isclose(m.area, area, rel_tol=2e-4)
    assert math.isclose(m.mass, density * m.area)
    scale = math.sqrt(area)
    assert math.hypot(m.centroid[0] - centroid[0], m.centroid[1] - centroid[1]) <= 1e-3 * scale
    assert math.isclose(m.inertia, density * inertia, rel_tol=5e-4)
