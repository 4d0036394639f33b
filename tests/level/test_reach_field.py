"""The distance through a level's open space that orders ``--reach``'s search (``engine.level.reach_field``).

    y
    192 |          ##
        |          ##           the wall: x 160..192, y 0..160 (a solid ring)
        |          ##
      0 +------------------ x   the target: a box at x 300..316, y 16..48
"""

from __future__ import annotations

import math

from engine.level.reach_field import FIELD_CELL, DistanceField

WALL = [(160.0, 0.0), (192.0, 0.0), (192.0, 160.0), (160.0, 160.0)]
TARGET = (300.0, 16.0, 316.0, 48.0)


def field() -> DistanceField:
    return DistanceField([WALL], 320.0, 192.0, TARGET)


def test_the_target_is_at_no_distance_and_open_space_is_a_straight_line():
    f = field()
    assert f.at(308.0, 32.0) == 0.0
    assert abs(f.at(250.0, 32.0) - 56.0) <= 2 * FIELD_CELL


def test_a_wall_is_gone_round_over_its_top():
    f = field()
    foot, top = f.at(140.0, 16.0), f.at(140.0, 176.0)
    straight = 300.0 - 140.0
    assert foot > straight + 120.0  # up the wall's 160 px and down again, not through it
    assert top < foot  # higher up the wall's face is nearer: a climb there is progress


def test_the_way_across_points_at_the_target_and_a_point_in_the_solid_gets_its_neighbours_distance():
    f = field()
    assert f.heading_across(60.0, 16.0) == 1
    assert math.isfinite(f.at(176.0, 80.0))  # inside the wall
