"""Scale benchmark (not a test): what a step costs for things that do not move or are far from everything,
how long adding bodies takes, and the memory of a process that has only imported an engine and stepped it.

Run: ``.venv/bin/python tests/benchmarks/bench_scale.py [--quick]`` (the memory readings are
``bench_memory.py``'s, one child process per engine).

Every scene has one **awake crate**: a 32 x 32 px crate sliding on a floor of its own, its velocity set to
200 px/s (left or right, turning every second) before each step, so that it never sleeps and always has a
contact. Around it, far away (thousands of px, no box near the crate's), the scale under test:

* ``sleepers(n)``: ``n`` crates resting on shelves (100 a shelf, 8 px apart), stepped with sleep on until
  every one sleeps (untimed);
* ``platforms(m)``: ``m`` kinematic platforms (96 x 16 px) each going back and forth on a 200 px path at
  100 px/s (``PlatformPath``, pingpong), 400 px apart along a row (so 100 px or more between any two), rows
  300 px apart;
* ``sensors(s)``: ``s`` 32 x 32 px sensors, 64 px apart, that nothing reaches.

Each step is timed alone by the thread's CPU time; the setting of the crate's velocity is not timed.
``add_times`` times ``World.add_body`` of ``n`` crates (made before, untimed) into a world with a floor,
against ``pymunk.Space.add`` and Box2D v3's body and shape creation of the same crates.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from bench_crates import CORNER, DT, FRICTION, GRAVITY, PIXELS_PER_METRE, WALL  # noqa: E402

from engine import KinematicBody, PhysicsConfig, PlatformPath, RigidBody, RoundedPolygon, Sensor, World  # noqa: E402

CRATE = RoundedPolygon.box(16.0, 16.0, radius=CORNER)
PER_SHELF = 100
SPACING = 40.0
"""Crates on a shelf: 32 px wide, 8 px apart (twice the speculative distance: no contact between them)."""
FAR = 20_000.0
"""px. The awake crate's floor starts this far left of everything else."""
SPEED = 200.0


def crate_world(sleep: bool = True) -> tuple[World, RigidBody]:
    """A world with the awake crate on its floor (sleep on unless told)."""
    world = World(gravity=(0.0, GRAVITY), physics=PhysicsConfig(enable_sleep=sleep), static_friction=FRICTION)
    world.add_chain([(-FAR - 4000.0, 0.0), (-FAR, 0.0)], radius=WALL)
    crate = world.add_body(RigidBody(CRATE, (-FAR - 2000.0, WALL + 16.0), friction=FRICTION))
    return world, crate


@dataclass
class ScaleScene:
    """A world with the awake crate, and ``run(steps)``: the seconds (thread CPU) of each of ``steps`` steps."""

    world: World
    crate: RigidBody
    run: Callable[[int], list[float]]

    @property
    def asleep(self) -> int:
        """How many bodies other than the awake crate sleep."""
        return sum(b.sleeping for b in self.world.bodies if b is not self.crate)


