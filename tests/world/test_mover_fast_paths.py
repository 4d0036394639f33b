"""The character mover's shortcuts against the ways they stand for, bit for bit.

* :func:`engine.world.kernels.mover.slide_touch_mover` (a character's constants in one array) against
  :func:`~engine.world.kernels.mover.slide_touch_sums` called with every argument;
* :func:`~engine.world.kernels.mover.slide_touch_checked` (rows checked in the call) against
  :func:`~engine.world.kernels.mover.slide_touch_mover` on rows ``StaticGeometry.sum_table`` built, and its
  refusal of a table with a row unbuilt;
* :func:`~engine.world.kernels.mover.first_hit_mover` against :func:`~engine.world.kernels.mover.first_hit_sums`;
* a gather of the only character, ignoring it, against one that does not ignore it (or ignores its collider);
* ``MoverConfig.floor_limit``, ``touch_margin`` and ``path_stretch`` against the sums they keep;
* ``StaticGeometry.sum_table``'s memory of the last core's table against looking the table up (and a table
  made after segments are added against the reference Minkowski sums).
"""

import dataclasses
import math

import numpy as np
import pytest

from engine import Character, MoverConfig, RoundedPolygon, World
from engine.geometry import Transform, minkowski_difference
from engine.world.kernels.mover import (
    SUM_COUNT, SUM_FIRST_VERTEX, first_hit_mover, first_hit_sums, mover_constants, slide_touch_checked,
    slide_touch_mover, slide_touch_sums, sweep_constants,
)
from tests.world.test_cast_kernel import random_world, touching_probes

CONFIGS = [MoverConfig(), MoverConfig(up=(0.6, 0.8), constant_speed_on_slopes=False, max_slides=2),
           MoverConfig(skin=0.25, ground_probe=2.0, max_floor_angle=0.6, graze_cosine=0.0, penetration_slop=0.1)]


@pytest.mark.parametrize("seed", range(3))
def test_the_slide_with_a_characters_constants_in_an_array_equals_the_slide_given_each(seed):
    world = random_world(seed)
    rng = np.random.default_rng(seed + 20)
    compared = stopped = 0
    for config in CONFIGS:
        ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), config))
        cast_shape = ch.shape.inflated(config.skin)
        constants = mover_constants(cast_shape.radius, cast_shape.local_aabb, config.up, config.floor_limit,
                                    config.constant_speed_on_slopes, config.graze_cosine, config.max_slides,
                                    ch.shape.radius, ch.shape.local_aabb, config.touch_margin, config.penetration_slop)
        for position, d in touching_probes(world, ch, rng, 150):
            rows = world._static_only_rows(cast_shape, (), ch._mover._candidates)
            if rows is None:
                continue
            table, segments, core = rows
            velocity = (d[0] * 60.0, d[1] * 60.0)
            grounded = bool(rng.random() < 0.5)
            answers = []
            for packed in (True, False):
                stops, touched = np.full((64, 9), -1.0), np.full((3, 6), -1.0)
                if packed:
                    answer = slide_touch_mover(table, segments, core, constants, *position, *d, *velocity, grounded,
                                               stops, touched)
                else:
                    box, own = cast_shape.local_aabb, ch.shape.local_aabb
                    answer = slide_touch_sums(
                        table, segments, core, cast_shape.radius, *box, *position, *d, *velocity, *config.up, grounded,
                        math.cos(config.max_floor_angle), config.constant_speed_on_slopes, config.graze_cosine,
                        config.max_slides, ch.shape.radius, *own, config.skin + config.ground_probe,
                        config.penetration_slop, 2.0, stops, touched)
                answers.append((answer, stops.tolist(), touched.tolist()))
            assert answers[0] == answers[1], (config, position, d)
            compared += 1
            stopped += answers[0][0][0] > 0
        world.remove(ch)
    assert compared > 300 and stopped > 50


def test_a_configs_kept_numbers_are_the_sums_they_stand_for():
    for config in [*CONFIGS, dataclasses.replace(CONFIGS[1], skin=0.75, max_floor_angle=1.2, constant_speed_on_slopes=True)]:
        assert config.floor_limit == math.cos(config.max_floor_angle)
        assert config.touch_margin == config.skin + config.ground_probe
        stretch = 1.0 / math.cos(config.max_floor_angle) if config.constant_speed_on_slopes else 1.0
        assert config.path_stretch == stretch
    assert dataclasses.replace(CONFIGS[0]) == CONFIGS[0]  # (the kept numbers are not fields)


def reference_rows(world: World, shape: RoundedPolygon, segments: list[int]) -> list[list[float]]:
    """The sum rows' vertices and normals of ``segments`` made with the reference Minkowski sum."""
    rows = []
    for segment in segments:
        grown = minkowski_difference(world.static.shape(segment), Transform(), shape, 0.0)
        rows.append([grown.count, *[c for v, n in zip(grown.vertices, grown.normals) for c in (*v, *n)]])
    return rows


