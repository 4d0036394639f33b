"""The character mover's shortcuts against the ways they stand for, bit for bit.

* :func:`engine.world.kernels.mover.slide_touch` asked for what the character touches at the end against the
  slide alone followed by a slide by nothing that touches, for configs that differ in every constant;
* its refusal of a table with a row unbuilt, and of a sweep that something moving is near;
* probes answered in that one call (``World.lone_first_hit``) against probes that gather first, walkers
  among lifts, step by step;
* :func:`~engine.world.kernels.mover.first_hit` (the character's constants in one array) against the mover's
  own filtering of ``World.cast``'s hits, for those configs;
* a gather of the only character, ignoring it, against one that does not ignore it (or ignores its collider);
* ``MoverConfig.floor_limit``, ``touch_margin`` and ``path_stretch`` against the sums they keep;
* ``StaticGeometry.sum_table``'s memory of the last core's table against looking the table up (and a table
  made after segments are added against the reference Minkowski sums).
"""

import dataclasses
import math

import numpy as np
import pytest

from engine import Character, KinematicBody, MoverConfig, RoundedPolygon, World
from engine.geometry import Transform, minkowski_difference
from engine.world.kernels.mover import SUM_COUNT, SUM_FIRST_VERTEX, slide_touch
from tests.world.test_cast_kernel import random_world, touching_probes

NOTHING = np.zeros((0, 4))
"""No boxes of things that move: the kernel tests none."""


def slide_static(table, segments, core, constants, *rest):
    """:func:`slide_touch` with nothing that moves to test."""
    return slide_touch(table, segments, core, constants, NOTHING, -1, *rest)

CONFIGS = [MoverConfig(), MoverConfig(up=(0.6, 0.8), constant_speed_on_slopes=False, max_slides=2),
           MoverConfig(skin=0.25, ground_probe=2.0, max_floor_angle=0.6, graze_cosine=0.0, penetration_slop=0.1)]


@pytest.mark.parametrize("seed", range(3))
def test_a_slide_that_touches_at_its_end_is_the_slide_then_the_touch_there(seed):
    world = random_world(seed)
    rng = np.random.default_rng(seed + 20)
    compared = stopped = touched = 0
    for config in CONFIGS:
        ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), config))
        mover = ch._mover
        constants = world._mover_constants(mover)
        for position, d in touching_probes(world, ch, rng, 150):
            rows = world._static_only_rows(mover.cast_shape, (), mover._candidates)
            if rows is None:
                continue
            table, segments, core = rows
            velocity = (d[0] * 60.0, d[1] * 60.0)
            grounded = bool(rng.random() < 0.5)
            stops, contacts = np.full((64, 9), -1.0), np.full((3, 6), -1.0)
            both = slide_static(table, segments, core, constants, *position, *d, *velocity, grounded, True, False, stops,
                               contacts)
            alone_stops, alone_contacts = np.full((64, 9), -1.0), np.full((3, 6), -1.0)
            alone = slide_static(table, segments, core, constants, *position, *d, *velocity, grounded, False, False,
                                alone_stops, alone_contacts)
            assert both[:5] == alone[:5] and stops.tolist() == alone_stops.tolist()
            assert (alone_contacts == -1.0).all() and alone[5:] == (False, False, False, 0, False)
            there = slide_static(table, segments, core, constants, *both[1:3], 0.0, 0.0, *both[3:5], grounded, True,
                                False, alone_stops, alone_contacts)
            assert there[0] == 0 and there[1:] == both[1:] and contacts.tolist() == alone_contacts.tolist()
            compared += 1
            stopped += both[0] > 0
            touched += both[5] or both[6]
        world.remove(ch)
    assert compared > 300 and stopped > 50 and touched > 50


@pytest.mark.parametrize("seed", range(3))
def test_the_compiled_first_hit_is_the_movers_own_for_any_config(seed, monkeypatch):
    world = random_world(seed)
    rng = np.random.default_rng(seed + 30)
    hits = 0
    for config in CONFIGS:
        ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), config))
        for position, d in touching_probes(world, ch, rng, 150):
            compiled = world.first_hit(ch._mover, position, d, ch._mover._candidates, ())
            assert compiled is not None
            with monkeypatch.context() as patched:
                patched.setattr(World, "first_hit", lambda *args: None)
                own = ch._mover._first_hit(position, d)
            assert compiled[0] == own, (config, position, d)
            hits += own is not None
        world.remove(ch)
    assert hits > 50


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


def test_a_gather_leaves_out_the_only_character_exactly_when_it_is_ignored():
    world = random_world(0)
    ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 20.0)))
    box = ch.aabb().grown(30.0)
    assert [n.collider for _, n in world.candidates(box).others] == [ch.collider]
    assert world.candidates(box, (ch,)).others == [] and world.candidates(box, (ch.collider,)).others == []
    assert world.candidates(box, (object(),)).others[0][1].collider is ch.collider


