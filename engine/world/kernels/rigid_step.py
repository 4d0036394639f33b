"""The rigid-body step in one compiled call: :func:`step`.

1. **Begin**: nothing to do when every body sleeps, none was placed by game code and no mover moves. The
   awake bodies (and those placed, and those that fell asleep at the last step's end) remember their
   placement (``previous_transform``) and get their box; a sleeper's box, its place in the index of the
   sleepers' boxes and its contacts are kept from when it fell asleep, so a step costs what the awake bodies
   and their neighbours cost, however many sleep (Box2D v3's solver sets).
2. **Wake**: a moving mover (kinematic body, character) wakes the sleepers its box over the step meets.
3. **Gather** (:mod:`.narrow_phase`): contacts of the awake bodies with the level, the movers and each other,
   ``speculative`` px early. An awake body touching a sleeper wakes it, and the gathering is made again (up to
   three times) so a crate dropped on a sleeping one meets the floor under it now.
4. **Crush**: a body that a mover overlaps by more than ``crush_depth`` px while something opposite (static
   geometry, a kinematic body) holds it is not pushed: its contact with the mover is dropped and a
   :data:`~.layout.CRUSHED` event names it.
5. **Warm start** from the last step's contacts; then **solve** (:mod:`.contact_solver`): awake bodies are the
   dynamic rows; static geometry, movers and sleepers an awake body nears are fixed rows.
6. **Sleep** (:mod:`.island`), and the contacts of sleepers kept aside unchanged (nothing near them moved)
   until one of their bodies wakes.
7. **Events**: pairs that began and stopped touching.

Continuous collision against the level is left to the caller, for the bodies :func:`step` names as fast
(they moved their ``reach`` or farther).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .compile import helper, inlined, kernel
from .vector import length
from .contact_solver import (
    ANCHOR_A0_X, FRICTION, LIGHT, ROW_CIRCLE, ROW_COLUMNS, ROW_EXTENT, ROW_GRAVITY_SCALE, ROW_INV_INERTIA,
    ROW_INV_MASS, ROW_VX, ROW_X, STATIC as TABLE_STATIC, STIFF, TABLE_COLUMNS, colour_order, solve,
)
from .contact_solver import NX as TABLE_NX
from .contact_solver import POINT0_X as TABLE_POINT0_X
from .contact_solver import RESTITUTION as TABLE_RESTITUTION
from .contact_solver import SEP0 as TABLE_SEP0
from .contact_solver import VALID0 as TABLE_VALID0
from .island import rest_and_sleep
from .layout import (
    ANCHOR0_AX, B, BEGAN, CLOSEST, CONTACT_FLOATS, CONTACT_INTS, CRUSH_DEPTH, CRUSHED, DYNAMIC, DYNAMIC_ROWS,
    ENDED, EVENT_COLUMNS, GRAVITY_SCALE, GRAVITY_X, GRAVITY_Y, INV_INERTIA, INV_MASS, KIND, LIGHT_GAP,
    MOVER_FRICTION, MOVER_MAX_X, MOVER_MAX_Y, MOVER_MIN_X, MOVER_MIN_Y, MOVER_MOVING, MOVER_STANDS_ON, MOVER_VX,
    MOVER_X, NORMAL0,
    NX, PLACED, POINT0_X, PREVIOUS_X, RESTING, ROTATION_ERROR, SEP0, SLEEP_ON, SLEEP_TIME, SLEEP_VELOCITY, SLEEPING,
    SLIDING0, SPECULATIVE, STATIC, STATIC_FRICTION, STEP_DT, TIME_TO_SLEEP, TOUCHING, UNEVEN_RATIO, VALID0, VX, X,
    A, ANGLE, CHARACTER, CONTINUOUS_ON, KINEMATIC, SQUEEZED,
)
from .layout import FRICTION as BODY_FRICTION
from .layout import RESTITUTION as BODY_RESTITUTION
from .layout import Level, Shapes
from .broad_phase import level_pairs, sleeper_index, sleepers_from
from .narrow_phase import gather, place_and_box, put_box, warm_start

__all__ = ["ASLEEP", "held_against", "resting", "step"]

ASLEEP = -2
"""The step's status when it began but every body sleeps after the movers' wakes: the contacts stand."""


@helper
def _nothing(status, ints, floats, sleep):  # (``status``: an np.int64, not a literal: one compiled version)
    """The outcome of a step that moved nothing: the contacts ``ints``, ``floats`` and ``sleep`` stand."""
    return (status, ints, floats, sleep, np.zeros((0, EVENT_COLUMNS), np.int64), np.zeros((0, 2)),
            np.zeros(0, np.int64), np.zeros((0, 2)))


@helper
def _nothing_to_do(state, movers):
    """Every body sleeps, game code placed none and no mover moves: the step has nothing to do."""
    for k in range(len(state)):
        if state[k, SLEEPING] == 0.0 or state[k, PLACED] != 0.0:
            return False
    for i in range(len(movers)):
        if movers[i, MOVER_MOVING] > 0.0:
            return False
    return True


@kernel
def resting(state, movers):
    """Whether a step would find nothing to do (every body sleeps, none was placed and no mover moves): asked
    by a caller whose last step found every body asleep, before it hands the whole step its arguments."""
    return _nothing_to_do(state, movers)


@helper
def _begin(state, active):
    """Which bodies sleep and which game code placed (moved, turned, reshaped or re-filtered) since the last
    step (no longer marked placed); and the rows whose placement is made again (``fresh``): the awake, the
    placed and the last step's awake (``active``: some fell asleep at its end). Each of those remembers its
    placement at step start (``previous_transform``); a sleeper lies where it was."""
    asleep, placed = np.empty(len(state), np.bool_), np.empty(len(state), np.bool_)
    fresh, count = np.empty(len(state) + len(active), np.int64), 0
    for k in range(len(state)):
        placed[k], asleep[k] = state[k, PLACED] != 0.0, state[k, SLEEPING] != 0.0
        if placed[k] or not asleep[k]:
            state[k, PLACED], fresh[count], count = 0.0, k, count + 1
    for k in active:
        if asleep[k] and not placed[k]:
            fresh[count], count = k, count + 1
    for i in range(count):
        for j in range(3):
            state[fresh[i], PREVIOUS_X + j] = state[fresh[i], X + j]
    return asleep, placed, fresh[:count]


@helper
def _any_fell_asleep(fresh, asleep, placed):
    """Whether a body of ``fresh`` sleeps though game code did not place it: it fell asleep at the last step's
    end. (A helper: an array the step reassigns inside a loop has its references counted at every turn.)"""
    for k in fresh:
        if asleep[k] and not placed[k]:
            return True
    return False


@helper
def _any_woke(awake, was_awake_rows, body_count):
    """Whether a row of ``awake`` is none of ``was_awake_rows`` (it woke since the last step)."""
    was_awake = np.zeros(body_count, np.bool_)
    for k in was_awake_rows:
        was_awake[k] = True
    for k in awake:
        if not was_awake[k]:
            return True
    return False


@helper
def _wake(state, asleep, k):
    state[k, SLEEPING], state[k, SLEEP_TIME], asleep[k] = 0.0, 0.0, False


@kernel
def _wake_by_changes(state, asleep, placed, fresh, boxes, movers, contacts, sleepers):
    """Wake what a change since the last step concerns: a body game code placed, and every body it touched;
    a sleeper whose box a moving mover's box over the step meets (found in the ``sleepers`` index); a sleeper
    that touched a mover which is no longer there (its box over the step misses the sleeper's: moved away by
    game code). ``contacts``: the last step's and those kept aside (looked through only when something was
    placed or a mover moves)."""
    anything = False
    for k in fresh:
        if placed[k]:
            _wake(state, asleep, k)
            anything = True
    for i in range(len(movers)):
        if movers[i, MOVER_MOVING] == 0.0:
            continue
        anything = True
        for at in range(sleepers_from(sleepers[1], sleepers[2], movers[i, MOVER_MIN_X]), len(sleepers[0])):
            k = sleepers[0][at]
            if sleepers[1][at] > movers[i, MOVER_MAX_X]:
                break
            if asleep[k] and _mover_meets(movers, i, boxes, k):
                _wake(state, asleep, k)
    for c in range(2 if anything else 1):
        old_ints = contacts[c]
        for j in range(len(old_ints)):
            kind, a, b = old_ints[j, KIND], old_ints[j, A], old_ints[j, B]
            if kind == DYNAMIC and (placed[a] or placed[b]):
                _wake(state, asleep, a)
                _wake(state, asleep, b)
            elif (kind == KINEMATIC or kind == CHARACTER) and asleep[b] and not _mover_meets(movers, a, boxes, b):
                _wake(state, asleep, b)


@helper
def _mover_meets(movers, i, boxes, k):
    """Whether mover ``i``'s box over the step meets box ``k``."""
    return (movers[i, MOVER_MIN_X] <= boxes[k, 2] and movers[i, MOVER_MAX_X] >= boxes[k, 0]
            and movers[i, MOVER_MIN_Y] <= boxes[k, 3] and movers[i, MOVER_MAX_Y] >= boxes[k, 1])


