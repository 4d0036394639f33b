"""The rigid-body step's glue, compiled (numba): a few calls per step instead of a few hundred small numpy
operations; Python objects are made only for what happens (events, woken sleepers, continuous hits).

:func:`begin_in` starts the step (previous placement; the start placement and sleep flags go into the step
memory, :mod:`engine.world.step_memory`); which contacts touch
and which sleepers an awake body wakes is the gathering's (:mod:`engine.world.collide_kernel`);
:func:`rest_and_sleep` counts rest times and puts resting groups (islands of touching bodies) to sleep;
:func:`sweep_may_hit` picks the fast bodies whose sweep may meet static geometry (continuous collision).

:func:`solve_contacts` does what :mod:`engine.world.solver` describes, in the same arithmetic order as the
numpy code it replaced (bit-identical results): which contacts are light, the graph colours (kept from the
last step while the same pairs touch the same rows the same way), the contacts in colour order, which pairs
are of uneven mass (and so how many substeps), the contact table with warm starting
(:func:`~engine.world.warmstart.fill_table`), the body rows, the solve
(:func:`~engine.world.kernel.solve_into`), the awake bodies' new placement and velocity, written into the
world's state array, and which pairs began and ended touching. Most of it runs without numba's runtime in
scratch arrays it makes once (:func:`_solve_prepared`).

:func:`common_participants` makes the solver rows of the usual contacts (awake bodies against each other and
against static geometry) at once; contacts of kinematic bodies, characters and sleepers take the Python path
in the solver, which hands the same arrays.

Rows (``rows``, (R, 8)): velocity (px/s, px/s, rad/s), inverse mass, inverse inertia, centre (px) and angle
(rad) at step start; the awake dynamic bodies first (``dynamic_rows``), then fixed rows (inverse mass 0).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from ..bodies import (
    ANGLE, FRICTION, GRAVITY_SCALE, INV_INERTIA, INV_MASS, PLACED, PREVIOUS_X, RESTITUTION, SLEEP_TIME, SLEEPING,
    STATE_COLUMNS, VX, X, Y,
)
from .kernel import (
    BODY_COLUMNS, CONTACT_COLUMNS, DT, DYNAMIC_ROWS, GRAVITY_Y, MAX_SPEED, PARAMETERS, SUBSTEPS, solve_into,
    shaped, solve_scratch_size,
)
from .kernel import ANGLE as BODY_ANGLE
from .kernel import CENTER_X as BODY_CENTER_X
from .kernel import INV_INERTIA as BODY_INV_INERTIA
from .kernel import INV_MASS as BODY_INV_MASS
from .kernel import MAX_SPIN as BODY_MAX_SPIN
from .collide_kernel import (
    KEY_A_MASK, KEY_A_SHIFT, found_arrays, found_kept, found_of, found_views, gather_into, packed_found, same_values,
)
from .step_memory import (
    SOLVE_SCRATCH, borrowed, event_data, gathered_awake, gathered_boxes, grow_scratch, kept_contacts, scratch_short,
    set_awake, set_event_room, set_step_inputs, solve_results, step_start, sweep_candidates, warm_up_memory,
)
from .warmstart import carried_in_order, colour_numbers, fill_table, rows_by_key

__all__ = ["FixedTypes", "ROW_COLUMNS", "SETTINGS", "all_asleep_in_place", "begin_in", "colouring_arrays",
           "common_participants", "compile_steps", "contact_arrays", "packed_colouring", "packed_contacts",
           "rest_and_sleep", "rest_and_sleep_in", "solve_common_contacts", "solve_contacts", "step_in", "step_motion",
           "sweep_may_hit"]

_jit = numba.njit(cache=True, nogil=True, fastmath=False)
_inline = numba.njit(inline="always", fastmath=False)
_without_runtime = numba.njit(cache=True, nogil=True, fastmath=False, _nrt=False)  # type: ignore[call-overload]
"""What allocates nothing: compiled without numba's runtime (a call with it counts every array handed in and
out, about 10 ns each)."""

SETTINGS = ("gravity x", "gravity y", "dt", "light gap", "uneven mass ratio", "rotation error", "candidate padding",
            "speculative distance", "linear slop", "sleep on", "sleep velocity", "time to sleep", "continuous on")
"""The step's ``settings`` vector, in order: gravity (px/s^2), the step (s), the light gap (px), the uneven mass
ratio, the rotation error allowed (px), then :func:`step_in`'s: the near lists' padding, the speculative
distance and the slop (px), whether sleep is on (1.0 or 0.0), the rest speed (px/s) and time (s), whether
continuous collision is on (1.0 or 0.0)."""

ROW_COLUMNS = 8
"""Columns of ``rows``: vx, vy, w, inverse mass, inverse inertia, centre x, centre y, angle."""
_STATIC_KIND, _DYNAMIC_KIND = 0, 3
"""(``engine.world.contacts.STATIC`` and ``DYNAMIC``; a test checks they agree.)"""


# A step's contacts and colouring go back to Python as a few packed buffers, not as two dozen arrays: handing
# an array that numba made to Python costs 0.3 us each, a tenth of a ten-crate step. The kernels carve the
# arrays out of the buffers here; Python reads them through :class:`~engine.world.contacts.ContactSet`
# (``CONTACT_FIELDS``: a test checks the two agree).


def _contact_layout(ints, floats, flags):
    """The arrays of a packed contact set (``ints``, ``floats``, ``flags``: 5, 18 and 5 values a contact), as
    views: keys, ids (m, 2), valid (m, 2), normal (m, 2), point (m, 2, 2), impulse (m, 4), sliding (m, 2),
    anchors (m, 2, 4), touching, a_index, b_index."""
    m = len(ints) // 5
    keys, ids, a_index, b_index = ints[:m], shaped(ints[m:3 * m], (m, 2)), ints[3 * m:4 * m], ints[4 * m:5 * m]
    normal, point = shaped(floats[:2 * m], (m, 2)), shaped(floats[2 * m:6 * m], (m, 2, 2))
    impulse, anchors = shaped(floats[6 * m:10 * m], (m, 4)), shaped(floats[10 * m:18 * m], (m, 2, 4))
    valid, touching, sliding = shaped(flags[:2 * m], (m, 2)), flags[2 * m:3 * m], shaped(flags[3 * m:5 * m], (m, 2))
    return keys, ids, valid, normal, point, impulse, sliding, anchors, touching, a_index, b_index


contact_arrays = _jit(_contact_layout)
_contact_views = _inline(_contact_layout)
"""(The same views inside runtime-free code, where carving them costs no reference counting.)"""


@_jit
def contact_buffers(m):
    """Room for ``m`` packed contacts (see :func:`contact_arrays`); only the impulses and anchors are zeroed
    (the rest is written over)."""
    floats = np.empty(18 * m)
    floats[6 * m:] = 0.0
    return np.empty(5 * m, dtype=np.int64), floats, np.empty(5 * m, dtype=np.bool_)


@_jit
def packed_contacts(keys, ids, valid, normal, point, impulse, sliding, anchors, touching, a_index, b_index):
    """The packed buffers of a contact set given array by array (made in Python: an empty set, a sleeping
    pile's contacts carried over)."""
    ints, floats, flags = contact_buffers(len(keys))
    (keys_to, ids_to, valid_to, normal_to, point_to, impulse_to, sliding_to, anchors_to, touching_to, a_index_to,
     b_index_to) = contact_arrays(ints, floats, flags)
    keys_to[:], ids_to[:], valid_to[:], normal_to[:], point_to[:], impulse_to[:] = keys, ids, valid, normal, point, \
        impulse
    sliding_to[:], anchors_to[:], touching_to[:], a_index_to[:], b_index_to[:] = sliding, anchors, touching, a_index, \
        b_index
    return ints, floats, flags


def _colouring_layout(ints, flags):
    """The arrays of a packed colouring (``ints``: 3 values a contact and the colours' starts; ``flags``: one
    a contact and one a colour), as views: each contact's rows of A and B and light flag (in the order found),
    the contacts in colour order, each colour's first contact (and the end), which colours are light."""
    m = (len(ints) - len(flags) - 1) // 2
    return ints[:m], ints[m:2 * m], flags[:m], ints[2 * m:3 * m], ints[3 * m:], flags[m:]


colouring_arrays = _jit(_colouring_layout)
_colouring_views = _inline(_colouring_layout)


@_jit
def packed_colouring(rows_a, rows_b, light, order, starts, light_colours):
    """The packed buffers of a colouring given array by array."""
    m, colours = len(rows_a), len(light_colours)
    ints, flags = np.empty(3 * m + colours + 1, dtype=np.int64), np.empty(m + colours, dtype=np.bool_)
    ints[:m], ints[m:2 * m], ints[2 * m:3 * m], ints[3 * m:] = rows_a, rows_b, order, starts
    flags[:m], flags[m:] = light, light_colours
    return ints, flags


@_jit
def begin_in(m, numbers, may_rest):
    """Start the step in the memory ``m`` (a :class:`~engine.world.step_memory.StepMemory`): every body
    remembers its placement at the start of the step (what ``previous_transform`` reads) and is no longer
    marked as placed by game code; the memory keeps every body's position ((K, 2) px), angle (rad) and sleep
    flag at step start. Returns how many bodies sleep; -1 when ``may_rest`` (nothing moves that could wake a
    sleeper) and every body sleeps and game code placed none since the last step (then nothing is written:
    the step has nothing to do)."""
    return _started(_begin_rows_in(m, numbers, may_rest))


@_without_runtime
def _begin_rows_in(m, numbers, may_rest):
    """:func:`begin_in`'s work, runtime-free: how many bodies sleep, -1 when the step has nothing to do,
    :data:`_OTHER_BODIES` when ``numbers`` are another set of bodies' than the memory's."""
    if may_rest and all_asleep_in_place(numbers):
        return -1
    angle = borrowed(m, "angle")
    if len(angle) != len(numbers):  # (the world makes a new table, and memory, whenever its bodies change)
        return _OTHER_BODIES
    return _begin_rows(numbers, borrowed(m, "position"), angle, borrowed(m, "asleep"))


_OTHER_BODIES = -2


@_jit
def _started(sleeping):
    """``sleeping`` as :func:`begin_in` returns it; raises when the memory is another set of bodies'."""
    if sleeping == _OTHER_BODIES:
        raise ValueError("the step memory is another set of bodies' (its table is out of date)")
    return sleeping


@_without_runtime
def _begin_memory(m):
    """:func:`_begin_rows_in` of the state rows the memory holds (the one-call step's: nothing can wake a
    sleeper there)."""
    return _begin_rows_in(m, borrowed(m, "numbers"), True)


@_without_runtime
def _begin_rows(numbers, position, angle, asleep):
    """:func:`begin_in`'s writes; returns how many bodies sleep."""
    sleeping = 0
    for k in range(len(numbers)):
        for j in range(3):
            numbers[k, PREVIOUS_X + j] = numbers[k, X + j]
        numbers[k, PLACED] = 0.0
        position[k, 0], position[k, 1], angle[k] = numbers[k, X], numbers[k, Y], numbers[k, ANGLE]
        asleep[k] = numbers[k, SLEEPING] != 0.0
        sleeping += asleep[k]
    return sleeping


@_without_runtime
def all_asleep_in_place(numbers):
    """Whether every body sleeps and game code placed none since the last step: then the step has nothing
    to do, not even :func:`begin_in`'s writes (a whole resting level, every step; one flag back instead of four
    arrays)."""
    for k in range(len(numbers)):
        if numbers[k, SLEEPING] == 0.0 or numbers[k, PLACED] != 0.0:
            return False
    return True


@_jit
def common_participants(numbers, awake_rows, position, angle, a_kind, a_index, b_index, static_friction):
    """Solver rows of contacts between awake bodies (``a_kind`` DYNAMIC) or of an awake body on static
    geometry (STATIC; one fixed row for all of it, after the awake rows, when there is any). ``numbers``:
    the world's state rows; ``position`` and ``angle``: every body's placement at step start. Returns the
    rows ((R, 8)), each contact's rows of A and B, and its mixed friction (geometric mean) and restitution
    (the larger)."""
    m = len(a_kind)
    rows = np.zeros((len(awake_rows) + (1 if _any_static(a_kind) else 0), ROW_COLUMNS))
    ia, ib, friction, restitution = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m), np.empty(m)
    _participant_rows(numbers, awake_rows, position, angle, a_kind, a_index, b_index, static_friction,
                      np.empty(len(numbers), np.int64), rows, ia, ib, friction, restitution)
    return rows, ia, ib, friction, restitution


