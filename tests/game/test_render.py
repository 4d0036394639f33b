"""The rendering adapter: flips, animated tiles, parallax, bodies at their angle (headless)."""

import math
import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
from PIL import Image  # noqa: E402

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
    sprite = next(s for s, b in renderer._body_sprites if b is crate)
    assert sprite.center_x == pytest.approx(85.0) and sprite.angle == pytest.approx(-15.0)


def test_parallax_layers_move_slower_than_the_camera(scene):
    _, _, renderer = scene
    sprite, factor = renderer.backgrounds[0]
    assert factor == (0.5, 1.0)
    x = sprite.center_x
    renderer.draw((100.0, 0.0))  # drawing with the camera 100 px right shifts it 50 px, then restores it
    assert sprite.center_x == x
