"""Character controller benchmark (not a test): median microseconds per step, Ledgekit against arcade.

Run: ``.venv/bin/python tests/benchmarks/bench_controller.py [--quick]``

The level: a 300-tile ground strip with a bump every 25 tiles (a 45-degree ramp up, three blocks, a ramp
down) that the hero runs along, jumping every 1.5 s, for 2,000 steps at 60 Hz,
plus floating platforms (runs of 1-6 tiles) scattered over a level that grows with the segment count
(constant density, as real levels grow). Ledgekit sees it as thick segments: each platform run is one
rounded outline of 4 segments, as the Tiled loader merges tiles. arcade's ``PhysicsEnginePlatformer``
sees the same tiles as 32 x 32 sprites in a spatial hash. Both runs happen in the same process, back to
back, and each step of each engine is timed alone by the thread's CPU time (``time.thread_time_ns``: what
this thread computed, not what other processes on a busy machine took from it); the medians are reported
with their ratio.

Crowds (``run_ledgekit_crowd``, ``run_arcade_crowd``): 1 to 200 characters on the 1k-segment level, spread
along the ground, each with its own controller (Ledgekit: one world step for all of them; arcade: one
``PhysicsEnginePlatformer`` per character, each updated), running and jumping at their own phases for
``CROWD_STEPS``; reported per character (the frame's time over the count).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np

from engine import Character, CollisionFilter, PlatformerController, PlatformerInput, RoundedPolygon, World

TILE = 32
GROUND_TILES = 300
STEPS = 2000
DT = 1.0 / 60.0


def platform_runs(n_segments: int, seed: int = 0) -> list[tuple[int, int, int]]:
    """(column, row, length) of floating platforms: 4 segments each, rows from 5 up, level width grows."""
    rng = np.random.default_rng(seed)
    count = max(0, n_segments // 4 - 1)
    width = max(GROUND_TILES, int(math.sqrt(count) * 12))
    height = max(10, count * 8 // width)
    return [(int(rng.integers(0, width)), int(5 + rng.integers(0, height) * 3), int(rng.integers(1, 7)))
            for _ in range(count)]


BUMPS = range(10, GROUND_TILES - 10, 25)
"""Columns where the ground rises: a 45-degree slope up, three blocks, a 45-degree slope down."""


def ground_surface() -> list[tuple[float, float]]:
    """The top of the ground strip, left to right (y = 0 flat, 32 on the bumps)."""
    pts = [(0.0, 0.0)]
    for c in BUMPS:
        pts += [(c * TILE, 0.0), ((c + 1) * TILE, TILE), ((c + 4) * TILE, TILE), ((c + 5) * TILE, 0.0)]
    pts.append((GROUND_TILES * TILE, 0.0))
    return pts


def ledgekit_world(runs) -> World:
    world = World(gravity=(0.0, -1800.0))
    # The ground, merged as the Tiled loader would: one outline with the bumps' slopes in it.
    surface = ground_surface()
    world.add_chain(surface + [(GROUND_TILES * TILE, -TILE), (0.0, -TILE)], radius=1.0, closed=True)
    for col, row, length in runs:
        x0, y0, x1, y1 = col * TILE, row * TILE, (col + length) * TILE, (row + 1) * TILE
        world.add_chain([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], radius=1.0, closed=True)
    return world


def run_ledgekit(runs, steps: int = STEPS) -> tuple[list[float], float, int]:
    world = ledgekit_world(runs)
    hero = world.add_character(RoundedPolygon.box(10, 16, radius=2), (40.0, 18.0))
    controller = PlatformerController(hero)
    world.step(DT)  # build the broad phase outside the timed loop
    times = []
    for step in range(steps):
        buttons = PlatformerInput(right=True, jump=(step % 90) < 15)
        start = time.thread_time_ns()
        controller.update(buttons, DT)
        world.step(DT)
        times.append((time.thread_time_ns() - start) * 1e-9)
    return times, hero.position[0], len(world.static)


def arcade_walls(runs):
    """The level's tiles as 32 x 32 sprites in a spatial hash (the bumps' ramps with triangle hit boxes)."""
    import arcade

    from PIL import Image, ImageDraw

    walls = arcade.SpriteList(use_spatial_hash=True)

    def ramp(up: bool) -> arcade.Texture:
        img = Image.new("RGBA", (TILE, TILE), (0, 0, 0, 0))
        e = TILE - 1
        corners = [(0, e), (e, 0), (e, e)] if up else [(0, 0), (e, e), (0, e)]
        ImageDraw.Draw(img).polygon(corners, fill=(255, 255, 255, 255))
        return arcade.Texture(img, hash=f"bench-ramp-{up}")  # hit box traced from the triangle's pixels

    ramps = {True: ramp(True), False: ramp(False)}
    cells = [(0, -1, GROUND_TILES)] + [(c + 1, 0, 3) for c in BUMPS] + runs
    for col, row, length in cells:
        for k in range(length):
            tile = arcade.SpriteSolidColor(TILE, TILE, color=arcade.color.WHITE)
            tile.left, tile.bottom = (col + k) * TILE, row * TILE
            walls.append(tile)
    for c in BUMPS:
        for col, up in ((c, True), (c + 4, False)):
            tile = arcade.Sprite(ramps[up])
            tile.left, tile.bottom = col * TILE, 0
            walls.append(tile)
    return walls


def arcade_player(walls, left: float, bottom: float = 1.0):
    import arcade

    player = arcade.SpriteSolidColor(20, 32, color=arcade.color.RED)
    player.left, player.bottom = left, bottom
    # arcade's engine works in pixels per frame: the same run speed, gravity and jump.
    return player, arcade.PhysicsEnginePlatformer(player, walls=walls, gravity_constant=1800 * DT * DT)


def run_arcade(runs, steps: int = STEPS) -> tuple[list[float], float]:
    player, engine = arcade_player(arcade_walls(runs), 30)
    times = []
    for step in range(steps):
        start = time.thread_time_ns()
        player.change_x = 250 * DT
        if step % 90 == 0 and engine.can_jump():
            engine.jump(math.sqrt(2 * 1800 * 88) * DT)
        engine.update()
        times.append((time.thread_time_ns() - start) * 1e-9)
    return times, player.center_x


CROWD_STEPS = 600
"""Steps of the many-character runs: 10 s, 2,500 px of running, so that no one runs off the ground's end."""