def stepper(world: World, crate: RigidBody) -> Callable[[int], list[float]]:
    """``steps -> seconds per step`` of ``world``, the crate pushed before each (untimed)."""
    count = [0]

    def run(steps: int) -> list[float]:
        times = []
        clock = time.thread_time_ns
        for _ in range(steps):
            count[0] += 1
            crate.velocity = (SPEED if (count[0] // 60) % 2 == 0 else -SPEED, 0.0)
            t0 = clock()
            world.step(DT)
            times.append((clock() - t0) * 1e-9)
        return times

    return run


def shelf_spots(n: int) -> list[tuple[float, float]]:
    """Where crate ``k`` of ``n`` rests: 100 a shelf, shelves 100 px apart (the shelf's top, the crate's centre)."""
    return [((k % PER_SHELF) * SPACING + SPACING / 2, (k // PER_SHELF) * 100.0) for k in range(n)]


def shelves(world: World, n: int) -> None:
    for row in range(math.ceil(n / PER_SHELF)):
        world.add_chain([(0.0, row * 100.0), (PER_SHELF * SPACING, row * 100.0)], radius=WALL)


def sleepers(n: int) -> ScaleScene:
    """The awake crate and ``n`` crates on shelves, stepped (untimed) until they all sleep (4 s at most)."""
    world, crate = crate_world()
    shelves(world, n)
    for x, y in shelf_spots(n):
        world.add_body(RigidBody(CRATE, (x, y + WALL + 16.0), friction=FRICTION))
    scene = ScaleScene(world, crate, stepper(world, crate))
    for _ in range(240):  # time_to_sleep is 0.5 s
        scene.run(1)
        if scene.asleep == n:
            break
    return scene


def platforms(m: int) -> ScaleScene:
    """The awake crate and ``m`` moving platforms far above it."""
    world, crate = crate_world()
    for k in range(m):
        x, y = (k % 100) * 400.0, 20_000.0 + (k // 100) * 300.0
        world.add_kinematic(KinematicBody(RoundedPolygon.box(48.0, 8.0), (x, y),
                                          path=PlatformPath([(x, y), (x + 200.0, y)], 100.0, "pingpong")))
    scene = ScaleScene(world, crate, stepper(world, crate))
    scene.run(2)
    return scene


def sensors(s: int) -> ScaleScene:
    """The awake crate and ``s`` sensors far below it."""
    world, crate = crate_world()
    for k in range(s):
        world.add_sensor(Sensor(RoundedPolygon.box(16.0, 16.0), ((k % 100) * 64.0, -20_000.0 - (k // 100) * 64.0)))
    scene = ScaleScene(world, crate, stepper(world, crate))
    scene.run(2)
    return scene


def add_ledgekit(n: int) -> float:
    """Seconds (thread CPU) of ``n`` ``World.add_body`` calls, the bodies made before."""
    world = World(gravity=(0.0, GRAVITY), static_friction=FRICTION)
    shelves(world, n)
    bodies = [RigidBody(CRATE, (x, y + WALL + 16.0), friction=FRICTION) for x, y in shelf_spots(n)]
    t0 = time.thread_time_ns()
    for body in bodies:
        world.add_body(body)
    return (time.thread_time_ns() - t0) * 1e-9


def add_pymunk(n: int) -> float:
    import pymunk

    space = pymunk.Space()
    pairs = []
    for x, y in shelf_spots(n):
        body = pymunk.Body(1024.0, pymunk.moment_for_box(1024.0, (32.0, 32.0)))
        body.position = (x, y + WALL + 16.0)
        pairs.append((body, pymunk.Poly.create_box(body, (30.0, 30.0), radius=CORNER)))
    t0 = time.thread_time_ns()
    for body, shape in pairs:
        space.add(body, shape)
    return (time.thread_time_ns() - t0) * 1e-9


def add_box2d(n: int) -> float:
    """Box2D makes a body by adding it to the world: body and shape creation are timed."""
    import pyb2d3 as b2

    m = 1.0 / PIXELS_PER_METRE
    world = b2.World(gravity=(0.0, GRAVITY * m))
    shape_def = b2.shape_def(density=PIXELS_PER_METRE ** 2, material=b2.surface_material(friction=FRICTION))
    box = b2.box(15.0 * m, 15.0 * m, radius=CORNER * m)
    spots = [(x * m, (y + WALL + 16.0) * m) for x, y in shelf_spots(n)]
    t0 = time.thread_time_ns()
    for spot in spots:
        world.create_dynamic_body(position=spot).create_polygon_shape(shape_def, box)
    return (time.thread_time_ns() - t0) * 1e-9


ADDS: dict[str, Callable[[int], float]] = {"ledgekit": add_ledgekit, "pymunk": add_pymunk, "box2d": add_box2d}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    args = parser.parse_args()
    big = 1_000 if args.quick else 10_000
    base = statistics.median(sleepers(0).run(120)) * 1e6
    print(f"awake crate alone: {base:.1f} us a step")
    lying = sleepers(big)
    print(f"  with {big} sleeping ({lying.asleep} asleep): {statistics.median(lying.run(120)) * 1e6:.1f} us")
    print(f"  with {big // 10} platforms: {statistics.median(platforms(big // 10).run(120)) * 1e6:.1f} us")
    print(f"  with {big} sensors: {statistics.median(sensors(big).run(120)) * 1e6:.1f} us")
    for engine, add in ADDS.items():
        print(f"add {big} crates, {engine}: {add(big):.3f} s")


if __name__ == "__main__":
    main()
