"""closest_point, ray_cast and shape_cast: edge-case tables and properties against shapely."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import LineString, Point

from engine.geometry import GeometryError, RoundedPolygon, Transform, closest_point, ray_cast, shape_cast
from tests.geometry.oracle import TOL, close, close_vec, coords, shapes, to_shapely, transforms

ORIGIN = Transform()
BOX = RoundedPolygon.box(10, 10)
ROUNDED = RoundedPolygon.box(10, 10, radius=3)
CAPSULE = RoundedPolygon.capsule((-10, 0), (10, 0), 2)
CIRCLE = RoundedPolygon.circle(5)


# --------------------------------------------------------------------------------------------- closest_point
@pytest.mark.parametrize(
    "shape, point, boundary, distance, normal",
    [
        (BOX, (0, 20), (0, 10), 10.0, (0, 1)),
        (BOX, (0, 3), (0, 10), -7.0, (0, 1)),  # inside: the nearest face
        (BOX, (13, 14), (10, 10), 5.0, (0.6, 0.8)),  # outside a sharp corner
        (ROUNDED, (7 + 3 * 0.6 + 3, 7 + 3 * 0.8 + 4), (7 + 1.8, 7 + 2.4), 5.0, (0.6, 0.8)),  # off a round corner
        (ROUNDED, (0, 10), (0, 10), 0.0, (0, 1)),  # on the boundary
        (CAPSULE, (0, -5), (0, -2), 3.0, (0, -1)),
        (CAPSULE, (13, 4), (10 + 1.2, 1.6), 3.0, (0.6, 0.8)),  # off an end cap
        (CAPSULE, (0, 0), (0, -2), -2.0, (0, -1)),  # on the core: the first side normal is the way out
        (CIRCLE, (0, 0), (0, 5), -5.0, (0, 1)),  # the centre: documented choice, straight up
        (CIRCLE, (-6, 8), (-3, 4), 5.0, (-0.6, 0.8)),
    ],
)
def test_closest_point_table(shape, point, boundary, distance, normal):
    q = closest_point(shape, ORIGIN, point)
    assert close_vec(q.point, boundary, 1e-9)
    assert close(q.distance, distance, 1e-9)
    assert q.inside == (distance < 0)
    assert close_vec(q.normal, normal, 1e-9)


def test_closest_point_in_a_rotated_frame():
    q = closest_point(BOX, Transform((100, 0), math.pi / 2), (100, 25))
    assert close_vec(q.point, (100, 10)) and close(q.distance, 15.0) and close_vec(q.normal, (0, 1))


def test_closest_point_rejects_bad_points():
    with pytest.raises(GeometryError, match="point must be finite"):
        closest_point(BOX, ORIGIN, (float("nan"), 0))


# --------------------------------------------------------------------------------------------- ray_cast
@pytest.mark.parametrize(
    "shape, origin, direction, distance, point, normal",
    [
        (BOX, (-20, 0), (1, 0), 10.0, (-10, 0), (-1, 0)),
        (BOX, (-20, 0), (5, 0), 10.0, (-10, 0), (-1, 0)),  # direction is normalised
        (BOX, (-20, 10), (1, 0), 10.0, (-10, 10), (-1, 0)),  # tangent to the top face: hits the corner
        (ROUNDED, (-20, 0), (1, 0), 10.0, (-10, 0), (-1, 0)),  # flat part of a rounded edge
        (ROUNDED, (-20, 9.5), (1, 0), None, None, None),  # the corner arc, checked below
        (CIRCLE, (-10, 5), (1, 0), 10.0, (0, 5), (0, 1)),  # grazing a circle counts
        (CIRCLE, (-10, 5.001), (1, 0), None, (), None),  # just above it does not
        (CAPSULE, (0, 10), (0, -1), 8.0, (0, 2), (0, 1)),
        (CAPSULE, (20, 0), (-1, 0), 8.0, (12, 0), (1, 0)),  # end cap
        (BOX, (20, 0), (1, 0), None, (), None),  # pointing away
        (BOX, (-20, 0), (1, 0), 9.0, (), None),  # too short (max_distance below)
    ],
)
def test_ray_cast_table(shape, origin, direction, distance, point, normal):
    max_distance = 9.0 if distance == 9.0 else 100.0
    hit = ray_cast(shape, ORIGIN, origin, direction, max_distance)
    if point == ():
        assert hit is None
        return
    if distance is None:  # the rounded corner: on the corner circle, normal radial
        c = (-7.0, 7.0)
        assert hit is not None and close(math.hypot(hit.point[0] - c[0], hit.point[1] - c[1]), 3.0, 1e-9)
        assert close_vec(hit.normal, ((hit.point[0] - c[0]) / 3, (hit.point[1] - c[1]) / 3), 1e-9)
        return
    assert hit is not None and not hit.started_inside
    assert close(hit.distance, distance, 1e-9)
    assert close_vec(hit.point, point, 1e-9) and close_vec(hit.normal, normal, 1e-9)


def test_ray_starting_inside_reports_the_way_out_at_distance_zero():
    hit = ray_cast(BOX, ORIGIN, (0, 8), (1, 0), 50)
    assert hit.started_inside and hit.distance == 0.0 and hit.point == (0.0, 8.0)
    assert close_vec(hit.normal, (0, 1))


def test_ray_starting_on_the_surface_moving_in_hits_at_zero_and_moving_out_misses():
    hit = ray_cast(BOX, ORIGIN, (-10, 0), (1, 0), 50)
    assert hit is not None and hit.distance == 0.0 and not hit.started_inside
    assert ray_cast(BOX, ORIGIN, (-10, 0), (-1, 0), 50) is None


@pytest.mark.parametrize("direction, max_distance, message", [((0, 0), 1, "direction must be non-zero"),
                                                              ((1, 0), -1, "max_distance must be >= 0"),
                                                              ((1, 0), float("nan"), "max_distance")])
def test_ray_cast_rejects_bad_values(direction, max_distance, message):
    with pytest.raises(GeometryError, match=message):
        ray_cast(BOX, ORIGIN, (0, 20), direction, max_distance)


# --------------------------------------------------------------------------------------------- shape_cast
def test_box_falling_onto_a_segment_lands_flat():
    hit = shape_cast(BOX, Transform((5, 20)), (0, -40), RoundedPolygon.segment((0, 0), (10, 0)), ORIGIN)
    assert close(hit.fraction, 0.25) and close_vec(hit.normal, (0, 1)) and close_vec(hit.point, (5, 0))


def test_circle_cast_is_a_ray_cast_against_the_target_grown_by_the_radius():
    target = RoundedPolygon.capsule((0, 0), (50, 0), 1)
    hit = shape_cast(RoundedPolygon.circle(4), Transform((20, 30)), (0, -60), target, ORIGIN)
    grown = ray_cast(RoundedPolygon.capsule((0, 0), (50, 0), 5), ORIGIN, (20, 30), (0, -1), 60)
    assert close(hit.fraction * 60, grown.distance, 1e-9)
    assert close_vec(hit.point, (20, 1))


def test_shape_cast_with_zero_translation_reports_only_overlap():
    seg = RoundedPolygon.segment((0, 0), (10, 0))
    assert shape_cast(BOX, Transform((5, 11)), (0, 0), seg, ORIGIN) is None
    hit = shape_cast(BOX, Transform((5, 9)), (0, 0), seg, ORIGIN)
    assert hit.started_inside and hit.fraction == 0.0 and close_vec(hit.normal, (0, 1))


def test_shape_cast_starting_in_overlap_reports_the_way_out():
    hit = shape_cast(BOX, Transform((5, 9)), (30, 0), RoundedPolygon.segment((0, 0), (10, 0)), ORIGIN)
    assert hit.started_inside and hit.fraction == 0.0 and close_vec(hit.normal, (0, 1))


def test_sliding_exactly_along_a_surface_is_not_a_hit():
    floor = RoundedPolygon.capsule((0, 0), (100, 0), 2)
    assert shape_cast(BOX, Transform((20, 12.001)), (50, 0), floor, ORIGIN) is None


def test_rotated_moving_shape():
    diamond = RoundedPolygon.box(5, 5)
    hit = shape_cast(diamond, Transform((0, 20), math.pi / 4), (0, -20), RoundedPolygon.segment((-10, 0), (10, 0)), ORIGIN)
    assert close(hit.fraction, (20 - 5 * math.sqrt(2)) / 20) and close_vec(hit.point, (0, 0))


def test_fast_thin_platform_is_not_tunnelled():
    """A box falling 5000 px in one step onto a 2 px thick platform still stops on top of it."""
    platform = RoundedPolygon.capsule((-50, 0), (50, 0), 1)
    hit = shape_cast(BOX, Transform((0, 2500)), (0, -5000), platform, ORIGIN)
    assert hit is not None and close(hit.fraction * 5000, 2500 - 11) and close_vec(hit.normal, (0, 1))


# --------------------------------------------------------------------------------------------- properties
query_points = st.tuples(st.floats(-80, 80), st.floats(-80, 80))


def translated_copies(geom, offsets):
    """``geom`` moved by each of ``offsets`` ((N, 2)), built in one vectorised call."""
    if geom.geom_type == "Polygon":
        ring = np.asarray(geom.exterior.coords)
        return shapely.polygons(ring[None, :, :] + offsets[:, None, :])
    line = np.asarray(geom.coords)
    return shapely.linestrings(line[None, :, :] + offsets[:, None, :])


def first_touching_step(start, target, offset, fractions):
    """The first ``k`` whose copy of ``start`` moved by ``fractions[k] * offset`` touches ``target`` (distance
    <= 0), or ``None``: what measuring every copy finds, measuring few of them. A copy at distance ``d`` from the
    target is ``d`` from touching, and the copies ahead move ``step`` (the translation between two copies) each,
    so none of the next ``d / step`` copies can touch: the sweep jumps over them (conservative advancement)."""
    step = math.hypot(*offset) * (fractions[1] - fractions[0])
    k = 0
    while k < len(fractions):
        distance = float(shapely.distance(target, translated_copies(start, fractions[k:k + 1, None] * offset))[0])
        if distance <= 0.0:
            return k
        k += max(1, int((distance - 1e-9) / step))  # (less a hair: no rounding carries it past a touching copy)
    return None


def boundary_of(geom):
    return geom.exterior if hasattr(geom, "exterior") else geom


@given(shapes, transforms, query_points)
def test_closest_point_matches_shapely(shape, xf, p):
    oracle = to_shapely(shape, xf)
    q = closest_point(shape, xf, p)
    true_distance = boundary_of(oracle).distance(Point(p))
    assume(true_distance > TOL)  # right on the boundary the inside flag is a coin toss
    inside = oracle.contains(Point(p)) if oracle.area > 0 else False
    assert q.inside == inside
    assert close(abs(q.distance), true_distance)
    assert close(math.hypot(p[0] - q.point[0], p[1] - q.point[1]), abs(q.distance), 1e-6)
    assert boundary_of(oracle).distance(Point(q.point)) <= TOL
    assert close(math.hypot(*q.normal), 1.0, 1e-9)
    # The normal points outward: stepping along it from the boundary leaves the shape.
    step = (q.point[0] + q.normal[0] * 0.1, q.point[1] + q.normal[1] * 0.1)
    assert not oracle.contains(Point(step)) or oracle.area == 0


@given(shapes, transforms, query_points, st.floats(0, 2 * math.pi), st.floats(1, 150))
def test_ray_cast_matches_shapely(shape, xf, origin, heading, max_distance):
    direction = (math.cos(heading), math.sin(heading))
    oracle = to_shapely(shape, xf)
    hit = ray_cast(shape, xf, origin, direction, max_distance)
    end = (origin[0] + direction[0] * max_distance, origin[1] + direction[1] * max_distance)
    ray = LineString([origin, end])
    if oracle.area > 0 and oracle.contains(Point(origin)) and boundary_of(oracle).distance(Point(origin)) > TOL:
        assert hit is not None and hit.started_inside and hit.distance == 0.0
        return
    crossing = ray.intersection(oracle)
    if hit is None:
        # A miss: the ray stays out, or at most grazes within the oracle's tolerance.
        assert crossing.is_empty or crossing.length <= 2 * TOL or oracle.area == 0 and ray.distance(oracle) <= TOL
        assert ray.distance(oracle) <= TOL or crossing.is_empty
        return
    if hit.started_inside:
        assert boundary_of(oracle).distance(Point(origin)) <= TOL
        return
    first = Point(origin).distance(crossing) if not crossing.is_empty else math.inf
    if crossing.is_empty:  # grazing an arc that the oracle's chords cut off
        assert ray.distance(oracle) <= TOL
    else:
        assert close(hit.distance, first)
    assert boundary_of(oracle).distance(Point(hit.point)) <= TOL
    assert hit.normal[0] * direction[0] + hit.normal[1] * direction[1] <= 1e-9


@given(shapes, transforms, shapes, coords, coords, st.floats(-math.pi, math.pi), coords, coords)
@settings(max_examples=20)
def test_the_sweeps_jumps_find_the_first_touching_step_every_step_finds(moving, xf_target, target, x, y, angle, tx, ty):
    """The oracle's shortcut (:func:`first_touching_step`) against measuring all 401 copies."""
    offset = np.array((3 * tx, 3 * ty))
    start, oracle_target = to_shapely(moving, Transform((x, y), angle)), to_shapely(target, xf_target)
    fractions = np.linspace(0.0, 1.0, 401)
    touching = np.flatnonzero(shapely.distance(oracle_target, translated_copies(start, fractions[:, None] * offset)) <= 0)
    if math.hypot(*offset) > 1.0:
        assert first_touching_step(start, oracle_target, offset, fractions) == (int(touching[0]) if len(touching) else None)


