"""Contact gathering for the rigid-body step: which bodies touch what, as manifolds in arrays.

:func:`collide_all` finds this step's contacts of the awake bodies: against static segments (broad-phase
candidates cached per body while it stays inside a padded box), kinematic bodies and characters (scalar
``collide``: they are few), and each other (sweep and prune along x). Everything but the kinematic bodies
and characters, any shapes (circles too), is one compiled call,
:func:`~engine.world.collide_kernel.gather_in` (the bodies' boxes, near segments, body pairs, collision
filters, manifolds, feature numbering, keys, touch summary), on what the table's step memory keeps from step
to step (:mod:`engine.world.step_memory`). Manifolds are made ``speculative_distance`` early. The contacts
come back packed in three buffers (:class:`Found`), as the solve's do (:class:`ContactSet`): each array numba
hands to Python costs 0.3 us, a tenth of a ten-crate step when there were two dozen of them.

Feature ids on static segments number the segment's vertices as if it were padded to the body's vertex
count (a, b, b, ..., a: seen from its back face, b is ``n - 2`` and a is ``n - 1``), as the batched numpy
path before the compiled one did, so that warm starting keys on the same features as it always has.

The seam rule: a one-point contact with a segment's rounded end cap, at an end the segment shares with
another segment, whose normal leans over that other segment, belongs to the other segment and is dropped.
Without it a crate sliding over a joint meets the caps there with a tilted speculative normal and trips. It is
applied in the compiled gathering (:func:`~engine.world.collide_kernel.gather_manifolds`).

:class:`ContactSet` is what a step leaves for the next one (warm starting, events, the debug overlay);
:class:`ShapeTable` is what the step needs of the bodies' shapes, kept by the world. This module is the
solver's (:mod:`engine.solver`); its names are public to it, not to games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
import operator
import sys
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple, Protocol

import numpy as np

from ..bodies import PhysicsConfig, RigidBody
from ..geometry import Manifold, Transform, Vec2, collide, touching_pairs
from ..types import DEFAULT_FILTER
from .collide_kernel import (
    KEY_A_MASK, KEY_A_SHIFT, KEY_KIND_SHIFT, body_boxes, gather_in, overlapping_boxes, packed_found, picked_found,
    touch_summary,
)
from .filters import filter_arrays
from .step_kernel import FixedTypes, packed_contacts, step_in
from .static import StaticGeometry
from .step_memory import gathered_boxes, kept_contacts, new_step_memory, set_event_room, set_level, set_step_inputs

__all__ = [
    "CHARACTER", "CONTACT_FIELDS", "DEFAULT_FILTER_ROW", "DYNAMIC", "FOUND_FIELDS", "KINEMATIC", "STATIC", "ByRow",
    "Colouring", "ContactSet", "DeferredList", "Found", "RigidScene", "ShapeTable", "TouchingPairs", "collide_all",
    "overlapping_pairs", "pick", "picked_from", "ready_to_gather", "segment_sides", "world_polys",
]

_SHAPE_OF, _FILTER_OF = attrgetter("shape"), attrgetter("filter")

STATIC, KINEMATIC, CHARACTER, DYNAMIC = range(4)
"""What participant A of a contact is: a static segment, a kinematic body, a character, a rigid body."""


class RigidScene(NamedTuple):
    """What the rigid-body step reads of the rest of the world (it writes none of it but the bodies)."""

    static: StaticGeometry
    kinematic_bodies: Sequence[Any]
    characters: Sequence[Any]
    """Characters: kinematic shapes to the solver (they moved this step from ``previous_position``)."""
    gravity: Vec2
    config: PhysicsConfig
    static_friction: float
    """Friction coefficient of static geometry and kinematic bodies against rigid bodies."""


class DeferredList(Sequence[Any]):
    """A list made on first use, by ``make()``; or, while it is not made, some of its items straight from
    where they come from, by ``picker(index)`` (``[list[i] for i in index]``; :func:`pick` asks it). The
    contacts' participants as Python objects (bodies, segment indices, ...) are needed only for events, woken
    sleepers, crushes and the Python paths; picking them for every contact of every step cost more than the
    rest of a small pile's gathering (and 0.9 ms a step at 1000 crates), and picking the touching ones of a
    pile through each intermediate list 1.4 ms. ``make`` and ``picker`` must not depend on anything that
    changes later: they may be called steps later (a kept contact set's lists), so they close over arrays the
    step made and the shape table's own list of bodies."""

    __slots__ = ("_make", "_picker", "_items")

    def __init__(self, make: Callable[[], list], picker: Callable[[np.ndarray], list] | None = None) -> None:
        self._make: Callable[[], list] | None = make
        self._picker = picker
        self._items: list | None = None

    def items(self) -> list:
        """The list itself (made now if it was not yet)."""
        if self._items is None:
            assert self._make is not None
            self._items, self._make, self._picker = self._make(), None, None
        return self._items

    def picked(self, index: np.ndarray) -> list:
        """``[self[i] for i in index]``, without making the whole list when a picker can."""
        if self._picker is not None:
            return self._picker(index)
        return pick(self.items(), index)

    def __getitem__(self, i):  # type: ignore[override]
        return self.items()[i]

    def __len__(self) -> int:
        return len(self.items())

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items())


