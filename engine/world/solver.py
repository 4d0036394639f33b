"""Rigid-body step: contacts from the geometry kernel's manifolds, solved with Box2D v3's soft step (compiled).

One call of :func:`step_bodies` advances every awake :class:`~engine.bodies.RigidBody` by ``dt``:

1. **Collide** (:mod:`engine.contacts`): manifolds of the awake bodies against the level, kinematic bodies,
   characters (which the solver treats as kinematic: a crate resting on the player's head cannot push the
   player down) and each other, made ``speculative_distance`` early. Points keep their accumulated impulses
   and friction anchors from the last step when their feature ids match (warm starting).
2. **Solve** in ``substeps`` substeps, each: integrate velocities (gravity, damping), warm start, solve the
   contacts *softly* (a stiff, heavily damped spring instead of a hard constraint: two-point normals as a
   2x2 block, Coulomb friction held at the contact anchors so stacks do not creep), integrate positions,
   then *relax* (solve again without position correction). Contacts are split into graph colours (no two
   contacts of a colour share a dynamic body; kept from step to step while the same pairs touch); colours
   are solved one after the other (Gauss-Seidel), in :func:`engine.world.kernel.solve_step`, compiled with
   numba. Contacts separated at the start of the step and not closing within it (a pile's side neighbours)
   are *light*: their colours solve the normals only.

   The solve is in Jacobian form: body state lives in rows (velocity: px/s, px/s, rad/s; displacement so far
   this step: px, px, rad), the awake dynamic bodies first, then fixed rows (static geometry, kinematic
   bodies, characters, sleepers) whose inverse mass is zero. A contact acts on its pair through rows: the
   normal at point 0 and 1 (from A to B, so a positive relative normal velocity separates), the tangent
   t = (ny, -nx) at each point, and for the position terms the tangent at the two friction anchors.
   Separation and anchor drift during the step are linear in the displacements (rotation to first order: the
   error is |r| da^2 / 2, kept within ``max_rotation_error`` by capping each body's spin; the manifold is
   rebuilt every step). Bodies of very uneven mass (``uneven_mass_ratio``) get stiff springs between them and
   the step more substeps. A body squeezed by a kinematic body or a character against the level is not
   pushed: it is reported ``crushed`` (see :func:`_squeezed`).
3. **Restitution**, once after the substeps, for points that approached faster than
   ``restitution_threshold``; then position passes: nothing is left pressed more than ``max_static_overlap``
   into the level, nor a heavy body into a light one resting on it.
4. **Continuous collision** against static geometry for bodies that moved far this step.
5. **Sleep**: groups of touching bodies that all rested for ``time_to_sleep`` stop being simulated until
   something touches them.

A scene of rigid bodies among static geometry only, while none sleeps, runs all of this but the continuous
collision's sweeps and the events' objects in one compiled call (:func:`step_among_static`,
:func:`~engine.world.step_kernel.step_in`); otherwise the compiled parts are called one by one with Python
between them (:func:`_step_by_parts`: kinematic bodies and characters are collided in Python, a sleeper may
wake). Both ways give the same results. What compiled code alone reads from step to step stays in the table's
step memory (:mod:`engine.world.step_memory`).

Everything runs in a fixed order, so the same inputs give bit-identical results (no fastmath).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

import numpy as np

from ..bodies import (
    GRAVITY_SCALE, VX, X, Y, PhysicsConfig, RigidBody,
)
from ..geometry import CastHit, Transform, Vec2, shape_cast, touching_pairs
from ..types import ContactEvent
from .step_kernel import (
    ROW_COLUMNS, all_asleep_in_place, begin_in, rest_and_sleep_in, solve_common_contacts, solve_contacts,
    step_motion, sweep_may_hit,
)
from .static import StaticGeometry
from .step_memory import event_data, gathered_awake, set_awake, solve_results, step_start, sweep_candidates
from .contacts import (
    CHARACTER, DYNAMIC, KINEMATIC, STATIC, Colouring, ContactSet, Found, RigidScene,
    ShapeTable, TouchingPairs, collide_all, world_polys,
)

__all__ = ["SolverState", "StepOutcome", "step_among_static", "step_bodies"]

# ------------------------------------------------------------------------------------------------ solve
def _soft(hertz: float, zeta: float, h: float) -> tuple[float, float, float]:
    """(bias rate, mass scale, impulse scale) of a soft constraint (Box2D v3 ``b2MakeSoft``)."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