@pytest.mark.slow
@given(shapes, transforms, shapes, coords, coords, st.floats(-math.pi, math.pi), coords, coords)
def test_shape_cast_matches_a_fine_brute_force_sweep(moving, xf_target, target, x, y, angle, tx, ty):
    """The cast's fraction is where a fine sweep of the real shapes (shapely) first touches."""
    tx, ty = 3 * tx, 3 * ty
    assume(math.hypot(tx, ty) > 1.0)
    xf = Transform((x, y), angle)
    oracle_target = to_shapely(target, xf_target)
    start = to_shapely(moving, xf)
    assume(oracle_target.distance(start) > TOL)  # starting overlap is covered by the tables
    hit = shape_cast(moving, xf, (tx, ty), target, xf_target)
    # A sweep of 400 steps, then bisection inside the first touching step (as fine as 400 x 2^20 steps).
    fractions = np.linspace(0.0, 1.0, 401)
    k = first_touching_step(start, oracle_target, np.array((tx, ty)), fractions)
    first_touch = None
    if k is not None:
        lo, hi = float(fractions[max(k - 1, 0)]), float(fractions[k])
        for _ in range(20):
            mid = 0.5 * (lo + hi)
            if oracle_target.distance(affinity.translate(start, mid * tx, mid * ty)) <= 0.0:
                hi = mid
            else:
                lo = mid
        first_touch = hi if k > 0 else 0.0
    length = math.hypot(tx, ty)
    if hit is None:
        assert first_touch is None or first_touch * length >= length - TOL
        return
    at_hit = affinity.translate(start, hit.fraction * tx, hit.fraction * ty)
    assert oracle_target.distance(at_hit) <= TOL  # touching at the reported fraction
    if first_touch is not None:
        # Never later than the sweep; earlier only by grazing the sweep steps over.
        assert hit.fraction * length <= first_touch * length + TOL
        before = affinity.translate(start, (hit.fraction - 2 * TOL / length) * tx, (hit.fraction - 2 * TOL / length) * ty)
        assert oracle_target.distance(before) > 0.0
    assert close(math.hypot(*hit.normal), 1.0, 1e-9)
    assert hit.normal[0] * tx + hit.normal[1] * ty <= 1e-9
    # The contact point lies on both surfaces.
    assert boundary_of(oracle_target).distance(Point(hit.point)) <= 2 * TOL
    assert boundary_of(at_hit).distance(Point(hit.point)) <= 2 * TOL


