"""The inset of collision cores (engine.level.insets), checked against shapely as the oracle: thick segments of
radius r along the cores cover the drawn solid and reach no further out than it (engine frame, pixels)."""

from pathlib import Path

import pytest
import shapely
from shapely.geometry import LineString, Polygon

from engine.level.insets import inset_one_way, inset_rings
from engine.level.level import load_level

R = 2.0
LEVELS = sorted((Path(__file__).resolve().parents[2] / "levels").glob("*.tmx"))


def capsules(rings, lines=(), radius=R):
    """The solid that thick segments along closed ``rings`` and open ``lines`` make: the cores' own region
    and everything within ``radius`` of a core."""
    cores = [LineString(list(r) + [r[0]]) for r in rings] + [LineString(line) for line in lines]
    inside = drawn(rings) if rings else Polygon()
    return shapely.union_all([inside] + [c.buffer(radius, quad_segs=32) for c in cores])


def same_ring(ring, expected):
    """The same ring, whichever vertex it starts at."""
    i = ring.index(expected[0]) if expected[0] in ring else -1
    return i >= 0 and ring[i:] + ring[:i] == expected


def drawn(rings):
    """The solid region of outlines (solid on the left: holes clockwise)."""
    outer = [Polygon(r) for r in rings if Polygon(r).exterior.is_ccw]
    holes = [Polygon(r) for r in rings if not Polygon(r).exterior.is_ccw]
    return shapely.difference(shapely.union_all(outer), shapely.union_all(holes) if holes else Polygon())


def test_a_floor_core_lies_a_radius_inside_its_drawn_edges():
    insets = inset_rings([[(0.0, 0.0), (256.0, 0.0), (256.0, 32.0), (0.0, 32.0)]], R)
    [ring] = insets.rings
    assert same_ring(ring, [(2.0, 2.0), (254.0, 2.0), (254.0, 30.0), (2.0, 30.0)])
    assert insets.spurs == [] and insets.thin == []


def test_a_valley_keeps_its_sharp_corner_and_a_ridge_is_rounded_inside_the_tile():
    """
          /##        a flat, a 45-degree slope up (a valley where they meet), a flat above (a ridge)
    ____/####
    #########
    """
    ring = [(0.0, 0.0), (160.0, 0.0), (160.0, 64.0), (128.0, 64.0), (96.0, 32.0), (0.0, 32.0)]
    insets = inset_rings([ring], R)
    assert len(insets.rings) == 1 and len(insets.rings[0]) == 6  # no arc: mitre joins, one vertex per corner
    solid, region = capsules(insets.rings), Polygon(ring)
    assert solid.difference(region).area < 1e-6  # nothing sticks out of the art
    assert region.boundary.distance(shapely.Point(96.0, 32.0)) == 0
    assert solid.exterior.distance(shapely.Point(96.0, 32.0)) < 1e-6  # the valley's corner is on the surface
    ridge = shapely.Point(128.0, 64.0)
    assert 0 < solid.distance(ridge) <= R * (1 / 0.9238795 - 1) + 1e-3  # 135-degree ridge: cut by 0.16 px


def test_holes_are_grown_and_tile_seams_are_gone_before_the_inset():
    box = [(0.0, 0.0), (96.0, 0.0), (96.0, 96.0), (0.0, 96.0)]
    hole = [(32.0, 32.0), (32.0, 64.0), (64.0, 64.0), (64.0, 32.0)]  # clockwise: a hole
    insets = inset_rings([box, hole], R)
    assert sorted(len(r) for r in insets.rings) == [4, 4]
    assert any(same_ring(r, [(30.0, 30.0), (30.0, 66.0), (66.0, 66.0), (66.0, 30.0)]) for r in insets.rings)
    solid = capsules(insets.rings)
    region = drawn([box, hole])
    assert solid.difference(region).area < 1e-6
    assert solid.symmetric_difference(region).area < 4 * 4 * R * R  # only the four outer corners differ


def test_a_part_thinner_than_two_radii_collides_along_its_centre_line():
    bar = [(64.0, 60.0), (160.0, 60.0), (160.0, 63.0), (64.0, 63.0)]  # 3 px thick
    insets = inset_rings([bar], R)
    assert insets.rings == []
    [part] = insets.thin
    assert part.thickness == pytest.approx(3.0)
    (ax, ay), (bx, by) = sorted(part.line)
    assert (ax, bx) == pytest.approx((66.0, 158.0)) and ay == pytest.approx(61.5) and by == pytest.approx(61.5)


def test_a_thin_stub_on_a_block_is_found_and_the_block_is_not():
    ring = [(0.0, 0.0), (64.0, 0.0), (64.0, 30.0), (100.0, 30.0), (100.0, 32.0), (0.0, 32.0)]  # a 2 px ledge
    insets = inset_rings([ring], R)
    assert len(insets.thin) == 1 and insets.thin[0].where[0] > 64
    assert len(insets.rings) == 1


def test_a_sharp_tip_keeps_a_spur_to_its_end():
    wedge = [(0.0, 0.0), (64.0, 0.0), (64.0, 32.0)]  # a 26.6-degree tip at the origin
    insets = inset_rings([wedge], R)
    [(core, end)] = insets.spurs
    assert end == pytest.approx((R * 0.9732, R * 0.2298), abs=1e-3)  # a radius from the tip, on the bisector
    assert shapely.Point(core).distance(LineString(insets.rings[0] + insets.rings[0][:1])) < 1e-6
    assert capsules(insets.rings, insets.spurs).distance(shapely.Point(0.0, 0.0)) < 1e-6  # solid to the tip


def test_one_way_runs_move_down_a_radius_and_their_ends_come_in():
    assert inset_one_way([((0.0, 96.0), (96.0, 96.0), (0.0, 1.0))], R) == [((2.0, 94.0), (94.0, 94.0), (0.0, 1.0))]
    # A one-way polyline stays joined, each segment a radius under its drawn line.
    bent = inset_one_way([((0.0, 0.0), (32.0, 32.0), (0.0, 1.0)), ((32.0, 32.0), (64.0, 32.0), (0.0, 1.0))], R)
    assert bent[0][1] == bent[1][0]
    assert LineString([(0, 0), (32, 32)]).distance(shapely.Point(bent[0][0])) == pytest.approx(R)
    assert bent[1][1] == pytest.approx((62.0, 30.0))


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.stem)
def test_shipped_levels_collide_on_their_drawn_edges(path):
    """Every shipped level: the segments reach nowhere outside the drawn solid, and every drawn edge is on
    the collision surface but at convex corners (at most 0.83 px inside at a right angle)."""
    level = load_level(path)
    r = level.segment_radius
    solid = capsules(level.collision.rings, [c for c in level.collision.chains if c not in level.solid_chains], r)
    region = drawn(level.solid_rings)
    assert solid.difference(region).area < 1e-3
    assert shapely.hausdorff_distance(solid.boundary, region.boundary) <= r * (2 ** 0.5 - 1) * 1.01


def test_a_speck_smaller_than_two_radii_each_way_still_collides():
    insets = inset_rings([[(10.0, 10.0), (13.0, 10.0), (13.0, 13.0), (10.0, 13.0)]], R)  # 3 x 3 px
    assert insets.rings == [] and len(insets.thin) == 1
    (ax, ay), (bx, by) = insets.thin[0].line
    assert abs(ax - bx) + abs(ay - by) == pytest.approx(0.5)  # a short line at its middle, not nothing
    assert (ax + bx) / 2 == pytest.approx(11.5) and (ay + by) / 2 == pytest.approx(11.5)
