"""Doors and switches: a door is solid until a switch (pressed by a character or a crate) opens it."""

from __future__ import annotations

from typing import Any

from ..bodies import Sensor
from ..geometry import RoundedPolygon
from ..types import WorldError
from ..world import KinematicBody
from .rules import GameEvent, object_id
from .base import GameObject, StageView, area_of, number_in

__all__ = ["Door", "Switch"]


class Door(GameObject):
    """A solid block (a kinematic body) that slides up out of the way, by its own height at ``speed`` px/s,
    when opened.

    Tiled: class ``Door``, a rectangle or a tile object; properties ``speed`` (px/s, 120).
    """

    def __init__(self, world: Any, shape: RoundedPolygon, position: tuple[float, float], speed: float = 120.0,
                 user_data: Any = None) -> None:
        self.world = world
        self.speed = number_in(speed, "Door speed", "px/s", 0.0, 1e5)
        self.user_data = user_data
        self.body = world.add_kinematic(KinematicBody(shape, position, user_data=self))
        self.closed_y = float(position[1])
        self.travel = shape.local_aabb.height
        self.opening = False

    @classmethod
    def from_object(cls, obj: Any, world: Any) -> Door:
        """The ``Door`` factory for ``Level.build_world``."""
        shape = area_of(obj, "Door", "a rectangle or a tile object")
        return cls(world, shape, obj.position, obj.properties.get("speed", 120.0), user_data=obj)

    @property
    def is_open(self) -> bool:
        return self.body.position[1] >= self.closed_y + self.travel - 1e-6

    def open(self, stage: StageView) -> None:
        if self.opening or self.is_open:
            return
        self.opening = True
        self.body.velocity = (0.0, self.speed)
        stage.rules.emit(GameEvent("door", self, {"id": object_id(self)}))

    def before_step(self, stage: StageView, buttons: Any, dt: float) -> None:
        if self.opening:
            left = self.closed_y + self.travel - self.body.position[1]
            if left <= 1e-6:
                self.body.velocity = (0.0, 0.0)
                self.opening = False
            else:
                self.body.velocity = (0.0, min(self.speed, left / dt))  # stop exactly at the top


class Switch(GameObject):
    """An area that opens its ``door`` (a :class:`Door`, or the Tiled id of the ``Door`` object) when a
    character or a crate enters it.

    Tiled: class ``Switch``, any area; property ``door`` (object reference to a ``Door``).
    """

    def __init__(self, world: Any, shape: RoundedPolygon, position: tuple[float, float], door: Any,
                 user_data: Any = None) -> None:
        self.world = world
        self.door = door
        self.user_data = user_data
        self.pressed = False
        self.sensor = world.add_sensor(Sensor(shape, position, tag="switch", user_data=self))

    @classmethod
    def from_object(cls, obj: Any, world: Any) -> Switch:
        """The ``Switch`` factory for ``Level.build_world`` (the door is found on the stage by its id)."""
        target = obj.properties.get("door")
        door_id = getattr(target, "id", target)
        if not isinstance(door_id, int) or door_id <= 0:
            raise WorldError(f"Switch object {obj.id}: property door must reference a Door object, got {target!r}")
        return cls(world, area_of(obj, "Switch", "an area"), obj.position, door_id, user_data=obj)

    def _door(self, stage: StageView) -> Door | None:
        if isinstance(self.door, Door):
            return self.door
        for door in stage.find(Door):
            if object_id(door) == self.door:
                self.door = door
                return door
        return None

    def after_step(self, stage: StageView, dt: float) -> None:
        if self.pressed:
            return
        for event in self.world.events:
            if event.kind == "begin" and event.a is self.sensor:
                door = self._door(stage)
                if door is None:
                    raise WorldError(f"Switch {object_id(self)}: its door {self.door!r} is not on the stage")
                self.pressed = True
                stage.rules.emit(GameEvent("switch", self, {"id": object_id(self)}))
                door.open(stage)
                return