@given(shapes, transforms, query_points, transforms)
def test_queries_move_with_a_rigid_motion_of_the_scene(shape, xf, p, motion):
    moved = Transform(motion.apply(xf.position), xf.angle + motion.angle)
    q1 = closest_point(shape, xf, p)
    q2 = closest_point(shape, moved, motion.apply(p))
    assert close(q1.distance, q2.distance, 1e-6)
    assert close_vec(motion.apply(q1.point), q2.point, 1e-6)
    direction = (-p[0] + 1e-3, -p[1])  # towards the origin, where the shapes live
    h1 = ray_cast(shape, xf, p, direction, 200)
    h2 = ray_cast(shape, moved, motion.apply(p), motion.rotate(direction), 200)
    if (h1 is None) != (h2 is None):
        # Only a knife-edge ray (one that a millionth of a radian turns from hit to miss) may disagree.
        # or one whose origin sits on the surface (then "inside" is a rounding coin toss).
        turned = [ray_cast(shape, xf, p, Transform((0, 0), e).rotate(direction), 200) for e in (-1e-6, 1e-6)]
        on_surface = abs(q1.distance) < 1e-9
        assert (turned[0] is None) != (turned[1] is None) or abs((h1 or h2).distance - 200) < 1e-6 or on_surface
    if h1 and h2:
        # A grazing hit is ill-conditioned: rounding moves it by about 1e-9 / cos(incidence).
        length = math.hypot(*direction)
        incidence = abs(h1.normal[0] * direction[0] + h1.normal[1] * direction[1]) / length
        assert close(h1.distance, h2.distance, 1e-6 + 1e-9 / max(incidence, 1e-9))


