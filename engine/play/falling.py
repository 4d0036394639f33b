"""Falling platforms: stand on one and it drops a moment later; it is back in place when the player respawns."""

from __future__ import annotations

from typing import Any

from ..geometry import RoundedPolygon
from ..world import KinematicBody
from .rules import GameEvent, object_id
from .base import GameObject, StageView, area_of, number_in

__all__ = ["FallingPlatform"]


class FallingPlatform(GameObject):
    """A kinematic platform that starts falling ``delay`` s after a character first stands on it, speeding
    up under gravity to ``max_speed`` px/s, and returns to its place when the player respawns.

    Tiled: class ``FallingPlatform``, a rectangle or a tile object; properties ``delay`` (s, 0.5),
    ``one_way`` (bool, false).
    """

    def __init__(self, world: Any, shape: RoundedPolygon, position: tuple[float, float], delay: float = 0.5,
                 one_way: bool = False, max_speed: float = 900.0, user_data: Any = None) -> None:
        self.world = world
        self.delay = number_in(delay, "FallingPlatform delay", "seconds", 0.0, 1e4, low_inclusive=True)
        self.max_speed = float(max_speed)
        self.user_data = user_data
        self.start = (float(position[0]), float(position[1]))
        self.body = world.add_kinematic(KinematicBody(shape, position, one_way=(0.0, 1.0) if one_way else None,
                                                      user_data=self))
        self.stood_for = 0.0
        self.falling = False

    @classmethod
    def from_object(cls, obj: Any, world: Any) -> FallingPlatform:
        """The ``FallingPlatform`` factory for ``Level.build_world``."""
        shape = area_of(obj, "FallingPlatform", "a rectangle or a tile")
        return cls(world, shape, obj.position, obj.properties.get("delay", 0.5),
                   bool(obj.properties.get("one_way", False)), user_data=obj)

    def joined(self, stage: StageView) -> None:
        stage.rules.on("respawn", lambda event: self.reset())

    def reset(self) -> None:
        """Back in place, still, waiting for someone to stand on it."""
        self.body.position = self.start
        self.body.velocity = (0.0, 0.0)
        self.body.previous_transform = self.body.transform
        self.stood_for = 0.0
        self.falling = False

    def after_step(self, stage: StageView, dt: float) -> None:
        if self.falling:
            gravity = abs(self.world.gravity[1])
            vy = max(self.body.velocity[1] - gravity * dt, -self.max_speed)
            if self.body.position[1] < -10_000.0:
                vy = 0.0  # far below the map: rest there until reset
            self.body.velocity = (0.0, vy)
            return
        if self.stood_for > 0.0 or self._stood_on():
            self.stood_for += dt
            if self.stood_for >= self.delay:
                self.falling = True
                stage.rules.emit(GameEvent("platform_fall", self, {"id": object_id(self)}))

    def _stood_on(self) -> bool:
        """Whether a character stands on the platform now (a loop over the characters, every step, for every
        platform: cheaper than ``any`` over a generator)."""
        body = self.body
        for ch in self.world.characters:
            if ch.platform is body and ch.on_floor:
                return True
        return False