@kernel
def _wake_touched(state, asleep, ints, count):
    """An awake body touching a sleeping one wakes it; returns whether any woke."""
    woke = False
    for k in range(count):
        if ints[k, TOUCHING] and ints[k, KIND] == DYNAMIC and asleep[ints[k, A]] != asleep[ints[k, B]]:
            _wake(state, asleep, ints[k, A])
            _wake(state, asleep, ints[k, B])
            woke = True
    return woke


@inlined
def _gather_waking(state, asleep, shapes, level, place, boxes, sleepers, movers, settings):
    """The step's contacts (:func:`~.narrow_phase.gather`), gathered again while an awake body wakes a sleeper
    it touches (three times at most); and the awake bodies' rows, ascending."""
    awake, gathered, waking = _rows_awake(asleep), 0, True
    while waking:  # (one call of gather: it is compiled into this function, once)
        ints, floats, count = gather(state, shapes, level, place, boxes, asleep, awake, sleepers, movers, settings)
        gathered += 1
        waking = gathered < 4 and _wake_touched(state, asleep, ints, count)
        if waking:
            awake = _rows_awake(asleep)
    return ints, floats, count, awake


@helper
def _rows_awake(asleep):
    """The rows of the bodies not ``asleep``, ascending."""
    awake, at = np.empty(len(asleep) - _count_true(asleep), np.int64), 0
    for k in range(len(asleep)):
        if not asleep[k]:
            awake[at], at = k, at + 1
    return awake


