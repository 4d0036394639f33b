"""Seam benchmark (not a test): a crate sliding over 100 separate tiles, against the same slide on one
seamless floor, in Ledgekit and in pymunk (plain box tiles, and pymunk's documented fix for seams).

Run: ``.venv/bin/python tests/benchmarks/bench_seams.py [--speed 600]``

A 32 x 32 px crate (friction 0.6 for every pair, gravity 1800 px/s^2, dt 1/60) is launched along the
floor at ``speed`` px/s and simulated for 4 s. Reported for each floor: how far it got, its highest hop
above resting height, and its largest tilt. The floors:

* Ledgekit: 102 tiles, each its own closed outline of four thick segments (radius 2), as separate tile
  objects in a map would be; seamless: one segment as long.
* pymunk, box tiles: 102 static ``Poly`` boxes; seamless: one long box.
* pymunk, segments with neighbours: each tile's top as its own ``Segment`` (radius 2) joined to the next
  with ``Segment.set_neighbors(prev, next)`` (Chipmunk's fix for "cracks" between segments); seamless:
  one long segment.

A floor is free of seams when its crate slides as far as on the seamless one, without hops or tilt.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import RigidBody, RoundedPolygon, World  # noqa: E402

DT = 1.0 / 60.0
TILE = 32.0
RADIUS = 2.0
FRICTION = 0.6
SECONDS = 4.0
TILES = range(-2, 100)
FLOORS = ("tiles", "seamless")
PYMUNK_FLOORS = ("boxes", "box seamless", "segments", "segment seamless")


def ledgekit_slide(speed: float, floor: str) -> tuple[float, float, float]:
    """(distance, highest hop, largest tilt) on ``floor``: "tiles" or "seamless"."""
    world = World(gravity=(0.0, -1800.0), static_friction=FRICTION)
    if floor == "tiles":
        for c in TILES:
            x0 = c * TILE
            world.add_chain([(x0, -TILE), (x0 + TILE, -TILE), (x0 + TILE, 0.0), (x0, 0.0)], RADIUS, closed=True)
    else:
        world.add_chain([(TILES[0] * TILE, 0.0), (TILES[-1] * TILE + TILE, 0.0)], radius=RADIUS)
    rest = RADIUS + 16.0
    box = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, rest), velocity=(speed, 0.0),
                                   friction=FRICTION))
    top, tilt = -math.inf, 0.0
    for _ in range(int(SECONDS / DT)):
        world.step(DT)
        top = max(top, box.position[1])
        tilt = max(tilt, abs(box.angle))
    return box.position[0], top - rest, tilt


def pymunk_slide(speed: float, floor: str) -> tuple[float, float, float]:
    """(distance, highest hop, largest tilt) on ``floor``: one of ``PYMUNK_FLOORS``."""
    import pymunk

    friction = math.sqrt(FRICTION)  # pymunk multiplies the two shapes' frictions: 0.6 in all
    space = pymunk.Space()
    space.gravity = (0.0, -1800.0)
    left, right = TILES[0] * TILE, TILES[-1] * TILE + TILE
    shapes: list = []
    if floor == "boxes":
        shapes = [pymunk.Poly(space.static_body, [(k * TILE, -TILE), ((k + 1) * TILE, -TILE), ((k + 1) * TILE, 0),
                                                  (k * TILE, 0)]) for k in TILES]
    elif floor == "box seamless":
        shapes = [pymunk.Poly(space.static_body, [(left, -TILE), (right, -TILE), (right, 0), (left, 0)])]
    elif floor == "segments":
        shapes = [pymunk.Segment(space.static_body, (k * TILE, 0), ((k + 1) * TILE, 0), RADIUS) for k in TILES]
        for k, segment in zip(TILES, shapes):
            segment.set_neighbors(((k - 1) * TILE, 0), ((k + 2) * TILE, 0))
    elif floor == "segment seamless":
        shapes = [pymunk.Segment(space.static_body, (left, 0), (right, 0), RADIUS)]
    else:
        raise ValueError(f"unknown floor {floor!r}")
    rest = 16.0 + (RADIUS if "segment" in floor else 0.0)
    for shape in shapes:
        shape.friction = friction
    space.add(*shapes)
    body = pymunk.Body(1024, pymunk.moment_for_box(1024, (32, 32)))
    body.position = (0.0, rest)
    body.velocity = (speed, 0.0)
    box = pymunk.Poly.create_box(body, (30, 30), radius=1.0)
    box.friction = friction
    space.add(body, box)
    top, tilt = -math.inf, 0.0
    for _ in range(int(SECONDS / DT)):
        space.step(DT)
        top = max(top, body.position.y)
        tilt = max(tilt, abs(body.angle))
    return body.position.x, top - rest, tilt


def all_slides(speed: float) -> dict[str, tuple[float, float, float]]:
    """Every floor of both engines: ``ledgekit tiles``, ``ledgekit seamless``, ``pymunk boxes`` and so on."""
    out = {f"ledgekit {f}": ledgekit_slide(speed, f) for f in FLOORS}
    out.update({f"pymunk {f}": pymunk_slide(speed, f) for f in PYMUNK_FLOORS})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, default=600.0)
    args = parser.parse_args()
    print(f"{'floor':<26} {'distance px':>12} {'hop px':>8} {'tilt rad':>9}")
    for name, (distance, hop, tilt) in all_slides(args.speed).items():
        print(f"{name:<26} {distance:>12.1f} {hop:>8.3f} {tilt:>9.4f}")


if __name__ == "__main__":
    main()