@_without_runtime
def _any_static(a_kind):
    for k in range(len(a_kind)):
        if a_kind[k] == _STATIC_KIND:
            return True
    return False


@_without_runtime
def _participant_rows(numbers, awake_rows, position, angle, a_kind, a_index, b_index, static_friction, row_of_body,
                      rows, ia, ib, friction, restitution):
    """:func:`common_participants` into its arrays (``rows``: zeros; ``row_of_body``: scratch, one per body)."""
    dyn = len(awake_rows)
    row_of_body[:] = -1
    for r in range(dyn):
        body = awake_rows[r]
        row_of_body[body] = r
        for j in range(3):
            rows[r, j] = numbers[body, VX + j]
        rows[r, 3], rows[r, 4] = numbers[body, INV_MASS], numbers[body, INV_INERTIA]
        rows[r, 5], rows[r, 6], rows[r, 7] = position[body, 0], position[body, 1], angle[body]
    for k in range(len(a_kind)):
        b = b_index[k]
        ib[k] = row_of_body[b]
        if a_kind[k] == _DYNAMIC_KIND:
            a = a_index[k]
            ia[k], fa, ea = row_of_body[a], numbers[a, FRICTION], numbers[a, RESTITUTION]
        else:
            ia[k], fa, ea = dyn, static_friction, 0.0
        friction[k] = math.sqrt(fa * numbers[b, FRICTION])
        restitution[k] = max(ea, numbers[b, RESTITUTION])


@_without_runtime
def _lights(rows, ia, ib, found, sleep_extent, count, awake_rows, settings, extent, circle, light):
    """Into ``extent`` (each row's reach, px; 0 for fixed rows), ``circle`` (whether each awake row is a circle)
    and ``light``: which contacts are light: apart at step start (by more than the light gap, ``settings[3]``
    px) and not closing that gap within the step, even turning and falling; only between awake bodies or on
    static geometry. ``found``: :func:`found_arrays` of the contacts."""
    _, a_kind, _, _, _, _, normal, _, _, closest, _, _ = found
    gravity_x, gravity_y, dt, light_gap = settings[0], settings[1], settings[2], settings[3]
    extent[:] = 0.0
    for r in range(len(awake_rows)):
        extent[r], circle[r] = sleep_extent[awake_rows[r]], count[awake_rows[r]] == 1
    for k in range(len(ia)):
        a, b, nx, ny = ia[k], ib[k], normal[k, 0], normal[k, 1]
        gap = closest[k] - light_gap
        closing = (rows[a, 0] - rows[b, 0]) * nx + (rows[a, 1] - rows[b, 1]) * ny \
            + abs(rows[a, 2]) * extent[a] + abs(rows[b, 2]) * extent[b] + abs(gravity_x * nx + gravity_y * ny) * dt
        light[k] = gap > 0.0 and closing * dt < gap and (a_kind[k] == _DYNAMIC_KIND or a_kind[k] == _STATIC_KIND)


@_jit
def _colours(ia, ib, dynamic_rows, light):
    """Graph colours (:func:`~engine.world.warmstart.colour_numbers`) as the contacts in colour order (a stable
    counting sort), each colour's first contact (and the end) and which colours are light."""
    colour, full_colours = colour_numbers(ia, ib, dynamic_rows, light)
    sizes = np.zeros(64, dtype=np.int64)
    for c in colour:
        sizes[c] += 1
    present = 0
    for c in range(64):
        present += sizes[c] > 0
    starts, light_colours = np.zeros(present + 1, dtype=np.int64), np.zeros(present, dtype=np.bool_)
    first, at, i = np.zeros(64, dtype=np.int64), 0, 0
    for c in range(64):
        first[c] = at
        at += sizes[c]
        if sizes[c]:
            starts[i + 1], light_colours[i] = at, c >= full_colours
            i += 1
    order = np.empty(len(colour), dtype=np.int64)
    for k in range(len(colour)):
        order[first[colour[k]]] = k
        first[colour[k]] += 1
    return order, starts, light_colours