@helper
def _count_true(flags):
    count = 0
    for k in range(len(flags)):
        count += flags[k]
    return count


class _Events(NamedTuple):
    """Events being made: (E, 4) rows and their normals."""

    rows: np.ndarray
    normals: np.ndarray


@helper
def _event(events, count, kind, a_kind, a, b, nx, ny):
    """Row ``count`` of ``events`` (made with room for every event a step can have)."""
    events.rows[count, 0], events.rows[count, 1], events.rows[count, 2], events.rows[count, 3] = kind, a_kind, a, b
    events.normals[count, 0], events.normals[count, 1] = nx, ny


_CHAIN_BODIES, _CHAIN_OWN, _CHAIN_CHARACTER, _CHAIN_PRESSED = range(4)
"""The fields of :func:`_held_against`'s ``chain`` (4,) int64: the number of bodies, the pusher's own contact,
then what the chain found: the first character it passes through and the body that presses it."""


@helper
def _held_against(ints, floats, count, body, nx, ny, gap, reached, chain):
    """Whether ``body`` is held from moving along (``nx``, ``ny``) by static geometry or a kinematic body, at
    once or through a chain of bodies and characters each further along that direction (a crate stack on the
    floor holds its top crate against a lift coming down; a hero whom a crate and a wall hold holds the crate
    pressed against him: in the rigid step a character is an obstacle that does not give way), touching or
    nearer than ``gap`` px (what a push closes in the step). ``reached``: one flag per body, then one per
    mover, all false (left so). ``chain`` (4, fields ``_CHAIN_*``): the number of bodies and the pusher's own
    contact (left out: a kinematic body does not hold what it leaves; -1: none), then set to the first
    character the chain passes through and the body that presses it, or (-1, -1)."""
    body_count, own = chain[_CHAIN_BODIES], chain[_CHAIN_OWN]
    reached[body] = True
    chain[_CHAIN_CHARACTER], chain[_CHAIN_PRESSED] = -1, -1
    found, grew = False, True
    while grew and not found:
        grew = False
        for j in range(count):
            if j == own or not (ints[j, TOUCHING] or floats[j, CLOSEST] < gap):
                continue
            kind, a, b = ints[j, KIND], ints[j, A], ints[j, B]
            along = floats[j, NX] * nx + floats[j, NX + 1] * ny  # (the contact's normal, A to B, along the push)
            if kind == STATIC or kind == KINEMATIC:
                found = found or (reached[b] and along < -0.5)  # (B leans on A: from B to A is -normal)
                continue
            if kind == CHARACTER:
                a += body_count  # (a character's flag follows the bodies')
                if a >= len(reached):
                    continue
            elif kind != DYNAMIC:
                continue  # (a kinematic body's contact that passes through its body: see :func:`_squeezed`)
            if reached[a] and not reached[b] and along > 0.5:
                reached[b], grew = True, True
            elif reached[b] and not reached[a] and along < -0.5:
                reached[a], grew = True, True
                if kind == CHARACTER and chain[_CHAIN_CHARACTER] < 0:
                    chain[_CHAIN_CHARACTER], chain[_CHAIN_PRESSED] = a - body_count, b
    for k in range(len(reached)):
        reached[k] = False
    return found


@kernel
def held_against(ints, floats, count, body_count, body, nx, ny, gap):
    """:func:`_held_against` for a caller outside the step (the sweep against kinematic bodies, a character's
    floor): whether the contacts ``ints``, ``floats`` (the first ``count``) hold ``body`` (of ``body_count``)
    from moving along (``nx``, ``ny``), touching or nearer than ``gap`` px (-inf: touching only)."""
    movers = 0
    for j in range(count):
        if ints[j, KIND] == CHARACTER:
            movers = max(movers, ints[j, A] + 1)
    chain = np.empty(4, np.int64)
    chain[_CHAIN_BODIES], chain[_CHAIN_OWN] = body_count, -1
    return _held_against(ints, floats, count, body, nx, ny, gap, np.zeros(body_count + movers, np.bool_), chain)


