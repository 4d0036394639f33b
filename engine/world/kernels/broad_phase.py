"""Which shapes may touch (compiled): the bodies' boxes, the body pairs by sort and sweep, and the level's
segments near a box through its uniform grid.

Boxes are (min x, min y, max x, max y) in px; touching boxes overlap. A level is a :class:`~.layout.Level` of arrays
(made once per level by :class:`~engine.world.static.StaticGeometry`): each segment as a two-vertex shape
(rows 2s and 2s + 1 of ``core``: its ends, with its two side normals), its radius, box and collision filter,
the joint table of the seam rule, and the grid (cell ``(ix, iy)`` has key ``ix * 2**32 + iy + 2**31``; its
segments are ``members[cell_starts[c]:cell_starts[c + 1]]`` for the cell's row ``c`` in the sorted
``cell_keys``).
"""

from __future__ import annotations

import math
import numpy as np

from .compile import helper, kernel
from .layout import SEGMENT_BOX, SEGMENT_FILTER, SEGMENT_MARK, Level

__all__ = ["argsort", "awake_pairs", "filter_values_touch", "filters_touch", "gather_in_box", "grid_of",
           "level_pairs", "overlap", "segments_in_box", "segments_near", "sleeper_index", "sleepers_from",
           "STRIPS_FROM", "sweep_pairs"]

STRIPS_FROM = 512
"""From this many boxes on, :func:`sweep_pairs` searches in strips: below it, a sweep along x costs less than
sorting the boxes along y too (10 boxes: 2.5 us against 4.4 in strips; 300 boxes of a falling pile: 16 us
against 27), above it far more (the 990-crate pyramid: 250 us against 110, a 5,000-crate pile's boxes: 1,120 us
against 520)."""

# (The kernels sort and search with their own loops, not numpy's: each numpy function a kernel calls is
# compiled with it, seconds of a cold start apiece, for a few lines of work.)


@helper
def overlap(boxes_a, i, boxes_b, j):
    """Whether box ``i`` of ``boxes_a`` and box ``j`` of ``boxes_b`` overlap or touch. (``&``, not ``and``: one
    block without branches, so that where LLVM inlines it in a loop the references it counts on its arrays
    cancel out; with branches they stay, two atomic counts an array at every call.)"""
    return ((boxes_a[i, 0] <= boxes_b[j, 2]) & (boxes_a[i, 2] >= boxes_b[j, 0]) & (boxes_a[i, 1] <= boxes_b[j, 3])
            & (boxes_a[i, 3] >= boxes_b[j, 1]))


@helper
def filters_touch(filters_a, i, filters_b, j):
    """Whether collider ``i`` (of ``filters_a``) and ``j`` (of ``filters_b``) touch, by their (category, mask,
    group) rows: :meth:`~engine.types.CollisionFilter.touches`."""
    return filter_values_touch(filters_a[i, 0], filters_a[i, 1], filters_a[i, 2], filters_b[j, 0], filters_b[j, 1],
                               filters_b[j, 2])


@helper
def filter_values_touch(category, mask, group, other_category, other_mask, other_group):
    """:meth:`~engine.types.CollisionFilter.touches` of two filters given as numbers. (Without branches, as
    :func:`overlap`.)"""
    same_group = (group != 0) & (group == other_group)
    return (same_group & (group > 0)) | ((not same_group) & ((category & other_mask) != 0)
                                         & ((other_category & mask) != 0))