@_without_runtime
def _uneven_pairs(rows, pair, dynamic_rows, ratio, uneven):
    """Into ``uneven``: the contacts between two awake bodies whose masses differ more than ``ratio`` times;
    returns whether any do."""
    for k in range(len(pair)):
        a, b = rows[pair[k, 0], 3], rows[pair[k, 1], 3]
        both = pair[k, 0] < dynamic_rows and pair[k, 1] < dynamic_rows
        uneven[k] = both and max(a, b) > ratio * min(a, b)
    return uneven.any()


@_without_runtime
def _body(rows, dynamic_rows, extent, circle, max_rotation_error, dt, body):
    """Into ``body`` (zeros): the solve's body array: inverse mass and inertia, placement at step start, and the
    fastest spin that keeps a turn's error in the step's linear separations within ``max_rotation_error`` px
    (none for a circle, whose contacts do not change as it turns)."""
    for r in range(len(rows)):
        body[r, BODY_INV_MASS], body[r, BODY_INV_INERTIA] = rows[r, 3], rows[r, 4]
        body[r, BODY_CENTER_X], body[r, BODY_CENTER_X + 1], body[r, BODY_ANGLE] = rows[r, 5], rows[r, 6], rows[r, 7]
        if r < dynamic_rows:
            reach = 0.0 if circle[r] else extent[r]
            body[r, BODY_MAX_SPIN] = math.sqrt(2.0 * max_rotation_error / max(reach, 1e-12)) / dt


@_without_runtime
def _ordered(order, found, light, friction, restitution, ia, ib, into, separation_o, a_kind_o, light_o, friction_o,
             restitution_o, pair):
    """The contacts' arrays in colour order (row by row in one loop rather than fourteen fancy-index copies:
    measured 1-3 % faster over the whole solve at 10 to 1000 crates): those the contact set keeps are written
    into its arrays (``into``: :func:`contact_arrays` of its buffers), the others into the rest (separation,
    A's kind, light, friction, restitution, rows of A and B). ``found``: :func:`found_arrays` of the contacts
    in the order found."""
    keys, a_kind, _, a_index, b_index, ids, normal, point, separation, _, valid, touching = found
    keys_o, ids_o, valid_o, normal_o, point_o, _, _, _, touching_o, a_index_o, b_index_o = into
    for i in range(len(order)):
        k = order[i]
        keys_o[i], a_kind_o[i], light_o[i], friction_o[i], restitution_o[i] = (keys[k], a_kind[k], light[k],
                                                                               friction[k], restitution[k])
        pair[i, 0], pair[i, 1], touching_o[i], a_index_o[i], b_index_o[i] = ia[k], ib[k], touching[k], a_index[k], \
            b_index[k]
        for j in range(2):
            ids_o[i, j], valid_o[i, j], normal_o[i, j], separation_o[i, j] = ids[k, j], valid[k, j], normal[k, j], \
                separation[k, j]
            point_o[i, j, 0], point_o[i, j, 1] = point[k, j, 0], point[k, j, 1]


@_without_runtime
def _rows_placed(body_trig, awake_rows, rows, center, trig, velocity):
    """Each row's centre at step start, cos and sin of its angle, and velocity (into ``center`` (R, 2), ``trig``
    (R, 2), ``velocity`` (R, 3)): the awake rows' cos and sin as the gathering made them for every body
    (``body_trig``), the fixed rows' (few: static geometry, kinematic bodies, characters, sleepers) here."""
    dynamic_rows = len(awake_rows)
    for r in range(len(rows)):
        if r < dynamic_rows:
            trig[r, 0], trig[r, 1] = body_trig[awake_rows[r], 0], body_trig[awake_rows[r], 1]
        else:
            trig[r, 0], trig[r, 1] = math.cos(rows[r, 7]), math.sin(rows[r, 7])
        center[r, 0], center[r, 1] = rows[r, 5], rows[r, 6]
        for j in range(3):
            velocity[r, j] = rows[r, j]


@_without_runtime
def _write_back(numbers, awake_rows, position, angle, displacement, velocity):
    """The awake bodies' placement (start plus displacement) and velocity at the end of the step."""
    for r in range(len(awake_rows)):
        body = awake_rows[r]
        numbers[body, X], numbers[body, Y] = position[body, 0] + displacement[r, 0], position[body, 1] + displacement[r, 1]
        numbers[body, ANGLE] = angle[body] + displacement[r, 2]
        for j in range(3):
            numbers[body, VX + j] = velocity[r, j]


@_without_runtime
def _touch_changes(source, touching, old_touching, still, changes):
    """Into ``changes``: the touching contacts whose pair did not touch in the last step (``source``: each
    one's row there, -1 for a new pair), then the last step's touching contacts whose pair no longer touches
    (``still``: scratch, one per old contact). Returns how many of each."""
    began = ended = 0
    still[:] = False
    for i in range(len(source)):
        if touching[i]:
            if source[i] < 0 or not old_touching[source[i]]:
                changes[began], began = i, began + 1
            if source[i] >= 0:
                still[source[i]] = True
    for j in range(len(old_touching)):
        if old_touching[j] and not still[j]:
            changes[began + ended], ended = j, ended + 1
    return began, ended


def _motion_layout(body_out):
    """What :func:`solve_contacts` hands back of the awake rows (``body_out``), as views: how far each moved
    ((n, 2) px) and its velocity at the end ((n, 3): px/s, px/s, rad/s)."""
    n = len(body_out) // 5
    return shaped(body_out[:2 * n], (n, 2)), shaped(body_out[2 * n:], (n, 3))


step_motion = _jit(_motion_layout)
_motion_views = _inline(_motion_layout)


@_jit
def solve_contacts(rows, dynamic_rows, ia, ib, friction, restitution, found_ints, found_floats, found_flags, old_ints,
                   old_floats, old_flags, m, numbers, params, settings):
    """One step's solve from its contacts (found order, packed: :func:`found_arrays`) and participants (``rows``,
    ``ia``, ``ib``, ``friction``, ``restitution``; see the module docstring) and the last step's contacts (packed:
    :func:`contact_arrays`); the step memory ``m`` (the shape table, the awake rows, the placement at step start, and
    the last solve's colouring, :func:`colouring_arrays`, which it keeps there for the next) and the world's state
    rows ``numbers``. ``params``: :func:`~engine.world.kernel.solve_step`'s parameters for the usual substeps and,
    second row, for a step with bodies of uneven mass; ``settings``: see :data:`SETTINGS` (the solve reads the first
    six: gravity x, y in px/s^2, dt in s, the light gap in px, the uneven mass ratio, the rotation error allowed in
    px). Writes the awake bodies' rows of ``numbers``. Returns the colouring and the contacts in colour order (packed;
    the last step's colouring itself when it stands), the awake rows' displacement and end velocity
    (:func:`step_motion`), the awake rows that moved ``reach`` or farther (continuous collision's candidates), then
    the touching contacts whose pair began touching (rows in colour order) and the last step's touching contacts whose
    pair ended (its rows), one after the other; how many moved that far and how many began; whether the same pairs
    touch in the same order as in the last step, and how many touch.

    What allocates (the light flags, the colouring when it changed, the carried rows, the new contacts; the
    scratch grown when short, kept in the memory) is done here; the rest runs without numba's runtime
    (:func:`_solve_prepared`)."""
    contacts, fixed_rows = len(ia), len(rows)
    old_count, old_colour_ints, old_colour_flags = len(old_ints) // 5, m.colour_ints, m.colour_flags
    float_size, int_size, flag_size = _solve_scratch_sizes(contacts, fixed_rows, dynamic_rows, old_count)
    grow_scratch(m, SOLVE_SCRATCH, float_size, int_size, flag_size)
    scratch, int_scratch, flag_scratch = m.solve_floats, m.solve_ints, m.solve_flags
    if _colouring_stands(rows, ia, ib, found_ints, found_floats, found_flags, m, settings, scratch, flag_scratch):
        colour_ints, colour_flags = old_colour_ints, old_colour_flags
    else:
        colour_ints, colour_flags = _new_colouring(ia, ib, dynamic_rows, flag_scratch)
        m.colour_ints, m.colour_flags = colour_ints, colour_flags
    source = int_scratch[:contacts]
    if not _carried_in_order(found_ints, found_floats, found_flags, old_ints, old_floats, old_flags, colour_ints,
                             colour_flags, old_colour_ints, old_colour_flags, int_scratch):
        source = _rows_by_key(colour_ints, colour_flags, found_ints, found_floats, found_flags, old_ints, old_floats,
                              old_flags)
    ints, floats, flags = contact_buffers(contacts)
    body_out, changes = _solve_outputs(scratch, int_scratch, float_size, int_size, dynamic_rows, contacts)
    fast_count, began_count, ended_count, same, touching_count = _solve_prepared_in(
        m, rows, dynamic_rows, ia, ib, friction, restitution, source, found_ints, found_floats, found_flags, old_ints,
        old_floats, old_flags, colour_ints, colour_flags, ints, floats, flags, scratch, int_scratch, flag_scratch,
        numbers, params, settings, body_out, changes)
    return (colour_ints, colour_flags, ints, floats, flags, body_out, changes[:fast_count + began_count + ended_count],
            fast_count, began_count, same, touching_count)