def pick(items: Sequence[Any], index: np.ndarray) -> list:
    """``[items[i] for i in index]``, at C speed."""
    if isinstance(items, DeferredList):
        return items.picked(index)
    if len(index) == 0:
        return []
    if len(index) == 1:
        return [items[int(index[0])]]
    return list(itemgetter(*index.tolist())(items))


def _key(kind: int, a: int, b: int) -> int:
    return (kind << KEY_KIND_SHIFT) | (a << KEY_A_SHIFT) | b


_NO_ROWS = np.zeros(0, dtype=np.int64)
_NO_FILTERS = (_NO_ROWS, _NO_ROWS, _NO_ROWS)
"""Filter arrays (category, mask, group) that say: every one is the default."""
_NO_CONTACTS = (_NO_ROWS, np.zeros(0), np.zeros(0, dtype=bool))
"""The packed buffers of no contacts (shared: nothing writes them)."""


class Colouring:
    """A solve's graph colouring (made by the solver; the step memory keeps it for the next solve), packed
    (:func:`~engine.world.step_kernel.colouring_arrays` reads it): each contact's solver rows of A and B and
    whether it was light (in the order the contacts were found), the contacts in colour order, each colour's
    first contact (and the end), which colours are solved with the light kernel."""

    __slots__ = ("ints", "flags")

    def __init__(self, ints: np.ndarray, flags: np.ndarray) -> None:
        self.ints, self.flags = ints, flags

    @property
    def order(self) -> np.ndarray:
        """The contacts in colour order (indices into the order found; the rows ``colouring_arrays`` gives)."""
        m = (len(self.ints) - len(self.flags) - 1) // 2
        return self.ints[2 * m:3 * m]

    def picked(self, items: Sequence[Any]) -> "DeferredList":
        """``items`` (one per contact, in the order found) in colour order, made on first use."""
        return DeferredList(lambda: pick(items, self.order), lambda index: pick(items, self.order[index]))

    def participants_of(self, found: "Found") -> "_InColourOrder":
        """What makes a contact set's participants: ``found``'s, in colour order (read when first asked)."""
        return _InColourOrder(self, found)


class _InColourOrder:
    """A solved contact set's participants: those of the contacts found, in the colouring's order."""

    __slots__ = ("colouring", "found")

    def __init__(self, colouring: Colouring, found: "Found") -> None:
        self.colouring, self.found = colouring, found

    def __call__(self, packed: Any) -> tuple[Sequence[Any], Sequence[Any]]:
        return self.colouring.picked(self.found.a), self.colouring.picked(self.found.b)

    def pairs(self, packed: Any, rows: np.ndarray) -> list[tuple[Any, Any]]:
        return self.found.pairs_at(self.colouring.order[rows])


CONTACT_FIELDS: dict[str, tuple[str, int, int, tuple[int, ...]]] = {
    "keys": ("ints", 0, 1, ()), "ids": ("ints", 1, 3, (2,)), "a_index": ("ints", 3, 4, ()),
    "b_index": ("ints", 4, 5, ()), "normal": ("floats", 0, 2, (2,)), "point": ("floats", 2, 6, (2, 2)),
    "impulse": ("floats", 6, 10, (4,)), "anchors": ("floats", 10, 18, (2, 4)), "valid": ("flags", 0, 2, (2,)),
    "touching": ("flags", 2, 3, ()), "sliding": ("flags", 3, 5, (2,)),
}
"""Where each array of a packed contact set lies: buffer, first and last value (in contacts: ``m`` values
each) and each contact's shape, as :func:`~engine.world.step_kernel.contact_arrays` carves them (a test checks
they agree). Carved here one by one, as asked for: the step's events need three of them, and handing all
eleven from compiled code cost more than the rest of a resting pile's step in Python."""


def _packed_field(layout: dict[str, tuple[str, int, int, tuple[int, ...]]], name: str, doc: str) -> property:
    """A property carving array ``name`` out of its object's packed buffers where ``layout`` says (an object
    of ``m = len(obj)`` contacts), once (the object keeps it in its ``carved`` dict)."""
    buffer, first, last, shape = layout[name]

    def carve(self: Any) -> np.ndarray:
        carved = self.carved
        if carved is None:
            carved = self.carved = {}
        array: np.ndarray | None = carved.get(name)
        if array is None:
            m = len(self)
            array = getattr(self, buffer)[first * m:last * m]
            if shape:
                array = array.reshape((m, *shape))
            carved[name] = array
        return array

    return property(carve, doc=doc)


def _contact_field(name: str, doc: str) -> property:
    return _packed_field(CONTACT_FIELDS, name, doc)


