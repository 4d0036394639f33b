"""A world's copy (pickled, as the reach search copies worlds) keeps its sensors' overlaps: a body already in
a sensor makes no second ``begin`` in the copy, and leaving makes an ``end``."""

from __future__ import annotations

import copy
import pickle

from engine.bodies import RigidBody, Sensor
from engine.geometry import RoundedPolygon
from engine.world import World
from tests.character.levels import DT


def _world_with_a_crate_in_a_sensor() -> tuple[World, Sensor, RigidBody]:
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    sensor = world.add_sensor(Sensor(RoundedPolygon.box(40, 40), (0.0, 20.0), tag="zone"))
    crate = world.add_body(RigidBody(RoundedPolygon.box(8, 8), (0.0, 12.0)))
    world.step(DT)
    assert [e.kind for e in world.events if e.a is sensor] == ["begin"]
    return world, sensor, crate


def test_a_copied_world_remembers_what_is_inside_its_sensors():
    for make_copy in (copy.deepcopy, lambda w: pickle.loads(pickle.dumps(w))):
        world, _, _ = _world_with_a_crate_in_a_sensor()
        twin = make_copy(world)
        sensor, crate = twin.sensors[0], twin.bodies[0]
        twin.step(DT)
        assert not [e for e in twin.events if e.a is sensor]  # (still inside: no second begin)
        crate.position = (300.0, 12.0)
        twin.step(DT)
        assert [(e.kind, e.b) for e in twin.events if e.a is sensor] == [("end", crate)]


def test_a_copied_world_steps_exactly_as_the_original_does():
    """A search copies worlds to try moves (``ledgekit check --reach``): a copy must go on exactly as the
    original would, crates, platforms and characters together, events included."""
    from engine.world import KinematicBody
    from tests.character.levels import HERO, standing_y

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (-100.0, 30.0), velocity=(40.0, 0.0)))
    crates = [world.add_body(RigidBody(RoundedPolygon.box(8, 8), (x, 60.0))) for x in (-100.0, 0.0, 5.0)]
    first = world.add_character(HERO, (100.0, standing_y(-2.0)))
    second = world.add_character(HERO, (160.0, standing_y(-2.0)))
    for _ in range(40):
        first.velocity, second.velocity = (60.0, first.velocity[1]), (-60.0, second.velocity[1])
        world.step(DT)
    twin = pickle.loads(pickle.dumps(world))

    def run(w: World) -> list:
        seen = []
        a, b = w.characters
        for _ in range(60):
            a.velocity, b.velocity = (60.0, a.velocity[1]), (-60.0, b.velocity[1])
            w.step(DT)
            seen.append([(e.kind, type(e.a).__name__, type(e.b).__name__) for e in w.events])
        return seen + [[c.position for c in w.bodies], [c.position for c in w.characters],
                       [k.position for k in w.kinematic_bodies]]

    assert run(twin) == run(world)
    assert lift.position[0] > -100.0 and crates
