"""Geometry kernel benchmark (not a test): median microseconds per call.

Run: ``.venv/bin/python tests/benchmarks/bench_geometry.py [--quick]``

Prints the median over repeated batches (machines here are shared and noisy, so medians, not means, of the
thread's CPU time) of:

* the narrow-phase functions on typical pairs (collide, closest_point, ray_cast, shape_cast);
* casts through :class:`StaticBroadPhase` on levels of 1k, 10k and 100k thick segments at constant
  density (a level that grows wider, as real levels do), for a ray, a circle and a box character;
* pymunk's ``segment_query_first`` (Chipmunk's bounding-box tree, C code) on the same segments and rays,
  in the same run, as the reference a Python developer would otherwise use.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.geometry import (
    RoundedPolygon,
    StaticBroadPhase,
    Transform,
    closest_point,
    collide,
    ray_cast,
    shape_cast,
)


def median_us(fn, args_list, repeats: int) -> float:
    """Median over ``repeats`` batches of the mean time per call over ``args_list``, in microseconds."""
    batches = []
    for _ in range(repeats):
        start = time.thread_time_ns()
        for args in args_list:
            fn(*args)
        batches.append((time.thread_time_ns() - start) * 1e-9 / len(args_list) * 1e6)
    return statistics.median(batches)


def tile_level(n_segments: int, seed: int = 0):
    """Platforms of 1-4 tiles (32 px each) scattered at a constant density over a square that grows with
    the number of segments; a quarter of them sloped."""
    rng = np.random.default_rng(seed)
    side = math.sqrt(n_segments) * 160.0
    a = rng.uniform(0, side, (n_segments, 2))
    length = rng.integers(1, 5, n_segments) * 32.0
    angle = np.where(rng.random(n_segments) < 0.25, rng.choice([math.pi / 8, math.pi / 4, -math.pi / 4], n_segments), 0.0)
    b = a + np.stack([np.cos(angle), np.sin(angle)], axis=1) * length[:, None]
    return a, b, side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (for a smoke run)")
    args = parser.parse_args()
    repeats = 5 if args.quick else 15
    rng = np.random.default_rng(42)

    print("Narrow phase (median us per call)")
    box = RoundedPolygon.box(12, 20)
    rounded = RoundedPolygon.box(12, 20, radius=3)
    segment = RoundedPolygon.capsule((-64, 0), (64, 0), 2.0)
    circle = RoundedPolygon.circle(8)
    hexagon = RoundedPolygon([(math.cos(k * math.pi / 3) * 16, math.sin(k * math.pi / 3) * 16) for k in range(6)], 1.0)
    xfs = [Transform((rng.uniform(-60, 60), rng.uniform(15, 24)), rng.uniform(-0.3, 0.3)) for _ in range(200)]
    origin = Transform()
    rows = [
        ("collide box vs box (resting)", collide, [(box, origin, box, Transform((x.position[0] * 0.1, 39.5))) for x in xfs]),
        ("collide capsule vs rounded box", collide, [(segment, origin, rounded, x) for x in xfs]),
        ("collide circle vs hexagon", collide, [(hexagon, origin, circle, x) for x in xfs]),
        ("closest_point rounded box", closest_point, [(rounded, origin, x.position) for x in xfs]),
        ("ray_cast rounded box", ray_cast, [(rounded, Transform((0, -40)), x.position, (0.1, -1.0), 100.0) for x in xfs]),
        ("ray_cast capsule", ray_cast, [(segment, origin, x.position, (0.1, -1.0), 100.0) for x in xfs]),
        ("shape_cast box vs capsule", shape_cast, [(box, x, (3.0, -30.0), segment, origin) for x in xfs]),
        ("shape_cast circle vs capsule", shape_cast, [(circle, x, (3.0, -30.0), segment, origin) for x in xfs]),
    ]
    for name, fn, calls in rows:
        print(f"  {name:<36} {median_us(fn, calls, repeats):8.2f}")

    print()
    print("Through the broad phase (median us per cast; level size grows, density constant)")
    try:
        import pymunk
    except ImportError:  # pragma: no cover - pymunk comes with arcade
        pymunk = None
    header = f"  {'segments':>9} {'build ms':>9} {'ray 200px':>10} {'circle r8':>10} {'box 24x40':>10}"
    if pymunk:
        header += f" {'pymunk ray':>11} {'ratio':>6}"
    print(header)
    for n in (1_000, 10_000, 100_000):
        a, b, side = tile_level(n)
        t0 = time.thread_time_ns()
        bp = StaticBroadPhase(a, b, 2.0)
        build_ms = (time.thread_time_ns() - t0) * 1e-6
        starts = rng.uniform(0.1 * side, 0.9 * side, (300, 2))
        headings = rng.uniform(0, 2 * math.pi, 300)
        rays = [((float(x), float(y)), (math.cos(h), math.sin(h)), 200.0) for (x, y), h in zip(starts, headings)]
        ray_us = median_us(bp.ray_cast, rays, repeats)
        circle_us = median_us(lambda o, d, m, bp=bp: bp.ray_cast(o, d, m, radius=8.0), rays, repeats)
        character = RoundedPolygon.box(12, 20)
        moves = [(character, Transform((float(x), float(y))), (6.0, -4.0)) for x, y in starts]
        box_us = median_us(bp.shape_cast, moves, repeats)
        line = f"  {n:>9,} {build_ms:>9.1f} {ray_us:>10.1f} {circle_us:>10.1f} {box_us:>10.1f}"
        if pymunk:
            space = pymunk.Space()
            static = space.static_body
            space.add(*[pymunk.Segment(static, tuple(p), tuple(q), 2.0) for p, q in zip(a, b)])
            space.step(0.0)  # builds the static tree
            everything = pymunk.ShapeFilter()
            queries = [(o, (o[0] + d[0] * m, o[1] + d[1] * m), 0.0, everything) for o, d, m in rays]
            pm_us = median_us(space.segment_query_first, queries, repeats)
            line += f" {pm_us:>11.1f} {ray_us / pm_us:>6.2f}"
        print(line)


if __name__ == "__main__":
    main()