# ------------------------------------------------------------------------------------------------ step
class SolverState(Protocol):
    """What the step reads of the rigid-body set that owns it (and never writes: it returns a new state)."""

    @property
    def contacts(self) -> ContactSet: ...

    @property
    def touching(self) -> Mapping[int, tuple[object, object]]: ...

    def table(self) -> ShapeTable: ...

    @property
    def resting(self) -> bool:
        """The last step found every body asleep."""
        ...

    @property
    def body_state(self) -> np.ndarray:
        """Every body's row (:data:`engine.bodies.STATE_COLUMNS`): the step reads and writes it in place."""
        ...


_NO_ROWS = np.zeros(0, dtype=np.int64)


class _Solved(NamedTuple):
    """What the compiled solve found out for the rest of the step."""

    body_out: np.ndarray
    """The awake rows' displacement and end velocity, packed (:func:`step_motion`)."""
    changes: np.ndarray
    """The fast rows, then the contacts that began touching, then those that ended (see :attr:`fast`)."""
    fast_count: int
    began_count: int
    same_touching: bool
    """The same pairs touch, in the same order, as after the last step."""
    touching_count: int

    @property
    def fast(self) -> np.ndarray:
        """Awake rows (indices into the awake bodies) that moved their ``reach`` or farther: swept next."""
        return self.changes[:self.fast_count]

    @property
    def began(self) -> np.ndarray:
        """The touching contacts (rows in the new contact set) whose pair did not touch in the last step."""
        return self.changes[self.fast_count:self.fast_count + self.began_count]

    @property
    def ended(self) -> np.ndarray:
        """The last step's touching contacts (rows in its contact set) whose pair no longer touches."""
        return self.changes[self.fast_count + self.began_count:]


StepOutcome = tuple[ContactSet, Mapping[int, tuple[object, object]], list[ContactEvent], bool]
"""What a step leaves for the next: its contacts, the pairs touching after it, its events, and whether every
body was found asleep (the next step then first asks whether they still all rest). A plain tuple: a small
pile's step makes one every step, and a named tuple took 0.17 us to make."""


def step_bodies(scene: RigidScene, bodies: list[RigidBody], state: SolverState, dt: float) -> StepOutcome:
    """Advance the rigid ``bodies`` by ``dt`` seconds in ``scene``, from the solver ``state`` of the last
    step; returns the new state and the contact begin/end events."""
    if not scene.kinematic_bodies and not scene.characters:
        return step_among_static(scene.static, scene.gravity, scene.config, scene.static_friction, state, dt,
                                 state.body_state, state.resting, state.contacts, state.touching)
    numbers = state.body_state
    movers = _mover_boxes(scene)
    if state.resting and not movers and all_asleep_in_place(numbers):
        return (state.contacts, state.touching, [], True)  # a resting level, as the last step found it
    return _step_by_parts(scene, bodies, state, numbers, state.table(), movers, dt)


def step_among_static(static: StaticGeometry, gravity: Vec2, cfg: PhysicsConfig, static_friction: float,
                      state: SolverState, dt: float, numbers: np.ndarray, resting: bool, old: ContactSet,
                      before: Mapping[int, tuple[object, object]]) -> StepOutcome:
    """:func:`step_bodies` for rigid bodies among ``static`` geometry only (no kinematic bodies, no characters).
    While none sleeps, it is made in one compiled call (:func:`~engine.world.step_kernel.step_in`: start,
    gathering, solve, sleep counting), then continuous collision and the events. When some body sleeps, that
    call makes only the step's start, and the step goes on in Python (a sleeper may wake).

    ``numbers``, ``resting``, ``old`` and ``before`` are ``state``'s body rows, resting hint, contacts and
    touching pairs, handed by its owner (reading four properties cost a crate scene's step 0.1 us)."""
    if resting and all_asleep_in_place(numbers):
        return (old, before, [], True)  # a resting level, as the last step found it
    table = state.table()
    params, settings = _parameters(cfg, gravity, dt)
    table.hand_step_inputs(static, numbers, old, params, settings)
    status, new, sweep_count, began_count, same, touching_count, ended_count = table.step_in(float(static_friction))
    if new is None:
        if status < 0:  # a resting level: nothing moves, none was placed
            return (old, before, [], True)
        scene = RigidScene(static, [], [], gravity, cfg, static_friction)
        return _step_by_parts(scene, table.bodies, state, numbers, table, [], dt)
    if sweep_count:  # (continuous collision: fast bodies the kernel found may meet the level)
        body_out, candidates, awake_rows = sweep_candidates(table.memory)
        _swept(RigidScene(static, [], [], gravity, cfg, static_friction), table.bodies, numbers,
               step_motion(body_out)[0], candidates, awake_rows)
    return _one_call_outcome(before, table, old, new, began_count, same, touching_count, ended_count)


