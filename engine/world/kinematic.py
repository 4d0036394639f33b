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
from .jit import kernels
from .kernels.layout import (
    KINEMATIC, KINEMATIC_ANGLE, KINEMATIC_COLUMNS, KINEMATIC_PATH_DISTANCE, KINEMATIC_PLACED,
    KINEMATIC_PLACED_AT_STEP, KINEMATIC_PREVIOUS_ANGLE, KINEMATIC_PREVIOUS_X, KINEMATIC_PREVIOUS_Y, KINEMATIC_VX,
    KINEMATIC_VY, KINEMATIC_W, KINEMATIC_X, KINEMATIC_Y, MOVER_FRICTION, MOVER_KIND, MOVER_MIN_X, MOVER_MOVING,
    MOVER_ONE_WAY_X, MOVER_VX, MOVER_X,
)

__all__ = ["COLUMNS", "KinematicBody", "KinematicSet", "PlatformPath"]

# Columns of a kinematic body's row (``layout.KINEMATIC_*``, where the kernels read them too).
X, Y, ANGLE, VX, VY, W = KINEMATIC_X, KINEMATIC_Y, KINEMATIC_ANGLE, KINEMATIC_VX, KINEMATIC_VY, KINEMATIC_W
PREVIOUS_X, PREVIOUS_Y, PREVIOUS_ANGLE = KINEMATIC_PREVIOUS_X, KINEMATIC_PREVIOUS_Y, KINEMATIC_PREVIOUS_ANGLE
PLACED, PLACED_AT_STEP, PATH_DISTANCE = KINEMATIC_PLACED, KINEMATIC_PLACED_AT_STEP, KINEMATIC_PATH_DISTANCE
COLUMNS = KINEMATIC_COLUMNS

_AT_NOW, _AT_BEFORE = np.array([X, Y, X, Y]), np.array([PREVIOUS_X, PREVIOUS_Y, PREVIOUS_X, PREVIOUS_Y])
"""The columns that move a box in the body's own frame to where it is, and to where it was (index arrays: a
step takes them, and a list would be made an array at every use)."""

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
        lengths = [math.dist(a, b) for a, b in legs]
        self.length = sum(lengths)
        self._leg_table = np.array([(*a, *b, length) for (a, b), length in zip(legs, lengths)], dtype=np.float64)
        self._leg_table.flags.writeable = False  # (shared by every caller of leg_table)
        if self.length <= 0.0:
            raise WorldError("PlatformPath has zero length: all its points coincide")

    def _legs(self) -> list[tuple[Vec2, Vec2]]:
        pts = list(self.points)
        if self.mode == "loop":
            return list(zip(pts, pts[1:] + pts[:1]))
        return list(zip(pts, pts[1:])) + list(zip(pts[::-1], pts[::-1][1:]))

    def leg_table(self) -> np.ndarray:
        """The path's legs in order, one row each: start x, y, end x, y and length (px)."""
        return self._leg_table

    def position_at(self, distance: float) -> Vec2:
        """Point at ``distance`` pixels along the (repeating) path."""
        x, y = points_along(self.leg_table()[None], np.array([self.length]), np.array([float(distance)]))[0].tolist()
        return (x, y)


def points_along(legs: np.ndarray, lengths: np.ndarray, distances: np.ndarray) -> np.ndarray:
    """The points ``distances`` px along paths ((P, 2) px): ``legs`` (P, L, 5) are each path's legs as
    :meth:`PlatformPath.leg_table` gives them (a shorter path padded with legs 0 long), ``lengths`` (P,) the
    paths' lengths; a distance beyond a path's length goes round again. Every path at once, each walked leg
    by leg as one path alone would be (the same numbers: what is left after each leg by one subtraction
    after another)."""
    return _Legs(legs).points(lengths, distances)


def _closed(legs: np.ndarray) -> np.ndarray:
    """Paths' legs ((P, L, 5), see :func:`points_along`) with a last leg added to every path: from its start to
    its start, infinitely long, so that a distance past every real leg by rounding stops there, at the path's
    start, without a second look ((P, L + 1, 5): what :class:`_Legs` and the kinematic step's kernel walk)."""
    paths, count = legs.shape[:2]
    legs = np.concatenate([legs, np.zeros((paths, 1, 5))], axis=1)
    legs[:, count, 0:2] = legs[:, count, 2:4] = legs[:, 0, 0:2]
    legs[:, count, 4] = np.inf
    return legs


