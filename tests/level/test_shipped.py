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
    # 45-degree slopes both ways, 2:1 slopes (two tiles each way), half block, one-way ...
    # ... and the 47 autotiled full blocks (grass top, open sides, inner corners) and 4 blocks for under the
    # low ends of slopes (the rest of the slope's grass band), each a whole-cell rectangle.
    assert len(kinds) == 8 + 47 + 4
    full = [tid for tid, shapes in tileset.tile_shapes.items() if len(shapes) == 1 and shapes[0].kind == "rectangle"
            and (shapes[0].width, shapes[0].height) == (32, 32)]
    assert len(full) == 47 + 4
    assert sum(1 for k in kinds.values() if k == ["polygon"]) == 6
    assert [tid for tid, p in tileset.tile_properties.items() if p.get("one_way")] == [8]


def test_the_demo_uses_every_convention():
    level = load_level(ROOT / "levels" / "demo.tmx")
    classes = {e.source.cls for e in level.entities} | {o.cls for o in level.tmx.objects}
    from engine.level.level import CLASSES

    assert set(CLASSES) <= classes
    assert level.one_way and level.next_level == "playground.tmx"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_no_slope_tile_hangs_over_empty_space(path):
    """A slope's dirt reaches its cell's bottom, so the cell below must be ground too (the playground's 2:1
    slope at x 800-832 once showed its flat underside over a gap)."""
    from engine.level.tmx import GID_MASK, TileLayer, read_map

    tmx = read_map(path)
    tileset = tmx.tilesets[0]
    sloped = {tileset.firstgid + tid for tid, shapes in tileset.tile_shapes.items()
              if any(shape.kind == "polygon" for shape in shapes)}
    hanging = []
    for layer in tmx.layers:
        if not isinstance(layer, TileLayer):
            continue
        for row, cells in enumerate(layer.cells[:-1]):
            for col, raw in enumerate(cells):
                if raw & GID_MASK in sloped and not layer.cells[row + 1][col]:
                    hanging.append((layer.name, col * 32, row * 32))
    assert not hanging, hanging


def test_the_tileset_has_a_terrain_set_over_the_autotiled_blocks():
    """Tiled's terrain brush paints the same blocks the map maker picks: one wang tile per block, each with
    its own edges and corners (47 distinct ids), the grass-topped block open at the top only."""
    import xml.etree.ElementTree as ET

    root = ET.parse(ROOT / "levels" / "tiles.tsx").getroot()
    wang = {int(t.get("tileid")): t.get("wangid") for t in root.iter("wangtile")}
    assert len(wang) == 47 and len(set(wang.values())) == 47
    assert wang[0] == "0,0,1,1,1,1,1,0" and wang[16] == "1,1,1,1,1,1,1,1"


def test_generated_maps_autotile_by_neighbourhood():
    """A block with air above gets grass; one buried gets none; an open side gets a rim; an inner corner
    (ground above and beside, air on the diagonal) its own block."""
    from game.art import GROUND_VARIANTS
    from game.mapmaker import ground_tile

    grid = ["....",
            ".##.",
            "####",
            "####"]
    assert ground_tile(grid, 1, 1) == GROUND_VARIANTS[(True, False, False, True) + (False,) * 4]
    assert ground_tile(grid, 3, 1) == 16  # buried
    assert ground_tile(grid, 2, 0) == GROUND_VARIANTS[(True, False, False, False, False, False, False, False)]
    inner = ground_tile(grid, 2, 1)
    assert inner == GROUND_VARIANTS[(False, False, False, False, True, False, False, False)]


def test_a_slope_above_a_block_makes_no_inner_corner():
    """A 2:1 slope climbing over a block brings the grass down to the block's corner itself: the block under
    it gets no inner-corner notch (which drew a tuft of grass in the middle of the slope)."""
    from game.mapmaker import ground_tile

    from game.art import SLOPE2_R_LOW, SLOPE_FEET

    grid = ["...ab#",
            ".ab###",
            "######"]
    assert ground_tile(grid, 1, 3) == SLOPE_FEET[SLOPE2_R_LOW]  # (no notch: the slope's own grass band)
    assert ground_tile(grid, 1, 4) == 16


def test_a_slope_s_low_end_hands_its_grass_to_the_block_below():
    """Under the low end of a 45-degree slope or of a 2:1 slope's low half, the buried block is the slope's
    foot: it carries the rest of the slope's grass band, which met the flat ground's band with a notch."""
    from game.art import SLOPE2_L_LOW, SLOPE_L, SLOPE_R, SLOPE_FEET
    from game.mapmaker import ground_tile

    grid = ["./#" + "\\" + ".cd.",
            "########"]
    assert ground_tile(grid, 1, 1) == SLOPE_FEET[SLOPE_R]
    assert ground_tile(grid, 1, 2) == 16  # under a block: buried dirt
    assert ground_tile(grid, 1, 3) == SLOPE_FEET[SLOPE_L]
    assert ground_tile(grid, 1, 5) == 16  # under a 2:1 slope's high half: buried dirt
    assert ground_tile(grid, 1, 6) == SLOPE_FEET[SLOPE2_L_LOW]
