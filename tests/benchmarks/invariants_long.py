"""The long randomised invariant run (not a test): random closed levels, several characters, crates, moving and
one-way platforms, lifts and ferries carrying crate stacks and characters, things removed, teleported, reshaped
and re-filtered mid-run, random dt from 1/240 to 1/30 s and pushes up to 20,000 px/s, until at least ``--steps``
steps (character steps and crate steps together) have been checked. Prints each invariant's count (0 is the goal
for every row), the deepest overlaps seen, what was done to the levels mid-run, and the first examples.

Run: ``.venv/bin/python tests/benchmarks/invariants_long.py [--steps 1000000] [--first-seed 1000] [--plain]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.physics.invariants import MEANING, ROWS, Tally, run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000,
                        help="character steps + crate steps to check (default 1,000,000)")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--steps-per-level", type=int, default=600)
    parser.add_argument("--plain", action="store_true",
                        help="the levels as before issue 30 (no lifts carrying things, nothing done mid-run)")
    args = parser.parse_args()
    tally = Tally(example_limit=40)
    seed, started = args.first_seed, time.perf_counter()
    while tally.steps < args.steps:
        run(seed, args.steps_per_level, tally, together=not args.plain)
        seed += 1
    print(f"{seed - args.first_seed} levels (seeds {args.first_seed}-{seed - 1}), {tally.steps:,} steps "
          f"({tally.character_steps:,} character steps, {tally.crate_steps:,} crate steps), "
          f"{time.perf_counter() - started:.0f} s")
    per_million = 1e6 / tally.steps
    for row in ROWS:
        print(f"  {row:<22} {tally.broken[row]:>6}  ({tally.broken[row] * per_million:.1f} per million steps)  "
              f"{MEANING[row]}")
    print("  deepest overlaps seen (px):", {row: round(depth, 2) for row, depth in tally.deepest.items()})
    print("  done mid-run:", dict(sorted(tally.done.items())))
    for example in tally.examples:
        print("  e.g.", example)


if __name__ == "__main__":
    main()
