"""The world's rigid bodies and what their step carries from one to the next.

:class:`RigidBodySet` owns the bodies (in the order they were added, their numbers in one state array), the
contacts of the last step (warm starting, events, the debug overlay) and the shape table the kernels read. A
step is one compiled call, :func:`engine.world.kernels.rigid_step.step`, for crates, kinematic bodies and
characters alike (the movers are fixed rows there); then continuous collision for the few bodies it names as
fast, and the events as Python objects.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..bodies import (
    PLACED, PREVIOUS_X, PREVIOUS_Y, SLEEP_TIME, SLEEPING, STATE_COLUMNS, VX, X, Y, PhysicsConfig, RigidBody,
)
from ..geometry import CastHit, RoundedPolygon, Transform, Vec2, shape_cast, touching_pairs
from ..types import DEFAULT_FILTER, BodyKind, ContactEvent, WorldError
from .contacts import EMPTY_CONTACTS, ContactSet
from .jit import add_stages, kernels
from .kinematic import KinematicBody, KinematicSet
from .kernels.compile import cache_holds_every_kernel_module
from .kernels.layout import (
    A, ANGLE, B, BEGAN, CHARACTER, CONTACT_FLOATS, CONTACT_INTS, CRUSHED, DYNAMIC, ENDED, KIND, KINEMATIC, MOVER_COLUMNS,
    MOVER_FRICTION, MOVER_KIND, MOVER_MIN_X, MOVER_MOVING, MOVER_STANDS_ON, MOVER_VX, MOVER_X, NX, NY, ONE_WAY_COSINE,
    PARAMETERS, SETTINGS, SPECULATIVE, SQUEEZED, STATIC, TOUCHING,
    Shapes,
)
from .static import StaticGeometry

__all__ = ["RigidBodySet", "shape_rows", "solve_parameters", "step_settings"]

_NO_EVENTS: list[ContactEvent] = []
_NO_SLEEPERS = (EMPTY_CONTACTS.ints, EMPTY_CONTACTS.floats, np.zeros(0, np.int64), np.zeros(0), 0.0)
_NO_ROWS = np.zeros(0, np.int64)
_NO_MOVERS = np.zeros((0, MOVER_COLUMNS))  # (shared by the steps without movers; writable, as every mover rows array
# is: numba compiles a kernel again for a read-only array)


def shape_rows(shapes: Sequence[RoundedPolygon]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray]:
    """The kernels' table of ``shapes``: core rows (x, y, nx, ny) one shape after another, offsets, radius (px),
    extent (px: half the larger side of the local box) and reach (px: a quarter of the smaller side)."""
    counts = [sh.count for sh in shapes]
    offsets = np.zeros(len(shapes) + 1, np.int64)
    offsets[1:] = np.cumsum(counts)
    core = np.zeros((int(offsets[-1]), 4))
    for s, sh in enumerate(shapes):
        first = offsets[s]
        core[first:first + sh.count, :2] = sh.vertices
        if sh.normals:
            core[first:first + sh.count, 2:] = sh.normals
    boxes = [sh.local_aabb for sh in shapes]
    radius = np.array([sh.radius for sh in shapes], dtype=np.float64)
    extent = np.array([0.5 * max(bx.width, bx.height) for bx in boxes], dtype=np.float64)
    reach = np.array([0.25 * min(bx.width, bx.height) for bx in boxes], dtype=np.float64)
    return core, offsets, radius, extent, reach


def _soft(hertz: float, zeta: float, h: float) -> tuple[float, float, float]:
    """(bias rate, mass scale, impulse scale) of a soft constraint (Box2D v3 ``b2MakeSoft``)."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


def solve_parameters(cfg: PhysicsConfig, gravity: Vec2, dt: float) -> np.ndarray:
    """The solve's parameters (:data:`~engine.world.kernels.layout.PARAMETERS`): a row for ``cfg.substeps``
    and a row for a step with bodies of uneven mass in contact."""
    rows = []
    for substeps in (cfg.substeps, max(cfg.substeps, cfg.uneven_mass_substeps)):
        h = dt / substeps
        hertz = min(cfg.contact_hertz, cfg.max_hertz_per_substep_rate / h)
        zeta = cfg.contact_damping_ratio
        rows.append([
            dt, substeps, 0.0, gravity[0], gravity[1], *_soft(hertz, zeta, h),
            *_soft(cfg.static_stiffness_scale * hertz, zeta, h), *_soft(min(cfg.friction_anchor_hertz, hertz), zeta, h),
            cfg.contact_push_max_velocity, cfg.block_condition_limit, cfg.linear_damping, cfg.angular_damping,
            cfg.max_linear_speed, cfg.restitution_threshold, cfg.max_static_overlap])
    params = np.array(rows, dtype=np.float64)
    assert params.shape[1] == PARAMETERS
    return params


def step_settings(cfg: PhysicsConfig, gravity: Vec2, dt: float, static_friction: float) -> np.ndarray:
    """The step's settings vector (:data:`~engine.world.kernels.layout.SETTINGS`)."""
    settings = np.array([
        gravity[0], gravity[1], dt, cfg.light_gap_fraction * cfg.linear_slop, cfg.uneven_mass_ratio,
        cfg.max_rotation_error, cfg.speculative_distance, cfg.linear_slop, 1.0 if cfg.enable_sleep else 0.0,
        cfg.sleep_linear_velocity, cfg.time_to_sleep, 1.0 if cfg.continuous else 0.0, static_friction,
        cfg.crush_depth], dtype=np.float64)
    assert len(settings) == SETTINGS
    return settings


class _Numbers:
    """The parameters and settings of the last step, made again only when the config (by identity: comparing a
    config's two dozen fields cost more than the rest of a small step's Python), gravity, step or static
    friction differ."""

    def __init__(self) -> None:
        self.config: PhysicsConfig | None = None
        self.key: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        self.params = self.settings = np.zeros(0)

    def of(self, cfg: PhysicsConfig, gravity: Vec2, dt: float, static_friction: float) -> tuple[np.ndarray, np.ndarray]:
        key = (float(gravity[0]), float(gravity[1]), dt, static_friction)
        if cfg is not self.config or key != self.key:
            g = (key[0], key[1])
            self.params, self.settings = solve_parameters(cfg, g, dt), step_settings(cfg, g, dt, static_friction)
            self.config, self.key = cfg, key
        return self.params, self.settings


