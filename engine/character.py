"""Kinematic character controller: move-and-slide by Minkowski-expanded shape casts.

Each step a character

1. **rides** the platform it stood on: it is carried by the platform's motion of this step (a cast, so a
   wall still stops it);
2. **recovers** from overlap (spawned inside geometry, or a platform moved into it), pushed out along the
   contact normals until it is ``skin`` away, never with its centre through a thin wall, platform or vertex
   (it stays on the side its centre is on, or came from when the centre is inside a wall's thickness);
3. **slides**: casts its shape grown by ``skin`` along the desired displacement, moves to the first hit
   (which leaves exactly ``skin`` of gap), removes the part of the displacement that goes into the hit
   plane, and repeats up to ``max_slides`` times. Casting the grown shape is a ray cast against the level
   and the bodies grown by the character (their Minkowski sums, in the compiled kernels: ``Scene.cast``,
   ``first_hit`` and ``slide``, as :func:`~engine.geometry.shape_cast`), so nothing is tunnelled at any speed;
4. **steps up** small ledges and **snaps** down to the floor when walking down slopes and steps;
5. **classifies** what it touches from a contact query within ``skin + ground_probe``: floor, wall or
   ceiling by the angle of each contact normal to ``up``.

Seam immunity comes from the level, not from special cases here: level segments are thick and rounded, so
at a joint between two segments the grown shapes meet in one continuous surface and the cast never sees an
edge to catch on.

One-way colliders stop a character only when the contact normal lies within ``one_way_angle`` of the
collider's one-way direction, the character moves against it, and the character does not already overlap
it. A moving one-way platform that rose into a character who was above it at the start of the step pushes
the character up (the bug of Godot issue 9399 is a character falling through there).

Each :class:`Character` owns a :class:`Mover`, which makes its moves and keeps what it needs from one move to
the next; it asks the character's :class:`~engine.types.Scene` what is around (the scene answers the common
case, only the level's solid segments near, in one compiled call each: ``Scene.slide``, ``touching``,
``first_hit``).

Units: pixels, seconds, radians. Frame: y-up world; ``up`` may be any unit vector.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from .geometry import AABB, RoundedPolygon, Transform, Vec2
from .types import (
    DEFAULT_FILTER, DEFAULT_FRICTION, BodyKind, Collider, CollisionFilter, ContactEvent, Gathered, MovingBody,
    Neighbour, Scene, SceneContact, SceneHit, Slid, Tally, Touching, WorldError, require_nonnegative,
)

__all__ = ["Character", "MoveResult", "Mover", "MoverConfig", "move_character"]

_EPS = 1e-9
_COMING = 1.0
"""px/s: a rigid body coming at a character faster than this meets it face to face (:meth:`Mover._push_point`);
one it walks into is pushed at the point its cast named, as the recorded runs and level puzzles are tuned to."""
_FLUSH = 1.0
"""Pixels: how much nearer one contact point of a push must be than the other for the push to act at it alone."""


@dataclass(frozen=True)
class MoverConfig:
    """Tunables of the mover. Every field is validated when the config is made."""

    up: Vec2 = (0.0, 1.0)
    """Unit vector pointing away from the floor (world frame)."""
    skin: float = 0.5
    """Pixels of gap kept between the character and what it touches (typical 0.25-1)."""
    max_slides: int = 4
    """Casts per step: the first hit plus slides along up to ``max_slides - 1`` further surfaces."""
    max_floor_angle: float = math.radians(50.0)
    """Radians. A surface whose normal is within this angle of ``up`` is floor; of ``-up``, ceiling; else
    wall. 50 degrees lets the character walk up 45-degree slopes."""
    snap_length: float = 10.0
    """Pixels. A grounded character that is not jumping is pulled down onto the floor up to this far, so it
    stays grounded walking down slopes and small steps at full speed."""
    ground_probe: float = 1.0
    """Pixels beyond ``skin`` within which a surface still counts as touched (ground prediction)."""
    stop_on_slope: bool = True
    """A grounded character with no lateral velocity stays put on slopes instead of sliding down."""
    constant_speed_on_slopes: bool = True
    """Grounded motion keeps its lateral (perpendicular to ``up``) speed up and down slopes."""
    step_height: float = 8.0
    """Pixels. A grounded character walking into a ledge at most this high steps onto it (0: off)."""
    one_way_angle: float = math.radians(60.0)
    """Radians. A one-way collider blocks only contacts whose normal is within this angle of its one-way
    direction (its rounded ends and undersides let the character through)."""
    recovery_iterations: int = 4
    """Push-out passes per step when the character starts a step overlapping something."""
    recovery_search_reach: float = 5.0
    """When push-out cannot free a wedged character (or would carry its centre through a thin wall), it
    searches out to this many times its larger extent for a free spot: back towards where it came from, else
    the nearest one it can reach without its centre crossing a wall (up first), else, walled in on every side
    (spawned inside the ground), the nearest one straight above it. 5 is enough to climb out of a 120 px
    V of 5 degrees, which a hero 32 px tall cannot fit into anywhere."""
    recovery_search_directions: int = 32
    """Directions tried on the first rings of that search (even); rings far enough out for these to be more than
    a ring step apart get twice as many, up to 16 times (the ring step is a sixteenth of the smaller extent, at
    least 0.5 px)."""
    penetration_slop: float = 0.01
    """Pixels. Overlaps shallower than this are rounding, not penetration."""
    graze_cosine: float = 1e-4
    """A cast hit approached at a cosine below this is a graze, not a block. A tangent touch of a rounded
    corner carries rounding noise of about sqrt(machine epsilon x coordinate size): up to 1e-5 in a level
    100k px wide. Ignoring a graze lets a move of L pixels dip at most graze_cosine x L into the skin;
    recovery bounds the rest."""
    mass: float = 640.0
    """Mass used when the character pushes, lands on or stands on rigid bodies (same units as
    ``RigidBody.mass``: density x square pixels; 640 is a 20 x 32 px hero of density 1). Heavier crates
    are pushed slower; a crate much heavier than this barely moves."""
    friction: float = DEFAULT_FRICTION
    """Friction between the character and rigid bodies resting on it."""

    def __post_init__(self) -> None:
        ux, uy = (float(c) for c in self.up)
        length = math.hypot(ux, uy)
        if not (math.isfinite(length) and abs(length - 1.0) < 1e-6):
            raise WorldError(f"MoverConfig.up must be a unit vector, got {self.up!r}")
        object.__setattr__(self, "up", (ux / length, uy / length))
        if not (isinstance(self.mass, (int, float)) and math.isfinite(self.mass) and self.mass > 0):
            raise WorldError(f"MoverConfig.mass must be a positive number, got {self.mass!r}")
        require_nonnegative(self, ("skin", "snap_length", "ground_probe", "step_height", "friction"))
        if self.skin <= 0:
            raise WorldError(f"MoverConfig.skin must be > 0 pixels, got {self.skin!r}")
        for name in ("max_floor_angle", "one_way_angle"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0 < value < math.pi / 2):
                raise WorldError(f"MoverConfig.{name} must be between 0 and pi/2 radians, got {value!r}")
        require_nonnegative(self, ("recovery_search_reach", "penetration_slop", "graze_cosine"))
        for name in ("max_slides", "recovery_iterations", "recovery_search_directions"):
            value = getattr(self, name)
            if not (isinstance(value, int) and 1 <= value <= 64):
                raise WorldError(f"MoverConfig.{name} must be an integer from 1 to 64, got {value!r}")

    @cached_property
    def floor_limit(self) -> float:
        """The cosine of ``max_floor_angle``: a surface whose normal's dot product with ``up`` is at least this
        is floor (at most minus this, ceiling)."""
        return math.cos(self.max_floor_angle)

    @cached_property
    def path_stretch(self) -> float:
        """How much longer than its lateral length a grounded walk's path may be: ``1 / floor_limit`` when it
        keeps its lateral speed on slopes (``constant_speed_on_slopes``), else 1."""
        return 1.0 / self.floor_limit if self.constant_speed_on_slopes else 1.0

    @cached_property
    def touch_margin(self) -> float:
        """Pixels: ``skin + ground_probe``, how far a surface still counts as touched."""
        return self.skin + self.ground_probe


class MoveResult(NamedTuple):
    """What one move did (world frame)."""

    position: Vec2
    velocity: Vec2
    on_floor: bool
    on_wall: bool
    on_ceiling: bool
    floor_normal: Vec2 | None
    """Unit normal of the floor stood on, ``None`` when airborne."""
    platform: MovingBody | Character | None
    """The moving thing stood on (kinematic body, rigid body or another character), if any."""
    hits: tuple[SceneHit, ...]
    """Every surface the slide ran into this step, in order."""
    path: tuple[Vec2, ...] = ()
    """The positions the move went through, in order: where it began, each stop against a surface, a ledge's
    corners when it stepped up, a recovery or a snap to the floor, and where it ended. The character swept
    the straight line between two of them (a recovery moves it out of an overlap without a sweep)."""


@dataclass(eq=False)
class Character:
    """A kinematic character: set ``velocity`` (px/s) before each ``World.step``; read the flags after it.

    Make one and add it with ``world.add_character(Character(shape, position, config))`` (or the short
    ``world.add_character(shape, position, config)``). Other characters are obstacles to it and it to them
    (a push is mass-aware, ``MoverConfig.mass``), unless their ``filter`` s say no. ``user_data`` is the
    game's (an enemy object, say); the engine never reads it.
    """

    shape: RoundedPolygon
    position: Vec2
    config: MoverConfig = field(default_factory=lambda: MoverConfig())
    velocity: Vec2 = (0.0, 0.0)
    user_data: Any = None
    filter: CollisionFilter = DEFAULT_FILTER
    on_floor: bool = field(default=False, init=False)
    on_wall: bool = field(default=False, init=False)
    on_ceiling: bool = field(default=False, init=False)
    floor_normal: Vec2 | None = field(default=None, init=False)
    wall_normal: Vec2 | None = field(default=None, init=False)
    platform: MovingBody | Character | None = field(default=None, init=False)
    """The moving thing stood on (kinematic platform, rigid body or character): the character rides it."""
    floor_collider: Collider | None = field(default=None, init=False)
    last_move: MoveResult | None = field(default=None, init=False)
    previous_position: Vec2 | None = field(default=None, init=False)
    """Where the character was when its last move began (the rigid-body solver sweeps it from there)."""
    step_events: list[ContactEvent] = field(default_factory=list, init=False)
    """Events of its last move (``land``), gathered by the world into ``World.events``."""
    world: Scene | None = field(default=None, init=False)
    """The scene it moves in (set when added to a world)."""
    _mover: Mover = field(init=False, repr=False)
    """Its mover: the move-and-slide and the state it keeps between moves (see :class:`Mover`)."""
    _aabb_kept: tuple[Vec2, RoundedPolygon, AABB] | None = field(default=None, init=False, repr=False)
    """(position, shape, box) of the last :meth:`aabb`: the box again while both are the very same objects."""
    _transform_kept: tuple[Vec2, Transform] | None = field(default=None, init=False, repr=False)
    """(position, transform) of the last :attr:`transform`: the transform again while the position is the same
    object."""

    angle = 0.0
    """Characters do not turn (radians)."""

    def __post_init__(self) -> None:
        x, y = float(self.position[0]), float(self.position[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise WorldError(f"character position must be finite, got {self.position!r}")
        if not isinstance(self.shape, RoundedPolygon):
            raise WorldError(f"character shape must be a RoundedPolygon, got {self.shape!r}")
        if not isinstance(self.config, MoverConfig):
            raise WorldError(f"character config must be a MoverConfig, got {self.config!r}")
        if not isinstance(self.filter, CollisionFilter):
            raise WorldError(f"Character.filter must be a CollisionFilter, got {self.filter!r}")
        self.position = (x, y)
        self.velocity = (float(self.velocity[0]), float(self.velocity[1]))
        self.collider = Collider(BodyKind.CHARACTER, None, self)
        self._mover = Mover(self)

    # ---------------------------------------------------------------- the world it is in
    def attach(self, scene: Scene) -> None:
        """Called by ``World.add_character``: the scene this character moves in from now on."""
        if self.world is not None and self.world is not scene:
            raise WorldError("this character is already in another world")
        self.world = scene
        self._mover.spawned()

    def detach(self) -> None:
        """Called by ``World.remove``: the character is in no world any more."""
        self.world = None
        self.platform = self.floor_collider = None
        self.on_floor = self.on_wall = self.on_ceiling = False

    @property
    def scene(self) -> Scene:
        """The world this character is in (an error when it is in none)."""
        if self.world is None:
            raise WorldError("this character is not in a world: add it with World.add_character first")
        return self.world

    # ---------------------------------------------------------------- reading
    @property
    def transform(self) -> Transform:
        """Where the character is (it never turns); made once per placement (every gather that finds it asks)."""
        kept, position = self._transform_kept, self.position
        if kept is None or kept[0] is not position:
            kept = self._transform_kept = (position, Transform(position))
        return kept[1]

    @property
    def previous_transform(self) -> Transform:
        """Where the character was when its last move began."""
        return Transform(self.previous_position or self.position)

    def aabb(self) -> AABB:
        """Bounding box in the world (px). (The shape never turns: its local box, moved; no transform made.)"""
        kept, position, shape = self._aabb_kept, self.position, self.shape
        if kept is not None and kept[0] is position and kept[1] is shape:  # (kept per placement: asked ~50x a step)
            return kept[2]
        box, (x, y) = shape.local_aabb, position
        found = AABB(box.min_x + x, box.min_y + y, box.max_x + x, box.max_y + y)
        self._aabb_kept = (position, shape, found)
        return found

    @property
    def floor_point(self) -> Vec2 | None:
        """Where the character touches the floor it stands on (world frame), ``None`` when airborne."""
        return self._mover.floor_point

    def displacement_of(self, point: Sequence[float]) -> Vec2:
        """How far a point carried by this character moved in its last move (riders use it), pixels."""
        start = self.previous_position or self.position
        return (self.position[0] - start[0], self.position[1] - start[1])

    # ---------------------------------------------------------------- acting
    def push(self, velocity_change: Sequence[float]) -> None:
        """Change the velocity by ``velocity_change`` (px/s): another character or the game shoving it."""
        self.velocity = (self.velocity[0] + float(velocity_change[0]), self.velocity[1] + float(velocity_change[1]))

    def leave_floor(self) -> None:
        """Stop standing (a jump): the next move neither rides the platform nor snaps down to the floor."""
        self.on_floor = False
        self.platform = None

    def drop_through(self) -> bool:
        """Fall through the one-way floor stood on (down + jump). Returns False when not on one."""
        if self.floor_collider is None or self.floor_collider.one_way is None:
            return False
        self._mover.drop_through_one_ways()
        self.on_floor = False
        self.floor_collider = None
        self.platform = None
        return True

    def teleport(self, position: Sequence[float]) -> None:
        """Put the character somewhere without sweeping (spawn, respawn); it recovers from any overlap on
        the next step, on the side of any thin wall it came from when its centre lands inside that wall."""
        self._mover.teleported()
        self.position = (float(position[0]), float(position[1]))
        self.on_floor = self.on_wall = self.on_ceiling = False
        self.platform = self.floor_collider = None

    def cast(self, displacement: Sequence[float], position: Sequence[float] | None = None) -> SceneHit | None:
        """The first surface that would stop this character moving by ``displacement`` from ``position``
        (default: where it is), with the mover's rules (skin, one-way, moving away ignored)."""
        start = self.position if position is None else (float(position[0]), float(position[1]))
        return self._mover.probe(start, (float(displacement[0]), float(displacement[1])))

    def _reshape(self, shape: Any) -> None:
        """``Character.shape``'s setter: a placement, and the cast shape follows the new shape (a crouch casts
        the crouching shape). While the character is being made, ``__post_init__`` grows it."""
        if not isinstance(shape, RoundedPolygon):
            raise WorldError(f"character shape must be a RoundedPolygon, got {shape!r}")
        _place_shape(self, shape)
        mover = getattr(self, "_mover", None)  # (none yet while the dataclass's __init__ runs)
        if mover is not None:
            mover.grow_cast_shape()

    def move(self, dt: float) -> MoveResult:
        """Move by ``velocity * dt`` with move-and-slide; updates and returns the character's state."""
        return self._mover.move(dt)

    def after_bodies_moved(self) -> None:
        """Called by ``World.step`` after the rigid bodies moved: standing on one (a crate), go where the floor
        point went this step (the next move does not ride that motion again); out of a crate that a lift or the
        level pushed into it."""
        self._mover.after_bodies_moved()


