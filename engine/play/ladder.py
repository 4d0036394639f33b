"""Ladders: an area the player climbs with up/down, with a one-way top to stand on and climb down through."""

from __future__ import annotations

from typing import Any

from ..bodies import Sensor
from ..geometry import RoundedPolygon, Transform, collide
from ..platformer import PlatformerInput
from .rules import GameEvent, object_id
from .base import GameObject, StageView, area_of, number_in

__all__ = ["Ladder"]


class Ladder(GameObject):
    """A climbable area (``shape`` around ``position``). Up or down inside it grabs the ladder (no gravity,
    ``speed`` px/s up and down); a jump lets go; its top is a one-way platform (``top_thickness`` px
    radius) that the player stands on and climbs down through by holding down.

    Tiled: class ``Ladder``, a rectangle; properties ``speed`` (px/s, default 120).
    """

    def __init__(self, world: Any, shape: RoundedPolygon, position: tuple[float, float], speed: float = 120.0,
                 top_thickness: float = 2.0, user_data: Any = None) -> None:
        self.world = world
        self.speed = number_in(speed, "Ladder speed", "px/s", 0.0, 1e5)
        self.user_data = user_data
        self.sensor = world.add_sensor(Sensor(shape, position, tag="ladder", user_data=self))
        box = self.sensor.aabb()
        self.top = box.max_y - top_thickness  # the segment's outer surface is the area's top edge
        self.top_segments = world.add_segments([(box.min_x, self.top)], [(box.max_x, self.top)], top_thickness,
                                               one_way=(0.0, 1.0), user_data=self)

    @classmethod
    def from_object(cls, obj: Any, world: Any) -> Ladder:
        """The ``Ladder`` factory for ``Level.build_world`` (``obj``: a :class:`~engine.LevelObject`)."""
        shape = area_of(obj, "Ladder", "a rectangle (an area)")
        return cls(world, shape, obj.position, obj.properties.get("speed", 120.0), user_data=obj)

    def holds(self, character: Any) -> bool:
        """Whether ``character`` overlaps the ladder's area."""
        if not self.sensor.aabb().grown(1e-6).overlaps(character.aabb()):
            return False  # (boxes apart: the shapes are too; most frames the player is nowhere near this ladder)
        m = collide(self.sensor.shape, self.sensor.transform, character.shape, Transform(character.position))
        return m is not None and m.separation < 0.0

    def _on_top(self, character: Any) -> bool:
        floor = character.floor_collider
        return character.on_floor and floor is not None and floor.segment in self.top_segments

    def before_step(self, stage: StageView, buttons: PlatformerInput, dt: float) -> None:
        controller, player = stage.controller, stage.player
        if controller.climbing:
            if not self.holds(player) and not self._climbing_elsewhere(stage):
                controller.stop_climbing()
            elif player.on_floor and buttons.down and not self._on_top(player):
                controller.stop_climbing()  # climbed down to the ground
            return
        if self._on_top(player) and buttons.down:
            player.drop_through()  # climb down through the top
            self._grab(stage)
        elif buttons.up and self.holds(player) and not self._on_top(player):
            self._grab(stage)

    def _grab(self, stage: StageView) -> None:
        stage.controller.start_climbing(self.speed)
        stage.rules.emit(GameEvent("climb", self, {"id": object_id(self)}))

    def _climbing_elsewhere(self, stage: StageView) -> bool:
        """Another ladder holds the player (ladders side by side or stacked)."""
        return any(other is not self and other.holds(stage.player) for other in stage.find(Ladder))
