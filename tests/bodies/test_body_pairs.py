"""The body-pair broad phase (sweep and prune) finds exactly the pairs of overlapping boxes."""

import numpy as np
import pytest

from engine.world.contacts import overlapping_pairs


@pytest.mark.parametrize("seed", range(40))
def test_sweep_and_prune_matches_all_pairs(seed):
    rng = np.random.default_rng(seed)
    count = int(rng.integers(0, 60))
    low = rng.uniform(0, 100, (count, 2))
    size = rng.uniform(0, 30, (count, 2))
    if seed % 3 == 0:  # boxes on a grid: equal starts and edges that just touch
        low, size = np.round(low / 10) * 10, np.round(size / 10) * 10
    boxes = np.concatenate([low, low + size], axis=1)
    ids = rng.permutation(count) + 5
    b = boxes
    over = (b[:, None, 0] <= b[None, :, 2]) & (b[:, None, 2] >= b[None, :, 0]) \
        & (b[:, None, 1] <= b[None, :, 3]) & (b[:, None, 3] >= b[None, :, 1]) & (ids[:, None] < ids[None, :])
    lo, hi = np.nonzero(over)
    order = np.lexsort((hi, lo))
    got_lo, got_hi = overlapping_pairs(boxes, ids)
    assert np.array_equal(got_lo, lo[order]) and np.array_equal(got_hi, hi[order])