CROWD_DROP = 48.0
"""The crowd starts this high above the ground (some over the bumps) and drops onto it."""


def crowd_starts(count: int) -> list[float]:
    """Left edges of ``count`` characters spread over the ground, leaving room to run ``CROWD_STEPS``."""
    room = GROUND_TILES * TILE - 250 * CROWD_STEPS * DT - 200
    return [30.0 + room * k / max(1, count) for k in range(count)]


def crowd_jumps(step: int, k: int) -> bool:
    """Whether character ``k`` presses jump at ``step``: every 1.5 s, each at its own phase."""
    return (step + 7 * k) % 90 < 15


def run_ledgekit_crowd(runs, count: int, steps: int = CROWD_STEPS) -> tuple[list[float], float]:
    """Seconds per frame with ``count`` characters, each with its own controller, running and jumping
    (controllers' updates and one world step), and the lowest character's feet at the end (>= 0: no one
    fell off). The characters do not touch each other (a negative filter group), as arcade's players, each
    in its own engine, do not."""
    world = ledgekit_world(runs)
    shape = RoundedPolygon.box(10, 16, radius=2)
    apart = CollisionFilter(group=-1)
    controllers = [PlatformerController(world.add_character(Character(shape, (x + 10.0, 18.0 + CROWD_DROP), filter=apart)))
                   for x in crowd_starts(count)]
    world.step(DT)
    times = []
    for step in range(steps):
        buttons = [PlatformerInput(right=True, jump=crowd_jumps(step, k)) for k in range(count)]
        start = time.thread_time_ns()
        for controller, held in zip(controllers, buttons):
            controller.update(held, DT)
        world.step(DT)
        times.append((time.thread_time_ns() - start) * 1e-9)
    return times, min(c.character.position[1] - 16.0 for c in controllers)


def run_arcade_crowd(runs, count: int, steps: int = CROWD_STEPS) -> tuple[list[float], float]:
    """Seconds per frame with ``count`` players, one ``PhysicsEnginePlatformer`` each, on the same walls."""
    walls = arcade_walls(runs)
    crowd = [arcade_player(walls, x, 1.0 + CROWD_DROP) for x in crowd_starts(count)]
    held = [False] * count
    times = []
    for step in range(steps):
        jumps = [crowd_jumps(step, k) for k in range(count)]
        start = time.thread_time_ns()
        for k, (player, engine) in enumerate(crowd):
            player.change_x = 250 * DT
            if jumps[k] and not held[k] and engine.can_jump():
                engine.jump(math.sqrt(2 * 1800 * 88) * DT)
            engine.update()
        times.append((time.thread_time_ns() - start) * 1e-9)
        held = jumps
    return times, min(player.bottom for player, _ in crowd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the 1k level, up to 50 characters")
    args = parser.parse_args()
    sizes = (1_000,) if args.quick else (1_000, 10_000, 100_000)
    print(f"{'segments':>9} {'ledgekit us':>12} {'arcade us':>10} {'ratio':>6}   (median per step, {STEPS} steps)")
    for n in sizes:
        runs = platform_runs(n)
        ours, x_ours, segments = run_ledgekit(runs)
        theirs, x_theirs = run_arcade(runs)
        m_ours, m_theirs = statistics.median(ours) * 1e6, statistics.median(theirs) * 1e6
        print(f"{segments:>9,} {m_ours:>12.1f} {m_theirs:>10.1f} {m_ours / m_theirs:>6.2f}"
              f"   (hero reached x = {x_ours:.0f} / {x_theirs:.0f})")
    print(f"{'characters':>10} {'ledgekit us':>12} {'arcade us':>10} {'ratio':>6}   (median per frame per character, "
          f"1k segments, {CROWD_STEPS} steps)")
    runs = platform_runs(1_000)
    for count in (1, 10, 50) if args.quick else (1, 10, 50, 200):
        ours = statistics.median(run_ledgekit_crowd(runs, count)[0]) * 1e6 / count
        theirs = statistics.median(run_arcade_crowd(runs, count)[0]) * 1e6 / count
        print(f"{count:>10} {ours:>12.1f} {theirs:>10.1f} {ours / theirs:>6.2f}")


if __name__ == "__main__":
    main()
