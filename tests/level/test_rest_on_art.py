"""Rest on the art: bodies and the hero touch the drawn tiles and objects, not a segment radius above them.

Level collision is made of thick segments (``segment_radius`` px each side of their core). Their cores are
inset so the rounded surface lies on the drawn edges. Each test loads a small map of 32 px fixture tiles
(gid 1 block, 2 slope, 3 half block, 4 one-way 8 px thick), lets a crate or the hero settle, and measures the
gap between the body's outline and the drawn solid (written out by hand here, from the map, not from the
loader): at rest on a floor within 0.5 px plus the mover's skin, against a wall within the skin.
"""

from __future__ import annotations

import pytest
import shapely
from shapely.geometry import Polygon, box

from engine.character import MoverConfig
from engine.geometry import RoundedPolygon
from engine.level.level import load_level
from engine.platformer import PlatformerConfig, PlatformerController, PlatformerInput
from engine.world import World

from .mapkit import csv_layer, map_text, objects, write_map

DT = 1.0 / 60.0
SKIN = MoverConfig().skin
REST = 0.5
"""Pixels: how far above the drawn surface a body at rest may be (the hero: plus the skin)."""
HERO_SIZE = (20.0, 32.0)
STILL = PlatformerInput()


def rows(*cells: str) -> list[list[int]]:
    """A tile layer from strings, top row first: '.' empty, '#' block, '/' slope, '-' half block, '=' one-way."""
    gid = {".": 0, "#": 1, "/": 2, "-": 3, "=": 4}
    return [[gid[c] for c in row] for row in cells]


def load(tmp_path, cells: list[list[int]], things: str = "", **kw):
    return load_level(write_map(tmp_path, map_text(csv_layer(cells) + objects(things), **kw)))


def outline(shape, position, angle: float = 0.0):
    """A body's true outline (its core grown by its radius) in the world, as a shapely geometry."""
    moved = shapely.affinity.rotate(shapely.MultiPoint(shape.vertices), angle, origin=(0, 0), use_radians=True)
    core = shapely.affinity.translate(shapely.convex_hull(moved), *position)
    return core.buffer(shape.radius, quad_segs=64) if shape.radius > 0 else core


def gap(body_outline, drawn) -> float:
    """Pixels between a body and the drawn solid: 0 when they touch or overlap (checked apart)."""
    return float(body_outline.distance(drawn))


def overlap(body_outline, drawn) -> float:
    """How far (px, roughly: area over the body's width) a body sinks into the drawn solid."""
    width = body_outline.bounds[2] - body_outline.bounds[0]
    return float(body_outline.intersection(drawn).area / width)


def settle_hero(world: World, at: tuple[float, float], buttons: PlatformerInput = STILL, steps: int = 90):
    character = world.add_character(RoundedPolygon.box(HERO_SIZE[0] / 2, HERO_SIZE[1] / 2, radius=2), at)
    controller = PlatformerController(character, PlatformerConfig())
    for _ in range(steps):
        controller.update(buttons, DT)
        world.step(DT)
    return character


def hero_gap(world: World, at, drawn, buttons: PlatformerInput = STILL, steps: int = 90) -> float:
    character = settle_hero(world, at, buttons, steps)
    body = outline(character.shape, character.position)
    assert overlap(body, drawn) < 0.05, "the hero sinks into the drawn solid"
    return gap(body, drawn)


# The drawn solids of the maps below (engine frame, y up; maps are 8 x 4 tiles of 32 px: 256 x 128 px).
GROUND = box(0, 0, 256, 32)


def flat(tmp_path, things: str = ""):
    return load(tmp_path, rows("........", "........", "........", "########"), things)


def test_a_crate_rests_on_the_drawn_grass(tmp_path):
    level = flat(tmp_path, '<object id="3" class="Crate" x="112" y="40" width="32" height="32"/>')
    world = level.build_world()
    for _ in range(120):
        world.step(DT)
    crate = world.bodies[0]
    body = outline(crate.shape, crate.position, crate.angle)
    assert overlap(body, GROUND) < 0.05
    assert gap(body, GROUND) <= REST


def test_the_hero_rests_on_the_drawn_grass(tmp_path):
    world = flat(tmp_path).build_world()
    assert hero_gap(world, (64.0, 60.0), GROUND) <= REST + SKIN


