"""The world: a façade over the parts that own the simulation's state, advanced with ``step(dt)``.

The parts, each the only writer of its own state:

* :class:`~engine.world.static.StaticGeometry` (``world.static``): thick segments (capsules), solid or
  one-way, behind a broad phase; built while a level loads, read-only while stepping;
* kinematic bodies (``world.kinematic_bodies``): moving platforms driven by a velocity or a path;
* characters (``world.characters``): kinematic shapes moved by :mod:`engine.character` (move-and-slide);
* :class:`~engine.world.rigid.RigidBodySet`: crates and the solver's state (``world.bodies``);
* :class:`~engine.world.sensors.SensorSet`: sensor regions and their overlaps (``world.sensors``).

Scene queries (``gather``, ``cast``, ``contacts``) are what the character mover sees of the world: every
collider near a shape whose collision filter agrees, as contact normals and cast hits, with one-way rules
applied by the caller.

Units: pixels, seconds, radians (counter-clockwise); y-up. A one-way collider is solid only against
things coming from its ``one_way`` side: ``one_way`` is the unit direction a character must come *from*
(for a floor-like platform, up).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..bodies import VX, PhysicsConfig, RigidBody, Sensor
from ..character import PLACEMENTS, Character, MoverConfig
from ..geometry import AABB, Manifold, RoundedPolygon, Transform, minkowski_difference
from ..types import (
    DEFAULT_FILTER, DEFAULT_FRICTION, DEFAULT_GRAVITY, BodyKind, Collider, CollisionFilter, ContactEvent, Gathered,
    MoverShapes, Neighbour, SceneContact, SceneHit, Slid, Touching, Vec2, WorldError,
)
from .jit import add_stages, kernels
from .kernels.layout import sum_row
from .contacts import ContactSet
from .kinematic import PLACEMENTS as KINEMATIC_PLACEMENTS
from .kernels.layout import CHARACTER
from .kinematic import KinematicBody, KinematicSet
from .manifolds import manifold
from .rigid import RigidBodySet
from .sensors import SensorSet
from .static import QueryConfig, StaticGeometry
from .step_memory import keep_step_memory
from .touches import CharacterTouches

__all__ = ["World"]

_IDENTITY = Transform()

_BODY_SUMS = 4096
"""How many body Minkowski sums a world keeps before it starts over (moving bodies make new ones each step)."""

_ALL = DEFAULT_FILTER.mask
"""Every collision category bit (a filter with it as category and mask touches every other)."""

_MOVERS = 4096
"""How many characters' constants (:meth:`World._mover_constants`) a world keeps before it starts over."""

_NOTHING_MOVES = np.zeros((0, 4))
"""No boxes of things that move: a compiled slide that tests none (:func:`~engine.world.kernels.mover.slide_touch`)."""

class _MovingBoxes:
    """The kinematic bodies' swept boxes (:class:`_KinematicBoxes`) followed by the characters' boxes, in one
    array: a gather finds what moves near it in one compiled box test, however few or many there are (most
    gathers find nothing but the gatherer itself). While the characters move one after another in a step only
    the mover changes a character's position, and the world marks each moved character's box (:attr:`stale`) to
    bring up to date at the next gather; between steps (a controller's probe) they are used only while the characters
    are the same and none was placed since (:data:`~engine.character.PLACEMENTS`), with the kinematic boxes
    copied in when they were made again (:meth:`brought_up_to`). Either way a gather's answer is the same as
    testing every body's and character's current box."""

    def __init__(self, kinematic: _KinematicBoxes, characters: list[Character]) -> None:
        self.kinematic = kinematic
        self._characters = list(characters)
        self.placements = PLACEMENTS.count
        self.rows: list[tuple[float, float, float, float]] = [ch.aabb() for ch in characters]
        self.first = len(kinematic.bodies)
        """The row of the first character (the kinematic bodies' rows come first)."""
        self.boxes = np.concatenate([kinematic.boxes.reshape(-1, 4),
                                     np.array(self.rows, dtype=np.float64).reshape(-1, 4)])
        self.filters = _open_filters(len(self.boxes))
        """Filters that touch every query: the kernel tests the boxes alone (the filters as they are, after)."""
        self.found = np.zeros(len(self.boxes), dtype=np.int64)
        """Where :func:`~engine.world.kernels.mover.boxes_near` puts the rows it finds (reused)."""
        self._rows_of: dict[int, int] | None = None
        """Each character's row, by its id (made when first asked: :meth:`row_of`)."""
        self.stale: set[int] = set()
        """Characters moved since their boxes were made (brought up to date by the next :meth:`near`; a set: a hero
        alone, whose gathers find no one, moves step after step with no gather to bring it up to date)."""

    def brought_up_to(self, kinematic: _KinematicBoxes, characters: list[Character]) -> bool:
        """Whether these are the boxes of ``kinematic`` and of ``characters``: the characters' as they were made
        (none placed since, or since :meth:`settled`), the kinematic bodies' taken from ``kinematic`` when it is
        another set of as many (made again after the bodies moved: every step, for a level's lifts)."""
        if PLACEMENTS.count != self.placements or characters != self._characters:
            return False
        if kinematic is not self.kinematic:
            if len(kinematic.bodies) != self.first:
                return False
            self.boxes[:self.first] = kinematic.boxes
            self.kinematic = kinematic
        return True

    def settled(self) -> None:
        """The characters' moves of this step are done: what they are now is what :meth:`brought_up_to` keeps."""
        self.placements = PLACEMENTS.count

    def near(self, box: Sequence[float], ignore: tuple[object, ...], query: CollisionFilter
             ) -> tuple[list[Neighbour], list[Neighbour]] | None:
        """:meth:`World.gather`'s kinematic bodies and characters (each in order): those whose boxes overlap
        ``box`` (min x, min y, max x, max y, px), whose filters touch ``query``, not in ``ignore`` (bodies,
        characters or colliders). ``None`` when the box test finds none but what ``ignore`` holds (the usual
        gather finds the gatherer itself alone: no lists made)."""
        first = self.first
        if self.stale:
            self.bring_up_to_date()
        min_x, min_y, max_x, max_y = box
        count = kernels().mover.boxes_near(self.boxes, self.filters, min_x, min_y, max_x, max_y, _ALL, _ALL, 0,
                                           self.found)
        if not count:
            return None
        if count == 1:
            only = int(self.found[0]) - first
            if only >= 0 and self._characters[only] in ignore:  # (characters compare by identity)
                return None
        ignored = {id(x) for x in ignore}
        bodies: list[Neighbour] = []
        characters: list[Neighbour] = []
        for row in self.found[:count].tolist():
            if row < first:
                self.kinematic.add_found(row, ignored, query, bodies)
                continue
            ch = self._characters[row - first]
            if id(ch) not in ignored and _wanted(ch, ignored, query):
                characters.append(Neighbour(ch.collider, ch.shape, ch.transform, self.rows[row - first]))
        return bodies, characters

    def row_of(self, character: Character) -> int:
        """The row of ``character``'s box in :attr:`boxes` (-1: none)."""
        if self._rows_of is None:
            self._rows_of = {id(ch): self.first + k for k, ch in enumerate(self._characters)}
        return self._rows_of.get(id(character), -1)

    def bring_up_to_date(self) -> None:
        """Make again the boxes of the characters moved since they were made (:attr:`stale`)."""
        first = self.first
        for k in self.stale:
            self.rows[k] = row = self._characters[k].aabb()  # (an AABB is a tuple: kept as it is)
            self.boxes[first + k] = row
        self.stale.clear()


class _KinematicBoxes:
    """The kinematic bodies' boxes, swept over this step's motion (made with the step's move), and the neighbours
    a gather returns for them (made as gathers find them), kept while no kinematic body is placed, added or
    removed (``key``: see :meth:`World._kinematic_in`): a level's lifts and doors are gathered by every
    character's every move. A gather's answer is the same as testing each body's box as it is now."""

    def __init__(self, kinematic: KinematicSet, key: tuple[int, int, int]) -> None:
        self.key = key
        self.bodies = list(kinematic.bodies)
        self.boxes = kinematic.boxes()
        self.neighbours: dict[int, Neighbour] = {}
        self.found = np.zeros(len(self.bodies), dtype=np.int64)
        """Where :func:`~engine.world.kernels.mover.boxes_near` puts the rows it finds (reused)."""

    def add_found(self, k: int, ignored: set[int], query: CollisionFilter, found: list[Neighbour]) -> None:
        """Add to ``found`` body ``k``, whose swept box a gather's box overlaps, if its filter touches ``query``
        and it is not ignored (by body or collider id)."""
        body = self.bodies[k]
        if _wanted(body, ignored, query):
            neighbour = self.neighbours.get(k)
            if neighbour is None:
                neighbour = self.neighbours[k] = Neighbour(body.collider, body.shape, body.transform,
                                                           tuple(self.boxes[k].tolist()))
            found.append(neighbour)


