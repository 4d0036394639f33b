"""What the compiled rigid-body step keeps from call to call, held in compiled code (a numba structref).

Every array numba hands back to Python costs about 0.3 us (it looks up the array's Python type through a
pickle cache), and every array handed in costs about 0.04 us. A ten-crate step used to hand back some twenty
arrays and take some sixty: a third of its time. What only the compiled calls read (the bodies' shape table,
the level's arrays, each body's near segments, the sweep order, the placement at step start, the boxes) now
stays in one :class:`StepMemory`; a call takes it as one argument, and Python reads its arrays only when it
needs them (kinematic bodies and characters near, sleepers, events, continuous collision), through this
module's readers (:func:`step_start`, :func:`gathered_boxes`, :func:`gathered_awake`, :func:`solve_results`,
:func:`event_data`, :func:`sweep_candidates`).

Fields (px, radians; K bodies, N static segments):

- the shape table (:class:`~engine.world.contacts.ShapeTable`'s arrays, shared, not copied): ``vertices``,
  ``normals``, ``offsets``, ``radius``, ``ids``, ``count``, ``sleep_extent``, ``reach`` and the bodies'
  collision filters (``category``, ``mask``, ``group``; empty when all are the default);
- the level (:meth:`set_level`): the grid (``cell_size``, ``cell_keys``, ``cell_starts``, ``members``), the
  segments (``ends_a``, ``ends_b``, ``side``, ``segment_radius``, ``segment_boxes``, ``segment_joint``), the
  joint table (``joint_ends``, ``joint_order``, ``joint_start``, ``joint_size``) and the segments' filters;
- the near lists (``near_box``, ``near_start``, ``near_members``) and the last gathering's awake rows, their
  candidate bodies and segments (``kept_awake``, ``kept_bodies``, ``kept_segments``), and ``sweep_order``;
- this step's start: ``position`` (K, 2), ``angle`` (K,), ``asleep`` (K,), the boxes (K, 4), each
  angle's cos and sin (``trig``, (K, 2): made once a step, for the manifolds and the solve), the placement
  as the manifolds read it (``placement``, (K, 3): x, y, angle) and the awake rows the solve moves
  (``awake``); the gathering writes the boxes, ``trig`` and ``placement`` in place (they are read only within
  a step);
- where a whole step in one call (:func:`~engine.world.step_kernel.step_in`) left what it found besides the
  contacts, in the solve's scratch: the awake rows' motion (ending at ``motion_end``) and the rows that moved
  fast, began and ended touching (``changes_start`` to ``changes_end``), as
  :func:`~engine.world.step_kernel.solve_contacts` returns them (read with :func:`solve_results`);
- the participants of the pairs that began and ended touching in the last one-call step, when there were
  more than the table's event room holds (``event_parts``: A, then B, as
  :func:`~engine.world.step_kernel.step_in` writes them) and the normals of those that began
  (``event_normals``), read with :func:`event_data`; and the fast awake rows whose sweep may meet the level
  (``may_hit``: indices into ``awake``), read with :func:`sweep_candidates`;
- the one-call step's inputs (:func:`set_step_inputs`): the bodies' state rows (``numbers``), the last
  step's contacts, packed (``contact_ints``, ``contact_floats``, ``contact_flags``: the contacts that step
  made, unless Python handed others), the solve's ``params`` and ``settings`` and the ``default_filter``;
  and where it writes its events (``parts_room``, ``normals_room``: :func:`set_event_room`). Handing a
  dozen arrays to every call cost about 0.5 us of unboxing;
- the contacts the last one-call step started from (``previous_ints``, ``previous_floats``,
  ``previous_flags``): with the ones it made, read by Python only when it needs them
  (:func:`kept_contacts`). Handing three arrays back to Python at every step cost about 0.9 us;
- the gathering's, the solve's and the body pairs' sweep's scratch (``gather_floats``, ``gather_ints``,
  ``gather_flags``, ``solve_floats``, ``solve_ints``, ``solve_flags``, ``sweep_floats``, ``sweep_ints``,
  ``sweep_flags``: :func:`grow_scratch`), out of which they carve their temporary arrays, kept from
  step to step;
- the contacts the one-call step's gathering found (``found_ints``, ``found_floats``, ``found_flags``: buffers
  grown by :func:`grow_scratch`, the first ``found_count`` contacts packed, then room for the rows that
  wake a sleeper), read within the step;
- the last solve's graph colouring, packed (``colour_ints``, ``colour_flags``: see
  :func:`~engine.world.step_kernel.colouring_arrays`), which the next solve reuses while the same pairs touch
  the same rows the same way.

The compiled calls are the only writers (:mod:`engine.world.collide_kernel`, :mod:`engine.world.step_kernel`);
:class:`~engine.world.contacts.ShapeTable` makes one per table.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.core import cgutils, types
from numba.core.errors import NumbaError
from numba.experimental import structref
from numba.extending import intrinsic

__all__ = ["FOUND_BUFFERS", "GATHER_SCRATCH", "SOLVE_SCRATCH", "SWEEP_SCRATCH", "StepMemory", "borrowed",
           "event_data", "gathered_awake", "gathered_boxes", "grow_scratch", "kept_contacts", "new_step_memory",
           "scratch_short", "set_awake", "set_event_room", "set_level", "set_step_inputs", "solve_results",
           "step_start", "sweep_candidates", "warm_up_memory"]

_jit = numba.njit(cache=True, nogil=True, fastmath=False)
_without_runtime = numba.njit(cache=True, nogil=True, fastmath=False, _nrt=False)  # type: ignore[call-overload]

_FLOATS, _FLOATS_2D = types.float64[::1], types.float64[:, ::1]
_INTS, _FLAGS = types.int64[::1], types.bool_[::1]
_FIXED, _FIXED_2D = types.Array(types.float64, 1, "C", readonly=True), types.Array(types.float64, 2, "C", readonly=True)
"""(The static broad phase's arrays are read-only; numba types them apart from writable ones.)"""

_FIELDS = [
    ("vertices", _FLOATS_2D), ("normals", _FLOATS_2D), ("offsets", _INTS), ("radius", _FLOATS), ("ids", _INTS),
    ("count", _INTS), ("sleep_extent", _FLOATS), ("reach", _FLOATS), ("category", _INTS), ("mask", _INTS),
    ("group", _INTS),
    ("cell_size", types.float64), ("cell_keys", _INTS), ("cell_starts", _INTS), ("members", _INTS),
    ("ends_a", _FIXED_2D), ("ends_b", _FIXED_2D), ("side", _FLOATS_2D), ("segment_radius", _FIXED),
    ("segment_boxes", _FIXED_2D), ("segment_joint", _FLAGS), ("joint_ends", _FLOATS_2D), ("joint_order", _INTS),
    ("joint_start", _INTS), ("joint_size", _INTS), ("segment_category", _INTS), ("segment_mask", _INTS),
    ("segment_group", _INTS),
    ("near_box", _FLOATS_2D), ("near_start", _INTS), ("near_members", _INTS), ("kept_awake", _INTS),
    ("kept_bodies", _INTS), ("kept_segments", _INTS), ("sweep_order", _INTS),
    ("position", _FLOATS_2D), ("angle", _FLOATS), ("asleep", _FLAGS), ("boxes", _FLOATS_2D), ("trig", _FLOATS_2D),
    ("placement", _FLOATS_2D),
    ("awake", _INTS),
    ("motion_end", types.int64), ("changes_start", types.int64), ("changes_end", types.int64),
    ("colour_ints", _INTS), ("colour_flags", _FLAGS),
    ("event_parts", types.int64[:, ::1]), ("event_normals", _FLOATS_2D), ("may_hit", _INTS),
    ("numbers", _FLOATS_2D), ("contact_ints", _INTS), ("contact_floats", _FLOATS), ("contact_flags", _FLAGS),
    ("previous_ints", _INTS), ("previous_floats", _FLOATS), ("previous_flags", _FLAGS),
    ("params", _FLOATS_2D), ("settings", _FLOATS), ("default_filter", _INTS), ("parts_room", types.int64[:, ::1]),
    ("normals_room", _FLOATS_2D),
    ("gather_floats", _FLOATS), ("gather_ints", _INTS), ("gather_flags", _FLAGS), ("solve_floats", _FLOATS),
    ("solve_ints", _INTS), ("solve_flags", _FLAGS), ("sweep_floats", _FLOATS), ("sweep_ints", _INTS),
    ("sweep_flags", _FLAGS), ("found_ints", _INTS), ("found_floats", _FLOATS), ("found_flags", _FLAGS),
    ("found_count", types.int64),
]


@structref.register
class StepMemoryType(types.StructRef):
    """numba's type of :class:`StepMemory`."""


STEP_MEMORY = StepMemoryType(_FIELDS)


class StepMemory(structref.StructRefProxy):
    """Python's handle on a step memory (made by :func:`new_step_memory`; its fields are read in compiled
    code, or through the functions of this module)."""


structref.define_boxing(StepMemoryType, StepMemory)


@intrinsic
def borrowed(typingctx, m, name):
    """Field ``name`` (a literal string) of the step memory ``m``, borrowed: for the kernels' runtime-free
    functions, which cannot read a field the usual way (numba reads it through its runtime, counting a
    reference). A field read and handed to a call in a function with the runtime costs two counted
    references, about 13 ns; the step's glue handed on some sixty a step. The caller must not keep it past
    the memory, nor assign the field (assigning needs the runtime)."""
    if not (isinstance(m, StepMemoryType) and isinstance(name, types.StringLiteral)):
        return None
    field = name.literal_value
    result = m.field_dict[field]

    def codegen(context, builder, signature, args):
        if context.enable_nrt:
            raise NumbaError("borrowed() reads a field without counting it: for runtime-free functions only")
        meminfo = cgutils.create_struct_proxy(m)(context, builder, value=args[0]).meminfo
        # (numba's MemInfo: reference count, destructor, its argument, then the data pointer; see its nrt.cpp)
        slots = builder.bitcast(meminfo, cgutils.voidptr_t.as_pointer())
        data = builder.load(builder.gep(slots, [cgutils.int32_t(3)]))
        struct_type = m.get_data_type()
        data_pointer = builder.bitcast(data, context.get_value_type(struct_type).as_pointer())
        return getattr(cgutils.create_struct_proxy(struct_type)(context, builder, ref=data_pointer), field)

    return result(m, name), codegen


@_jit
def new_step_memory(vertices, normals, offsets, radius, ids, count, sleep_extent, reach, category, mask, group):
    """A memory for K bodies of this shape table (see the module docstring), without a level yet (give it one
    with :func:`set_level` before the first gathering)."""
    m = structref.new(STEP_MEMORY)
    m.vertices, m.normals, m.offsets, m.radius, m.ids, m.count = vertices, normals, offsets, radius, ids, count
    m.sleep_extent, m.reach, m.category, m.mask, m.group = sleep_extent, reach, category, mask, group
    bodies = len(ids)
    m.sweep_order = np.arange(bodies)
    m.position, m.angle = np.zeros((bodies, 2)), np.zeros(bodies)
    m.asleep, m.boxes, m.awake = np.zeros(bodies, dtype=np.bool_), np.zeros((bodies, 4)), np.zeros(0, dtype=np.int64)
    m.trig, m.placement = np.zeros((bodies, 2)), np.zeros((bodies, 3))
    m.motion_end = m.changes_start = m.changes_end = 0
    m.colour_ints, m.colour_flags = np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.bool_)  # (no contacts' colouring)
    m.event_parts, m.event_normals, m.may_hit = np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2)), m.awake
    m.near_box, m.near_start = np.empty((bodies, 4)), np.empty(bodies + 1, dtype=np.int64)
    _forget_near(m)
    m.numbers, m.params, m.settings = np.zeros((0, 0)), np.zeros((0, 0)), np.zeros(0)  # (none handed yet)
    m.contact_ints, m.contact_floats, m.contact_flags = m.awake, m.settings, m.asleep[:0]
    m.previous_ints, m.previous_floats, m.previous_flags = m.awake, m.settings, m.asleep[:0]
    m.default_filter, m.parts_room, m.normals_room = m.awake, m.event_parts, m.event_normals
    m.gather_floats, m.gather_ints, m.gather_flags = m.settings, m.awake, m.asleep[:0]
    m.solve_floats, m.solve_ints, m.solve_flags = m.settings, m.awake, m.asleep[:0]
    m.sweep_floats, m.sweep_ints, m.sweep_flags = m.settings, m.awake, m.asleep[:0]
    m.found_ints, m.found_floats, m.found_flags, m.found_count = m.awake, m.settings, m.asleep[:0], 0
    return m


