"""The world's shared vocabulary: errors, defaults, collider kinds and filters, events, query results.

Every part of the world (static geometry, rigid bodies, kinematic bodies, characters, sensors) and the
character mover use these types; this module imports nothing of the engine but the pure geometry kernel,
so none of those parts needs to import another to talk about what they share.

Units: pixels, seconds, radians (counter-clockwise); y-up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple, Protocol

import numpy as np

from .geometry import AABB, Manifold, RoundedPolygon, Transform, Vec2

__all__ = [
    "DEFAULT_FILTER", "DEFAULT_FRICTION", "DEFAULT_GRAVITY", "BodyKind", "Collider", "CollisionFilter", "ContactEvent",
    "Gathered", "MoverShapes", "MovingBody", "Neighbour", "Scene", "SceneContact", "SceneHit", "Slid",
    "Touching", "WorldError",
    "require_nonnegative", "unit_or_none",
]

DEFAULT_GRAVITY: Vec2 = (0.0, -1800.0)
"""px/s^2, y-up: what a 32 px tile world feels right with (about 5x Earth's gravity for 1 m = 32 px, as
platformers usually are)."""
DEFAULT_FRICTION = 0.6
"""Coulomb coefficient of rigid bodies, characters and static geometry unless told otherwise."""


class WorldError(ValueError):
    """Bad input to the world (names the bad value)."""


def require_nonnegative(config: object, names: Iterable[str]) -> None:
    """The configs' shared check: raise :class:`WorldError` naming the first of ``config``'s fields in
    ``names`` that is not a finite number >= 0."""
    for name in names:
        value = getattr(config, name)
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
            raise WorldError(f"{type(config).__name__}.{name} must be a finite number >= 0, got {value!r}")


def unit_or_none(value: Sequence[float] | None, what: str) -> Vec2 | None:
    """``value`` as a unit vector (``None`` stays ``None``); a zero or non-finite direction is an error."""
    if value is None:
        return None
    x, y = float(value[0]), float(value[1])
    length = math.hypot(x, y)
    if not (math.isfinite(length) and length > 0):
        raise WorldError(f"{what} must be a non-zero direction, got {value!r}")
    return (x / length, y / length)


class BodyKind(Enum):
    STATIC = "static"
    KINEMATIC = "kinematic"
    CHARACTER = "character"
    DYNAMIC = "dynamic"


_ALL_BITS = 0xFFFF_FFFF


class Tally:
    """A count that only goes up (kept on an instance: writing a class attribute at every count would make
    every attribute of that class's instances slower to reach, as Python's attribute caches start over)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


@dataclass(frozen=True)
class CollisionFilter:
    """Which colliders touch, with Box2D's and pymunk's semantics.

    ``category`` is the bit (or bits) this collider belongs to, ``mask`` the categories it touches: two
    colliders touch when each one's category is in the other's mask. A ``group`` overrides both: two
    colliders of the same non-zero group always touch when it is positive and never when it is negative
    (say, the parts of one ragdoll). Bits are 32 wide. The default touches everything.
    """

    category: int = 1
    mask: int = _ALL_BITS
    group: int = 0

    def __post_init__(self) -> None:
        for name in ("category", "mask"):
            value = getattr(self, name)
            if not (isinstance(value, int) and 0 <= value <= _ALL_BITS):
                raise WorldError(f"CollisionFilter.{name} must be an int of 32 bits (0 .. 0xFFFFFFFF), got {value!r}")
        if not isinstance(self.group, int):
            raise WorldError(f"CollisionFilter.group must be an int, got {self.group!r}")

    def touches(self, other: CollisionFilter) -> bool:
        """Whether a collider with this filter and one with ``other`` touch."""
        if self.group != 0 and self.group == other.group:
            return self.group > 0
        return bool(self.category & other.mask) and bool(other.category & self.mask)


DEFAULT_FILTER = CollisionFilter()


@dataclass(frozen=True, eq=False)
class Collider:
    """Something a query can report: a static segment, or a body's shape.

    ``one_way`` is ``None`` for solid colliders, else the unit direction (world frame) that a character
    must come from to be stopped. ``body`` is the owning kinematic body, rigid body or character, ``None``
    for static geometry; ``segment`` is the static segment's index, else -1. A body's ``filter`` and
    ``user_data`` are the body's own (read through); a static segment's are kept here.
    """

    kind: BodyKind
    one_way: Vec2 | None = None
    body: Any = None
    segment: int = -1
    static_filter: CollisionFilter = DEFAULT_FILTER
    static_user_data: Any = None

    @property
    def velocity(self) -> Vec2:
        """Velocity of the collider's body (px/s); zero for static geometry."""
        return self.body.velocity if self.body is not None else (0.0, 0.0)

    @property
    def filter(self) -> CollisionFilter:
        return self.body.filter if self.body is not None else self.static_filter

    @property
    def user_data(self) -> Any:
        """What the game attached: the body's ``user_data``, or the static segment's."""
        return self.body.user_data if self.body is not None else self.static_user_data