def test_minkowski_sum_of_two_upright_boxes_is_the_hull_of_all_sixteen_differences():
    """A platform and a character (both upright boxes) are summed from their four extreme differences: the very
    same core, bit for bit, as the hull of every target vertex less every moving vertex, wherever they are;
    turned boxes and other shapes take the whole hull."""
    import random

    from engine.geometry import minkowski_difference
    from engine.geometry.shapes import convex_hull

    def every_difference(target, xf, moving, angle):
        c, s = math.cos(angle), math.sin(angle)
        moved = [(c * x - s * y, s * x + c * y) for x, y in moving.vertices]
        points = [(wx - mx, wy - my) for wx, wy in (xf.apply(t) for t in target.vertices) for mx, my in moved]
        return convex_hull(points)

    rng = random.Random(32)
    compared = 0
    for _ in range(3000):
        size = lambda: rng.choice([rng.uniform(1.0, 80.0), float(rng.randint(1, 64)), rng.randint(1, 64) + 0.1])  # noqa: E731
        hw, hh, mw, mh = size(), size(), size(), size()
        target = RoundedPolygon.box(hw, hh, radius=min(hw, hh) * rng.choice([0.0, 0.2, 0.45]))
        moving = RoundedPolygon.box(mw, mh, radius=min(mw, mh) * rng.choice([0.0, 0.2, 0.45]))
        at = rng.choice([(rng.uniform(-1e4, 1e4), rng.uniform(-1e4, 1e4)),
                         (rng.randint(-500, 500) + 0.5, rng.randint(-99, 99) / 3)])
        xf = Transform(at, rng.choice([0.0, 0.0, 0.0, math.pi / 2, 0.1]))
        angle = rng.choice([0.0, 0.0, 0.0, math.pi, 0.3])
        made = minkowski_difference(target, xf, moving, angle)
        assert made.vertices == tuple(every_difference(target, xf, moving, angle)), (target, xf, moving, angle)
        assert made.radius == target.radius + moving.radius
        compared += 1
    assert compared == 3000