@_jit
def _forget_near(m):
    """No body has near segments looked up yet (a new level)."""
    for k in range(len(m.near_box)):
        m.near_box[k, 0], m.near_box[k, 1], m.near_box[k, 2], m.near_box[k, 3] = np.inf, np.inf, -np.inf, -np.inf
    m.near_start[:] = 0
    m.near_members = np.zeros(0, dtype=np.int64)
    m.kept_awake, m.kept_bodies, m.kept_segments = m.near_members, m.near_members, m.near_members


@_jit
def set_level(m, cell_size, cell_keys, cell_starts, members, ends_a, ends_b, side, segment_radius, segment_boxes,
              segment_joint, joints, segment_filters):
    """Gather against this level from now on (its broad phase's grid and segments, each segment's side normal
    and joint flag, the joint table and the segments' filters: category, mask, group, empty when all are the
    default); the near lists start afresh."""
    m.cell_size, m.cell_keys, m.cell_starts, m.members = cell_size, cell_keys, cell_starts, members
    m.ends_a, m.ends_b, m.side, m.segment_radius, m.segment_boxes = ends_a, ends_b, side, segment_radius, segment_boxes
    m.segment_joint = segment_joint
    m.joint_ends, m.joint_order, m.joint_start, m.joint_size = joints
    m.segment_category, m.segment_mask, m.segment_group = segment_filters
    _forget_near(m)


