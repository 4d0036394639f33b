"""Character controller benchmark (not a test): median microseconds per step, Ledgekit against arcade.

Run: ``.venv/bin/python tests/benchmarks/bench_controller.py [--quick]``

The level: a 300-tile ground strip with a bump every 25 tiles (a 45-degree ramp up, three blocks, a ramp
down) that the hero runs along, jumping every 1.5 s, for 2,000 steps at 60 Hz,
plus floating platforms (runs of 1-6 tiles) scattered over a level that grows with the segment count
(constant density, as real levels grow). Ledgekit sees it as thick segments: each platform run is one
rounded outline of 4 segments, as the Tiled loader merges tiles. arcade's ``PhysicsEnginePlatformer``
sees the same tiles as 32 x 32 sprites in a spatial hash. Both runs happen in the same process, back to
back, and each step of each engine is timed alone; the medians are reported with their ratio.
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

from engine.geometry import RoundedPolygon
from engine.platformer import PlatformerController, PlatformerInput
from engine.world import World

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


def run_ledgekit(runs) -> tuple[list[float], float, int]:
    world = ledgekit_world(runs)
    hero = world.add_character(RoundedPolygon.box(10, 16, radius=2), (40.0, 18.0))
    controller = PlatformerController(hero)
    world.step(DT)  # build the broad phase outside the timed loop
    times = []
    for step in range(STEPS):
        buttons = PlatformerInput(right=True, jump=(step % 90) < 15)
        start = time.perf_counter()
        controller.update(buttons, DT)
        world.step(DT)
        times.append(time.perf_counter() - start)
    return times, hero.position[0], len(world.static)


def run_arcade(runs) -> tuple[list[float], float]:
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
    player = arcade.SpriteSolidColor(20, 32, color=arcade.color.RED)
    player.left, player.bottom = 30, 1
    # arcade's engine works in pixels per frame: the same run speed, gravity and jump.
    engine = arcade.PhysicsEnginePlatformer(player, walls=walls, gravity_constant=1800 * DT * DT)
    times = []
    for step in range(STEPS):
        start = time.perf_counter()
        player.change_x = 250 * DT
        if step % 90 == 0 and engine.can_jump():
            engine.jump(math.sqrt(2 * 1800 * 88) * DT)
        engine.update()
        times.append(time.perf_counter() - start)
    return times, player.center_x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the 1k level")
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


if __name__ == "__main__":
    main()