class RigidBodySet:
    """Dynamic bodies and what their step carries from one to the next."""

    def __init__(self, config: PhysicsConfig) -> None:
        self.config = config
        self.bodies: list[RigidBody] = []
        self._state = np.zeros((8, STATE_COLUMNS))
        """Every body's row (see :data:`engine.bodies.STATE_COLUMNS`), in the order of :attr:`bodies`; the rows
        past the last body are spare room."""
        self._state_view = self._state[:0]
        """The bodies' rows of :attr:`_state` as :attr:`body_state` last made them."""
        self._ints = EMPTY_CONTACTS.ints
        self._floats = EMPTY_CONTACTS.floats
        """The last step's contacts of the awake bodies (see :mod:`engine.world.kernels.layout`)."""
        self._sleep: tuple[Any, ...] = _NO_SLEEPERS
        """What the step keeps of the sleepers (see :func:`~engine.world.kernels.rigid_step.step`): their
        contacts (after :attr:`_ints`: together, the last step's contacts) and the index of their boxes."""
        self._cache: tuple[np.ndarray, ...] = ()
        """The step's placements and boxes of every body (a sleeper's are made once) and the rows awake in the
        last step, for the shape table of :attr:`_shapes_key`."""
        self._cache_key: tuple[Any, ...] | None = None
        """What :attr:`_cache` was made for (the shape table's key and the boxes' margin)."""
        self._bounds_of: tuple[Any, np.ndarray] = (None, np.zeros(0))
        """A shape table and each body's reach from its position in any turn (see :meth:`_bounds`)."""
        self._least_reach: tuple[Any, float] = (None, 0.0)
        """A shape table and its smallest reach (px), for the sweep against kinematic bodies."""
        self._kinematic_step = math.inf
        """How far the fastest kinematic body moves in this step at its velocity (px; set as the step begins)."""
        self._resting = False
        """Whether the last step found every body asleep (the next asks first whether it may do nothing)."""
        self._movers: list[Any] = []
        """The kinematic bodies then characters of the last step, in the rows its contacts name."""
        self._mover_numbers: dict[int, tuple[Any, int]] = {}
        """id(mover) -> (the mover, its number in pair keys): kept while it is in the world."""
        self._next_mover_number = 0
        self._mover_ends: dict[int, tuple[Any, float]] = {}
        """id(mover) -> where it ended the last step (position, angle): one that starts elsewhere was placed."""
        self._body_table: tuple[Any, ...] | None = None
        self._body_table_key: tuple[int, int] = (-1, -1)
        self._shapes: Any = None
        self._shapes_key: tuple[Any, ...] = ()
        self._changes = 0
        self._numbers = _Numbers()

    def __getstate__(self) -> dict[str, Any]:
        """What a copy keeps (pickling, ``copy.deepcopy``: a search tries moves on copies of a world): the movers'
        numbers and last ends by object, not by the ids of this process's objects; the caches are made again."""
        state = dict(self.__dict__)
        movers = {id(mover): mover for mover, _ in self._mover_numbers.values()}
        movers.update((id(mover), mover) for mover in self._movers)
        state["_mover_numbers"] = list(self._mover_numbers.values())
        state["_mover_ends"] = [(movers[key], end) for key, end in self._mover_ends.items() if key in movers]
        state["_body_table"], state["_shapes"], state["_shapes_key"] = None, None, ()
        state["_cache"], state["_cache_key"], state["_least_reach"] = (), None, (None, 0.0)
        state["_bounds_of"] = (None, np.zeros(0))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["_mover_numbers"] = {id(mover): (mover, number) for mover, number in state["_mover_numbers"]}
        state["_mover_ends"] = {id(mover): end for mover, end in state["_mover_ends"]}
        self.__dict__.update(state)

    # ---------------------------------------------------------------- reading
    @property
    def contacts(self) -> ContactSet:
        """The contacts of the last step (read-only: the debug overlay draws them)."""
        kept_ints, kept_floats = self._sleep[:2]
        if not len(kept_ints):
            return ContactSet(self._ints, self._floats)
        return ContactSet(np.concatenate([self._ints, kept_ints]), np.concatenate([self._floats, kept_floats]))

    @property
    def step_contacts(self) -> ContactSet:
        """The contacts the last step solved (the awake bodies'; read-only), without the sleepers' kept aside."""
        return ContactSet(self._ints, self._floats)

    def _all_contacts(self) -> tuple[np.ndarray, np.ndarray]:
        """The last step's contacts, the sleepers' taken back among them (for a change that looks at all of
        them: the next step sets the sleepers' aside again)."""
        kept_ints, kept_floats, *index = self._sleep
        if len(kept_ints):
            self._ints = np.concatenate([self._ints, kept_ints])
            self._floats = np.concatenate([self._floats, kept_floats])
            self._sleep = (EMPTY_CONTACTS.ints, EMPTY_CONTACTS.floats, *index)
        return self._ints, self._floats

    @property
    def body_state(self) -> np.ndarray:
        """The bodies' rows ((len(bodies), STATE_COLUMNS), a view: the step reads and writes it in place)."""
        view = self._state_view
        if view.base is not self._state or len(view) != len(self.bodies):  # (the view is kept: a step asks often)
            view = self._state_view = self._state[:len(self.bodies)]
        return view

    def mover(self, index: int) -> Any:
        """The mover (kinematic body or character) a contact of the last step names as its A (``index``: the
        contact's A index, a row among the movers that step, which leaves out the kinematic bodies far from
        every body)."""
        return self._movers[index]

    def _participant(self, kind: int, index: int) -> Any:
        """What a contact's A (of ``kind``) or B (``kind`` -1) is: a segment index, a mover or a body."""
        if kind == STATIC:
            return index
        if kind in (KINEMATIC, CHARACTER):
            return self._movers[index]
        return self.bodies[index]

    # ---------------------------------------------------------------- bodies
    def add(self, body: RigidBody) -> RigidBody:
        if not isinstance(body, RigidBody):
            raise WorldError(f"add_body takes a RigidBody, got {body!r}")
        if body.owner is self:
            raise WorldError(f"{body!r} is already in this world")
        if body.owner is not None:
            raise WorldError(f"{body!r} is in another world: remove it there before adding it here")
        if len(self.bodies) == len(self._state):  # full: twice the room, every body moves into it
            grown = np.zeros((2 * len(self._state), STATE_COLUMNS))
            for row, b in enumerate(self.bodies):
                b.bind(grown, row, self)
            self._state = grown
        body.bind(self._state, len(self.bodies), self)
        self.bodies.append(body)
        self._changes += 1
        return body

    def remove(self, body: RigidBody) -> None:
        """Take ``body`` out; the bodies it touched wake (what held them, or what they held, is gone)."""
        index = body.row
        ints = self._all_contacts()[0]
        gone = (ints[:, B] == index) | ((ints[:, KIND] == DYNAMIC) & (ints[:, A] == index))
        self._wake_rows(np.concatenate([ints[gone, B], ints[gone & (ints[:, KIND] == DYNAMIC), A]]))
        body.bind(self._state[index].copy()[None, :], 0, None)  # it keeps its numbers, in a row of its own
        del self.bodies[index]
        self._changes += 1
        for row in range(index, len(self.bodies)):
            self.bodies[row].bind(self._state, row, self)
        self._keep_contacts(~gone)
        self._ints[:, B] -= self._ints[:, B] > index
        self._ints[:, A] -= (self._ints[:, KIND] == DYNAMIC) & (self._ints[:, A] > index)

    def forget(self, other: object) -> None:
        """A mover (a character, a kinematic body) left the world: its contacts go."""
        if self._mover_numbers.pop(id(other), None) is None:
            return
        rows = [i for i, mover in enumerate(self._movers) if mover is other]
        if rows:
            self._all_contacts()
            moving = (self._ints[:, KIND] == KINEMATIC) | (self._ints[:, KIND] == CHARACTER)
            gone = moving & (self._ints[:, A] == rows[0])
            self._wake_rows(self._ints[gone, B])  # (what rested on it, or was pressed by it)
            self._keep_contacts(~gone)

    def _wake_rows(self, rows: np.ndarray) -> None:
        """Wake the bodies of these rows of the state."""
        self._state[rows, SLEEPING] = 0.0
        self._state[rows, SLEEP_TIME] = 0.0

    def wake_in_boxes(self, boxes: np.ndarray) -> None:
        """Wake the bodies whose boxes meet any of ``boxes`` (rows of min x, min y, max x, max y, px): static
        geometry was added there."""
        if not self.bodies or not len(boxes):
            return
        mine = self.boxes(0.0)
        low, high = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)  # (first the bodies near any of them)
        rows = np.flatnonzero((mine[:, 0] <= high[0]) & (mine[:, 2] >= low[0]) & (mine[:, 1] <= high[1])
                              & (mine[:, 3] >= low[1]))
        for first in range(0, len(boxes), 1024):
            part, near = boxes[first:first + 1024], mine[rows]
            meets = ((near[:, None, 0] <= part[None, :, 2]) & (near[:, None, 2] >= part[None, :, 0])
                     & (near[:, None, 1] <= part[None, :, 3]) & (near[:, None, 3] >= part[None, :, 1])).any(axis=1)
            self._wake_rows(rows[meets])

    def _keep_contacts(self, keep: np.ndarray) -> None:
        self._ints, self._floats = self._ints[keep].copy(), self._floats[keep].copy()

    def holds(self, body: RigidBody, direction: Vec2) -> bool:
        """Whether the last step's contacts hold ``body`` from moving along ``direction`` (see
        :func:`~engine.world.kernels.rigid_step.held_against`); ``False`` for a body not in this set."""
        if body.owner is not self:
            return False
        row = body.row
        ints, floats = self._all_contacts()
        return bool(kernels().rigid_step.held_against(ints, floats, len(ints), len(self.bodies), row,
                                                      float(direction[0]), float(direction[1]), -math.inf))

    def boxes(self, pad: float) -> np.ndarray:
        """Every body's box where it is now, grown by ``pad`` px ((len(bodies), 4): min x, min y, max x, max y),
        in one compiled call."""
        count = len(self.bodies)
        if not count:
            return np.zeros((0, 4))
        core, offsets, radius = self._table()[:3]
        return kernels().narrow_phase.body_boxes(self._state, count, core, offsets, radius, float(pad))

    def _table(self) -> tuple[Any, ...]:
        """The bodies' shape rows (:func:`shape_rows`), filters (K, 3) and ids: made again when bodies were
        added or removed or a body's shape or filter was set."""
        key = (self._changes, RigidBody.layout_changes)
        if self._body_table is None or key != self._body_table_key:
            bodies = self.bodies
            filters = np.array([(b.filter.category, b.filter.mask, b.filter.group) for b in bodies],
                               dtype=np.int64).reshape(-1, 3)
            ids = np.array([b.id for b in bodies], dtype=np.int64)
            self._body_table = (*shape_rows([b.shape for b in bodies]), filters, ids)
            self._body_table_key = key
        return self._body_table

    # ---------------------------------------------------------------- the step
    def step(self, static: StaticGeometry, kinematic: KinematicSet, characters: Sequence[Any],
             gravity: Vec2, cfg: PhysicsConfig, static_friction: float, dt: float) -> list[ContactEvent]:
        """Advance every awake body by ``dt`` seconds among the ``static`` geometry and the movers (which moved
        already this step); returns the contact begin / end and crushed events."""
        if not self.bodies:
            self._ints, self._floats, self._sleep = EMPTY_CONTACTS.ints, EMPTY_CONTACTS.floats, _NO_SLEEPERS
            return _NO_EVENTS
        k = kernels()
        arguments = self.step_arguments(k, static, kinematic, characters, gravity, cfg, static_friction, dt)
        if self._resting and k.rigid_step.resting(arguments[0], arguments[3]):
            return _NO_EVENTS  # (what the step would say, for a fraction of its call's cost)
        status, ints, floats, self._sleep, events, normals, fast, moved = k.rigid_step.step(*arguments)
        self._resting = status != 0
        if status != 0:
            return _NO_EVENTS
        self._ints, self._floats = ints, floats
        if cfg.continuous and len(fast) and len(static):
            self._sweep(static, cfg, fast, moved)
        if cfg.continuous and len(kinematic):
            self._sweep_movers(kinematic, cfg)
        return self._events(events, normals) if len(events) else _NO_EVENTS

    def step_arguments(self, k: Any, static: StaticGeometry, kinematic: KinematicSet,
                       characters: Sequence[Any], gravity: Vec2, cfg: PhysicsConfig, static_friction: float,
                       dt: float) -> tuple[Any, ...]:
        """What :func:`~engine.world.kernels.rigid_step.step` (of the kernels package ``k``) takes for this step:
        the state rows, the shapes, the level, the movers' rows, the last contacts, what is kept of the sleepers,
        the placements, the solve's parameters and the step's settings. The movers are the kinematic bodies
        that may meet a body in this step (:meth:`_kinematic_near`; the others cannot touch or wake one), then
        the characters."""
        params, settings = self._numbers.of(cfg, gravity, dt, float(static_friction))
        kinematic_count = len(kinematic)
        if kinematic_count:
            self._kinematic_step = kinematic.fastest_step(dt)
            settings = _reaching_kinematic_steps(settings, self._kinematic_step)
        speculative = float(settings[SPECULATIVE])
        character_shapes = tuple((id(ch.shape), id(ch.filter)) for ch in characters) if characters else ()
        key = (self._changes, RigidBody.layout_changes, kinematic.changes, kinematic_count, character_shapes,
               speculative)
        if self._cache_key != key:  # (bodies, shapes or the boxes' margin changed, or a copy: all placed anew)
            self._place_anew(key)
        near = self._kinematic_near(kinematic, speculative) if kinematic_count else _NO_ROWS
        movers, mover_shapes = [*characters], character_shapes
        if len(near):
            near_bodies = [kinematic.bodies[r] for r in near.tolist()]
            movers = near_bodies + movers
            mover_shapes = tuple((id(m.shape), id(m.filter)) for m in near_bodies) + mover_shapes
        if len(movers) != len(self._movers) or (movers and any(map(operator.is_not, movers, self._movers))):
            self._renumber_movers(movers)
        mover_rows = self._mover_rows(kinematic, near, characters, dt, static_friction) if movers else _NO_MOVERS
        if not movers:
            self._mover_ends = {}
        shapes = self._shapes_with(movers, mover_shapes, k)
        place, boxes, active = self._cache
        rows = len(self.bodies) + len(movers)
        if len(place) != rows:  # (other movers than in the last step: the bodies' placements and boxes stand)
            count = len(self.bodies)
            place, boxes = np.resize(place, (rows, 4)), np.resize(boxes, (rows, 4))
            place[count:], boxes[count:] = 0.0, 0.0
            self._cache = (place, boxes, active)
        return (self.body_state, shapes, static.kernel_level_arrays(), mover_rows, self._ints, self._floats,
                self._sleep, self._cache, params, settings)

    def _place_anew(self, key: tuple[Any, ...]) -> None:
        """Every body's placement and box made again in the next step, as if each was awake in the last one
        (bodies, shapes or the boxes' margin changed: ``key`` says what they are now)."""
        self._all_contacts()
        count = len(self.bodies)
        active = np.arange(-1, count, dtype=np.int64)  # (how many, then the rows)
        active[0] = count
        self._cache = (np.zeros((count, 4)), np.zeros((count, 4)), active)
        self._sleep = (*self._sleep[:2], *_NO_SLEEPERS[2:])
        self._cache_key = key

    def _kinematic_near(self, kinematic: KinematicSet, grow: float) -> np.ndarray:
        """The rows of the kinematic bodies that may touch or wake a body in this step, ascending: those whose
        boxes over the step meet a body's box grown by ``grow`` px (the step's boxes: an awake body's is
        bounded here by a circle about its position, a sleeper's is the one kept in the index of the sleepers),
        and those the last contacts name. A kinematic body far from every body is no row of the step (it
        would meet nothing there), and costs only its share of the array operations that move it."""
        near = np.zeros(len(kinematic), np.bool_)
        for ints in (self._ints, self._sleep[0]):  # (touching it, or just stopped: kept while they are contacts)
            if len(ints):
                named = ints[:, KIND] == KINEMATIC
                if named.any():
                    for a in np.unique(ints[named, A]).tolist():
                        near[self._movers[a].row] = True
        state, active = self.body_state, self._cache[2]
        moving = np.concatenate([np.flatnonzero((state[:, SLEEPING] == 0.0) | (state[:, PLACED] != 0.0)),
                                 active[1:1 + active[0]]])  # (awake, placed, or fell asleep at the last step's end)
        if len(moving):
            centre, reach = state[moving, X:Y + 1], self._bounds()[moving] + (grow + 1.0)
            low_x, low_y, high_x, high_y = _reach_box(centre, reach)
            min_x, min_y, max_x, max_y = kinematic.extent()
            if min_x <= high_x and max_x >= low_x and min_y <= high_y and max_y >= low_y:  # (else none is near)
                near |= _meets_any(kinematic.boxes(), np.concatenate([centre - reach[:, None], centre + reach[:, None]],
                                                                      axis=1))
        rows, keys, widest = self._sleep[2:5]
        if len(rows):
            min_x, _, max_x, _ = kinematic.extent()
            if min_x <= float(keys[-1]) + widest + 1.0 and max_x >= float(keys[0]):  # (else none is by a sleeper)
                near |= _meets_any(kinematic.boxes(), self._cache[1][rows], keys, widest)
        return np.flatnonzero(near)

    def _bounds(self) -> np.ndarray:
        """Each body's farthest reach from its position in any turn (px): its core's farthest vertex and its
        radius (made again with the shape table)."""
        table = self._table()
        if self._bounds_of[0] is not table:
            core, offsets, radius = table[:3]
            far = np.maximum.reduceat(np.hypot(core[:, 0], core[:, 1]), offsets[:-1]) if len(radius) else radius
            self._bounds_of = (table, far + radius)
        return self._bounds_of[1]

    def _renumber_movers(self, movers: list[Any]) -> None:
        """The last contacts' mover rows as rows of ``movers`` (those no longer there dropped, their bodies
        woken), the sleepers' contacts kept aside as they are."""
        row_now = {id(m): i for i, m in enumerate(movers)}
        new_row_of_old = np.array([row_now.get(id(m), -1) for m in self._movers] + [-1], dtype=np.int64)
        self._ints, self._floats = self._renumbered(self._ints, self._floats, new_row_of_old)
        kept_ints, kept_floats, *index = self._sleep
        if len(kept_ints):
            self._sleep = (*self._renumbered(kept_ints, kept_floats, new_row_of_old), *index)
        for mover in movers:
            if id(mover) not in self._mover_numbers:
                self._mover_numbers[id(mover)] = (mover, self._next_mover_number)
                self._next_mover_number += 1
        self._movers = movers

    def _renumbered(self, ints: np.ndarray, floats: np.ndarray, new_row_of_old: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
        """Contacts ``ints``, ``floats`` with their movers' rows given anew (``new_row_of_old``, -1: gone, its
        contacts dropped and their bodies woken)."""
        moving = (ints[:, KIND] == KINEMATIC) | (ints[:, KIND] == CHARACTER)
        if not moving.any():
            return ints, floats
        now = np.where(moving, new_row_of_old[np.where(moving, ints[:, A], -1)], 0)
        keep = ~moving | (now >= 0)
        self._wake_rows(ints[~keep, B])  # (their mover left the world)
        ints, floats = ints[keep].copy(), floats[keep].copy()
        moving, now = moving[keep], now[keep]
        ints[moving, A] = now[moving]
        return ints, floats

    def _shapes_with(self, movers: list[Any], mover_shapes: tuple[tuple[int, int], ...], k: Any) -> Any:
        """The kernels' shape table: the bodies' shapes, then the movers' (the fields of a
        :class:`~engine.world.kernels.layout.Shapes`, as a plain tuple: see
        :func:`~engine.world.kernels.rigid_step.step`). ``mover_shapes``: the ids of each mover's shape and
        filter (the table is made again when they change)."""
        key = (self._changes, RigidBody.layout_changes, mover_shapes)
        if self._shapes is None or key != self._shapes_key:
            core, offsets, radius, extent, reach, filters, ids = self._table()
            if movers:
                m_core, m_offsets, m_radius, m_extent, m_reach = shape_rows([m.shape for m in movers])
                core = np.concatenate([core, m_core])
                offsets = np.concatenate([offsets, offsets[-1] + m_offsets[1:]])
                radius, extent = np.concatenate([radius, m_radius]), np.concatenate([extent, m_extent])
                reach = np.concatenate([reach, m_reach])
                filters = np.concatenate([filters, np.array(
                    [(m.filter.category, m.filter.mask, m.filter.group) for m in movers], dtype=np.int64)])
                ids = np.concatenate([ids, np.array([self._mover_numbers[id(m)][1] for m in movers], np.int64)])
            self._shapes = tuple(Shapes(core, offsets, radius, extent, reach, filters, ids))
            self._shapes_key = key
        return self._shapes

    def _mover_rows(self, kinematic: KinematicSet, near: np.ndarray, characters: Sequence[Any], dt: float,
                    static_friction: float) -> np.ndarray:
        """The movers' rows (:data:`~engine.world.kernels.layout.MOVER_COLUMNS`): where each started this step,
        the speed it moved at, its friction, kind and box over the step (the kinematic bodies of rows ``near``
        from their set's arrays). A mover that did not start where it ended the last step (placed by game code)
        counts as moving: the sleepers it left or now meets wake."""
        rows = np.zeros((len(near) + len(characters), MOVER_COLUMNS))
        kinematic.mover_rows(rows, static_friction, near)
        ends, last_ends = {}, self._mover_ends
        for j, ch in enumerate(characters, start=len(near)):
            begin = ch.previous_position or ch.position
            box = ch.shape.aabb(ch.transform).union(ch.shape.aabb(Transform(begin)))
            rows[j, MOVER_X:MOVER_X + 3] = (begin[0], begin[1], 0.0)
            rows[j, MOVER_VX:MOVER_VX + 3] = ((ch.position[0] - begin[0]) / dt, (ch.position[1] - begin[1]) / dt, 0.0)
            rows[j, MOVER_FRICTION], rows[j, MOVER_KIND] = ch.config.friction, CHARACTER
            placed = last_ends.get(id(ch), (begin, 0.0)) != (begin, 0.0)
            rows[j, MOVER_MOVING] = 1.0 if placed or ch.velocity != (0.0, 0.0) else 0.0
            rows[j, MOVER_MIN_X:MOVER_MIN_X + 4] = box
            floor = ch.floor_collider
            if ch.on_floor and floor is not None and floor.kind is BodyKind.DYNAMIC and floor.body.owner is self:
                rows[j, MOVER_STANDS_ON] = 1 + floor.body.row
            ends[id(ch)] = (ch.position, 0.0)
        self._mover_ends = ends
        return rows

    def _events(self, rows: np.ndarray, normals: np.ndarray) -> list[ContactEvent]:
        """The step's events as Python objects (see :class:`~engine.types.ContactEvent`)."""
        events = []
        participant, bodies = self._participant, self.bodies
        for (kind, a_kind, a, b), normal in zip(rows.tolist(), normals.tolist()):
            first, body = participant(a_kind, a), bodies[b]
            if kind == BEGAN:
                events.append(ContactEvent("begin", first, body, (normal[0], normal[1])))
            elif kind == ENDED:
                events.append(ContactEvent("end", first, body, (0.0, 0.0)))
            elif kind == CRUSHED:
                events.append(ContactEvent("crushed", body, first, (normal[0], normal[1])))
            elif kind == SQUEEZED:
                events.append(ContactEvent("crushed", first, body, (normal[0], normal[1])))
        return events

    # ---------------------------------------------------------------- continuous collision
    def _sweep_movers(self, kinematic: KinematicSet, cfg: PhysicsConfig) -> None:
        """Bodies and kinematic bodies that moved past each other this step by more than a body's reach are swept
        against each other, in the kinematic body's frame (the body moves by the difference of their moves). A
        body that ran into one is put where it touched, carried on by it for the rest of the step (just short of
        its surface), and loses its speed into it: a fast crate does not fall through a thin platform, and a
        fast lift does not pass up through a crate. A one-way body holds only what moves against its
        direction."""
        count = len(self.bodies)
        state = self._state[:count]
        table = self._table()
        if self._least_reach[0] is not table:
            self._least_reach = (table, float(table[4].min(initial=np.inf)))
        # (A body closing on a kinematic body by more than the speculative distance in a step may not have met it
        # in the solve, and one deeper than ``crush_depth`` in it is let through: swept from there on, or its
        # reach when that is smaller. Only the bodies and kinematic bodies that moved at least half that can pass
        # each other: in most steps there are none. Only the step's awake bodies moved.)
        awake = self._cache[2][1:1 + self._cache[2][0]]
        spec = cfg.speculative_distance
        limit = 0.5 * min(self._least_reach[1], spec)
        if self._kinematic_step + 1e-3 < limit and not self._may_reach(awake, kinematic.extent()):
            return  # (no kinematic body moved as far (a step's move is its velocity's, but for rounding), and no
            # body came near one: none passed another)
        moved = state[awake, X:X + 2] - state[awake, PREVIOUS_X:PREVIOUS_X + 2]
        fast_bodies = awake[np.hypot(moved[:, 0], moved[:, 1]) >= 0.5 * np.minimum(table[4][awake], spec)]
        carried = kinematic.displacements()
        fast_movers = np.flatnonzero(np.hypot(carried[:, 0], carried[:, 1]) >= limit)
        if not len(fast_bodies) and not len(fast_movers):
            return
        moved, reach = state[:, X:X + 2] - state[:, PREVIOUS_X:PREVIOUS_X + 2], np.minimum(table[4], spec)
        boxes = self.boxes(0.0)
        swept = np.concatenate([np.minimum(boxes[:, :2], boxes[:, :2] - moved), np.maximum(boxes[:, 2:], boxes[:, 2:]
                                                                                            - moved)], axis=1)
        first: dict[int, tuple[float, CastHit, int]] = {}
        for i, j in _mover_pairs((moved, fast_bodies, swept), (carried, fast_movers, kinematic.boxes()), reach):
            relative = (float(moved[i, 0] - carried[j, 0]), float(moved[i, 1] - carried[j, 1]))
            body, mover = self.bodies[i], kinematic.bodies[j]
            start = Transform((float(state[i, PREVIOUS_X]), float(state[i, PREVIOUS_Y])), body.angle)
            hit = _entry(body.shape, start, relative, mover.shape, mover.previous_transform, mover.collider.one_way,
                         cfg.continuous_min_approach)
            if hit is not None and (i not in first or hit.fraction < first[i][0]):
                first[i] = (hit.fraction, hit, j)
        if not first:
            return
        held_against = kernels().rigid_step.held_against
        ints, floats = _with_sweeps(*self._all_contacts(), first)
        self._cache_key = None  # (a body may move here, asleep or not: every body placed anew next step)
        for i, (f, hit, j) in first.items():
            closing = float(carried[j, 0] * hit.normal[0] + carried[j, 1] * hit.normal[1])  # (px, into the body)
            if held_against(ints, floats, len(ints), count, i, *hit.normal, closing if closing > 0.0 else -math.inf):
                continue  # (held from the far side, or nearer than the push: the kinematic body crushes it)
            relative = moved[i] - carried[j]
            f -= min(f, cfg.linear_slop / math.hypot(*relative))  # (just short of the surface)
            state[i, X:X + 2] = state[i, PREVIOUS_X:PREVIOUS_X + 2] + f * moved[i] + (1.0 - f) * carried[j]
            vx, vy = kinematic.bodies[j].velocity
            (nx, ny), v = hit.normal, state[i, VX:VX + 2]
            into = (v[0] - vx) * nx + (v[1] - vy) * ny  # (< 0: closing on the kinematic body)
            if into < 0.0:
                v[0], v[1] = v[0] - into * nx, v[1] - into * ny

    def _may_reach(self, rows: np.ndarray, box: tuple[float, float, float, float]) -> bool:
        """Whether a body of ``rows`` may have met ``box`` (min x, min y, max x, max y, px) on its way in this step
        (its reach in any turn around each end of its move)."""
        if not len(rows):
            return False
        state, reach = self._state, self._bounds()[rows]
        end = _reach_box(state[rows, X:Y + 1], reach)
        start = _reach_box(state[rows, PREVIOUS_X:PREVIOUS_Y + 1], reach)
        low_x, low_y, high_x, high_y = min(end[0], start[0]), min(end[1], start[1]), max(end[2], start[2]), \
            max(end[3], start[3])
        return box[0] <= high_x and box[2] >= low_x and box[1] <= high_y and box[3] >= low_y

    def _sweep(self, static: StaticGeometry, cfg: PhysicsConfig, fast: np.ndarray, moved: np.ndarray) -> None:
        """Fast bodies (rows ``fast``, which moved ``moved`` px this step) are swept against static geometry from
        where they were to where the solver put them, and stopped at the first touch: nothing passes through a
        thin platform in one step; and what followed them is held back with them (:meth:`_hold_back_followers`)."""
        state = self._state
        stopped: list[tuple[int, float, float]] = []
        for row, (dx, dy) in zip(fast.tolist(), moved.tolist()):
            body = self.bodies[row]
            origin = (float(state[row, PREVIOUS_X]), float(state[row, PREVIOUS_Y]))
            hit = _first_entry(static, body.shape, Transform(origin, body.angle), (dx, dy),
                               cfg.continuous_min_approach, cfg.max_static_overlap + cfg.linear_slop)
            if hit is None:
                continue
            f = hit.fraction
            back = min(f, cfg.linear_slop / math.hypot(dx, dy))  # stop just short of the surface
            state[row, X], state[row, Y] = origin[0] + dx * (f - back), origin[1] + dy * (f - back)
            stopped.append((row, dx * (1.0 - f + back), dy * (1.0 - f + back)))
        if stopped:
            self._hold_back_followers(stopped)

    def _hold_back_followers(self, stopped: list[tuple[int, float, float]]) -> None:
        """Bodies that followed one the sweep stopped (``stopped``: its row and the part of its move taken back,
        px) are taken back with it, as far along that move as they went in the step: a crate standing on a
        crate, the two falling together onto the floor, went on into the bottom one by the rest of its step
        (crates are not swept against each other; 12 px at 1,000 px/s). A follower is a body in contact with
        it in this step (within the speculative distance at its start) and behind it along its move; then its
        own followers in turn. A body two stopped bodies hold back is taken back as far as the farther asks,
        not the sum, and one the sweep stopped itself (through the body it followed) no farther than that
        asks in all. Velocities are left to the next step's solve, as the sweep leaves them."""
        ints, floats, state = self._ints, self._floats, self._state
        between = np.flatnonzero(ints[:, KIND] == DYNAMIC)
        first, second = ints[between, A], ints[between, B]
        firsts, seconds = first.tolist(), second.tolist()
        normals_x, normals_y = floats[between, NX].tolist(), floats[between, NY].tolist()
        taken = {row: (lx, ly) for row, lx, ly in stopped}  # (how far each was taken back so far)
        queue = list(stopped)
        while queue:
            row, lx, ly = queue.pop()
            lost = math.hypot(lx, ly)
            if lost == 0.0:
                continue
            ux, uy = lx / lost, ly / lost  # (along the move)
            # (its pairs in their order, found by an array test: a loop over every pair for each body taken back
            # was 4 ms a call in a falling 5,000-crate pile)
            for j in np.flatnonzero((first == row) | (second == row)).tolist():
                a, b, nx, ny = firsts[j], seconds[j], normals_x[j], normals_y[j]
                other, sign = (b, 1.0) if a == row else (a, -1.0)  # (the normal from ``row`` to the other)
                if sign * (nx * ux + ny * uy) > -0.5:
                    continue  # (not behind it)
                before = taken.get(other, (0.0, 0.0))
                went = (state[other, X] + before[0] - state[other, PREVIOUS_X]) * ux \
                    + (state[other, Y] + before[1] - state[other, PREVIOUS_Y]) * uy
                more = min(lost, went) - (before[0] * ux + before[1] * uy)
                if more <= 0.0:
                    continue
                state[other, X], state[other, Y] = state[other, X] - ux * more, state[other, Y] - uy * more
                taken[other] = (before[0] + ux * more, before[1] + uy * more)
                queue.append((other, ux * more, uy * more))


def _with_sweeps(ints: np.ndarray, floats: np.ndarray, first: dict[int, tuple[float, CastHit, int]]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The step's contacts and, for each body a kinematic body caught up with in its sweep (``first``: body row
    -> (fraction, hit, kinematic row)), a contact touching it (for the holds: a kinematic body sweeping a crate
    against a hero holds it, as one pressing it in the step does, whose contact the step has dropped)."""
    extra_ints, extra_floats = np.zeros((len(first), CONTACT_INTS), np.int64), np.zeros((len(first), CONTACT_FLOATS))
    for row, (body, (_, hit, mover)) in enumerate(first.items()):
        extra_ints[row, [KIND, A, B, TOUCHING]] = KINEMATIC, mover, body, 1
        extra_floats[row, [NX, NY]] = hit.normal
    return np.concatenate([ints, extra_ints]), np.concatenate([floats, extra_floats])


def _reaching_kinematic_steps(settings: np.ndarray, step: float) -> np.ndarray:
    """The step's ``settings`` with contacts gathered (speculatively) as far as the fastest kinematic body moves
    this step (``step`` px), when that is farther than the speculative distance: a lift pressing a stack 10 px
    a step must see the ceiling 7 px above the top crate to know the stack is held (see
    :func:`~engine.world.kernels.rigid_step._held_against`), or it presses the crates into each other."""
    if step <= settings[SPECULATIVE]:
        return settings
    reaching = settings.copy()
    reaching[SPECULATIVE] = step
    return reaching


_FEW = 8
"""Below this many circles, :func:`_reach_box` walks them in Python: numpy's calls cost more than the sums."""


def _reach_box(centres: np.ndarray, reach: np.ndarray) -> tuple[float, float, float, float]:
    """The box (min x, min y, max x, max y, px) around circles about ``centres`` ((n, 2) px) of radii ``reach``
    ((n,) px); an empty one (inf, inf, -inf, -inf) for none. (A step has most often one or two awake bodies.)"""
    if len(centres) < _FEW:
        low_x = low_y = math.inf
        high_x = high_y = -math.inf
        for (x, y), r in zip(centres.tolist(), reach.tolist()):
            low_x, low_y, high_x, high_y = min(low_x, x - r), min(low_y, y - r), max(high_x, x + r), max(high_y, y + r)
        return low_x, low_y, high_x, high_y
    low, high = (centres - reach[:, None]).min(axis=0).tolist(), (centres + reach[:, None]).max(axis=0).tolist()
    return low[0], low[1], high[0], high[1]


def _meets_any(boxes: np.ndarray, others: np.ndarray, keys: np.ndarray | None = None, widest: float = 0.0
               ) -> np.ndarray:
    """Which rows of ``boxes`` ((n, 4): min x, min y, max x, max y, px) overlap or touch a row of ``others``, as an
    (n,) bool mask: each box looks only at the others whose min x lies between its own min x less the widest
    other and its max x (a sorted search, not every pair). ``keys``: the others' min x already sorted ascending
    (``others`` in that order) and ``widest`` their widest width; else they are sorted here."""
    meets = np.zeros(len(boxes), np.bool_)
    if not len(others) or not len(boxes):
        return meets
    if keys is None:
        order = np.argsort(others[:, 0], kind="stable")
        others, keys = others[order], others[order, 0]
        widest = float((others[:, 2] - others[:, 0]).max())
    low = np.searchsorted(keys, boxes[:, 0] - widest, side="left")
    counts = np.searchsorted(keys, boxes[:, 2], side="right") - low
    counts[counts < 0] = 0
    if not counts.any():
        return meets
    which = np.repeat(np.arange(len(boxes)), counts)
    at = np.arange(len(which)) + np.repeat(low - (np.cumsum(counts) - counts), counts)
    a, b = boxes[which], others[at]
    hit = (a[:, 0] <= b[:, 2]) & (a[:, 2] >= b[:, 0]) & (a[:, 1] <= b[:, 3]) & (a[:, 3] >= b[:, 1])
    meets[which[hit]] = True
    return meets


def _mover_pairs(bodies: tuple[np.ndarray, np.ndarray, np.ndarray], movers: tuple[np.ndarray, np.ndarray, np.ndarray],
                 reach: np.ndarray) -> list[tuple[int, int]]:
    """The (body, kinematic body) rows whose moves this step differ by at least the body's ``reach`` (px) and
    whose boxes over the step meet, ascending; of the pairs with a fast body or a fast kinematic body.
    ``bodies`` and ``movers``: each group's moves ((n, 2) px), fast rows, and boxes over the step ((n, 4))."""
    (moved, fast_bodies, body_boxes), (carried, fast_movers, mover_boxes) = bodies, movers
    pairs: set[tuple[int, int]] = set()
    if len(fast_bodies):
        first, second = touching_pairs(body_boxes[fast_bodies], mover_boxes)
        pairs.update(zip(fast_bodies[first].tolist(), second.tolist()))
    if len(fast_movers):
        first, second = touching_pairs(body_boxes, mover_boxes[fast_movers])
        pairs.update(zip(first.tolist(), fast_movers[second].tolist()))
    return sorted((i, j) for i, j in pairs if math.dist(moved[i], carried[j]) >= reach[i])


_IDENTITY = Transform()


def _entry(shape: RoundedPolygon, xf: Transform, d: Vec2, target: RoundedPolygon, xf_target: Transform,
           one_way: Vec2 | None, min_approach: float, glancing_depth: float = math.inf) -> CastHit | None:
    """Where ``shape`` (at ``xf``) moving along ``d`` enters ``target`` (at ``xf_target``), if it does within the
    move, moving into it at least ``min_approach`` (a cosine) steeply, or less steeply but ending deeper in it
    than ``glancing_depth`` px, and not from a side a one-way target (``one_way``: its direction) lets through;
    ``None`` too when it touches it at the start already."""
    hit = shape_cast(shape, xf, d, target, xf_target)
    if hit is None or hit.started_inside or hit.fraction >= 1.0:
        return None
    if one_way is not None and hit.normal[0] * one_way[0] + hit.normal[1] * one_way[1] < ONE_WAY_COSINE:
        return None
    if hit.normal[0] * d[0] + hit.normal[1] * d[1] <= -min_approach * math.hypot(d[0], d[1]):
        return hit
    if glancing_depth == math.inf:
        return None
    end = Transform((xf.position[0] + d[0], xf.position[1] + d[1]), xf.angle)
    return hit if _depth_in(shape, end, target, xf_target) > glancing_depth else None


def _depth_in(shape: RoundedPolygon, xf: Transform, target: RoundedPolygon, xf_target: Transform) -> float:
    """How deep (px) ``shape`` at ``xf`` is in ``target`` at ``xf_target`` (0: apart), by the rigid step's
    compiled manifold kernel (as :func:`engine.world.manifolds.manifold`, which imports this module)."""
    place = [(float(t.cos), float(t.sin), float(t.position[0]), float(t.position[1])) for t in (xf_target, xf)]
    found = kernels().manifold.collide(shape_rows([target])[0], 0, target.count, float(target.radius), place[0],
                                       shape_rows([shape])[0], 0, shape.count, float(shape.radius), place[1], 0.0,
                                       np.empty((max(shape.count, 2), 4)))
    return max(0.0, -min(found[5], found[10])) if found[2] or found[7] else 0.0


def _first_entry(static: StaticGeometry, shape: RoundedPolygon, xf: Transform, d: Vec2,
                 min_approach: float, glancing_depth: float) -> CastHit | None:
    """The nearest segment that ``shape`` (at ``xf``) runs into along ``d``, moving into it at least
    ``min_approach`` (a cosine) steeply. Passed over: segments it already touches at the start (the floor a
    sliding crate rests on must not hide the wall ahead), glancing touches that end no deeper in the segment
    than ``glancing_depth`` px (sliding along the floor over a joint is the solver's business; but a plank that
    flies over a gap in the floor in one step, turning, slides its tilted underside down over the far floor's
    end glancingly, and would end in it: the solve never saw that segment) and one-way segments met from a side
    they let through."""
    bp = static.broadphase
    best: CastHit | None = None
    for i in bp.query_swept(shape.aabb(xf), d).tolist():
        hit = _entry(shape, xf, d, bp.shape(i), _IDENTITY, static.collider(i).one_way, min_approach,
                     glancing_depth)
        if hit is not None and (best is None or hit.fraction < best.fraction):
            best = hit
    return best



def compile_stages(k: Any) -> Iterator[str]:
    """Compile (or load from the disk cache) the rigid step's kernels of the package ``k``, stage by stage, on a
    scene of two stacked crates on a floor beside a moving platform; yields each stage's name once it is ready
    (for progress displays).

    The kernels Python calls are loaded callees first (see :func:`~engine.world.jit.kernels`). Some that only the
    step calls (placements, pairs, warm start, colours, sleep) are compiled here, each stage's for the next, when
    the disk cache lacks a kernel module (a first start: the progress moves as the work does); from a full cache
    they are not loaded at all: the step's cache entry holds their code, and loading them too kept a second copy
    of it and of its LLVM IR in the process (8 MiB, ``engine/README.md``). The gathering of contacts and the
    solve are compiled inside the step (``@inlined``), in its stage."""
    compiling = not cache_holds_every_kernel_module()
    static = StaticGeometry()
    static.add_segments([(-200.0, 0.0)], [(200.0, 0.0)])
    bodies = RigidBodySet(PhysicsConfig())
    for y in (18.0, 52.0):
        bodies.add(RigidBody(RoundedPolygon.box(16.0, 16.0), (0.0, y)))
    platforms = KinematicSet()
    platforms.add(KinematicBody(RoundedPolygon.box(32.0, 8.0), (60.0, 10.0), velocity=(10.0, 0.0)))
    args = bodies.step_arguments(k, static, platforms, [], (0.0, -1800.0), bodies.config, 0.6, 1 / 60)
    state, shape_arrays, _, movers, old_ints, old_floats, _, (place, boxes, _), _, settings = args
    shapes = Shapes(*shape_arrays)
    every, none_asleep = np.arange(len(state)), np.zeros(len(state), np.bool_)
    if compiling:
        k.narrow_phase.place_and_box(shapes, state, movers, every, place, boxes, settings[SPECULATIVE])
    core, offsets, radius = shapes.core, shapes.offsets, shapes.radius
    first, second = ((math.cos(angle), math.sin(angle), x, y) for x, y, angle in state[:2, [X, Y, ANGLE]].tolist())
    k.manifold.collide(core, offsets[0], offsets[1] - offsets[0], radius[0], first, core, offsets[1],
                       offsets[2] - offsets[1], radius[1], second, 4.0, np.empty((4, 4)))
    yield "manifolds"
    sleepers = (np.zeros(0, np.int64), np.zeros(0), 0.0)  # (an index of no sleepers)
    if compiling:
        k.broad_phase.awake_pairs(boxes, every, none_asleep, sleepers)
    # (segments_near through the kernel that calls it: its helper grid_of, called from Python, is not cached and
    # would compile again at every start)
    query = static.kernel_query((-8.0, 10.0, 8.0, 26.0), DEFAULT_FILTER)
    assert query is not None
    k.broad_phase.segments_in_box(*query)
    yield "broad phase"
    if compiling:  # (with no contacts yet: the last step's, none)
        k.narrow_phase.warm_start(old_ints, old_floats, 0, old_ints, old_floats, len(old_ints), place, len(state),
                                  none_asleep)
    k.narrow_phase.body_boxes(state, len(state), shapes.core, shapes.offsets, shapes.radius, 0.0)
    yield "contacts"
    if compiling:
        k.contact_solver.colour_order(np.array([[1, 0]], dtype=np.int64), 1, np.zeros(1, np.bool_))
        k.island.rest_and_sleep(state, every, shapes.extent, 1 / 60, 4.0, 0.5, old_ints, 0, none_asleep)
    yield "colours and sleep"
    ints, floats = k.rigid_step.step(*args)[1:3]
    k.rigid_step.resting(state, movers)
    k.rigid_step.held_against(ints, floats, len(ints), len(state), 0, 0.0, -1.0, -math.inf)
    yield "rigid step"


add_stages(compile_stages)