def test_the_hero_pushing_into_a_wall_stops_at_its_drawn_face(tmp_path):
    level = load(tmp_path, rows("........", ".....###", ".....###", "########"))
    drawn = shapely.union(GROUND, box(160, 32, 256, 96))
    world = level.build_world()
    assert hero_gap(world, (120.0, 60.0), drawn, PlatformerInput(right=True), steps=120) <= SKIN + 0.05


def test_the_hero_rests_on_a_one_way_tile(tmp_path):
    level = load(tmp_path, rows("........", "..===...", "........", "........"))
    drawn = box(64, 88, 160, 96)  # the one-way tiles' collision: the top 8 px of row 1 (y 64 to 96)
    world = level.build_world()
    assert hero_gap(world, (112.0, 118.0), drawn) <= REST + SKIN


def test_the_hero_rests_on_a_one_way_object(tmp_path):
    level = flat(tmp_path, '<object id="3" class="OneWay" x="64" y="60" width="96" height="8"/>')
    world = level.build_world()
    assert hero_gap(world, (112.0, 100.0), box(64, 60, 160, 68)) <= REST + SKIN


def test_the_hero_rests_on_a_slope_tile(tmp_path):
    level = load(tmp_path, rows("........", "........", "..../###", "########"))
    slope = Polygon([(128, 32), (160, 64), (160, 32)])
    drawn = shapely.union_all([GROUND, box(160, 32, 256, 64), slope])
    world = level.build_world()
    assert hero_gap(world, (144.0, 80.0), drawn) <= REST + SKIN


def test_the_hero_rests_on_a_solid_object_rectangle(tmp_path):
    level = flat(tmp_path, '<object id="3" class="Solid" x="64" y="48" width="96" height="16"/>')
    world = level.build_world()
    assert hero_gap(world, (112.0, 110.0), box(64, 64, 160, 80)) <= REST + SKIN


def test_the_hero_pushing_into_a_solid_object_stops_at_its_drawn_side(tmp_path):
    level = flat(tmp_path, '<object id="3" class="Solid" x="160" y="32" width="32" height="64"/>')
    drawn = shapely.union(GROUND, box(160, 32, 192, 96))
    world = level.build_world()
    assert hero_gap(world, (120.0, 60.0), drawn, PlatformerInput(right=True), steps=120) <= SKIN + 0.05


def test_a_floating_one_tile_platform_stays_solid_and_is_rested_on(tmp_path):
    level = load(tmp_path, rows("........", "..###...", "........", "........"))
    world = level.build_world()
    assert hero_gap(world, (112.0, 110.0), box(64, 64, 160, 96)) <= REST + SKIN


@pytest.mark.parametrize("thickness", [1.0, 3.0])
def test_a_solid_thinner_than_two_radii_stays_solid_and_is_reported(tmp_path, thickness):
    """A 1 or 3 px bar (the segments are 4 px thick): it cannot be inset, so it collides along its centre
    line; the hero lands on it instead of falling through, and the map gets a warning saying where."""
    level = load(tmp_path, rows(*["........"] * 4),
                 f'<object id="3" class="Solid" x="64" y="64" width="96" height="{thickness}"/>')
    thin = [p for p in level.problems if "thinner" in p.message]
    assert len(thin) == 1 and thin[0].severity == "warning" and thin[0].position is not None
    world = level.build_world()
    character = settle_hero(world, (112.0, 100.0))
    assert character.on_floor
    top = 128 - 64
    bottom = character.position[1] - HERO_SIZE[1] / 2
    assert top - 0.5 <= bottom <= top + (2.0 - thickness / 2) + REST + SKIN  # above it by what sticks out


def test_running_up_a_slope_from_the_flat_and_onto_the_flat_above_never_snags(tmp_path):
    """
    . . . / # # # # # # # #    the hero runs right along the ground, up the 45-degree slope tile
    # # # # # # # # # # # #    and along the blocks above; it never stops or leaves the ground.
    """
    level = load(tmp_path, rows("............", "............", ".../########", "############"), w=12)
    world = level.build_world()
    character = world.add_character(RoundedPolygon.box(10, 16, radius=2), (24.0, 60.0))
    controller = PlatformerController(character, PlatformerConfig())
    for _ in range(30):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    xs, grounded = [], []
    for _ in range(60):
        controller.update(PlatformerInput(right=True), DT)
        world.step(DT)
        xs.append(character.position[0])
        grounded.append(character.on_floor)
    assert xs[-1] > 250
    steps = [b - a for a, b in zip(xs[10:], xs[11:])]
    assert min(steps) > 0.5 * PlatformerConfig().run_speed * DT * 0.7  # no snag at either join
    assert all(grounded)