@kernel
def sweep_pairs(boxes, count, skip):
    """Every pair (i, j), i < j < ``count``, of rows of ``boxes`` that overlap, but for pairs where both are
    flagged in ``skip`` (two sleepers). Sorted along x, then swept along x from the rows not skipped (a few awake
    crates among thousands of sleepers look only near themselves), or searched in strips when there are many
    (:func:`_swept`). Returns (first rows, second rows) in the order a sweep along x from every row finds them
    (ascending min x of the first, then of the second)."""
    min_x = np.empty(count)
    widest = 0.0
    for k in range(count):
        min_x[k] = boxes[k, 0]
        widest = max(widest, boxes[k, 2] - boxes[k, 0])
    order = argsort(order_keys(min_x))
    sorted_boxes, sorted_skip = np.empty((count, 4)), np.empty(count, np.bool_)  # (the sweep reads in order)
    for p in range(count):
        for c in range(4):
            sorted_boxes[p, c] = boxes[order[p], c]
        sorted_skip[p] = skip[order[p]]
    room = 8 * count + 16  # (a crate meets a few others: a pyramid's, with the margin, some six)
    earlier, later = np.empty(room, np.int64), np.empty(room, np.int64)
    total = _swept(sorted_boxes, sorted_skip, widest, earlier, later)
    if total > room:  # (rarely: boxes heaped on each other; once more, with room for them all)
        earlier, later = np.empty(total, np.int64), np.empty(total, np.int64)
        _swept(sorted_boxes, sorted_skip, widest, earlier, later)
    found_order, ordered = np.empty(total, np.int64), True  # (the pairs by their places, as a sweep goes)
    for k in range(total):
        found_order[k] = earlier[k] * count + later[k]
        ordered = ordered and (k == 0 or found_order[k] > found_order[k - 1])
    first, second = np.empty(total, np.int64), np.empty(total, np.int64)
    for out, k in enumerate(np.arange(total) if ordered else argsort(found_order)):  # (all awake: in order)
        i, j = order[earlier[k]], order[later[k]]
        first[out], second[out] = min(i, j), max(i, j)
    return first, second


@helper
def sleeper_index(boxes, asleep):
    """The sleepers' boxes sorted by min x, made when bodies fall asleep and kept while they sleep: (their rows,
    their min x, the widest box's width). An awake body looks for the sleepers near it here, not among all."""
    rows = np.empty(len(asleep), np.int64)
    count, widest = 0, 0.0
    for k in range(len(asleep)):
        if asleep[k]:
            rows[count], count = k, count + 1
            widest = max(widest, boxes[k, 2] - boxes[k, 0])
    keys = np.empty(count)
    for i in range(count):
        keys[i] = boxes[rows[i], 0]
    order = argsort(order_keys(keys))
    sorted_rows, sorted_keys = np.empty(count, np.int64), np.empty(count)
    for i in range(count):
        sorted_rows[i], sorted_keys[i] = rows[order[i]], keys[order[i]]
    return sorted_rows, sorted_keys, widest


@helper
def sleepers_from(keys, widest, low_x):
    """Where the sleepers whose boxes may reach past ``low_x`` (px) begin in the index's order (a bisection of
    its ``keys``, their min x: at least ``low_x`` less the ``widest`` box's width)."""
    low, high = 0, len(keys)
    while low < high:
        middle = (low + high) // 2
        if keys[middle] < low_x - widest:
            low = middle + 1
        else:
            high = middle
    return low


