"""Preparing the solve, compiled (numba): graph colours, warm starting and the contact table, one call each
per step instead of a Python loop or dozens of small numpy operations.

:func:`colour_contacts` colours the contacts greedily so that no two of a colour share a dynamic body.

:func:`contact_table` matches this step's contacts to the last step's by pair key and feature id (a point
may have moved to the other slot), carries their accumulated impulses and friction anchors, makes fresh
anchors where none carried over, and writes the numbers :func:`engine.world.kernel.solve_step` reads. Light
contacts (separated, not closing) carry no friction; points that slid let their anchors go. Pixels, radians;
anchors are in each body's own frame.
"""

from __future__ import annotations


import numba
import numpy as np

import engine.world.kernel as k_  # (the column names)

__all__ = ["carried_in_order", "carried_rows", "colour_contacts", "colour_numbers", "compile_steps",
           "contact_table", "fill_contact_table", "fill_table", "fill_table_from", "rows_by_key"]

_jit = numba.njit(cache=True, nogil=True, fastmath=False)
_inline = numba.njit(inline="always", fastmath=False)
_without_runtime = numba.njit(cache=True, nogil=True, fastmath=False, _nrt=False)  # type: ignore[call-overload]
"""The loops that allocate nothing: compiled without numba's runtime (see :mod:`engine.world.kernel`)."""
"""Small helpers of the per-contact loops, inlined (a call passing arrays costs more than their work)."""


_OVERFLOW = 62
"""The last colour: contacts of a body that already has this many colours all go here (solved one after the
other like any colour, they are correct, only no longer independent; it takes a body in 62 contacts)."""


@_jit
def colour_numbers(ia, ib, dynamic_rows, light):
    """Each contact's colour and how many colours the full (not light) contacts use. Greedy: each contact takes
    the lowest colour neither of its dynamic rows has yet (fixed rows never conflict; colours are bit masks per
    row). The full contacts are coloured first, then the light ones, which fill the gaps those colours left
    and open light colours only for the rest."""
    used = np.zeros(dynamic_rows + 1, dtype=np.int64)
    fixed = dynamic_rows  # every fixed row shares this slot, cleared after each contact: it never conflicts
    colour = np.zeros(len(ia), dtype=np.int64)
    full_colours = 0
    for want in (False, True):
        for k in range(len(ia)):
            if light[k] != want:
                continue
            a, b = min(ia[k], fixed), min(ib[k], fixed)
            taken = used[a] | used[b]
            c = 0
            while c < _OVERFLOW and (taken >> c) & 1:
                c += 1
            used[a] |= 1 << c
            used[b] |= 1 << c
            used[fixed] = 0
            colour[k] = c
            if not want:
                full_colours = max(full_colours, c + 1)
    return colour, full_colours


def colour_contacts(ia: np.ndarray, ib: np.ndarray, dynamic_rows: int,
                    light: np.ndarray) -> tuple[np.ndarray, list[int], list[bool]]:
    """Graph colours of contacts between rows ``ia`` and ``ib`` (the first ``dynamic_rows`` rows are dynamic
    bodies; ``light``: contacts solved with normals only). Returns the contacts in colour order, the size of
    each colour and which colours are light."""
    colour, full_colours = colour_numbers(np.ascontiguousarray(ia, dtype=np.int64),
                                           np.ascontiguousarray(ib, dtype=np.int64), int(dynamic_rows),
                                           np.ascontiguousarray(light, dtype=np.bool_))
    order = np.argsort(colour, kind="stable")
    sizes = np.bincount(colour, minlength=1)
    present = np.flatnonzero(sizes)
    return order, sizes[present].tolist(), (present >= full_colours).tolist()


@_jit
def _match(old_keys, keys):
    """For each key, the index of the same key in ``old_keys`` (-1 when it is new)."""
    source = np.full(len(keys), -1, dtype=np.int64)
    if len(old_keys) == len(keys) and np.all(old_keys == keys):  # the same pairs in the same order (at rest)
        for i in range(len(keys)):
            source[i] = i
        return source
    order = np.argsort(old_keys, kind="mergesort")
    ordered = old_keys[order]
    at = np.searchsorted(ordered, keys)
    for i in range(len(keys)):
        if at[i] < len(ordered) and ordered[at[i]] == keys[i]:
            source[i] = order[at[i]]
    return source


