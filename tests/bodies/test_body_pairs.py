"""The body-pair broad phase (sweep and prune) finds exactly the pairs of overlapping boxes."""

import numpy as np
import pytest

from engine.world.jit import kernels


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
