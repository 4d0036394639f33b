"""Rigid bodies for crates and other loose things, sensors, contact events, and the solver's tunables.

A :class:`RigidBody` is dynamic: forces and contacts move it. Its shape is any rounded convex polygon; mass
and rotational inertia come from ``density`` through the kernel's exact
:func:`~engine.geometry.mass_properties`. The body's ``position`` is its centre of mass (the shape is
re-centred on it when the body is made), ``angle`` its rotation (radians, counter-clockwise).

A :class:`Sensor` is a region that reports overlaps (begin / end events) without pushing anything: goals,
hazards, pickups, checkpoints.

Units: pixels, seconds, radians; mass is density x area (square pixels), so with density 1 a 32 x 32 crate
weighs 1024 mass units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Sequence, overload

import numpy as np

from .geometry import AABB, MassProperties, RoundedPolygon, Transform, Vec2, mass_properties
from .types import (
    DEFAULT_FILTER, DEFAULT_FRICTION, BodyKind, Collider, CollisionFilter, ContactEvent, MovingBody, Tally,
    WorldError, require_nonnegative,
)

__all__ = ["STATE_COLUMNS", "ContactEvent", "PhysicsConfig", "RigidBody", "Sensor", "check_filter"]


def check_filter(value: object, owner: str) -> None:
    """A filter given as anything but a :class:`CollisionFilter` is named in the error."""
    if not isinstance(value, CollisionFilter):
        raise WorldError(f"{owner}.filter must be a CollisionFilter, got {value!r}")


def _finite(value: float, what: str, minimum: float | None = None) -> float:
    v = float(value)
    if not math.isfinite(v) or (minimum is not None and v < minimum):
        bound = "" if minimum is None else f" >= {minimum}"
        raise WorldError(f"{what} must be a finite number{bound}, got {value!r}")
    return v


@dataclass(frozen=True)
class PhysicsConfig:
    """Tunables of the rigid-body solver (Box2D v3's soft step). Validated when made."""

    substeps: int = 4
    """Solver substeps per step: each integrates velocities, solves contacts softly, integrates positions
    and relaxes. More substeps = stiffer stacks (typical 4)."""
    uneven_mass_ratio: float = 10.0
    """Two bodies whose masses differ more than this many times get stiff contact springs between them, and
    a step where any such pair is in contact runs ``uneven_mass_substeps``."""
    uneven_mass_substeps: int = 8
    """Substeps of a step with bodies of uneven mass in contact (a heavy crate on a light one trembles and
    never sleeps at 4; at 8 it sleeps within a second up to 100:1)."""
    contact_hertz: float = 60.0
    """Stiffness of contacts as a spring frequency (Hz); capped at a quarter of the substep rate. Higher
    than Box2D's 30 because pixel worlds fall fast for their size (1800 px/s^2 on 32 px crates is ~5x
    Box2D's usual gravity-to-size ratio): at 30 Hz a 10-crate stack sags 4.7 px, at 60 Hz 1.2 px."""
    friction_anchor_hertz: float = 15.0
    """Stiffness (Hz) of the spring that holds static friction at the contact anchors (so stacks do not
    creep). Softer than the contacts on purpose: at the contacts' 60 Hz a 210-crate pyramid never stops
    trembling; at 15 Hz it settles and sleeps, and it moves less."""
    contact_damping_ratio: float = 10.0
    """Damping of the contact spring (10 = heavily overdamped: no bounce from the position correction)."""
    contact_push_max_velocity: float = 100.0
    """px/s. Fastest speed at which overlap is pushed apart (keeps deep overlaps from exploding)."""
    restitution_threshold: float = 30.0
    """px/s. Approach speeds below this do not bounce, so resting contacts stay quiet."""
    speculative_distance: float = 4.0
    """Pixels. Contacts are made this far before touching, so bodies stop on the surface, not in it."""
    linear_slop: float = 0.25
    """Pixels of overlap the solver tolerates (avoids jitter from fighting rounding)."""
    max_linear_speed: float = 4000.0
    """px/s. Speed cap for dynamic bodies."""
    linear_damping: float = 0.0
    """1/s. Velocity lost per second in the air (0 = none)."""
    angular_damping: float = 0.0
    """1/s. Spin lost per second."""
    sleep_linear_velocity: float = 4.0
    """px/s. A body slower than this (and spinning slowly) counts as resting."""
    time_to_sleep: float = 0.5
    """Seconds a whole group of touching bodies must rest before it sleeps."""
    enable_sleep: bool = True
    continuous: bool = True
    """Sweep fast bodies against static geometry so that they cannot pass through thin platforms."""
    continuous_min_approach: float = 0.2
    """Cosine. A swept body's hit counts only when it moves into the surface at least this steeply: a glancing
    touch (sliding along a floor over a joint) is left to the solver."""
    static_stiffness_scale: float = 2.0
    """Contacts with static geometry, kinematic bodies and characters are this many times stiffer (Hz) than
    contacts between bodies: nothing on the other side gives way."""
    max_hertz_per_substep_rate: float = 0.25
    """Contact stiffness is capped at this fraction of the substep rate (a stiffer soft spring goes unstable)."""
    light_gap_fraction: float = 0.2
    """A contact apart by more than this fraction of ``linear_slop`` at the start of a step, and not closing
    within it, is *light*: its normals are solved and not its friction (a loaded contact sits at or below zero
    separation, so a clear gap means no load)."""
    block_condition_limit: float = 1000.0
    """Two-point contacts are solved as one 2x2 block when the block's condition estimate (k11^2 / det) is
    below this; worse-conditioned ones point by point."""
    max_static_overlap: float = 0.4
    """Pixels. A body pressed deeper than this into static geometry (a light crate under a much heavier one)
    is moved back out to this depth at the end of the step, whatever the mass ratio, and so are two bodies
    pressed deeper into each other (the lighter one held by the level does not move). The soft solve cannot
    carry a load hundreds of times a light body's weight through it within a step (each pass hands on a share
    of the load in the ratio of the masses), so under such a load the overlap sits at this depth: a circle of
    450x to 2000x the mass of the box it rests on was 1 px in the box, and the box 1 px in the floor, at 1.0."""
    max_rotation_error: float = 0.5
    """Pixels. A body spins at most as fast as keeps the error of this step's contact estimate (linear in the
    turn: about extent x turn^2 / 2) within this, so a crate struck hard at a corner cannot turn its corner
    through the floor in one step (a 32 px crate at 60 Hz: 15 rad/s; circles are not limited)."""
    crush_depth: float = 2.0
    """Pixels. A body that a kinematic body overlaps by more than this while something opposite (static
    geometry, another kinematic body) holds it is reported ``crushed`` and no longer pushed: the kinematic
    body passes through it, so it is never pressed through the level."""
    candidate_padding: float = 16.0
    """Pixels. A body's static-geometry candidates are looked up for its box grown by this much and reused
    until the body leaves that box (resting crates never look again)."""

    def __post_init__(self) -> None:
        for name in ("substeps", "uneven_mass_substeps"):
            value = getattr(self, name)
            if not (isinstance(value, int) and 1 <= value <= 64):
                raise WorldError(f"PhysicsConfig.{name} must be an integer from 1 to 64, got {value!r}")
        require_nonnegative(self, (
            "contact_hertz", "friction_anchor_hertz", "contact_damping_ratio", "contact_push_max_velocity",
            "restitution_threshold", "speculative_distance", "linear_slop", "max_linear_speed", "linear_damping",
            "angular_damping", "sleep_linear_velocity", "time_to_sleep", "continuous_min_approach",
            "static_stiffness_scale", "max_hertz_per_substep_rate", "light_gap_fraction", "block_condition_limit",
            "candidate_padding", "max_static_overlap", "crush_depth", "uneven_mass_ratio", "max_rotation_error",
        ))


_next_id = 0


def _new_id() -> int:
    global _next_id
    _next_id += 1
    return _next_id


# A rigid body's numbers, one row of a float array: placement (px, px, rad), velocity (px/s, px/s, rad/s), the
# solver's per-body properties, the placement at the start of the last step, how long it has rested (s), and
# flags (1.0 = yes): asleep, and placed by game code since the step began. The world keeps its bodies' rows in
# one array (the step reads and writes them at once); a body outside a world keeps its own row.
(X, Y, ANGLE, VX, VY, W, INV_MASS, INV_INERTIA, FRICTION, RESTITUTION, GRAVITY_SCALE, PREVIOUS_X, PREVIOUS_Y,
 PREVIOUS_ANGLE, SLEEP_TIME, SLEEPING, PLACED) = range(17)
STATE_COLUMNS = 17


class _Number:
    """A rigid body's number kept in its state row (column ``column``): a finite float (at least ``minimum``),
    checked where it is set, the body and the value named when it is bad."""

    def __init__(self, column: int, doc: str, minimum: float | None = None) -> None:
        self.column, self.minimum, self.__doc__ = column, minimum, doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, body: None, owner: type) -> _Number: ...

    @overload
    def __get__(self, body: RigidBody, owner: type | None = None) -> float: ...

    def __get__(self, body: RigidBody | None, owner: type | None = None) -> float | _Number:
        return self if body is None else body._get(self.column)  # (on the class: the descriptor, for help())

    def __set__(self, body: RigidBody, value: float) -> None:
        body._state[body._row, self.column] = body._number(value, self.name, self.minimum)