class _StandingBodies:
    """The rigid bodies' boxes (all in one compiled call, padded a little) and the neighbours gathers made of
    them, made as the gathers first ask, while the characters move in a step: the bodies stand still until
    the rigid step (a character's push changes only their velocity)."""

    def __init__(self) -> None:
        self.boxes: np.ndarray | None = None
        self.seen: dict[int, tuple[AABB, Neighbour]] = {}
        """Each body's exact box and neighbour, by its index, once a gather has looked at it."""


def _holds(key: tuple[object, ...] | None, level: object, query: CollisionFilter, box: Sequence[float]) -> bool:
    """Whether static segments gathered for ``key`` (``World.candidates``: level, filter, box) hold every segment
    a gather in ``box`` with filter ``query`` on ``level`` would find."""
    if key is None or key[0] is not level or (key[1] is not query and key[1] != query):
        return False
    _, _, min_x, min_y, max_x, max_y = key
    return min_x <= box[0] and min_y <= box[1] and box[2] <= max_x and box[3] <= max_y  # type: ignore[operator]


@lru_cache(maxsize=16)
def _open_filters(count: int) -> np.ndarray:
    """``count`` rows of a filter that touches every query (all categories, no group), for
    :func:`~engine.world.kernels.mover.boxes_near`'s box test alone (shared: never written). The bodies' own
    filters may change at any time, and are tested as they are."""
    filters = np.full((count, 3), _ALL, dtype=np.int64)
    filters[:, 2] = 0
    return filters


def _rows_near(boxes: np.ndarray, box: AABB, pad: float, found: np.ndarray) -> list[int]:
    """The rows of ``boxes`` ((n, 4) px) that overlap or touch ``box`` grown by ``pad`` px, ascending, found in
    one compiled call (:func:`~engine.world.kernels.mover.boxes_near`, its answer put in ``found``, n long)."""
    count = kernels().mover.boxes_near(boxes, _open_filters(len(boxes)), box.min_x - pad, box.min_y - pad, box.max_x + pad,
                       box.max_y + pad, _ALL, _ALL, 0, found)
    rows: list[int] = found[:count].tolist()
    return rows


def _ignores_segments(ignore: tuple[object, ...]) -> bool:
    """Whether a static segment's collider is among ``ignore`` (a loop: cheaper than ``any`` over a generator,
    and asked at every gather)."""
    for x in ignore:
        if isinstance(x, Collider) and x.segment >= 0:
            return True
    return False


def _unit(x: float, y: float) -> Vec2:
    """(``x``, ``y``) scaled to length 1 ((0, 0) stays)."""
    length = math.hypot(x, y)
    return (x / length, y / length) if length > 0.0 else (0.0, 0.0)


def _wanted(body: KinematicBody | RigidBody | Character, ignored: set[int], query: CollisionFilter) -> bool:
    """Whether a gather with filter ``query``, ignoring the ids in ``ignored`` (of bodies or their colliders),
    may return ``body`` (its box decides then)."""
    if id(body.collider) in ignored or id(body) in ignored:
        return False
    return (body.filter is DEFAULT_FILTER and query is DEFAULT_FILTER) or query.touches(body.filter)