@pytest.mark.parametrize("seed", range(2))
def test_the_slide_answers_on_built_rows_and_refuses_a_row_unbuilt_or_something_moving_near(seed):
    world = random_world(seed)
    rng = np.random.default_rng(seed + 40)
    config = CONFIGS[0]
    ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), config))
    cast_shape = ch._mover.cast_shape
    constants = world._mover_constants(ch._mover)
    compared = refused = 0
    for position, d in touching_probes(world, ch, rng, 150):
        rows = world._static_only_rows(cast_shape, (), ch._mover._candidates)  # (built)
        if rows is None or not len(rows[1]):
            continue
        table, segments, core = rows
        arguments = (*position, *d, d[0] * 60.0, d[1] * 60.0, bool(rng.random() < 0.5), True, False)
        assert slide_static(table, segments, core, constants, *arguments, np.zeros((64, 9)), np.zeros((3, 6)))[0] >= 0
        compared += 1
        (x, y), (dx, dy), box = position, d, cast_shape.local_aabb  # (the sweep's box: something moving near it)
        swept = (box.min_x + x + min(dx, 0.0), box.min_y + y + min(dy, 0.0), box.max_x + x + max(dx, 0.0),
                 box.max_y + y + max(dy, 0.0))
        moving = np.array([[swept[2] + 1.0, swept[1], swept[2] + 5.0, swept[3]],  # (apart)
                           [swept[2], swept[1], swept[2] + 5.0, swept[3]]])  # (touching its right side)
        for skip, answer in ((-1, -2), (0, -2), (1, 0)):
            found = slide_touch(table, segments, core, constants, moving, skip, *arguments, np.zeros((64, 9)),
                                np.zeros((3, 6)))[0]
            assert found == answer if answer < 0 else found >= 0
        unbuilt = table.copy()
        unbuilt[segments[int(rng.integers(len(segments)))], SUM_COUNT] = 0.0  # (as a row never built)
        stops = np.full((64, 9), -1.0)
        assert slide_static(unbuilt, segments, core, constants, *arguments, stops, np.zeros((3, 6)))[0] == -1
        assert (stops == -1.0).all()
        refused += 1
    assert compared > 50 and refused == compared


def walkers_and_lifts() -> tuple[World, list[Character]]:
    """A floor with walkers pacing on it (each probing for ledges ahead, as ``engine.play.Walker`` does) and
    lifts sweeping back and forth through them: most moves find nothing moving near, some find a lift or
    another walker."""
    world = World(gravity=(0.0, -900.0))
    world.add_chain([(-400.0, 0.0), (400.0, 0.0), (400.0, -20.0), (-400.0, -20.0)], radius=1.0, closed=True)
    world.add_chain([(-120.0, 60.0), (-40.0, 60.0)], radius=2.0)
    walkers = [world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (x, 18.0)))
               for x in (-300.0, -180.0, -60.0, 70.0, 200.0, 330.0)]
    for k, x in enumerate((-250.0, 0.0, 250.0)):
        world.add_kinematic(KinematicBody(RoundedPolygon.box(30, 4), (x, 30.0 + 10.0 * k),
                                          velocity=(180.0 if k % 2 else -180.0, 0.0)))
    return world, walkers


def walk(world: World, walkers: list[Character], steps: int) -> list[tuple]:
    """Each step: every walker probes ahead and turns at a ledge or a wall, then the world steps (and the lifts
    turn at the level's ends); the walkers' and lifts' places and contacts after every step."""
    directions = [1.0 if k % 2 else -1.0 for k in range(len(walkers))]
    trace = []
    for _ in range(steps):
        for k, ch in enumerate(walkers):
            ahead = (ch.position[0] + directions[k] * 7.0, ch.position[1])
            if ch.on_wall or ch.on_floor and ch.cast((0.0, -8.0), ahead) is None:
                directions[k] = -directions[k]
            ch.velocity = (directions[k] * 90.0, ch.velocity[1] - 15.0)
        world.step(1 / 60)
        for lift in world.kinematic_bodies:
            if abs(lift.position[0]) > 380.0:
                lift.velocity = (-lift.velocity[0], 0.0)
        movers = [*world.kinematic_bodies, *walkers]
        trace.append([(ch.position, ch.velocity, ch.on_floor, ch.on_wall, floor_of(ch, movers)) for ch in walkers]
                     + [lift.position for lift in world.kinematic_bodies])
    return trace


def floor_of(ch: Character, movers: list) -> tuple | None:
    """What ``ch`` stands on, the same way in two worlds: the segment, or which of ``movers`` it is."""
    floor = ch.floor_collider
    if floor is None:
        return None
    return floor.segment, [k for k, mover in enumerate(movers) if mover is floor.body]


def test_probes_answered_in_one_call_are_those_of_a_gather_and_a_first_hit(monkeypatch):
    """A probe answered in one compiled call (``World.lone_first_hit``: its last gather taken again, what moves
    near tested in the call) against the same world where every probe gathers and asks ``World.first_hit``: the
    same places, speeds and contacts every step, while both ways happen (something moves near some probes)."""
    answered, refused = [0], [0]
    lone_first_hit = World.lone_first_hit

    def counted(self, *arguments):
        answer = lone_first_hit(self, *arguments)
        answered[0] += answer is not None
        refused[0] += answer is None
        return answer

    monkeypatch.setattr(World, "lone_first_hit", counted)
    lone = walk(*walkers_and_lifts(), 240)
    monkeypatch.setattr(World, "lone_first_hit", lambda self, *arguments: None)
    gathered = walk(*walkers_and_lifts(), 240)
    assert lone == gathered
    assert answered[0] > 500 and refused[0] > 20
