"""Small shared types of the world: body kinds, colliders and the world's error.

Kept apart from :mod:`engine.world` so that body modules can use them without importing the world.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import math
from collections.abc import Iterable, Sequence

from .geometry import AABB, RoundedPolygon, Transform, Vec2

__all__ = ["BodyKind", "Collider", "MovingBody", "WorldError", "require_nonnegative"]


class WorldError(ValueError):
    """Bad input to the world (names the bad value)."""


def require_nonnegative(config: object, names: Iterable[str]) -> None:
    """The configs' shared check: raise :class:`WorldError` naming the first of ``config``'s fields in
    ``names`` that is not a finite number >= 0."""
    for name in names:
        value = getattr(config, name)
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
            raise WorldError(f"{type(config).__name__}.{name} must be a finite number >= 0, got {value!r}")


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


class MovingBody:
    """What kinematic and rigid bodies share: a shape placed by ``position`` and ``angle``, and the
    transform they had before the last step (riders and one-way checks use that motion)."""

    shape: RoundedPolygon
    position: Vec2
    angle: float
    previous_transform: Transform
    collider: Collider
    name: str

    @property
    def transform(self) -> Transform:
        return Transform(self.position, self.angle)

    def aabb(self) -> AABB:
        return self.shape.aabb(self.transform)

    def displacement_of(self, point: Sequence[float]) -> Vec2:
        """How far a point attached to the body moved during the last step (pixels, rotation included)."""
        local = self.previous_transform.apply_inverse(point)
        nx, ny = self.transform.apply(local)
        return (nx - point[0], ny - point[1])