@kernel
def _squeezed(ints, floats, count, kept, asleep, movers, crush_depth, dt, events):
    """Drop the contacts of characters with the body they stand on (they ride it) and of movers that press a
    held body (see :func:`_held_against`; ``kept``: the sleepers' contacts, ints and floats, which hold too): a
    kinematic body moving into it, or a character (which cannot push what is held, and which the held body
    pushes instead; the kinematic bodies first: one that passes through a body holds nothing); and of a
    kinematic body more than ``crush_depth`` px into a body (crushing it, or placed there by game code: pushed
    out at once, the body would be flung). A kinematic body that deep in a body it holds pressed, or that
    presses so far into it in the step, makes a :data:`~.layout.CRUSHED` event naming the body, or a
    :data:`~.layout.SQUEEZED` one naming the character the held chain passes through (the crate pressed
    against a hero does not give way: the hero is squeezed). The rows kept move up, in order; returns how many
    are kept and how many events were made."""
    keep, made, crushed, squeezed = np.ones(count, np.bool_), np.int64(0), np.int64(CRUSHED), np.int64(SQUEEZED)
    reached, chain = np.zeros(len(asleep) + len(movers), np.bool_), np.empty(4, np.int64)
    chain[_CHAIN_BODIES] = len(asleep)
    chain_ints, chain_floats = _followed_by(ints, floats, _NONE, ints[:0], floats[:0], asleep, _EVERY)  # (none yet)
    for characters in (False, True):
        for k in range(count if characters and len(chain_ints) else 0):
            if not keep[k] and ints[k, KIND] == KINEMATIC:
                chain_ints[k, KIND] = _PASSES  # (a kinematic body that passes through a body holds nothing)
        for k in range(count):
            kind, mover, body = ints[k, KIND], ints[k, A], ints[k, B]
            if (kind == CHARACTER) != characters or not (kind == KINEMATIC or kind == CHARACTER):
                continue
            if kind == CHARACTER and movers[mover, MOVER_STANDS_ON] == body + 1:
                keep[k] = False  # (its rider goes where it goes, after the step: no lid on a crate thrown up)
                continue
            pressing, deep, gap, nx, ny = _push_of(ints, floats, k, movers, crush_depth, dt)
            if (pressing or deep) and len(chain_ints) == 0:  # (at the first push: this step's and the sleepers')
                chain_ints, chain_floats = _followed_by(ints, floats, count, kept[0], kept[1], asleep, _EVERY)
            chain[_CHAIN_OWN] = k
            held = (pressing or deep) and _held_against(chain_ints, chain_floats, len(chain_ints), body, nx, ny,
                                                        gap, reached, chain)
            if held or deep:  # (deep in a kinematic body: crushed, or placed there; pushed out, it would fly)
                keep[k] = False
            if held and kind == KINEMATIC and (deep or floats[k, CLOSEST] - gap < -crush_depth):
                if chain[_CHAIN_CHARACTER] >= 0:
                    _event(events, made, squeezed, np.int64(CHARACTER), chain[_CHAIN_CHARACTER],
                           chain[_CHAIN_PRESSED], nx, ny)
                else:
                    _event(events, made, crushed, kind, mover, body, nx, ny)
                made += 1
    if _count_true(keep) == count:
        return count, made
    kept_rows = np.int64(0)
    for k in range(count):
        if keep[k]:
            _copy_contact(ints, floats, kept_rows, ints, floats, k)
            kept_rows += 1
    return kept_rows, made


_PASSES = -1
"""A contact kind in :func:`_squeezed`'s copy of the contacts: a mover's contact dropped (it passes through)."""


@helper
def _push_of(ints, floats, k, movers, crush_depth, dt):
    """How mover contact ``k`` pushes its body: (pressing, deep, gap, nx, ny): whether it presses it (a character
    always; a kinematic body moving into it), whether a kinematic body is more than ``crush_depth`` px in it,
    how far the push closes in the step (px; -inf for a character: touching only) and its direction (the
    normal, or a deep kinematic body's motion: deep in, the normal may point anywhere)."""
    kind, mover = ints[k, KIND], ints[k, A]
    nx, ny = floats[k, NX], floats[k, NX + 1]
    if kind != KINEMATIC:
        return True, False, -np.inf, nx, ny
    deep = floats[k, CLOSEST] < -crush_depth
    vx, vy = movers[mover, MOVER_VX], movers[mover, MOVER_VX + 1]
    gap = (vx * nx + vy * ny) * dt
    speed = length(vx, vy)
    if deep and speed > 0.0:
        nx, ny = vx / speed, vy / speed
    return gap > 0.0, deep, gap, nx, ny


@helper
def _copy_contact(to_ints, to_floats, i, ints, floats, j):
    """Contact ``j`` of ``ints``, ``floats`` into row ``i`` of ``to_ints``, ``to_floats`` (one helper for both
    tables: compiled once, for one set of argument types)."""
    for c in range(CONTACT_INTS):
        to_ints[i, c] = ints[j, c]
    for c in range(CONTACT_FLOATS):
        to_floats[i, c] = floats[j, c]