class _Legs:
    """Paths' legs ((P, L, 5), see :func:`points_along`) and what walking them needs, made once per set of
    paths."""

    def __init__(self, legs: np.ndarray) -> None:
        legs = _closed(legs)
        paths, count = legs.shape[:2]
        self.flat = legs.reshape(paths * count, 5)
        """The legs one after another, path by path."""
        self.length = legs[:, :, 4]
        self.real = self.length > 0.0
        """Which legs are not padding (nor 0 long: passed over)."""
        self.first = np.arange(paths) * count
        """Where each path's legs begin in :attr:`flat`."""
        self.walk = np.zeros((paths, count))
        self.walk[:, 1:] = -self.length[:, :-1]
        """What is left at each leg's start, less what is left at the first's: -(each earlier leg's length)."""

    def points(self, lengths: np.ndarray, distances: np.ndarray) -> np.ndarray:
        """The points ``distances`` px along the paths of lengths ``lengths`` ((P, 2) px)."""
        left = self.walk.copy()
        left[:, 0] = np.mod(distances, lengths)
        np.add.accumulate(left, axis=1, out=left)  # (one leg's length after another taken off)
        here = (left <= self.length) & self.real
        at = self.first + here.argmax(axis=1)  # (the first leg that holds it: the last, added one, if none)
        leg = self.flat[at]
        start, end = leg[:, 0:2], leg[:, 2:4]
        return start + (left.ravel()[at] / leg[:, 4])[:, None] * (end - start)


class KinematicBody(MovingBody):
    """A body moved by the game, not by forces: moving platforms, doors, lifts.

    Set ``velocity`` (px/s) and ``angular_velocity`` (rad/s, counter-clockwise), or give a ``path``. The world
    moves it at the start of each step, before characters move, and keeps its previous transform so that
    riders and one-way checks can use the motion of this step. ``one_way`` (a direction, or ``None``): it holds
    only what moves against that direction (``(0, 1)``: stood on from above, jumped through from below).

    Its placement and speeds live in a row of its world's :class:`KinematicSet` (a 1-row array of its own
    before it is added): the world moves every kinematic body in one compiled call, so a thousand
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
        self._path: PlatformPath | None = None
        self.path = path  # (checked)
        self.path_distance = path_distance
        self.user_data = user_data
        """Anything the game attaches (its own object, the Tiled object); the engine never reads it."""
        self._filter = filter
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
    def row(self) -> int:
        """Its row in its world's :class:`KinematicSet` (0 while in no world)."""
        return self._row

    @property
    def filter(self) -> CollisionFilter:
        """Which colliders this body touches (see :class:`~engine.types.CollisionFilter`)."""
        return self._filter

    @filter.setter
    def filter(self, value: CollisionFilter) -> None:
        if not isinstance(value, CollisionFilter):
            raise WorldError(f"{_name(self)}: filter must be a CollisionFilter, got {value!r}")
        self._filter = value
        if isinstance(self._owner, KinematicSet):
            self._owner.refiltered()

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

    # ------------------------------------------------------------ its path
    @property
    def path(self) -> PlatformPath | None:
        """The path it follows (its world moves it along it, setting its velocity), or ``None``."""
        return self._path

    @path.setter
    def path(self, value: PlatformPath | None) -> None:
        if value is not None and not isinstance(value, PlatformPath):
            raise WorldError(f"{_name(self)}: path must be a PlatformPath or None, got {value!r}")
        self._path = value
        if isinstance(self._owner, KinematicSet):
            self._owner.paths_changed()

    @property
    def path_distance(self) -> float:
        """How far along its path it is (px; it goes round again past the path's length)."""
        return float(self._state[self._row, PATH_DISTANCE])

    @path_distance.setter
    def path_distance(self, value: float) -> None:
        self._state[self._row, PATH_DISTANCE] = _number(value, self, "path_distance", "px")


