"""The world: owner of all simulation state, advanced with ``step(dt)`` at a fixed rate.

What lives here:

* **static geometry**: thick segments (capsules), solid or one-way, behind a :class:`StaticBroadPhase`;
* **kinematic bodies**: moving platforms driven by a velocity or along a :class:`PlatformPath`;
* **characters**: kinematic shapes moved by :mod:`engine.character` (move-and-slide).

Scene queries (``cast``, ``contacts``) are what the character mover sees of the world: every collider near
a shape, as contact normals and cast hits, with one-way rules applied by the caller.

Units: pixels, seconds, radians (counter-clockwise); y-up. A one-way collider is solid only against
things coming from its ``one_way`` side: ``one_way`` is the unit direction a character must come *from*
(for a floor-like platform, up).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .geometry import (
    AABB,
    RoundedPolygon,
    StaticBroadPhase,
    Transform,
    Vec2,
    cast_against_sum,
    collide,
    contact_from_sum,
    minkowski_difference,
    shape_cast,
)

from .bodies import ContactEvent, PhysicsConfig, RigidBody, Sensor
from .contacts import ContactSet, ShapeTable
from .solver import step_bodies
from .world_types import BodyKind, Collider, MovingBody, WorldError

if TYPE_CHECKING:
    from .character import Character, MoverConfig

__all__ = [
    "BodyKind",
    "Collider",
    "KinematicBody",
    "Neighbour",
    "PlatformPath",
    "SceneContact",
    "SceneHit",
    "World",
    "WorldError",
]


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
    collider: Collider = field(init=False)
    previous_transform: Transform = field(init=False)

    def __post_init__(self) -> None:
        self.position = (float(self.position[0]), float(self.position[1]))
        self.collider = Collider(BodyKind.KINEMATIC, _unit_or_none(self.one_way, "one_way"), self)
        self.previous_transform = self.transform

    def _advance(self, dt: float) -> None:
        self.previous_transform = self.transform
        if self.path is not None:
            self.path_distance += self.path.speed * dt
            target = self.path.position_at(self.path_distance)
            self.velocity = ((target[0] - self.position[0]) / dt, (target[1] - self.position[1]) / dt)
            self.position = target
        else:
            self.position = (self.position[0] + self.velocity[0] * dt, self.position[1] + self.velocity[1] * dt)
        self.angle += self.angular_velocity * dt


def _unit_or_none(value: Sequence[float] | None, what: str) -> Vec2 | None:
    if value is None:
        return None
    x, y = float(value[0]), float(value[1])
    length = math.hypot(x, y)
    if not (math.isfinite(length) and length > 0):
        raise WorldError(f"{what} must be a non-zero direction, got {value!r}")
    return (x / length, y / length)


_IDENTITY = Transform()


class World:
    """Owns static geometry, kinematic bodies and characters; ``step(dt)`` advances them.

    ``gravity`` (px/s^2, y-up, so usually negative y) is what characters' controllers read.
    """

    def __init__(
        self, gravity: Sequence[float] = (0.0, -1800.0), physics: PhysicsConfig | None = None,
        static_friction: float = 0.6,
    ) -> None:
        gx, gy = float(gravity[0]), float(gravity[1])
        if not (math.isfinite(gx) and math.isfinite(gy)):
            raise WorldError(f"gravity must be finite, got {gravity!r}")
        if not (math.isfinite(static_friction) and static_friction >= 0):
            raise WorldError(f"static_friction must be a number >= 0, got {static_friction!r}")
        self.gravity: Vec2 = (gx, gy)
        self.physics = physics or PhysicsConfig()
        self.static_friction = float(static_friction)
        """Friction coefficient of static geometry and kinematic bodies against rigid bodies."""
        self.time = 0.0
        self.step_count = 0
        self.kinematic_bodies: list[KinematicBody] = []
        self.characters: list[Character] = []
        self.bodies: list[RigidBody] = []
        self.sensors: list[Sensor] = []
        self.events: list[ContactEvent] = []
        """Contact and sensor begin/end events of the last step."""
        self._contacts = ContactSet()
        self._touching: dict[int, tuple[object, object]] = {}
        self._shape_table: ShapeTable | None = None  # per-shape arrays of the rigid-body step
        self._sensing: dict[int, set[int]] = {}
        self._seg_a: list[np.ndarray] = []
        self._seg_b: list[np.ndarray] = []
        self._seg_r: list[np.ndarray] = []
        self._seg_one_way: list[np.ndarray] = []
        self._broadphase: StaticBroadPhase | None = None
        self._static_colliders: list[Collider] = []
        self._sums: dict[RoundedPolygon, dict[int, RoundedPolygon]] = {}
        self._static_neighbours: dict[int, Neighbour] = {}
        self._joints: dict[tuple[int, int], list[Vec2]] = {}

    # ---------------------------------------------------------------- building
    def add_segments(
        self,
        a: Sequence[Sequence[float]] | np.ndarray,
        b: Sequence[Sequence[float]] | np.ndarray,
        radius: float | Sequence[float] = 2.0,
        one_way: Sequence[float] | None = None,
    ) -> range:
        """Add static thick segments from ``a[i]`` to ``b[i]`` (pixels) with ``radius``; ``one_way`` (a
        direction) makes them one-way. Returns the range of their segment indices."""
        a_arr = np.asarray(a, dtype=np.float64).reshape(-1, 2)
        b_arr = np.asarray(b, dtype=np.float64).reshape(-1, 2)
        r_arr = np.broadcast_to(np.asarray(radius, dtype=np.float64), (len(a_arr),)).copy()
        direction = _unit_or_none(one_way, "one_way")
        ow = np.zeros((len(a_arr), 2)) if direction is None else np.tile(direction, (len(a_arr), 1))
        if a_arr.shape != b_arr.shape:
            raise WorldError(f"add_segments: {len(a_arr)} start points but {len(b_arr)} end points")
        start = sum(len(x) for x in self._seg_a)
        # Validate now, naming the bad segment, rather than at the first query.
        bad = ~(np.isfinite(a_arr).all(axis=1) & np.isfinite(b_arr).all(axis=1) & np.isfinite(r_arr) & (r_arr >= 0))
        if bad.any():
            i = int(np.argmax(bad))
            raise WorldError(
                f"segment {start + i} is not finite or has a negative radius: {a_arr[i]!r} -> {b_arr[i]!r}, r={r_arr[i]!r}"
            )
        self._seg_a.append(a_arr)
        self._seg_b.append(b_arr)
        self._seg_r.append(r_arr)
        self._seg_one_way.append(ow)
        self._broadphase = None
        return range(start, start + len(a_arr))

    def add_chain(
        self, points: Sequence[Sequence[float]], radius: float = 2.0, closed: bool = False,
        one_way: Sequence[float] | None = None,
    ) -> range:
        """Add a chain of thick segments through ``points`` (closed: back to the first point)."""
        pts = [tuple(map(float, p)) for p in points]
        if len(pts) < 2:
            raise WorldError(f"a chain needs at least 2 points, got {len(pts)}")
        ends = pts[1:] + (pts[:1] if closed else [])
        return self.add_segments(pts[: len(ends)], ends, radius, one_way)

    def add_kinematic(self, body: KinematicBody) -> KinematicBody:
        self.kinematic_bodies.append(body)
        return body

    def add_body(self, body: RigidBody) -> RigidBody:
        """Add a dynamic rigid body (a crate)."""
        self.bodies.append(body)
        return body

    def remove_body(self, body: RigidBody) -> None:
        self.bodies.remove(body)
        self._contacts = ContactSet()  # contacts are rebuilt next step (warm starting restarts once)
        self._touching = {k: ab for k, ab in self._touching.items() if body not in ab}

    def add_sensor(self, sensor: Sensor) -> Sensor:
        """Add a region that reports overlaps with characters and bodies as events."""
        self.sensors.append(sensor)
        return sensor

    def add_character(
        self, shape: RoundedPolygon, position: Sequence[float], config: MoverConfig | None = None
    ) -> Character:
        from .character import Character, MoverConfig

        character = Character(self, shape, (float(position[0]), float(position[1])), config or MoverConfig())
        self.characters.append(character)
        return character

    @property
    def static(self) -> StaticBroadPhase:
        """The static geometry's broad phase (rebuilt after segments are added)."""
        if self._broadphase is None:
            a = np.concatenate(self._seg_a) if self._seg_a else np.zeros((0, 2))
            b = np.concatenate(self._seg_b) if self._seg_b else np.zeros((0, 2))
            r = np.concatenate(self._seg_r) if self._seg_r else np.zeros(0)
            ow = np.concatenate(self._seg_one_way) if self._seg_one_way else np.zeros((0, 2))
            self._broadphase = StaticBroadPhase(a, b, r)
            self._sums.clear()
            self._static_neighbours.clear()
            self._static_colliders = [
                Collider(BodyKind.STATIC, (float(o[0]), float(o[1])) if o.any() else None, None, i)
                for i, o in enumerate(ow)
            ]
            self._joints = _segment_joints(a, b)
        return self._broadphase

    def segment_joint_directions(self, segment: int, end: int) -> list[Vec2]:
        """Unit directions, from end ``end`` (0 = start, 1 = end) of static ``segment``, along every other
        static segment that shares that end point. Contacts with a segment's rounded end cap that lean
        over a neighbour are that neighbour's business (see the solver's seam rule)."""
        self.static  # noqa: B018 - builds the joint table if needed
        return self._joints.get((segment, end), [])
    # ---------------------------------------------------------------- stepping
    def step(self, dt: float) -> None:
        """Advance the world by ``dt`` seconds: kinematic bodies first, then characters."""
        if not (math.isfinite(dt) and dt > 0):
            raise WorldError(f"step dt must be a positive number of seconds, got {dt!r}")
        from .character import move_character

        for body in self.kinematic_bodies:
            body._advance(dt)
        for character in self.characters:
            move_character(character, dt)
            self._press_on_floor(character, dt)
        self.events = step_bodies(self, dt)
        self.events.extend(self._sense())
        self.time += dt
        self.step_count += 1

    def _press_on_floor(self, character: Character, dt: float) -> None:
        """A character standing on a rigid body weighs on it (mass x gravity, at the contact)."""
        floor = character.floor_collider
        if character.on_floor and floor is not None and floor.kind is BodyKind.DYNAMIC:
            m = character.config.mass
            point = character._floor_point or floor.body.position
            floor.body.apply_impulse((self.gravity[0] * m * dt, self.gravity[1] * m * dt), point)

    def _sense(self) -> list[ContactEvent]:
        """Begin / end events of sensors against characters and rigid bodies."""
        events = []
        for sensor in self.sensors:
            before = self._sensing.get(id(sensor), set())
            now: dict[int, object] = {}
            if sensor.enabled:
                box = sensor.aabb()
                xf = sensor.transform
                others: list[Character | RigidBody] = [*self.characters, *self.bodies]
                for other in others:
                    if other.shape.aabb(other.transform).overlaps(box):
                        m = collide(sensor.shape, xf, other.shape, other.transform)
                        if m is not None and m.separation < 0.0:
                            now[id(other)] = other
            for key, entered in now.items():
                if key not in before:
                    events.append(ContactEvent("begin", sensor, entered, (0.0, 0.0)))
            lookup = {id(o): o for o in [*self.characters, *self.bodies]}
            for key in before - now.keys():
                events.append(ContactEvent("end", sensor, lookup.get(key), (0.0, 0.0)))
            self._sensing[id(sensor)] = set(now)
        return events

    # ---------------------------------------------------------------- queries
    def gather(self, box: AABB, ignore: Iterable[object] = ()) -> list[Neighbour]:
        """Everything that may touch ``box``: static segments from the broad phase and kinematic bodies
        whose boxes overlap it. Pass the result as ``candidates`` to several queries in a row (the
        character mover gathers once per step)."""
        ignored = {id(x) for x in ignore}
        bp = self.static
        found: list[Neighbour] = []
        colliders = self._static_colliders
        neighbours = self._static_neighbours
        for i in bp.query_list(box):
            neighbour = neighbours.get(i)
            if neighbour is None:
                neighbour = neighbours[i] = Neighbour(colliders[i], bp.shape(i), _IDENTITY, bp._aabb_rows[i])
            if id(neighbour.collider) not in ignored:
                found.append(neighbour)
        for body in [*self.kinematic_bodies, *self.bodies]:
            if id(body.collider) in ignored or id(body) in ignored:
                continue
            body_box = body.aabb()
            if body_box.overlaps(box):
                found.append(Neighbour(body.collider, body.shape, body.transform, (
                    body_box.min_x, body_box.min_y, body_box.max_x, body_box.max_y)))
        return found

    def _candidates(self, box: AABB, ignore: Iterable[object], gathered: list[Neighbour] | None) -> list[Neighbour]:
        """What a query in ``box`` must test: the caller's ``gathered`` candidates narrowed to the box, or,
        without them, a fresh :meth:`gather`."""
        return self.gather(box, ignore) if gathered is None else _near(gathered, box, ignore)

    def _sum(self, shape: RoundedPolygon, neighbour: Neighbour) -> RoundedPolygon:
        """Minkowski sum of a static segment and a non-rotating shape, built once and kept: a character
        sweeps the same shape against the same segments every step."""
        sums = self._sums.get(shape)
        if sums is None:
            if len(self._sums) > 64:
                self._sums.clear()
            sums = self._sums[shape] = {}
        index = neighbour.collider.segment
        found = sums.get(index)
        if found is None:
            if len(sums) > 200_000:
                sums.clear()
            found = sums[index] = minkowski_difference(neighbour.shape, _IDENTITY, shape, 0.0)
        return found

    def cast(
        self,
        shape: RoundedPolygon,
        xf: Transform,
        translation: Sequence[float],
        ignore: Iterable[object] = (),
        candidates: list[Neighbour] | None = None,
    ) -> list[SceneHit]:
        """Every collider that ``shape`` (placed by ``xf``) touches when swept along ``translation``: one hit
        per collider, nearest first. Colliders in ``ignore`` (colliders or bodies) are skipped."""
        tx, ty = float(translation[0]), float(translation[1])
        candidates = self._candidates(shape.aabb(xf).swept((tx, ty)), ignore, candidates)
        upright = xf.angle == 0.0
        hits = []
        for neighbour in candidates:
            collider, target, xf_target, _ = neighbour
            if upright and collider.segment >= 0:
                hit = cast_against_sum(self._sum(shape, neighbour), shape, xf, tx, ty, target, xf_target, False)
            else:
                hit = shape_cast(shape, xf, (tx, ty), target, xf_target)
            if hit is not None:
                hits.append(SceneHit(hit.fraction, hit.point, hit.normal, collider, hit.started_inside))
        hits.sort(key=lambda h: h.fraction)
        return hits

    def contacts(
        self,
        shape: RoundedPolygon,
        xf: Transform,
        margin: float = 0.0,
        ignore: Iterable[object] = (),
        candidates: list[Neighbour] | None = None,
    ) -> list[SceneContact]:
        """Contacts of ``shape`` with every collider within ``margin`` pixels: normals point from the
        collider to the shape (the way out)."""
        candidates = self._candidates(shape.aabb(xf).grown(margin), ignore, candidates)
        upright = xf.angle == 0.0
        found = []
        for neighbour in candidates:
            if upright and neighbour.collider.segment >= 0:
                separation, normal, point = contact_from_sum(
                    self._sum(shape, neighbour), shape, xf, neighbour.shape, _IDENTITY, False
                )
                if separation <= margin:
                    found.append(SceneContact(normal, separation, point, neighbour.collider))
                continue
            contact = self._contact(shape, xf, neighbour.collider, neighbour.shape, neighbour.transform, margin)
            if contact is not None:
                found.append(contact)
        return found

    def contact_with(
        self, shape: RoundedPolygon, xf: Transform, collider: Collider, margin: float, at_previous: bool = False
    ) -> SceneContact | None:
        """Contact of ``shape`` with one collider; ``at_previous`` uses a body's transform before this step."""
        if collider.body is not None:
            target = collider.body.shape
            xf_target = collider.body.previous_transform if at_previous else collider.body.transform
        else:
            target, xf_target = self.static.shape(collider.segment), _IDENTITY
        return self._contact(shape, xf, collider, target, xf_target, margin)

    @staticmethod
    def _contact(
        shape: RoundedPolygon, xf: Transform, collider: Collider, target: RoundedPolygon, xf_target: Transform,
        margin: float,
    ) -> SceneContact | None:
        m = collide(target, xf_target, shape, xf, margin)
        if m is None:
            return None
        deepest = min(m.points, key=lambda p: p.separation)
        return SceneContact(m.normal, deepest.separation, deepest.point, collider)


