"""Small levels built in code for the controller scenarios (32 px tiles, segment radius 2 px)."""

from __future__ import annotations

import math

from engine.character import MoverConfig
from engine.geometry import RoundedPolygon
from engine.platformer import PlatformerConfig, PlatformerController, PlatformerInput
from engine.world import World

TILE = 32.0
RADIUS = 2.0
DT = 1.0 / 60.0
HERO = RoundedPolygon.box(10, 16, radius=2)  # 20 x 32 px, rounded corners
HERO_HALF_HEIGHT = 16.0


def add_tile(world: World, col: int, row: int, radius: float = RADIUS) -> None:
    """One separate square tile (its own closed outline of four thick segments): the worst case for
    seams, since every neighbour contributes an internal edge."""
    x0, y0 = col * TILE, row * TILE
    world.add_chain([(x0, y0), (x0 + TILE, y0), (x0 + TILE, y0 + TILE), (x0, y0 + TILE)], radius, closed=True)


def tiled_floor(world: World, cols: range, row: int = -1) -> float:
    """A row of separate tiles whose tops are at y = (row + 1) * TILE; returns that height."""
    for c in cols:
        add_tile(world, c, row)
    return (row + 1) * TILE


def standing_y(floor_top: float, skin: float = MoverConfig().skin) -> float:
    return floor_top + RADIUS + HERO_HALF_HEIGHT + skin


def slope(world: World, start: tuple[float, float], angle: float, length: float, pieces: int = 1) -> tuple[float, float]:
    """A straight ramp from ``start`` at ``angle`` (radians), split into ``pieces`` separate segments.
    Returns its end point."""
    x, y = start
    dx, dy = math.cos(angle) * length / pieces, math.sin(angle) * length / pieces
    for _ in range(pieces):
        world.add_segments([(x, y)], [(x + dx, y + dy)], RADIUS)
        x, y = x + dx, y + dy
    return (x, y)


def hero(world: World, position, mover: MoverConfig | None = None, feel: PlatformerConfig | None = None):
    character = world.add_character(HERO, position, mover)
    return character, PlatformerController(character, feel or PlatformerConfig())


def run(world: World, controller: PlatformerController, buttons: PlatformerInput, steps: int, record=None):
    """Step with the same buttons held; ``record(character)`` after each step."""
    for _ in range(steps):
        controller.update(buttons, DT)
        world.step(DT)
        if record is not None:
            record(controller.character)


def settle(world: World, controller: PlatformerController, steps: int = 30) -> None:
    run(world, controller, PlatformerInput(), steps)


RIGHT = PlatformerInput(right=True)
LEFT = PlatformerInput(left=True)
JUMP = PlatformerInput(jump=True)
NOTHING = PlatformerInput()
