"""Crate benchmark (not a test): median ms per step for crate pyramids, Ledgekit against pymunk.

Run: ``.venv/bin/python tests/benchmarks/bench_crates.py [--steps N]``

Pyramids of 55 (10 wide) and 210 (20 wide) crates of 32 x 32 px on a static floor, gravity 1800 px/s^2,
friction 0.6, 60 Hz, simulated for ``--steps`` steps (default 600) by both engines back to back in the same
process. Reported: the median step time over the first second (everything awake: the cost that matters
when the player knocks a pile over), the median over all steps (most crates asleep once settled), and
whether the pyramid still stands (largest displacement of any crate).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.bodies import RigidBody  # noqa: E402
from engine.geometry import RoundedPolygon  # noqa: E402
from engine.world import World  # noqa: E402

DT = 1.0 / 60.0
SIZE = 32.0


def layout(base: int) -> list[tuple[float, float]]:
    return [((k - (base - row - 1) / 2) * (SIZE + 1.0), 2.0 + SIZE / 2 + SIZE * row)
            for row in range(base) for k in range(base - row)]


def run_ledgekit(base: int, steps: int):
    world = World()
    world.add_chain([(-2000, 0), (2000, 0)], radius=2.0)
    crate = RoundedPolygon.box(SIZE / 2, SIZE / 2, radius=1.0)
    bodies = [world.add_body(RigidBody(crate, p, friction=0.6)) for p in layout(base)]
    start = [b.position for b in bodies]
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        world.step(DT)
        times.append(time.perf_counter() - t0)
    moved = max(math.dist(a, b.position) for a, b in zip(start, bodies))
    return times, moved, sum(b.sleeping for b in bodies)


def run_pymunk(base: int, steps: int):
    import pymunk

    space = pymunk.Space()
    space.gravity = (0.0, -1800.0)
    space.sleep_time_threshold = 0.5
    friction = math.sqrt(0.6)  # pymunk multiplies the two frictions: 0.6 in all, as in Ledgekit's scene
    floor = pymunk.Segment(space.static_body, (-2000, 0), (2000, 0), 2.0)
    floor.friction = friction
    space.add(floor)
    bodies = []
    for p in layout(base):
        mass = SIZE * SIZE
        body = pymunk.Body(mass, pymunk.moment_for_box(mass, (SIZE, SIZE)))
        body.position = p
        shape = pymunk.Poly.create_box(body, (SIZE, SIZE))
        shape.friction = friction
        space.add(body, shape)
        bodies.append(body)
    start = [tuple(b.position) for b in bodies]
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        space.step(DT)
        times.append(time.perf_counter() - t0)
    moved = max(math.dist(a, tuple(b.position)) for a, b in zip(start, bodies))
    return times, moved, sum(b.is_sleeping for b in bodies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600)
    args = parser.parse_args()
    print(f"{'scene':<12} {'engine':<9} {'awake ms':>9} {'all ms':>8} {'moved px':>9} {'asleep':>7}")
    for base in (10, 20):
        rows = {}
        for name, run in (("ledgekit", run_ledgekit), ("pymunk", run_pymunk)):
            times, moved, asleep = run(base, args.steps)
            awake = statistics.median(times[:60]) * 1e3
            overall = statistics.median(times) * 1e3
            rows[name] = (awake, overall)
            count = base * (base + 1) // 2
            print(f"{count:>4} crates  {name:<9} {awake:>9.3f} {overall:>8.3f} {moved:>9.2f} {asleep:>4}/{count}")
        ratio_awake = rows["ledgekit"][0] / rows["pymunk"][0]
        ratio_all = rows["ledgekit"][1] / rows["pymunk"][1]
        print(f"{'':<12} {'ratio':<9} {ratio_awake:>9.1f} {ratio_all:>8.1f}")


if __name__ == "__main__":
    main()