@_jit
def carried_rows(order, found_keys, old_keys, old_order):
    """For each contact in colour order (``order``: indices into ``found_keys``, this step's keys in the order
    found), its row among the last step's contacts (``old_keys``, in the last colour order), -1 for a new
    pair: what :func:`_match` gives. When the same pairs were found in the same order as in the last step (a
    pile at rest, or one whose light contacts changed colour), the last colouring's ``old_order`` maps them
    without a sort: found index -> last row. Keys are unique within a step, so both ways agree."""
    source = np.empty(len(order), dtype=np.int64)
    if carried_in_order(order, found_keys, old_keys, old_order, source, np.empty(len(order), dtype=np.int64)):
        return source
    return rows_by_key(order, found_keys, old_keys)


@_jit
def rows_by_key(order, found_keys, old_keys):
    """:func:`carried_rows` by sorting the last step's keys (for pairs not found in the same order as then)."""
    return _match(old_keys, found_keys[order])


@_without_runtime
def carried_in_order(order, found_keys, old_keys, old_order, source, last_row):
    """:func:`carried_rows` into ``source`` when the same pairs were found in the same order as in the last
    step (then the last colouring maps them without a sort); returns whether they were. ``last_row``: scratch,
    one per contact."""
    if not (len(old_order) == len(old_keys) and len(old_keys) == len(found_keys)):
        return False
    for i in range(len(old_order)):
        if found_keys[old_order[i]] != old_keys[i]:
            return False
    for i in range(len(order)):
        last_row[old_order[i]] = i
    for p in range(len(order)):
        source[p] = last_row[order[p]]
    return True


@_inline
def _carry(i, slot, src, old_ids, old_valid, ids, valid):
    """Which slot of old contact ``src`` point ``slot`` of contact ``i`` continues (-1 for none): the same
    slot first, else the other one, when the feature id matches."""
    if src < 0 or not valid[i, slot]:
        return -1
    if old_valid[src, slot] and old_ids[src, slot] == ids[i, slot]:
        return slot
    other = 1 - slot
    if old_valid[src, other] and old_ids[src, other] == ids[i, slot]:
        return other
    return -1


