"""Construction and validation of the kernel's value types."""

import math

import pytest

from engine.geometry import AABB, MAX_VERTICES, GeometryError, RoundedPolygon, Transform


def test_clockwise_input_is_stored_counter_clockwise():
    cw = RoundedPolygon([(0, 0), (0, 10), (10, 10), (10, 0)])
    ccw = RoundedPolygon([(0, 0), (10, 0), (10, 10), (0, 10)])
    assert cw.vertices[0] in ccw.vertices
    area2 = sum(
        cw.vertices[i][0] * cw.vertices[(i + 1) % 4][1] - cw.vertices[(i + 1) % 4][0] * cw.vertices[i][1]
        for i in range(4)
    )
    assert area2 > 0
    # Outward normals of a box are the four axis directions.
    assert sorted(cw.normals) == sorted([(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)])


@pytest.mark.parametrize(
    "vertices, radius, message",
    [
        ([], 0.0, "at least one vertex"),
        ([(0, 0)], 0.0, "needs radius > 0"),
        ([(0, 0), (10, 0)], -1.0, "radius must be >= 0, got -1.0"),
        ([(0, 0), (10, 0)], float("nan"), "radius must be finite, got nan"),
        ([(0, 0), (10, 0), (5, float("inf"))], 0.0, "vertex 2 must be finite"),
        ([(0, 0), (10, 0), (10, 0)], 0.0, "vertices 1 and 2 are duplicates"),
        ([(0, 0), (5, 0), (10, 0)], 0.0, "collinear"),
        ([(0, 0), (10, 0), (10, 10), (0, 10), (5, 5)], 0.0, "not convex"),
        ([(0, 0), (10, 0), (3, 3), (0, 10)], 0.0, "not convex"),
        ([(0, 0), "ab", (0, 10)], 0.0, "vertex 1 must be a pair of numbers"),
        ([(math.cos(a), math.sin(a)) for a in range(MAX_VERTICES + 1)], 0.0, "at most"),
    ],
)
def test_bad_polygons_are_rejected_with_the_bad_value_named(vertices, radius, message):
    with pytest.raises(GeometryError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RoundedPolygon(vertices, radius)


def test_pentagram_is_rejected_even_though_it_always_turns_left():
    star = [(math.cos(a * 4 * math.pi / 5), math.sin(a * 4 * math.pi / 5)) for a in range(5)]
    with pytest.raises(GeometryError, match="not convex"):
        RoundedPolygon(star)


def test_constructors_build_the_documented_cores():
    assert RoundedPolygon.circle(3, (1, 2)).vertices == ((1.0, 2.0),)
    assert RoundedPolygon.circle(3).kind == "circle"
    assert RoundedPolygon.capsule((0, 0), (10, 0), 2).kind == "capsule"
    assert RoundedPolygon.segment((0, 0), (10, 0)).radius == 0.0
    rounded = RoundedPolygon.box(16, 8, radius=2)
    assert rounded.radius == 2.0
    # The outer size stays 32 x 16 with rounded corners.
    assert rounded.local_aabb == AABB(-16.0, -8.0, 16.0, 8.0)
    rotated = RoundedPolygon.box(2, 1, center=(5, 0), angle=math.pi / 2)
    box = rotated.local_aabb
    assert math.isclose(box.min_x, 4.0) and math.isclose(box.max_y, 2.0)


@pytest.mark.parametrize(
    "args, message",
    [((0, 5), "half_width must be > 0"), ((5, -1), "half_height must be > 0"), ((5, 5, 5), "radius must be")],
)
def test_bad_boxes_are_rejected(args, message):
    with pytest.raises(GeometryError, match=message):
        RoundedPolygon.box(*args)


def test_hull_accepts_a_point_cloud_and_drops_inner_and_collinear_points():
    shape = RoundedPolygon.hull([(0, 0), (5, 0), (10, 0), (10, 10), (0, 10), (5, 5), (0, 5)])
    assert len(shape.vertices) == 4


def test_values_are_immutable():
    shape = RoundedPolygon.box(1, 1)
    with pytest.raises(AttributeError):
        shape.radius = 3
    with pytest.raises(AttributeError):
        Transform().angle = 1.0


@pytest.mark.parametrize("position, angle, message", [((0, float("nan")), 0.0, "position must be finite"),
                                                      ((0, 0), float("inf"), "angle must be finite"),
                                                      ((1, 2, 3), 0.0, "pair of numbers")])
def test_bad_transforms_are_rejected(position, angle, message):
    with pytest.raises(GeometryError, match=message):
        Transform(position, angle)


def test_transform_round_trip():
    xf = Transform((3.0, -2.0), 0.7)
    p = (1.25, 4.5)
    back = xf.apply_inverse(xf.apply(p))
    assert math.isclose(back[0], p[0]) and math.isclose(back[1], p[1])


def test_world_aabb_of_rotated_rounded_box_is_tight():
    shape = RoundedPolygon.box(10, 10, radius=2)
    box = shape.aabb(Transform((100, 50), math.pi / 4))
    # Core half-diagonal 8*sqrt(2) plus the radius.
    assert math.isclose(box.max_x, 100 + 8 * math.sqrt(2) + 2)
    assert math.isclose(box.min_y, 50 - 8 * math.sqrt(2) - 2)


def test_a_shape_the_engine_made_copies_and_pickles_unchanged():
    """The Minkowski difference of a box and a box turned by a hair has hull vertices a hair off a line: a valid
    shape for the engine, which keeps such sums in its caches; copying or pickling a world copies them, and must
    give the same shape back rather than fail the constructor's checks for hand-made shapes."""
    import copy
    import pickle

    from engine.geometry import minkowski_difference

    target, moving = RoundedPolygon.box(15, 3, radius=1.0), RoundedPolygon.box(11.5, 7, radius=1.0)
    made = minkowski_difference(target, Transform((-16.76401222113077, 83.25396710105883)), moving, 1e-9)
    for again in (copy.deepcopy(made), copy.copy(made), pickle.loads(pickle.dumps(made))):
        assert again == made and again.normals == made.normals and again.aabb(Transform()) == made.aabb(Transform())