PLACEMENTS = Tally()
"""How many times any character's ``position``, ``shape`` or ``filter`` has been set: a world keeps its
characters' boxes and filters while this stays the same (between steps every character's probe asks which others
are near; looking at them all each time would cost the crowd's size per probe)."""


def _placer(name: str) -> Callable[[Character, Any], None]:
    """The setter of ``Character.<name>``: it counts the setting in :data:`PLACEMENTS` and keeps the value in
    the instance's ``_<name>``."""
    kept = "_" + name

    def place(ch: Character, value: Any) -> None:
        PLACEMENTS.count += 1
        setattr(ch, kept, value)  # (not through __dict__: using it makes every attribute of ch slower to reach)

    return place


def _placing(name: str) -> property:
    """``Character.<name>`` as a property whose setter is :func:`_placer`'s (read without a Python call)."""
    return property(attrgetter("_" + name), _placer(name),
                    doc=f"The character's {name} (setting it counts as a placement).")


for _name in ("position", "filter"):  # (after the dataclass made __init__, which sets them through these)
    setattr(Character, _name, _placing(_name))
_place_shape = _placer("shape")
setattr(Character, "shape", property(attrgetter("_shape"), Character._reshape,  # noqa: B010 - (a dataclass field)
                                     doc="The character's shape (setting it counts as a placement; the cast shape "
                                         "follows)."))


# ------------------------------------------------------------------------------------------------ helpers
_GATHER_SPARE = 32.0
"""Pixels: a move gathers the level's segments this much farther out than it needs, and the next moves take them
again while they need no more (a step's walk is a few pixels)."""


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1]


