"""Crate benchmark (not a test): step cost of crate scenes, Ledgekit against pymunk and Box2D v3.

Run: ``.venv/bin/python tests/benchmarks/bench_crates.py [--steps N] [--sleep] [--quick]``

Two scenes at a range of sizes, built the same way in all three engines (gravity 1800 px/s^2, friction 0.6
for every pair, density 1 per px^2 so a crate's mass is its area, crates with 1 px rounded corners, dt 1/60):

* a **pyramid** of 32 x 32 px crates with 1 px gaps on a long static floor; bases 4, 8, 14, 24 and 44
  give 10, 36, 105, 300 and 990 crates (``pyramid``);
* a **random pile**: ``n`` crates of a few sizes (16 x 16 to 48 x 48, and 48 x 24 planks), randomly placed
  and turned one to a 52 px cell of a grid about twice as wide as tall, falling into a walled box as wide
  as the grid (``pile``; fixed seed: the same crates in the same places in every engine). The first second
  or two is the grid collapsing into a pile; ``settled`` steps a scene untimed first (3 s), so that what is
  timed after is a resting pile.

The engines: Ledgekit (its default 4 substeps, contact hertz 60); pymunk 6 (Chipmunk, its default 10
solver iterations; it multiplies the two shapes' frictions, so each gets sqrt(0.6)); Box2D v3 through
``pyb2d3`` (``box2d_world``): one thread (no thread pool given, so Box2D runs its tasks inline), 4 substeps,
1 m = 32 px (gravity 56.25 m/s^2, crates of 1 m), contact hertz 60, damping ratio 10 and push-out speed
100 px/s as Ledgekit's ``PhysicsConfig``, capsules of radius 2 px for the static segments and rounded boxes
for the crates.

Sleep is off in every engine unless ``sleep=True`` (``--sleep``), so every step counts every crate as
awake. Each step is timed alone by the thread's CPU time (``time.thread_time_ns``): what this thread
computed, not what other processes on a busy machine took from it (every engine here steps on the calling
thread: checked in ``tests/test_benchmark_runner.py``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
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
"""Radius of the static segments (floor and walls), every engine."""
PYRAMID_BASES = (4, 8, 14, 24, 44)
PILE_COUNTS = (10, 30, 100, 300, 1000, 5000)
PILE_SIZES = ((16.0, 16.0), (24.0, 24.0), (32.0, 32.0), (48.0, 48.0), (48.0, 24.0))
SETTLE_SECONDS = 3.0
"""How long a settled scene is stepped (untimed, sleep off) before its steps are timed."""

PIXELS_PER_METRE = 32.0
"""Box2D works in metres and is tuned for objects of 0.1 to 10 m: a 32 px crate is 1 m there."""
SUBSTEPS = 4
"""Box2D v3's substeps per step, as Ledgekit's ``PhysicsConfig.substeps``."""
ENGINES = ("ledgekit", "pymunk", "box2d")
ENGINE_NAMES = {"ledgekit": "Ledgekit", "pymunk": "pymunk", "box2d": "Box2D v3"}


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


@dataclass
class Sim:
    """One engine's world of a scene, as the benchmark drives it: ``step`` (one 1/60 s step), ``positions``
    (each crate's centre, px), ``speeds`` (each crate's speed, px/s) and ``asleep`` (how many crates sleep)."""

    step: Callable[[], None]
    positions: Callable[[], list[tuple[float, float]]]
    speeds: Callable[[], list[float]]
    asleep: Callable[[], int]


def ledgekit_world(scene: Scene, sleep: bool) -> tuple[World, list[RigidBody]]:
    world = World(gravity=(0.0, GRAVITY), physics=PhysicsConfig(enable_sleep=sleep), static_friction=FRICTION)
    for chain in scene.static:
        world.add_chain(chain, radius=WALL)
    bodies = [world.add_body(RigidBody(RoundedPolygon.box(w / 2, h / 2, radius=CORNER), (x, y), angle=a,
                                       friction=FRICTION))
              for w, h, x, y, a in scene.crates]
    return world, bodies


def ledgekit_sim(scene: Scene, sleep: bool = False) -> Sim:
    world, bodies = ledgekit_world(scene, sleep)
    return Sim(lambda: world.step(DT), lambda: [b.position for b in bodies],
               lambda: [math.hypot(*b.velocity) for b in bodies], lambda: sum(b.sleeping for b in bodies))


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


def pymunk_sim(scene: Scene, sleep: bool = False) -> Sim:
    space, bodies = pymunk_space(scene, sleep)
    return Sim(lambda: space.step(DT), lambda: [tuple(b.position) for b in bodies],
               lambda: [b.velocity.length for b in bodies], lambda: sum(b.is_sleeping for b in bodies))


def box2d_world(scene: Scene, sleep: bool):
    """The scene in a ``pyb2d3`` world (metres: 1 m = ``PIXELS_PER_METRE`` px); returns the world and the
    crates' bodies."""
    import pyb2d3 as b2

    m = 1.0 / PIXELS_PER_METRE
    world = b2.World(gravity=(0.0, GRAVITY * m), contact_hertz=60.0, contact_damping_ratio=10.0)
    defaults = PhysicsConfig()
    world.set_contact_tuning(defaults.contact_hertz, defaults.contact_damping_ratio,
                             defaults.contact_push_max_velocity * m)
    world.sleeping_enabled = sleep
    material = b2.surface_material(friction=FRICTION)  # Box2D mixes frictions as sqrt(a * b): 0.6 in all
    crate_def = b2.shape_def(density=PIXELS_PER_METRE ** 2, material=material)  # 1 per px^2, as Ledgekit's
    ground = world.create_static_body(position=(0.0, 0.0))
    for chain in scene.static:
        for a, b in zip(chain, chain[1:]):
            ground.create_capsule_shape(crate_def, b2.capsule((a[0] * m, a[1] * m), (b[0] * m, b[1] * m), WALL * m))
    bodies = []
    for w, h, x, y, a in scene.crates:
        # (b2.Rot(angle) takes the exact cosine and sine; b2.make_rot's are approximate, ~0.002 rad off)
        body = world.create_dynamic_body(position=(x * m, y * m), rotation=b2.Rot(a),
                                         sleep_threshold=defaults.sleep_linear_velocity * m)
        body.create_polygon_shape(crate_def, b2.box((w / 2 - CORNER) * m, (h / 2 - CORNER) * m, radius=CORNER * m))
        bodies.append(body)
    return world, bodies


