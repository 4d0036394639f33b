"""Every shipped level loads, validates cleanly and can be stood in; the art and tileset they use exist."""

from pathlib import Path

import pytest

from engine.geometry import RoundedPolygon
from engine.level.level import check_level, load_level
from engine.platformer import PlatformerController, PlatformerInput

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "levels").glob("*.tmx"))


def test_the_demo_and_the_playground_are_shipped():
    assert {p.name for p in SHIPPED} >= {"demo.tmx", "playground.tmx"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_level_validates_cleanly(path):
    assert check_level(path) == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_the_hero_lands_on_solid_ground_from_the_spawn(path):
    level = load_level(path)
    world = level.build_world()
    hero = world.add_character(RoundedPolygon.box(10, 16, radius=2), level.spawn)
    controller = PlatformerController(hero)
    for _ in range(120):
        controller.update(PlatformerInput(), 1 / 60)
        world.step(1 / 60)
    assert hero.on_floor and hero.position[1] > 0


def test_the_tileset_has_the_promised_collision_shapes():
    from engine.level.tmx import read_map

    tileset = read_map(ROOT / "levels" / "demo.tmx").tilesets[0]
    assert tileset.image is not None and tileset.image.exists()
    kinds = {tid: [s.kind for s in shapes] for tid, shapes in tileset.tile_shapes.items()}
    # Full block, 45-degree slopes both ways, 2:1 slopes (two tiles each way), half block, one-way.
    assert len(kinds) == 10  # ... plus a grassless inner block
    assert sum(1 for k in kinds.values() if k == ["polygon"]) == 6
    assert [tid for tid, p in tileset.tile_properties.items() if p.get("one_way")] == [8]


def test_the_demo_uses_every_convention():
    level = load_level(ROOT / "levels" / "demo.tmx")
    classes = {e.source.cls for e in level.entities} | {o.cls for o in level.tmx.objects}
    from engine.level.level import CLASSES

    assert set(CLASSES) <= classes
    assert level.one_way and level.next_level == "playground.tmx"