def _segment_joints(a: np.ndarray, b: np.ndarray, tolerance: float = 1e-6) -> dict[tuple[int, int], list[Vec2]]:
    """For every segment end shared with other segments (end points within ``tolerance`` px), the unit
    directions from that point along each other segment."""
    ends: dict[tuple[int, int], list[tuple[int, int]]] = {}
    points = (a, b)
    for which in (0, 1):
        for i, (x, y) in enumerate(points[which].tolist()):
            key = (round(x / tolerance), round(y / tolerance))
            ends.setdefault(key, []).append((i, which))
    joints: dict[tuple[int, int], list[Vec2]] = {}
    for members in ends.values():
        if len(members) < 2:
            continue
        for i, which in members:
            here = points[which][i]
            directions = []
            for j, other in members:
                if j == i:
                    continue
                far = points[1 - other][j]
                dx, dy = float(far[0] - here[0]), float(far[1] - here[1])
                length = math.hypot(dx, dy)
                if length > 0:
                    directions.append((dx / length, dy / length))
            joints[(i, which)] = directions
    return joints


class Neighbour(NamedTuple):
    """A collider near a query, with its shape, transform and bounding box (see :meth:`World.gather`)."""

    collider: Collider
    shape: RoundedPolygon
    transform: Transform
    box: tuple[float, float, float, float]


def _near(candidates: list[Neighbour], box: AABB, ignore: Iterable[object]) -> list[Neighbour]:
    """The gathered candidates whose boxes overlap ``box`` (and that are not ignored)."""
    min_x, min_y, max_x, max_y = box
    ignored = {id(x) for x in ignore} if ignore else ()
    return [
        n for n in candidates
        if n.box[0] <= max_x and n.box[2] >= min_x and n.box[1] <= max_y and n.box[3] >= min_y
        and not (ignored and (id(n.collider) in ignored or id(n.collider.body) in ignored))
    ]