class RigidBody(MovingBody):
    """A dynamic body. ``shape`` is given in the body's frame around ``position``; the body re-centres it on
    its centre of mass, so ``position`` is then the centre of mass in the world.

    ``friction`` (Coulomb coefficient, >= 0; pairs mix as the geometric mean) and ``restitution`` (0 = no
    bounce, 1 = full; pairs take the larger) are per shape. ``name`` is free text (the Tiled loader puts the
    object id there); ``user_data`` is anything the game attaches (the engine never reads it); ``filter``
    says which colliders this body touches (see :class:`~engine.types.CollisionFilter`).

    The numbers (``position``, ``angle``, ``velocity``, ``angular_velocity``, ``friction``, ``restitution``,
    ``gravity_scale``, ``sleeping``) read and write the body's row of the world's state array, so the step
    moves every body at once with no per-body Python work. Setting one checks the value at once and names the
    body and the value when it is bad."""

    def __init__(self, shape: RoundedPolygon, position: Vec2, angle: float = 0.0, velocity: Vec2 = (0.0, 0.0),
                 angular_velocity: float = 0.0, density: float = 1.0, friction: float = DEFAULT_FRICTION,
                 restitution: float = 0.0, gravity_scale: float = 1.0, fixed_rotation: bool = False, name: str = "",
                 user_data: Any = None, filter: CollisionFilter = DEFAULT_FILTER) -> None:
        self._state, self._row = np.zeros((1, STATE_COLUMNS)), 0
        self._owner: object | None = None
        self.shape, self.name, self.user_data, self.filter = shape, name, user_data, filter
        self.density, self.fixed_rotation = density, fixed_rotation
        self.id = _new_id()
        x = _finite(position[0], "RigidBody position x")
        y = _finite(position[1], "RigidBody position y")
        angle = _finite(angle, "RigidBody angle")
        self.velocity = (_finite(velocity[0], "RigidBody velocity x"), _finite(velocity[1], "RigidBody velocity y"))
        self.angular_velocity = _finite(angular_velocity, "RigidBody angular_velocity")
        if not _finite(density, "RigidBody density", 0.0) > 0:
            raise WorldError(f"RigidBody density must be > 0, got {density!r}")
        self.friction = _finite(friction, "RigidBody friction", 0.0)
        self.restitution = _finite(restitution, "RigidBody restitution", 0.0)
        if self.restitution > 1.0:
            raise WorldError(f"RigidBody restitution must be within [0, 1], got {restitution!r}")
        self.gravity_scale = gravity_scale
        props, centred = _centred(shape, float(density))
        cx, cy = props.centroid
        if cx or cy:
            # Re-centred: the body's origin is its centre of mass; move the world position to match.
            self.shape = centred
            c, s = math.cos(angle), math.sin(angle)
            x, y = x + c * cx - s * cy, y + s * cx + c * cy
        self.position, self.angle = (x, y), angle
        self.mass, self.inertia = props.mass, props.inertia
        self._state[0, INV_MASS] = 1.0 / props.mass
        self._state[0, INV_INERTIA] = 0.0 if fixed_rotation else 1.0 / props.inertia
        self.collider = Collider(BodyKind.DYNAMIC, None, self)
        self.begin_step()

    layout_changes: ClassVar[int] = 0
    """How many times the shape or the filter of any rigid body was set (the world's rigid-body set re-reads its
    bodies' shapes and filters only when this or its own list of bodies changed, not every step)."""

    @property  # type: ignore[override]
    def shape(self) -> RoundedPolygon:
        """The body's shape, in its frame (its centre of mass at the origin). Setting it wakes the body (what it
        touches changed); its mass stays as it was."""
        return self._shape

    @shape.setter
    def shape(self, shape: RoundedPolygon) -> None:
        self._shape = shape
        RigidBody.layout_changes += 1
        self._changed_what_it_touches()

    @property  # type: ignore[override]
    def filter(self) -> CollisionFilter:
        """Which colliders this body touches (see :class:`~engine.types.CollisionFilter`). Setting it wakes the
        body (what it touches changed)."""
        return self._filter

    @filter.setter
    def filter(self, value: CollisionFilter) -> None:
        check_filter(value, "RigidBody")
        self._filter = value
        RigidBody.layout_changes += 1
        self._changed_what_it_touches()

    def _changed_what_it_touches(self) -> None:
        """Wake the body, and mark it placed: the next step wakes whatever it touched too."""
        self.wake()
        self._state[self._row, PLACED] = 1.0

    def __repr__(self) -> str:
        return (f"RigidBody(name={self.name!r}, id={self.id}, position={self.position!r}, angle={self.angle!r}, "
                f"velocity={self.velocity!r}, sleeping={self.sleeping})")

    # -- the state row
    def bind(self, state: np.ndarray, row: int, owner: object | None) -> None:
        """Keep this body's numbers in row ``row`` of ``state`` from now on, for ``owner`` (the world's
        rigid-body set calls this when it adds, removes or re-packs bodies, ``None`` when it lets the body go;
        the values move along)."""
        state[row] = self._state[self._row]
        self._state, self._row, self._owner = state, row, owner

    @property
    def owner(self) -> object | None:
        """The rigid-body set of the world the body is in (``None``: in no world)."""
        return self._owner

    @property
    def row(self) -> int:
        """Its row in its owner's state (its place among the owner's bodies; 0 in no world)."""
        return self._row

    def _get(self, column: int) -> float:
        return float(self._state[self._row, column])

    def _bad(self, what: str, value: Any) -> WorldError:
        return WorldError(f"rigid body {self.name or self.id!r} has a bad {what}: {value!r}")

    def _number(self, value: Any, what: str, minimum: float | None = None) -> float:
        """``value`` as a finite float (at least ``minimum``), or an error naming this body and the value."""
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise self._bad(what, value) from None
        if not math.isfinite(number) or (minimum is not None and number < minimum):
            raise self._bad(what, value)
        return number

    def _pair(self, value: Any, what: str) -> tuple[float, float]:
        """``value`` as two finite floats, or an error naming this body and the whole value."""
        try:
            x, y = value
            return self._number(x, what), self._number(y, what)
        except (TypeError, ValueError, WorldError):
            raise self._bad(what, value) from None

    @property
    def position(self) -> Vec2:
        """Centre of mass in the world (px)."""
        return (self._get(X), self._get(Y))

    @position.setter
    def position(self, value: Vec2) -> None:
        try:
            x, y = self._pair(value, "position")
        except WorldError:
            raise WorldError(f"rigid body {self.name or self.id!r} has a bad placement (not a finite x, y and "
                             f"angle): position {value!r}, angle {self.angle!r}") from None
        self._state[self._row, X], self._state[self._row, Y], self._state[self._row, PLACED] = x, y, 1.0

    @property
    def angle(self) -> float:
        """Rotation (radians, counter-clockwise)."""
        return self._get(ANGLE)

    @angle.setter
    def angle(self, value: float) -> None:
        number = self._number(value, "angle")
        self._state[self._row, ANGLE], self._state[self._row, PLACED] = number, 1.0

    @property
    def velocity(self) -> Vec2:
        """px/s."""
        return (self._get(VX), self._get(VY))

    @velocity.setter
    def velocity(self, value: Vec2) -> None:
        self._state[self._row, VX], self._state[self._row, VY] = self._pair(value, "velocity")

    angular_velocity = _Number(W, "rad/s, counter-clockwise.")
    friction = _Number(FRICTION, "Coulomb coefficient, >= 0 (pairs mix as the geometric mean).", minimum=0.0)
    restitution = _Number(RESTITUTION, "0 = no bounce, 1 = full (pairs take the larger).", minimum=0.0)
    gravity_scale = _Number(GRAVITY_SCALE, "Multiplies the world's gravity for this body (0 = floats, negative = "
                                           "falls up).")

    @property
    def inv_mass(self) -> float:
        return self._get(INV_MASS)

    @property
    def inv_inertia(self) -> float:
        return self._get(INV_INERTIA)

    @property
    def sleeping(self) -> bool:
        """Resting with its group: not simulated until something touches it (or :meth:`wake`)."""
        return bool(self._state[self._row, SLEEPING])

    @sleeping.setter
    def sleeping(self, value: bool) -> None:
        self._state[self._row, SLEEPING] = 1.0 if value else 0.0

    sleep_time = _Number(SLEEP_TIME, "Seconds it has rested (slower than the config's ``sleep_linear_velocity``).",
                         minimum=0.0)

    def begin_step(self) -> None:
        """Remember the placement at the start of a step (what :attr:`previous_transform` reads)."""
        row = self._state[self._row]
        row[PREVIOUS_X], row[PREVIOUS_Y], row[PREVIOUS_ANGLE], row[PLACED] = row[X], row[Y], row[ANGLE], 0.0

    @property
    def previous_transform(self) -> Transform:
        """Where the body was before the last step (riders and the debug overlay use the motion)."""
        return Transform((self._get(PREVIOUS_X), self._get(PREVIOUS_Y)), self._get(PREVIOUS_ANGLE))

    @previous_transform.setter
    def previous_transform(self, transform: Transform) -> None:
        row = self._state[self._row]
        row[PREVIOUS_X], row[PREVIOUS_Y] = transform.position
        row[PREVIOUS_ANGLE] = transform.angle

    def velocity_at(self, point: Sequence[float]) -> Vec2:
        """Velocity (px/s) of the body's material at a world point."""
        (x, y), (vx, vy), w = self.position, self.velocity, self.angular_velocity
        rx, ry = point[0] - x, point[1] - y
        return (vx - w * ry, vy + w * rx)

    def apply_impulse(self, impulse: Sequence[float], point: Sequence[float] | None = None) -> None:
        """Change momentum by ``impulse`` (mass x px/s) at a world ``point`` (default: centre); wakes it."""
        jx, jy = float(impulse[0]), float(impulse[1])
        vx, vy = self.velocity
        self.velocity = (vx + jx * self.inv_mass, vy + jy * self.inv_mass)
        if point is not None:
            x, y = self.position
            rx, ry = point[0] - x, point[1] - y
            self.angular_velocity += self.inv_inertia * (rx * jy - ry * jx)
        self.wake()

    def wake(self) -> None:
        """Simulate it again from the next step (its resting time starts over)."""
        row = self._state[self._row]
        row[SLEEPING], row[SLEEP_TIME] = 0.0, 0.0