@kernel
def _participant_rows(ints, count, awake, asleep, movers):
    """Each contact's rows of A and B, (m, 2): the awake bodies are rows 0.. in order; static geometry (one
    row), the movers and the sleepers that contacts name get fixed rows after them, in the order first named.
    Returns the pairs, each row's kind (STATIC, KINEMATIC or CHARACTER for a mover, DYNAMIC for a body) and what
    it is (a mover's or a body's row; -1 for static geometry)."""
    dyn = len(awake)
    body_row, mover_row = np.full(len(asleep), -1, np.int64), np.full(len(movers), -1, np.int64)
    for r in range(dyn):
        body_row[awake[r]] = r
    row_kind, row_of = np.empty(dyn + count + 1, np.int64), np.empty(dyn + count + 1, np.int64)
    for r in range(dyn):  # (a loop: an array slice assignment compiles numba's string-formatting error path)
        row_kind[r], row_of[r] = DYNAMIC, awake[r]
    pair, rows, static_row = np.empty((count, 2), np.int64), dyn, -1
    for k in range(count):
        kind, a, b = ints[k, KIND], ints[k, A], ints[k, B]
        if kind == STATIC:
            if static_row < 0:
                static_row, row_kind[rows], row_of[rows], rows = rows, STATIC, -1, rows + 1
            pair[k, 0] = static_row
        elif kind == DYNAMIC:
            if body_row[a] < 0:
                body_row[a], row_kind[rows], row_of[rows], rows = rows, DYNAMIC, a, rows + 1
            pair[k, 0] = body_row[a]
        else:
            if mover_row[a] < 0:
                mover_row[a], row_kind[rows], row_of[rows], rows = rows, kind, a, rows + 1
            pair[k, 0] = mover_row[a]
        if body_row[b] < 0:
            body_row[b], row_kind[rows], row_of[rows], rows = rows, DYNAMIC, b, rows + 1
        pair[k, 1] = body_row[b]
    return pair, row_kind[:rows], row_of[:rows]


@kernel
def _rows(state, shapes, movers, row_kind, row_of, dyn):
    """The solve's rows (see :data:`~.contact_solver.ROW_COLUMNS`): awake bodies, then fixed rows (inverse
    mass zero): static geometry at rest at the origin, movers where they started at the speed they moved,
    sleepers where they lie."""
    rows = np.zeros((len(row_kind), ROW_COLUMNS))
    for r in range(len(row_kind)):
        kind, what = row_kind[r], row_of[r]
        if kind == DYNAMIC:
            for j in range(3):
                rows[r, ROW_VX + j], rows[r, ROW_X + j] = state[what, VX + j], state[what, X + j]
            if r < dyn:
                rows[r, ROW_INV_MASS], rows[r, ROW_INV_INERTIA] = state[what, INV_MASS], state[what, INV_INERTIA]
                rows[r, ROW_EXTENT], rows[r, ROW_GRAVITY_SCALE] = shapes.extent[what], state[what, GRAVITY_SCALE]
                rows[r, ROW_CIRCLE] = 1.0 if shapes.offsets[what + 1] - shapes.offsets[what] == 1 else 0.0
        elif kind != STATIC:
            for j in range(3):
                rows[r, ROW_VX + j], rows[r, ROW_X + j] = movers[what, MOVER_VX + j], movers[what, MOVER_X + j]
    return rows


@kernel
def _table(state, ints, floats, pair, rows, movers, order, light, settings, dyn):
    """The contact table in colour order (``order``), with each contact's light, stiff and static flags, mixed
    friction (geometric mean) and restitution (the larger), and its accumulated impulses (m, 4), light ones
    without their friction."""
    m = len(order)
    table, impulse = np.zeros((m, TABLE_COLUMNS)), np.empty((m, 4))
    for i in range(m):
        k = order[i]
        kind, a, b = ints[k, KIND], ints[k, A], ints[k, B]
        if kind == DYNAMIC:
            fa, ea = state[a, BODY_FRICTION], state[a, BODY_RESTITUTION]
        elif kind == STATIC:
            fa, ea = settings[STATIC_FRICTION], 0.0
        else:
            fa, ea = movers[a, MOVER_FRICTION], 0.0
        ra, rb = pair[k, 0], pair[k, 1]
        uneven = ra < dyn and rb < dyn and max(rows[ra, ROW_INV_MASS], rows[rb, ROW_INV_MASS]) > settings[
            UNEVEN_RATIO] * min(rows[ra, ROW_INV_MASS], rows[rb, ROW_INV_MASS])
        table[i, TABLE_NX], table[i, TABLE_NX + 1] = floats[k, NX], floats[k, NX + 1]
        table[i, FRICTION] = math.sqrt(fa * state[b, BODY_FRICTION])
        table[i, TABLE_RESTITUTION] = max(ea, state[b, BODY_RESTITUTION])
        table[i, STIFF] = 1.0 if kind != DYNAMIC or uneven else 0.0
        table[i, TABLE_STATIC] = 1.0 if kind == STATIC else 0.0
        table[i, LIGHT] = 1.0 if light[k] else 0.0
        for slot in range(2):
            table[i, TABLE_VALID0 + slot] = 1.0 if ints[k, VALID0 + slot] else 0.0
            table[i, TABLE_POINT0_X + 2 * slot] = floats[k, POINT0_X + 2 * slot]
            table[i, TABLE_POINT0_X + 2 * slot + 1] = floats[k, POINT0_X + 2 * slot + 1]
            table[i, TABLE_SEP0 + slot] = floats[k, SEP0 + slot] if ints[k, VALID0 + slot] else 0.0
        for j in range(8):
            table[i, ANCHOR_A0_X + j] = floats[k, ANCHOR0_AX + j]
        for j in range(4):
            impulse[i, j] = floats[k, NORMAL0 + j]
        if table[i, LIGHT] > 0.0:
            impulse[i, 2] = impulse[i, 3] = 0.0
    return table, impulse