@_jit
def set_step_inputs(m, numbers, contact_ints, contact_floats, contact_flags, params, settings, default_filter):
    """What the next one-call step (:func:`~engine.world.step_kernel.step_in`) starts from: the bodies' state
    rows (the world's own, written in place), the last step's contacts (packed: see
    :func:`~engine.world.step_kernel.contact_arrays`), the solve's parameters and settings and the default
    collision filter. Handed when one of them is not what the memory holds (a one-call step keeps the contacts
    it made itself)."""
    m.numbers, m.params, m.settings, m.default_filter = numbers, params, settings, default_filter
    m.contact_ints, m.contact_floats, m.contact_flags = contact_ints, contact_floats, contact_flags


GATHER_SCRATCH, SOLVE_SCRATCH, SWEEP_SCRATCH, FOUND_BUFFERS = 0, 1, 2, 3
"""The kinds of scratch a memory keeps (see the module docstring), for :func:`scratch_short` and
:func:`grow_scratch`: the gathering's, the solve's, the body pairs' sweep's, and the found contacts' buffers."""


@_without_runtime
def scratch_short(m, kind, float_size, int_size, flag_size):
    """Whether the memory ``m``'s scratch of ``kind`` (its float, int and flag arrays) is shorter than the
    sizes asked for. Runtime-free: the usual step asks at every stage and grows nothing."""
    if kind == GATHER_SCRATCH:
        floats, ints, flags = borrowed(m, "gather_floats"), borrowed(m, "gather_ints"), borrowed(m, "gather_flags")
    elif kind == SOLVE_SCRATCH:
        floats, ints, flags = borrowed(m, "solve_floats"), borrowed(m, "solve_ints"), borrowed(m, "solve_flags")
    elif kind == SWEEP_SCRATCH:
        floats, ints, flags = borrowed(m, "sweep_floats"), borrowed(m, "sweep_ints"), borrowed(m, "sweep_flags")
    else:
        floats, ints, flags = borrowed(m, "found_floats"), borrowed(m, "found_ints"), borrowed(m, "found_flags")
    return len(floats) < float_size or len(ints) < int_size or len(flags) < flag_size