@kernel
def awake_pairs(boxes, awake, asleep, sleepers):
    """:func:`sweep_pairs` of the ``awake`` rows (ascending) and of the sleepers whose boxes meet theirs, found
    in the ``sleepers`` index (:func:`sleeper_index`; its rows that woke since are passed over): the same
    pairs in the same order as a sweep over every body, at the cost of the awake ones and their neighbours.
    Returns (first rows, second rows)."""
    if len(awake) == len(asleep):  # (every body awake: a sweep over them all)
        return sweep_pairs(boxes, len(asleep), asleep)
    rows, keys, widest = sleepers
    near, count = np.empty(len(rows), np.int64), 0  # (the sleepers that meet an awake body)
    seen = np.zeros(len(asleep), np.bool_)
    for i in awake:
        for at in range(sleepers_from(keys, widest, boxes[i, 0]), len(rows)):
            j = rows[at]
            if keys[at] > boxes[i, 2]:
                break
            if asleep[j] and not seen[j] and overlap(boxes, i, boxes, j):
                seen[j], near[count], count = True, j, count + 1
    found = np.empty(count, np.int64)
    for r in range(count):
        found[r] = near[r]
    order, place = argsort(found), np.empty(len(awake) + count, np.int64)
    a = 0  # (the awake rows and those sleepers, ascending: ties in min x then fall as in a sweep over every body)
    for r in range(len(place)):
        if a < len(awake) and (a - r + count == 0 or awake[a] < near[order[r - a]]):
            place[r], a = awake[a], a + 1
        else:
            place[r] = near[order[r - a]]
    part, skip = np.empty((len(place), 4)), np.empty(len(place), np.bool_)
    for r in range(len(place)):
        for c in range(4):
            part[r, c] = boxes[place[r], c]
        skip[r] = asleep[place[r]]
    first, second = sweep_pairs(part, len(place), skip)
    for p in range(len(first)):
        first[p], second[p] = place[first[p]], place[second[p]]
    return first, second


@kernel
def _swept(boxes, skip, widest, earlier, later):
    """:func:`sweep_pairs`' sweep over ``boxes`` (sorted by min x; ``skip`` in the same order) from each box not
    skipped: forward over the boxes whose min x is within its box, and back over the skipped ones that reach it
    (none is wider than ``widest``); from :data:`STRIPS_FROM` boxes on, in strips (:func:`_in_strips`). Writes
    each pair's two places into ``earlier`` and ``later`` as far as they have room; returns how many pairs there
    are."""
    found, count, room = 0, len(boxes), len(earlier)
    if count >= STRIPS_FROM:
        return _in_strips(boxes, skip, widest, earlier, later)
    for p in range(count):
        if skip[p]:
            continue
        min_x, min_y, max_x, max_y = boxes[p, 0], boxes[p, 1], boxes[p, 2], boxes[p, 3]
        for q in range(p + 1, count):
            if boxes[q, 0] > max_x:
                break
            # (Without a branch on the overlap, which a column of crates makes a coin toss: every candidate is
            # written where the next pair goes, and counted only if it overlaps.)
            if found < room:
                earlier[found], later[found] = p, q
            found += (min_y <= boxes[q, 3]) & (max_y >= boxes[q, 1])
        for q in range(p - 1, -1, -1):
            if boxes[q, 0] < min_x - widest:
                break
            if skip[q] and boxes[q, 2] >= min_x and min_y <= boxes[q, 3] and max_y >= boxes[q, 1]:
                if found < room:
                    earlier[found], later[found] = q, p
                found += 1
    return found


@helper
def _in_strips(boxes, skip, widest, earlier, later):
    """:func:`_swept` of many boxes: the pairs ordered by the earlier place, then the later (the order of a sweep
    along x from every box).

    Not one sweep along x: a pyramid's or a pile's columns of crates share their x range, and each crate would
    look at every crate up its column and the next (36,000 boxes looked at for the 990-crate pyramid's 2,800
    pairs). The boxes are cut into strips along x as wide as the widest box, so a box meets only boxes of its
    own strip and of the next, and each strip is swept along y (:func:`_strip_pairs`); the pairs are then put
    in order by a counting sort on the earlier place."""
    count, room = len(boxes), len(earlier)
    if count == 0:
        return 0
    width = widest * 1.000001 + 1e-6  # (a hair wider: a pair's strips never differ by 2 through rounding)
    run_start, run_strip = np.empty(count + 1, np.int64), np.empty(count, np.int64)
    runs, tallest = 0, 0.0
    for p in range(count):  # (places in x order: each strip is a run of them)
        strip = np.int64(min((boxes[p, 0] - boxes[0, 0]) / width, 1e18))
        if runs == 0 or strip != run_strip[runs - 1]:
            run_start[runs], run_strip[runs], runs = p, strip, runs + 1
        tallest = max(tallest, boxes[p, 3] - boxes[p, 1])
    run_start[runs] = count
    by_y = np.arange(count)  # (each strip's places, then ordered by min y within the strip)
    for r in range(runs):
        _by_min_y(boxes, by_y, run_start[r], run_start[r + 1])
    found_earlier, found_later = np.empty(room, np.int64), np.empty(room, np.int64)
    found = _strip_pairs(boxes, skip, by_y, run_start[:runs + 1], run_strip[:runs], tallest * 1.000001 + 1e-6,
                         found_earlier, found_later)
    if found > room:
        return found
    _in_order(found_earlier, found_later, found, count, earlier, later)
    return found


