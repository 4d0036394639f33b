"""Kinematic bodies: things the game moves, not forces (moving platforms, doors, lifts), and their paths.

Units: pixels, seconds, radians (counter-clockwise); y-up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..geometry import RoundedPolygon, Transform, Vec2
from ..types import DEFAULT_FILTER, BodyKind, Collider, CollisionFilter, MovingBody, Tally, WorldError, unit_or_none

__all__ = ["KinematicBody", "PlatformPath"]

_PLACEMENT = frozenset({"position", "angle", "shape", "previous_transform"})
"""The fields of a kinematic body that place it (see :data:`PLACEMENTS`)."""

PLACEMENTS = Tally()
"""How many times any kinematic body's placement (position, angle, shape or previous transform) has been set: a
world keeps its kinematic bodies' boxes while this stays the same (every character's every move asks which of
them are near)."""


def _pair(value: Any, body: object, what: str = "position", unit: str = "px") -> Vec2:
    """A position or velocity as a tuple of two finite floats; a bad one (not finite either) is named with the
    body."""
    try:
        x, y = value
        pair = (float(x), float(y))
    except (TypeError, ValueError):
        pair = (math.nan, math.nan)
    if not (math.isfinite(pair[0]) and math.isfinite(pair[1])):
        raise WorldError(f"{_name(body)}: {what} must be two numbers ({unit}), got {value!r}")
    return pair


def _number(value: Any, body: object, what: str, unit: str) -> float:
    """An angle or a spin as a finite float; a bad one is named with the body."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number):
        raise WorldError(f"{_name(body)}: {what} must be a number ({unit}), got {value!r}")
    return number


def _name(body: object) -> str:
    return getattr(body, "name", "") or "a kinematic body"


@dataclass
class PlatformPath:
    """A path for a kinematic body: ``points`` (world, pixels) visited in order at ``speed`` px/s.
    ``mode`` is ``"loop"`` (back to the first point after the last) or ``"pingpong"`` (back and forth)."""

    points: Sequence[Vec2]
    speed: float
    mode: str = "loop"

    def __post_init__(self) -> None:
        pts = [tuple(map(float, p)) for p in self.points]
        if len(pts) < 2:
            raise WorldError(f"PlatformPath needs at least 2 points, got {len(pts)}")
        if not all(math.isfinite(c) for p in pts for c in p):
            raise WorldError(f"PlatformPath points must be finite, got {self.points!r}")
        if not (math.isfinite(self.speed) and self.speed > 0):
            raise WorldError(f"PlatformPath speed must be a positive number of px/s, got {self.speed!r}")
        if self.mode not in ("loop", "pingpong"):
            raise WorldError(f"PlatformPath mode must be 'loop' or 'pingpong', got {self.mode!r}")
        self.points = pts  # type: ignore[assignment]
        legs = self._legs()
        self._lengths = [math.dist(a, b) for a, b in legs]
        self.length = sum(self._lengths)
        if self.length <= 0.0:
            raise WorldError("PlatformPath has zero length: all its points coincide")

    def _legs(self) -> list[tuple[Vec2, Vec2]]:
        pts = list(self.points)
        if self.mode == "loop":
            return list(zip(pts, pts[1:] + pts[:1]))
        return list(zip(pts, pts[1:])) + list(zip(pts[::-1], pts[::-1][1:]))

    def position_at(self, distance: float) -> Vec2:
        """Point at ``distance`` pixels along the (repeating) path."""
        s = distance % self.length
        for (a, b), length in zip(self._legs(), self._lengths):
            if s <= length and length > 0:
                f = s / length
                return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))
            s -= length
        return tuple(self.points[0])  # type: ignore[return-value]


@dataclass(eq=False)
class KinematicBody(MovingBody):
    """A body moved by the game, not by forces: moving platforms, doors, lifts.

    Set ``velocity`` (px/s) and ``angular_velocity`` (rad/s), or give a ``path``. The world moves it at
    the start of each step, before characters move, and keeps its previous transform so that riders and
    one-way checks can use the motion of this step.
    """

    shape: RoundedPolygon
    position: Vec2
    angle: float = 0.0
    velocity: Vec2 = (0.0, 0.0)
    angular_velocity: float = 0.0
    one_way: Vec2 | None = None
    path: PlatformPath | None = None
    path_distance: float = 0.0
    name: str = ""
    user_data: Any = None
    """Anything the game attaches (its own object, the Tiled object); the engine never reads it."""
    filter: CollisionFilter = DEFAULT_FILTER
    """Which colliders this body touches (see :class:`~engine.types.CollisionFilter`)."""
    collider: Collider = field(init=False)
    previous_transform: Transform = field(init=False)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _CHECKED:  # (checked as set, naming the body: a NaN would surface steps later, unnamed)
            value = _CHECKED[name](value, self)
        if name in _PLACEMENT:
            PLACEMENTS.count += 1
            if name == "position" or name == "angle":
                self.__dict__.pop("_transform", None)
        object.__setattr__(self, name, value)

    @property
    def transform(self) -> Transform:
        """Where the body is (made once per placement: gathers, sensors and riders ask for it many times a
        step)."""
        kept: Transform | None = self.__dict__.get("_transform")
        if kept is None:
            kept = self.__dict__["_transform"] = Transform(self.position, self.angle)
        return kept

    def __post_init__(self) -> None:
        if not isinstance(self.filter, CollisionFilter):
            raise WorldError(f"KinematicBody.filter must be a CollisionFilter, got {self.filter!r}")
        self.collider = Collider(BodyKind.KINEMATIC, unit_or_none(self.one_way, "one_way"), self)
        self.previous_transform = self.transform

    def advance(self, dt: float) -> None:
        """Move along the path or by the velocity over ``dt`` seconds (the world calls this first each step)."""
        self.previous_transform = self.transform
        if self.path is not None:
            self.path_distance += self.path.speed * dt
            target = self.path.position_at(self.path_distance)
            self.velocity = ((target[0] - self.position[0]) / dt, (target[1] - self.position[1]) / dt)
            self.position = target
        else:
            self.position = (self.position[0] + self.velocity[0] * dt, self.position[1] + self.velocity[1] * dt)
        self.angle += self.angular_velocity * dt


_CHECKED: dict[str, Callable[[Any, object], Any]] = {
    "position": _pair,  # (a tuple: an in-place change could not be seen)
    "velocity": lambda value, body: _pair(value, body, "velocity", "px/s"),
    "angle": lambda value, body: _number(value, body, "angle", "radians"),
    "angular_velocity": lambda value, body: _number(value, body, "angular_velocity", "rad/s"),
}
"""The numbers of a kinematic body checked when set, and how."""
