"""The world's rigid bodies and the solver state they carry from step to step.

:class:`RigidBodySet` owns the bodies (in the order they were added), the contacts of the last step (warm
starting, events, the debug overlay), the pairs that touched, and the per-shape table the step reads. The
step itself is :func:`engine.world.solver.step_bodies`, a function of what this set hands it; only this
module stores what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..bodies import ANGLE, STATE_COLUMNS, X, Y, PhysicsConfig, RigidBody
from ..types import ContactEvent, Vec2, WorldError
from .collide_kernel import body_boxes
from .contacts import ContactSet, RigidScene, ShapeTable
from .solver import StepOutcome, step_among_static, step_bodies
from .static import StaticGeometry

__all__ = ["RigidBodySet"]


class RigidBodySet:
    """Dynamic bodies and their solver state."""

    def __init__(self, config: PhysicsConfig) -> None:
        self.config = config
        self.bodies: list[RigidBody] = []
        self._state = np.zeros((8, STATE_COLUMNS))
        """Every body's row (see :data:`engine.bodies.STATE_COLUMNS`), in the order of :attr:`bodies`; the rows
        past the last body are spare room."""
        self._contacts = ContactSet()
        self._touching: Mapping[int, tuple[object, object]] = {}
        self._table: ShapeTable | None = None
        self._changes = 0
        """Bodies added or removed so far: with :attr:`RigidBody.layout_changes`, what :meth:`table` checks
        before it compares every body's shape and filter with its table's (O(n) Python: 0.2 ms a step at 1000
        crates)."""
        self._table_changes = self._table_layout_changes = -1
        """The body changes and layout changes (:attr:`RigidBody.layout_changes`) when the table was last
        checked."""
        self._resting = False
        self._body_rows = self._state[:0]
        """:attr:`body_state`, kept (made again when a body is added or removed)."""

    @property
    def contacts(self) -> ContactSet:
        """The contacts of the last step (read-only: the debug overlay draws them)."""
        return self._contacts

    @property
    def touching(self) -> Mapping[int, tuple[object, object]]:
        """The pairs touching after the last step, by contact key (read-only)."""
        return self._touching

    @property
    def resting(self) -> bool:
        """The last step found every body asleep (a hint: the next step first asks whether they still rest)."""
        return self._resting

    @property
    def body_state(self) -> np.ndarray:
        """The bodies' rows ((len(bodies), STATE_COLUMNS), a view: the step reads and writes it in place)."""
        return self._body_rows

    def add(self, body: RigidBody) -> RigidBody:
        if not isinstance(body, RigidBody):
            raise WorldError(f"add_body takes a RigidBody, got {body!r}")
        if any(b is body for b in self.bodies):
            raise WorldError(f"{body!r} is already in this world")
        if len(self.bodies) == len(self._state):  # full: twice the room, every body moves into it
            grown = np.zeros((2 * len(self._state), STATE_COLUMNS))
            for row, b in enumerate(self.bodies):
                b.bind(grown, row)
            self._state = grown
        body.bind(self._state, len(self.bodies))
        self.bodies.append(body)
        self._body_rows = self._state[:len(self.bodies)]
        self._changes += 1
        return body

    def remove(self, body: RigidBody) -> None:
        index = next(i for i, b in enumerate(self.bodies) if b is body)
        body.bind(self._state[index].copy()[None, :], 0)  # it keeps its numbers, in a row of its own
        del self.bodies[index]
        self._body_rows = self._state[:len(self.bodies)]
        self._changes += 1
        for row in range(index, len(self.bodies)):
            self.bodies[row].bind(self._state, row)
        self._contacts = ContactSet()  # contacts are rebuilt next step (warm starting restarts once)
        self._touching = {k: ab for k, ab in self._touching.items() if body not in ab}

    def forget(self, other: object) -> None:
        """A non-body participant (a character, a kinematic body) left the world: drop its contacts."""
        if any(other in ab for ab in self._touching.values()):
            self._contacts = ContactSet()
            self._touching = {k: ab for k, ab in self._touching.items() if other not in ab}

    def table(self) -> ShapeTable:
        """The per-shape table of the current bodies (rebuilt when bodies, shapes or filters change)."""
        table, bodies = self._table, self.bodies
        if table is not None and self._changes == self._table_changes \
                and RigidBody.layout_changes == self._table_layout_changes:
            return table
        self._table_changes, self._table_layout_changes = self._changes, RigidBody.layout_changes
        if table is not None and len(table.bodies) == len(bodies) and table.starts(bodies) and table.filtered_as(bodies):
            return table
        if table is None or not table.starts(bodies):
            self._contacts = ContactSet()  # bodies removed or reordered: its body indices are stale
        self._table = ShapeTable(bodies)
        return self._table

    def boxes(self, pad: float) -> np.ndarray:
        """Every body's box where it is now, grown by ``pad`` px ((len(bodies), 4): min x, min y, max x, max y),
        in one compiled call."""
        count = len(self.bodies)
        if not count:
            return np.zeros((0, 4))
        table = self.table()
        state = self._state[:count]
        _, boxes = body_boxes(table.vertices, table.offsets, table.radius, np.ascontiguousarray(state[:, X:Y + 1]),
                              np.ascontiguousarray(state[:, ANGLE]), float(pad))
        return boxes  # type: ignore[no-any-return]

    def step(self, scene: RigidScene, dt: float) -> list[ContactEvent]:
        """Advance every awake body by ``dt`` seconds; returns the contact begin / end events."""
        if not self.bodies:
            return self._no_bodies()
        return self._kept(step_bodies(scene, self.bodies, self, dt))

    def step_among_static(self, static: StaticGeometry, gravity: Vec2, config: PhysicsConfig, static_friction: float,
                          dt: float) -> list[ContactEvent]:
        """:meth:`step` in a world with no kinematic bodies, characters or sensors, so no scene to make (a crate
        scene's whole step costs a few microseconds of Python: each one counts)."""
        if not self.bodies:
            return self._no_bodies()
        self._contacts, self._touching, events, self._resting = step_among_static(
            static, gravity, config, static_friction, self, dt, self._body_rows, self._resting, self._contacts,
            self._touching)
        return events

    def _no_bodies(self) -> list[ContactEvent]:
        if len(self._contacts) or self._touching:
            self._contacts, self._touching = ContactSet(), {}
        return []

    def _kept(self, outcome: StepOutcome) -> list[ContactEvent]:
        self._contacts, self._touching, events, self._resting = outcome
        return events