@_without_runtime
def _colouring_stands(rows, ia, ib, found_ints, found_floats, found_flags, m, settings, scratch, flag_scratch):
    """:func:`_lights` into :func:`solve_contacts`' scratch (where :func:`_solve_scratch` carves them), and
    whether the last colouring (the step memory ``m``'s) stands: the same rows of A and B, light the same way."""
    awake_rows = borrowed(m, "awake")
    dynamic_rows, contacts = len(awake_rows), len(ia)
    light = _light_flags(flag_scratch, dynamic_rows, contacts)
    _lights(rows, ia, ib, found_views(found_ints, found_floats, found_flags), borrowed(m, "sleep_extent"),
            borrowed(m, "count"), awake_rows, settings, _reach_of_rows(scratch, len(rows)),
            _circle_flags(flag_scratch, dynamic_rows), light)
    old_rows_a, old_rows_b, old_light, _, _, _ = _colouring_views(borrowed(m, "colour_ints"),
                                                                  borrowed(m, "colour_flags"))
    return same_values(old_rows_a, ia) and same_values(old_rows_b, ib) and same_values(old_light, light)


@_without_runtime
def _carried_in_order(found_ints, found_floats, found_flags, old_ints, old_floats, old_flags, colour_ints,
                      colour_flags, old_colour_ints, old_colour_flags, int_scratch):
    """:func:`~engine.world.warmstart.carried_rows` into the first contacts' room of ``int_scratch`` (the next
    is its scratch) when the same pairs were found in the same order as in the last step (its way without a
    sort); returns whether they were (else the caller asks
    :func:`~engine.world.warmstart.rows_by_key`, which sorts)."""
    keys = found_views(found_ints, found_floats, found_flags)[0]
    old_keys = _contact_views(old_ints, old_floats, old_flags)[0]
    order, old_order = _colouring_views(colour_ints, colour_flags)[3], _colouring_views(old_colour_ints,
                                                                                         old_colour_flags)[3]
    return carried_in_order(order, keys, old_keys, old_order, int_scratch[:len(keys)],
                            int_scratch[len(keys):2 * len(keys)])


@_without_runtime
def _solve_prepared_in(m, rows, dynamic_rows, ia, ib, friction, restitution, source, found_ints, found_floats,
                       found_flags, old_ints, old_floats, old_flags, colour_ints, colour_flags, ints, floats, flags,
                       scratch, int_scratch, flag_scratch, numbers, params, settings, body_out, changes):
    """:func:`_solve_prepared` for the step memory ``m``'s awake rows and placement at step start."""
    return _solve_prepared(rows, dynamic_rows, ia, ib, friction, restitution, source, found_ints, found_floats,
                           found_flags, old_ints, old_floats, old_flags, colour_ints, colour_flags, ints, floats,
                           flags, scratch, int_scratch, flag_scratch, numbers, borrowed(m, "awake"),
                           borrowed(m, "position"), borrowed(m, "angle"), borrowed(m, "reach"), borrowed(m, "trig"),
                           params, settings, body_out, changes)


@_without_runtime
def _solve_prepared(rows, dynamic_rows, ia, ib, friction, restitution, source, found_ints, found_floats, found_flags,
                    old_ints, old_floats, old_flags, colour_ints, colour_flags, ints, floats, flags, scratch,
                    int_scratch, flag_scratch, numbers, awake_rows, position, angle, reach, body_trig, params,
                    settings, body_out, changes):
    """:func:`solve_contacts` once the colouring and carried rows are known: the contacts in colour order (into
    the new contact set's buffers ``ints``, ``floats``, ``flags``), the contact table, the body rows, the solve,
    the write-back, the motion (``body_out``), the fast rows and the touch changes (``changes``), in the
    scratch arrays. Returns how many rows moved fast, how many pairs began and ended touching, whether the same
    pairs touch in the same order, and how many touch."""
    m, fixed_rows = len(source), len(rows)
    (extent, circle, light, separation, friction_o, restitution_o, table, center, trig, velocity, body, gravity_scale,
     step_params, displacement, solve_room, a_kind, pair, light_ordered, uneven, stiff, static,
     still) = _solve_scratch(scratch, int_scratch, flag_scratch, m, fixed_rows, dynamic_rows)
    ratio, rotation_error, dt = settings[4], settings[5], settings[2]
    found = found_views(found_ints, found_floats, found_flags)
    (old_keys, old_ids, old_valid, _, _, old_impulse, old_sliding, old_anchors, old_touching, _,
     _) = _contact_views(old_ints, old_floats, old_flags)
    _, _, _, order, starts, light_colours = _colouring_views(colour_ints, colour_flags)
    into = _contact_views(ints, floats, flags)
    keys, ids, valid, normal, point, impulse, sliding, anchors, touching, _, _ = into
    _ordered(order, found, light, friction, restitution, ia, ib, into, separation, a_kind, light_ordered, friction_o,
             restitution_o, pair)
    any_uneven = _uneven_pairs(rows, pair, dynamic_rows, ratio, uneven)
    for k in range(m):
        stiff[k], static[k] = a_kind[k] != _DYNAMIC_KIND or uneven[k], a_kind[k] == _STATIC_KIND
    _rows_placed(body_trig, awake_rows, rows, center, trig, velocity)
    table[:] = 0.0
    fill_table(source, old_ids, old_valid, old_impulse, old_sliding, old_anchors, ids, valid, normal, point,
               separation, stiff, static, light_ordered, friction_o, restitution_o, pair, center, trig, table, impulse,
               anchors)
    body[:] = 0.0
    _body(rows, dynamic_rows, extent, circle, rotation_error, dt, body)
    for j in range(PARAMETERS):
        step_params[j] = params[1 if any_uneven else 0, j]
    step_params[DYNAMIC_ROWS] = dynamic_rows
    for r in range(dynamic_rows):
        gravity_scale[r] = numbers[awake_rows[r], GRAVITY_SCALE]
    displacement[:] = 0.0
    solve_into(velocity, body, gravity_scale, pair, table, impulse, starts, light_colours, step_params, trig,
               solve_room, displacement, sliding)
    _write_back(numbers, awake_rows, position, angle, displacement, velocity)
    fast_count = _motion_out(displacement, velocity, awake_rows, reach, body_out, changes)
    began, ended = _touch_changes(source, touching, old_touching, still, changes[fast_count:])
    same = same_values(old_keys, keys) and same_values(old_touching, touching)
    touching_count = 0
    for i in range(m):
        touching_count += touching[i]
    return fast_count, began, ended, same, touching_count


@_without_runtime
def _motion_out(displacement, velocity, awake_rows, reach, body_out, changes):
    """The awake rows' displacement and end velocity into ``body_out`` (:func:`step_motion`), and the rows that
    moved ``reach`` or farther into ``changes``; returns how many did."""
    moved, motion = _motion_views(body_out)
    fast_count = 0
    for r in range(len(awake_rows)):
        moved[r, 0], moved[r, 1] = displacement[r, 0], displacement[r, 1]
        for j in range(3):
            motion[r, j] = velocity[r, j]
        if math.hypot(displacement[r, 0], displacement[r, 1]) >= reach[awake_rows[r]]:
            changes[fast_count], fast_count = r, fast_count + 1
    return fast_count


