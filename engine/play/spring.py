"""Springs: launch what touches them to a set height (px), for characters and crates alike."""

from __future__ import annotations

import math
from typing import Any

from ..bodies import RigidBody, Sensor
from ..character import Character
from ..geometry import RoundedPolygon
from .rules import GameEvent, object_id
from .base import GameObject, StageView, area_of, number_in

__all__ = ["Spring", "launch_speed"]


def launch_speed(height: float, gravity: float, dt: float) -> float:
    """The upward speed (px/s) that makes a fixed-step integrator (velocity first, then position, steps of
    ``dt`` s under ``gravity`` px/s^2) top out exactly ``height`` px above where it starts. The continuous
    answer sqrt(2 g h) overshoots by about half a step's travel (a few px at 60 Hz)."""
    if gravity <= 0.0 or height <= 0.0:
        return 0.0

    def apex(v0: float) -> float:
        steps = math.floor(v0 / (gravity * dt))  # the last step that still rises
        return dt * (steps * v0 - gravity * dt * steps * (steps + 1) / 2.0)

    low, high = 0.0, 2.0 * math.sqrt(2.0 * gravity * height) + gravity * dt
    for _ in range(60):
        mid = 0.5 * (low + high)
        if apex(mid) < height:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


class Spring(GameObject):
    """An area that launches any character or crate entering it straight up, to ``height`` px above where it
    was launched (without the player holding jump, whose lighter apex gravity carries a little higher).

    Tiled: class ``Spring``, a rectangle or a tile object; properties ``height`` (px, default 160).
    """

    def __init__(self, world: Any, shape: RoundedPolygon, position: tuple[float, float], height: float = 160.0,
                 user_data: Any = None) -> None:
        self.world = world
        self.height = number_in(height, "Spring height", "px", 0.0, 1e6)
        self.user_data = user_data
        self.sensor = world.add_sensor(Sensor(shape, position, tag="spring", user_data=self))

    @classmethod
    def from_object(cls, obj: Any, world: Any) -> Spring:
        """The ``Spring`` factory for ``Level.build_world``."""
        shape = area_of(obj, "Spring", "an area (rectangle or tile)")
        return cls(world, shape, obj.position, obj.properties.get("height", 160.0), user_data=obj)

    def after_step(self, stage: StageView, dt: float) -> None:
        for event in self.world.events:
            if event.kind == "begin" and event.a is self.sensor:
                self.launch(stage, event.b, dt)

    def launch(self, stage: StageView, thing: Any, dt: float) -> None:
        if isinstance(thing, Character):
            controller = stage.controller_of(thing)
            if controller is None:
                return
            controller.launch(launch_speed(self.height, controller.gravity, dt))
        elif isinstance(thing, RigidBody):
            gravity = math.hypot(*self.world.gravity) * thing.gravity_scale
            substep = dt / self.world.physics.substeps
            thing.velocity = (thing.velocity[0], launch_speed(self.height, gravity, substep))
            thing.angular_velocity = 0.0
            thing.wake()
        else:
            return
        stage.rules.emit(GameEvent("spring", self, {"id": object_id(self), "y": thing.position[1]}))