def _step_by_parts(scene: RigidScene, bodies: list[RigidBody], state: SolverState, numbers: np.ndarray,
                   table: ShapeTable, movers: list, dt: float) -> StepOutcome:
    """The step as its compiled parts called one by one, with Python between them: for a scene with kinematic
    bodies or characters (``movers``: the boxes of those that move), or with sleepers (one may wake)."""
    cfg = scene.config
    memory = table.memory
    sleeping = begin_in(memory, numbers, not movers)
    if sleeping < 0 or (not movers and sleeping == len(numbers)):
        # A resting level: nothing moves, none was placed (for a sleeper the start placement is the same as the
        # last step's, unless game code moved it); or everything rests and nothing moves that could wake it: a
        # sleeper that game code moved stays there.
        return (state.contacts, state.touching, [], True)
    # (Python reads the sleep flags only when something other than awake bodies is about.)
    asleep = step_start(memory)[2] if sleeping or scene.kinematic_bodies or scene.characters else None
    if movers and sleeping:
        assert asleep is not None
        _wake_touched_sleepers(scene, bodies, table, movers, asleep)
        if asleep.all():
            return (state.contacts, state.touching, [], False)  # everything rests: contacts and pairs stand
    found, awake_count = collide_all(scene, bodies, table, asleep)
    old = state.contacts
    # An awake body touching a sleeping one wakes it; a woken body is collided in this very step (a crate
    # dropped on a sleeping one must meet the floor under it now, not a step later, deep in it).
    woke_since = False
    for _ in range(3):
        if not _wake_touched_by_awake(found, asleep):
            break
        found, awake_count = collide_all(scene, bodies, table, asleep)
    else:
        woke_since = _wake_touched_by_awake(found, asleep)
    crushed: list[ContactEvent] = []
    if scene.kinematic_bodies or scene.characters:  # (only they squeeze)
        found, crushed = _squeezed(found, cfg)
    # Sleeping bodies are not re-collided: nothing near them moved, so their contacts stand as they were.
    carried = _NO_ROWS
    if sleeping and asleep is not None and asleep.any():
        carried = np.flatnonzero(asleep[old.b_index] & ~((old.a_index >= 0) & ~asleep[old.a_index]))
    if woke_since:  # (else the solve moves the awake bodies the gathering found)
        assert asleep is not None
        awake_rows = np.flatnonzero(~asleep)
        set_awake(memory, awake_rows)
        awake_count = len(awake_rows)
    new, solved = _solve_step(scene, dt, bodies, numbers, old, found, table, asleep if sleeping else None)
    if len(carried):
        new = new.extended(old, carried)
    if cfg.continuous and solved.fast_count:
        _continuous(scene, bodies, numbers, step_motion(solved.body_out)[0], solved.fast, table)
    if cfg.enable_sleep and awake_count:
        _sleep(cfg, numbers, found, dt, table, step_motion(solved.body_out)[1],
               bool(scene.kinematic_bodies or scene.characters))
    if not len(carried) and solved.same_touching and solved.touching_count == len(state.touching):
        return _same_pairs(state, old, new, crushed)
    events, touching = _events(state.touching, old, new, None if len(carried) else solved)
    return (new, touching, crushed + events, False)


def _one_call_outcome(before: Mapping[int, tuple[object, object]], table: ShapeTable, old: ContactSet,
                      new: ContactSet, began_count: int, same: bool, touching_count: int,
                      ended_count: int) -> StepOutcome:
    """The outcome of a step made in one call, from what it counted (see
    :func:`~engine.world.step_kernel.step_in`): the pairs touching (the last step's, carried to the new set,
    when the same pairs touch) and the events (``before``: the pairs touching after the last step)."""
    if same and isinstance(before, TouchingPairs) and before.moved_if_unchanged(old, new, touching_count):
        return (new, before, [], False)  # (the usual step of a pile: the same pairs touch)
    if not (isinstance(before, TouchingPairs) and before.made_of(old)):  # (the last step's contacts were dropped)
        if same and touching_count == len(before):
            # (none touch: as rows of the new set, so that the step where the first pairs touch makes its events
            # from what the step kept, _events_made, not the general way: 25 us for a falling pile's first touch)
            return (new, TouchingPairs(new, count=0) if touching_count == 0 else before, [], False)
        body_out, changes = solve_results(table.memory)
        fast_count = len(changes) - began_count - ended_count
        events, touching = _events(before, old, new, _Solved(body_out, changes, fast_count, began_count, same,
                                                             touching_count))
        return (new, touching, events, False)
    events = _events_made(table, began_count, ended_count) if began_count or ended_count else []
    return (new, TouchingPairs(new, count=touching_count), events, False)