@helper
def _by_min_y(boxes, places, start, end):
    """``places[start:end]`` ordered by their boxes' min y: a strip of a few dozen (a column of crates, often
    in order already: made row by row) by an insertion sort, a longer one by :func:`argsort`."""
    if end - start > _SHORT_STRIP:
        keys, kept = np.empty(end - start), places[start:end].copy()
        for i in range(end - start):
            keys[i] = boxes[kept[i], 1]
        order = argsort(order_keys(keys))
        for i in range(end - start):
            places[start + i] = kept[order[i]]
        return
    for i in range(start + 1, end):
        p, at = places[i], i
        while at > start and boxes[places[at - 1], 1] > boxes[p, 1]:
            places[at], at = places[at - 1], at - 1
        places[at] = p


_SHORT_STRIP = 64
"""Boxes: a strip this long or shorter is put in order by min y by an insertion sort (and the pairs of one box
with this many others or fewer in :func:`_in_order`)."""


@helper
def _strip_pairs(boxes, skip, by_y, run_start, run_strip, tallest, found_earlier, found_later):
    """:func:`_swept`'s pairs, strip by strip (``run_start``: where each strip's places begin in ``by_y``, which
    holds them by min y; ``run_strip``: each strip's number), in no particular order: each box with the boxes
    after it in its strip up to its max y, and with those of the next strip from its min y less ``tallest`` (px,
    at least the tallest box's height) up to its max y. Returns how many pairs there are. (Without a branch on
    the overlap: every candidate is written where the next pair goes, and counted only if the two overlap and
    one of them is not skipped.)"""
    found, room = 0, len(found_earlier)
    for r in range(len(run_strip)):
        end = run_start[r + 1]
        next_end = run_start[r + 2] if r + 1 < len(run_strip) and run_strip[r + 1] == run_strip[r] + 1 else end
        window = end
        for i in range(run_start[r], end):
            p = by_y[i]
            while window < next_end and boxes[by_y[window], 1] < boxes[p, 1] - tallest:
                window += 1
            for part in range(2):  # (the boxes after it in its strip, then those of the next strip from the window)
                first, stop = (i + 1, end) if part == 0 else (window, next_end)
                for j in range(first, stop):
                    q = by_y[j]
                    if boxes[q, 1] > boxes[p, 3]:
                        break
                    if found < room:
                        found_earlier[found], found_later[found] = min(p, q), max(p, q)
                    found += overlap(boxes, p, boxes, q) & ((skip[p] & skip[q]) == 0)
    return found


@helper
def _in_order(found_earlier, found_later, found, count, earlier, later):
    """The ``found`` pairs of places into ``earlier`` and ``later`` ordered by the earlier place (a counting
    sort over the ``count`` places), then the later (each earlier place has a handful: an insertion sort; more
    than :data:`_SHORT_STRIP`, :func:`argsort`)."""
    start = np.zeros(count + 1, np.int64)
    for k in range(found):
        start[found_earlier[k] + 1] += 1
    for p in range(count):
        start[p + 1] += start[p]
    fill = start[:count].copy()
    for k in range(found):
        at = fill[found_earlier[k]]
        earlier[at], later[at], fill[found_earlier[k]] = found_earlier[k], found_later[k], at + 1
    for p in range(count):
        if start[p + 1] - start[p] > _SHORT_STRIP:  # (a box meeting many: a long plank under a pile)
            kept = later[start[p]:start[p + 1]].copy()
            order = argsort(kept)
            for i in range(len(kept)):
                later[start[p] + i] = kept[order[i]]
            continue
        for k in range(start[p] + 1, start[p + 1]):
            q, at = later[k], k
            while at > start[p] and later[at - 1] > q:
                later[at], at = later[at - 1], at - 1
            later[at] = q