class _Surface:
    FLOOR, WALL, CEILING = range(3)


def _classify(normal: Vec2, cfg: MoverConfig) -> int:
    d = _dot(normal, cfg.up)
    limit = cfg.floor_limit
    if d >= limit - _EPS:
        return _Surface.FLOOR
    if d <= -limit + _EPS:
        return _Surface.CEILING
    return _Surface.WALL


def _moved_this_step(body: Any) -> bool:
    """Whether a kinematic body moved or turned this step (one that did not cannot have pushed anything)."""
    start = body.previous_transform
    return bool(start.position != body.position or start.angle != body.angle)


_SEARCH_BUDGET = 4000
"""Most positions one search for a free spot tests (a few tens of milliseconds without the compiler): a character
inside a large body everywhere it can reach gives up rather than stall the frame (after coarser searches with a
quarter of this each: :meth:`Mover._nearest_clear_spot`)."""


def _open_lengths(origin: Vec2, cores: list[_Core], directions: np.ndarray) -> np.ndarray:
    """For each unit vector of ``directions`` (n x 2), how far a ray from ``origin`` goes before it crosses one
    of ``cores`` (px; infinite when it crosses none). A ray through a core's end counts as crossing it (two
    walls meeting at a vertex leave no way between them)."""
    if not cores:
        return np.full(len(directions), math.inf)
    a = np.array([core.a for core in cores], dtype=np.float64)
    e = np.array([core.b for core in cores], dtype=np.float64) - a
    ap = a - np.asarray(origin, dtype=np.float64)
    ux, uy = directions[:, 0:1], directions[:, 1:2]
    denominator = ux * e[:, 1] - uy * e[:, 0]  # (directions x cores)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (ap[:, 0] * e[:, 1] - ap[:, 1] * e[:, 0]) / denominator
        along = (ap[:, 0] * uy - ap[:, 1] * ux) / denominator
    crossing = (np.abs(denominator) > 1e-12) & (along >= -1e-9) & (along <= 1.0 + 1e-9) & (t > 0.0)
    return np.where(crossing, t, math.inf).min(axis=1)


class _Core(NamedTuple):
    """A solid static segment's core line ``a``-``b`` and a point on the side of it recovery keeps."""

    a: Vec2
    b: Vec2
    kept: Vec2


def _distance_to_core(p: Vec2, a: Vec2, b: Vec2) -> float:
    """Pixels from ``p`` to the segment ``a``-``b``."""
    abx, aby = b[0] - a[0], b[1] - a[1]
    length2 = abx * abx + aby * aby
    t = 0.0 if length2 < _EPS else max(0.0, min(1.0, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / length2))
    return math.hypot(p[0] - a[0] - t * abx, p[1] - a[1] - t * aby)


def _crosses_a_core(cores: list[_Core], spot: Vec2) -> bool:
    """Whether the straight way from a core's kept point to ``spot`` crosses that core (going round its end
    does not count: that is not through it)."""
    for a, b, kept in cores:
        d1, d2 = _side(a, b, kept), _side(a, b, spot)
        if (d1 > 0.0) != (d2 > 0.0) and d2 != 0.0 and (_side(kept, spot, a) > 0.0) != (_side(kept, spot, b) > 0.0):
            return True
    return False


def _side(o: Vec2, s: Vec2, t: Vec2) -> float:
    """Twice the signed area of o, s, t: positive when t is left of the line from o through s."""
    return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])


_STEP_PROBES = (2.0, 4.0, 8.0, 16.0)
"""Pixels. How far forward a step-up may carry the character in one step when its own move is shorter: far
enough that its rounded corner stands on the ledge's top rather than on the ledge's rounded edge (the
corner zone is the ledge's radius plus the character's plus the skin wide)."""


_Wanted = tuple[Vec2, Vec2, bool, Vec2]
"""A move's wanted displacement (px), the velocity it starts sliding with (px/s), whether it walks on the
ground, and its velocity across ``up`` (px/s)."""

def _floor_key(contact: SceneContact, cfg: MoverConfig) -> tuple[float, float]:
    return (round(contact.separation, 3), -_dot(contact.normal, cfg.up))


def _v_floor(walls: list[SceneContact], cfg: MoverConfig) -> SceneContact | None:
    """Two walls too steep to stand on that hold the character between them from either side (a V): when
    their combined push is within ``max_floor_angle`` of up, they are a floor together, with that push as its
    normal (so the character stands, can jump, and does not fall forever in place)."""
    ux, uy = cfg.up
    rx, ry = uy, -ux
    best: SceneContact | None = None
    for i, a in enumerate(walls):
        for b in walls[i + 1:]:
            if _dot(a.normal, cfg.up) <= 0.0 or _dot(b.normal, cfg.up) <= 0.0:
                continue
            if _dot(a.normal, (rx, ry)) * _dot(b.normal, (rx, ry)) >= 0.0:
                continue  # both on the same side: a crease in one wall, not a V
            nx, ny = a.normal[0] + b.normal[0], a.normal[1] + b.normal[1]
            length = math.hypot(nx, ny)
            if length < _EPS or _classify((nx / length, ny / length), cfg) != _Surface.FLOOR:
                continue
            nearer = a if a.separation <= b.separation else b
            candidate = SceneContact((nx / length, ny / length), max(a.separation, b.separation), nearer.point,
                                     nearer.collider)
            if best is None or candidate.separation < best.separation:
                best = candidate
    return best