@_jit
def grow_scratch(m, kind, float_size, int_size, flag_size):
    """The memory ``m``'s scratch of ``kind`` made at least this long when it is short (:func:`_grown`). The
    step's stages carve their temporary arrays out of the memory's scratch, which lasts: new arrays every step
    cost about 35 ns each, and counted references in every function that handles them. (Call it when
    :func:`scratch_short` says so: a call of a function with numba's runtime counts the memory handed to it.)"""
    if not scratch_short(m, kind, float_size, int_size, flag_size):
        return
    if kind == GATHER_SCRATCH:
        m.gather_floats, m.gather_ints, m.gather_flags = (_grown(m.gather_floats, float_size),
                                                          _grown(m.gather_ints, int_size),
                                                          _grown(m.gather_flags, flag_size))
    elif kind == SOLVE_SCRATCH:
        m.solve_floats, m.solve_ints, m.solve_flags = (_grown(m.solve_floats, float_size),
                                                       _grown(m.solve_ints, int_size), _grown(m.solve_flags, flag_size))
    elif kind == SWEEP_SCRATCH:
        m.sweep_floats, m.sweep_ints, m.sweep_flags = (_grown(m.sweep_floats, float_size),
                                                       _grown(m.sweep_ints, int_size), _grown(m.sweep_flags, flag_size))
    else:
        m.found_floats, m.found_ints, m.found_flags = (_grown(m.found_floats, float_size),
                                                       _grown(m.found_ints, int_size), _grown(m.found_flags, flag_size))