@helper
def order_keys(values):
    """Integer keys in the order of the floats ``values`` (1-D, finite), so that :func:`argsort` compiles for
    one key type: an IEEE double's bits read as an int64 sort as the double for positive numbers, and in
    reverse for negative ones, whose 63 lower bits are flipped. (-0.0 sorts just before 0.0.)"""
    bits, keys = values.view(np.int64), np.empty(len(values), np.int64)
    for i in range(len(values)):
        keys[i] = bits[i] if bits[i] >= 0 else bits[i] ^ np.int64(0x7FFFFFFFFFFFFFFF)
    return keys


@kernel
def argsort(keys):
    """The indices that sort the int64 ``keys`` (1-D; floats through :func:`order_keys`), ties in index order
    (a merge sort)."""
    n = len(keys)
    order, spare = np.arange(n), np.empty(n, np.int64)
    width = 1
    while width < n:
        for low in range(0, n, 2 * width):
            middle, high = min(low + width, n), min(low + 2 * width, n)
            i, j = low, middle
            for out in range(low, high):
                if i < middle and (j >= high or keys[order[i]] <= keys[order[j]]):
                    spare[out], i = order[i], i + 1
                else:
                    spare[out], j = order[j], j + 1
        order, spare = spare, order
        width *= 2
    return order


@helper
def grid_of(level):
    """What :func:`segments_near` reads of a :class:`~.layout.Level`: its cell size (px), cell keys, cell starts,
    members and segment table (their boxes). (Four arrays, not the level's nine: numba counts a reference on
    each array a kernel takes, at every call.)"""
    return level.cell_size, level.cell_keys, level.cell_starts, level.members, level.segments


@helper
def level_pairs(level, boxes):
    """Every (segment, row) pair of :func:`segments_near` for the rows of ``boxes``, in two arrays (segments,
    rows) just long enough: room for 16 a box first, then, rarely (boxes among many segments), once more with
    room for them all."""
    room = 16 * len(boxes) + 16
    while True:
        segments, owners = np.empty(room, np.int64), np.empty(room, np.int64)
        total = segments_near(grid_of(level), boxes, level.segment_ints, level.stamp, segments, owners)
        if total <= room:
            return segments[:total], owners[:total]
        room = total


