"""A path follower for any object: moves a sensor (a hazard, a pickup, a trigger) or anything else with a
settable ``position`` along a :class:`~engine.world.PlatformPath`, one step at a time with the stage.

Kinematic bodies follow their own ``path`` (the world moves them and carries their riders); this is for
the things the world does not move: a saw blade's hazard area on a track, a coin that circles, a trigger that
patrols. Units: pixels and seconds, engine frame (y up).
"""

from __future__ import annotations

from typing import Any

from ..platformer import PlatformerInput
from ..types import WorldError
from ..world import PlatformPath
from .base import GameObject, StageView

__all__ = ["PathFollower"]


class PathFollower(GameObject):
    """Moves ``thing`` along ``path`` at the path's speed, starting ``start`` px along it (where it is put at
    once). Add it to a stage (``stage.add(PathFollower(hazard, path))``): it moves before each world step."""

    def __init__(self, thing: Any, path: PlatformPath, start: float = 0.0) -> None:
        if not hasattr(thing, "position"):
            raise WorldError(f"PathFollower needs a thing with a position, got {thing!r}")
        if not isinstance(path, PlatformPath):
            raise WorldError(f"PathFollower needs a PlatformPath, got {path!r}")
        self.thing = thing
        self.path = path
        self.distance = float(start)
        """How far along the path (px) the thing is; it grows by ``path.speed * dt`` each step."""
        thing.position = path.position_at(self.distance)

    def before_step(self, stage: StageView, buttons: PlatformerInput, dt: float) -> None:
        self.distance += self.path.speed * dt
        self.thing.position = self.path.position_at(self.distance)
