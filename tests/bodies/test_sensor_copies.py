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