@_inline
def _solve_scratch_sizes(contacts, fixed_rows, dynamic_rows, old_count):
    """How much float, int and flag scratch :func:`solve_contacts` carves (see :func:`_solve_scratch`), its
    outputs last (the motion: five floats an awake row; the changes: one int an awake row, a contact and a last
    step's contact)."""
    return (fixed_rows * 17 + contacts * (4 + CONTACT_COLUMNS) + dynamic_rows + PARAMETERS
            + solve_scratch_size(contacts, fixed_rows, dynamic_rows) + 5 * dynamic_rows,
            4 * contacts + dynamic_rows + contacts + old_count, dynamic_rows + 5 * contacts + old_count)


@_inline
def _reach_of_rows(scratch, fixed_rows):
    """Where :func:`_solve_scratch` keeps each row's reach: first."""
    return scratch[:fixed_rows]


@_inline
def _circle_flags(flag_scratch, dynamic_rows):
    """Where :func:`_solve_scratch` keeps whether each awake row is a circle: the first flags."""
    return flag_scratch[:dynamic_rows]


@_inline
def _light_flags(flag_scratch, dynamic_rows, contacts):
    """Where :func:`_solve_scratch` keeps which contacts are light (found order): after the circle flags."""
    return flag_scratch[dynamic_rows:dynamic_rows + contacts]


@_inline
def _solve_scratch(scratch, int_scratch, flag_scratch, m, fixed_rows, dynamic_rows):
    """The solve's arrays carved out of its scratch (``m`` contacts): each row's reach, whether each awake row is
    a circle, which contacts are light (found order); the contacts' separations, friction and restitution in
    colour order, the contact table; each row's centre, cos and sin, velocity and body numbers; the gravity
    scales, the step's parameters, the displacement, the room :func:`~engine.world.kernel.solve_into` works
    in; A's kind and the pairs' rows (the first ``m`` ints are the carried rows); light, uneven, stiff and
    static flags in colour order, and one flag per last step's contact."""
    extent, circle = _reach_of_rows(scratch, fixed_rows), _circle_flags(flag_scratch, dynamic_rows)
    light, at = _light_flags(flag_scratch, dynamic_rows, m), fixed_rows
    separation, friction, restitution = shaped(scratch[at:at + 2 * m], (m, 2)), scratch[at + 2 * m:at + 3 * m], \
        scratch[at + 3 * m:at + 4 * m]
    table = shaped(scratch[at + 4 * m:at + (4 + CONTACT_COLUMNS) * m], (m, CONTACT_COLUMNS))
    at += (4 + CONTACT_COLUMNS) * m
    center = shaped(scratch[at:at + 2 * fixed_rows], (fixed_rows, 2))
    trig = shaped(scratch[at + 2 * fixed_rows:at + 4 * fixed_rows], (fixed_rows, 2))
    velocity = shaped(scratch[at + 4 * fixed_rows:at + 7 * fixed_rows], (fixed_rows, 3))
    body = shaped(scratch[at + 7 * fixed_rows:at + 13 * fixed_rows], (fixed_rows, BODY_COLUMNS))
    at += 13 * fixed_rows
    gravity_scale, step_params = scratch[at:at + dynamic_rows], scratch[at + dynamic_rows:at + dynamic_rows + PARAMETERS]
    at += dynamic_rows + PARAMETERS
    displacement = shaped(scratch[at:at + 3 * fixed_rows], (fixed_rows, 3))
    solve_room = scratch[at + 3 * fixed_rows:at + 3 * fixed_rows + solve_scratch_size(m, fixed_rows, dynamic_rows)]
    a_kind, pair = int_scratch[m:2 * m], shaped(int_scratch[2 * m:4 * m], (m, 2))
    flags = flag_scratch[dynamic_rows + m:]
    return (extent, circle, light, separation, friction, restitution, table, center, trig, velocity, body,
            gravity_scale, step_params, displacement, solve_room, a_kind, pair, flags[:m], flags[m:2 * m],
            flags[2 * m:3 * m], flags[3 * m:4 * m], flags[4 * m:])