def _events_made(table: ShapeTable, began: int, ended: int) -> list[ContactEvent]:
    """The begin and end events of a one-call step, from the participants and normals it kept: in the table's
    event room when they fit, else in the step memory (:func:`~engine.world.step_memory.event_data`); the
    first ``began`` began, the next ``ended`` ended. A static participant is its segment's index, as in every
    contact set."""
    parts_room, normals_room = table.event_room
    if began + ended <= len(parts_room):
        parts, normals = parts_room[:began + ended], normals_room[:began]
    else:
        parts, normals = event_data(table.memory)
        table.make_event_room(began + ended)
    listed, normal_rows, make = table.bodies, normals.tolist(), ContactEvent._make
    events = []  # (one loop, events made from tuples: half the time of three comprehensions and the constructor)
    for i, (a, b) in enumerate(parts.tolist()):
        first = listed[a] if a >= 0 else -1 - a
        if i < began:
            events.append(make(("begin", first, listed[b], tuple(normal_rows[i]))))
        else:
            events.append(make(("end", first, listed[b], (0.0, 0.0))))
    return events


def _same_pairs(state: SolverState, old: ContactSet, new: ContactSet, events: list[ContactEvent]) -> StepOutcome:
    """The step's outcome when the same pairs touch as after the last step (a resting pile): they are kept as
    rows of the new set when they were the last set's (so the next step can trust the solve's rows for what
    began and ended)."""
    before = state.touching
    touching = before.moved_to(new) if isinstance(before, TouchingPairs) and before.made_of(old) else before
    return (new, touching, events, False)


def _mover_boxes(scene: RigidScene) -> list:
    """The boxes of the kinematic bodies and characters that move (they may wake sleepers)."""
    movers = [k.aabb() for k in scene.kinematic_bodies if k.velocity != (0.0, 0.0) or k.angular_velocity != 0.0]
    return movers + [ch.shape.aabb(ch.transform) for ch in scene.characters if ch.velocity != (0.0, 0.0)]


def _squeezed(found: Found, cfg: PhysicsConfig) -> tuple[Found, list[ContactEvent]]:
    """Bodies squeezed by a kinematic body or a character against static geometry or a kinematic body: the
    squeezer overlaps them by more than ``crush_depth`` px while they touch something opposite (normals facing
    each other). Like a crushed character, such a body is not pushed: the squeezer passes through it (its
    contact is dropped from this step; a character is then pushed out of it by its own mover) and a
    ``crushed`` event names the body and what squeezes it. Returns the contacts left and the events."""
    a_kind, closest = found.a_kind, found.closest
    squeezers = (a_kind == KINEMATIC) | (a_kind == CHARACTER)
    deep = np.flatnonzero(squeezers & (closest < -cfg.crush_depth))
    if not len(deep):
        return found, []
    holders = np.flatnonzero(((a_kind == STATIC) | (a_kind == KINEMATIC)) & found.touching)
    b_index, normal = found.b_index, found.normal
    dropped, events = [], []
    for k in deep.tolist():
        opposite = holders[(b_index[holders] == b_index[k]) & (holders != k)]
        facing = normal[opposite] @ normal[k] < -0.5
        if facing.any():
            dropped.append(k)
            events.append(ContactEvent("crushed", found.b[k], found.a[k], tuple(normal[k].tolist())))
    if not dropped:
        return found, []
    return found.rows(np.delete(np.arange(len(found)), dropped)), events


def _wake_touched_by_awake(found: Found, asleep: np.ndarray | None) -> bool:
    """An awake body touching a sleeping one wakes it (its neighbours follow next step); ``asleep`` is
    cleared for those (``None`` when none sleeps: then none wakes). Returns whether any body woke."""
    if not len(found.wakers):
        return False
    assert asleep is not None, "a sleeper woke in a step that had none"
    a_index, b_index = found.a_index, found.b_index
    for i in found.wakers.tolist():
        found.a[i].wake()
        found.b[i].wake()
        asleep[a_index[i]] = asleep[b_index[i]] = False
    return True


class _Participants(NamedTuple):
    """Solver rows of each contact's participants, and the rows' state at step start."""

    ia: np.ndarray
    ib: np.ndarray
    velocity: np.ndarray
    """(rows, 3): px/s, px/s, rad/s; awake bodies first, then fixed rows."""
    inv_mass: np.ndarray
    inv_inertia: np.ndarray
    center: np.ndarray
    """(rows, 2) position at step start."""
    angle: np.ndarray
    friction: np.ndarray
    """(m,) per contact, mixed (geometric mean)."""
    restitution: np.ndarray
    """(m,) per contact, mixed (the larger)."""
    dynamic_rows: int


