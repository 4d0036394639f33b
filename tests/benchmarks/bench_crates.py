"""Crate benchmark (not a test): median ms per step for crate scenes, Ledgekit against pymunk.

Run: ``.venv/bin/python tests/benchmarks/bench_crates.py [--steps N] [--sleep]``

Two scenes at a range of sizes, built the same way in both engines (gravity 1800 px/s^2, friction 0.6 for
every pair, density 1 so a crate's mass is its area, crates with 1 px rounded corners, dt 1/60, pymunk's
default 10 solver iterations against Ledgekit's default 4 substeps):

* a **pyramid** of 32 x 32 px crates with 1 px gaps on a long static floor; bases 4, 8, 14, 24 and 44
  give 10, 36, 105, 300 and 990 crates (``pyramid``);
* a **random pile**: ``n`` crates of a few sizes (16 x 16 to 48 x 48, and 48 x 24 planks), randomly placed
  and turned one to a 52 px cell of a grid about twice as wide as tall, falling into a walled box as wide
  as the grid (``pile``; fixed seed: the same crates in the same places in both engines). The first second
  is the grid collapsing into a pile.

Sleep is off in both engines unless ``sleep=True`` (``--sleep``), so every step counts every crate as
awake; the timed steps begin at the first one. Each step of each engine is timed alone.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import PhysicsConfig, RigidBody, RoundedPolygon, World  # noqa: E402

DT = 1.0 / 60.0
SIZE = 32.0
GRAVITY = -1800.0
FRICTION = 0.6
CORNER = 1.0
WALL = 2.0
"""Radius of the static segments (floor and walls), both engines."""
PYRAMID_BASES = (4, 8, 14, 24, 44)
PILE_COUNTS = (10, 30, 100, 300, 1000)
PILE_SIZES = ((16.0, 16.0), (24.0, 24.0), (32.0, 32.0), (48.0, 48.0), (48.0, 24.0))


@dataclass
class Scene:
    """Static polylines (open chains of thick segments) and crates ``(width, height, x, y, angle)``."""

    name: str
    static: list[list[tuple[float, float]]]
    crates: list[tuple[float, float, float, float, float]] = field(default_factory=list)


def pyramid(base: int) -> Scene:
    """``base * (base + 1) / 2`` crates of 32 px, 1 px apart, on a floor."""
    half = (base + 2) * (SIZE + 1.0)
    crates = [(SIZE, SIZE, (k - (base - row - 1) / 2) * (SIZE + 1.0), WALL + SIZE / 2 + SIZE * row, 0.0)
              for row in range(base) for k in range(base - row)]
    return Scene(f"{len(crates)}-crate pyramid (base {base})", [[(-half, 0.0), (half, 0.0)]], crates)


def pile(count: int, seed: int = 7) -> Scene:
    """``count`` crates of ``PILE_SIZES`` on a grid of 52 px cells (random sizes, offsets and angles, so they
    tumble into a pile), in a box with walls as tall as the grid plus a margin."""
    rng = random.Random(seed)
    cell = 52.0
    columns = max(3, math.ceil(math.sqrt(count * 2.0)))
    rows = math.ceil(count / columns)
    width, height = columns * cell, rows * cell + 4 * cell
    crates = []
    for i in range(count):
        w, h = rng.choice(PILE_SIZES)
        col, row = i % columns, i // columns
        slack = (cell - max(w, h)) / 2 - 1.0
        x = (col + 0.5) * cell + rng.uniform(-slack, slack)
        y = WALL + 2.0 + (row + 0.5) * cell
        crates.append((w, h, x, y, rng.uniform(-0.3, 0.3)))
    static = [[(0.0, height), (0.0, 0.0)], [(0.0, 0.0), (width, 0.0)], [(width, 0.0), (width, height)]]
    return Scene(f"{count}-crate random pile", static, crates)


def ledgekit_world(scene: Scene, sleep: bool) -> tuple[World, list[RigidBody]]:
    world = World(gravity=(0.0, GRAVITY), physics=PhysicsConfig(enable_sleep=sleep), static_friction=FRICTION)
    for chain in scene.static:
        world.add_chain(chain, radius=WALL)
    bodies = [world.add_body(RigidBody(RoundedPolygon.box(w / 2, h / 2, radius=CORNER), (x, y), angle=a,
                                       friction=FRICTION))
              for w, h, x, y, a in scene.crates]
    return world, bodies


def run_ledgekit(scene: Scene, steps: int, sleep: bool = False) -> tuple[list[float], float, int]:
    """Seconds per step, the largest distance any crate moved, and how many crates sleep at the end."""
    world, bodies = ledgekit_world(scene, sleep)
    start = [b.position for b in bodies]
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        world.step(DT)
        times.append(time.perf_counter() - t0)
    moved = max(math.dist(a, b.position) for a, b in zip(start, bodies))
    return times, moved, sum(b.sleeping for b in bodies)


def pymunk_space(scene: Scene, sleep: bool):
    import pymunk

    space = pymunk.Space()
    space.gravity = (0.0, GRAVITY)
    if sleep:
        space.sleep_time_threshold = 0.5  # as Ledgekit's PhysicsConfig.time_to_sleep
    friction = math.sqrt(FRICTION)  # pymunk multiplies the two frictions: 0.6 in all, as in Ledgekit's scene
    for chain in scene.static:
        for a, b in zip(chain, chain[1:]):
            segment = pymunk.Segment(space.static_body, a, b, WALL)
            segment.friction = friction
            space.add(segment)
    bodies = []
    for w, h, x, y, a in scene.crates:
        mass = w * h
        body = pymunk.Body(mass, pymunk.moment_for_box(mass, (w, h)))
        body.position, body.angle = (x, y), a
        shape = pymunk.Poly.create_box(body, (w - 2 * CORNER, h - 2 * CORNER), radius=CORNER)
        shape.friction = friction
        space.add(body, shape)
        bodies.append(body)
    return space, bodies


def run_pymunk(scene: Scene, steps: int, sleep: bool = False) -> tuple[list[float], float, int]:
    space, bodies = pymunk_space(scene, sleep)
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
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--sleep", action="store_true", help="let crates sleep (both engines)")
    parser.add_argument("--quick", action="store_true", help="the three smallest sizes of each scene")
    args = parser.parse_args()
    cut = 3 if args.quick else None
    scenes = [pyramid(b) for b in PYRAMID_BASES[:cut]] + [pile(n) for n in PILE_COUNTS[:cut]]
    print(f"{'scene':<34} {'ledgekit ms':>12} {'pymunk ms':>10} {'ratio':>6} {'moved px':>17}")
    for scene in scenes:
        ours, moved_ours, _ = run_ledgekit(scene, args.steps, args.sleep)
        theirs, moved_theirs, _ = run_pymunk(scene, args.steps, args.sleep)
        m_ours, m_theirs = statistics.median(ours) * 1e3, statistics.median(theirs) * 1e3
        print(f"{scene.name:<34} {m_ours:>12.3f} {m_theirs:>10.3f} {m_ours / m_theirs:>6.1f} "
              f"{moved_ours:>8.1f} {moved_theirs:>8.1f}")


if __name__ == "__main__":
    main()
