"""The randomised invariant suite, short: fixed seeds, a few seconds. See tests/physics/invariants.py (and
tests/benchmarks/invariants_long.py for the long run whose counts the README reports)."""

import pytest

from tests.physics.invariants import ROWS, Tally, run


@pytest.mark.slow
def test_nothing_that_must_never_happen_happens_in_random_levels():
    tally = Tally()
    for seed in range(12):
        run(seed, 200, tally)
    assert tally.character_steps > 2000
    assert {row: tally.broken[row] for row in ROWS} == dict.fromkeys(ROWS, 0), tally.examples


def test_the_levels_where_crates_escaped_keep_them_now():
    """Regression: in these long-run levels a crate flung at a wall grazed the floor first; the sweep took
    that glancing touch as its only candidate and never looked at the wall (seeds 1063 and 1069 of
    tests/benchmarks/invariants_long.py)."""
    tally = Tally()
    for seed in (1063, 1069):
        run(seed, 330, tally)
    assert tally.broken["escaped"] == 0, tally.examples