class _FixedRows:
    """Rows of participants that do not move in the solve (inverse mass zero), made once per participant."""

    def __init__(self, first: int) -> None:
        self.first = first
        self.rows: dict[object, int] = {}
        self.state: list[tuple[float, float, float]] = []
        self.centers: list[tuple[float, float]] = []
        self.angles: list[float] = []

    def row(self, key: object, velocity, angular_velocity: float, center, angle: float) -> int:
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = self.first + len(self.state)
            self.state.append((velocity[0], velocity[1], angular_velocity))
            self.centers.append((center[0], center[1]))
            self.angles.append(angle)
        return row


def _participants(scene: RigidScene, dt: float, bodies: list[RigidBody], found: Found, props: np.ndarray,
                  position: np.ndarray, angle: np.ndarray, awake_rows: np.ndarray) -> _Participants:
    """Rows of each contact's participants: awake bodies and static geometry at once, the few others (kinematic
    bodies, characters, sleepers an awake body nears) one by one."""
    dyn = len(awake_rows)
    row_of_body = np.full(len(bodies), -1, dtype=np.int64)
    row_of_body[awake_rows] = np.arange(dyn)
    fixed = _FixedRows(dyn)
    a_kind = found.a_kind
    dynamic = a_kind == DYNAMIC
    a_body = np.where(dynamic, found.a_index, 0)
    ib = row_of_body[found.b_index]
    ia = np.where(dynamic, row_of_body[a_body], -1)
    body_friction, body_restitution = props[:, 5], props[:, 6]
    fa = np.where(dynamic, body_friction[a_body], scene.static_friction)
    ea = np.where(dynamic, body_restitution[a_body], 0.0)
    static = a_kind == STATIC
    if static.any():
        ia[static] = fixed.row("static", (0.0, 0.0), 0.0, (0.0, 0.0), 0.0)
    for k in np.flatnonzero((ia < 0) | (ib < 0)).tolist():
        a, b = found.a[k], found.b[k]
        if ib[k] < 0:  # a sleeping body an awake one only nears: it holds still this step
            ib[k] = fixed.row(("s", b.id), b.velocity, b.angular_velocity, b.position, b.angle)
        if ia[k] >= 0:
            continue
        if a_kind[k] == KINEMATIC:
            start = a.previous_transform
            ia[k] = fixed.row(("k", id(a)), a.velocity, a.angular_velocity, start.position, start.angle)
        elif a_kind[k] == CHARACTER:
            begin = a.previous_position or a.position
            moved = ((a.position[0] - begin[0]) / dt, (a.position[1] - begin[1]) / dt)
            ia[k] = fixed.row(("c", id(a)), moved, 0.0, begin, 0.0)
            fa[k] = a.config.friction
        else:
            ia[k] = fixed.row(("s", a.id), a.velocity, a.angular_velocity, a.position, a.angle)
    count = len(fixed.state)
    return _Participants(
        ia, ib, np.concatenate([props[awake_rows, :3], np.array(fixed.state, dtype=np.float64).reshape(-1, 3)]),
        np.concatenate([props[awake_rows, 3], np.zeros(count)]), np.concatenate([props[awake_rows, 4], np.zeros(count)]),
        np.concatenate([position[awake_rows], np.array(fixed.centers, dtype=np.float64).reshape(-1, 2)]),
        np.concatenate([angle[awake_rows], np.array(fixed.angles, dtype=np.float64)]),
        np.sqrt(fa * body_friction[found.b_index]), np.maximum(ea, body_restitution[found.b_index]), dyn)


def _fixed_kinds_or_sleepers(scene: RigidScene, found: Found, asleep: np.ndarray | None) -> bool:
    """Whether some contact has a participant other than an awake body or static geometry (a kinematic body,
    a character, a sleeper): then the participants take the Python path (:func:`_participants`).
    ``asleep``: each body's flag (``None``: none sleeps)."""
    if scene.kinematic_bodies or scene.characters:  # (the contacts' kinds are read only when they may be other)
        kinds = found.a_kind
        if ((kinds == KINEMATIC) | (kinds == CHARACTER)).any():
            return True
    if asleep is None or not asleep.any():
        return False
    return bool(asleep[found.b_index].any() or asleep[found.a_index[found.a_kind == DYNAMIC]].any())