@helper
def _light(floats, k, kind, rows, ra, rb, settings):
    """Whether contact ``k`` is light: apart at step start by more than the light gap and not closing that gap
    within the step, even turning and falling; only between bodies or on static geometry."""
    if not (kind == DYNAMIC or kind == STATIC):
        return False
    nx, ny, dt = floats[k, NX], floats[k, NX + 1], settings[STEP_DT]
    gap = floats[k, CLOSEST] - settings[LIGHT_GAP]
    closing = ((rows[ra, ROW_VX] - rows[rb, ROW_VX]) * nx + (rows[ra, ROW_VX + 1] - rows[rb, ROW_VX + 1]) * ny
               + abs(rows[ra, ROW_VX + 2]) * rows[ra, ROW_EXTENT] + abs(rows[rb, ROW_VX + 2]) * rows[rb, ROW_EXTENT]
               + abs(settings[GRAVITY_X] * nx + settings[GRAVITY_Y] * ny) * dt)
    return gap > 0.0 and closing * dt < gap


@inlined
def _solve_awake(state, shapes, movers, ints, floats, count, awake, asleep, params, settings):
    """Solve the contacts and move the awake bodies (their rows of ``state``); the contacts' impulses and
    sliding flags are written back into their rows. Returns the fast bodies (rows) and how far they moved."""
    dyn = len(awake)
    pair, row_kind, row_of = _participant_rows(ints, count, awake, asleep, movers)
    rows = _rows(state, shapes, movers, row_kind, row_of, dyn)
    light = np.empty(count, np.bool_)
    for k in range(count):
        light[k] = _light(floats, k, ints[k, KIND], rows, pair[k, 0], pair[k, 1], settings)
    order, starts, light_colours = colour_order(pair, dyn, light)
    table, impulse = _table(state, ints, floats, pair, rows, movers, order, light, settings, dyn)
    uneven = False
    for i in range(count):
        uneven = uneven or (table[i, STIFF] > 0.0 and ints[order[i], KIND] == DYNAMIC)
    step_params, ordered = np.empty(params.shape[1]), np.empty((count, 2), np.int64)
    for j in range(params.shape[1]):
        step_params[j] = params[1 if uneven else 0, j]
    step_params[DYNAMIC_ROWS] = dyn
    for i in range(count):
        ordered[i, 0], ordered[i, 1] = pair[order[i], 0], pair[order[i], 1]
    displacement, sliding = solve(rows, dyn, ordered, table, impulse, (starts, light_colours), step_params,
                                  settings[ROTATION_ERROR])
    for i in range(count):
        k = order[i]
        for j in range(4):
            floats[k, NORMAL0 + j] = impulse[i, j]
        ints[k, SLIDING0], ints[k, SLIDING0 + 1] = sliding[i, 0], sliding[i, 1]
    fast, moved, fast_count = np.empty(dyn, np.int64), np.empty((dyn, 2)), 0
    for r in range(dyn):
        body = awake[r]
        for j in range(3):
            state[body, X + j] = state[body, X + j] + displacement[r, j]
            state[body, VX + j] = rows[r, ROW_VX + j]
        if length(displacement[r, 0], displacement[r, 1]) >= shapes.reach[body]:
            fast[fast_count], moved[fast_count, 0], moved[fast_count, 1] = body, displacement[r, 0], displacement[r, 1]
            fast_count += 1
    return fast[:fast_count], moved[:fast_count]