def contact_table(*arrays: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`fill_contact_table` on ``arrays`` made C-contiguous in the one dtype each is compiled for (keys and
    ids int64, flags bool, numbers float64): another type would compile a new version mid-game."""
    return fill_contact_table(*(np.ascontiguousarray(a, dtype=_DTYPES.get(a.dtype.kind, np.float64)) for a in arrays))[:3]


_DTYPES = {"b": np.bool_, "i": np.int64, "u": np.int64}


@_jit
def fill_contact_table(old_keys, old_ids, old_valid, old_impulse, old_sliding, old_anchors, keys, ids, valid, normal,
                       point, separation, stiff, static, light, friction, restitution, pair, center, angle):
    """The solve's contact table ((m, CONTACT_COLUMNS)), the carried accumulated impulses ((m, 4): normal 0,
    normal 1, tangent 0, tangent 1) and the friction anchors ((m, 2, 4): per point, A's x, y then B's, each in
    its body's frame), for this step's contacts in colour order. ``old_*``: the last step's contacts (their
    ``old_impulse`` (n, 4), ``old_anchors`` (n, 2, 4)); ``pair``: solver rows of A and B; ``center``,
    ``angle``: every row's placement at step start. Last, each contact's row among the last step's (-1 for a
    new pair)."""
    impulse, anchors = np.zeros((len(keys), 4)), np.zeros((len(keys), 2, 4))
    table, source = fill_table_from(_match(old_keys, keys), old_ids, old_valid, old_impulse, old_sliding, old_anchors,
                                    keys, ids, valid, normal, point, separation, stiff, static, light, friction,
                                    restitution, pair, center, k_.angle_trig(angle), impulse, anchors)
    return table, impulse, anchors, source


@_jit
def fill_table_from(source, old_ids, old_valid, old_impulse, old_sliding, old_anchors, keys, ids, valid, normal,
                    point, separation, stiff, static, light, friction, restitution, pair, center, trig, impulse,
                    anchors):
    """:func:`fill_contact_table` with each contact's row among the last step's given (``source``, -1 for a
    new pair; :func:`carried_rows`) and each row's cos and sin of its angle (``trig``, (rows, 2)), the impulses
    and anchors written into ``impulse`` and ``anchors`` (zeroed, (m, 4) and (m, 2, 4)). Returns the table and
    ``source``."""
    table = np.zeros((len(keys), k_.CONTACT_COLUMNS))
    fill_table(source, old_ids, old_valid, old_impulse, old_sliding, old_anchors, ids, valid, normal, point,
                separation, stiff, static, light, friction, restitution, pair, center, trig, table, impulse, anchors)
    return table, source


@_without_runtime
def fill_table(source, old_ids, old_valid, old_impulse, old_sliding, old_anchors, ids, valid, normal, point,
                separation, stiff, static, light, friction, restitution, pair, center, trig, table, impulse, anchors):
    """:func:`fill_table_from`'s loops, into its arrays (``table``: (m, CONTACT_COLUMNS), every column
    written; ``trig``: each row's cos and sin). Compiled without numba's runtime, as
    :mod:`engine.world.kernel`'s contact loops are: the solve calls it directly, with its 22 arrays not counted
    in and out."""
    for i in range(len(ids)):
        a, b = pair[i, 0], pair[i, 1]
        for slot in range(2):
            old = _carry(i, slot, source[i], old_ids, old_valid, ids, valid)
            if old >= 0:
                impulse[i, slot] = old_impulse[source[i], old]
                impulse[i, 2 + slot] = 0.0 if light[i] else old_impulse[source[i], 2 + old]
            if old >= 0 and not old_sliding[source[i], old]:
                for j in range(4):
                    anchors[i, slot, j] = old_anchors[source[i], old, j]
            else:  # a fresh anchor: the contact point in each body's frame at step start
                for side, row in ((0, a), (1, b)):
                    c, s = trig[row, 0], trig[row, 1]
                    rx, ry = point[i, slot, 0] - center[row, 0], point[i, slot, 1] - center[row, 1]
                    anchors[i, slot, 2 * side], anchors[i, slot, 2 * side + 1] = c * rx + s * ry, c * ry - s * rx
            table[i, k_.VALID0 + slot] = 1.0 if valid[i, slot] else 0.0
            table[i, k_.POINT0_X + 2 * slot], table[i, k_.POINT0_Y + 2 * slot] = point[i, slot, 0], point[i, slot, 1]
            table[i, k_.SEP0 + slot] = separation[i, slot] if valid[i, slot] else 0.0
            table[i, k_.ANCHOR_A0_X + 2 * slot] = anchors[i, slot, 0]
            table[i, k_.ANCHOR_A0_Y + 2 * slot] = anchors[i, slot, 1]
            table[i, k_.ANCHOR_B0_X + 2 * slot] = anchors[i, slot, 2]
            table[i, k_.ANCHOR_B0_Y + 2 * slot] = anchors[i, slot, 3]
        table[i, k_.NX], table[i, k_.NY] = normal[i, 0], normal[i, 1]
        table[i, k_.FRICTION], table[i, k_.RESTITUTION] = friction[i], restitution[i]
        table[i, k_.STIFF], table[i, k_.STATIC] = 1.0 if stiff[i] else 0.0, 1.0 if static[i] else 0.0


def compile_steps():
    """Compile (or load from the disk cache) :func:`fill_contact_table` on a one-contact scene; yields its name."""
    one = np.ones(1, dtype=np.bool_)
    contact_table(np.zeros(0, dtype=np.int64), np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2), dtype=np.bool_),
                  np.zeros((0, 4)), np.zeros((0, 2), dtype=np.bool_), np.zeros((0, 2, 4)), np.zeros(1, dtype=np.int64),
                  np.zeros((1, 2), dtype=np.int64), np.ones((1, 2), dtype=np.bool_), np.array([[0.0, 1.0]]),
                  np.zeros((1, 2, 2)), np.zeros((1, 2)), one, one, ~one, np.ones(1), np.zeros(1),
                  np.array([[1, 0]], dtype=np.int64), np.zeros((2, 2)), np.zeros(2))
    colour_contacts(np.array([1]), np.array([0]), 1, ~one)
    yield "warm starting and colours"
