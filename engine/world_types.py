"""Small shared types of the world: body kinds, colliders and the world's error.

Kept apart from :mod:`engine.world` so that body modules can use them without importing the world.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .geometry import Vec2

__all__ = ["BodyKind", "Collider", "WorldError"]


class WorldError(ValueError):
    """Bad input to the world (names the bad value)."""


class BodyKind(Enum):
    STATIC = "static"
    KINEMATIC = "kinematic"
    DYNAMIC = "dynamic"


@dataclass(frozen=True, eq=False)
class Collider:
    """Something a query can report: a static segment, or a body's shape.

    ``one_way`` is ``None`` for solid colliders, else the unit direction (world frame) that a character
    must come from to be stopped. ``body`` is the owning kinematic body, rigid body or character, ``None``
    for static geometry; ``segment`` is the static segment's index, else -1.
    """

    kind: BodyKind
    one_way: Vec2 | None = None
    body: Any = None
    segment: int = -1

    @property
    def velocity(self) -> Vec2:
        """Velocity of the collider's body (px/s); zero for static geometry."""
        return self.body.velocity if self.body is not None else (0.0, 0.0)