@kernel
def _may_hit_level(level, shapes, state, fast, moved):
    """The fast bodies (and how far they moved) whose box swept over their move meets a segment's box: the
    others have no segment to enter, and are not swept (a falling pile's crates are mostly in mid-air). The box
    is the one the sweep itself looks for segments in (``RigidBodySet._sweep``: the shape where it started, at
    the angle it ends with, moved along its move), grown by :data:`_SWEPT_MARGIN` against rounding: a body
    left out here would have found no segment there."""
    swept, core, offsets, radius = np.empty((len(fast), 4)), shapes.core, shapes.offsets, shapes.radius
    for i in range(len(fast)):
        body, dx, dy = fast[i], moved[i, 0], moved[i, 1]
        angle = state[body, ANGLE]
        put_box(swept, i, core, offsets[body], offsets[body + 1], math.cos(angle), math.sin(angle),
                state[body, PREVIOUS_X], state[body, PREVIOUS_X + 1], radius[body] + _SWEPT_MARGIN)
        swept[i, 0], swept[i, 1] = swept[i, 0] + min(dx, 0.0), swept[i, 1] + min(dy, 0.0)
        swept[i, 2], swept[i, 3] = swept[i, 2] + max(dx, 0.0), swept[i, 3] + max(dy, 0.0)
    meets = np.zeros(len(fast), np.bool_)
    for row in level_pairs(level, swept)[1]:
        meets[row] = True
    kept, keep_fast, keep_moved = 0, np.empty(len(fast), np.int64), np.empty((len(fast), 2))
    for i in range(len(fast)):
        if meets[i]:
            keep_fast[kept], keep_moved[kept, 0], keep_moved[kept, 1] = fast[i], moved[i, 0], moved[i, 1]
            kept += 1
    return keep_fast[:kept], keep_moved[:kept]


_SWEPT_MARGIN = 1.0
"""Pixels: :func:`_may_hit_level`'s box is grown by this much beyond the sweep's own (its vertices are turned
here by numba's ``cos`` and ``sin``, there by Python's)."""

_EVERY, _ASLEEP, _AWAKE = np.int64(-1), np.int64(0), np.int64(1)
""":func:`_followed_by`'s choices. numpy integers: numba types a plain int constant as a literal and compiles a
kernel again for each literal it is called with."""
_NONE = np.int64(0)
"""No contacts (a count)."""


@helper
def _carried(ints, j, asleep):
    """Whether contact ``j`` is carried unchanged (kept aside): its B sleeps and its A is no awake body (nothing
    near it moved)."""
    return asleep[ints[j, B]] and not (ints[j, KIND] == DYNAMIC and not asleep[ints[j, A]])


@kernel
def _followed_by(ints, floats, count, more_ints, more_floats, asleep, which):
    """The first ``count`` contacts of ``ints``, ``floats`` followed by those of ``more_ints``, ``more_floats``
    that are carried (:func:`_carried`) when ``which`` is 1, that are not when it is 0, or all when it is -1,
    in order. (The test written out, not called: numba would count references at every contact.)"""
    wanted, extra = np.empty(len(more_ints), np.bool_), 0
    for j in range(len(more_ints)):
        a_awake = more_ints[j, KIND] == DYNAMIC and not asleep[more_ints[j, A]]
        wanted[j] = which < 0 or (asleep[more_ints[j, B]] and not a_awake) == (which == 1)
        extra += wanted[j]
    all_ints = np.empty((count + extra, CONTACT_INTS), np.int64)
    all_floats = np.empty((count + extra, CONTACT_FLOATS))
    for k in range(count):
        _copy_contact(all_ints, all_floats, k, ints, floats, k)
    for j in range(len(more_ints)):
        if wanted[j]:
            _copy_contact(all_ints, all_floats, count, more_ints, more_floats, j)
            count += 1
    return all_ints, all_floats


@kernel
def _touch_events(ints, floats, count, source, old_ints, asleep, events, made):
    """The pairs that began touching (normal from A to B) and those that stopped (from the last step's
    contacts; not those carried, see :func:`_carried`), after ``made`` events; returns how many events there
    are."""
    still, began, ended = np.zeros(len(old_ints), np.bool_), np.int64(BEGAN), np.int64(ENDED)
    for k in range(count):
        src = source[k]
        if ints[k, TOUCHING]:
            if src < 0 or not old_ints[src, TOUCHING]:
                _event(events, made, began, ints[k, KIND], ints[k, A], ints[k, B], floats[k, NX], floats[k, NX + 1])
                made += 1
            if src >= 0:
                still[src] = True
    for j in range(len(old_ints)):
        if old_ints[j, TOUCHING] and not still[j] and not _carried(old_ints, j, asleep):
            _event(events, made, ended, old_ints[j, KIND], old_ints[j, A], old_ints[j, B], 0.0, 0.0)
            made += 1
    return made