@lru_cache(maxsize=256)
def _centred(shape: RoundedPolygon, density: float) -> tuple[MassProperties, RoundedPolygon]:
    """The mass properties of ``shape`` at ``density`` and the shape moved so that its centre of mass is at its
    origin: worked out once per shape (shapes are immutable; a level's thousand crates share a few)."""
    props = mass_properties(shape, density)
    cx, cy = props.centroid
    return props, shape.transformed(Transform((-cx, -cy))) if cx or cy else shape


SENSOR_PLACEMENTS = Tally()
"""How many times any sensor's position, angle or shape has been set: a world keeps its sensors' boxes while
this stays the same (most sensors never move, and a level may have thousands)."""

_SENSOR_PLACEMENT = frozenset({"position", "angle", "shape"})


@dataclass(eq=False)
class Sensor:
    """A region that reports overlaps without pushing: begin / end :class:`ContactEvent` s with bodies and
    characters. ``tag`` is free text for the game (``"goal"``, ``"hazard"``, ``"pickup"`` ...)."""

    shape: RoundedPolygon
    position: Vec2
    angle: float = 0.0
    tag: str = ""
    name: str = ""
    data: dict = field(default_factory=dict)
    enabled: bool = True
    user_data: Any = None
    """Anything the game attaches (its own object, the Tiled object); the engine never reads it."""
    filter: CollisionFilter = DEFAULT_FILTER
    """Which characters and bodies this sensor notices (see :class:`~engine.types.CollisionFilter`)."""

    def __post_init__(self) -> None:
        check_filter(self.filter, "Sensor")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SENSOR_PLACEMENT:
            SENSOR_PLACEMENTS.count += 1
        object.__setattr__(self, name, value)

    @property
    def transform(self) -> Transform:
        return Transform(self.position, self.angle)

    def aabb(self) -> AABB:
        return self.shape.aabb(self.transform)
