"""The body-pair broad phase (sweep and prune) finds exactly the pairs of overlapping boxes."""

import numpy as np
import pytest

from engine.world.jit import kernels
from engine.world.kernels.compile import plain_kernels


@pytest.mark.parametrize("seed", range(40))
def test_sweep_and_prune_matches_all_pairs(seed):
    rng = np.random.default_rng(seed)
    count = int(rng.integers(0, 60))
    low = rng.uniform(0, 100, (count, 2))
    size = rng.uniform(0, 30, (count, 2))
    if seed % 3 == 0:  # boxes on a grid: equal starts and edges that just touch
        low, size = np.round(low / 10) * 10, np.round(size / 10) * 10
    boxes = np.concatenate([low, low + size], axis=1)
    asleep = rng.random(count) < 0.3  # (pairs of two sleepers are left out)
    b = boxes
    over = (b[:, None, 0] <= b[None, :, 2]) & (b[:, None, 2] >= b[None, :, 0]) \
        & (b[:, None, 1] <= b[None, :, 3]) & (b[:, None, 3] >= b[None, :, 1]) \
        & (np.arange(count)[:, None] < np.arange(count)[None, :]) & ~(asleep[:, None] & asleep[None, :])
    expected = set(zip(*(x.tolist() for x in np.nonzero(over))))
    first, second = kernels().broad_phase.sweep_pairs(np.ascontiguousarray(boxes), count, asleep)
    found = list(zip(first.tolist(), second.tolist()))
    assert len(found) == len(set(found)) and set(found) == expected



def _boxes_of(case, count, rng):
    """``count`` boxes (min x, min y, max x, max y) of one of four layouts: scattered, a grid with ties and
    touching edges, columns of stacked crates with one wide plank (over them all, when there are many), or points
    and zero-size boxes piled on each other."""
    if case == 0:
        low, size = rng.uniform(0, 4 * count, (count, 2)), rng.uniform(0, 30, (count, 2))
    elif case == 1:
        low, size = rng.integers(0, count // 7, (count, 2)) * 10.0, np.full((count, 2), 10.0)
    elif case == 2:
        column, row = np.divmod(np.arange(count), 20)
        low = np.stack([column * 33.0 + (row % 2) * 16.5, row * 32.0], axis=1)
        size = np.full((count, 2), 34.0)
        size[0] = (2000.0, 2000.0) if count > 100 else (200.0, 10.0)  # (over them all: one wide strip)
    else:
        low = np.repeat(rng.uniform(0, count, (count // 5 + 1, 2)), 5, axis=0)[:count]
        size = rng.uniform(0, 3, (count, 2)) * (rng.random((count, 1)) < 0.5)
    return np.ascontiguousarray(np.concatenate([low, low + size], axis=1))


@pytest.mark.parametrize("seed", range(24))
def test_pairs_come_in_the_order_of_a_sweep_along_x(seed):
    """The contacts are solved in the order the pairs come in, so the order is part of the answer: by the place
    of the pair's first box in the boxes sorted by min x (ties by row), then of its second. Below
    ``STRIPS_FROM`` boxes and above (where the search goes in strips)."""
    rng = np.random.default_rng(seed)
    bp = kernels().broad_phase
    boxes = _boxes_of(seed % 4, 70 if seed < 12 else bp.STRIPS_FROM + 50, rng)
    count = len(boxes)
    asleep = rng.random(count) < (0.0 if seed % 2 else 0.4)
    place = np.empty(count, np.int64)
    place[np.argsort(boxes[:, 0], kind="stable")] = np.arange(count)
    b = boxes
    over = (b[:, None, 0] <= b[None, :, 2]) & (b[:, None, 2] >= b[None, :, 0]) \
        & (b[:, None, 1] <= b[None, :, 3]) & (b[:, None, 3] >= b[None, :, 1]) \
        & (np.arange(count)[:, None] < np.arange(count)[None, :]) & ~(asleep[:, None] & asleep[None, :])
    pairs = sorted(zip(*(x.tolist() for x in np.nonzero(over))),
                   key=lambda ij: (min(place[ij[0]], place[ij[1]]), max(place[ij[0]], place[ij[1]])))
    first, second = bp.sweep_pairs(boxes, count, asleep)
    assert list(zip(first.tolist(), second.tolist())) == pairs
    if seed % 6 == 2:  # (and the same as plain Python, the kernels uncompiled)
        plain_first, plain_second = plain_kernels().broad_phase.sweep_pairs(boxes, count, asleep)
        assert plain_first.tolist() == first.tolist() and plain_second.tolist() == second.tolist()


@pytest.mark.parametrize("count", [0, 1, 7, 255, 256, 1000])
def test_argsort_is_numpys_stable_sort(count):
    """The kernels' own sort: ties in index order, negative keys first, floats through ``order_keys`` in their
    order."""
    bp = kernels().broad_phase
    rng = np.random.default_rng(count)
    for keys in (rng.integers(-2 ** 62, 2 ** 62, count), rng.integers(-3, 3, count), np.full(count, 7),
                 bp.order_keys(rng.normal(0.0, 100.0, count))):
        keys = np.ascontiguousarray(keys, dtype=np.int64)
        assert bp.argsort(keys).tolist() == np.argsort(keys, kind="stable").tolist()