@kernel
def segments_near(grid, boxes, segment_ints, stamp, segments, owners):
    """For each row ``k`` of ``boxes`` in turn, the level's segments whose boxes overlap box ``k``, each once,
    ascending, appended to ``segments`` with ``k`` beside each in ``owners`` (``grid``: :func:`grid_of` the
    level; ``segment_ints``: the level's, whose look-up marks are none above ``stamp[0]``, which grows by one a
    row). Returns how many (segment, row) pairs there are: when that is more than ``segments`` holds, only the
    first ones were written (call again with room for them all: :func:`level_pairs`). (All the rows in one call,
    and no helper taking these arrays in the loop: numba counts a reference on each array a call takes, which,
    once a body, was half of the counts of a 1,000-crate step.)"""
    cell_size, cell_keys, cell_starts, members, segment_table = grid
    count, room, inv, c = 0, len(segments), 1.0 / cell_size, SEGMENT_BOX
    if len(cell_keys) == 0:
        return count
    for k in range(len(boxes)):
        stamp[0] += 1
        lo_x, lo_y, hi_x, hi_y = boxes[k, 0] * inv, boxes[k, 1] * inv, boxes[k, 2] * inv, boxes[k, 3] * inv
        # A box over more cells than the grid has, far out or not finite looks at the occupied cells instead
        # (cell indices are made only of boxes whose cells fit in the integers; the cell count is in floats).
        x0 = x1 = y0 = y1 = 0
        walk = not (abs(lo_x) < 1e15 and abs(hi_x) < 1e15 and abs(lo_y) < 1e15 and abs(hi_y) < 1e15)
        if not walk:
            x0, x1, y0, y1 = math.floor(lo_x), math.floor(hi_x), math.floor(lo_y), math.floor(hi_y)
            walk = float(x1 - x0 + 1) * float(y1 - y0 + 1) > len(cell_keys)
        first = count
        for cell in range(len(cell_keys) if walk else (x1 - x0 + 1) * (y1 - y0 + 1)):
            if walk:
                ix, iy = cell_keys[cell] // 4294967296, cell_keys[cell] % 4294967296 - 2147483648
                row = cell if lo_x < ix + 1 and ix <= hi_x and lo_y < iy + 1 and iy <= hi_y else -1  # (floor(lo) <= i)
            else:
                ix, iy = x0 + cell // (y1 - y0 + 1), y0 + cell % (y1 - y0 + 1)
                key, low, high = np.int64(ix) * 4294967296 + iy + 2147483648, 0, len(cell_keys)
                while low < high:  # (the cell's row among the sorted keys: a search, inline as said above)
                    middle = (low + high) // 2
                    low, high = (middle + 1, high) if cell_keys[middle] < key else (low, middle)
                row = low if low < len(cell_keys) and cell_keys[low] == key else -1
            if row < 0:
                continue
            for m in range(cell_starts[row], cell_starts[row + 1]):
                s = members[m]
                if segment_ints[s, SEGMENT_MARK] != stamp[0] and (  # (its box meets box k; as overlap, inline)
                        (segment_table[s, c] <= boxes[k, 2]) & (segment_table[s, c + 2] >= boxes[k, 0])
                        & (segment_table[s, c + 1] <= boxes[k, 3]) & (segment_table[s, c + 3] >= boxes[k, 1])):
                    segment_ints[s, SEGMENT_MARK] = stamp[0]
                    if count < room:
                        at = count  # (in segment order, whatever the cells': an insertion, the lists are short)
                        while at > first and segments[at - 1] > s:
                            segments[at] = segments[at - 1]
                            at -= 1
                        segments[at], owners[count] = s, k  # (every pair from ``first`` on is box k's)
                    count += 1
    return count


@kernel
def segments_in_box(level_arrays, query, out):
    """The level's segments whose boxes overlap or touch the ``query``'s box and whose filters touch its filter,
    each once, ascending, into ``out`` (room for every segment); returns how many. ``level_arrays``: the fields
    of a :class:`~.layout.Level` as a plain tuple (numba's dispatcher types a plain tuple at C speed, a named
    one in Python); ``query``: (box, category, mask, group, check), the box a (1, 4) array (min_x, min_y,
    max_x, max_y, px), the filter checked only when ``check``. The static broad phase of the character mover
    and of scene queries, the rigid step's own."""
    return gather_in_box(Level(*level_arrays), query, out)


@helper
def gather_in_box(level, query, out):
    """:func:`segments_in_box` of a :class:`~.layout.Level`."""
    box, category, mask, group, check = query
    count = segments_near(grid_of(level), box, level.segment_ints, level.stamp, out, np.empty(len(out), np.int64))
    if not check:
        return count
    kept, ints, f = 0, level.segment_ints, SEGMENT_FILTER
    for i in range(count):
        s = out[i]
        if filter_values_touch(category, mask, group, ints[s, f], ints[s, f + 1], ints[s, f + 2]):
            out[kept] = s
            kept += 1
    return kept