@_jit
def _grown(scratch, size):
    """New scratch of ``scratch``'s kind for ``size`` items or more: twice that (a pile that outgrew it will
    likely grow more), never shorter than it was."""
    return np.empty(max(2 * size, len(scratch)), scratch.dtype)


@_jit
def kept_contacts(m, previous):
    """The contacts (packed) the last one-call step made, or (``previous``) those it started from."""
    if previous:
        return m.previous_ints, m.previous_floats, m.previous_flags
    return m.contact_ints, m.contact_floats, m.contact_flags


@_jit
def set_event_room(m, parts_room, normals_room):
    """Where the one-call step writes its events' participants ((n, 2)) and normals ((n, 2)) when they fit:
    arrays Python owns (:attr:`~engine.world.contacts.ShapeTable.event_room`)."""
    m.parts_room, m.normals_room = parts_room, normals_room


@_jit
def step_start(m):
    """This step's start: every body's position ((K, 2) px), angle (rad) and sleep flag. The arrays are the
    memory's own: clearing a flag (a woken body) is seen by the gathering that follows."""
    return m.position, m.angle, m.asleep


@_jit
def gathered_boxes(m):
    """Every body's box (K, 4) as the last gathering made it (grown by the speculative distance)."""
    return m.boxes


@_jit
def gathered_awake(m):
    """The awake rows the solve moves (ascending)."""
    return m.awake


@_jit
def solve_results(m):
    """What the last whole step in one call found besides its contacts: the awake rows' motion and the rows
    that moved fast, began and ended touching (:func:`~engine.world.step_kernel.solve_contacts`' ``body_out``
    and ``changes``: views of the solve's scratch, to be read within the step)."""
    return m.solve_floats[m.motion_end - 5 * len(m.awake):m.motion_end], m.solve_ints[m.changes_start:m.changes_end]


@_jit
def event_data(m):
    """The participants of the pairs that began, then ended, touching in the last one-call step ((n, 2): A as
    a body row, or -1 - its segment index for static geometry; B's body row) and the normals of those that
    began ((b, 2))."""
    return m.event_parts, m.event_normals


@_jit
def sweep_candidates(m):
    """What continuous collision needs after a one-call step: the awake rows' motion (``body_out``, see
    :func:`solve_results`), the fast rows whose sweep may meet the level (indices into the awake rows), and
    the awake rows."""
    return solve_results(m)[0], m.may_hit, m.awake


@_jit
def set_awake(m, rows):
    """The solve moves ``rows`` (ascending): the awake bodies after some woke since the gathering."""
    m.awake = rows


def warm_up_memory() -> StepMemory:
    """A memory of one 2 px box over one floor segment (for compiling the kernels ahead,
    :func:`engine.warm_up`)."""
    box = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    box_normals = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    one, none = np.ones(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    m = new_step_memory(box, box_normals, np.array([0, 4]), np.zeros(1), one - 1, one * 4, np.ones(1), np.ones(1),
                        none, none, none)
    ends_a, ends_b, segment_radius = np.array([[-5.0, 0.0]]), np.array([[5.0, 0.0]]), np.ones(1)
    segment_boxes = np.array([[-6.0, -1.0, 6.0, 1.0]])
    for fixed in (ends_a, ends_b, segment_radius, segment_boxes):
        fixed.setflags(write=False)  # (as the static broad phase holds them)
    joints = (np.concatenate([ends_a, ends_b]), np.array([0, 1]), np.array([0, 1]), np.ones(2, dtype=np.int64))
    set_level(m, 64.0, np.array([2**31 - 1, 2**31], dtype=np.int64), np.array([0, 1, 1]), one - 1, ends_a, ends_b,
              np.array([[0.0, -1.0]]), segment_radius, segment_boxes, np.zeros(1, dtype=np.bool_), joints,
              (none, none, none))
    return m