@kernel
def step(state, shape_arrays, level_arrays, movers, old_ints, old_floats, sleep, cache, params, settings):
    """Advance the rigid bodies by one step (see the module docstring). Returns (status, contact ints, contact
    floats, sleep, events, event normals, fast bodies, how far each moved): the status is 0 when it stepped,
    :data:`~.layout.RESTING` or :data:`ASLEEP` when nothing moved and the last contacts stand; the contact set
    of the awake bodies as :mod:`.layout` names its columns; the sleepers' (as ``sleep``, for the next step);
    the events (kind, A's kind, A, B) with a normal each; the fast bodies whose move may meet the level (rows)
    with their displacement (px).

    ``state``: the bodies' rows (:data:`~.layout.STATE_COLUMNS`), read and written in place;
    ``shape_arrays``: the bodies' shapes, then the movers' (the fields of a :class:`~.layout.Shapes`, as a plain
    tuple); ``level_arrays``: the static segments (those of a :class:`~.layout.Level`); ``movers``:
    (M, :data:`~.layout.MOVER_COLUMNS`); ``old_ints``, ``old_floats``: the last step's contacts of the awake
    bodies; ``sleep``: what the last step kept of the sleepers: their contacts (ints, floats, carried unchanged
    while they sleep) and the index of their boxes (:func:`~.broad_phase.sleeper_index`: rows, min x, widest);
    ``cache``: each shape's placement and box at step start (:func:`~.narrow_phase.place_and_box`), written
    for the bodies that may have moved (a sleeper's stand), and the rows awake in the last step (how many,
    then the rows), written for the next; ``params``: the
    solve's parameters (2,
    :data:`~.layout.PARAMETERS`); ``settings``: :data:`~.layout.SETTINGS`."""
    # (The shapes and the level arrive as plain tuples: numba's dispatcher types a plain tuple of arrays at C
    # speed, a named tuple in Python, some 10 us a call. Named again here, for the kernels.)
    shapes, level = Shapes(*shape_arrays), Level(*level_arrays)
    if _nothing_to_do(state, movers):
        return _nothing(np.int64(RESTING), old_ints, old_floats, sleep)
    body_count = len(state)
    kept_ints, kept_floats, sleepers = sleep[0], sleep[1], (sleep[2], sleep[3], sleep[4])
    place, boxes, active = cache
    asleep, placed, fresh = _begin(state, active[1:1 + active[0]])
    place_and_box(shapes, state, movers, fresh, place, boxes, settings[SPECULATIVE])
    if _any_fell_asleep(fresh, asleep, placed):  # (into the index; not reassigned in a loop: see _any_fell_asleep)
        sleepers = sleeper_index(boxes[:body_count], asleep)
    _wake_by_changes(state, asleep, placed, fresh, boxes, movers, (old_ints, kept_ints), sleepers)
    if _count_true(asleep) == body_count:
        active[0] = 0
        return _nothing(np.int64(ASLEEP), old_ints, old_floats, (kept_ints, kept_floats, sleepers[0], sleepers[1],
                                                                 sleepers[2]))
    ints, floats, count, awake = _gather_waking(state, asleep, shapes, level, place, boxes, sleepers, movers, settings)
    if _any_woke(awake, active[1:1 + active[0]], body_count):  # (their contacts kept aside join the last step's)
        old_ints, old_floats = _followed_by(old_ints, old_floats, len(old_ints), kept_ints, kept_floats, asleep, _ASLEEP)
        kept_ints, kept_floats = _followed_by(kept_ints, kept_floats, _NONE, kept_ints, kept_floats, asleep, _AWAKE)
    room = 2 * (count + len(old_ints))  # (crushed and began: at most one a contact; ended: one an old contact)
    events = _Events(np.empty((room, EVENT_COLUMNS), np.int64), np.empty((room, 2)))
    count, made = _squeezed(ints, floats, count, (kept_ints, kept_floats), asleep, movers,
                            settings[CRUSH_DEPTH], settings[STEP_DT], events)
    source = warm_start(ints, floats, count, old_ints, old_floats, len(old_ints), place, body_count, placed)
    fast, moved = _solve_awake(state, shapes, movers, ints, floats, count, awake, asleep, params, settings)
    if settings[CONTINUOUS_ON] > 0.0 and len(fast):
        fast, moved = _may_hit_level(level, shapes, state, fast, moved)
    if settings[SLEEP_ON] > 0.0:
        held = np.zeros(body_count, np.bool_)
        for k in range(count):
            if ints[k, TOUCHING] and (ints[k, KIND] == KINEMATIC or ints[k, KIND] == CHARACTER):
                held[ints[k, B]] = held[ints[k, B]] or movers[ints[k, A], MOVER_MOVING] > 0.0
        rest_and_sleep(state, awake, shapes.extent, settings[STEP_DT], settings[SLEEP_VELOCITY],
                       settings[TIME_TO_SLEEP], ints, count, held)
    made = _touch_events(ints, floats, count, source, old_ints, asleep, events, made)
    carried_ints, carried_floats = _followed_by(old_ints, old_floats, _NONE, old_ints, old_floats, asleep, _AWAKE)
    if len(carried_ints):  # (the contacts of the bodies that fell asleep at the last step's end: kept aside)
        kept_ints, kept_floats = _followed_by(carried_ints, carried_floats, len(carried_ints), kept_ints,
                                              kept_floats, asleep, _EVERY)
    ints, floats = _followed_by(ints, floats, count, ints[:0], floats[:0], asleep, _EVERY)
    active[0] = len(awake)
    for r in range(len(awake)):
        active[1 + r] = awake[r]
    return (np.int64(0), ints, floats, (kept_ints, kept_floats, sleepers[0], sleepers[1], sleepers[2]),
            events.rows[:made], events.normals[:made], fast, moved)