def box2d_sim(scene: Scene, sleep: bool = False) -> Sim:
    world, bodies = box2d_world(scene, sleep)
    px = PIXELS_PER_METRE

    def positions() -> list[tuple[float, float]]:
        return [(p[0] * px, p[1] * px) for p in (b.position for b in bodies)]

    return Sim(lambda: world.step(DT, SUBSTEPS), positions,
               lambda: [math.hypot(*b.linear_velocity) * px for b in bodies],
               lambda: sum(not b.awake for b in bodies))


SIMS: dict[str, Callable[..., Sim]] = {"ledgekit": ledgekit_sim, "pymunk": pymunk_sim, "box2d": box2d_sim}


def thread_timed(step: Callable[[], None], steps: int) -> list[float]:
    """Seconds of this thread's CPU time for each of ``steps`` calls of ``step``."""
    times = []
    clock = time.thread_time_ns
    for _ in range(steps):
        t0 = clock()
        step()
        times.append((clock() - t0) * 1e-9)
    return times


def run(engine: str, scene: Scene, steps: int, sleep: bool = False) -> tuple[list[float], float, int]:
    """A fresh world of ``scene`` in ``engine`` stepped ``steps`` times from its first step: seconds per step,
    the largest distance any crate moved (px), and how many crates sleep at the end."""
    sim = SIMS[engine](scene, sleep)
    start = sim.positions()
    times = thread_timed(sim.step, steps)
    moved = max(math.dist(a, b) for a, b in zip(start, sim.positions()))
    return times, moved, sim.asleep()


def run_ledgekit(scene: Scene, steps: int, sleep: bool = False) -> tuple[list[float], float, int]:
    return run("ledgekit", scene, steps, sleep)


def run_pymunk(scene: Scene, steps: int, sleep: bool = False) -> tuple[list[float], float, int]:
    return run("pymunk", scene, steps, sleep)


def run_box2d(scene: Scene, steps: int, sleep: bool = False) -> tuple[list[float], float, int]:
    return run("box2d", scene, steps, sleep)


def settled(engine: str, scene: Scene, seconds: float = SETTLE_SECONDS) -> Sim:
    """``scene`` in ``engine`` with sleep off, stepped ``seconds`` untimed: from here on its steps are those of
    a resting pile (every crate still awake and solved)."""
    sim = SIMS[engine](scene, False)
    for _ in range(round(seconds / DT)):
        sim.step()
    return sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--sleep", action="store_true", help="let crates sleep (every engine)")
    parser.add_argument("--quick", action="store_true", help="the three smallest sizes of each scene")
    args = parser.parse_args()
    cut = 3 if args.quick else None
    scenes = [pyramid(b) for b in PYRAMID_BASES[:cut]] + [pile(n) for n in PILE_COUNTS[:cut]]
    print(f"{'scene':<34}" + "".join(f" {ENGINE_NAMES[e] + ' us':>12} {'moved px':>9}" for e in ENGINES))
    for scene in scenes:
        cells = []
        for engine in ENGINES:
            times, moved, _ = run(engine, scene, args.steps, args.sleep)
            cells.append(f" {statistics.median(times) * 1e6:>12.1f} {moved:>9.1f}")
        print(f"{scene.name:<34}" + "".join(cells))


if __name__ == "__main__":
    main()