class KinematicSet:
    """A world's kinematic bodies, in the order they were added, and their numbers: one row each
    (:data:`COLUMNS`), moved together each step, their boxes made with them, in one compiled call."""

    def __init__(self) -> None:
        self.bodies: list[KinematicBody] = []
        self._state = np.zeros((8, COLUMNS))
        self._local_boxes = np.zeros((8, 4))
        """Each body's shape's box in its own frame (px)."""
        self._one_way = np.zeros((8, 2))
        """Each body's one-way direction (a unit vector; zero: solid from every side)."""
        self._changes = 0
        """How many times a body was added, removed or reshaped."""
        self._fastest = 0.0
        """The fastest body's speed after the last :meth:`advance` (px/s)."""
        self._extent: tuple[float, float, float, float] | None = None
        """:meth:`extent` of the last :meth:`boxes`."""
        self._loose: tuple[tuple[int, int], tuple[float, float, float, float], float] | None = None
        """The extent of the boxes at some step, how far any body may have gone since (px), and the
        :data:`PLACEMENTS` count and :attr:`_changes` after the last :meth:`advance` (see :meth:`extent`)."""
        self._boxes: tuple[tuple[int, int], np.ndarray] | None = None
        """The last :meth:`boxes` and when they were made (:data:`PLACEMENTS` and :attr:`_changes`)."""
        self._paths: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        """The rows of the bodies that follow a path, their paths' legs, lengths and speeds (see
        :meth:`_path_table`); ``None`` when a body was added, removed or given another path since."""

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
        self._paths, self._changes = None, self._changes + 1
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
        self._paths, self._changes = None, self._changes + 1

    def paths_changed(self) -> None:
        """A body was given another path (or none)."""
        self._paths = None

    def _path_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The rows of the bodies that follow a path (ascending), their paths' legs (padded to the longest and
        closed: :func:`_closed`), lengths and speeds; made again after a change."""
        if self._paths is None:
            following = [(k, body.path) for k, body in enumerate(self.bodies) if body.path is not None]
            tables = [path.leg_table() for _, path in following]
            legs = np.zeros((len(following), max((len(t) for t in tables), default=1), 5))
            for k, table in enumerate(tables):
                legs[k, :len(table)] = table
            rows = np.array([k for k, _ in following], dtype=np.int64)
            self._paths = (rows, _closed(legs), np.array([path.length for _, path in following], dtype=np.float64),
                           np.array([path.speed for _, path in following], dtype=np.float64))
        return self._paths

    def reshaped(self, body: KinematicBody) -> None:
        """``body`` has a new shape: its box in its own frame is made again."""
        self._local_boxes[self.bodies.index(body)] = tuple(body.shape.local_aabb)
        self._changes += 1

    def refiltered(self) -> None:
        """A body was given another collision filter."""
        self._changes += 1

    @property
    def changes(self) -> int:
        """How many times a body was added, removed, reshaped or given another filter (the rigid step makes its
        shape table again after one)."""
        return self._changes

    def fastest_step(self, dt: float) -> float:
        """How far the fastest body moves in ``dt`` seconds at its velocity after the last :meth:`advance` (px; 0
        with no bodies)."""
        return self._fastest * dt

    def advance(self, dt: float) -> None:
        """Move every body by its velocity, or along its path, over ``dt`` seconds (the world does this first in
        each step); the previous placement is kept, and the boxes over the step are made (all in one compiled
        call: :func:`~engine.world.kernels.mover.advance_kinematic`; a thousand platforms far from everything
        cost little)."""
        n = len(self.bodies)
        if not n:
            return
        state = self._state[:n]
        following, legs, lengths, speeds = self._path_table()
        untouched = self._loose is not None and self._loose[0] == (PLACEMENTS.count, self._changes)
        boxes = np.empty((n, 4))
        placed_any, turned, self._fastest = kernels().mover.advance_kinematic(
            state, float(dt), following, legs, lengths, speeds, self._local_boxes[:n], boxes)
        PLACEMENTS.count += 1
        # (A turned body's box is made from its turned vertices, when first asked for: see boxes.)
        self._boxes, self._extent = (None if turned else ((PLACEMENTS.count, self._changes), boxes)), None
        self._keep_loose_extent(untouched and not placed_any, dt, state)

    _LOOSE_LIMIT = 32.0
    """px. How far the bodies may have gone since :meth:`extent` looked at their boxes before it looks again."""

    def _keep_loose_extent(self, untouched: bool, dt: float, state: np.ndarray) -> None:
        """After a step's move: grow the loose extent by how far the fastest body went, or drop it (a body was
        placed, added, removed or reshaped since the last step, or one turns: its box does not just move, or it
        grew past :attr:`_LOOSE_LIMIT`)."""
        if untouched and self._loose is not None:
            drift = self._loose[2] + self._fastest * dt * (1.0 + 1e-9) + 1e-6  # (and for rounding)
            if drift <= self._LOOSE_LIMIT and not state[:, W].any():
                self._loose = ((PLACEMENTS.count, self._changes), self._loose[1], drift)
                return
        self._loose = None

    def displacements(self) -> np.ndarray:
        """How far each body moved in the last step ((n, 2) px)."""
        state = self._state[:len(self.bodies)]
        return state[:, X:X + 2] - state[:, PREVIOUS_X:PREVIOUS_X + 2]

    def boxes(self) -> np.ndarray:
        """Each body's box (n, 4: min x, min y, max x, max y, px) where it is, grown over where it was before the
        last step; made again only after a body was placed, moved, added, removed or reshaped (the characters'
        gathers and the rigid step both ask in a step): shared, callers do not write it."""
        key = (PLACEMENTS.count, self._changes)
        if self._boxes is None or self._boxes[0] != key:
            state = self._state[:len(self.bodies)]
            local = self._local_boxes[:len(state)]
            now, before = local + state.take(_AT_NOW, axis=1), local + state.take(_AT_BEFORE, axis=1)
            if state[:, ANGLE].any() or state[:, PREVIOUS_ANGLE].any():  # (a turned body: from its turned vertices)
                for k in np.flatnonzero(state[:, ANGLE] != 0.0).tolist():
                    x, y, angle = state[k, X:X + 3].tolist()
                    now[k] = tuple(self.bodies[k].shape.aabb(Transform((x, y), angle)))
                for k in np.flatnonzero(state[:, PREVIOUS_ANGLE] != 0.0).tolist():
                    x, y, angle = state[k, PREVIOUS_X:PREVIOUS_X + 3].tolist()
                    before[k] = tuple(self.bodies[k].shape.aabb(Transform((x, y), angle)))
            np.minimum(now[:, :2], before[:, :2], out=now[:, :2])
            np.maximum(now[:, 2:], before[:, 2:], out=now[:, 2:])
            self._boxes = (key, now)
            self._extent = None
        return self._boxes[1]

    def extent(self) -> tuple[float, float, float, float]:
        """A box around every body's :meth:`boxes` (min x, min y, max x, max y, px), maybe larger by up to
        :attr:`_LOOSE_LIMIT`: nothing outside it meets any of them. (Made from the boxes every so often and grown
        since by how far the fastest body went each step, as long as no body was placed, added, removed or
        reshaped and none turns: a step with platforms far from everything makes no boxes.)"""
        loose = self._loose
        if loose is not None and loose[0] == (PLACEMENTS.count, self._changes):
            (low_x, low_y, high_x, high_y), drift = loose[1:]
            return low_x - drift, low_y - drift, high_x + drift, high_y + drift
        boxes = self.boxes()
        if self._extent is None:
            if not len(boxes):
                self._extent = (math.inf, math.inf, -math.inf, -math.inf)
            else:
                low, high = boxes[:, :2].min(axis=0).tolist(), boxes[:, 2:].max(axis=0).tolist()
                self._extent = (low[0], low[1], high[0], high[1])
        self._loose = ((PLACEMENTS.count, self._changes), self._extent, 0.0)
        return self._extent

    def mover_rows(self, rows: np.ndarray, static_friction: float, which: np.ndarray) -> None:
        """Fill the first ``len(which)`` rows of ``rows`` (:data:`~engine.world.kernels.layout.MOVER_COLUMNS`)
        for the rigid step with the bodies of rows ``which`` (ascending): where each started this step, the speed
        it moves at, its friction, kind, box over the step and one-way direction. A body that game code placed
        counts as moving (the sleepers it left or now meets wake)."""
        n = len(which)
        if not n:
            return
        state = self._state[which]
        rows[:n, MOVER_X:MOVER_X + 3] = state[:, PREVIOUS_X:PREVIOUS_X + 3]
        rows[:n, MOVER_VX:MOVER_VX + 3] = state[:, VX:VX + 3]
        rows[:n, MOVER_FRICTION], rows[:n, MOVER_KIND] = static_friction, KINEMATIC
        rows[:n, MOVER_MOVING] = (state[:, PLACED_AT_STEP] != 0.0) | (state[:, VX:VX + 3] != 0.0).any(axis=1)
        rows[:n, MOVER_MIN_X:MOVER_MIN_X + 4] = self.boxes()[which]
        rows[:n, MOVER_ONE_WAY_X:MOVER_ONE_WAY_X + 2] = self._one_way[which]


