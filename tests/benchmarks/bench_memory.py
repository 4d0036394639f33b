"""Memory benchmark (not a test): the resident memory of a process that has imported one physics engine, made
its kernels ready and stepped a small scene, and nothing else.

Run: ``.venv/bin/python tests/benchmarks/bench_memory.py ENGINE`` with ENGINE ``ledgekit``, ``pymunk`` or
``box2d``; prints one JSON object: ``rss_mib`` (VmRSS after the steps) and ``peak_mib`` (VmHWM), MiB, and
``imported``: which of the engines (and arcade) the process imported.

Each engine's process imports only that engine (and what it imports itself), so the three readings compare
like with like: Ledgekit's scene is built through ``import engine`` after ``engine.warm_up()`` (every physics
kernel compiled or loaded from the cache); a floor, a crate, a character, a sensor and a moving platform,
stepped 60 times. pymunk's and Box2D v3's (``pyb2d3``): a floor and three crates, stepped 60 times.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DT = 1.0 / 60.0


def readings() -> dict[str, float]:
    """This process's resident memory now and at its peak (MiB), from /proc (VmHWM starts afresh at exec)."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        for key, name in (("VmRSS:", "rss_mib"), ("VmHWM:", "peak_mib")):
            if line.startswith(key):
                out[name] = int(line.split()[1]) / 1024
    return out


def ledgekit() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from engine import KinematicBody, RigidBody, RoundedPolygon, Sensor, World, warm_up

    warm_up()
    world = World(gravity=(0.0, -1800.0))
    world.add_chain([(-500.0, 0.0), (500.0, 0.0)], radius=2.0)
    world.add_body(RigidBody(RoundedPolygon.box(16.0, 16.0, radius=1.0), (0.0, 18.0)))
    world.add_character(RoundedPolygon.box(10.0, 16.0, radius=2.0), (-200.0, 20.0))
    world.add_sensor(Sensor(RoundedPolygon.box(16.0, 16.0), (200.0, 100.0)))
    world.add_kinematic(KinematicBody(RoundedPolygon.box(48.0, 8.0), (0.0, 300.0), velocity=(50.0, 0.0)))
    for _ in range(60):
        world.step(DT)


def pymunk() -> None:
    import pymunk as pm

    space = pm.Space()
    space.gravity = (0.0, -1800.0)
    space.add(pm.Segment(space.static_body, (-500.0, 0.0), (500.0, 0.0), 2.0))
    for k in range(3):
        body = pm.Body(1024.0, pm.moment_for_box(1024.0, (32.0, 32.0)))
        body.position = (k * 40.0, 18.0)
        space.add(body, pm.Poly.create_box(body, (30.0, 30.0), radius=1.0))
    for _ in range(60):
        space.step(DT)


def box2d() -> None:
    import pyb2d3 as b2

    world = b2.World(gravity=(0.0, -56.25))
    shape_def = b2.shape_def(density=1024.0)
    floor = world.create_static_body(position=(0.0, 0.0))
    floor.create_capsule_shape(shape_def, b2.capsule((-16.0, 0.0), (16.0, 0.0), 0.0625))
    for k in range(3):
        world.create_dynamic_body(position=(k * 1.25, 0.5625)).create_polygon_shape(
            shape_def, b2.box(0.46875, 0.46875, radius=0.03125))
    for _ in range(60):
        world.step(DT, 4)


ENGINES = {"ledgekit": ledgekit, "pymunk": pymunk, "box2d": box2d}


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] not in ENGINES:
        raise SystemExit(f"usage: bench_memory.py {{{','.join(ENGINES)}}}")
    ENGINES[sys.argv[1]]()
    engines = {"engine", "pymunk", "pyb2d3", "arcade"}
    print(json.dumps({**readings(), "imported": sorted(engines & set(sys.modules))}))


if __name__ == "__main__":
    main()