class MovingBody:
    """What kinematic and rigid bodies share: a shape placed by ``position`` and ``angle``, the transform
    they had before the last step (riders and one-way checks use that motion), a collision filter and the
    game's ``user_data``."""

    shape: RoundedPolygon
    position: Vec2
    angle: float
    velocity: Vec2
    previous_transform: Transform
    collider: Collider
    name: str
    filter: CollisionFilter
    user_data: Any

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


class ContactEvent(NamedTuple):
    """Something that happened between two participants during a step (read ``World.events`` after it).

    ``kind``:

    * ``"begin"`` / ``"end"``: a contact (or a sensor overlap) began or ended;
    * ``"land"``: character ``a`` landed on ``b`` (a character or a body) this step, ``normal`` pointing
      from ``b`` up to ``a``: stomping is ``kind == "land" and event.b is enemy``;
    * ``"crushed"``: ``a`` is squeezed between ``b`` and something else and could not get out.
    """

    kind: str
    a: object
    """The first participant: a :class:`RigidBody`, :class:`Sensor`, character, kinematic body, or the
    index of a static segment (int)."""
    b: object
    normal: Vec2
    """Unit normal from ``b`` towards ``a`` for ``"land"``; from ``a`` towards ``b`` when a contact began;
    (0, 0) for sensors and end events."""


class SceneHit(NamedTuple):
    """A cast's hit on one collider (world frame)."""

    fraction: float
    point: Vec2
    normal: Vec2
    """Outward normal of the collider, against the motion."""
    collider: Collider
    started_inside: bool


class SceneContact(NamedTuple):
    """A shape's contact with one collider (world frame)."""

    normal: Vec2
    """Unit vector from the collider towards the shape: the way out."""
    separation: float
    """Gap between the surfaces along ``normal`` (negative = overlap), pixels."""
    point: Vec2
    collider: Collider


class Neighbour(NamedTuple):
    """A collider near a query, with its shape, transform and bounding box (see ``World.gather``)."""

    collider: Collider
    shape: RoundedPolygon
    transform: Transform
    box: tuple[float, float, float, float]


class Gathered:
    """What the mover gathered around a move (``World.candidates``): the static segments as indices
    (``segments``, an int64 array; ``static_places``: their places in the gathered order), the other colliders
    as neighbours with their places (``others``), and the Minkowski-sum rows the compiled queries built for
    them (``rows``, per moving core). :meth:`neighbours` lists them all, in order, as ``World.gather`` does."""

    __slots__ = ("_static_neighbour", "count", "one_way", "others", "rows", "segments", "static_places", "static_key")

    def __init__(self, segments: Any, others: list[Neighbour] | None, one_way: bool,
                 static_neighbour: Callable[[int], Neighbour]) -> None:
        self.segments = segments
        self.static_key: tuple[object, ...] | None = None
        """What the static segments were gathered for (the scene's own key: level, filter, box), so that a later
        gather inside the same box may take them again (``World.candidates``' ``kept``); ``None``: never."""
        self.static_places: list[int] | None = None
        """Places of the segments in the gathered order (``None``: the first ``len(segments)``)."""
        self.others: list[tuple[int, Neighbour]] = list(enumerate(others, start=len(segments))) if others else []
        self.one_way = one_way
        """Whether a one-way segment is among them."""
        self.count = len(segments) + len(others) if others else len(segments)
        self.rows: dict[object, Any] = {}
        self._static_neighbour = static_neighbour

    def place_of_static(self, k: int) -> int:
        """The place of the ``k``-th static segment in the gathered order."""
        return k if self.static_places is None else self.static_places[k]

    def neighbours(self) -> list[Neighbour]:
        """Every gathered collider as a neighbour, in the gathered order."""
        found: list[Neighbour | None] = [None] * self.count
        for k, segment in enumerate(self.segments.tolist()):
            found[self.place_of_static(k)] = self._static_neighbour(segment)
        for place, neighbour in self.others:
            found[place] = neighbour
        return found  # type: ignore[return-value]

    def extended(self, more: Gathered) -> Gathered:
        """These, followed by those of ``more`` not among them yet (by collider)."""
        known_segments = set(self.segments.tolist())
        known_others = {id(n.collider) for _, n in self.others}
        merged = Gathered(self.segments, [], self.one_way or more.one_way, self._static_neighbour)
        merged.static_places = [self.place_of_static(k) for k in range(len(self.segments))]
        merged.others = list(self.others)
        merged.count = self.count
        new_segments = []
        arriving = [(more.place_of_static(k), 0, s) for k, s in enumerate(more.segments.tolist())]
        arriving += [(p, 1, n) for p, n in more.others]
        for _, kind, item in sorted(arriving, key=lambda e: e[0]):
            if kind == 0 and item not in known_segments:
                new_segments.append(item)
                merged.static_places.append(merged.count)
                merged.count += 1
            elif kind == 1 and id(item.collider) not in known_others:
                merged.others.append((merged.count, item))
                merged.count += 1
        if new_segments:
            merged.segments = np.concatenate([self.segments, np.array(new_segments, dtype=np.int64)])
        return merged