def test_the_last_cores_table_is_the_one_looked_up_and_new_segments_get_a_new_table():
    world = random_world(1)
    shapes = [RoundedPolygon.box(10, 16, radius=2), RoundedPolygon([(-6, -9), (7, -8), (3, 10)], radius=0.5)]
    grown = shapes[0].inflated(0.5)  # the same core: the same table
    segments = list(range(len(world.static)))
    world.static.broadphase  # noqa: B018 - built before the tables (building it starts them over)
    tables = [world.static.sum_table(shape, segments) for shape in (*shapes, grown, shapes[1], shapes[0])]
    assert tables[0] is tables[2] is tables[4] and tables[1] is tables[3] and tables[0] is not tables[1]
    for shape, table in zip(shapes, tables):
        assert table is not None
        width = [SUM_FIRST_VERTEX + 4 * int(row[SUM_COUNT]) for row in table.rows]
        got = [[row[SUM_COUNT], *row[SUM_FIRST_VERTEX:end].tolist()] for row, end in zip(table.rows, width)]
        assert got == reference_rows(world, shape, segments)
    added = world.add_segments([(0.0, 300.0)], [(40.0, 310.0)], radius=1.0)
    segments = list(range(len(world.static)))
    world.static.broadphase  # noqa: B018
    table = world.static.sum_table(shapes[0], segments)
    assert table is not None and table is not tables[0] and len(table.rows) == len(world.static)
    last = table.rows[added[0]]
    assert [last[SUM_COUNT], *last[SUM_FIRST_VERTEX:SUM_FIRST_VERTEX + 4 * int(last[SUM_COUNT])].tolist()] \
        == reference_rows(world, shapes[0], [added[0]])[0]


@pytest.mark.parametrize("seed", range(3))
def test_the_first_hit_with_a_shapes_constants_in_an_array_equals_the_first_hit_given_each(seed):
    world = random_world(seed)
    rng = np.random.default_rng(seed + 30)
    hits = 0
    for config in CONFIGS:
        ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), config))
        cast_shape = ch.shape.inflated(config.skin)
        constants = sweep_constants(cast_shape.radius, cast_shape.local_aabb, config.graze_cosine)
        for position, d in touching_probes(world, ch, rng, 150):
            rows = world._static_only_rows(cast_shape, (), ch._mover._candidates)
            if rows is None:
                continue
            table, segments, core = rows
            packed = first_hit_mover(table, segments, core, constants, *position, *d)
            given = first_hit_sums(table, segments, core, cast_shape.radius, *cast_shape.local_aabb, *position, *d,
                                   config.graze_cosine, 2.0)
            assert packed == given, (config, position, d)
            hits += packed[0] >= 0
        world.remove(ch)
    assert hits > 50


def test_a_gather_leaves_out_the_only_character_exactly_when_it_is_ignored():
    world = random_world(0)
    ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 20.0)))
    box = ch.aabb().grown(30.0)
    assert [n.collider for _, n in world.candidates(box).others] == [ch.collider]
    assert world.candidates(box, (ch,)).others == [] and world.candidates(box, (ch.collider,)).others == []
    assert world.candidates(box, (object(),)).others[0][1].collider is ch.collider


@pytest.mark.parametrize("seed", range(2))
def test_the_slide_that_checks_its_rows_equals_the_slide_on_built_rows_and_refuses_an_unbuilt_one(seed):
    world = random_world(seed)
    rng = np.random.default_rng(seed + 40)
    config = CONFIGS[0]
    ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), config))
    cast_shape = ch.shape.inflated(config.skin)
    constants = world._mover_constants(cast_shape, ch.shape, config)
    compared = refused = 0
    for position, d in touching_probes(world, ch, rng, 150):
        rows = world._static_only_rows(cast_shape, (), ch._mover._candidates)  # (built)
        if rows is None or not len(rows[1]):
            continue
        table, segments, core = rows
        arguments = (*position, *d, d[0] * 60.0, d[1] * 60.0, bool(rng.random() < 0.5))
        answers = []
        for slide in (slide_touch_checked, slide_touch_mover):
            stops, touched = np.full((64, 9), -1.0), np.full((3, 6), -1.0)
            answers.append((slide(table, segments, core, constants, *arguments, stops, touched), stops.tolist(),
                            touched.tolist()))
        assert answers[0] == answers[1]
        compared += 1
        unbuilt = table.copy()
        unbuilt[segments[int(rng.integers(len(segments)))], SUM_COUNT] = 0.0  # (as a row never built)
        stops = np.full((64, 9), -1.0)
        assert slide_touch_checked(unbuilt, segments, core, constants, *arguments, stops, np.zeros((3, 6)))[0] == -1
        assert (stops == -1.0).all()
        refused += 1
    assert compared > 50 and refused == compared