@_jit
def solve_common_contacts(static_friction, found_ints, found_floats, found_flags, old_ints, old_floats, old_flags,
                          m, numbers, params, settings):
    """:func:`solve_contacts` for the usual contacts (awake bodies against each other and static geometry,
    ``static_friction`` its coefficient), their rows made as :func:`common_participants` makes them, in the
    same call (one call less, and five arrays fewer handed to Python and back, each step)."""
    sizes = _common_sizes(m, len(numbers), found_ints, found_floats, found_flags, len(old_ints) // 5)
    _grow_for_common(m, sizes)
    _fill_participants(numbers, m, static_friction, sizes, found_ints, found_floats, found_flags)
    rows, ia, ib, friction, restitution = _participant_views(m.solve_floats, m.solve_ints, sizes)
    return solve_contacts(
        rows, sizes[6], ia, ib, friction, restitution, found_ints, found_floats, found_flags, old_ints,
        old_floats, old_flags, m, numbers, params, settings)


@_without_runtime
def _common_sizes(m, states, found_ints, found_floats, found_flags, old_count):
    """The sizes a solve of the usual contacts carves out of the memory ``m``'s solve scratch (``states``
    bodies, ``old_count`` contacts in the last step): its rows (the awake ones, and one for static geometry
    when a contact is static), the float, int and flag scratch :func:`solve_contacts` carves, then what the
    participants take after it (floats, ints), the bodies, the contacts and the awake rows."""
    dynamic_rows, contacts = len(borrowed(m, "awake")), len(found_ints) // 7  # (seven ints a contact: found_arrays)
    fixed_rows = dynamic_rows + (1 if _static_found(found_ints, found_floats, found_flags) else 0)
    float_size, int_size, flag_size = _solve_scratch_sizes(contacts, fixed_rows, dynamic_rows, old_count)
    return (fixed_rows, float_size, int_size, flag_size, fixed_rows * ROW_COLUMNS + 2 * contacts,
            states + 2 * contacts, dynamic_rows, contacts, states)


@_jit
def _grow_for_common(m, sizes):
    """The solve's scratch grown for :func:`_common_sizes`' ``sizes`` (the participants after the solve's
    own: it grows none then)."""
    grow_scratch(m, SOLVE_SCRATCH, sizes[1] + sizes[4], sizes[2] + sizes[5], sizes[3])


@_inline
def _participant_views(floats, ints, sizes):
    """The participants' arrays carved out of the solve's scratch (``floats``, ``ints``) after what
    :func:`solve_contacts` carves (``sizes``: :func:`_common_sizes`): the rows, the rows of A and of B, the
    friction and the restitution."""
    fixed_rows, float_size, int_size, contacts, states = sizes[0], sizes[1], sizes[2], sizes[7], sizes[8]
    at = float_size + fixed_rows * ROW_COLUMNS
    rows, mixed = shaped(floats[float_size:at], (fixed_rows, ROW_COLUMNS)), floats[at:at + 2 * contacts]
    rows_a = int_size + states  # (after each body's row scratch)
    ia, ib = ints[rows_a:rows_a + contacts], ints[rows_a + contacts:rows_a + 2 * contacts]
    return rows, ia, ib, mixed[:contacts], mixed[contacts:]


@_without_runtime
def _fill_participants(numbers, m, static_friction, sizes, found_ints, found_floats, found_flags):
    """:func:`_found_participant_rows` into the memory ``m``'s solve scratch (:func:`_participant_views`)."""
    floats, ints = borrowed(m, "solve_floats"), borrowed(m, "solve_ints")
    rows = _participant_views(floats, ints, sizes)[0]
    for r in range(rows.shape[0]):
        for c in range(ROW_COLUMNS):
            rows[r, c] = 0.0
    float_size, int_size, contacts, states = sizes[1], sizes[2], sizes[7], sizes[8]
    at = float_size + rows.shape[0] * ROW_COLUMNS
    _found_participant_rows(numbers, m, found_ints, found_floats, found_flags, static_friction,
                            ints[int_size:int_size + states + 2 * contacts], rows, floats[at:at + 2 * contacts])


@_without_runtime
def _static_found(found_ints, found_floats, found_flags):
    """Whether any found contact is on static geometry."""
    return _any_static(found_views(found_ints, found_floats, found_flags)[1])


@_without_runtime
def _found_participant_rows(numbers, memory, found_ints, found_floats, found_flags, static_friction, ints, rows,
                            mixed):
    """:func:`_participant_rows` of the found contacts (the step ``memory``'s awake rows and placement at step
    start), into ``ints`` (each body's row scratch, then the rows of A and of B) and ``mixed`` (friction, then
    restitution)."""
    _, a_kind, _, a_index, b_index, _, _, _, _, _, _, _ = found_views(found_ints, found_floats, found_flags)
    bodies, m = len(numbers), len(a_kind)
    _participant_rows(numbers, borrowed(memory, "awake"), borrowed(memory, "position"), borrowed(memory, "angle"),
                      a_kind, a_index, b_index, static_friction, ints[:bodies], rows, ints[bodies:bodies + m],
                      ints[bodies + m:], mixed[:m], mixed[m:])


@_jit
def step_in(m, static_friction):
    """A whole step of awake bodies among static geometry, in one call: :func:`begin_in`, the gathering
    (:func:`~engine.world.collide_kernel.gather_into`: its contacts stay in the memory), the solve as
    :func:`solve_common_contacts` makes it and, when sleep is on, :func:`rest_and_sleep_in`, from the inputs
    the step memory ``m`` holds
    (:func:`~engine.world.step_memory.set_step_inputs`: the state rows, the last contacts, the settings, see
    :data:`SETTINGS`). The memory keeps what Python reads only now and then (the motion, the fast rows, the
    touch changes: :func:`~engine.world.step_memory.solve_results`) and the contacts made, for the next step;
    the contacts found never leave compiled code (only the solved ones do). Only for a scene without kinematic
    bodies and characters (they take the Python path).

    When pairs began or ended touching, their participants and the new ones' normals are written into the
    memory's event room (Python's arrays, (n, 2)) when they fit, else kept in the memory
    (:func:`_event_parts`), so that Python makes the events without reading the contacts; and, with continuous
    collision on, the memory keeps the fast rows whose sweep may meet the level (:func:`sweep_may_hit`), which
    Python sweeps.

    Returns a status, then how many contacts it made (kept in the memory with the ones it started from:
    :func:`~engine.world.step_memory.kept_contacts`), how many rows Python is to sweep, how many pairs began
    touching, whether the same pairs touch (as :func:`solve_contacts`), how many touch, how many ended.
    Status -1: everything rests, nothing was written; status > 0: that many bodies sleep, and only the step's
    start was made (a sleeper may wake: the step goes on in Python); status 0: the step is done."""
    settings = m.settings
    old_ints, old_floats, old_flags = m.contact_ints, m.contact_floats, m.contact_flags
    sleeping = _started(_begin_memory(m))
    if sleeping != 0:
        return sleeping, 0, 0, 0, False, 0, 0
    awake_count = gather_into(m, settings[6], settings[7], settings[8], m.default_filter)
    # The solve, as solve_common_contacts makes it, in runtime-free stages that read the memory's fields and
    # scratch borrowed (here, arrays are made only when a stage needs them: the new contacts, a new colouring,
    # the carried rows sorted by key). Each array a function with the runtime handles costs counted references.
    sizes = _common_sizes_in(m, len(old_ints) // 5)
    contacts = sizes[7]
    if scratch_short(m, SOLVE_SCRATCH, sizes[1] + sizes[4], sizes[2] + sizes[5], sizes[3]):
        _grow_for_common(m, sizes)
    if _participants_in(m, static_friction, sizes):
        carried = _carried_in(m, old_ints, old_floats, old_flags)
    else:
        carried = _recoloured(m, sizes, old_ints, old_floats, old_flags)
    if not carried:
        _sorted_source(m, contacts, old_ints, old_floats, old_flags)
    ints, floats, flags = contact_buffers(contacts)
    fast_count, began_count, ended_count, same, touching_count = _solve_common_in(m, sizes, old_ints, old_floats,
                                                                                  old_flags, ints, floats, flags)
    m.motion_end, m.changes_start = sizes[1], 4 * contacts  # (where _solve_outputs put them)
    m.changes_end = m.changes_start + fast_count + began_count + ended_count
    m.previous_ints, m.previous_floats, m.previous_flags = old_ints, old_floats, old_flags
    m.contact_ints, m.contact_floats, m.contact_flags = ints, floats, flags
    sweep_count = 0
    if (settings[12] > 0.0 and fast_count) or (settings[9] > 0.0 and awake_count) or began_count or ended_count:
        sweep_count = _after_solve(m, fast_count, began_count, awake_count)
    return 0, contacts, sweep_count, began_count, same, touching_count, ended_count


@_without_runtime
def _common_sizes_in(m, old_count):
    """:func:`_common_sizes` of the memory ``m``'s bodies and found contacts."""
    found_ints, found_floats, found_flags = found_of(m)
    return _common_sizes(m, len(borrowed(m, "angle")), found_ints, found_floats, found_flags, old_count)


@_without_runtime
def _participants_in(m, static_friction, sizes):
    """:func:`_fill_participants` of the memory ``m``'s state rows and found contacts, then
    :func:`_colouring_stands`: whether the last colouring stands."""
    found_ints, found_floats, found_flags = found_of(m)
    _fill_participants(borrowed(m, "numbers"), m, static_friction, sizes, found_ints, found_floats, found_flags)
    scratch, int_scratch = borrowed(m, "solve_floats"), borrowed(m, "solve_ints")
    rows, ia, ib, _, _ = _participant_views(scratch, int_scratch, sizes)
    return _colouring_stands(rows, ia, ib, found_ints, found_floats, found_flags, m, borrowed(m, "settings"), scratch,
                             borrowed(m, "solve_flags"))


@_without_runtime
def _carried_in(m, old_ints, old_floats, old_flags):
    """:func:`_carried_in_order` of the memory ``m``'s found contacts when its colouring stands (the same
    before and now)."""
    found_ints, found_floats, found_flags = found_of(m)
    colour_ints, colour_flags = borrowed(m, "colour_ints"), borrowed(m, "colour_flags")
    return _carried_in_order(found_ints, found_floats, found_flags, old_ints, old_floats, old_flags, colour_ints,
                             colour_flags, colour_ints, colour_flags, borrowed(m, "solve_ints"))


@_jit
def _recoloured(m, sizes, old_ints, old_floats, old_flags):
    """A new colouring of the participants in the memory ``m``'s scratch (the last one does not stand), kept in
    the memory; returns :func:`_carried_in_order` of its found contacts from the last colouring to it."""
    found_ints, found_floats, found_flags = found_kept(m)
    _, ia, ib, _, _ = _participant_views(m.solve_floats, m.solve_ints, sizes)
    colour_ints, colour_flags = _new_colouring(ia, ib, sizes[6], m.solve_flags)
    carried = _carried_in_order(found_ints, found_floats, found_flags, old_ints, old_floats, old_flags, colour_ints,
                                colour_flags, m.colour_ints, m.colour_flags, m.solve_ints)
    m.colour_ints, m.colour_flags = colour_ints, colour_flags
    return carried


@_jit
def _sorted_source(m, contacts, old_ints, old_floats, old_flags):
    """The carried rows by key (:func:`~engine.world.warmstart.rows_by_key`) of the memory ``m``'s found
    contacts, into the first ``contacts`` ints of its solve scratch (where :func:`_carried_in_order` writes
    them when it can)."""
    m.solve_ints[:contacts] = _rows_by_key(m.colour_ints, m.colour_flags, *found_kept(m), old_ints, old_floats,
                                           old_flags)


@_jit
def _new_colouring(ia, ib, dynamic_rows, flag_scratch):
    """A colouring of the contacts between rows ``ia`` and ``ib``, packed (:func:`colouring_arrays`), with
    the light flags :func:`_colouring_stands` wrote into the solve's flag scratch."""
    light = _light_flags(flag_scratch, dynamic_rows, len(ia))
    order, starts, light_colours = _colours(ia, ib, dynamic_rows, light)
    return packed_colouring(ia, ib, light, order, starts, light_colours)


@_jit
def _rows_by_key(colour_ints, colour_flags, found_ints, found_floats, found_flags, old_ints, old_floats, old_flags):
    """:func:`~engine.world.warmstart.rows_by_key` of the found contacts (packed) in the colouring's order
    against the last step's (packed)."""
    return rows_by_key(colouring_arrays(colour_ints, colour_flags)[3], found_arrays(
        found_ints, found_floats, found_flags)[0], contact_arrays(old_ints, old_floats, old_flags)[0])


@_without_runtime
def _solve_common_in(m, sizes, old_ints, old_floats, old_flags, ints, floats, flags):
    """:func:`_solve_prepared` of the found contacts, participants, carried rows and colouring in the memory
    ``m``, into the new contacts' buffers (``ints``, ``floats``, ``flags``) and the solve's outputs in its
    scratch (:func:`_solve_outputs`)."""
    found_ints, found_floats, found_flags = found_of(m)
    scratch, int_scratch = borrowed(m, "solve_floats"), borrowed(m, "solve_ints")
    flag_scratch = borrowed(m, "solve_flags")
    rows, ia, ib, friction, restitution = _participant_views(scratch, int_scratch, sizes)
    dynamic_rows, contacts = sizes[6], sizes[7]
    body_out, changes = _solve_outputs(scratch, int_scratch, sizes[1], sizes[2], dynamic_rows, contacts)
    return _solve_prepared_in(m, rows, dynamic_rows, ia, ib, friction, restitution, int_scratch[:contacts],
                              found_ints, found_floats, found_flags, old_ints, old_floats, old_flags,
                              borrowed(m, "colour_ints"), borrowed(m, "colour_flags"), ints, floats, flags, scratch,
                              int_scratch, flag_scratch, borrowed(m, "numbers"), borrowed(m, "params"),
                              borrowed(m, "settings"), body_out, changes)


@_inline
def _solve_outputs(scratch, int_scratch, float_size, int_size, dynamic_rows, contacts):
    """Where :func:`solve_contacts` writes the motion and the changes: the end of what it carves of the
    scratch (read within the step)."""
    return scratch[float_size - 5 * dynamic_rows:float_size], int_scratch[4 * contacts:int_size]


@_jit
def _after_solve(m, fast_count, began_count, awake_count):
    """What :func:`step_in` does after the solve only now and then: the fast rows whose sweep may meet the level
    (continuous collision on; returns how many), the sleep pass (sleep on), the events' participants (pairs
    began or ended touching)."""
    numbers, settings = m.numbers, m.settings
    body_out, changes = solve_results(m)
    sweep_count = 0
    if settings[12] > 0.0 and fast_count:  # (before the sleep pass: it reads the end-of-step angles, as in Python)
        fast = changes[:fast_count]
        m.may_hit = fast[sweep_may_hit(numbers, m.awake, fast, step_motion(body_out)[0], m.vertices, m.offsets,
                                       m.radius, m.cell_size, m.cell_keys, m.cell_starts, m.members,
                                       m.segment_boxes)]
        sweep_count = len(m.may_hit)
    if settings[9] > 0.0 and awake_count:
        _, a_kind, _, a_index, b_index, _, _, _, _, _, _, touching = found_arrays(*found_kept(m))
        rest_and_sleep_in(numbers, m, step_motion(body_out)[1], settings[2], settings[10], settings[11], a_kind,
                          a_index, b_index, touching, changes[:0])
    if len(changes) > fast_count:
        _event_parts(m, m.contact_ints, m.contact_floats, m.contact_flags, m.previous_ints, m.previous_floats,
                     m.previous_flags, changes[fast_count:fast_count + began_count],
                     changes[fast_count + began_count:], m.parts_room, m.normals_room)
    return sweep_count


class FixedTypes:
    """A compiled function at a call site whose arguments always have the same types (the one-call step's: the
    step memory and the static friction), called through the compiled entry point of those types. numba's
    dispatcher works out every argument's type at every call to pick the compiled version: 0.5 us of a step's
    call, most of it for the step memory. The first call goes through the dispatcher (which compiles or loads
    the version); later calls skip it. Arguments of other types must not be handed here: the entry point does
    not check them."""

    __slots__ = ("call", "_dispatcher")

    def __init__(self, dispatcher: Any) -> None:
        self._dispatcher = dispatcher
        self.call: Any = self._first
        """What to call (the dispatcher's entry point for the types of the first call's arguments)."""

    def _first(self, *args: Any) -> Any:
        result = self._dispatcher(*args)
        types_of = tuple(map(self._dispatcher.typeof_pyval, args))
        self.call = self._dispatcher.overloads[types_of].entry_point
        return result


@_inline
def _participant_a(a_index, keys, row):
    """Contact ``row``'s participant A as :func:`_event_parts` names it: its body row, or -1 - its segment's
    index where ``a_index`` is -1 (static geometry, the only other kind in a one-call step; the key holds it)."""
    a = a_index[row]
    return a if a >= 0 else -1 - ((keys[row] >> KEY_A_SHIFT) & KEY_A_MASK)


@_jit
def _event_parts(m, ints, floats, flags, old_ints, old_floats, old_flags, began, ended, parts_room, normals_room):
    """The participants of the contacts ``began`` (rows of the new set) and ``ended`` (rows of the last
    step's), A as :func:`_participant_a` names it, B as a body row; and the normals of those that began: into
    ``parts_room`` and ``normals_room`` when they fit, else into the memory."""
    if len(began) + len(ended) <= len(parts_room):
        _event_rows(ints, floats, flags, old_ints, old_floats, old_flags, began, ended, parts_room, normals_room)
        return
    parts, normals = np.empty((len(began) + len(ended), 2), dtype=np.int64), np.empty((len(began), 2))
    _event_rows(ints, floats, flags, old_ints, old_floats, old_flags, began, ended, parts, normals)
    m.event_parts, m.event_normals = parts, normals


@_without_runtime
def _event_rows(ints, floats, flags, old_ints, old_floats, old_flags, began, ended, parts, normals):
    """:func:`_event_parts`' rows, into ``parts`` and ``normals`` (room for them all)."""
    keys, _, _, normal, _, _, _, _, _, a_index, b_index = _contact_views(ints, floats, flags)
    old_keys, _, _, _, _, _, _, _, _, old_a_index, old_b_index = _contact_views(old_ints, old_floats, old_flags)
    for i in range(len(began)):
        row = began[i]
        parts[i, 0], parts[i, 1] = _participant_a(a_index, keys, row), b_index[row]
        normals[i, 0], normals[i, 1] = normal[row, 0], normal[row, 1]
    for j in range(len(ended)):
        row, i = ended[j], len(began) + j
        parts[i, 0], parts[i, 1] = _participant_a(old_a_index, old_keys, row), old_b_index[row]


@_without_runtime
def _any_segment_in(box, cell_size, cell_keys, cell_starts, members, segment_boxes):
    """Whether a static segment's box overlaps ``box`` among the segments in the grid cells ``box`` touches
    (the candidates :meth:`~engine.geometry.broadphase.StaticBroadPhase.query_aabb` gives, or more). Runtime-free:
    called for every fast row, it counted references at every cell it looked at."""
    inv = 1.0 / cell_size
    x0, x1 = math.floor(box[0] * inv), math.floor(box[2] * inv)
    y0, y1 = math.floor(box[1] * inv), math.floor(box[3] * inv)
    if (x1 - x0 + 1) * (y1 - y0 + 1) > len(cell_keys):  # a box larger than the grid: every occupied cell
        first, last = 0, len(members)
        return _overlap_in(box, members[first:last], segment_boxes)
    for ix in range(x0, x1 + 1):
        for iy in range(y0, y1 + 1):
            key = np.int64(ix) * 4294967296 + iy + 2147483648
            at = np.searchsorted(cell_keys, key)
            if at < len(cell_keys) and cell_keys[at] == key and _overlap_in(
                    box, members[cell_starts[at]:cell_starts[at + 1]], segment_boxes):
                return True
    return False


@_without_runtime
def _overlap_in(box, segments, segment_boxes):
    for s in segments:
        if segment_boxes[s, 0] <= box[2] and segment_boxes[s, 2] >= box[0] and segment_boxes[s, 1] <= box[3] \
                and segment_boxes[s, 3] >= box[1]:
            return True
    return False


@_jit
def sweep_may_hit(numbers, awake_rows, fast, moved, vertices, offsets, radius, cell_size, cell_keys, cell_starts,
                  members, segment_boxes):
    """Which of the ``fast`` awake rows (indices into ``awake_rows``) may meet static geometry on their way:
    some segment's box overlaps the box their shape sweeps from the step's start position (at their present
    angle) along ``moved`` (px). Conservative (the box is grown by a micropixel against rounding): a row left
    out has no candidate segment for continuous collision at all."""
    may = np.zeros(len(fast), dtype=np.bool_)
    box = np.empty(4)
    for i in range(len(fast)):
        body = awake_rows[fast[i]]
        c, s = math.cos(numbers[body, ANGLE]), math.sin(numbers[body, ANGLE])
        box[0] = box[1] = math.inf
        box[2] = box[3] = -math.inf
        for v in range(offsets[body], offsets[body + 1]):
            x, y = c * vertices[v, 0] - s * vertices[v, 1], s * vertices[v, 0] + c * vertices[v, 1]
            box[0], box[1], box[2], box[3] = min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)
        grow, dx, dy = radius[body] + 1e-6, moved[fast[i], 0], moved[fast[i], 1]
        box[0] += numbers[body, PREVIOUS_X] - grow + min(dx, 0.0)
        box[1] += numbers[body, PREVIOUS_X + 1] - grow + min(dy, 0.0)
        box[2] += numbers[body, PREVIOUS_X] + grow + max(dx, 0.0)
        box[3] += numbers[body, PREVIOUS_X + 1] + grow + max(dy, 0.0)
        may[i] = _any_segment_in(box, cell_size, cell_keys, cell_starts, members, segment_boxes)
    return may


@_jit
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@_jit
def rest_and_sleep(numbers, awake_rows, motion, sleep_extent, dt, sleep_velocity, time_to_sleep, a_kind, a_index,
                   b_index, touching, held):
    """Count how long each awake body (``awake_rows``; ``motion``: their end velocities) has rested: moving no
    faster than ``sleep_velocity`` px/s, its farthest corner included (``sleep_extent``, px). Once any has
    rested ``time_to_sleep`` s, the bodies ``held`` (touching a moving kinematic body or character) start
    again, and each group of bodies joined by touching contacts (``touching``, between two bodies) that all
    rested that long falls asleep (flag set, velocity zeroed). Writes the rest times into ``numbers``."""
    n = len(awake_rows)
    rested, ready = np.empty(n), False
    for r in range(n):
        body = awake_rows[r]
        resting = math.hypot(motion[r, 0], motion[r, 1]) <= sleep_velocity \
            and abs(motion[r, 2]) * sleep_extent[body] <= sleep_velocity
        rested[r] = numbers[body, SLEEP_TIME] + dt if resting else 0.0
        ready = ready or rested[r] >= time_to_sleep
    row_of_body = np.full(len(numbers), -1, dtype=np.int64)
    row_of_body[awake_rows] = np.arange(n)
    if ready:
        for body in held:
            if row_of_body[body] >= 0:
                rested[row_of_body[body]] = 0.0
    for r in range(n):
        numbers[awake_rows[r], SLEEP_TIME] = rested[r]
    if not ready:
        return
    parent = np.arange(n)
    for k in range(len(a_kind)):
        if touching[k] and a_kind[k] == _DYNAMIC_KIND and row_of_body[a_index[k]] >= 0 and row_of_body[b_index[k]] >= 0:
            first, second = _find(parent, row_of_body[a_index[k]]), _find(parent, row_of_body[b_index[k]])
            parent[max(first, second)] = min(first, second)
    least = np.full(n, np.inf)
    for r in range(n):
        root = _find(parent, r)
        least[root] = min(least[root], rested[r])
    for r in range(n):
        if least[_find(parent, r)] >= time_to_sleep:
            numbers[awake_rows[r], SLEEPING] = 1.0
            for j in range(3):
                numbers[awake_rows[r], VX + j] = 0.0



@_jit
def rest_and_sleep_in(numbers, m, motion, dt, sleep_velocity, time_to_sleep, a_kind, a_index, b_index, touching,
                      held):
    """:func:`rest_and_sleep` of the awake rows the step memory ``m`` says the solve moved."""
    rest_and_sleep(numbers, m.awake, motion, m.sleep_extent, dt, sleep_velocity, time_to_sleep, a_kind, a_index,
                   b_index, touching, held)

def compile_steps():
    """Compile (or load from the disk cache) :func:`common_participants`, :func:`solve_contacts` and
    :func:`step_in` on a crate resting on the floor; yields the stage's name."""
    numbers = np.zeros((1, STATE_COLUMNS))
    numbers[0, Y], numbers[0, INV_MASS], numbers[0, INV_INERTIA], numbers[0, FRICTION] = 18.0, 1.0, 0.01, 0.6
    numbers[0, GRAVITY_SCALE] = 1.0
    all_asleep_in_place(numbers)
    m = warm_up_memory()
    begin_in(m, numbers, True)
    awake, position, angle = np.zeros(1, dtype=np.int64), numbers[:, X:Y + 1].copy(), numbers[:, ANGLE].copy()
    set_awake(m, awake)
    step_start(m), gathered_boxes(m), gathered_awake(m), solve_results(m), event_data(m), sweep_candidates(m)
    kind, index = np.full(1, _STATIC_KIND, dtype=np.int64), np.zeros(1, dtype=np.int64)
    rows, ia, ib, friction, restitution = common_participants(numbers, awake, position, angle, kind, index - 1,
                                                              index, 0.6)
    ids, valid, none = np.array([[1, 2]], dtype=np.int64), np.ones((1, 2), dtype=np.bool_), np.zeros(0, np.int64)
    params = np.zeros((2, PARAMETERS))
    params[:, DT], params[:, SUBSTEPS], params[:, GRAVITY_Y], params[:, MAX_SPEED] = 1 / 60, 4, -1800.0, 4e3
    old = packed_contacts(none, np.zeros((0, 2), np.int64), np.zeros((0, 2), np.bool_), np.zeros((0, 2)),
                          np.zeros((0, 2, 2)), np.zeros((0, 4)), np.zeros((0, 2), np.bool_), np.zeros((0, 2, 4)),
                          np.zeros(0, np.bool_), none, none)
    no_colouring = packed_colouring(none, none, np.zeros(0, np.bool_), none, np.zeros(1, np.int64),
                                    np.zeros(0, np.bool_))
    contact_arrays(*old)
    colouring_arrays(*no_colouring)
    settings = np.array([0.0, -1800.0, 1 / 60, 0.1, 10.0, 0.25, 1.0, 0.5, 0.25, 1.0, 4.0, 0.5, 1.0])
    state = (m, numbers, params, settings)
    found = packed_found(index, kind, index, index - 1, index, ids, np.array([[0.0, 1.0]]),
                         np.array([[[-16.0, 1.0], [16.0, 1.0]]]), np.zeros((1, 2)), np.zeros(1), valid,
                         np.ones(1, dtype=np.bool_))
    solve_contacts(rows, 1, ia, ib, friction, restitution, *found, *old, *state)
    solved = solve_common_contacts(0.6, *found, *old, *state)
    step_motion(solved[5])
    set_step_inputs(m, numbers, *old, params, settings, np.array([1, -1, 0]))
    set_event_room(m, np.empty((1, 2), np.int64), np.empty((1, 2)))
    step_in(m, 0.6)
    kept_contacts(m, True)
    segment_boxes = np.array([[-100.0, -2.0, 100.0, 2.0]])
    segment_boxes.setflags(write=False)  # (as the static broad phase holds them)
    sweep_may_hit(numbers, awake, awake, np.ones((1, 2)), np.array([[-15.0, -15.0], [15.0, -15.0], [15.0, 15.0]]),
                  np.array([0, 3]), np.ones(1), 64.0, np.array([2**31 - 1, 2**31], dtype=np.int64),
                  np.array([0, 1, 2]), np.zeros(2, dtype=np.int64), segment_boxes)
    for ready in (0.0, 1.0):
        rest_and_sleep_in(numbers, m, np.zeros((1, 3)), 1 / 60, 4.0, ready, kind, index - 1, index,
                          np.ones(1, dtype=np.bool_), none)
    yield "rigid-body step glue"
