"""The renderer follows the world: things added to it after the renderer was made are drawn, things taken out
vanish; Solid and OneWay objects without a tile are drawn plainly, never invisible (offscreen pictures)."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from engine import RigidBody, RoundedPolygon, Sensor  # noqa: E402
from engine.level.level import load_level  # noqa: E402
from engine.render import PLAIN_ONE_WAY, PLAIN_SOLID, LevelRenderer  # noqa: E402
from engine.world import KinematicBody  # noqa: E402

from .make_references import FIXTURES, PALETTE  # noqa: E402

SKY = (20, 20, 20, 255)
TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="t" tilewidth="16" tileheight="16" tilecount="8" columns="4">
 <image source="plain.png" width="64" height="32"/>
 <tile id="1" type="Crate"/>
 <tile id="2" type="Pickup"><animation><frame tileid="2" duration="100"/><frame tileid="3" duration="100"/>\
</animation></tile>
</tileset>
"""
TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="12" height="8" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" source="t.tsx"/>
 <objectgroup id="1" name="o">
  <object id="1" type="Spawn" x="8" y="8"><point/></object>
  <object id="2" type="Solid" x="16" y="96" width="48" height="16"/>
  <object id="3" type="OneWay" x="96" y="100" width="48" height="8"/>
  <object id="4" type="Solid" x="150" y="40"><polygon points="0,0 30,0 30,30"/></object>
 </objectgroup>
</map>
"""


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    folder = tmp_path_factory.mktemp("follow")
    shutil.copy(FIXTURES / "plain.png", folder / "plain.png")
    (folder / "t.tsx").write_text(TSX)
    (folder / "m.tmx").write_text(TMX)
    window = arcade.Window(192, 128, "follow", visible=False, antialiasing=False)
    level = load_level(folder / "m.tmx")
    yield window, level
    window.close()


def picture(window, renderer) -> np.ndarray:
    """The whole map (RGB, rows from the top; the map is the window's size)."""
    renderer.sync()
    window.clear(color=SKY)
    camera = arcade.Camera2D()
    camera.position = (window.width / 2, window.height / 2)
    camera.use()
    renderer.draw(camera.position)
    return np.asarray(arcade.get_image(0, 0, window.width, window.height).convert("RGB")).astype(int)


def colour_at(shot: np.ndarray, x: float, y: float) -> tuple[int, ...]:
    """The colour at engine-frame point (x, y) (y up from the map's bottom)."""
    return tuple(shot[shot.shape[0] - 1 - int(y), int(x)].tolist())


def crate_like(colour: tuple[int, ...]) -> bool:
    """Tile 1's body colour (the Crate class's tile) within a few levels."""
    return bool(np.abs(np.array(colour) - np.array(PALETTE[1])).max() <= 4)


def test_a_crate_added_after_the_renderer_was_made_is_drawn_and_vanishes_when_removed(scene):
    window, level = scene
    world = level.build_world()
    renderer = LevelRenderer(level, world)
    crate_object = next(obj for obj in level.objects if obj.cls == "Solid")  # any level object, given the look below
    look = type(crate_object)(id=1000, name="", cls="Crate", position=(100.0, 60.0))
    crate = world.add_body(RigidBody(RoundedPolygon.box(12.0, 12.0), (100.0, 60.0), user_data=look))
    assert crate_like(colour_at(picture(window, renderer), 104, 58))
    world.remove(crate)
    assert colour_at(picture(window, renderer), 104, 58) == SKY[:3]


def test_a_platform_and_a_sensor_added_later_are_drawn_and_vanish_when_removed(scene):
    window, level = scene
    world = level.build_world()
    renderer = LevelRenderer(level, world)
    platform = world.add_kinematic(KinematicBody(RoundedPolygon.box(16.0, 6.0), (60.0, 60.0)))
    coin_look = type(level.objects[0])(id=1001, name="", cls="Pickup", position=(150.0, 100.0))
    coin = world.add_sensor(Sensor(RoundedPolygon.circle(8.0), (150.0, 100.0), user_data=coin_look))
    shot = picture(window, renderer)
    assert colour_at(shot, 60, 60) == (160, 110, 60)  # a platform without a tile: the plain box colour
    assert np.abs(np.array(colour_at(shot, 152, 98)) - np.array(PALETTE[2])).max() <= 4
    world.remove(platform)
    world.remove(coin)
    shot = picture(window, renderer)
    assert colour_at(shot, 60, 60) == SKY[:3] and colour_at(shot, 152, 98) == SKY[:3]


def test_solid_and_one_way_objects_without_a_tile_are_drawn_plainly(scene):
    window, level = scene
    shot = picture(window, LevelRenderer(level, level.build_world()))
    map_h = level.height
    assert colour_at(shot, 40, map_h - 104) == PLAIN_SOLID[:3]  # the rectangle's inside
    assert colour_at(shot, 120, map_h - 101) == PLAIN_ONE_WAY[:3]  # the one-way's top line
    assert colour_at(shot, 120, map_h - 106) == SKY[:3]  # (only its top: it is passed through from below)
    assert colour_at(shot, 175, map_h - 45) == PLAIN_SOLID[:3]  # inside the triangle


def test_a_removed_thing_s_animation_stops_with_it(scene):
    """A coin's tile is animated; once the coin is taken out of the world the renderer lets go of it (a game
    that adds and removes things all the time must not pile up animations of things long gone)."""
    _, level = scene
    world = level.build_world()
    renderer = LevelRenderer(level, world)
    look = type(level.objects[0])(id=1002, name="", cls="Pickup", position=(150.0, 100.0))
    coin = world.add_sensor(Sensor(RoundedPolygon.circle(8.0), (150.0, 100.0), user_data=look))
    renderer.sync()
    sprite = renderer.sprite_of(coin)
    shown = sprite.texture
    renderer.animate(0.15)
    assert sprite.texture is not shown  # animated while in the world
    world.remove(coin)
    renderer.sync()
    left = sprite.texture
    renderer.animate(0.1)
    assert sprite.texture is left and renderer.sprite_of(coin) is None