class _Packed:
    """Contacts packed in three buffers (``ints``, ``floats``, ``flags``; where each array lies: the
    subclass's fields), with participants A and B of each contact, given or made by ``make(self)`` when first
    read: most steps read none (making their deferred lists cost more than a small pile's Python glue)."""

    __slots__ = ("_packed", "_source", "_count", "carved", "_a", "_b", "_make")

    _INTS_EACH = 1
    """How many of the ``ints`` buffer's values each contact has (the subclass's layout)."""

    def __init__(self, packed: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None, a: Sequence[Any] = (),
                 b: Sequence[Any] = (), make: "_Maker | None" = None, source: "tuple[ShapeTable, int] | None" = None,
                 count: int = 0) -> None:
        """``packed`` None: no contacts, or (``source``) ``count`` contacts a one-call step kept in its table's
        memory, fetched from there when first read (``source``: the table and the step's generation, see
        :meth:`ShapeTable.kept_buffers`)."""
        # (ContactSet has no constructor of its own: a call less, where a small pile's step makes one every step.)
        if source is None:
            packed = _NO_CONTACTS if packed is None else packed
            count = len(packed[0]) // self._INTS_EACH
        self._packed, self._source, self._count = packed, source, count
        self.carved: dict[str, np.ndarray] | None = None
        """The arrays read so far, by name (none yet: most sets are never read)."""
        self._a, self._b, self._make = a, b, make

    @property
    def buffers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The packed buffers: ``ints``, ``floats``, ``flags`` (fetched from the step memory when first read)."""
        packed = self._packed
        if packed is None:
            assert self._source is not None
            table, generation = self._source
            packed = self._packed = table.kept_buffers(generation)
            self._source = None
        return packed

    @property
    def ints(self) -> np.ndarray:
        return self.buffers[0]

    @property
    def floats(self) -> np.ndarray:
        return self.buffers[1]

    @property
    def flags(self) -> np.ndarray:
        return self.buffers[2]

    def __len__(self) -> int:
        return self._count

    def fetch(self) -> None:
        """Read the contacts from the step memory now (it is about to drop them, and something still holds this
        set)."""
        self.buffers  # noqa: B018  (read for its effect)

    def _made(self) -> None:
        if self._make is not None:
            self._a, self._b = self._make(self)
            self._make = None

    @property
    def a(self) -> Sequence[Any]:
        """Participant A of each contact: a segment index (int), kinematic body, character or rigid body (a
        :class:`DeferredList`, made when first read)."""
        self._made()
        return self._a

    @property
    def b(self) -> Sequence[Any]:
        """Rigid body B of each contact."""
        self._made()
        return self._b

    def pairs_at(self, rows: np.ndarray) -> list[tuple[Any, Any]]:
        """Participants (A, B) of the contacts ``rows``; straight from where they come from while the lists
        are not made (a few events a step need a few pairs, not every contact's)."""
        if self._make is not None:
            return self._make.pairs(self, rows)
        return list(zip(pick(self._a, rows), pick(self._b, rows)))


class _Maker(Protocol):
    """What makes a packed set's participants (both lists, or the pairs of some rows)."""

    def __call__(self, packed: Any) -> tuple[Sequence[Any], Sequence[Any]]: ...

    def pairs(self, packed: Any, rows: np.ndarray) -> list[tuple[Any, Any]]: ...


class ContactSet(_Packed):
    """The contacts of a step, kept for warm starting, events and the debug overlay. The solver hands them
    packed in three buffers (:data:`CONTACT_FIELDS`); they are read here as arrays by name. Participants:
    ``a`` and ``b``, or ``make(contact_set)`` giving them when first read."""

    __slots__ = ()

    keys = _contact_field("keys", "Each contact's pair key (int64).")
    ids = _contact_field("ids", "(m, 2) feature ids of the two points.")
    valid = _contact_field("valid", "(m, 2) which points exist.")
    normal = _contact_field("normal", "(m, 2) unit normal, from A to B.")
    point = _contact_field("point", "(m, 2, 2) the points (px).")
    impulse = _contact_field("impulse", "(m, 4) accumulated impulses: normal at point 0 and 1, tangent at 0 and 1.")
    sliding = _contact_field("sliding", "(m, 2) which points slid (friction at the cone's edge).")
    anchors = _contact_field("anchors", "(m, 2, 4) friction anchors per point: x, y in A's frame, then in B's.")
    touching = _contact_field("touching", "Which contacts touch (within the slop).")
    a_index = _contact_field("a_index", "Position of A in the world's body list, -1 where A is not a rigid body.")
    b_index = _contact_field("b_index", "Position of B in the world's body list.")

    _INTS_EACH = 5

    def extended(self, other: "ContactSet", rows: np.ndarray) -> "ContactSet":
        """This set followed by ``other``'s contacts ``rows`` (a sleeping pile's contacts carried over)."""
        names = ("keys", "ids", "valid", "normal", "point", "impulse", "sliding", "anchors", "touching", "a_index",
                 "b_index")  # (packed_contacts' order)
        arrays = [np.concatenate([getattr(self, name), getattr(other, name)[rows]]) for name in names]
        count = len(self)
        return ContactSet(packed_contacts(*arrays), _followed_by(self.a, count, pick(other.a, rows)),
                          _followed_by(self.b, count, pick(other.b, rows)))


class TouchingPairs(Mapping[int, tuple[Any, Any]]):
    """The pairs touching after a step, by contact key: participants (A, B) of the touching ``rows`` of
    ``contacts``, in their order. A dict of them is made only when something asks for it as a dict (a body
    removed, the public read-only view); the step itself reads the keys as an array and picks the objects of
    the few pairs that ended (a 1000-crate pile's touching pairs change every step: making the dict was a
    tenth of its step)."""

    __slots__ = ("_key_array", "_contacts", "_rows", "_made", "_count")

    def __init__(self, contacts: "ContactSet", rows: np.ndarray | None = None, key_array: np.ndarray | None = None,
                 count: int | None = None) -> None:
        self._contacts, self._rows, self._key_array = contacts, rows, key_array
        self._count = len(rows) if rows is not None else count
        """How many pairs (``None``: count the rows when asked)."""
        self._made: dict[int, tuple[Any, Any]] | None = None

    @property
    def rows(self) -> np.ndarray:
        """The touching rows of the contact set (ascending; found when first asked: a falling pile's step does
        not need them)."""
        if self._rows is None:
            self._rows = np.flatnonzero(self._contacts.touching)
        return self._rows

    @property
    def key_array(self) -> np.ndarray:
        """The keys (int64), in this mapping's order."""
        if self._key_array is None:
            self._key_array = self._contacts.keys[self.rows]
        return self._key_array

    def moved_to(self, contacts: "ContactSet") -> "TouchingPairs":
        """These pairs as rows of ``contacts``: a set with the same contacts, touching the same way, in the same
        order as the set these were made of (a step whose touching pairs did not change). In place: the
        mapping's content is the same, and only the rigid-body set holds it. No arrays made; returns itself."""
        self._contacts = contacts
        return self

    def _dict(self) -> dict[int, tuple[Any, Any]]:
        if self._made is None:
            rows, contacts = self.rows, self._contacts
            self._made = dict(zip(self.key_array.tolist(), zip(pick(contacts.a, rows), pick(contacts.b, rows))))
        return self._made

    def __getitem__(self, key: int) -> tuple[Any, Any]:
        return self._dict()[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self.key_array.tolist())

    def __len__(self) -> int:
        if self._count is None:
            self._count = len(self.rows)
        return self._count

    def pairs_of(self, keys: np.ndarray) -> list[tuple[Any, Any]]:
        """The pairs (A, B) of those of ``keys`` that are here, in this mapping's order."""
        return self.pairs_at(self.rows[np.isin(self.key_array, keys)])

    def moved_if_unchanged(self, old: "ContactSet", new: "ContactSet", count: int) -> bool:
        """:meth:`moved_to` ``new`` when these are the touching rows of ``old`` and ``count`` pairs touch (a step
        that found the same pairs touching in the same order: the caller knows); returns whether they moved.
        One call for the usual step of a pile."""
        if self._contacts is not old or len(self) != count:
            return False
        self._contacts = new
        return True

    def made_of(self, contacts: "ContactSet") -> bool:
        """These are the touching rows of ``contacts`` (that very set)."""
        return self._contacts is contacts

    def pairs_at(self, rows: np.ndarray) -> list[tuple[Any, Any]]:
        """The pairs (A, B) of the contacts ``rows`` of the set these pairs were made of (:meth:`made_of`):
        what :meth:`pairs_of` gives for their keys when ``rows`` are touching rows, ascending, without looking
        the keys up (0.2 ms a step for a falling 1000-crate pile)."""
        return self._contacts.pairs_at(rows)


def _followed_by(first: Sequence[Any], count: int, carried: list) -> DeferredList:
    """``list(first) + carried`` (``first`` has ``count`` items), made on first use, and picked from without
    making it (a resting pile's carried contacts are joined to the new ones every step, and their participants
    are rarely read). ``carried`` is a list already: a list made on use from the last step's, made on use from
    the one before, would keep every step's contacts alive."""
    def picker(index: np.ndarray) -> list:
        new = index < count
        if new.all():
            return pick(first, index)
        picked: list = [carried[i - count] if i >= count else None for i in index.tolist()]
        rows = np.flatnonzero(new)
        for k, item in zip(rows.tolist(), pick(first, index[rows])):
            picked[k] = item
        return picked

    return DeferredList(lambda: list(first) + carried, picker)


def picked_from(items: Sequence[Any], rows: np.ndarray) -> DeferredList:
    """``pick(items, rows)``, made on first use; picking from it picks from ``items`` at once."""
    return DeferredList(lambda: pick(items, rows), lambda index: pick(items, rows[index]))


def _joined(parts: list[Sequence[Any]]) -> DeferredList:
    return DeferredList(lambda: [item for part in parts for item in part])


FOUND_FIELDS: dict[str, tuple[str, int, int, tuple[int, ...]]] = {
    "keys": ("ints", 0, 1, ()), "a_kind": ("ints", 1, 2, ()), "a_rows": ("ints", 2, 3, ()),
    "a_index": ("ints", 3, 4, ()), "b_index": ("ints", 4, 5, ()), "ids": ("ints", 5, 7, (2,)),
    "normal": ("floats", 0, 2, (2,)), "point": ("floats", 2, 6, (2, 2)), "separation": ("floats", 6, 8, (2,)),
    "closest": ("floats", 8, 9, ()), "valid": ("flags", 0, 2, (2,)), "touching": ("flags", 2, 3, ()),
}
"""Where each array of :class:`Found` lies in its buffers, as
:func:`~engine.world.collide_kernel.found_arrays` carves them (in its order; a test checks they agree)."""


def _found_field(name: str, doc: str) -> property:
    return _packed_field(FOUND_FIELDS, name, doc)


class Found(_Packed):
    """This step's manifolds, one row per pair (two points each; ``valid`` says which points exist), with
    each one's touch summary; packed in three buffers as the compiled gathering made them
    (:data:`FOUND_FIELDS`), read here as arrays by name. Participants: ``a`` and ``b``, or ``make(found)``
    giving them when first read."""

    __slots__ = ("wakers",)

    def __init__(self, packed: tuple[np.ndarray, np.ndarray, np.ndarray], a: Sequence[Any] = (),
                 b: Sequence[Any] = (), wakers: np.ndarray = _NO_ROWS, make: _Maker | None = None) -> None:
        super().__init__(packed, a, b, make)
        self.wakers = wakers
        """The touching contacts between an awake and a sleeping body (rows, ascending): they wake the sleeper."""

    keys = _found_field("keys", "Each contact's pair key (int64).")
    a_kind = _found_field("a_kind", "What A is: STATIC, KINEMATIC, CHARACTER or DYNAMIC.")
    a_rows = _found_field("a_rows", "A's segment (static contacts), mover or body row.")
    a_index = _found_field("a_index", "Position of A in the world's body list, -1 where A is not a rigid body.")
    b_index = _found_field("b_index", "Position of B in the world's body list.")
    ids = _found_field("ids", "(m, 2) feature ids of the two points.")
    normal = _found_field("normal", "(m, 2) unit normal, from A to B.")
    point = _found_field("point", "(m, 2, 2) the points (px).")
    separation = _found_field("separation", "(m, 2) the points' separations (px, negative: overlap).")
    closest = _found_field("closest", "The smaller separation (px; +inf without points).")
    valid = _found_field("valid", "(m, 2) which points exist.")
    touching = _found_field("touching", "Whether ``closest`` is within the slop.")

    _INTS_EACH = 7

    @classmethod
    def of(cls, arrays: Sequence[np.ndarray], a: Sequence[Any], b: Sequence[Any], wakers: np.ndarray) -> "Found":
        """Contacts from their arrays in :data:`FOUND_FIELDS`' order (packed here)."""
        return cls(packed_found(*arrays), a, b, wakers)

    def rows(self, rows: np.ndarray) -> "Found":
        """The contacts ``rows`` (ascending) of these."""
        position = np.full(len(self), -1, dtype=np.int64)
        position[rows] = np.arange(len(rows))
        wakers = position[self.wakers]
        return Found(picked_found(self.ints, self.floats, self.flags, rows), picked_from(self.a, rows),
                     picked_from(self.b, rows), wakers[wakers >= 0])

    def followed_by(self, other: "Found") -> "Found":
        """These contacts, then ``other``'s."""
        return Found.of([np.concatenate([getattr(self, name), getattr(other, name)]) for name in FOUND_FIELDS],
                        _joined([self.a, other.a]), _joined([self.b, other.b]),
                        np.concatenate([self.wakers, other.wakers + len(self)]))


_STEP_IN = FixedTypes(step_in)
"""The one-call step, its argument types fixed (see :class:`~engine.world.step_kernel.FixedTypes`)."""


def _event_room(rows: int) -> tuple[np.ndarray, np.ndarray]:
    return np.empty((rows, 2), dtype=np.int64), np.empty((rows, 2))


class ShapeTable:
    """What the step needs of each body's shape (local cores, flat, radii, ids, extents), built once and kept
    by the world while the same bodies keep the same shapes; with the compiled step's memory of them."""

    def __init__(self, bodies: list[RigidBody]) -> None:
        self.bodies = list(bodies)
        self.shapes = [b.shape for b in bodies]
        self.filter_list = list(map(_FILTER_OF, bodies))
        self.filters = filter_arrays(self.filter_list)
        """The bodies' collision filters as (category, mask, group) arrays; ``None`` when all are the default."""
        self.ids = np.array([b.id for b in bodies], dtype=np.int64)
        self.count = np.array([sh.count for sh in self.shapes], dtype=np.int64)
        self.radius = np.array([sh.radius for sh in self.shapes], dtype=np.float64)
        boxes = [sh.local_aabb for sh in self.shapes]
        self.sleep_extent = np.array([0.5 * max(bx.width, bx.height) for bx in boxes])
        """Pixels: how far a body's farthest corner is, roughly (spin times this is a speed)."""
        self.reach = np.array([0.25 * min(bx.width, bx.height) for bx in boxes])
        """Pixels: a body moving farther than this in a step is swept for continuous collision."""
        self.offsets = np.concatenate([[0], np.cumsum(self.count)]).astype(np.int64)
        """(K + 1,): body k's core is rows ``offsets[k]:offsets[k + 1]`` of ``vertices`` and ``normals``."""
        self.vertices = np.array([v for sh in self.shapes for v in sh.vertices], dtype=np.float64).reshape(-1, 2)
        """Local core vertices of all bodies, one after the other (px)."""
        self.normals = np.array([n for sh in self.shapes for n in (sh.normals or ((0.0, 0.0),))],
                                dtype=np.float64).reshape(-1, 2)
        """Their outward unit edge normals (a circle, which has none, gets a zero row to keep the rows aligned)."""
        self.memory = new_step_memory(self.vertices, self.normals, self.offsets, self.radius, self.ids, self.count,
                                      self.sleep_extent, self.reach, *(self.filters or _NO_FILTERS))
        """What the compiled step keeps from call to call for these bodies (:mod:`engine.world.step_memory`):
        their near segments, sweep order, placement at step start, boxes, the level gathered against and the
        last graph colouring."""
        self.by_row = ByRow(self.bodies)
        """What names the participants of a contact set the one-call step made for these bodies."""
        self.level_of: Any = None
        """The static broad phase the memory gathers against (a new one: the level changed)."""
        self.event_room = _event_room(16)
        """Where the one-call step writes the participants ((n, 2) int64) and normals ((n, 2)) of the pairs that
        began and ended touching, when they fit (Python owns them: reading them costs nothing, while reading
        arrays out of the step memory costs a call and 0.3 us an array)."""
        set_event_room(self.memory, *self.event_room)
        self._handed_rows: np.ndarray | None = None
        self._handed_contacts: ContactSet | None = None
        self._handed_params: np.ndarray | None = None
        """The state rows, contact set and parameters the memory holds as the one-call step's inputs."""
        self._generation = 0
        """One-call steps and hands of inputs so far: the memory's contacts are this generation's; those the
        last step started from, the one before's."""
        self._kept_before: ContactSet | None = None
        self._kept_latest: ContactSet | None = None
        """The contact sets that read their contacts from the memory (see :meth:`kept_buffers`): the one
        before's generation and this one's."""

    def make_event_room(self, count: int) -> None:
        """Room for the events of ``count`` pairs or more in :attr:`event_room` (twice that: a pile that
        outgrew it will likely grow more)."""
        if count > len(self.event_room[0]):
            self.event_room = _event_room(2 * count)
            set_event_room(self.memory, *self.event_room)

    def hand_step_inputs(self, static: StaticGeometry, numbers: np.ndarray, contacts: "ContactSet",
                         params: np.ndarray, settings: np.ndarray) -> None:
        """Make the memory hold what the next one-call step starts from (see
        :func:`~engine.world.step_memory.set_step_inputs`): ``static``'s level (:func:`ready_to_gather`);
        ``numbers``, the bodies' state rows; ``contacts``, the last step's; ``params`` and ``settings`` (made
        together: the same ``params`` come with the same ``settings``). Nothing to hand, usually: the level,
        the rows and the parameters stay, and the memory keeps the contacts the last one-call step made
        (:meth:`step_in`)."""
        if static.broadphase is not self.level_of:
            ready_to_gather(self, static)
        if numbers is self._handed_rows and contacts is self._handed_contacts and params is self._handed_params:
            return
        ints, floats, flags = contacts.buffers
        self._let_go_before()  # (both kept sets: the memory's contacts are replaced)
        self._kept_before, self._kept_latest = self._kept_latest, None
        self._let_go_before()
        self._generation += 2
        set_step_inputs(self.memory, numbers, ints, floats, flags, params, settings, DEFAULT_FILTER_ROW)
        self._handed_rows, self._handed_contacts, self._handed_params = numbers, contacts, params

    def step_in(self, static_friction: float) -> tuple[int, "ContactSet | None", int, int, bool, int, int]:
        """The one-call step (:func:`~engine.world.step_kernel.step_in`) from the inputs handed: its status, the
        contacts it made (``None`` unless the status is 0: the step done) and its counts. Its contacts and those
        it started from stay in the memory, read when first asked (most steps read neither: handing them to
        Python cost 0.9 us)."""
        if self._kept_before is not None:
            self._let_go_before()  # (the step drops the contacts before the last)
        status, count, sweep_count, began_count, same, touching_count, ended_count = _STEP_IN.call(
            self.memory, static_friction)
        if status != 0:
            return status, None, 0, 0, False, 0, 0
        self._generation += 1
        made = ContactSet(None, (), (), self.by_row, (self, self._generation), count)  # (positional: 0.1 us less)
        self._kept_before, self._kept_latest = self._kept_latest, made
        self._handed_contacts = made
        return status, made, sweep_count, began_count, same, touching_count, ended_count

    def kept_buffers(self, generation: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The packed contacts of the one-call step of ``generation``: the memory's, or those the last step
        started from (the step before's)."""
        if generation == self._generation:
            return kept_contacts(self.memory, False)  # type: ignore[no-any-return]
        if generation == self._generation - 1:
            return kept_contacts(self.memory, True)  # type: ignore[no-any-return]
        raise RuntimeError(f"contacts of step {generation} were not kept (now {self._generation})")

    def _let_go_before(self) -> None:
        """The memory is about to drop the contacts of the set before the latest: if it is still held elsewhere
        (a game's reference, touching pairs made of it), it reads them now."""
        kept = self._kept_before
        if kept is not None:
            self._kept_before = None
            if sys.getrefcount(kept) > 2:  # (2: the name ``kept`` and getrefcount's argument)
                kept.fetch()

    def starts(self, bodies: list[RigidBody]) -> bool:
        """``bodies`` begins with this table's bodies, with the same shapes (equal: nothing changed)."""
        return len(bodies) >= len(self.bodies) and all(map(operator.is_, bodies, self.bodies)) and all(
            map(operator.is_, map(_SHAPE_OF, bodies), self.shapes))

    def filtered_as(self, bodies: list[RigidBody]) -> bool:
        """This table's bodies (the first of ``bodies``) still have the filters it was made with."""
        return all(map(operator.is_, map(_FILTER_OF, bodies), self.filter_list))


def ready_to_gather(table: ShapeTable, static: StaticGeometry) -> None:
    """Make sure ``table``'s memory gathers against ``static``'s broad phase as it is now (a new one after the
    level changed: each segment's side normal and joint flag with it; the near lists start afresh)."""
    bp = static.broadphase
    if table.level_of is bp:
        return
    set_level(table.memory, float(bp.cell_size), *bp.cell_arrays(), bp.a, bp.b, segment_sides(bp), bp.radius,
              bp.aabbs, static.joint_flags(), static.joint_table(), static.filter_arrays() or _NO_FILTERS)
    table.level_of = bp


def segment_sides(bp: Any) -> np.ndarray:
    """(N, 2): each segment of the static broad phase ``bp``: its unit side normal (the other side is the
    negation)."""
    edge = bp.b - bp.a
    return np.ascontiguousarray(np.stack([edge[:, 1], -edge[:, 0]], axis=1) / np.hypot(edge[:, 0], edge[:, 1])[:, None])


DEFAULT_FILTER_ROW = np.array([DEFAULT_FILTER.category, DEFAULT_FILTER.mask, DEFAULT_FILTER.group], dtype=np.int64)
"""The default collision filter as the compiled gathering takes it (category, mask, group)."""


def collide_all(scene: RigidScene, bodies: list[RigidBody], table: ShapeTable,
                asleep: np.ndarray | None) -> tuple[Found, int]:
    """Manifolds of the awake bodies, placed where the step started (``table.memory`` keeps it, and each
    body's sleep flag; ``asleep``: those flags, needed only when kinematic bodies or characters are in the
    scene), against everything they may touch, ``speculative_distance`` early, with each one's touch summary;
    pairs whose collision filters say no are left out. Static segments and bodies in one compiled call
    (:func:`~engine.world.collide_kernel.gather_in`; each body's near segments kept from step to step; the
    seam rule applied); kinematic bodies and characters come first. Returns them and how many bodies are
    awake."""
    cfg = scene.config
    ready_to_gather(table, scene.static)
    ints, floats, flags, wakers, static_count, awake_count = gather_in(
        table.memory, float(cfg.candidate_padding), float(cfg.speculative_distance), float(cfg.linear_slop),
        DEFAULT_FILTER_ROW)
    found = Found((ints, floats, flags), wakers=wakers, make=_Gathered(table.bodies, static_count))
    if scene.kinematic_bodies or scene.characters:
        assert asleep is not None, "the sleep flags are needed with kinematic bodies or characters"
        movers = _collide_movers(scene, bodies, gathered_boxes(table.memory), asleep)
        if movers is not None:
            found = movers.followed_by(found)
    return found, awake_count


class _Gathered:
    """Makes participants A and B of the contacts :func:`collide_all` gathered in its compiled call (the
    static ones first, A a segment index; ``listed``: the table's own list of bodies, which never changes: the
    deferred lists may be made later)."""

    __slots__ = ("listed", "static_count")

    def __init__(self, listed: list[RigidBody], static_count: int) -> None:
        self.listed, self.static_count = listed, static_count

    def __call__(self, packed: Any) -> tuple[Sequence[Any], Sequence[Any]]:
        found: Found = packed
        listed, static_count = self.listed, self.static_count

        def make_a() -> list:
            a_rows = found.a_rows
            return a_rows[:static_count].tolist() + pick(listed, a_rows[static_count:])

        return (DeferredList(make_a, lambda index: self.a_at(found, index)),
                DeferredList(lambda: pick(listed, found.b_index), lambda index: pick(listed, found.b_index[index])))

    def a_at(self, found: Found, rows: np.ndarray) -> list:
        """Participant A of the contacts ``rows``: a segment index for a static contact, else a body."""
        listed, static_count = self.listed, self.static_count
        return [a if at < static_count else listed[a] for at, a in zip(rows.tolist(), found.a_rows[rows].tolist())]

    def pairs(self, packed: Any, rows: np.ndarray) -> list[tuple[Any, Any]]:
        found: Found = packed
        return list(zip(self.a_at(found, rows), pick(self.listed, found.b_index[rows])))


class ByRow:
    """Makes participants A and B of a contact set of awake bodies and static geometry only (a step made in
    one compiled call, :func:`~engine.world.step_kernel.step_in`) from the set's own rows: B is the body at
    ``b_index``, A the body at ``a_index`` or, where that is -1, the static segment whose index the contact's
    key holds (:data:`~engine.world.collide_kernel.KEY_A_SHIFT`). ``listed``: the table's own list of bodies,
    which never changes (the deferred lists may be made later)."""

    __slots__ = ("listed",)

    def __init__(self, listed: list[RigidBody]) -> None:
        self.listed = listed

    def __call__(self, packed: Any) -> tuple[Sequence[Any], Sequence[Any]]:
        contacts: ContactSet = packed
        everything = np.arange(len(contacts))
        return (DeferredList(lambda: self.a_at(contacts, everything), lambda index: self.a_at(contacts, index)),
                DeferredList(lambda: pick(self.listed, contacts.b_index),
                             lambda index: pick(self.listed, contacts.b_index[index])))

    def a_at(self, contacts: ContactSet, rows: np.ndarray) -> list:
        """Participant A of the contacts ``rows``: a segment index for a static contact, else a body."""
        listed = self.listed
        segments = ((contacts.keys[rows] >> KEY_A_SHIFT) & KEY_A_MASK).tolist()
        return [listed[a] if a >= 0 else segment for a, segment in zip(contacts.a_index[rows].tolist(), segments)]

    def pairs(self, packed: Any, rows: np.ndarray) -> list[tuple[Any, Any]]:
        contacts: ContactSet = packed
        return list(zip(self.a_at(contacts, rows), pick(self.listed, contacts.b_index[rows])))


def _collide_movers(scene: RigidScene, bodies: list[RigidBody], box_array: np.ndarray,
                    asleep: np.ndarray) -> Found | None:
    """Kinematic bodies and characters (few) against the awake bodies: scalar. They already moved this step;
    the solver sweeps them again, from where they started, at the speed they moved, so crates are carried,
    not dragged. ``None`` when none touches one."""
    margin = scene.config.speculative_distance
    awake = np.flatnonzero(~asleep).tolist()
    movers: list[tuple[int, int, Any, Transform]] = [
        (KINEMATIC, i, kin, kin.previous_transform) for i, kin in enumerate(scene.kinematic_bodies)
    ] + [(CHARACTER, i, ch, Transform(ch.previous_position or ch.position)) for i, ch in enumerate(scene.characters)]
    mover_boxes = np.array([mover.shape.aabb(start) for _, _, mover, start in movers], dtype=np.float64).reshape(-1, 4)
    rows: list[tuple[int, int, int, int, Manifold]] = []
    a_list, b_list = [], []
    for n, j in zip(*(index.tolist() for index in touching_pairs(mover_boxes, box_array[awake]))):
        kind, i, mover, start = movers[n]
        k = awake[j]
        if not mover.filter.touches(bodies[k].filter):
            continue
        m = collide(mover.shape, start, bodies[k].shape, bodies[k].transform, margin)
        if m is not None:
            rows.append((_key(kind, i, bodies[k].id), kind, i, k, m))
            a_list.append(mover)
            b_list.append(bodies[k])
    return _manifolds_found(rows, a_list, b_list, asleep, scene.config.linear_slop) if rows else None


def _manifolds_found(rows: list[tuple[int, int, int, int, Manifold]], a: list, b: list, asleep: np.ndarray,
                     slop: float) -> Found:
    """Contacts of scalar manifolds (key, A's kind, A's row, B's body row, manifold), A not a rigid body."""
    count = len(rows)
    point, separation = np.zeros((count, 2, 2)), np.full((count, 2), np.inf)
    ids, valid = np.zeros((count, 2), dtype=np.int64), np.zeros((count, 2), dtype=bool)
    for r, (_, _, _, _, m) in enumerate(rows):
        for j, p in enumerate(m.points):
            point[r, j], separation[r, j], ids[r, j], valid[r, j] = p.point, p.separation, p.id, True
    keys, kind, a_rows, b_index = (np.array([row[c] for row in rows], dtype=np.int64) for c in range(4))
    a_index = np.full(count, -1, dtype=np.int64)
    normal = np.array([row[4].normal for row in rows], dtype=np.float64).reshape(-1, 2)
    closest, touching, wakers = touch_summary(separation, valid, kind, a_index, b_index, asleep, float(slop))
    return Found.of([keys, kind, a_rows, a_index, b_index, ids, normal, point, separation, closest, valid, touching],
                    a, b, wakers)


def overlapping_pairs(boxes: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (lo, hi) of overlapping boxes ((K, 4): min_x, min_y, max_x, max_y), ``lo`` the one with the
    lower id, sorted by (lo, hi): sweep and prune along x (compiled,
    :func:`~engine.world.collide_kernel.overlapping_boxes`)."""
    return overlapping_boxes(boxes, ids)


def world_polys(table: ShapeTable, margin: float, position: np.ndarray, angle: np.ndarray) -> dict:
    """What collision needs of the bodies' placement this step: ``"placement"``, every body's (x, y, angle)
    row (px, radians), and ``"box_array"``, every body's box grown by its radius and ``margin`` as a (K, 4)
    array (min_x, min_y, max_x, max_y); compiled (:func:`~engine.world.collide_kernel.body_boxes`)."""
    placement, box_array = body_boxes(table.vertices, table.offsets, table.radius, position, angle, float(margin))
    return {"placement": placement, "box_array": box_array}
