"""StaticBroadPhase against brute force over every segment."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import LineString
from shapely.geometry import box as shapely_box

from engine.geometry import (
    GeometryError,
    RoundedPolygon,
    StaticBroadPhase,
    Transform,
    ray_cast,
    ray_cast_capsules,
    shape_cast,
)

ORIGIN = Transform()


def random_level(seed, n=400, span=2000.0):
    """Short tiles, long floors and long diagonals mixed, as a merged Tiled level would have."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, span, (n, 2))
    kind = rng.integers(0, 3, n)
    length = np.where(kind == 0, 32.0, np.where(kind == 1, rng.uniform(100, 800, n), rng.uniform(5, 60, n)))
    angle = rng.uniform(0, 2 * math.pi, n)
    b = a + np.stack([np.cos(angle), np.sin(angle)], axis=1) * length[:, None]
    radius = rng.choice([0.0, 1.0, 2.0, 4.0], n)
    return a, b, radius


def brute_aabb(bp, box):
    x0, y0, x1, y1 = box
    aabbs = bp.aabbs
    keep = (aabbs[:, 0] <= x1) & (aabbs[:, 2] >= x0) & (aabbs[:, 1] <= y1) & (aabbs[:, 3] >= y0)
    return np.flatnonzero(keep)


@pytest.mark.slow
@given(st.integers(0, 5), st.floats(-100, 2100), st.floats(-100, 2100), st.floats(0, 600), st.floats(0, 600))
def test_aabb_query_misses_no_overlapping_segment_and_returns_only_box_overlaps(seed, x, y, w, h):
    a, b, r = random_level(seed)
    bp = StaticBroadPhase(a, b, r)
    box = (x, y, x + w, y + h)
    found = set(bp.query_aabb(box).tolist())
    assert bp.query_list(box) == sorted(found)
    query = shapely_box(*box)
    touching = {i for i in range(len(a)) if LineString([a[i], b[i]]).buffer(r[i]).intersects(query)
                or r[i] == 0 and LineString([a[i], b[i]]).intersects(query)}
    assert touching <= found <= set(brute_aabb(bp, box).tolist())


@pytest.mark.slow
@given(st.integers(0, 5), st.floats(0, 2000), st.floats(0, 2000), st.floats(0, 2 * math.pi), st.floats(1, 400),
       st.sampled_from([0.0, 3.0, 12.0]))
def test_ray_and_circle_casts_equal_the_nearest_of_all_segments(seed, x, y, heading, max_distance, radius):
    a, b, r = random_level(seed)
    bp = StaticBroadPhase(a, b, r)
    direction = (math.cos(heading), math.sin(heading))
    found = bp.ray_cast((x, y), direction, max_distance, radius=radius)
    best = None
    for i in range(len(a)):
        hit = ray_cast(RoundedPolygon._trusted((tuple(a[i]), tuple(b[i])), r[i] + radius), ORIGIN, (x, y), direction,
                       max_distance)
        if hit is not None and (best is None or hit.distance < best.distance):
            best = hit
    if best is None:
        assert found is None
        return
    assert found is not None
    assert math.isclose(found.hit.distance, best.distance, abs_tol=1e-7)
    assert found.hit.started_inside == best.started_inside
    if not best.started_inside:
        assert np.allclose(found.hit.normal, best.normal, atol=1e-6) or math.isclose(
            found.hit.distance, best.distance, abs_tol=1e-9)  # two segments hit at the same distance


@pytest.mark.slow
@given(st.integers(0, 3), st.floats(0, 2000), st.floats(0, 2000), st.floats(-300, 300), st.floats(-300, 300),
       st.sampled_from(["box", "rounded", "circle", "capsule"]))
