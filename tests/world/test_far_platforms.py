"""Kinematic bodies far from every rigid body are no rows of the rigid step (issue 32): a platform that arrives
from far away wakes, pushes and carries crates, and carries characters, exactly as when every kinematic body
was a row of the step; events and positions bit for bit."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from engine.bodies import RigidBody
from engine.geometry import RoundedPolygon
from engine.world import KinematicBody, PlatformPath, World
from engine.world.rigid import RigidBodySet
from tests.character.levels import DT

CRATE = RoundedPolygon.box(16.0, 16.0, radius=1.0)
PLANK = RoundedPolygon.box(48.0, 8.0)
HERO = RoundedPolygon.box(10.0, 16.0, radius=2.0)


def _every_kinematic_body(self: RigidBodySet, kinematic, grow: float) -> np.ndarray:  # type: ignore[no-untyped-def]
    """As before: every kinematic body a row of the rigid step, near anything or not."""
    return np.arange(len(kinematic), dtype=np.int64)


def _pusher_scene() -> tuple[World, list[RigidBody], list[KinematicBody]]:
    """A crate asleep on the floor and a stack of two asleep on a ledge; a platform comes from 2,000 px away
    along the floor and pushes the lone crate; a lift comes up from far below under the ledge's stack and
    lifts it off; a third platform rides far above everything all along."""
    world = World(gravity=(0.0, -1800.0))
    world.add_chain([(-3000.0, 0.0), (3000.0, 0.0)], radius=2.0)
    world.add_chain([(900.0, 400.0), (1100.0, 400.0)], radius=2.0)
    crates = [world.add_body(RigidBody(CRATE, (0.0, 19.0))),
              world.add_body(RigidBody(CRATE, (1060.0, 419.0))), world.add_body(RigidBody(CRATE, (1060.0, 453.0)))]
    platforms = [
        world.add_kinematic(KinematicBody(PLANK, (-2000.0, 30.0), path=PlatformPath(
            [(-2000.0, 30.0), (400.0, 30.0)], 600.0, "pingpong"))),
        world.add_kinematic(KinematicBody(PLANK, (1080.0, -1500.0), path=PlatformPath(
            [(1080.0, -1500.0), (1080.0, 700.0)], 500.0, "pingpong"))),
        world.add_kinematic(KinematicBody(PLANK, (0.0, 5000.0), velocity=(40.0, 0.0))),
    ]
    return world, crates, platforms


def _rider_scene() -> tuple[World, list[RigidBody], list[KinematicBody]]:
    """A crate resting on a lift that starts far from the awake crates' floor and a hero standing on another
    platform far from every crate; both platforms on paths."""
    world = World(gravity=(0.0, -1800.0))
    world.add_chain([(-500.0, 0.0), (500.0, 0.0)], radius=2.0)
    crates = [world.add_body(RigidBody(CRATE, (0.0, 19.0))), world.add_body(RigidBody(CRATE, (3000.0, 127.0)))]
    crates[0].velocity = (150.0, 0.0)
    platforms = [
        world.add_kinematic(KinematicBody(PLANK, (3000.0, 100.0), path=PlatformPath(
            [(3000.0, 100.0), (3000.0, 600.0), (3400.0, 600.0)], 120.0, "loop"))),
        world.add_kinematic(KinematicBody(PLANK, (-4000.0, 100.0), path=PlatformPath(
            [(-4000.0, 100.0), (-3600.0, 300.0)], 150.0, "pingpong"))),
    ]
    world.add_character(HERO, (-4000.0, 100.0 + 8.0 + 16.0 + 2.5))
    return world, crates, platforms


def _run(make: Callable[[], tuple[World, list[RigidBody], list[KinematicBody]]], steps: int) -> list[tuple]:
    """Each step's events and every crate's, platform's and character's numbers."""
    world, crates, platforms = make()
    seen = []
    for _ in range(steps):
        world.step(DT)
        events = [(e.kind, id(e.a) if not isinstance(e.a, int) else e.a, id(e.b), e.normal) for e in world.events]
        seen.append((tuple((c.position, c.angle, c.velocity, c.sleeping) for c in crates),
                     tuple((p.position, p.velocity) for p in platforms),
                     tuple((ch.position, ch.velocity, ch.on_floor) for ch in world.characters),
                     len(events), tuple(e[0] for e in events), tuple(e[3] for e in events)))
    return seen


@pytest.mark.parametrize("make, steps", [(_pusher_scene, 400), (_rider_scene, 300)])
def test_far_platforms_act_exactly_as_when_every_one_was_a_row_of_the_step(
        make: Callable[[], tuple[World, list[RigidBody], list[KinematicBody]]], steps: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = _run(make, steps)
    monkeypatch.setattr(RigidBodySet, "_kinematic_near", _every_kinematic_body)
    before = _run(make, steps)
    assert now == before


def test_a_platform_from_far_away_wakes_pushes_and_lifts_sleeping_crates() -> None:
    world, crates, platforms = _pusher_scene()
    for _ in range(60):
        world.step(DT)
    assert all(c.sleeping for c in crates)  # (asleep long before anything arrives)
    start = [c.position for c in crates]
    woke, highest = [], [c.position[1] for c in crates]
    for _ in range(240):
        world.step(DT)
        woke.extend(e.b for e in world.events if e.kind == "begin" and e.a in platforms)
        highest = [max(y, c.position[1]) for y, c in zip(highest, crates)]
    assert crates[0] in woke and crates[0].position[0] > start[0][0] + 100.0  # (pushed along the floor)
    assert crates[1] in woke and highest[1] > start[1][1] + 100.0  # (lifted off the ledge)
    assert highest[2] > start[2][1] + 100.0  # (with the crate on top of it)


def test_a_crate_and_a_hero_ride_their_platforms_far_from_everything() -> None:
    world, crates, platforms = _rider_scene()
    hero = world.characters[0]
    for _ in range(240):
        world.step(DT)
    assert crates[1].position[1] - platforms[0].position[1] == pytest.approx(8.0 + 16.0 + 1.0, abs=1.5)
    assert crates[1].position[0] == pytest.approx(platforms[0].position[0], abs=1.0)
    assert hero.on_floor and hero.floor_collider is platforms[1].collider
    assert hero.position[0] - platforms[1].position[0] == pytest.approx(0.0, abs=4.0)  # (carried along, not left)


def test_the_kinematic_extent_holds_every_box_whatever_the_game_does() -> None:
    """The extent is grown by the bodies' moves between the steps that make it from their boxes: it must hold
    every box after whatever game code does between steps (a box outside it would be a platform the rigid step
    never meets)."""
    from engine.world.kinematic import KinematicSet

    rng = np.random.default_rng(7)
    kinematic = KinematicSet()
    for k in range(6):
        path = PlatformPath([(100.0 * k, 0.0), (100.0 * k + 300.0, 50.0), (100.0 * k, 400.0)], 200.0, "loop")
        kinematic.add(KinematicBody(PLANK, (100.0 * k, 0.0), velocity=(30.0 * k, -20.0), path=path if k % 2 else None))
    checked = grown = 0
    for step in range(600):
        body = kinematic.bodies[int(rng.integers(len(kinematic.bodies)))]
        action = int(rng.integers(40))
        if action == 0:
            body.position = (float(rng.uniform(-3000.0, 3000.0)), float(rng.uniform(-3000.0, 3000.0)))
        elif action == 1:
            body.velocity = (float(rng.uniform(-2000.0, 2000.0)), float(rng.uniform(-2000.0, 2000.0)))
        elif action == 2:
            body.angular_velocity = float(rng.choice([0.0, 3.0]))
        elif action == 3:
            body.path_distance = float(rng.uniform(0.0, 2000.0))
        elif action == 4:
            body.path = None if body.path else PlatformPath([(0.0, 0.0), (900.0, -300.0)], 700.0, "pingpong")
        elif action == 5:
            body.shape = RoundedPolygon.box(float(rng.uniform(10.0, 200.0)), 8.0)
        elif action == 6 and len(kinematic.bodies) > 2:
            kinematic.remove(body)
        elif action == 7:
            kinematic.add(KinematicBody(PLANK, (float(rng.uniform(-500.0, 500.0)), 0.0), velocity=(-400.0, 90.0)))
        kinematic.advance(DT)
        for _ in range(2):  # (asked by the rigid step before and after it moves bodies)
            min_x, min_y, max_x, max_y = kinematic.extent()
            boxes = kinematic.boxes()
            assert (boxes[:, 0] >= min_x).all() and (boxes[:, 1] >= min_y).all(), step
            assert (boxes[:, 2] <= max_x).all() and (boxes[:, 3] <= max_y).all(), step
            exact = (boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max())
            grown += exact != (min_x, min_y, max_x, max_y)
            checked += 1
    assert grown > checked // 10  # (the grown extent was what was checked in many steps, not the exact one)
