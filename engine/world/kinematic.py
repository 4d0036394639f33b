"""Kinematic bodies: things the game moves, not forces (moving platforms, doors, lifts), and their paths.

Units: pixels, seconds, radians (counter-clockwise); y-up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..geometry import RoundedPolygon, Transform, Vec2
from ..types import DEFAULT_FILTER, BodyKind, Collider, CollisionFilter, MovingBody, Tally, WorldError, unit_or_none
from .kernels.layout import (
    KINEMATIC, MOVER_FRICTION, MOVER_KIND, MOVER_MIN_X, MOVER_MOVING, MOVER_ONE_WAY_X, MOVER_VX, MOVER_X,
)

__all__ = ["COLUMNS", "KinematicBody", "KinematicSet", "PlatformPath"]

# Columns of a kinematic body's row: placement (px, px, rad), velocity (px/s, px/s, rad/s), placement before
# the last step, whether game code placed it since the last step began, and whether it had when that step began.
X, Y, ANGLE, VX, VY, W, PREVIOUS_X, PREVIOUS_Y, PREVIOUS_ANGLE, PLACED, PLACED_AT_STEP = range(11)
COLUMNS = 11

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


class KinematicBody(MovingBody):
    """A body moved by the game, not by forces: moving platforms, doors, lifts.

    Set ``velocity`` (px/s) and ``angular_velocity`` (rad/s, counter-clockwise), or give a ``path``. The world
    moves it at the start of each step, before characters move, and keeps its previous transform so that
    riders and one-way checks can use the motion of this step. ``one_way`` (a direction, or ``None``): it holds
    only what moves against that direction (``(0, 1)``: stood on from above, jumped through from below).

    Its placement and speeds live in a row of its world's :class:`KinematicSet` (a 1-row array of its own
    before it is added): the world moves every kinematic body in a few array operations, so a thousand
    platforms far from everything cost little.
    """

    def __init__(self, shape: RoundedPolygon, position: Vec2, angle: float = 0.0, velocity: Vec2 = (0.0, 0.0),
                 angular_velocity: float = 0.0, one_way: Vec2 | None = None, path: PlatformPath | None = None,
                 path_distance: float = 0.0, name: str = "", user_data: Any = None,
                 filter: CollisionFilter = DEFAULT_FILTER) -> None:
        if not isinstance(filter, CollisionFilter):
            raise WorldError(f"KinematicBody.filter must be a CollisionFilter, got {filter!r}")
        self.name = name
        self._state, self._row = np.zeros((1, COLUMNS)), 0
        self._owner: object | None = None
        self._shape = shape
        self._transform: Transform | None = None
        self.position, self.angle = position, angle
        self.velocity, self.angular_velocity = velocity, angular_velocity
        self._state[0, PLACED] = 0.0
        self.one_way = one_way
        self.path = path
        self.path_distance = float(path_distance)
        self.user_data = user_data
        """Anything the game attaches (its own object, the Tiled object); the engine never reads it."""
        self.filter = filter
        """Which colliders this body touches (see :class:`~engine.types.CollisionFilter`)."""
        self.collider = Collider(BodyKind.KINEMATIC, unit_or_none(one_way, "one_way"), self)
        self.previous_transform = self.transform

    def __repr__(self) -> str:
        return (f"KinematicBody(name={self.name!r}, position={self.position!r}, angle={self.angle!r}, "
                f"velocity={self.velocity!r}, angular_velocity={self.angular_velocity!r})")

    # ------------------------------------------------------------ where its numbers live
    def bind(self, state: np.ndarray, row: int, owner: object | None) -> None:
        """Keep this body's numbers in row ``row`` of ``state`` (its current ones copied there), owned by
        ``owner`` (a world's :class:`KinematicSet`; ``None``: a row of its own again). A body belongs to one
        world at a time."""
        if owner is not None and self._owner is not None and self._owner is not owner:
            raise WorldError(f"{_name(self)} is already in another world: remove it there first")
        state[row] = self._state[self._row]
        self._state, self._row, self._owner = state, row, owner

    @property
    def owner(self) -> object | None:
        """The world's :class:`KinematicSet` that holds this body (``None`` while in no world)."""
        return self._owner

    def unbind(self) -> None:
        """Its numbers in a row of its own again (it left its world)."""
        own = np.zeros((1, COLUMNS))
        own[0] = self._state[self._row]
        self._state, self._row, self._owner = own, 0, None

    # ------------------------------------------------------------ placement and speeds (checked as set)
    @property
    def position(self) -> Vec2:
        """Where the body is (px)."""
        row = self._state[self._row]
        return (float(row[X]), float(row[Y]))

    @position.setter
    def position(self, value: Vec2) -> None:
        x, y = _pair(value, self)  # (checked as set, naming the body: a NaN would surface steps later, unnamed)
        self._place(X, x)
        self._place(Y, y)

    @property
    def angle(self) -> float:
        """Its turn (radians, counter-clockwise)."""
        return float(self._state[self._row, ANGLE])

    @angle.setter
    def angle(self, value: float) -> None:
        self._place(ANGLE, _number(value, self, "angle", "radians"))

    def _place(self, column: int, value: float) -> None:
        """Game code placed the body: a change is remembered (the sleepers it leaves or meets wake)."""
        row = self._state[self._row]
        if row[column] != value:
            row[column], row[PLACED] = value, 1.0
        PLACEMENTS.count += 1

    @property
    def velocity(self) -> Vec2:
        """Its speed (px/s)."""
        row = self._state[self._row]
        return (float(row[VX]), float(row[VY]))

    @velocity.setter
    def velocity(self, value: Vec2) -> None:
        self._state[self._row, VX], self._state[self._row, VY] = _pair(value, self, "velocity", "px/s")

    @property
    def angular_velocity(self) -> float:
        """Its spin (rad/s, counter-clockwise)."""
        return float(self._state[self._row, W])

    @angular_velocity.setter
    def angular_velocity(self, value: float) -> None:
        self._state[self._row, W] = _number(value, self, "angular_velocity", "rad/s")

    @property
    def shape(self) -> RoundedPolygon:
        return self._shape

    @shape.setter
    def shape(self, value: RoundedPolygon) -> None:
        self._shape = value
        PLACEMENTS.count += 1
        self._state[self._row, PLACED] = 1.0
        if isinstance(self._owner, KinematicSet):
            self._owner.reshaped(self)

    @property
    def previous_transform(self) -> Transform:
        """Where the body was before the last step (riders and one-way checks use this motion)."""
        row = self._state[self._row]
        return Transform((float(row[PREVIOUS_X]), float(row[PREVIOUS_Y])), float(row[PREVIOUS_ANGLE]))

    @previous_transform.setter
    def previous_transform(self, value: Transform) -> None:
        row = self._state[self._row]
        row[PREVIOUS_X], row[PREVIOUS_Y], row[PREVIOUS_ANGLE] = (*value.position, value.angle)
        PLACEMENTS.count += 1

    @property
    def transform(self) -> Transform:
        """Where the body is (made once per placement: gathers, sensors and riders ask for it many times a
        step)."""
        row = self._state[self._row]
        x, y, angle = float(row[X]), float(row[Y]), float(row[ANGLE])
        kept = self._transform
        if kept is None or kept.position != (x, y) or kept.angle != angle:
            kept = self._transform = Transform((x, y), angle)
        return kept

    # ------------------------------------------------------------ moving
    def advance(self, dt: float) -> None:
        """Move along the path or by the velocity over ``dt`` seconds (its world does this for all its
        kinematic bodies at once, first in each step)."""
        row = self._state[self._row]
        row[PREVIOUS_X:PREVIOUS_X + 3] = row[X:X + 3]
        if self.path is not None:
            self.follow_path(dt)
        else:
            row[X] += row[VX] * dt
            row[Y] += row[VY] * dt
        row[ANGLE] += row[W] * dt
        PLACEMENTS.count += 1

    def follow_path(self, dt: float) -> None:
        """Go ``dt`` seconds farther along the path: the velocity becomes the one that takes it there."""
        assert self.path is not None
        row = self._state[self._row]
        self.path_distance += self.path.speed * dt
        tx, ty = self.path.position_at(self.path_distance)
        row[VX], row[VY] = (tx - row[X]) / dt, (ty - row[Y]) / dt
        row[X], row[Y] = tx, ty


class KinematicSet:
    """A world's kinematic bodies, in the order they were added, and their numbers: one row each
    (:data:`COLUMNS`), moved together each step; their boxes made in array operations."""

    def __init__(self) -> None:
        self.bodies: list[KinematicBody] = []
        self._state = np.zeros((8, COLUMNS))
        self._local_boxes = np.zeros((8, 4))
        """Each body's shape's box in its own frame (px)."""
        self._one_way = np.zeros((8, 2))
        """Each body's one-way direction (a unit vector; zero: solid from every side)."""

    def __len__(self) -> int:
        return len(self.bodies)

    def add(self, body: KinematicBody) -> KinematicBody:
        if body.owner is self:
            raise WorldError(f"{_name(body)} is already in this world")
        row = len(self.bodies)
        if row == len(self._state):  # (room for twice as many: adding n bodies costs O(n))
            self._state = np.concatenate([self._state, np.zeros_like(self._state)])
            self._local_boxes = np.concatenate([self._local_boxes, np.zeros_like(self._local_boxes)])
            self._one_way = np.concatenate([self._one_way, np.zeros_like(self._one_way)])
            for k, other in enumerate(self.bodies):
                other.bind(self._state, k, self)
        body.bind(self._state, row, self)
        self.bodies.append(body)
        self._local_boxes[row] = tuple(body.shape.local_aabb)
        self._state[row, PLACED] = self._state[row, PLACED_AT_STEP] = 0.0
        self._one_way[row] = body.collider.one_way or (0.0, 0.0)
        return body

    def remove(self, body: KinematicBody) -> None:
        row = self.bodies.index(body)
        del self.bodies[row]
        body.unbind()
        n = len(self.bodies)
        for table in (self._local_boxes, self._one_way):
            table[row:n] = table[row + 1:n + 1]
        for k in range(row, n):  # (in ascending order: each copies its old row, one below, to its new one)
            self.bodies[k].bind(self._state, k, self)

    def reshaped(self, body: KinematicBody) -> None:
        """``body`` has a new shape: its box in its own frame is made again."""
        self._local_boxes[self.bodies.index(body)] = tuple(body.shape.local_aabb)

    def advance(self, dt: float) -> None:
        """Move every body by its velocity, or along its path, over ``dt`` seconds (the world does this first in
        each step); the previous placement is kept."""
        n = len(self.bodies)
        if not n:
            return
        state = self._state[:n]
        state[:, PLACED_AT_STEP] = state[:, PLACED]
        state[:, PLACED] = 0.0
        state[:, PREVIOUS_X:PREVIOUS_X + 3] = state[:, X:X + 3]
        following = [k for k, body in enumerate(self.bodies) if body.path is not None]
        for k in following:
            self.bodies[k].follow_path(dt)
        free = np.ones(n, np.bool_)
        free[following] = False
        state[free, X] += state[free, VX] * dt
        state[free, Y] += state[free, VY] * dt
        state[:, ANGLE] += state[:, W] * dt
        PLACEMENTS.count += 1

    def displacements(self) -> np.ndarray:
        """How far each body moved in the last step ((n, 2) px)."""
        state = self._state[:len(self.bodies)]
        return state[:, X:X + 2] - state[:, PREVIOUS_X:PREVIOUS_X + 2]

    def boxes(self) -> np.ndarray:
        """Each body's box (n, 4: min x, min y, max x, max y, px) where it is, grown over where it was before the
        last step."""
        n = len(self.bodies)
        state = self._state[:n]
        now, before = self._boxes_at(state[:, X:X + 3]), self._boxes_at(state[:, PREVIOUS_X:PREVIOUS_X + 3])
        return np.concatenate([np.minimum(now[:, :2], before[:, :2]), np.maximum(now[:, 2:], before[:, 2:])], axis=1)

    def _boxes_at(self, placements: np.ndarray) -> np.ndarray:
        """The bodies' boxes (px) placed at ``placements`` (n, 3: x, y, angle), as their shapes' ``aabb`` gives
        them: a turned body's box from its turned vertices."""
        boxes = self._local_boxes[:len(placements)] + np.tile(placements[:, :2], 2)
        for k in np.flatnonzero(placements[:, 2] != 0.0).tolist():
            x, y, angle = placements[k].tolist()
            boxes[k] = tuple(self.bodies[k].shape.aabb(Transform((x, y), angle)))
        return boxes

    def mover_rows(self, rows: np.ndarray, static_friction: float) -> None:
        """Fill the first ``len(self)`` rows of ``rows`` (:data:`~engine.world.kernels.layout.MOVER_COLUMNS`) for
        the rigid step: where each body started this step, the speed it moves at, its friction, kind, box over
        the step and one-way direction. A body that game code placed counts as moving (the sleepers it left
        or now meets wake)."""
        n = len(self.bodies)
        if not n:
            return
        state = self._state[:n]
        rows[:n, MOVER_X:MOVER_X + 3] = state[:, PREVIOUS_X:PREVIOUS_X + 3]
        rows[:n, MOVER_VX:MOVER_VX + 3] = state[:, VX:VX + 3]
        rows[:n, MOVER_FRICTION], rows[:n, MOVER_KIND] = static_friction, KINEMATIC
        rows[:n, MOVER_MOVING] = (state[:, PLACED_AT_STEP] != 0.0) | (state[:, VX:VX + 3] != 0.0).any(axis=1)
        rows[:n, MOVER_MIN_X:MOVER_MIN_X + 4] = self.boxes()
        rows[:n, MOVER_ONE_WAY_X:MOVER_ONE_WAY_X + 2] = self._one_way[:n]