Touching = tuple[SceneContact | None, SceneContact | None, SceneContact | None, int, bool]
"""What a character touches (``Scene.touching``): its floor, nearest wall and nearest ceiling (``None``: none), how
many walls, and whether it overlaps something deeper than the mover's ``penetration_slop``."""

Slid = tuple[list[SceneHit], list[Vec2], Vec2, Vec2, Touching | None]
"""A slide made in one call (``Scene.slide``): its hits, its stops, where it ended, the velocity it ended with,
and what the character touches there (``None`` when not asked)."""


class MoverShapes(Protocol):
    """What a scene's one-call mover queries read of the character's mover that asks: the character's shape,
    that shape grown by the skin (``cast_shape``, what the mover sweeps: reaching a hit leaves exactly ``skin``
    of gap) and its ``MoverConfig``."""

    @property
    def shape(self) -> RoundedPolygon: ...

    @property
    def cast_shape(self) -> RoundedPolygon: ...

    @property
    def config(self) -> Any: ...


class Scene(Protocol):
    """What the character mover sees of the world: colliders near a box, casts and contacts against them; and
    the same questions asked the mover's way, answered in one call each when the scene can (``slide`` and
    ``touching`` when only the level's solid segments are near, ``first_hit`` when no one-way collider is:
    ``None`` means "ask me the general way": bodies to push, characters or one-way colliders are near); and
    whether something holds a body against a push along a direction (``holds``: a crate on the floor against a
    push down)."""

    gravity: Vec2

    def gather(self, box: AABB, ignore: Iterable[object] = (),
               filter: CollisionFilter | None = None) -> list[Neighbour]: ...

    def candidates(self, box: Sequence[float], ignore: Iterable[object] = (),
                   filter: CollisionFilter | None = None, kept: Gathered | None = None,
                   spare: float = 0.0) -> Gathered: ...

    def cast(self, shape: RoundedPolygon, xf: Transform, translation: Sequence[float], ignore: Iterable[object] = (),
             candidates: list[Neighbour] | Gathered | None = None) -> list[SceneHit]: ...

    def contacts(self, shape: RoundedPolygon, xf: Transform, margin: float = 0.0, ignore: Iterable[object] = (),
                 candidates: list[Neighbour] | Gathered | None = None) -> list[SceneContact]: ...

    def contact_with(self, shape: RoundedPolygon, xf: Transform, collider: Collider, margin: float,
                     at_previous: bool = False) -> SceneContact | None: ...

    def manifold_with(self, shape: RoundedPolygon, xf: Transform, collider: Collider,
                      margin: float) -> Manifold | None: ...

    def holds(self, body: object, direction: Vec2) -> bool: ...

    def slide(self, mover: MoverShapes, position: Vec2, d: Vec2, velocity: Vec2, grounded: bool,
              candidates: Gathered | None, ignore: Iterable[object], touching: bool = False) -> Slid | None: ...

    def touching(self, mover: MoverShapes, position: Vec2, candidates: Gathered | None) -> Touching | None: ...

    def first_hit(self, mover: MoverShapes, position: Vec2, d: Vec2, candidates: Gathered | None,
                  ignore: Iterable[object]) -> tuple[SceneHit | None] | None: ...

    def lone_first_hit(self, mover: MoverShapes, character: Any, position: Vec2, d: Vec2, box: Sequence[float],
                       kept: Gathered | None, query: CollisionFilter | None) -> tuple[SceneHit | None] | None: ...