def _rows(p: _Participants) -> np.ndarray:
    """The participants' rows as :mod:`engine.world.step_kernel` takes them ((R, 8))."""
    rows = np.empty((len(p.velocity), ROW_COLUMNS))
    rows[:, 0:3], rows[:, 3], rows[:, 4], rows[:, 5:7], rows[:, 7] = p.velocity, p.inv_mass, p.inv_inertia, \
        p.center, p.angle
    return rows


def _parameters(cfg: PhysicsConfig, gravity: Vec2, dt: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~engine.world.kernel.solve_step`'s parameters for ``cfg.substeps`` and (second row) for a step
    with bodies of uneven mass (``DYNAMIC_ROWS`` is set per step), and :func:`solve_contacts`' and
    :func:`step_in`'s settings (:data:`~engine.world.step_kernel.SETTINGS`); made
    once per configuration, gravity and step (shared: not to be written). Kept by the configuration's
    identity (hashing a configuration's two dozen fields every step costs more than making them)."""
    gx, gy = gravity  # (game code may have set the gravity to a list)
    last = _LAST_PARAMETERS[0]
    if cfg is last[0] and gx == last[1] and gy == last[2] and dt == last[3]:  # (the usual step: the same again)
        return last[4], last[5]
    key = (id(cfg), gx, gy, dt)
    kept = _PARAMETERS.get(key)
    if kept is not None and kept[0] is cfg:
        params, settings = kept[1], kept[2]
    else:
        params, settings = _made_parameters(cfg, gravity, dt)
        if len(_PARAMETERS) >= 16:
            _PARAMETERS.clear()
        _PARAMETERS[key] = (cfg, params, settings)
    _LAST_PARAMETERS[0] = (cfg, gx, gy, dt, params, settings)
    return params, settings


_PARAMETERS: dict[tuple[int, float, float, float], tuple[PhysicsConfig, np.ndarray, np.ndarray]] = {}
_LAST_PARAMETERS: list[tuple[Any, float, float, float, Any, Any]] = [(None, 0.0, 0.0, 0.0, None, None)]
"""The last parameters asked for, with their configuration, gravity and step (looked at first)."""


def _made_parameters(cfg: PhysicsConfig, gravity: Vec2, dt: float) -> tuple[np.ndarray, np.ndarray]:
    params = np.array([_solve_parameters(cfg, substeps, gravity, dt) for substeps in (
        cfg.substeps, max(cfg.substeps, cfg.uneven_mass_substeps))], dtype=np.float64)
    settings = np.array([gravity[0], gravity[1], dt, cfg.light_gap_fraction * cfg.linear_slop,
                         cfg.uneven_mass_ratio, cfg.max_rotation_error, cfg.candidate_padding, cfg.speculative_distance,
                         cfg.linear_slop, 1.0 if cfg.enable_sleep else 0.0, cfg.sleep_linear_velocity,
                         cfg.time_to_sleep, 1.0 if cfg.continuous else 0.0], dtype=np.float64)
    return params, settings


def _solve_parameters(cfg: PhysicsConfig, substeps: int, gravity: Vec2, dt: float) -> list[float]:
    h = dt / substeps
    hertz = min(cfg.contact_hertz, cfg.max_hertz_per_substep_rate / h)
    zeta = cfg.contact_damping_ratio
    return [
        dt, substeps, 0.0, gravity[0], gravity[1], *_soft(hertz, zeta, h),
        *_soft(cfg.static_stiffness_scale * hertz, zeta, h), *_soft(min(cfg.friction_anchor_hertz, hertz), zeta, h),
        cfg.contact_push_max_velocity, cfg.block_condition_limit, cfg.linear_damping, cfg.angular_damping,
        cfg.max_linear_speed, cfg.restitution_threshold, cfg.max_static_overlap]


def _solve_step(scene: RigidScene, dt: float, bodies: list[RigidBody], numbers: np.ndarray, old: ContactSet,
                found: Found, table: ShapeTable, asleep: np.ndarray | None) -> tuple[ContactSet, _Solved]:
    """Solve this step's contacts and move the awake bodies (the rows ``table.memory`` says), in the compiled
    :func:`solve_contacts`. Returns the contact set and what the rest of the step needs to know of the solve
    (how far each awake body moved and its velocity at the end among it)."""
    params, settings = _parameters(scene.config, scene.gravity, dt)
    memory = table.memory
    arrays = (found.ints, found.floats, found.flags, old.ints, old.floats, old.flags, memory, numbers, params, settings)
    if _fixed_kinds_or_sleepers(scene, found, asleep):
        props = numbers[:, VX:GRAVITY_SCALE + 1]  # velocity, inverse mass and inertia, friction, restitution
        position, angle, _ = step_start(memory)
        awake_rows = gathered_awake(memory)
        p = _participants(scene, dt, bodies, found, props, position, angle, awake_rows)
        solved = solve_contacts(_rows(p), len(awake_rows), p.ia, p.ib, p.friction, p.restitution, *arrays)
    else:
        solved = solve_common_contacts(float(scene.static_friction), *arrays)
    colour_ints, colour_flags, ints, floats, flags, body_out, changes, fast_count, began_count, same, touching_count \
        = solved
    contacts = ContactSet((ints, floats, flags), make=Colouring(colour_ints, colour_flags).participants_of(found))
    return contacts, _Solved(body_out, changes, fast_count, began_count, same, touching_count)


def _wake_touched_sleepers(scene: RigidScene, bodies: list[RigidBody], table: ShapeTable, movers: list,
                           asleep: np.ndarray) -> None:
    """Moving kinematic bodies and characters (``movers``: their boxes) wake the sleeping bodies they touch
    (``asleep``: every body's flag, cleared here for those woken)."""
    if not asleep.any():
        return
    position, angle, _ = step_start(table.memory)
    boxes = world_polys(table, scene.config.speculative_distance, position, angle)["box_array"]
    touched = np.zeros(len(boxes), dtype=bool)
    touched[touching_pairs(np.array(movers, dtype=np.float64).reshape(-1, 4), boxes)[1]] = True
    for k in np.flatnonzero(touched & asleep).tolist():
        bodies[k].wake()
        asleep[k] = False


def _continuous(scene: RigidScene, bodies: list[RigidBody], numbers: np.ndarray, moved: np.ndarray,
                fast: np.ndarray, table: ShapeTable) -> None:
    """Fast bodies (``fast``: indices into the awake rows of those that moved their ``reach`` or farther) are
    swept against static geometry from where they were to where the solver put them (``moved``: (n, 2) px for
    the awake rows), and stopped at the first touch: nothing passes through a thin platform in one step."""
    bp = scene.static.broadphase
    if not len(bp):
        return
    awake_rows = gathered_awake(table.memory)
    # (Only those whose sweep meets a segment's box at all: in a falling pile, most are in mid-air.)
    may_hit = sweep_may_hit(numbers, awake_rows, fast, moved, table.vertices, table.offsets, table.radius,
                            bp.cell_size, *bp.cell_arrays(), bp.aabbs)
    _swept(scene, bodies, numbers, moved, fast[may_hit], awake_rows)


def _swept(scene: RigidScene, bodies: list[RigidBody], numbers: np.ndarray, moved: np.ndarray,
           candidates: np.ndarray, awake_rows: np.ndarray) -> None:
    """:func:`_continuous` for the fast bodies whose sweep may meet the level (``candidates``: indices into
    ``awake_rows``, the awake bodies' rows; ``moved``: (n, 2) px for the awake rows)."""
    bp = scene.static.broadphase
    awake = awake_rows.tolist()
    for i in candidates.tolist():
        b, row = bodies[awake[i]], awake[i]
        origin = b.previous_transform.position
        dx, dy = moved[i].tolist()
        hit = _first_entry(bp, b.shape, Transform(origin, b.angle), (dx, dy), scene.config.continuous_min_approach)
        if hit is None or hit.fraction >= 1.0:
            continue
        length = math.hypot(dx, dy)
        f = hit.fraction
        back = min(f, scene.config.linear_slop / length)  # stop just short of the surface
        numbers[row, X], numbers[row, Y] = origin[0] + dx * (f - back), origin[1] + dy * (f - back)


def _first_entry(bp: Any, shape: Any, xf: Transform, d: Vec2, min_approach: float) -> CastHit | None:
    """The nearest segment that ``shape`` (at ``xf``) runs into along ``d``, moving into it at least
    ``min_approach`` (a cosine) steeply. Passed over: segments it already touches at the start (the floor a
    sliding crate rests on must not hide the wall ahead) and glancing touches (sliding along the floor over a
    joint is the solver's business; nor may it hide the wall)."""
    length = math.hypot(d[0], d[1])
    best: CastHit | None = None
    for i in bp.query_swept(shape.aabb(xf), d).tolist():
        hit = shape_cast(shape, xf, d, bp.shape(i), Transform())
        if hit is None or hit.started_inside or hit.normal[0] * d[0] + hit.normal[1] * d[1] > -min_approach * length:
            continue
        if best is None or hit.fraction < best.fraction:
            best = hit
    return best


def _sleep(cfg: PhysicsConfig, numbers: np.ndarray, found: Found, dt: float, table: ShapeTable, motion: np.ndarray,
           pushers_near: bool) -> None:
    """Count how long each awake body has rested (``motion``: their velocities, (n, 3)); groups of touching
    bodies that all rested ``time_to_sleep`` fall asleep together (compiled,
    :func:`~engine.world.step_kernel.rest_and_sleep`). Touching a moving kinematic body or a character keeps
    a body awake (``pushers_near``: there are kinematic bodies or characters). Only when sleep is on and some
    body is awake."""
    held = _NO_ROWS
    a_kind, b_index, touching = found.a_kind, found.b_index, found.touching
    pushers = np.flatnonzero(touching & ((a_kind == KINEMATIC) | (a_kind == CHARACTER))) if pushers_near else _NO_ROWS
    if len(pushers):
        held = np.array([b_index[i] for i in pushers.tolist() if _moving(found.a[i])], dtype=np.int64)
    rest_and_sleep_in(numbers, table.memory, motion, dt, cfg.sleep_linear_velocity, cfg.time_to_sleep, a_kind,
                      found.a_index, b_index, touching, held)


def _moving(participant: Any) -> bool:
    velocity = getattr(participant, "velocity", (0.0, 0.0))
    return velocity != (0.0, 0.0) or getattr(participant, "angular_velocity", 0.0) != 0.0


def _events(before: Mapping[int, tuple[object, object]], old: ContactSet, contacts: ContactSet,
            solved: _Solved | None) -> tuple[list[ContactEvent], Mapping[int, tuple[object, object]]]:
    """Begin / end events from the change in touching pairs since the last step (``before``: its touching
    pairs by key), and the touching pairs now. The pairs that began and ended are found in arrays (by the
    compiled solve, ``solved``, unless sleepers' contacts were carried over); Python objects are made only
    for them (the touching pairs are kept as rows of the contact set, :class:`TouchingPairs`)."""
    made_of_old = isinstance(before, TouchingPairs) and before.made_of(old)
    now_rows = np.flatnonzero(contacts.touching)
    if solved is not None and made_of_old:  # (the solve found which pairs began and ended)
        began, ended = solved.began, solved.ended  # (``ended``: rows of the last step's set)
        if not len(began) and not len(ended):
            # The same pairs (``before``'s are ``old``'s touching ones), kept as rows of the new set (so the next
            # step can ask it by rows too).
            return [], TouchingPairs(contacts, now_rows)
    else:
        now_keys, old_keys = contacts.keys[now_rows], old.keys[old.touching]
        if len(now_keys) == len(before) and np.array_equal(np.sort(now_keys), np.sort(old_keys)):
            return [], before  # the same pairs touch as last step (the common case in a resting pile)
        if len(old_keys) != len(before):  # the last step's contacts were dropped (a body left): pair by pair
            return _events_by_pair(before, contacts)
        if solved is not None:
            began, ended = solved.began, old.keys[solved.ended]
        else:
            began = now_rows[~np.isin(now_keys, old_keys)]
            ended = old_keys[~np.isin(old_keys, now_keys)]
    events = [ContactEvent("begin", a, b, (nx, ny))
              for (nx, ny), (a, b) in zip(contacts.normal[began].tolist(), contacts.pairs_at(began))]
    if len(ended):  # in ``before``'s order (a pile's thousands of pairs: found in arrays, not one by one)
        if solved is not None and made_of_old:
            assert isinstance(before, TouchingPairs)
            pairs = before.pairs_at(solved.ended)  # (the ended rows are ``before``'s own, ascending)
        elif isinstance(before, TouchingPairs):
            pairs = before.pairs_of(ended)
        else:
            before_keys = np.fromiter(before, dtype=np.int64, count=len(before))
            pairs = [before[key] for key in before_keys[np.isin(before_keys, ended)].tolist()]
        events += [ContactEvent("end", a, b, (0.0, 0.0)) for a, b in pairs]
    return events, TouchingPairs(contacts, now_rows)


def _events_by_pair(before: Mapping[int, tuple[object, object]],
                    contacts: ContactSet) -> tuple[list[ContactEvent], dict[int, tuple[object, object]]]:
    """:func:`_events` when the last step's contacts are not ``before``'s pairs: key by key."""
    events: list[ContactEvent] = []
    now = {int(contacts.keys[i]): i for i in np.flatnonzero(contacts.touching).tolist()}
    for key, i in now.items():
        if key not in before:
            events.append(ContactEvent("begin", contacts.a[i], contacts.b[i], tuple(contacts.normal[i].tolist())))
    for key, (a, b) in before.items():
        if key not in now:
            events.append(ContactEvent("end", a, b, (0.0, 0.0)))
    return events, {key: (contacts.a[i], contacts.b[i]) for key, i in now.items()}
