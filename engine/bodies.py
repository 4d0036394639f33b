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
from typing import Any, Sequence

from .geometry import AABB, RoundedPolygon, Transform, Vec2, mass_properties
from .types import (
    DEFAULT_FILTER, DEFAULT_FRICTION, BodyKind, Collider, CollisionFilter, ContactEvent, MovingBody, WorldError,
    require_nonnegative,
)

__all__ = ["ContactEvent", "PhysicsConfig", "RigidBody", "Sensor", "check_filter", "placed_by_hand"]


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
    max_static_overlap: float = 1.0
    """Pixels. A body pressed deeper than this into static geometry (a light crate under a much heavier one)
    is moved back out to this depth at the end of the step, whatever the mass ratio."""
    candidate_padding: float = 16.0
    """Pixels. A body's static-geometry candidates are looked up for its box grown by this much and reused
    until the body leaves that box (resting crates never look again)."""

    def __post_init__(self) -> None:
        if not (isinstance(self.substeps, int) and 1 <= self.substeps <= 64):
            raise WorldError(f"PhysicsConfig.substeps must be an integer from 1 to 64, got {self.substeps!r}")
        require_nonnegative(self, (
            "contact_hertz", "friction_anchor_hertz", "contact_damping_ratio", "contact_push_max_velocity",
            "restitution_threshold", "speculative_distance", "linear_slop", "max_linear_speed", "linear_damping",
            "angular_damping", "sleep_linear_velocity", "time_to_sleep", "continuous_min_approach",
            "static_stiffness_scale", "max_hertz_per_substep_rate", "light_gap_fraction", "block_condition_limit",
            "candidate_padding", "max_static_overlap",
        ))


_next_id = 0


def _new_id() -> int:
    global _next_id
    _next_id += 1
    return _next_id


@dataclass(eq=False)
class RigidBody(MovingBody):
    """A dynamic body. ``shape`` is given in the body's frame around ``position``; the body re-centres it on
    its centre of mass, so ``position`` is then the centre of mass in the world.

    ``friction`` (Coulomb coefficient, >= 0; pairs mix as the geometric mean) and ``restitution`` (0 = no
    bounce, 1 = full; pairs take the larger) are per shape. ``name`` is free text (the Tiled loader puts the
    object id there)."""

    shape: RoundedPolygon
    position: Vec2
    angle: float = 0.0
    velocity: Vec2 = (0.0, 0.0)
    angular_velocity: float = 0.0
    density: float = 1.0
    friction: float = DEFAULT_FRICTION
    restitution: float = 0.0
    gravity_scale: float = 1.0
    fixed_rotation: bool = False
    name: str = ""
    user_data: Any = None
    """Anything the game attaches (its own object, the Tiled object); the engine never reads it."""
    filter: CollisionFilter = DEFAULT_FILTER
    """Which colliders this body touches (see :class:`~engine.types.CollisionFilter`)."""
    mass: float = field(init=False)
    inertia: float = field(init=False)
    inv_mass: float = field(init=False)
    inv_inertia: float = field(init=False)
    sleeping: bool = field(default=False, init=False)
    sleep_time: float = field(default=0.0, init=False)
    collider: Collider = field(init=False)
    _previous: tuple[Vec2, float] = field(init=False, repr=False)
    """(position, angle) before the last step; read as :attr:`previous_transform`."""
    id: int = field(default_factory=_new_id, init=False)

    def __post_init__(self) -> None:
        x = _finite(self.position[0], "RigidBody position x")
        y = _finite(self.position[1], "RigidBody position y")
        self.angle = _finite(self.angle, "RigidBody angle")
        self.velocity = (
            _finite(self.velocity[0], "RigidBody velocity x"), _finite(self.velocity[1], "RigidBody velocity y")
        )
        self.angular_velocity = _finite(self.angular_velocity, "RigidBody angular_velocity")
        if not _finite(self.density, "RigidBody density", 0.0) > 0:
            raise WorldError(f"RigidBody density must be > 0, got {self.density!r}")
        self.friction = _finite(self.friction, "RigidBody friction", 0.0)
        self.restitution = _finite(self.restitution, "RigidBody restitution", 0.0)
        if self.restitution > 1.0:
            raise WorldError(f"RigidBody restitution must be within [0, 1], got {self.restitution!r}")
        props = mass_properties(self.shape, self.density)
        cx, cy = props.centroid
        if cx or cy:
            # Re-centre: the body's origin is its centre of mass; move the world position to match.
            self.shape = self.shape.transformed(Transform((-cx, -cy)))
            c, s = math.cos(self.angle), math.sin(self.angle)
            x, y = x + c * cx - s * cy, y + s * cx + c * cy
        self.position = (x, y)
        self.mass = props.mass
        self.inv_mass = 1.0 / props.mass
        self.inertia = props.inertia
        self.inv_inertia = 0.0 if self.fixed_rotation else 1.0 / props.inertia
        check_filter(self.filter, "RigidBody")
        self.collider = Collider(BodyKind.DYNAMIC, None, self)
        self._previous = (self.position, self.angle)

    def begin_step(self) -> None:
        """Remember the placement at the start of a step (what :attr:`previous_transform` reads)."""
        self._previous = (self.position, self.angle)

    @property
    def previous_transform(self) -> Transform:
        """Where the body was before the last step (riders and the debug overlay use the motion)."""
        position, angle = self._previous
        return Transform(position, angle)

    @previous_transform.setter
    def previous_transform(self, transform: Transform) -> None:
        self._previous = (transform.position, transform.angle)

    def velocity_at(self, point: Sequence[float]) -> Vec2:
        """Velocity (px/s) of the body's material at a world point."""
        rx, ry = point[0] - self.position[0], point[1] - self.position[1]
        w = self.angular_velocity
        return (self.velocity[0] - w * ry, self.velocity[1] + w * rx)

    def apply_impulse(self, impulse: Sequence[float], point: Sequence[float] | None = None) -> None:
        """Change momentum by ``impulse`` (mass x px/s) at a world ``point`` (default: centre); wakes it."""
        jx, jy = float(impulse[0]), float(impulse[1])
        self.velocity = (self.velocity[0] + jx * self.inv_mass, self.velocity[1] + jy * self.inv_mass)
        if point is not None:
            rx, ry = point[0] - self.position[0], point[1] - self.position[1]
            self.angular_velocity += self.inv_inertia * (rx * jy - ry * jx)
        self.wake()

    def wake(self) -> None:
        self.sleeping = False
        self.sleep_time = 0.0


def placed_by_hand(bodies: list[RigidBody]) -> list[RigidBody]:
    """The bodies whose ``position`` or ``angle`` game code set since their last step began (one pass, no
    per-body call: a sleeping pile of hundreds is checked every step)."""
    return [b for b in bodies if b._previous[0] is not b.position or b._previous[1] is not b.angle]


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

    @property
    def transform(self) -> Transform:
        return Transform(self.position, self.angle)

    def aabb(self) -> AABB:
        return self.shape.aabb(self.transform)
