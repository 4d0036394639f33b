"""A level's few moving things take the short paths (issue 32, a game frame's glue): a gather tests the kinematic
bodies' and the characters' boxes in one call however few there are; the character touch pairs of a handful of
characters, and the sensors near them, are found box by box in Python instead of by array calls. Each short path
answers exactly what the long one does (the same pairs, in the same order) and what the boxes say."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import Character, CollisionFilter, KinematicBody, RoundedPolygon, World
from engine.bodies import Sensor
from engine.geometry import AABB
from engine.world import PlatformPath, sensors, touches
from engine.world.sensors import _SensorIndex
from tests.character.levels import DT


def _swept_box(body: KinematicBody) -> AABB:
    """The box a gather tests for a kinematic body: where it is, grown over where it was before the step."""
    now, before = body.shape.aabb(body.transform), body.shape.aabb(body.previous_transform)
    return AABB(min(now.min_x, before.min_x), min(now.min_y, before.min_y),
                max(now.max_x, before.max_x), max(now.max_y, before.max_y))


def test_a_few_characters_and_platforms_are_gathered_exactly_where_they_are():
    """Three characters and two lifts (fewer than a crowd, all found through one box test): gathers between and
    during steps return the lifts whose swept boxes touch the box, then the characters whose boxes do, in the
    world's order, after moves, a teleport, a filter change and a lift the game moved."""
    world = World()
    world.add_segments([(-500.0, 0.0)], [(500.0, 0.0)], radius=1.0)
    lifts = [world.add_kinematic(KinematicBody(RoundedPolygon.box(30, 6), (x, 40.0), path=PlatformPath(
        [(x, 40.0), (x, 160.0)], 90.0, "pingpong"))) for x in (-100.0, 100.0)]
    heroes = [world.add_character(RoundedPolygon.box(8, 12), (x, 20.0)) for x in (-100.0, 0.0, 100.0)]

    def expected(box, query=None):
        query = query or CollisionFilter()
        return ([lift for lift in lifts if _swept_box(lift).overlaps(box) and query.touches(lift.filter)]
                + [ch for ch in heroes if ch.aabb().overlaps(box) and query.touches(ch.filter)])

    def found(box, query=None):
        return [n.collider.body for n in world.gather(box, filter=query) if n.collider.body is not None]

    boxes = [AABB(-130, 0, -70, 200), AABB(-20, 0, 20, 40), AABB(-500, -50, 500, 300), AABB(60, 150, 140, 170)]
    for step in range(40):
        for ch in heroes:
            ch.velocity = (40.0 if step % 20 < 10 else -40.0, -60.0)
        world.step(DT)
        for box in boxes:
            assert found(box) == expected(box)
    assert any(len(found(box)) >= 3 for box in boxes)
    heroes[1].teleport((100.0, 150.0))
    assert heroes[1] in found(boxes[3]) and found(boxes[3]) == expected(boxes[3])
    heroes[2].filter = CollisionFilter(group=-3)
    apart = CollisionFilter(group=-3)
    assert heroes[2] not in found(boxes[2], apart) and found(boxes[2], apart) == expected(boxes[2], apart)
    lifts[0].position = (0.0, 20.0)  # (the game moves a lift between steps)
    assert lifts[0] in found(boxes[1])


def _characters(rng: random.Random, count: int) -> list[Character]:
    world = World()
    made = []
    for _ in range(count):
        shape = RoundedPolygon.box(rng.uniform(4, 20), rng.uniform(4, 20), radius=rng.choice([0.0, 2.0]))
        made.append(world.add_character(shape, (rng.uniform(0, 200), rng.uniform(0, 120))))
    return made


@pytest.mark.parametrize("seed", range(6))
def test_touch_pairs_of_a_few_characters_are_the_sweeps_pairs(seed, monkeypatch):
    """The pairs of up to 16 characters paired in Python are the compiled sweep's, in the same order (some
    characters' grown boxes overlap, most do not)."""
    rng = random.Random(seed)
    characters = _characters(rng, 12)
    margins = [ch.config.touch_margin + touches.SLACK for ch in characters]
    few = touches._overlapping_pairs(characters, margins)
    monkeypatch.setattr(touches, "_FEW", 0)
    swept = touches._overlapping_pairs(characters, margins)
    assert few == swept
    assert len(few) >= 3


@pytest.mark.parametrize("seed", range(6))
def test_sensors_near_a_few_boxes_are_those_the_arrays_find(seed, monkeypatch):
    """Sensors near up to 16 boxes, found box by box, are the pairs the array search finds: narrow sensors and
    wide ones (a kill zone along the level), boxes touching a sensor's edge exactly, ordered by sensor then box."""
    rng = random.Random(seed)
    placed = [Sensor(RoundedPolygon.box(rng.uniform(4, 16), rng.uniform(4, 16)), (rng.uniform(0, 400), rng.uniform(0, 100)))
              for _ in range(40)]
    placed += [Sensor(RoundedPolygon.box(2000, 10), (0.0, rng.uniform(0, 100))) for _ in range(2)]
    index = _SensorIndex(placed, (0, 0))
    assert len(index.wide) == 2
    boxes = []
    for _ in range(10):
        x, y = rng.uniform(-20, 420), rng.uniform(-20, 120)
        boxes.append((x, y, x + rng.uniform(5, 40), y + rng.uniform(5, 40)))
    edge = placed[0].aabb()
    boxes.append((edge.max_x, edge.min_y, edge.max_x + 10.0, edge.max_y))  # (touching its right side exactly)
    others = np.array(boxes, dtype=np.float64)
    few = index.touching(others)
    monkeypatch.setattr(sensors, "_FEW", 0)
    arrays = index.touching(others)
    assert few == arrays
    assert (0, len(boxes) - 1) in set(zip(*few))
    assert len(few[0]) >= 5