class World:
    """Owns static geometry, rigid bodies, kinematic bodies, characters and sensors; ``step(dt)`` advances
    them.

    ``gravity`` (px/s^2, a vector, y-up, so usually negative y) pulls rigid bodies and is what characters'
    controllers read. ``static_friction`` is the friction coefficient of static geometry and kinematic
    bodies against rigid bodies.
    """

    def __init__(
        self, gravity: Sequence[float] = DEFAULT_GRAVITY, physics: PhysicsConfig | None = None,
        static_friction: float = DEFAULT_FRICTION, queries: QueryConfig | None = None,
    ) -> None:
        gx, gy = float(gravity[0]), float(gravity[1])
        if not (math.isfinite(gx) and math.isfinite(gy)):
            raise WorldError(f"gravity must be a finite vector (px/s^2), got {gravity!r}")
        if not (math.isfinite(static_friction) and static_friction >= 0):
            raise WorldError(f"static_friction must be a number >= 0, got {static_friction!r}")
        keep_step_memory()  # (steps reuse the memory they free: see engine.world.step_memory)
        self.gravity: Vec2 = (gx, gy)
        self.physics = physics or PhysicsConfig()
        self.static_friction = float(static_friction)
        self.time = 0.0
        self.step_count = 0
        self.static = StaticGeometry(queries)
        self._rigid = RigidBodySet(self.physics)
        self._sensor_set = SensorSet()
        self._character_touches = CharacterTouches()
        self._kinematic = KinematicSet()
        self._kinematic_bodies = self._kinematic.bodies
        """The kinematic bodies (the list :attr:`_kinematic` keeps)."""
        self._characters: list[Character] = []
        self._views: tuple[tuple[KinematicBody, ...], tuple[Character, ...]] = ((), ())
        """The read-only views of the two lists (made again when one changes)."""
        self.events: list[ContactEvent] = []
        """What happened in the last step: contact and sensor begin/end, ``land`` and ``crushed`` events."""
        self._stepping = False
        self._removals: list[object] = []
        self._moving: _MovingBoxes | None = None
        """The kinematic bodies' and the characters' boxes while the characters move in a step."""
        self._moving_kept: _MovingBoxes | None = None
        """The last ones made, used again while still current."""
        self._standing: _StandingBodies | None = None
        """The rigid bodies' boxes while the characters move in a step (``None`` the rest of the time)."""
        self._slide_out = (np.zeros((64, 9)), np.zeros((3, 6)))
        """Where :meth:`slide`'s kernel writes its stops (up to ``MoverConfig.max_slides``, at most 64)
        and the contacts touched at the end, read back at once (reused: cheaper than new arrays)."""
        self._kinematic_boxes = _KinematicBoxes(self._kinematic, (-1, -1, -1))
        """The kinematic bodies' swept boxes and neighbours, the last ones made (see :meth:`_kinematic_in`)."""
        self._kinematic_changes = 0
        """How many times a kinematic body was added to or removed from this world."""
        self._movers: dict[int, tuple[np.ndarray, RoundedPolygon, RoundedPolygon, MoverConfig]] = {}
        """The characters' constants for the compiled slide by the id of their cast shape (each character's own),
        kept with that shape, the character's own shape and config, which must still be the ones asked for."""
        self._body_sums: dict[tuple, tuple[np.ndarray, RoundedPolygon, RoundedPolygon]] = {}
        """Sum-table rows of a cast shape and a body's shape by (id of the body's shape, its placement, id of the
        cast shape, its angle, the body's box); the shapes are kept with the row so that their ids stay theirs."""
        self._cores: dict[int, tuple[tuple[Vec2, ...], np.ndarray]] = {}
        """Core vertices asked of :meth:`_core_of` by their id, with their array."""

    # ---------------------------------------------------------------- parts, read-only views
    @property
    def bodies(self) -> list[RigidBody]:
        """The rigid bodies, in the order they were added (read it; add and remove through the world)."""
        return self._rigid.bodies

    @property
    def kinematic_bodies(self) -> tuple[KinematicBody, ...]:
        """The kinematic bodies, in the order they were added (read-only: add and remove through the world)."""
        return self._views[0]

    @property
    def characters(self) -> tuple[Character, ...]:
        """The characters, in the order they were added (read-only: add and remove through the world)."""
        return self._views[1]

    def _lists_changed(self) -> None:
        self._views = (tuple(self._kinematic_bodies), tuple(self._characters))

    @property
    def sensors(self) -> list[Sensor]:
        """The sensors, in the order they were added (read it; add and remove through the world)."""
        return self._sensor_set.sensors

    @property
    def contacts_of_last_step(self) -> ContactSet:
        """The rigid-body contacts of the last step (the debug overlay draws them)."""
        return self._rigid.contacts

    # ---------------------------------------------------------------- building
    def add_segments(
        self, a: Sequence[Sequence[float]] | np.ndarray, b: Sequence[Sequence[float]] | np.ndarray,
        radius: float | Sequence[float] = 2.0, one_way: Sequence[float] | None = None,
        filter: CollisionFilter | None = None, user_data: Any = None,
    ) -> range:
        """Add static thick segments from ``a[i]`` to ``b[i]`` (pixels) with ``radius``; ``one_way`` (a
        direction) makes them one-way. Returns the range of their segment indices. Sleeping bodies they meet
        wake."""
        added = self.static.add_segments(a, b, radius, one_way, filter, user_data)
        self._rigid.wake_in_boxes(self.static.boxes_of(added))
        return added

    def add_chain(
        self, points: Sequence[Sequence[float]], radius: float = 2.0, closed: bool = False,
        one_way: Sequence[float] | None = None, filter: CollisionFilter | None = None, user_data: Any = None,
    ) -> range:
        """Add a chain of thick segments through ``points`` (closed: back to the first point). Sleeping bodies
        it meets wake."""
        added = self.static.add_chain(points, radius, closed, one_way, filter, user_data)
        self._rigid.wake_in_boxes(self.static.boxes_of(added))
        return added

    def add_kinematic(self, body: KinematicBody) -> KinematicBody:
        """Add a kinematic body (a moving platform, a door); returns it."""
        if not isinstance(body, KinematicBody):
            raise WorldError(f"add_kinematic takes a KinematicBody, got {body!r}")
        self._kinematic.add(body)
        self._lists_changed()
        self._kinematic_changes += 1
        return body

    def add_body(self, body: RigidBody) -> RigidBody:
        """Add a dynamic rigid body (a crate); returns it."""
        return self._rigid.add(body)

    def add_sensor(self, sensor: Sensor) -> Sensor:
        """Add a region that reports overlaps with characters and bodies as events; returns it."""
        if not isinstance(sensor, Sensor):
            raise WorldError(f"add_sensor takes a Sensor, got {sensor!r}")
        return self._sensor_set.add(sensor)

    def add_character(self, character_or_shape: Character | RoundedPolygon, position: Sequence[float] | None = None,
                      config: MoverConfig | None = None) -> Character:
        """Add a :class:`~engine.character.Character`; returns it. ``add_character(shape, position, config)``
        is short for ``add_character(Character(shape, position, config))``."""
        if isinstance(character_or_shape, Character):
            character = character_or_shape
        elif isinstance(character_or_shape, RoundedPolygon) and position is not None:
            character = Character(character_or_shape, (float(position[0]), float(position[1])), config or MoverConfig())
        else:
            raise WorldError(f"add_character takes a Character (or a shape and a position), got {character_or_shape!r}")
        if character in self._characters:
            raise WorldError("this character is already in the world")
        character.attach(self)
        self._characters.append(character)
        self._lists_changed()
        return character

    def remove(self, thing: object) -> None:
        """Take a rigid body, kinematic body, character or sensor out of the world. Safe to call while
        handling the events of a step, or from inside one: then it happens at the end of that step."""
        if self._stepping:
            self._removals.append(thing)
            return
        self._remove_now(thing)

    def _remove_now(self, thing: object) -> None:
        if isinstance(thing, RigidBody) and thing in self.bodies:
            self._rigid.remove(thing)
        elif isinstance(thing, KinematicBody) and thing in self._kinematic_bodies:
            self._kinematic.remove(thing)
            self._lists_changed()
            self._kinematic_changes += 1
            self._rigid.forget(thing)
        elif isinstance(thing, Character) and thing in self._characters:
            self._characters.remove(thing)
            self._lists_changed()
            self._rigid.forget(thing)
            self._character_touches.forget(thing)
            thing.detach()
        elif isinstance(thing, Sensor) and thing in self.sensors:
            self._sensor_set.remove(thing)
            return
        else:
            raise WorldError(f"remove: {thing!r} is not in this world")
        self._sensor_set.forget(thing)

    def remove_body(self, body: RigidBody) -> None:
        """Same as :meth:`remove` (kept for code written before it)."""
        self.remove(body)

    # ---------------------------------------------------------------- stepping
    def step(self, dt: float) -> None:
        """Advance the world by ``dt`` seconds: kinematic bodies first, then characters, then rigid bodies (and
        the characters standing on them go where they went), then sensors. ``events`` holds what happened."""
        if not (math.isfinite(dt) and dt > 0):
            raise WorldError(f"step dt must be a positive number of seconds, got {dt!r}")
        self._stepping = True
        try:
            self.events = self._step_parts(dt)
            self.time += dt
            self.step_count += 1
        finally:
            self._stepping = False
            if self._removals:
                self._remove_pending()

    def _step_parts(self, dt: float) -> list[ContactEvent]:
        """A step of every part in turn; returns its events."""
        events: list[ContactEvent] = []
        try:
            self._kinematic.advance(dt)
            if self._characters:
                events = self._move_characters(dt)
            if len(self._characters) > 1 or self._character_touches.watching:  # (a hero alone touches no one)
                events.extend(self._character_touches.events(self._characters))
        finally:
            self._moving = self._standing = None
        if self._rigid.bodies:  # (a world of characters only: no rigid step)
            before = self._rigid.body_state[:, VX:VX + 2].copy() if self._characters else None
            events.extend(self._rigid.step(self.static, self._kinematic, self._characters, self.gravity,
                                           self.physics, self.static_friction, dt))
            if before is not None:
                self._shove_characters(before, dt)
                self._ride_bodies()
        if self.sensors:  # (their boxes are all the bodies' boxes: not made for nothing)
            events.extend(self._sensor_set.sense([*self._characters, *self.bodies], self._boxes_for_sensors()))
        return events

    def _remove_pending(self) -> None:
        """Take out what was asked to leave during the step (still here: it may have been asked twice)."""
        removals, self._removals = self._removals, []
        for thing in removals:
            if thing in self.bodies or thing in self._kinematic_bodies or thing in self._characters \
                    or thing in self.sensors:
                self._remove_now(thing)

    def _move_characters(self, dt: float) -> list[ContactEvent]:
        """Move every character (their gathers share one array of what moves); returns their events."""
        events: list[ContactEvent] = []
        alone = len(self._characters) == 1 and not self._kinematic_bodies and not self._rigid.bodies
        self._moving = moving = None if alone else self._moving_now()  # (a hero alone: its gathers ask no boxes)
        self._standing = _StandingBodies() if self._rigid.bodies else None  # (none: no gather looks for bodies)
        dynamic = BodyKind.DYNAMIC  # (looked up once: a crowd's loop is long)
        stale = moving.stale if moving is not None else set()
        for k, character in enumerate(self._characters):
            character.move(dt)
            stale.add(k)  # (its box is made again when a gather next asks for it)
            if character.step_events:
                events.extend(character.step_events)
            floor = character.floor_collider
            if character.on_floor and floor is not None and floor.kind is dynamic:
                self._press_on_floor(character, dt)
        if moving is not None:
            moving.settled()
        self._moving_kept, self._moving, self._standing = moving, None, None
        return events

    def _shove_characters(self, before: np.ndarray, dt: float) -> None:
        """Rigid bodies that ran into a character from the side this step share their momentum with it (the
        solve holds a character still, as it has moved already): both go on at the speed a perfectly inelastic
        collision of the crate's mass and the character's (``MoverConfig.mass``) gives, the character by a push
        (its next move) and the body by an impulse. ``before``: the bodies' velocities at the step's start.
        (A character running into a body pushes it in its own move: ``Mover._push``.)"""
        contacts = self._rigid.step_contacts
        pressing = np.flatnonzero(contacts.kind == CHARACTER)
        if not len(pressing):
            return
        bodies = self._rigid.bodies
        for k in pressing.tolist():
            character, body = self._rigid.mover(int(contacts.a_index[k])), bodies[contacts.b_index[k]]
            nx, ny = contacts.normal[k].tolist()  # (from the character to the body)
            cfg = character.config
            if abs(nx * cfg.up[0] + ny * cfg.up[1]) >= cfg.floor_limit:
                continue  # (a body on its head weighs on it; one it stands on is its floor)
            closing = self._closing(character, before, k, dt)
            if closing is None:
                continue  # (not closing, or not within the step: it walked into it, or it rested against it)
            if self._held_from_behind(character, (nx, ny)) or self._struck_from_both_sides(pressing, k, before, dt):
                continue  # (against a wall, or squeezed between bodies: the crate stops at it, as at the wall)
            moved, came = closing
            shared = moved + (came - moved) * body.mass / (body.mass + cfg.mass)
            vx, vy = character.velocity
            if vx * nx + vy * ny > shared:
                character.push((nx * (shared - vx * nx - vy * ny), ny * (shared - vx * nx - vy * ny)))
            bvx, bvy = body.velocity
            if bvx * nx + bvy * ny > shared:
                points = contacts.point[k][contacts.valid[k]]
                at = tuple(points.mean(axis=0).tolist()) if len(points) else body.position
                change = body.mass * (shared - bvx * nx - bvy * ny)
                body.apply_impulse((nx * change, ny * change), at)

    def _closing(self, character: Character, before: np.ndarray, k: int, dt: float) -> tuple[float, float] | None:
        """How fast (px/s, along the normal from the character to the body) the character of the step's contact
        ``k`` moved and its body came (``before``: the bodies' velocities at step start), when the body ran into
        it within the step; ``None`` when it did not."""
        contacts = self._rigid.step_contacts
        nx, ny = contacts.normal[k].tolist()
        start = character.previous_position or character.position
        moved = ((character.position[0] - start[0]) * nx + (character.position[1] - start[1]) * ny) / dt
        came = before[contacts.b_index[k], 0] * nx + before[contacts.b_index[k], 1] * ny
        gap = float(np.min(contacts.separation[k][contacts.valid[k]], initial=np.inf))
        if not (came < moved and gap < (moved - came) * dt + self.physics.linear_slop):
            return None
        return moved, float(came)

    def _struck_from_both_sides(self, pressing: np.ndarray, k: int, before: np.ndarray, dt: float) -> bool:
        """Whether the character of the step's contact ``k`` (of the characters' contacts ``pressing``) touches,
        or is run into by, another body on its other side: squeezed between two bodies, neither strikes it."""
        contacts = self._rigid.step_contacts
        mine = pressing[(contacts.a_index[pressing] == contacts.a_index[k])
                        & (contacts.b_index[pressing] != contacts.b_index[k])]
        facing = mine[contacts.normal[mine] @ contacts.normal[k] < -0.5]
        character = self._rigid.mover(int(contacts.a_index[k]))
        return any(contacts.touching[j] or self._closing(character, before, j, dt) is not None
                   for j in facing.tolist())

    def _held_from_behind(self, character: Character, normal: Vec2) -> bool:
        """Whether static geometry or a kinematic body touching ``character`` stops it moving against ``normal``."""
        for contact in self.contacts(character.shape, character.transform, character.config.touch_margin,
                                     ignore=(character,)):
            if contact.collider.kind in (BodyKind.STATIC, BodyKind.KINEMATIC) \
                    and contact.normal[0] * normal[0] + contact.normal[1] * normal[1] > 0.5:
                return True
        return False

    def _ride_bodies(self) -> None:
        """Characters standing on rigid bodies go where those went in this step's rigid step (they moved before
        it, riding what the bodies did the step before: a step late, on a crate riding a lift they sank into it);
        those a body overlaps get out of it (:meth:`~engine.character.Character.after_bodies_moved`). Only
        the characters on a body or whose boxes meet a body's are asked."""
        characters = self._characters
        boxes = np.array([ch.aabb() for ch in characters], dtype=np.float64)
        bodies = self._rigid.boxes(0.0)
        meet = ((boxes[:, None, 0] <= bodies[None, :, 2]) & (boxes[:, None, 2] >= bodies[None, :, 0])
                & (boxes[:, None, 1] <= bodies[None, :, 3]) & (boxes[:, None, 3] >= bodies[None, :, 1]))
        near: list[bool] = np.any(meet, axis=1).tolist()
        dynamic = BodyKind.DYNAMIC
        for character, meets in zip(characters, near):
            floor = character.floor_collider
            if meets or (character.on_floor and floor is not None and floor.kind is dynamic):
                character.after_bodies_moved()

    def _boxes_for_sensors(self) -> np.ndarray | list[AABB]:
        """The characters' and the rigid bodies' boxes (in that order), the bodies' in one compiled call and
        padded a little (the sensors' exact test decides); without rigid bodies the characters' boxes as they
        are (a few are looked at box by box: no array made of them)."""
        if not self._characters:
            return self._rigid.boxes(1e-6)
        if not self._rigid.bodies:
            return [ch.aabb() for ch in self._characters]
        characters = np.array([ch.aabb() for ch in self._characters], dtype=np.float64).reshape(-1, 4)
        return np.concatenate([characters, self._rigid.boxes(1e-6)])

    def _press_on_floor(self, character: Character, dt: float) -> None:
        """A character standing on a rigid body weighs on it (mass x gravity, at the contact) while something holds
        the body up (the floor, a lift, a stack on those): one falling with the character under it falls as it
        would alone (the character rides it, :meth:`_ride_bodies`, and falls no faster)."""
        floor = character.floor_collider
        gx, gy = self.gravity
        if character.on_floor and floor is not None and floor.kind is BodyKind.DYNAMIC \
                and self._rigid.holds(floor.body, _unit(gx, gy)):
            m = character.config.mass
            point = character.floor_point or floor.body.position
            floor.body.apply_impulse((self.gravity[0] * m * dt, self.gravity[1] * m * dt), point)

    # ---------------------------------------------------------------- queries
    def gather(self, box: AABB, ignore: Iterable[object] = (), filter: CollisionFilter | None = None) -> list[Neighbour]:
        """Everything that may touch ``box``: static segments from the broad phase, kinematic bodies, rigid
        bodies and characters whose boxes overlap it, and whose filters touch ``filter`` (default: all).
        Pass the result as ``candidates`` to several queries in a row (the mover gathers once per step, with
        :meth:`candidates`, which the queries answer faster)."""
        return self.candidates(box, ignore, filter).neighbours()

    def candidates(self, box: Sequence[float], ignore: Iterable[object] = (), filter: CollisionFilter | None = None,
                   kept: Gathered | None = None, spare: float = 0.0) -> Gathered:
        """:meth:`gather`'s answer kept for the compiled queries: the static segments as indices (found in one
        compiled call over the broad phase's grid), the rest as neighbours. ``box``: an :class:`AABB` or any
        (min_x, min_y, max_x, max_y) in px.

        A caller that gathers again and again around something moving (the mover, every step) passes its last
        answer as ``kept`` and a ``spare`` margin (px): the static segments are then gathered in ``box`` grown by
        ``spare`` and taken again, with the rows the compiled queries built for them, while later boxes stay
        inside that grown box (same filter, same level, no static segment ignored). The segments are then a
        superset of those in ``box``, in the same (ascending) order: every query answers the same. Bodies and
        characters are gathered afresh each time."""
        query = filter or DEFAULT_FILTER
        static = self.static
        if not isinstance(ignore, tuple):
            ignore = tuple(ignore)  # (looked through more than once below)
        if kept is not None and not kept.others and _holds(kept.static_key, static.broadphase, query, box) \
                and self._nothing_moves_near(box, ignore):
            return kept  # (its segments, nothing moving near then or now: the very same candidates)
        if _ignores_segments(ignore):  # static segments ignored: left out
            dropped = [y.segment for y in ignore if isinstance(y, Collider) and y.segment >= 0]
            segments = static.segments_in(box, query)
            gathered = self._gathered_with(box, ignore, query, segments[~np.isin(segments, dropped)])
        elif kept is not None and _holds(kept.static_key, static.broadphase, query, box):
            gathered = self._gathered_with(box, ignore, query, kept.segments, kept)
        else:
            grown = (box[0] - spare, box[1] - spare, box[2] + spare, box[3] + spare) if spare > 0.0 else box
            gathered = self._gathered_with(box, ignore, query, static.segments_in(grown, query))
            gathered.static_key = (static.broadphase, query, *grown)
        return gathered

    def _moves_only(self, ignore: tuple[object, ...]) -> bool:
        """Whether nothing in this world moves but what ``ignore`` holds: no rigid or kinematic bodies, and no
        character or one that ``ignore`` holds (a hero alone on a static level, whose gathers find no one)."""
        if self._rigid.bodies or self._kinematic_bodies:
            return False
        characters = self._characters
        return not characters or len(characters) == 1 and characters[0] in ignore

    def _nothing_moves_near(self, box: Sequence[float], ignore: tuple[object, ...]) -> bool:
        """Whether, ``ignore`` holding at most one character, nothing that moves but that character has a box
        overlapping or touching ``box`` (the boxes alone, in one compiled call: a gather with filters may find
        nothing even when not). ``False`` with rigid bodies about (their boxes are not among these)."""
        only = ignore[0] if len(ignore) == 1 else None
        if self._rigid.bodies or ignore and not isinstance(only, Character):
            return False
        if self._moves_only(ignore):
            return True  # (a hero alone on a static level: nothing to ask)
        moving = self._moving or self._moving_now()
        if moving.stale:
            moving.bring_up_to_date()
        min_x, min_y, max_x, max_y = box
        count = kernels().mover.boxes_near(moving.boxes, moving.filters, min_x, min_y, max_x, max_y, _ALL, _ALL, 0,
                                           moving.found)
        return count == 0 or count == 1 and isinstance(only, Character) and int(moving.found[0]) == moving.row_of(only)

    def _gathered_with(self, box: Sequence[float], ignore: tuple[object, ...], query: CollisionFilter,
                       segments: np.ndarray, kept: Gathered | None = None) -> Gathered:
        """:meth:`candidates`' answer of these static ``segments`` (those of ``kept``, with its rows and key)
        and the bodies and characters near ``box``."""
        static = self.static
        found = self._near_movers(box, ignore, query)
        if kept is None:
            return Gathered(segments, found, static.has_one_way(segments), static.neighbour)
        if not found and not kept.others:
            return kept  # (the very same candidates: its segments, nothing moving near then or now)
        gathered = Gathered(segments, found, kept.one_way, static.neighbour)
        gathered.rows, gathered.static_key = kept.rows, kept.static_key
        return gathered

    def _near_movers(self, box: Sequence[float], ignore: tuple[object, ...], query: CollisionFilter
                     ) -> list[Neighbour]:
        """:meth:`candidates`' kinematic bodies, rigid bodies and characters near ``box``, in that order (the
        kinematic bodies and characters found in one call over their boxes: :class:`_MovingBoxes`). A hero
        alone on a static level (ignoring itself) finds none: nothing is asked."""
        if self._moves_only(ignore):
            return []
        rigid = self._rigid.bodies
        near = (self._moving or self._moving_now()).near(box, ignore, query)
        if not rigid:
            if near is None:
                return []
            return near[0] + near[1] if near[1] else near[0]
        found, nearby = near or ([], [])
        self._near_rigid(box if isinstance(box, AABB) else AABB(*box), {id(x) for x in ignore}, query, found)
        return found + nearby if nearby else found

    def _near_rigid(self, box: AABB, ignored: set[int], query: CollisionFilter, found: list[Neighbour]) -> None:
        """:meth:`candidates`' rigid bodies: only those near, found from all their boxes at once (a conservative
        pad: the exact test decides, as body by body); the boxes and neighbours made once per step while the
        characters move (:class:`_StandingBodies`)."""
        standing = self._standing
        if standing is None:
            boxes, seen = self._rigid.boxes(1e-6), {}
        else:
            if standing.boxes is None:
                standing.boxes = self._rigid.boxes(1e-6)
            boxes, seen = standing.boxes, standing.seen
        bodies = self.bodies
        for k in _rows_near(boxes, box, 0.0, np.empty(len(boxes), dtype=np.int64)):
            body = bodies[k]
            if not _wanted(body, ignored, query):
                continue
            kept = seen.get(k)
            if kept is None:
                body_box = body.aabb()
                kept = seen[k] = (body_box, Neighbour(body.collider, body.shape, body.transform, (
                    body_box.min_x, body_box.min_y, body_box.max_x, body_box.max_y)))
            if kept[0].overlaps(box):
                found.append(kept[1])

    def _kinematic_in(self) -> _KinematicBoxes:
        """The kinematic bodies' boxes and neighbours as they are now: the kept ones while no kinematic body
        has been placed (:data:`~engine.world.kinematic.PLACEMENTS`), added or removed (:attr:`_kinematic_changes`)
        since they were made, else new ones (kept)."""
        key = (KINEMATIC_PLACEMENTS.count, self._kinematic_changes, len(self._kinematic_bodies))
        if self._kinematic_boxes.key != key:
            self._kinematic_boxes = _KinematicBoxes(self._kinematic, key)
        return self._kinematic_boxes

    def _moving_now(self) -> _MovingBoxes:
        """The kinematic bodies' and characters' boxes as they are now: the kept ones if still current, else new
        ones (kept)."""
        kept, kinematic = self._moving_kept, self._kinematic_in()
        if kept is None or not kept.brought_up_to(kinematic, self._characters):
            kept = self._moving_kept = _MovingBoxes(kinematic, self._characters)
        return kept

    def _candidates(self, box: AABB, ignore: Iterable[object], gathered: list[Neighbour] | Gathered | None
                    ) -> list[Neighbour]:
        """What a query in ``box`` must test: the caller's ``gathered`` candidates narrowed to the box, or,
        without them, a fresh :meth:`gather`."""
        if gathered is None:
            return self.gather(box, ignore)
        return _near(gathered.neighbours() if isinstance(gathered, Gathered) else gathered, box, ignore)

    def cast(
        self, shape: RoundedPolygon, xf: Transform, translation: Sequence[float], ignore: Iterable[object] = (),
        candidates: list[Neighbour] | Gathered | None = None,
    ) -> list[SceneHit]:
        """Every collider that ``shape`` (placed by ``xf``) touches when swept along ``translation``: one hit
        per collider, nearest first (between equal fractions, in the candidates' order). Colliders in ``ignore``
        (colliders or bodies) are skipped. Every sweep is a compiled ray cast against Minkowski sums
        (:func:`~engine.world.kernels.mover.cast_sums`): the level's segments' from the static sum table, the
        bodies' made once per placement; the same hits, bit for bit, as :func:`~engine.geometry.shape_cast`
        (a segment's hit point is its first end where two faces touch: ``edge_midpoints=False``)."""
        tx, ty = float(translation[0]), float(translation[1])
        if not (math.isfinite(tx) and math.isfinite(ty)):
            raise WorldError(f"cast translation must be a finite vector (px), got {translation!r}")
        box = shape.aabb(xf).swept((tx, ty))
        if candidates is None:
            candidates = self.candidates(box, ignore)
        elif not isinstance(candidates, Gathered):
            candidates = self._gathered_of(candidates)
        cast_sums = kernels().mover.cast_sums
        c, s = xf.cos, xf.sin
        ox, oy = xf.position
        keyed: list[tuple[float, int, SceneHit]] = []
        others = _near_others(candidates, box, ignore)
        static = self._static_rows(shape, xf.angle, ignore, candidates)
        if static is None:  # a turned shape: the segments' sums for its angle, made as a body's
            others += _near_entries([(candidates.place_of_static(k), self.static.neighbour(segment))
                                     for k, segment in enumerate(candidates.segments.tolist())], box, ignore)
        elif len(static[1]):
            table, segments, core, places = static
            found = cast_sums(table, segments, core, shape.radius, c, s, ox, oy, tx, ty, *box, 2.0).tolist()
            collider = self.static.collider
            hits = [SceneHit(f, (px, py), (nx, ny), collider(int(segments[int(k)])), inside != 0.0)
                    for k, f, px, py, nx, ny, inside in found]
            if not others:
                return hits
            place_of = candidates.place_of_static
            keyed = [(hit.fraction, place_of(int(places[int(row[0])]) if places is not None else int(row[0])), hit)
                     for row, hit in zip(found, hits)]
        if others:
            table, core = self._body_table(shape, xf.angle, others)
            found = cast_sums(table, _rows(len(others)), core, shape.radius, c, s, ox, oy, tx, ty, *box, 2.0).tolist()
            for k, f, px, py, nx, ny, inside in found:
                place, neighbour = others[int(k)]
                keyed.append((f, place, SceneHit(f, (px, py), (nx, ny), neighbour.collider, inside != 0.0)))
            keyed.sort(key=lambda entry: (entry[0], entry[1]))
        return [hit for _, _, hit in keyed]

    def _gathered_of(self, neighbours: list[Neighbour]) -> Gathered:
        """A plain list of gathered ``neighbours`` as :meth:`candidates` answers: the static segments as indices
        (with their places in the list), the rest as neighbours with theirs."""
        segments = [n.collider.segment for n in neighbours if n.collider.body is None]
        gathered = Gathered(np.array(segments, dtype=np.int64), [], False, self.static.neighbour)
        gathered.static_places = [k for k, n in enumerate(neighbours) if n.collider.body is None]
        gathered.others = [(k, n) for k, n in enumerate(neighbours) if n.collider.body is not None]
        gathered.count = len(neighbours)
        return gathered

    def _static_rows(self, shape: RoundedPolygon, angle: float, ignore: Iterable[object], candidates: Gathered
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None] | None:
        """The sum table of an upright ``shape`` with the gathered static segments not ignored: (table, those
        segments, the shape's core, their places among the gathered segments, ``None`` when all are there).
        ``None`` for a turned shape (the table holds upright sums)."""
        rows = self._gathered_rows(shape, (), candidates) if angle == 0.0 else None
        if rows is None:
            return None
        table, segments, core = rows
        dropped = [x.segment for x in ignore if isinstance(x, Collider) and x.segment >= 0] if ignore else []
        if not dropped:
            return table, segments, core, None
        places = np.flatnonzero(~np.isin(segments, dropped))
        return table, segments[places], core, places

    def contacts(
        self, shape: RoundedPolygon, xf: Transform, margin: float = 0.0, ignore: Iterable[object] = (),
        candidates: list[Neighbour] | Gathered | None = None,
    ) -> list[SceneContact]:
        """Contacts of ``shape`` with every collider within ``margin`` pixels: normals point from the
        collider to the shape (the way out)."""
        box = shape.aabb(xf).grown(margin)
        if candidates is None:
            candidates = self.candidates(box, ignore)
        rows = self._sum_rows(shape, xf, ignore, candidates)
        if rows is not None:
            assert isinstance(candidates, Gathered)
            return self._compiled_contacts(shape, xf, margin, box, candidates, rows, ignore)
        found = []
        for neighbour in self._candidates(box, ignore, candidates):
            contact = _contact(shape, xf, neighbour.collider, neighbour.shape, neighbour.transform, margin)
            if contact is not None:
                found.append(contact)
        return found

    def _sum_rows(self, shape: RoundedPolygon, xf: Transform, ignore: Iterable[object],
                  candidates: list[Neighbour] | Gathered | None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The static geometry's Minkowski-sum table for ``shape``, the gathered segments' rows in it and the
        shape's core (see :mod:`engine.world.kernels.mover`), when the compiled queries can answer for the
        gathered candidates: an upright shape, no static segment ignored. Otherwise ``None``."""
        if not isinstance(candidates, Gathered) or xf.angle != 0.0:
            return None
        return self._gathered_rows(shape, ignore, candidates)

    def _static_only_rows(self, shape: RoundedPolygon, ignore: Iterable[object], candidates: Gathered | None,
                          checked: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """:meth:`_sum_rows` for an upright ``shape`` when the gathered candidates are static solid segments
        only (no bodies, no one-way rules: what the mover's compiled calls answer for); ``None`` otherwise.
        ``checked``: see :meth:`_gathered_rows`."""
        if not isinstance(candidates, Gathered) or candidates.others or candidates.one_way:
            return None
        return self._gathered_rows(shape, ignore, candidates, checked)

    def _gathered_rows(self, shape: RoundedPolygon, ignore: Iterable[object], candidates: Gathered,
                       checked: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """:meth:`_sum_rows` of an upright ``shape`` (made once per gathered candidates and core). Unless
        ``checked``, rows not yet made for these candidates come from the table as it is, unbuilt rows and
        all, for a compiled call that checks them itself (:meth:`slide`)."""
        for x in ignore:
            if isinstance(x, Collider) and x.segment >= 0:
                return None
        key = id(shape.vertices)  # (the shape, alive, keeps its vertices: the id stays theirs while gathered)
        found = candidates.rows.get(key, False)
        if found is False:
            if not checked:
                unchecked = self.static.table_of(shape)
                return unchecked.rows, candidates.segments, unchecked.core
            table = self.static.sum_table(shape, candidates.segments)
            found = None if table is None else (table.rows, candidates.segments, table.core)
            candidates.rows[key] = found
        return found  # type: ignore[no-any-return]

    # ---------------------------------------------------------------- the mover's one-call queries (see Scene)
    def slide(self, mover: MoverShapes, position: Vec2, d: Vec2, velocity: Vec2, grounded: bool,
              candidates: Gathered | None, ignore: Iterable[object], touching: bool = False) -> Slid | None:
        """The mover's slide (``Mover._slide``) of its skin-grown cast shape by ``d`` px from ``position`` in one
        compiled call, when the gathered candidates are static solid segments only (no bodies to push, no
        one-way rules): (hits, stops, end position, end velocity, and with ``touching`` what its own shape
        touches at the end, as :meth:`touching` answers, in the same call). ``None`` otherwise: the mover slides
        cast by cast."""
        shape = mover.cast_shape
        made = None  # (the rows these candidates' queries made already, the usual slide: looked up alone)
        if isinstance(candidates, Gathered) and not ignore and not candidates.others and not candidates.one_way:
            made = candidates.rows.get(id(shape.vertices))
        rows = made or self._static_only_rows(shape, ignore, candidates, checked=False)
        if rows is None:
            return None
        stops_out, touched_out = self._slide_out
        constants = self._mover_constants(mover)
        table, segment_rows, core = rows
        slide_touch = kernels().mover.slide_touch
        answer = slide_touch(table, segment_rows, core, constants, _NOTHING_MOVES, -1, position[0], position[1], d[0],
                             d[1], velocity[0], velocity[1], grounded, touching, False, stops_out, touched_out)
        if answer[0] < 0:  # a row not built yet (the first meeting with a segment), or not usable
            checked = self._static_only_rows(shape, ignore, candidates)
            if checked is None:
                return None
            table, segment_rows, core = checked
            answer = slide_touch(table, segment_rows, core, constants, _NOTHING_MOVES, -1, position[0], position[1],
                                 d[0], d[1], velocity[0], velocity[1], grounded, touching, False, stops_out, touched_out)
        elif made is None and isinstance(candidates, Gathered):
            candidates.rows.setdefault(id(shape.vertices), rows)  # usable: the candidates' next queries take them
        return self._slid(segment_rows, answer, stops_out, touched_out, touching)

    def _slid(self, segment_rows: np.ndarray | None, answer: tuple, stops_out: np.ndarray, touched_out: np.ndarray,
              touching: bool) -> Slid:
        """A compiled slide's ``answer`` (:func:`~engine.world.kernels.mover.slide_touch`'s, with its stops
        and contacts written in ``stops_out`` and ``touched_out``; ``segment_rows``: the gathered segments, or
        ``None`` when the rows name the segments themselves) as :meth:`slide` answers: hits, stops, end
        position, end velocity, and with ``touching`` what it touches there (else ``None``)."""
        count, px, py, vx, vy, floor, wall, ceiling, walls, overlapping = answer
        touched: Touching | None = (None, None, None, walls, overlapping) if touching else None
        if floor or wall or ceiling:
            rows_touched = touched_out.tolist()
            contact_of = self._contact_of
            touched = (contact_of(segment_rows, rows_touched[0]) if floor else None,
                       contact_of(segment_rows, rows_touched[1]) if wall else None,
                       contact_of(segment_rows, rows_touched[2]) if ceiling else None, walls, overlapping)
        hits, trail = self._stops_of(segment_rows, stops_out[:count]) if count else ([], [])
        return hits, trail, (px, py), (vx, vy), touched

    def _stops_of(self, segments: np.ndarray | None, stops: np.ndarray) -> tuple[list[SceneHit], list[Vec2]]:
        """:meth:`slide`'s hits and the trail of their stops from the slide kernels' ``stops`` (rows of their
        columns, the first a row of ``segments``, the gathered ones; the segment itself when ``None``)."""
        hits, trail = [], []
        if len(stops):
            collider = self.static.collider
            for k, f, hx, hy, nx, ny, inside, sx, sy in stops.tolist():
                segment = int(k) if segments is None else segments[int(k)]
                hits.append(SceneHit(f, (hx, hy), (nx, ny), collider(segment), inside != 0.0))
                trail.append((sx, sy))
        return hits, trail

    def _mover_constants(self, mover: MoverShapes) -> np.ndarray:
        """:func:`~engine.world.kernels.mover.mover_constants` of a mover's cast shape, own shape and config, made
        once per the three (kept with them, so that their ids stay theirs)."""
        shape, touching, config = mover.cast_shape, mover.shape, mover.config
        kept = self._movers.get(id(shape))  # (a cast shape is its character's own: one entry per character)
        if kept is None or kept[1] is not shape or kept[2] is not touching or kept[3] is not config:
            if len(self._movers) >= _MOVERS:
                self._movers.clear()
            constants = kernels().mover.mover_constants(
                shape.radius, shape.local_aabb, config.up, config.floor_limit, config.constant_speed_on_slopes,
                config.graze_cosine, config.max_slides, touching.radius, touching.local_aabb,
                config.touch_margin, config.penetration_slop)
            kept = self._movers[id(shape)] = (constants, shape, touching, config)
        return kept[0]

    def _contact_of(self, segment_rows: np.ndarray | None, row: list[float]) -> SceneContact:
        """A row of :func:`~engine.world.kernels.mover.contact_sums`' answer as a scene contact (its first column
        a row of ``segment_rows``, the gathered segments; the segment itself when ``None``)."""
        k, separation, nx, ny, px, py = row
        segment = int(k) if segment_rows is None else segment_rows[int(k)]
        return SceneContact((nx, ny), separation, (px, py), self.static.collider(segment))

    def touching(self, mover: MoverShapes, position: Vec2, candidates: Gathered | None) -> Touching | None:
        """The mover's classification of what its character's own shape at ``position`` touches within
        ``MoverConfig.touch_margin`` px (``Mover._classify_contacts``) in one compiled call (a slide by nothing,
        :meth:`slide`), when the gathered candidates are static solid segments only: (the floor, the nearest
        wall, the nearest ceiling (each ``None`` when there is none), the number of walls, whether one contact
        overlaps deeper than ``MoverConfig.penetration_slop``). ``None`` otherwise: the mover classifies
        :meth:`contacts` itself."""
        slid = self.slide(mover, position, (0.0, 0.0), (0.0, 0.0), False, candidates, (), touching=True)
        return None if slid is None else slid[4]

    def first_hit(self, mover: MoverShapes, position: Vec2, d: Vec2, candidates: Gathered | None,
                  ignore: Iterable[object]) -> tuple[SceneHit | None] | None:
        """The mover's first hit (``Mover._first_hit``) of its skin-grown cast shape swept from ``position`` by
        ``d`` px, compiled (one call for the level's segments, one for the bodies and characters gathered), when
        no one-way collider is among the gathered candidates and no static segment is ignored: a 1-tuple holding
        the hit, or ``None`` in it when nothing stops the sweep. ``None`` otherwise: the mover filters
        :meth:`cast`'s hits itself."""
        if not isinstance(candidates, Gathered) or candidates.one_way:
            return None
        shape = mover.cast_shape
        rows = self._gathered_rows(shape, ignore, candidates)
        if rows is None:
            return None
        others = candidates.others
        if others:
            (x, y), (dx, dy), box = position, d, shape.local_aabb  # (grown by a pixel: the kernel tests the boxes)
            others = _near_entries(others, AABB(box.min_x + x + min(dx, 0.0) - 1.0, box.min_y + y + min(dy, 0.0) - 1.0,
                                                box.max_x + x + max(dx, 0.0) + 1.0, box.max_y + y + max(dy, 0.0) + 1.0),
                                   ignore)
            if any(n.collider.one_way is not None for _, n in others):
                return None
        table, segment_rows, core = rows
        best: tuple[float, int, SceneHit] | None = None
        if len(segment_rows):
            found = self._first_of(mover, table, segment_rows, core, position, d)
            if found is not None:
                k, f, hx, hy, nx, ny, inside = found
                hit = SceneHit(f, (hx, hy), (nx, ny), self.static.collider(segment_rows[k]), inside)
                best = (f, candidates.place_of_static(k) if others else k, hit)  # (places only break ties with others)
        if others:
            table, core = self._body_table(shape, 0.0, others)
            found = self._first_of(mover, table, _rows(len(others)), core, position, d)
            if found is not None:
                k, f, hx, hy, nx, ny, inside = found
                place = others[k][0]
                if best is None or f < best[0] or f == best[0] and place < best[1]:
                    best = (f, place, SceneHit(f, (hx, hy), (nx, ny), others[k][1].collider, inside))
        return (None if best is None else best[2],)

    def lone_first_hit(self, mover: MoverShapes, character: Character, position: Vec2, d: Vec2, box: Sequence[float],
                       kept: Gathered | None, query: CollisionFilter | None) -> tuple[SceneHit | None] | None:
        """:meth:`first_hit` of ``character``'s mover, ignoring ``character``, among what a gather in ``box`` (its
        cast shape's box at ``position`` swept by ``d``, px) with filter ``query`` finds, when that is ``kept``
        itself (its last gather, whose static segments hold ``box``, when that found nothing moving and nothing
        moves near ``box`` now): the box test and the first hit in one compiled call. A 1-tuple of the hit
        (``None`` in it: nothing stops the sweep); ``None`` when it cannot tell (something moves near, rigid bodies,
        a one-way segment, rows not made yet): the mover gathers and asks :meth:`first_hit`."""
        if kept is None or kept.others or kept.one_way or self._rigid.bodies \
                or not _holds(kept.static_key, self.static.broadphase, query or DEFAULT_FILTER, box):
            return None
        rows = kept.rows.get(id(mover.cast_shape.vertices))
        if not rows:
            return None  # (not made for these candidates yet, or no table for them)
        if self._moves_only((character,)):
            boxes, skip = _NOTHING_MOVES, -1  # (a hero alone on a static level)
        else:
            moving = self._moving or self._moving_now()
            if moving.stale:
                moving.bring_up_to_date()
            boxes, skip = moving.boxes, moving.row_of(character)
        table, segments, core = rows
        stops_out, touched_out = self._slide_out
        count = kernels().mover.slide_touch(table, segments, core, self._mover_constants(mover), boxes, skip,
                                            position[0], position[1], d[0], d[1], 0.0, 0.0, False, False, True,
                                            stops_out, touched_out)[0]
        if count <= 0:
            return (None,) if count == 0 else None
        k, f, hx, hy, nx, ny, inside = stops_out[0, :7].tolist()
        return (SceneHit(f, (hx, hy), (nx, ny), self.static.collider(segments[int(k)]), inside != 0.0),)

    def _first_of(self, mover: MoverShapes, table: np.ndarray, rows: np.ndarray, core: np.ndarray, position: Vec2,
                  d: Vec2) -> tuple[int, float, float, float, float, float, bool] | None:
        """The first hit that stops the mover's cast shape swept from ``position`` by ``d`` among the sum-table
        ``rows`` of ``table`` (all built), grazes skipped (:func:`~engine.world.kernels.mover.slide_touch` asked for
        the first hit only): (index into ``rows``, fraction, point x, y, normal x, y, started inside), ``None``
        when nothing stops it."""
        stops_out, touched_out = self._slide_out
        count = kernels().mover.slide_touch(table, rows, core, self._mover_constants(mover), _NOTHING_MOVES, -1,
                                            position[0], position[1], d[0], d[1], 0.0, 0.0, False, False, True,
                                            stops_out, touched_out)[0]
        assert count >= 0  # (the rows are built)
        if count == 0:
            return None
        k, f, hx, hy, nx, ny, inside = stops_out[0, :7].tolist()
        return int(k), f, hx, hy, nx, ny, inside != 0.0

    def _body_table(self, shape: RoundedPolygon, angle: float, others: list[tuple[int, Neighbour]]
                    ) -> tuple[np.ndarray, np.ndarray]:
        """The sum table of ``shape`` turned by ``angle`` with each of the ``others``' shapes where they were
        gathered (one row each, in order; see :meth:`_body_row`) and the shape's core."""
        rows = [self._body_row(shape, angle, n.shape, n.transform, n.box) for _, n in others]
        if len(rows) == 1:
            table = rows[0][None, :]
        else:
            table = np.zeros((len(rows), max(len(row) for row in rows)))
            for k, row in enumerate(rows):
                table[k, :len(row)] = row
        return table, self._core_of(shape)

    def _body_row(self, shape: RoundedPolygon, angle: float, target: RoundedPolygon, xf_target: Transform,
                  box: Sequence[float]) -> np.ndarray:
        """The sum-table row of ``shape`` turned by ``angle`` against a body's ``target`` shape placed by
        ``xf_target`` (``box``: its box, px), which keeps the target's world core (a face-to-face hit reports
        the middle of the touching stretch). Made once per placement of the two and kept (a character casts a
        dozen times a step against a crate it pushes, which mostly rests; making the sum is most of the work)."""
        key = (id(target), xf_target.position, xf_target.angle, id(shape), angle, box)
        kept = self._body_sums.get(key)
        if kept is None:
            if len(self._body_sums) >= _BODY_SUMS:
                self._body_sums.clear()
            grown = minkowski_difference(target, xf_target, shape, angle)
            row = sum_row(grown.vertices, grown.normals, target.radius, box,
                          [xf_target.apply(v) for v in target.vertices])
            kept = self._body_sums[key] = (row, target, shape)
        return kept[0]

    def _core_of(self, shape: RoundedPolygon) -> np.ndarray:
        """``shape``'s core vertices as an (n, 2) array, px (made once per core, kept with the vertices so that
        their id stays theirs)."""
        kept = self._cores.get(id(shape.vertices))
        if kept is None or kept[0] is not shape.vertices:
            if len(self._cores) >= _BODY_SUMS:
                self._cores.clear()
            kept = self._cores[id(shape.vertices)] = (shape.vertices, np.array(shape.vertices, dtype=np.float64)
                                                      .reshape(-1, 2))
        return kept[1]

    def _compiled_contacts(self, shape: RoundedPolygon, xf: Transform, margin: float, box: AABB,
                           candidates: Gathered, rows: tuple[np.ndarray, np.ndarray, np.ndarray],
                           ignore: Iterable[object]) -> list[SceneContact]:
        """:meth:`contacts` with the static segments in one compiled call, the other colliders one by one;
        in the candidates' order."""
        ox, oy = xf.position
        table, segment_rows, core = rows
        found = kernels().mover.contact_sums(table, segment_rows, core, shape.radius, ox, oy, margin, *box, 2.0)
        contacts = []
        if len(found):
            segments, collider = candidates.segments, self.static.collider
            contacts = [SceneContact((nx, ny), separation, (px, py), collider(segments[int(k)]))
                        for k, separation, nx, ny, px, py in found.tolist()]
        others = _near_others(candidates, box, ignore)
        if not others:
            return contacts
        place = candidates.place_of_static
        keyed = [(place(int(k)), contact) for k, contact in zip(found[:, 0].tolist(), contacts)]
        for other_place, (other, target, xf_target, _) in others:
            contact = _contact(shape, xf, other, target, xf_target, margin)
            if contact is not None:
                keyed.append((other_place, contact))
        keyed.sort(key=lambda entry: entry[0])
        return [contact for _, contact in keyed]

    def holds(self, body: object, direction: Vec2) -> bool:
        """Whether, as the last step left them, static geometry or a kinematic body holds ``body`` (a rigid body of
        this world) from moving along ``direction`` (a unit vector), at once or through a chain of touching bodies
        (a crate resting on the floor, against a push down). Anything else is held by nothing."""
        return isinstance(body, RigidBody) and self._rigid.holds(body, direction)

    def contact_with(
        self, shape: RoundedPolygon, xf: Transform, collider: Collider, margin: float, at_previous: bool = False
    ) -> SceneContact | None:
        """Contact of ``shape`` with one collider; ``at_previous`` uses a body's transform before this step."""
        return _contact(shape, xf, collider, *self._placed(collider, at_previous), margin)

    def manifold_with(self, shape: RoundedPolygon, xf: Transform, collider: Collider,
                      margin: float) -> Manifold | None:
        """Every point of ``shape``'s contact with one collider within ``margin`` px (the normal from the collider
        to the shape), or ``None``."""
        target, xf_target = self._placed(collider, False)
        return manifold(target, xf_target, shape, xf, margin)

    def _placed(self, collider: Collider, at_previous: bool) -> tuple[RoundedPolygon, Transform]:
        """``collider``'s shape and where it is (``at_previous``: a body where it was before this step)."""
        if collider.body is not None:
            body = collider.body
            return body.shape, body.previous_transform if at_previous else body.transform
        return self.static.shape(collider.segment), _IDENTITY



def _contact(shape: RoundedPolygon, xf: Transform, collider: Collider, target: RoundedPolygon, xf_target: Transform,
             margin: float) -> SceneContact | None:
    """The deepest point of ``shape``'s contact with ``collider`` (its ``target`` shape placed by ``xf_target``)
    within ``margin`` px, the normal from the collider to the shape; ``None`` when none is that close."""
    m = manifold(target, xf_target, shape, xf, margin)
    if m is None:
        return None
    deepest = min(m.points, key=lambda p: p.separation)
    return SceneContact(m.normal, deepest.separation, deepest.point, collider)


def _near(candidates: list[Neighbour], box: AABB, ignore: Iterable[object]) -> list[Neighbour]:
    """The gathered candidates whose boxes overlap ``box`` (and that are not ignored)."""
    min_x, min_y, max_x, max_y = box
    ignored = {id(x) for x in ignore} if ignore else ()
    return [
        n for n in candidates
        if n.box[0] <= max_x and n.box[2] >= min_x and n.box[1] <= max_y and n.box[3] >= min_y
        and not (ignored and (id(n.collider) in ignored or id(n.collider.body) in ignored))
    ]


_ROWS = np.arange(256, dtype=np.int64)


def _rows(count: int) -> np.ndarray:
    """The row indices 0 .. ``count`` - 1 of a small sum table (int64)."""
    return _ROWS[:count] if count <= len(_ROWS) else np.arange(count, dtype=np.int64)


def _near_others(candidates: Gathered, box: AABB, ignore: Iterable[object]) -> list[tuple[int, Neighbour]]:
    """The gathered non-static candidates (with their places) whose boxes overlap ``box``, not ignored."""
    return _near_entries(candidates.others, box, ignore) if candidates.others else []


def _near_entries(entries: list[tuple[int, Neighbour]], box: AABB, ignore: Iterable[object]
                  ) -> list[tuple[int, Neighbour]]:
    """The ``entries`` (places and neighbours) whose boxes overlap ``box``, not ignored."""
    min_x, min_y, max_x, max_y = box
    ignored = {id(x) for x in ignore} if ignore else ()
    return [
        (place, n) for place, n in entries
        if n.box[0] <= max_x and n.box[2] >= min_x and n.box[1] <= max_y and n.box[3] >= min_y
        and not (ignored and (id(n.collider) in ignored or id(n.collider.body) in ignored))
    ]


def _mover_stages(package: Any) -> Iterator[str]:
    """The character mover's kernels compiled (or loaded) stage by stage (see :func:`~engine.world.jit.add_stages`),
    the last on a level of one floor segment, with the arguments :class:`StaticGeometry` makes."""
    yield from package.mover.compile_steps()
    static = StaticGeometry()
    static.add_segments([(-200.0, 0.0)], [(200.0, 0.0)])
    gather = static.kernel_query((-12.0, 0.0, 12.0, 40.0), DEFAULT_FILTER)
    assert gather is not None
    package.broad_phase.segments_in_box(*gather)
    yield "level grid"


add_stages(_mover_stages)
