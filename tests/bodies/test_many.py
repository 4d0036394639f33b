"""Worlds with many kinematic bodies and sensors (issue 32): the array-backed kinematic bodies and the sorted
sensor look-up give the same answers as testing every object, whatever the game adds, removes or moves."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.bodies import RigidBody, Sensor
from engine.geometry import RoundedPolygon
from engine.geometry.broadphase import touching_pairs
from engine.types import WorldError
from engine.world import KinematicBody, PlatformPath, World
from tests.character.levels import DT

CRATE = RoundedPolygon.box(16, 16, radius=1)
PLANK = RoundedPolygon.box(60, 6)


def test_kinematic_bodies_move_by_their_own_speeds_after_others_are_removed():
    world = World()
    bodies = [world.add_kinematic(KinematicBody(PLANK, (100.0 * k, 50.0), velocity=(k, -k))) for k in range(6)]
    world.remove(bodies[1])
    world.remove(bodies[4])
    late = world.add_kinematic(KinematicBody(PLANK, (0.0, 0.0), angle=0.5, angular_velocity=2.0))
    for _ in range(60):
        world.step(DT)
    for k in (0, 2, 3, 5):
        assert bodies[k].position == pytest.approx((100.0 * k + k * 60 * DT, 50.0 - k * 60 * DT))
        assert bodies[k].velocity == (k, -k)
    assert late.angle == pytest.approx(0.5 + 2.0)
    assert bodies[1].position == (100.0, 50.0)  # (removed before it moved: it keeps its numbers)
    bodies[1].position = (7.0, 8.0)  # (out of the world, still a body of its own)
    assert bodies[1].position == (7.0, 8.0)
    assert world.kinematic_bodies == (bodies[0], bodies[2], bodies[3], bodies[5], late)


def test_a_kinematic_body_belongs_to_one_world_and_refuses_bad_numbers_naming_itself():
    body = KinematicBody(PLANK, (0.0, 0.0), name="lift 3")
    World().add_kinematic(body)
    with pytest.raises(WorldError, match="lift 3.*another world"):
        World().add_kinematic(body)
    with pytest.raises(WorldError, match="lift 3.*velocity"):
        body.velocity = (float("nan"), 0.0)
    with pytest.raises(WorldError, match="lift 3.*angle"):
        body.angle = "steep"


def test_path_bodies_and_velocity_bodies_side_by_side_follow_their_own_rules():
    world = World()
    path = PlatformPath([(0.0, 0.0), (100.0, 0.0)], speed=50.0, mode="pingpong")
    on_path = world.add_kinematic(KinematicBody(PLANK, (0.0, 0.0), path=path))
    free = world.add_kinematic(KinematicBody(PLANK, (0.0, 300.0), velocity=(10.0, 0.0)))
    for _ in range(180):  # 3 s: 150 px along the path, there and half way back
        world.step(DT)
    assert on_path.position[0] == pytest.approx(50.0, abs=1e-6)
    assert on_path.velocity[0] == pytest.approx(-50.0, abs=1e-6)
    assert free.position == pytest.approx((30.0, 300.0))


def test_a_crate_rides_a_platform_among_many_far_ones():
    world = World()
    for k in range(200):  # far above, out of everyone's reach
        world.add_kinematic(KinematicBody(PLANK, (k * 100.0, 5000.0), velocity=(30.0, 0.0)))
    lift = world.add_kinematic(KinematicBody(PLANK, (0.0, 100.0), velocity=(0.0, 30.0)))
    crate = world.add_body(RigidBody(CRATE, (0.0, 100.0 + 6.0 + 16.0 + 1.0)))  # (box() takes half sizes)
    for _ in range(120):
        world.step(DT)
    assert crate.position[1] - lift.position[1] == pytest.approx(6.0 + 16.0, abs=1.0)
    assert crate.position[0] == pytest.approx(0.0, abs=0.5)


@pytest.mark.parametrize("count, kill_zones", [(3, False), (60, True)])  # (a few bodies and no wide sensor: looked
# up body by body first)
def test_the_sorted_sensor_look_up_finds_what_testing_every_sensor_finds(count: int, kill_zones: bool):
    rng = random.Random(7)
    world = World()
    sensors = []
    for k in range(400):
        width = rng.choice([8.0, 16.0, 40.0, 2000.0 if k % 97 == 0 and kill_zones else 24.0])  # a few kill zones
        sensors.append(world.add_sensor(Sensor(RoundedPolygon.box(width, 16.0), (rng.uniform(-1000, 1000),
                                                                                rng.uniform(-200, 200)))))
    crates = [world.add_body(RigidBody(CRATE, (rng.uniform(-1000, 1000), rng.uniform(-200, 200))))
              for _ in range(count)]
    world.gravity = (0.0, 0.0)
    for step in range(30):
        if step == 10:
            sensors[3].position = (crates[0].position[0], crates[0].position[1])  # game code moves one onto a crate
        if step == 20:
            world.remove(sensors[5])
        for crate in crates:
            crate.velocity = (rng.uniform(-300, 300), rng.uniform(-300, 300))
        world.step(DT)
        sensor_boxes = np.array([s.aabb() for s in world.sensors])
        crate_boxes = np.array([c.aabb() for c in crates])
        expected = set(zip(*(index.tolist() for index in touching_pairs(sensor_boxes, crate_boxes))))
        inside = set()
        for i, sensor in enumerate(world.sensors):
            for j, crate in enumerate(crates):
                if (i, j) in expected and _overlap(sensor, crate):
                    inside.add((id(sensor), id(crate)))
        reported = _inside_after_events(world, step)
        assert reported == inside, step


_SEEN: dict[int, set[tuple[int, int]]] = {}


def _inside_after_events(world: World, step: int) -> set[tuple[int, int]]:
    """Which (sensor, body) pairs overlap after this step, as the begin / end events since the start tell it."""
    seen = _SEEN.setdefault(id(world), set())
    for event in world.events:
        if isinstance(event.a, Sensor):
            key = (id(event.a), id(event.b))
            if event.kind == "begin":
                seen.add(key)
            elif event.kind == "end":
                seen.discard(key)
    alive = {id(s) for s in world.sensors}
    return {key for key in seen if key[0] in alive}


def _overlap(sensor: Sensor, body: RigidBody) -> bool:
    from engine.geometry import collide

    m = collide(sensor.shape, sensor.transform, body.shape, body.transform)
    return m is not None and m.separation < 0.0


def test_adding_a_kinematic_body_twice_is_refused():
    world = World()
    body = world.add_kinematic(KinematicBody(PLANK, (0.0, 0.0), name="door"))
    with pytest.raises(WorldError, match="door.*already in this world"):
        world.add_kinematic(body)
    world.remove(body)
    World().add_kinematic(body)  # (out of the first world: free to join another)


def test_a_path_that_is_not_a_platform_path_is_refused_naming_the_body():
    with pytest.raises(WorldError, match="ferry.*PlatformPath"):
        KinematicBody(PLANK, (0.0, 0.0), path=[(0.0, 0.0), (10.0, 0.0)], name="ferry")  # type: ignore[arg-type]