def test_shape_cast_equals_the_nearest_exact_cast(seed, x, y, tx, ty, kind):
    moving = {
        "box": RoundedPolygon.box(12, 20),
        "rounded": RoundedPolygon.box(12, 20, radius=4),
        "circle": RoundedPolygon.circle(10),
        "capsule": RoundedPolygon.capsule((0, -10), (0, 10), 8),
    }[kind]
    a, b, r = random_level(seed, n=200)
    bp = StaticBroadPhase(a, b, r)
    xf = Transform((x, y))
    found = bp.shape_cast(moving, xf, (tx, ty))
    fractions = [
        h.fraction
        for h in (shape_cast(moving, xf, (tx, ty), bp.shape(i), ORIGIN) for i in range(len(a)))
        if h is not None
    ]
    if not fractions:
        assert found is None
    else:
        assert found is not None and math.isclose(found.hit.fraction, min(fractions), abs_tol=1e-9)


@pytest.mark.slow
def test_vectorised_capsule_ray_matches_the_scalar_ray_cast():
    a, b, r = random_level(7, n=300, span=300)
    rng = np.random.default_rng(1)
    for _ in range(200):
        origin = rng.uniform(-20, 320, 2)
        heading = rng.uniform(0, 2 * math.pi)
        d = (math.cos(heading), math.sin(heading))
        t, normals, inside = ray_cast_capsules(origin, d, 250.0, a, b, r)
        for i in range(len(a)):
            hit = ray_cast(RoundedPolygon._trusted((tuple(a[i]), tuple(b[i])), r[i]), ORIGIN, origin, d, 250.0)
            if hit is None:
                assert not np.isfinite(t[i])
            else:
                assert math.isclose(t[i], hit.distance, abs_tol=1e-7) and inside[i] == hit.started_inside
                assert np.allclose(normals[i], hit.normal, atol=1e-6)


def test_a_long_diagonal_segment_is_found_along_its_length_but_not_in_its_empty_bounding_box():
    bp = StaticBroadPhase([(0, 0)], [(5000, 5000)], 2.0, cell_size=64)
    assert list(bp.query_aabb((2490, 2490, 2510, 2510))) == [0]
    # The corner of its bounding box far from the line holds no cell entry for it.
    assert sum(len(v) for v in bp._cells.values()) < 400


@pytest.mark.parametrize(
    "a, b, radius, message",
    [
        ([(0, 0)], [(1, 1), (2, 2)], 1.0, "1 start points but 2 end points"),
        ([(0, float("nan"))], [(1, 1)], 1.0, "segment 0 has a non-finite start point"),
        ([(0, 0), (1, 1)], [(1, 1), (2, 2)], [1.0, -2.0], "segment 1 has a negative radius"),
    ],
)
def test_bad_segments_are_rejected(a, b, radius, message):
    with pytest.raises(GeometryError, match=message):
        StaticBroadPhase(a, b, radius)


def test_empty_level_answers_every_query_with_nothing():
    bp = StaticBroadPhase(np.zeros((0, 2)), np.zeros((0, 2)))
    assert len(bp.query_aabb((0, 0, 10, 10))) == 0
    assert bp.ray_cast((0, 0), (1, 0), 100) is None
    assert bp.shape_cast(RoundedPolygon.box(1, 1), Transform(), (10, 0)) is None


@pytest.mark.parametrize("seed", range(5))
def test_touching_pairs_are_each_rows_boxes_touching_in_row_major_order(seed):
    from engine.geometry import boxes_touching, touching_pairs
    rng = np.random.default_rng(seed)

    def boxes(n):
        low = rng.integers(0, 20, size=(n, 2)).astype(float)  # (integers: many boxes exactly touch)
        return np.concatenate([low, low + rng.integers(0, 6, size=(n, 2))], axis=1)

    first, second = boxes(int(rng.integers(0, 12))), boxes(int(rng.integers(0, 12)))
    expected = [(i, j) for i in range(len(first)) for j in np.flatnonzero(boxes_touching(second, first[i])).tolist()]
    i, j = touching_pairs(first, second)
    assert list(zip(i.tolist(), j.tolist())) == expected