class Mover:
    """A character's move-and-slide (see the module docstring) and the state it keeps from move to move: the
    skin-grown cast shape, whether the next move must recover from an overlap first, the one-way colliders
    being dropped through, the floor point and gap, where the character came from. Each :class:`Character`
    owns one (made with it); it reads and sets the character's public state and asks the character's scene
    (:class:`~engine.types.Scene`) what is around."""

    __slots__ = ("_came_from", "_candidates", "_carried", "_dropping", "_ended_at", "_floor_gap", "_floor_point",
                 "_last_gathered", "_needs_recovery", "_search_reach_kept", "_touched", "cast_shape", "character", "config",
                 "shape")

    def __init__(self, character: Character) -> None:
        self.character = character
        self._dropping: set[int] = set()
        """Ids of the one-way colliders the character is dropping through."""
        self._floor_point: Vec2 | None = None
        self._needs_recovery = True
        """Whether the next move recovers from an overlap first (spawned, teleported, or ended inside)."""
        self._floor_gap = math.inf
        """Pixels between the character and the floor it stands on (the probe sees floors up to
        ``MoverConfig.touch_margin`` away)."""
        self._candidates: Gathered | None = None
        """What this move gathered around the character (``None`` between moves)."""
        self._last_gathered: Gathered | None = None
        """The last gather around the character, whose static segments the next may take again (see
        ``Scene.candidates``' ``kept``)."""
        self._touched: tuple[Vec2, Gathered | None, Touching] | None = None
        """What the character touches at the end of this move's compiled slide: (that end, the candidates then,
        the answer); see :meth:`_slide`."""
        self._ended_at: Vec2 | None = None
        """Where the character was when its mover last put it (``None``: not yet): one found elsewhere at the next
        move was put there by game code (``position`` set) and recovers from any overlap first."""
        self._carried: tuple[Any, Transform] | None = None
        """The rigid body stood on and where it ended the step that carried the character already
        (:meth:`after_bodies_moved`): the next move does not ride that same motion again."""
        self._came_from: Vec2 | None = None
        """Where recovery looks back to when the centre lies inside a thin wall's thickness (on neither side of
        it): the start of the last move, or where a teleport took the character from (``None`` when spawned)."""
        self._search_reach_kept: tuple[RoundedPolygon, MoverConfig, float] | None = None
        """:meth:`_search_reach`'s answer, with the shape and config it was worked out for."""
        self.shape: RoundedPolygon = character.shape
        """The character's shape (as it was when the cast shape was grown: the same, the character sees to it)."""
        self.cast_shape: RoundedPolygon = character.shape
        """The character's shape grown by the skin: reaching a cast's hit leaves exactly ``skin`` of gap."""
        self.config: MoverConfig = character.config
        """The config the cast shape was grown for (each move and probe checks it is still the character's)."""
        self.grow_cast_shape()

    # ---------------------------------------------------------------- the character tells its mover
    def grow_cast_shape(self) -> None:
        """Make the cast shape again: the shape grown by the skin of the config (made again when either is
        another; the mover checks the config by identity at each move and probe: a property for ``config``
        would cost every read of it)."""
        ch = self.character
        self.shape, self.config = ch.shape, ch.config
        self.cast_shape = ch.shape.inflated(ch.config.skin)

    def spawned(self) -> None:
        """The character was added to a scene: recover on the next move; it came from nowhere in this scene."""
        self._needs_recovery = True
        self._came_from = None

    def teleported(self) -> None:
        """The character is about to be put somewhere without sweeping: recover on the next move, looking back
        to where it stood (when it surely stood there) should its centre land inside a thin wall."""
        if not self._needs_recovery:
            # Where it stood for sure: a second teleport before a step, or one straight after a spawn or an
            # overlapping step, keeps the older (or no) reference rather than a place it never stood.
            self._came_from = self.character.position
        self._needs_recovery = True

    def drop_through_one_ways(self) -> None:
        """Let the character fall through every one-way collider it touches now."""
        ch = self.character
        margin = ch.config.skin + ch.config.ground_probe
        for contact in ch.scene.contacts(ch.shape, ch.transform, margin, ignore=(ch,)):
            if contact.collider.one_way is not None:
                self._dropping.add(id(contact.collider))

    @property
    def floor_point(self) -> Vec2 | None:
        """Where the character touches the floor it stands on (world frame), ``None`` when airborne."""
        return self._floor_point

    def probe(self, start: Vec2, displacement: Vec2) -> SceneHit | None:
        """The first surface that would stop the character moving by ``displacement`` from ``start`` (a
        controller's probe between moves), with the mover's rules (skin, one-way, moving away ignored)."""
        if self.character.config is not self.config:
            self.grow_cast_shape()
        return self._first_hit(start, displacement, ignore=(self.character,))

    def _one_way_blocks(self, collider: Collider, normal: Vec2, position: Vec2) -> bool:
        """Whether a one-way collider stops the character here (normal within the cone, not dropping through,
        and not already inside it)."""
        ch = self.character
        assert collider.one_way is not None
        cfg = ch.config
        if id(collider) in self._dropping:
            return False
        if _dot(normal, collider.one_way) < math.cos(cfg.one_way_angle):
            return False
        contact = ch.scene.contact_with(ch.shape, Transform(position), collider, cfg.skin)
        return contact is None or contact.separation >= -ch.config.penetration_slop

    def _first_hit(self, position: Vec2, d: Vec2, ignore: Sequence[object] = ()) -> SceneHit | None:
        """The first surface that stops a sweep of the skin-grown shape along ``d``."""
        ch = self.character
        scene = ch.scene
        candidates = self._candidates
        if candidates is None:  # outside a move (a controller probing): gather with the character's filter
            box, (x, y), (dx, dy) = self.cast_shape.local_aabb, position, d  # its box at `position` (it never turns),
            swept = (box.min_x + x + (dx if dx < 0.0 else 0.0), box.min_y + y + (dy if dy < 0.0 else 0.0),  # swept
                     box.max_x + x + (dx if dx > 0.0 else 0.0), box.max_y + y + (dy if dy > 0.0 else 0.0))
            if ignore == (ch,):  # (a probe: nothing moving near and its last gather holding, in one call)
                lone = scene.lone_first_hit(self, ch, position, d, swept, self._last_gathered, ch.filter)
                if lone is not None:
                    return lone[0]
            candidates = self._last_gathered = scene.candidates(swept, ignore, ch.filter, self._last_gathered,
                                                                _GATHER_SPARE)
        compiled = scene.first_hit(self, position, d, candidates, ignore)
        if compiled is not None:  # no one-way collider around: the same hit, compiled (a call or two)
            return compiled[0]
        length = math.hypot(d[0], d[1])
        for hit in scene.cast(self.cast_shape, Transform(position), d, ignore, candidates):
            if _dot(d, hit.normal) >= -ch.config.graze_cosine * length:
                # Moving away from it, along it, or skimming it (a tangent touch of a rounded corner that a
                # flush neighbour hides): it does not stop us.
                continue
            if hit.collider.one_way is not None and not self._one_way_blocks(hit.collider, hit.normal, position):
                continue
            return hit
        return None

    def _slide(
        self, position: Vec2, d: Vec2, velocity: Vec2, grounded: bool, hits: list[SceneHit],
        ignore: Sequence[object] = (), trail: list[Vec2] | None = None, touching: bool = False, pushing: bool = True,
    ) -> tuple[Vec2, Vec2]:
        """Move-and-slide ``d`` from ``position``; clips ``velocity`` against what it hits. ``trail`` gets each
        stop against a surface and the end. With ``touching``, a compiled slide also works out what the character
        touches where it ended, for :meth:`_classify_contacts` to use if it is asked about that very place.
        Without ``pushing`` (a trial move that may be thrown away), characters hit are not pushed. (Rigid bodies
        still are: the crate pushing that games and recorded runs are tuned to counts on that second shove.)"""
        ch = self.character
        compiled = ch.scene.slide(self, position, d, velocity, grounded, self._candidates, ignore, touching)
        if compiled is not None:  # only static solid segments around: the whole slide in one compiled call
            return self._took(compiled, hits, trail)
        cfg = ch.config
        ux, uy = cfg.up
        px, py = position
        vx, vy = velocity
        dx, dy = d
        planes: list[Vec2] = []
        for _ in range(cfg.max_slides):
            if dx * dx + dy * dy < 1e-18:
                break
            hit = self._first_hit((px, py), (dx, dy), ignore)
            if hit is None:
                px, py = px + dx, py + dy
                break
            f = hit.fraction
            px, py = px + dx * f, py + dy * f
            if trail is not None:
                trail.append((px, py))
            hits.append(hit)
            nx, ny = hit.normal
            surface = _classify((nx, ny), cfg)
            kind = hit.collider.kind
            pushable = kind is BodyKind.DYNAMIC or kind is BodyKind.CHARACTER
            pushed = self._push(hit, (px, py), vx, vy) if pushable and (pushing or kind is BodyKind.DYNAMIC) else None
            if pushed is None and pushable and surface == _Surface.CEILING:
                pushed = (vx, vy)  # lifting what rests on our head, no faster than it rises: rise with it
            # Velocity: land on floors and bump ceilings without losing lateral speed; slide along walls (or,
            # pushing a rigid body or a character sideways or up, keep the speed the push leaves us).
            vu, approach = vx * ux + vy * uy, vx * nx + vy * ny
            if pushed is not None and surface != _Surface.FLOOR:
                vx, vy = pushed  # pushing it sideways, or lifting it off our head: the speed the push leaves us
            elif surface == _Surface.FLOOR and vu < 0 or surface == _Surface.CEILING and vu > 0:
                vx, vy = vx - ux * vu, vy - uy * vu
            elif surface == _Surface.WALL:
                vn = vx * nx + vy * ny
                if vn < 0:
                    vx, vy = vx - nx * vn, vy - ny * vn
            # Remaining displacement, projected onto the hit plane.
            rx, ry = dx * (1.0 - f), dy * (1.0 - f)
            rn = rx * nx + ry * ny
            lateral_before = abs(rx * -uy + ry * ux)
            rx, ry = rx - nx * rn, ry - ny * rn
            if grounded and surface == _Surface.FLOOR and cfg.constant_speed_on_slopes:
                # Keep the lateral progress: going from flat onto a slope must not slow the walk.
                lateral_after = abs(rx * -uy + ry * ux)
                if lateral_after > _EPS:
                    scale = lateral_before / lateral_after
                    rx, ry = rx * scale, ry * scale
            elif grounded and surface == _Surface.WALL:
                up_part = rx * ux + ry * uy
                if up_part > 0:  # a grounded walk does not climb walls
                    rx, ry = rx - ux * up_part, ry - uy * up_part
            if pushed is not None and approach < 0.0 and vx * nx + vy * ny > 0.0:
                # Thrown back by something heavier: the rest of the step (the rest of the approach, rn / approach
                # seconds) at the speed the push left us, away from it, as it goes on this way.
                back = (vx * nx + vy * ny) * rn / approach
                rx, ry = rx + nx * back, ry + ny * back
            # A crease: the slide would push into a plane hit earlier this step, so stop there.
            if any(rx * qx + ry * qy < -_EPS for qx, qy in planes):
                rx = ry = 0.0
            planes.append((nx, ny))
            dx, dy = rx, ry
        if trail is not None and (not trail or trail[-1] != (px, py)):
            trail.append((px, py))
        return (px, py), (vx, vy)

    def _took(self, slid: Slid, hits: list[SceneHit], trail: list[Vec2] | None) -> tuple[Vec2, Vec2]:
        """The end position and velocity of a compiled slide (``slid``); ``hits`` and ``trail`` get its hits and
        stops, and what it touches at its end is kept for :meth:`_classify_contacts`."""
        slid_hits, stops, end, end_velocity, touched = slid
        if touched is not None:
            self._touched = (end, self._candidates, touched)
        hits.extend(slid_hits)
        if trail is not None:
            trail.extend(stops)
            if not trail or trail[-1] != end:
                trail.append(end)
        return end, end_velocity

    def _push(self, hit: SceneHit, position: Vec2, vx: float, vy: float) -> Vec2 | None:
        """Push the rigid body or character we ran into (standing at ``position``): a perfectly inelastic exchange
        of momentum along the contact normal between this character (``MoverConfig.mass``) and the other's
        effective mass at the contact. Returns this character's velocity after the push, or ``None`` when not
        approaching the other."""
        ch = self.character
        other = hit.collider.body
        nx, ny = hit.normal  # from the other towards this character
        if isinstance(other, Character):
            ovx, ovy = other.velocity
            approach = (vx - ovx) * nx + (vy - ovy) * ny
            if approach >= 0.0:
                return None
            impulse = -approach / (1.0 / ch.config.mass + 1.0 / other.config.mass)
            other.push((-nx * impulse / other.config.mass, -ny * impulse / other.config.mass))
        else:
            bvx, bvy = other.velocity_at(hit.point)
            point = hit.point
            if bvx * nx + bvy * ny > _COMING:  # (it comes at us: met face to face, see _push_point)
                point = self._push_point(hit, position)
                bvx, bvy = other.velocity_at(point)
            approach = (vx - bvx) * nx + (vy - bvy) * ny
            if approach >= 0.0:
                return None
            rx, ry = point[0] - other.position[0], point[1] - other.position[1]
            rn = rx * ny - ry * nx
            impulse = -approach / (1.0 / ch.config.mass + other.inv_mass + other.inv_inertia * rn * rn)
            other.apply_impulse((-nx * impulse, -ny * impulse), point)
        share = impulse / ch.config.mass
        return (vx + nx * share, vy + ny * share)

    def _push_point(self, hit: SceneHit, position: Vec2) -> Vec2:
        """Where a push on the rigid body ``hit`` met acts: between the two shapes' contact points, weighted by how
        far each leads (face to face, the middle of what they share, not the one corner the cast happened to
        name; a crate tilted a little is pushed a little towards its leading corner, which turns it back flat;
        tilted by more than :data:`_FLUSH` px over its face, at that corner)."""
        ch = self.character
        manifold = ch.scene.manifold_with(ch.shape, Transform(position), hit.collider, ch.config.skin + 1.0)
        if manifold is None:
            return hit.point
        deepest = manifold.separation
        weights = [max(_FLUSH - (p.separation - deepest), 0.0) for p in manifold.points]
        total = sum(weights)
        return (sum(w * p.point[0] for w, p in zip(weights, manifold.points)) / total,
                sum(w * p.point[1] for w, p in zip(weights, manifold.points)) / total)

    def after_bodies_moved(self) -> None:
        """After the rigid bodies moved this step: a character standing on one goes where its floor point went
        (a slide, ignoring that body), so that it stands on the crate where the crate is now, not where it was
        (a crate on a rising lift would otherwise rise into its rider's feet, a step's worth each step); the
        next move does not ride that motion again. Then it gets out of the bodies it overlaps
        (:meth:`_clear_of_bodies`); moved out of one while on the floor, it looks again at what it stands on
        (pushed off a ledge's end, it no longer stands: ``on_floor`` must not stay true until its next move)."""
        ch = self.character
        if ch.world is None:
            return
        if ch.config is not self.config:
            self.grow_cast_shape()
        floor = ch.floor_collider
        position = end = ch.position
        carry = (0.0, 0.0)
        if ch.on_floor and floor is not None and floor.kind is BodyKind.DYNAMIC:
            body = floor.body
            carry = body.displacement_of(self._floor_point or position)
            self._carried = (body, body.transform)
        self._gather_around(position, math.hypot(*carry) + ch.config.skin + ch.config.touch_margin + 4.0)
        try:
            if carry != (0.0, 0.0):
                assert floor is not None
                end, _ = self._slide(position, carry, (0.0, 0.0), False, [], ignore=(floor,))
            if end != position and self._floor_point is not None:
                self._floor_point = (self._floor_point[0] + end[0] - position[0],
                                     self._floor_point[1] + end[1] - position[1])
            cleared = self._clear_of_bodies(end)
            if cleared != end and ch.on_floor:
                # (Only a floor it stood on can be lost here; one it is pushed onto it lands on in its next
                # move, which reports the landing.)
                self._classify_contacts(cleared)
            end = cleared
        finally:
            self._candidates = self._touched = None
        if end != position:
            ch.position = self._ended_at = end

    def _clear_of_bodies(self, position: Vec2) -> Vec2:
        """Where the character at ``position`` stands clear of the rigid bodies it overlaps (the solve treats it as
        immovable, but lets through a body it rides, one held from the far side, one carried by a lift past its
        corner, and leaves soft contacts a little deep): pushed out along each contact's normal, deepest first,
        as far as nothing else stops it (against a ceiling it stays; the next move's recovery reports it
        crushed)."""
        ch = self.character
        cfg = ch.config
        for _ in range(cfg.recovery_iterations):
            worst: SceneContact | None = None
            for contact in ch.scene.contacts(ch.shape, Transform(position), 0.0, ignore=(ch,),
                                             candidates=self._candidates):
                collider = contact.collider
                if collider.kind is not BodyKind.DYNAMIC or contact.separation >= -cfg.penetration_slop:
                    continue
                if worst is None or contact.separation < worst.separation:
                    worst = contact
            if worst is None:
                break
            push = -worst.separation + cfg.skin
            nx, ny = worst.normal
            end, _ = self._slide(position, (nx * push, ny * push), (0.0, 0.0), False, [], ignore=(worst.collider,))
            if end == position:
                break
            position = end
        return position

    def _recover(self, position: Vec2, came_from: Vec2 | None) -> Vec2:
        """Push the character out of anything it overlaps deeper than the skin allows. A moving body's push is a
        sweep along the body's own motion (a fast lift that jumped past the feet in one step still lifts, never
        swallows), and what it would push the character into (the floor under a descending lift) stops it there:
        the character is reported ``crushed`` instead of being pushed through. Static geometry pushes it out on
        the side of each thin wall its centre is on (or, inside a wall's thickness, came from): never through a
        wall, a platform or a vertex (see :meth:`_thin_cores`). When no push frees it, :meth:`_free_spot` finds
        where it goes."""
        ch = self.character
        cfg = ch.config
        px, py = position
        swept = self._swept_by_movers(position)
        if swept is not None:
            collider, (nx, ny), push = swept
            self._gather_around((px, py), push + cfg.skin)  # (a fast body's push may go beyond what the move gathered)
            moved = self._push_by((px, py), collider, (nx, ny), push)
            if moved is not None:
                px, py = moved
            elif not self._inside_the_level((px, py)):
                return self._crushed_at((px, py), collider, (nx, ny), push)
            # (else spawned or put inside the level: out of it first, below; then the body's push, or the crush)
        cores: list[_Core] | None = None  # found only once an overlap is: a free character pays nothing
        for _ in range(cfg.recovery_iterations):
            found = self._deepest_overlap((px, py))
            if found is None:
                return (px, py)
            worst, (nx, ny), push = found
            if worst.collider.body is None:
                cores = self._thin_cores(position, came_from) if cores is None else cores
                if _crosses_a_core(cores, (px + nx * push, py + ny * push)):
                    break  # that way out is through a thin wall: search for one on this side instead
                px, py = px + nx * push, py + ny * push
                continue
            self._gather_around((px, py), push + cfg.skin)
            moved = self._push_by((px, py), worst.collider, (nx, ny), push)
            if moved is None:
                if not _moved_this_step(worst.collider.body):
                    break  # inside a parked body (spawned there) and held from the other side: not a crush
                return self._crushed_at((px, py), worst.collider, (nx, ny), push)
            px, py = moved
        if self._overlap_depth((px, py)) < ch.config.penetration_slop:
            return (px, py)
        # Wedged between surfaces whose way-outs undo each other (spawned inside a narrow V or the ground): search
        # for a free spot instead. Rare, so plain searches are fine.
        cores = self._thin_cores(position, came_from) if cores is None else cores
        return self._free_spot(position, came_from, cores) or (px, py)

    def _push_by(self, position: Vec2, collider: Collider, direction: Vec2, push: float) -> Vec2 | None:
        """Where a moving body's push of ``push`` px along ``direction`` takes the character, or ``None`` when
        something it cannot be pushed through is in the way: static geometry, another kinematic body, or a rigid
        body that they hold from the other side (the crate the character stands on, on the floor)."""
        nx, ny = direction
        blocked = self._first_hit(position, (nx * push, ny * push), ignore=(collider,))
        if blocked is None or (blocked.collider.kind is BodyKind.DYNAMIC
                               and not self.character.scene.holds(blocked.collider.body, (nx, ny))):
            return (position[0] + nx * push, position[1] + ny * push)
        return None

    def _crushed_at(self, position: Vec2, collider: Collider, direction: Vec2, push: float) -> Vec2:
        """Squeezed: the character goes as far as the push can take it and stays there against what holds it
        (the body passes through it), and a ``crushed`` event names the body."""
        ch = self.character
        nx, ny = direction
        blocked = self._first_hit(position, (nx * push, ny * push), ignore=(collider,))
        f = blocked.fraction if blocked is not None else 1.0
        ch.step_events.append(ContactEvent("crushed", ch, collider.body, (nx, ny)))
        return (position[0] + nx * push * f, position[1] + ny * push * f)

    def _swept_by_movers(self, position: Vec2) -> tuple[Collider, Vec2, float] | None:
        """The kinematic body whose motion this step swept through the character's place farthest (a lift fast
        enough to pass the character's whole height in one step), with its push; ``None`` when none did."""
        best: tuple[Collider, Vec2, float] | None = None
        for _, neighbour in self._candidates.others if self._candidates is not None else ():
            collider = neighbour.collider
            if collider.kind is not BodyKind.KINEMATIC:
                continue
            swept = self._swept_push(collider, position)
            if swept is None:
                continue
            if collider.one_way is not None and not self._one_way_pushes(collider, swept[0], position):
                continue
            if best is None or swept[1] > best[2]:
                best = (collider, *swept)
        return best

    def _deepest_overlap(self, position: Vec2) -> tuple[SceneContact, Vec2, float] | None:
        """The deepest overlap recovery must resolve, with the direction and distance to push the character
        (rigid bodies neither stood on nor held from the far side, one-ways passed through and one-way platforms
        that were already inside the character before moving are not its business)."""
        ch = self.character
        cfg = ch.config
        worst: tuple[SceneContact, Vec2, float] | None = None
        for contact in ch.scene.contacts(ch.shape, Transform(position), 0.0, candidates=self._candidates):
            if contact.separation >= -cfg.penetration_slop:
                continue
            collider = contact.collider
            if collider.kind is BodyKind.DYNAMIC and collider.body is not ch.platform:
                if not ch.scene.holds(collider.body, (-contact.normal[0], -contact.normal[1])):
                    continue  # the solver pushes it out of us (not one held from the far side, nor the one we ride)
            elif collider.one_way is not None and collider.body is None:
                continue  # inside a static one-way we are passing through
            push = (contact.normal, -contact.separation + cfg.skin)
            if collider.kind is BodyKind.KINEMATIC:
                swept = self._swept_push(collider, position)
                if swept is not None:
                    push = swept
            if collider.one_way is not None and not self._one_way_pushes(collider, push[0], position):
                continue
            if worst is None or contact.separation < worst[0].separation:
                worst = (contact, *push)
        return worst

    def _swept_push(self, collider: Collider, position: Vec2) -> tuple[Vec2, float] | None:
        """How a kinematic body moving into the character this step pushes it: along the body's motion, by the
        part of the motion left after the body first touched it (plus the skin). ``None`` when the body did not
        move into it this step (it was already overlapping, or it is not moving)."""
        ch = self.character
        body = collider.body
        start = body.previous_transform
        dx, dy = body.position[0] - start.position[0], body.position[1] - start.position[1]
        length = math.hypot(dx, dy)
        if length < _EPS:
            return None
        # The body swept against the character where it stands, cast as every sweep is (its box grown by a pixel:
        # the cast only uses it to pass over what is far).
        x, y = position
        box = ch.shape.local_aabb
        me = Neighbour(ch.collider, ch.shape, Transform(position),
                       (box.min_x + x - 1.0, box.min_y + y - 1.0, box.max_x + x + 1.0, box.max_y + y + 1.0))
        hits = ch.scene.cast(body.shape, Transform(start.position, body.angle), (dx, dy), candidates=[me])
        hit = hits[0] if hits else None
        if hit is None or hit.started_inside:
            return None
        return (dx / length, dy / length), (1.0 - hit.fraction) * length + ch.config.skin

    def _one_way_pushes(self, collider: Collider, direction: Vec2, position: Vec2) -> bool:
        """A moving one-way platform pushes the character only along its one-way side, only if the character
        was not inside it before it moved, and not while dropping through it."""
        ch = self.character
        cfg = ch.config
        assert collider.one_way is not None
        if id(collider) in self._dropping or _dot(direction, collider.one_way) < math.cos(cfg.one_way_angle):
            return False
        before = ch.scene.contact_with(ch.shape, Transform(position), collider, cfg.skin, at_previous=True)
        return before is None or before.separation >= -cfg.penetration_slop

    def _inside_the_level(self, position: Vec2) -> bool:
        """Whether the character at ``position`` overlaps a solid static segment deeper than ``penetration_slop``."""
        ch = self.character
        slop = ch.config.penetration_slop
        for contact in ch.scene.contacts(ch.shape, Transform(position), 0.0, candidates=self._candidates):
            collider = contact.collider
            if collider.kind is BodyKind.STATIC and collider.one_way is None and contact.separation < -slop:
                return True
        return False

    def _overlap_depth(self, position: Vec2, gathered: bool = True) -> float:
        """How deep the character overlaps solid geometry at ``position`` (0 when free)."""
        ch = self.character
        depth = 0.0
        candidates = self._candidates if gathered else None
        for contact in ch.scene.contacts(ch.shape, Transform(position), 0.0, ignore=(ch,), candidates=candidates):
            if contact.collider.one_way is None and contact.collider.kind is not BodyKind.DYNAMIC:
                depth = max(depth, -contact.separation)
        return depth

    def _clear_at(self, spot: Vec2) -> bool:
        """Whether the character at ``spot`` keeps its ``skin`` of gap from everything solid (where a recovery
        may leave it: a spot touching something would be pushed out again next step)."""
        ch = self.character
        skin = ch.config.skin
        for contact in ch.scene.contacts(ch.shape, Transform(spot), skin, ignore=(ch,)):
            collider = contact.collider
            if collider.one_way is None and collider.kind is not BodyKind.DYNAMIC and contact.separation < skin - 1e-9:
                return False
        return True

    def _search_reach(self) -> float:
        """Pixels: how far from where it started the search for a free spot looks (kept per shape and config,
        both immutable: every move asks)."""
        ch = self.character
        shape, config = ch.shape, ch.config
        kept = self._search_reach_kept
        if kept is None or kept[0] is not shape or kept[1] is not config:
            box = shape.local_aabb
            kept = self._search_reach_kept = (shape, config,
                                              config.recovery_search_reach * max(box.width, box.height) + 4.0 * config.skin)
        return kept[2]

    def _free_spot(self, position: Vec2, came_from: Vec2 | None, cores: list[_Core]) -> Vec2 | None:
        """Where a wedged character at ``position`` goes, in this order of preference:

        1. back towards where it came from, when it was free there and the way back crosses no core in ``cores``
           (the first spot on that way that is clear);
        2. the nearest clear spot it can reach without its centre crossing a core (up first at equal distance);
        3. walled in on every side (spawned inside the ground): the nearest clear spot straight above it;
        4. the nearest clear spot anywhere (out through a wall beats staying wedged in it forever).

        ``None`` when nothing within :meth:`_search_reach` is clear."""
        ch = self.character
        reach = self._search_reach()
        step = self._ring_step()
        if came_from is not None and math.dist(came_from, position) <= reach and not _crosses_a_core(cores, came_from) \
                and self._clear_at(came_from):
            back = self._first_clear_on_line(position, came_from, step)
            if back is not None:
                return back
        ux, uy = ch.config.up
        return (self._nearest_clear_spot(position, cores, reach, step, through_walls=False)
                or self._first_clear_on_line(position, (position[0] + ux * reach, position[1] + uy * reach), step)
                or self._nearest_clear_spot(position, cores, reach, step, through_walls=True))

    def _ring_step(self) -> float:
        """Pixels between the positions a search tests: a sixteenth of the character's smaller extent, at least
        0.5 px."""
        ch = self.character
        box = ch.shape.local_aabb
        return max(0.5, min(box.width, box.height) / 16.0)

    def _first_clear_on_line(self, start: Vec2, end: Vec2, step: float) -> Vec2 | None:
        """The first clear spot (:meth:`_clear_at`) going from ``start`` to ``end`` in ``step`` px steps (``end``
        itself last), or ``None``."""
        length = math.dist(start, end)
        count = max(1, math.ceil(length / step))
        for k in range(1, count + 1):
            f = k / count
            spot = (start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)
            if self._clear_at(spot):
                return spot
        return None

    def _nearest_clear_spot(
        self, position: Vec2, cores: list[_Core], reach: float, step: float, through_walls: bool
    ) -> Vec2 | None:
        """The nearest clear spot around ``position`` out to ``reach`` (:meth:`_ring_search` on rings ``step`` px
        apart). A search that tests :data:`_SEARCH_BUDGET` spots without finding one (in clutter, the nearest free
        spot may lie farther out than that many spots 1 px apart reach) is made again on rings 4 times as far
        apart, up to rings the character's smaller extent apart, each time with a quarter of the budget (a coarser
        spot beats staying wedged; a character walled in everywhere costs half as much again as one search)."""
        box = self.character.shape.local_aabb
        coarsest = max(step, min(box.width, box.height))
        budget = _SEARCH_BUDGET
        while True:
            spot, gave_up = self._ring_search(position, cores, reach, step, through_walls, budget)
            if spot is not None or not gave_up or step >= coarsest:
                return spot
            step, budget = min(coarsest, step * 4.0), _SEARCH_BUDGET // 4

    def _ring_search(
        self, position: Vec2, cores: list[_Core], reach: float, step: float, through_walls: bool, budget: int
    ) -> tuple[Vec2 | None, bool]:
        """The nearest clear spot around ``position`` on rings ``step`` px apart out to ``reach``, up first and then
        alternately either way round (down last); unless ``through_walls``, only spots whose straight way from the
        kept point of every core in ``cores`` crosses none. A ring has ``recovery_search_directions`` spots, twice
        as many on rings far enough out for them to be more than ``step`` apart (up to 16 times as many): a narrow
        V's opening, seen from its vertex, is a few degrees wide. Returns the spot (``None``: none found) and
        whether the search gave up, having tested ``budget`` spots."""
        ch = self.character
        cfg = ch.config
        base = cfg.recovery_search_directions
        finest = base * 16
        ux, uy = cfg.up
        angles = np.arange(finest) * (2.0 * math.pi / finest)
        c, s = np.cos(angles), np.sin(angles)
        directions = np.stack([c * ux - s * uy, s * ux + c * uy], axis=1)
        here = [core for core in cores if core.kept == position]
        elsewhere = [core for core in cores if core.kept != position]
        open_for = np.full(finest, math.inf) if through_walls else _open_lengths(position, here, directions)
        tested = 0
        distance = step
        while distance <= reach:
            spread = min(16, 1 << max(0, math.ceil(math.log2(max(1.0, 2.0 * math.pi * distance / step / base)))))
            stride = finest // (base * spread)
            for k in range(base * spread):
                j = ((k + 1) // 2 * (1 if k % 2 == 1 else -1) * stride) % finest
                if distance >= open_for[j]:
                    continue
                spot = (position[0] + float(directions[j, 0]) * distance, position[1] + float(directions[j, 1]) * distance)
                if not through_walls and elsewhere and _crosses_a_core(elsewhere, spot):
                    continue
                tested += 1
                if tested > budget:
                    return None, True
                if self._clear_at(spot):
                    return spot, False
            distance += step
        return None, False

    def _thin_cores(self, position: Vec2, came_from: Vec2 | None) -> list[_Core]:
        """The cores of the solid static segments within the recovery's reach of ``position``, each with the side
        to keep: the centre's; where the character came from when the centre lies inside the segment's thickness
        (on neither side of it); the centre's after all when that is unknown (a spawn) or inside too; no side
        (left out) when the centre is on the core itself.

        A thin wall's contact normal can point to its far side (a vertex poking into the character's side, a
        corner's other wall), and pushing along it carries the centre through the wall; keeping sides stops that.
        A character speared through its centre may leave by either side, and one whose side has no room within
        reach leaves by the other (:meth:`_free_spot`): keeping a side never wedges it."""
        ch = self.character
        cfg = ch.config
        area = ch.shape.aabb(Transform(position)).grown(self._search_reach())
        cores = []
        for neighbour in ch.scene.gather(area, ignore=(ch,), filter=ch.filter):
            collider, shape = neighbour.collider, neighbour.shape
            if collider.kind is not BodyKind.STATIC or collider.one_way is not None or shape.count != 2:
                continue  # one-ways are passed through, not recovered from; bodies move (the sweep handles them)
            a, b = shape.vertices  # a static segment's shape is placed by the identity: world frame
            thickness = shape.radius + cfg.penetration_slop
            for kept, clear in ((position, thickness), (came_from, thickness), (position, _EPS)):
                if kept is not None and _distance_to_core(kept, a, b) > clear:
                    cores.append(_Core(a, b, kept))
                    break
        return cores

    def _step_up(
        self, position: Vec2, d: Vec2, velocity: Vec2, hits: list[SceneHit], trail: list[Vec2]
    ) -> tuple[Vec2, Vec2] | None:
        """Try to climb a ledge of at most ``step_height``: up, across, down onto a floor. The across move is the
        step's own ``d``, or a little more when that is too short to get over the ledge's rounded edge (a slow
        walk). ``None`` if no forward distance lands on a floor within ``step_height`` of where it started;
        otherwise ``trail`` gets the corners of the climb."""
        ch = self.character
        cfg = ch.config
        ux, uy = cfg.up
        h = cfg.step_height
        rise = self._first_hit(position, (ux * h, uy * h))
        climbed = h * (rise.fraction if rise else 1.0)
        if climbed < 0.5 * h:
            return None
        raised = (position[0] + ux * climbed, position[1] + uy * climbed)
        length = math.hypot(*d)
        if length < _EPS:
            return None
        for forward in (length, *(p for p in _STEP_PROBES if p > length)):
            if forward > length:
                self._gather_around(position, climbed + forward + cfg.skin + 1.0)
            across = (d[0] * forward / length, d[1] * forward / length)
            corners = [raised]
            landed = self._step_across_and_down(position, raised, across, velocity, climbed, hits, corners)
            if landed is not None:
                trail.extend(corners)
                return landed
        return None

    def _gather_around(self, position: Vec2, reach: float) -> None:
        """Add to this move's candidates everything within ``reach`` px of the shape at ``position``."""
        ch = self.character
        found = ch.scene.candidates(self._box_around(position, reach), (ch,), ch.filter, self._last_gathered,
                                    _GATHER_SPARE)
        self._last_gathered = found
        self._candidates = found if self._candidates is None else self._candidates.extended(found)

    def _box_around(self, position: Vec2, reach: float) -> tuple[float, float, float, float]:
        """The box a move gathers in: the shape's box at ``position`` (it never turns) grown by ``reach`` px (the
        one-call move gathers the very same box as the step-by-step one)."""
        ch = self.character
        min_x, min_y, max_x, max_y = ch.shape.local_aabb
        x, y = position
        return min_x + x - reach, min_y + y - reach, max_x + x + reach, max_y + y + reach

    def _step_across_and_down(
        self, position: Vec2, raised: Vec2, d: Vec2, velocity: Vec2, climbed: float, hits: list[SceneHit],
        trail: list[Vec2],
    ) -> tuple[Vec2, Vec2] | None:
        """From ``raised``, slide by ``d`` and drop back down: the landing, if it is on a floor no higher than
        ``step_height`` above ``position`` (a taller ledge is a wall, rounded top or not)."""
        ch = self.character
        cfg = ch.config
        ux, uy = cfg.up
        across_hits: list[SceneHit] = []
        # (No character pushed: the climb is a trial, kept only if it gets farther than the slide, which pushed.)
        moved, new_velocity = self._slide(raised, d, velocity, True, across_hits, trail=trail, pushing=False)
        length = math.hypot(*d)
        progress = _dot((moved[0] - raised[0], moved[1] - raised[1]), d) / length
        if progress < 0.25 * length:
            return None
        drop = climbed + cfg.skin
        land = self._first_hit(moved, (-ux * drop, -uy * drop))
        if land is None or _classify(land.normal, cfg) != _Surface.FLOOR:
            return None
        landed = (moved[0] - ux * drop * land.fraction, moved[1] - uy * drop * land.fraction)
        if _dot((landed[0] - position[0], landed[1] - position[1]), cfg.up) > cfg.step_height + 1e-6:
            return None
        hits.extend(across_hits)
        hits.append(land)
        trail.append(landed)
        return landed, new_velocity

    def move(self, dt: float) -> MoveResult:
        """One move of the character by its velocity over ``dt`` seconds (see the module docstring)."""
        ch = self.character
        if not (math.isfinite(dt) and dt > 0):
            raise WorldError(f"move dt must be a positive number of seconds, got {dt!r}")
        cfg = ch.config
        vx, vy = ch.velocity
        if not (math.isfinite(vx) and math.isfinite(vy)):
            raise WorldError(f"character velocity must be finite, got {ch.velocity!r}")
        hits: list[SceneHit] = []
        if cfg is not self.config:  # (a config set since: another skin, maybe)
            self.grow_cast_shape()
        position = ch.position
        if self._ended_at is not None and position != self._ended_at and not self._needs_recovery:
            self._came_from, self._needs_recovery = self._ended_at, True  # (placed by game code: as a teleport)
        ch.previous_position = position
        came_from, self._came_from = self._came_from, position
        kept_reach = self._search_reach_kept  # (the kept reach read here: every move asks)
        search_reach = kept_reach[2] if kept_reach is not None and kept_reach[0] is ch.shape and kept_reach[1] is cfg \
            else self._search_reach()
        if came_from is not None and math.dist(came_from, position) > search_reach:
            came_from = None  # (placed far from where it stood: that says nothing of which side of a wall it is on)
        ch.step_events = []
        riding = ch.platform if ch.on_floor else None
        carry = riding.displacement_of(self._floor_point or position) if riding is not None else (0.0, 0.0)
        carried, self._carried = self._carried, None
        if carried is not None and carried[0] is riding and carried[1] == riding.transform:
            carry = (0.0, 0.0)  # (the world carried it along with that motion after its body step already)

        # Everything this step can touch, gathered once: the shape's box grown by every distance it may
        # travel or probe this step. Sliding along a floor keeps the lateral speed (constant_speed_on_slopes),
        # which stretches the path by up to 1 / cos(max_floor_angle). (A step-up probing farther gathers more.)
        stretch = cfg.path_stretch
        reach = (
            math.hypot(*carry) + math.hypot(vx, vy) * dt * stretch + cfg.skin + cfg.ground_probe + cfg.snap_length
            + cfg.step_height + 1.0
        )
        self._candidates = None
        was_on_floor = ch.on_floor
        self._gather_around(position, reach)
        try:
            result = self._move(dt, position, carry, riding, hits, came_from, reach)
        finally:
            self._candidates = self._touched = None
        if ch.on_floor and not was_on_floor and ch.floor_collider is not None and ch.floor_normal is not None:
            floor = ch.floor_collider
            ch.step_events.append(ContactEvent("land", ch, floor.body if floor.body is not None else floor.segment,
                                               ch.floor_normal))
        return result

    def _move(
        self, dt: float, position: Vec2, carry: Vec2, riding: MovingBody | Character | None,
        hits: list[SceneHit], came_from: Vec2 | None, reach: float,
    ) -> MoveResult:
        """The move from ``position``: ride, recover, slide (or climb), see what it touches, snap to the floor
        (``reach``: how far around its start the move gathered what it may touch, px)."""
        ch = self.character
        cfg = ch.config
        ux, uy = cfg.up

        trail = [position]

        # 1. Ride the platform stood on.
        if riding is not None and carry != (0.0, 0.0):
            position, _ = self._slide(position, carry, (0.0, 0.0), False, [], ignore=(riding.collider,), trail=trail)

        # 2. Recover from overlap: after a teleport, when the last step ended inside something, or when a
        #    moving body nearby may have moved into us. Static geometry alone cannot.
        if self._needs_recovery or (self._candidates is not None and self._candidates.others):
            position = self._recover(position, came_from)
            self._needs_recovery = False
            if position != trail[-1]:
                trail.append(position)
                self._gather_around(position, reach)  # (a push may have carried it beyond what was gathered)

        # 3. The displacement wanted this step.
        d, velocity, grounded, lateral = self._wanted_move(dt)

        # 4. Slide, stepping up ledges when a grounded walk meets a wall.
        position, velocity = self._slide_or_climb(position, d, velocity, lateral, grounded, hits, trail)

        # 5. What do we touch now? Walking (not jumping) off a slope or a step: snap down onto the floor.
        self._classify_contacts(position)
        vu_after = velocity[0] * ux + velocity[1] * uy
        hovering = ch.on_floor and self._floor_gap > cfg.skin + 1e-6  # floor seen by the probe, not touched
        if grounded and (hovering or not ch.on_floor) and vu_after <= _EPS and cfg.snap_length > 0:
            snap = (-ux * cfg.snap_length, -uy * cfg.snap_length)
            hit = self._first_hit(position, snap)
            if hit is not None and _classify(hit.normal, cfg) == _Surface.FLOOR:
                position = (position[0] + snap[0] * hit.fraction, position[1] + snap[1] * hit.fraction)
                trail.append(position)
                self._classify_contacts(position)
        if ch.on_floor:
            vu_after = velocity[0] * ux + velocity[1] * uy
            if vu_after < 0:
                velocity = (velocity[0] - ux * vu_after, velocity[1] - uy * vu_after)
        ch.position = self._ended_at = position
        ch.velocity = velocity
        result = MoveResult(
            position, velocity, ch.on_floor, ch.on_wall, ch.on_ceiling, ch.floor_normal, ch.platform, tuple(hits),
            tuple(trail),
        )
        ch.last_move = result
        return result

    def _wanted_move(self, dt: float) -> _Wanted:
        """The displacement wanted this step (see :data:`_Wanted`): the velocity over ``dt``; walking on the
        ground, along the floor, at the lateral speed (``constant_speed_on_slopes``) and with gravity's pull along
        it (unless ``stop_on_slope``)."""
        ch = self.character
        cfg = ch.config
        ux, uy = cfg.up
        vx, vy = ch.velocity
        vu = vx * ux + vy * uy
        lateral_velocity = (vx - ux * vu, vy - uy * vu)
        grounded = ch.on_floor and vu <= _EPS and ch.floor_normal is not None
        if not grounded:
            return (vx * dt, vy * dt), (vx, vy), False, lateral_velocity
        assert ch.floor_normal is not None
        nx, ny = ch.floor_normal
        lx, ly = lateral_velocity
        tx, ty = lx - nx * (lx * nx + ly * ny), ly - ny * (lx * nx + ly * ny)  # along the floor
        lateral = math.hypot(lx, ly)
        along_lateral = math.hypot(tx - ux * (tx * ux + ty * uy), ty - uy * (tx * ux + ty * uy))
        if cfg.constant_speed_on_slopes and along_lateral > _EPS:
            scale = lateral / along_lateral
            tx, ty = tx * scale, ty * scale
        d = (tx * dt, ty * dt)
        if not cfg.stop_on_slope:
            gx, gy = ux * vu, uy * vu  # gravity's pull, along the floor
            gn = gx * nx + gy * ny
            d = (d[0] + (gx - nx * gn) * dt, d[1] + (gy - ny * gn) * dt)
        return d, (lx, ly) if cfg.stop_on_slope else (vx, vy), True, lateral_velocity

    def _slide_or_climb(
        self, start: Vec2, d: Vec2, velocity: Vec2, lateral: Vec2, grounded: bool, hits: list[SceneHit],
        trail: list[Vec2],
    ) -> tuple[Vec2, Vec2]:
        """Slide by ``d`` from ``start``; when a grounded walk (``lateral``: its velocity along the ground) meets a
        wall, also try stepping up it, and keep whichever gets farther along ``d``. ``trail`` gets the path taken."""
        ch = self.character
        cfg = ch.config
        before_slide = len(trail)
        position, velocity = self._slide(start, d, velocity, grounded, hits, trail=trail, touching=True)
        if grounded and cfg.step_height > 0 and hits and any(_classify(h.normal, cfg) == _Surface.WALL for h in hits):
            corners: list[Vec2] = []
            stepped = self._step_up(start, d, lateral, [], corners)
            if stepped is not None:
                progress_slide = _dot((position[0] - start[0], position[1] - start[1]), d)
                progress_step = _dot((stepped[0][0] - start[0], stepped[0][1] - start[1]), d)
                if progress_step > progress_slide + _EPS:
                    trail[before_slide:] = corners  # the climb replaces the slide
                    return stepped
        return position, velocity

    def _classify_contacts(self, position: Vec2) -> None:
        """What the character touches at ``position`` (within ``skin + ground_probe``): its floor, wall and
        ceiling flags, normals and platform; an overlap deeper than ``penetration_slop`` asks for a recovery at
        the start of the next step."""
        ch = self.character
        cfg = ch.config
        margin = cfg.touch_margin
        touched, self._touched = self._touched, None
        if touched is not None and touched[0] is position and touched[1] is self._candidates:
            touching: Touching | None = touched[2]  # worked out by the slide that ended here, with these candidates
        else:
            touching = ch.scene.touching(self, position, self._candidates)
        # Only static solid segments around: the same choice in one compiled call (unless no floor but two walls
        # or more, which may make a V floor: the loop below decides that).
        if touching is not None and (touching[0] is not None or touching[3] < 2):
            # No one-way collider around, so none is still being dropped through; an overlap deeper than
            # ``penetration_slop`` asks for a recovery at the start of the next step.
            floor, wall, ceiling, _, overlapping = touching
            if overlapping:
                self._needs_recovery = True
            if self._dropping:
                self._dropping = set()
            self._touch(floor, wall, ceiling)
            return
        floor = wall = ceiling = None
        walls: list[SceneContact] = []
        still_dropping: set[int] = set()
        for contact in ch.scene.contacts(ch.shape, Transform(position), margin, candidates=self._candidates):
            collider = contact.collider
            solid = collider.one_way is None and collider.kind is not BodyKind.DYNAMIC
            if contact.separation < -ch.config.penetration_slop and solid:
                self._needs_recovery = True  # ended inside something: push out at the start of the next step
            if collider.one_way is not None:
                if id(collider) in self._dropping:
                    still_dropping.add(id(collider))
                    continue
                if _dot(contact.normal, collider.one_way) < math.cos(cfg.one_way_angle):
                    continue
                if contact.separation < -ch.config.penetration_slop:
                    continue
            surface = _classify(contact.normal, cfg)
            if surface == _Surface.FLOOR:
                # The nearest floor; between equally near ones (a joint), the most level one.
                if floor is None or _floor_key(contact, cfg) < _floor_key(floor, cfg):
                    floor = contact
            elif surface == _Surface.CEILING:
                ceiling = contact if ceiling is None or contact.separation < ceiling.separation else ceiling
            else:
                wall = contact if wall is None or contact.separation < wall.separation else wall
                walls.append(contact)
        if floor is None and len(walls) >= 2:
            floor = _v_floor(walls, cfg)
        self._dropping = still_dropping
        self._touch(floor, wall, ceiling)

    def _touch(self, floor: SceneContact | None, wall: SceneContact | None, ceiling: SceneContact | None) -> None:
        """Set the character's contact state from the floor, wall and ceiling it touches (``None``: none)."""
        ch = self.character
        ch.on_floor = floor is not None
        ch.on_wall = wall is not None
        ch.on_ceiling = ceiling is not None
        ch.floor_normal = floor.normal if floor else None
        ch.wall_normal = wall.normal if wall else None
        ch.floor_collider = floor.collider if floor else None
        self._floor_point = floor.point if floor else None
        self._floor_gap = floor.separation if floor else math.inf
        ch.platform = floor.collider.body if floor is not None and floor.collider.kind is not BodyKind.STATIC else None


def move_character(ch: Character, dt: float) -> MoveResult:
    """One move of ``ch`` by its velocity over ``dt`` seconds: ``ch.move(dt)`` (kept for older callers)."""
    return ch.move(dt)
