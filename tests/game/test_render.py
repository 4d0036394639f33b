"""The rendering adapter: flips, animated tiles, parallax, bodies at their angle (headless)."""

import dataclasses
import gc
import math
import os
import shutil
import weakref
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
from PIL import Image  # noqa: E402

from engine import RoundedPolygon, Sensor  # noqa: E402
from engine.level.level import load_level  # noqa: E402
from engine.render import LevelRenderer  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "level" / "fixtures"

TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="anim" tilewidth="32" tileheight="32" tilecount="4" columns="4">
 <image source="tiles.png" width="128" height="32"/>
 <tile id="0"><objectgroup><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>
 <tile id="2"><animation><frame tileid="2" duration="100"/><frame tileid="3" duration="100"/></animation></tile>
</tileset>
"""

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="2" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" source="anim.tsx"/>
 <imagelayer id="3" name="far" parallaxx="0.5" parallaxy="1"><image source="tiles.png" width="128" height="32"/></imagelayer>
 <layer id="1" name="ground" width="4" height="2"><data encoding="csv">
3,0,0,2147483650,
1,1,1,1
</data></layer>
 <objectgroup id="2" name="o">
  <object id="1" class="Spawn" x="10" y="10"><point/></object>
  <object id="2" class="Crate" x="64" y="0" width="32" height="32"/>
 </objectgroup>
</map>
"""


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    folder = tmp_path_factory.mktemp("render")
    img = Image.new("RGBA", (128, 32))
    for k, color in enumerate([(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]):
        img.paste(color + (255,), (k * 32, 0, k * 32 + 32, 32))
    img.paste((0, 0, 0, 255), (32, 0, 40, 32))  # tile 1 has a black stripe on its left edge
    img.save(folder / "tiles.png")
    (folder / "anim.tsx").write_text(TSX)
    (folder / "m.tmx").write_text(TMX)
    window = arcade.Window(200, 100, "t", visible=False)
    level = load_level(folder / "m.tmx")
    world = level.build_world()
    yield level, world, LevelRenderer(level, world)
    window.close()
    shutil.rmtree(folder, ignore_errors=True)


def test_making_a_renderer_leaves_the_garbage_collector_as_it_found_it(scene):
    """The renderer holds Python's collector off while it makes a map's sprites: afterwards it runs again (or
    stays off, when the game had turned it off), and a reference cycle made later is still collected."""
    level, world, _ = scene
    assert gc.isenabled()
    LevelRenderer(level, world)
    assert gc.isenabled()
    gc.disable()
    try:
        LevelRenderer(level, world)
        assert not gc.isenabled()
    finally:
        gc.enable()

    class Node:
        pass

    cycle = Node()
    cycle.me = cycle
    alive = weakref.ref(cycle)
    del cycle
    gc.collect()
    assert alive() is None


def test_a_horizontally_flipped_tile_is_mirrored(scene):
    _, _, renderer = scene
    plain = renderer.texture(2).image.convert("RGB")
    flipped = renderer.texture(2 | (1 << 31)).image.convert("RGB")
    assert plain.getpixel((2, 10)) == (0, 0, 0) and plain.getpixel((30, 10)) == (0, 255, 0)
    assert flipped.getpixel((30, 10)) == (0, 0, 0) and flipped.getpixel((2, 10)) == (0, 255, 0)


def test_animated_tiles_change_frame_with_time(scene):
    _, _, renderer = scene
    sprite = renderer._animated[0][0]
    renderer.animate(0.05)
    first = sprite.texture
    renderer.animate(0.1)
    assert sprite.texture is not first
    assert sprite.texture.image.convert("RGB").getpixel((16, 16)) == (255, 255, 0)


def test_crates_are_drawn_at_their_angle_and_interpolated(scene):
    _, world, renderer = scene
    crate = world.bodies[0]
    crate.previous_transform = type(crate.previous_transform)((80.0, 48.0), 0.0)
    crate.position, crate.angle = (90.0, 48.0), math.radians(30)
    renderer.sync(0.5)
    sprite = renderer.sprite_of(crate)
    assert sprite.center_x == pytest.approx(85.0) and sprite.angle == pytest.approx(-15.0)


def test_parallax_layers_move_slower_than_the_camera(scene):
    """The far layer (factor 0.5: red, a black stripe at x 32-40, green) seen through the top row's empty cell
    (world x 32-64): with the camera 40 px further right it has moved 20 px, half as far as the tiles."""
    _, _, renderer = scene
    assert renderer.backgrounds[0][1] == (0.5, 1.0)

    def colour_at(camera_x: float, world_x: float) -> tuple[int, int, int]:
        window = arcade.get_window()
        window.clear()
        camera = arcade.Camera2D(position=(camera_x, 50.0))
        with camera.activate():
            renderer.draw((camera_x, 50.0))
        picture = arcade.get_image(0, 0, window.width, window.height).convert("RGB")
        return picture.getpixel((round(world_x - camera_x + window.width / 2), window.height - 48))

    black, green, red = (0, 0, 0), (0, 255, 0), (255, 0, 0)
    assert [colour_at(0.0, x) for x in (36.0, 54.0)] == [black, green]  # the layer's x 36 and 54
    assert [colour_at(40.0, x) for x in (36.0, 54.0)] == [red, black]  # its x 16 and 34 are there now


CLASS_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="looks" tilewidth="32" tileheight="32" tilecount="4" columns="4">
 <image source="tiles.png" width="128" height="32"/>
 <tile id="1" type="Hazard"/>
 <tile id="2" type="Crate"/>
 <tile id="3" type="Walker"/>
</tileset>
"""

CLASS_TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="8" height="4" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="5" source="looks.tsx"/>
 <objectgroup id="2" name="o">
  <object id="1" class="Spawn" x="10" y="10"><point/></object>
  <object id="2" class="Solid" x="0" y="96" width="256" height="32"/>
  <object id="3" class="Crate" x="64" y="0" width="32" height="32"/>
  <object id="4" class="Hazard" x="128" y="64" width="32" height="32"/>
  <object id="5" class="Walker" x="200" y="90"><point/></object>
 </objectgroup>
</map>
"""


def test_things_are_drawn_with_the_tile_of_their_class_in_any_tileset(tmp_path):
    """No fixed tile indices: a tileset whose Crate tile is its third tile (gid 7 here) draws crates with it;
    hazards and a factory-made enemy are drawn from their class's tile too."""
    from engine.play import standard_factories

    img = Image.new("RGBA", (128, 32))
    for k, color in enumerate([(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]):
        img.paste(color + (255,), (k * 32, 0, k * 32 + 32, 32))
    img.save(tmp_path / "tiles.png")
    (tmp_path / "looks.tsx").write_text(CLASS_TSX)
    (tmp_path / "m.tmx").write_text(CLASS_TMX)
    window = arcade.Window(200, 100, "t", visible=False)
    try:
        level = load_level(tmp_path / "m.tmx")
        world = level.build_world(factories=standard_factories())
        renderer = LevelRenderer(level, world)
        walker = level.built[0][1]

        def color_of(thing):
            sprite = renderer.sprite_of(thing)
            assert sprite is not None, thing
            return sprite.texture.image.convert("RGB").getpixel((16, 16))

        assert color_of(world.bodies[0]) == (0, 0, 255)  # the Crate tile (local id 2)
        assert color_of(next(s for s in world.sensors if s.tag == "hazard")) == (0, 255, 0)
        assert color_of(walker.character) == (255, 255, 0)
        assert renderer.sprite_of(world.characters[0]) is not None and len(world.characters) == 1
    finally:
        window.close()


def test_an_enemy_walks_through_its_animation_frames_by_pose():
    """The demo's walker is animated through engine.play's Animator: walking, its sprite steps through the
    walker tile's animation frames and faces where it walks."""
    from game.session import Session

    window = arcade.Window(200, 100, "t", visible=False)
    try:
        session = Session.open(Path(__file__).resolve().parents[2] / "levels" / "demo.tmx")
        renderer = LevelRenderer(session.level, session.world)
        walker = next(ch for ch in session.world.characters if ch is not session.hero)
        sprite = renderer.sprite_of(walker)
        seen = set()
        for _ in range(60):
            session.step(())
            renderer.sync()
            renderer.animate(1 / 60)
            seen.add(sprite.texture.image.tobytes())
        assert abs(walker.velocity[0]) > 1.0 and len(seen) >= 2
    finally:
        window.close()


SLOPE_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="slope" tilewidth="32" tileheight="32" tilecount="1" columns="1">
 <image source="slope.png" width="32" height="32"/>
</tileset>
"""

SLOPE_TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="2" height="1" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" source="slope.tsx"/>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,1</data></layer>
 <objectgroup id="2" name="o"><object id="1" class="Spawn" x="10" y="10"><point/></object></objectgroup>
</map>
"""


def test_a_tile_with_transparent_edges_fills_its_whole_cell(tmp_path):
    """A slope tile's first column is empty: the tile must still cover its cell exactly (arcade's left /
    bottom are the hit box's, which skips transparent columns, so placing by them shifted the tile 1 px and
    left a 1 px seam of sky at every slope's joint)."""
    slope = Image.new("RGBA", (32, 32))
    for x in range(32):
        for y in range(32):
            if x + y >= 32:  # a 45-degree slope rising right: column 0 is empty, column 31 is full
                slope.putpixel((x, y), (200, 0, 0, 255))
    slope.save(tmp_path / "slope.png")
    (tmp_path / "slope.tsx").write_text(SLOPE_TSX)
    (tmp_path / "m.tmx").write_text(SLOPE_TMX)
    window = arcade.Window(64, 32, "t", visible=False)
    try:
        level = load_level(tmp_path / "m.tmx")
        renderer = LevelRenderer(level, level.build_world())
        window.clear(color=(0, 0, 255, 255))
        window.default_camera.use()
        renderer.draw()
        shot = arcade.get_image(0, 0, 64, 32).convert("RGB")
    finally:
        window.close()
    assert shot.getpixel((31, 16)) == (200, 0, 0)  # the first tile's last column, below its slope line
    assert shot.getpixel((32, 16)) == (0, 0, 255)  # the second tile's empty first column
    assert shot.getpixel((63, 16)) == (200, 0, 0)


REPEAT_TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="40" height="4" tilewidth="32" tileheight="32" infinite="0">
 <tileset firstgid="1" source="anim.tsx"/>
 <imagelayer id="3" name="hills" offsetx="10" offsety="20" parallaxx="0.25" repeatx="1">
  <image source="tiles.png" width="128" height="32"/></imagelayer>
 <imagelayer id="4" name="once" parallaxx="0.5"><image source="tiles.png" width="128" height="32"/></imagelayer>
 <imagelayer id="5" name="hidden" visible="0" repeatx="1"><image source="tiles.png" width="128" height="32"/></imagelayer>
 <objectgroup id="2" name="o"><object id="1" class="Spawn" x="10" y="10"><point/></object></objectgroup>
</map>
"""


def test_a_repeating_image_layer_covers_the_map_and_beyond_a_hidden_one_is_not_drawn(scene, tmp_path):
    from engine.render import REPEAT_MARGIN

    level, _, _ = scene
    folder = level.path.parent
    (folder / "repeat.tmx").write_text(REPEAT_TMX)
    repeat_level = load_level(folder / "repeat.tmx")
    layers = [layer for layer in repeat_level.tmx.layers if isinstance(layer, dict)]
    assert [layer["repeat"] for layer in layers] == [(True, False), (False, False), (True, False)]
    renderer = LevelRenderer(repeat_level, repeat_level.build_world())
    assert len(renderer.backgrounds) == 2  # the hidden layer is left out
    (hills, factor), (once, _) = renderer.backgrounds
    assert factor == (0.25, 1.0) and len(once) == 1
    lefts = sorted(sprite.center_x - 64 for sprite in hills)
    assert all(b - a == 128 for a, b in zip(lefts, lefts[1:]))  # side by side, no gap, no overlap
    assert (lefts[0] - 10) % 128 == 0  # on the layer's offset's grid
    assert lefts[0] <= -REPEAT_MARGIN and lefts[-1] + 128 >= repeat_level.width + REPEAT_MARGIN
    assert all(sprite.center_y == repeat_level.height - 20 - 16 for sprite in hills)  # offset y: down from the top


def test_sprites_follow_what_game_code_does_to_sensors_and_bodies_between_syncs(scene):
    """The renderer leaves a thing's sprites alone while its pose is unchanged; a sensor that game code moves,
    disables or enables and a crate it puts somewhere else must still show that at the next sync."""
    level, world, renderer = scene

    crate = world.bodies[0]
    crate_sprite = renderer.sprite_of(crate)
    renderer.sync()
    crate.position, crate.angle = (120.0, 40.0), 0.0
    crate.previous_transform = type(crate.previous_transform)((120.0, 40.0), 0.0)
    renderer.sync()
    assert (crate_sprite.center_x, crate_sprite.center_y) == pytest.approx((120.0, 40.0))

    look = dataclasses.replace(level.objects[-1], tile=2)  # (the crate's object, shown by the green tile)
    coin = world.add_sensor(Sensor(RoundedPolygon.box(8.0, 8.0), (50.0, 60.0), user_data=look))
    made = LevelRenderer(level, world)
    sprite = made.sprite_of(coin)
    assert sprite is not None and sprite.visible and sprite.center_x == pytest.approx(50.0)
    coin.position = (70.0, 60.0)
    made.sync()
    assert sprite.center_x == pytest.approx(70.0)
    coin.enabled = False
    made.sync()
    assert not sprite.visible
    coin.enabled = True
    made.sync()
    assert sprite.visible
    world.remove(coin)
    made.sync()
    assert not sprite.visible
