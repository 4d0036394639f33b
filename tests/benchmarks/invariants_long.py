"""The long randomised invariant run (not a test): random closed levels, several characters, crates, moving and
one-way platforms, random dt from 1/240 to 1/30 s and pushes up to 20,000 px/s, until at least
``--character-steps`` character steps have been checked. Prints each invariant's count per million
character steps (0 is the goal for every row) and the first examples.

Run: ``.venv/bin/python tests/benchmarks/invariants_long.py [--character-steps 1000000] [--first-seed 1000]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.physics.invariants import ROWS, Tally, run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--character-steps", type=int, default=1_000_000)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--steps-per-level", type=int, default=600)
    args = parser.parse_args()
    tally = Tally()
    seed, started = args.first_seed, time.perf_counter()
    while tally.character_steps < args.character_steps:
        run(seed, args.steps_per_level, tally)
        seed += 1
    per_million = 1e6 / tally.character_steps
    print(f"{seed - args.first_seed} levels, {tally.character_steps:,} character steps, {tally.crate_steps:,} crate "
          f"steps, {time.perf_counter() - started:.0f} s")
    for row in ROWS:
        print(f"  {row:<24} {tally.broken[row]:>6}  ({tally.broken[row] * per_million:.1f} per million)")
    for example in tally.examples:
        print("  e.g.", example)


if __name__ == "__main__":
    main()
