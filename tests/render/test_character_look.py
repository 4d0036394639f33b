"""A character drawn by the renderer with a CharacterLook: the player's picture changes frame as he runs, holds
its idle frame standing, is mirrored facing left, and stands on his feet (offscreen pictures, arcade.get_image).

The look's tiles are half colour, half white (the colour on the side the picture faces), so one pixel left
and one right of the hero's centre tell both the frame (which colour) and the facing (which side)."""

from __future__ import annotations

import os
import shutil

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
from PIL import Image  # noqa: E402

from engine import PlatformerInput, RoundedPolygon  # noqa: E402
from engine.level.level import load_level  # noqa: E402
from engine.play import Animation, Stage  # noqa: E402
from engine.render import CharacterLook, LevelRenderer  # noqa: E402

SKY = (0, 0, 0, 255)
WHITE = (255, 255, 255)
COLORS = {0: (255, 0, 0), 1: (0, 255, 0), 2: (0, 0, 255), 3: (255, 255, 0)}
"""Tile -> its colour: 0 idle (red), 1 and 2 the run cycle (green, blue), 3 the jump (yellow)."""
HERO = RoundedPolygon.box(10, 16, radius=2)
HERO_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="hero" tilewidth="20" tileheight="36" tilecount="4" columns="4">
 <image source="hero.png" width="80" height="36"/>
 <tile id="0"><properties><property name="pose" value="idle"/></properties></tile>
 <tile id="1"><properties><property name="pose" value="run"/></properties>
  <animation><frame tileid="1" duration="100"/><frame tileid="2" duration="100"/></animation></tile>
 <tile id="3"><properties><property name="pose" value="jump"/></properties></tile>
</tileset>
"""
TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="40" height="8" tilewidth="16" tileheight="16" infinite="0">
 <objectgroup id="1" name="o">
  <object id="1" type="Spawn" x="120" y="94"><point/></object>
  <object id="2" type="Solid" x="0" y="112" width="640" height="16"/>
 </objectgroup>
</map>
"""


def _hero_sheet() -> Image.Image:
    """Four 20 x 36 frames: colour on the left half (the side a right-facing picture's face is on), white on the
    right."""
    sheet = Image.new("RGBA", (80, 36), (0, 0, 0, 0))
    for tile, color in COLORS.items():
        sheet.paste(color + (255,), (tile * 20, 0, tile * 20 + 10, 36))
        sheet.paste(WHITE + (255,), (tile * 20 + 10, 0, tile * 20 + 20, 36))
    return sheet


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("look")
    _hero_sheet().save(path / "hero.png")
    (path / "hero.tsx").write_text(HERO_TSX)
    (path / "m.tmx").write_text(TMX)
    window = arcade.Window(200, 100, "t", visible=False)
    yield path
    window.close()
    shutil.rmtree(path, ignore_errors=True)


def _staged(folder, look: CharacterLook) -> tuple[Stage, LevelRenderer]:
    stage = Stage.from_level(load_level(folder / "m.tmx"), HERO)
    renderer = LevelRenderer(stage.level, stage.world)
    renderer.show_character(stage.player, look, stage.controller)
    return stage, renderer


def _step(stage: Stage, renderer: LevelRenderer, buttons: PlatformerInput, frames: int = 1) -> None:
    for _ in range(frames):
        stage.step(buttons, 1 / 60)
        renderer.sync()
        renderer.animate(1 / 60)


def _picture(renderer: LevelRenderer, at: tuple[float, float]) -> Image.Image:
    """The window's picture with the camera centred on ``at`` (engine frame)."""
    window = arcade.get_window()
    window.clear(color=SKY)
    camera = arcade.Camera2D()
    camera.position = at
    camera.use()
    renderer.draw(at)
    return arcade.get_image(0, 0, *window.get_size()).convert("RGB")


def _sides(renderer: LevelRenderer, stage: Stage) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The colours 5 px left and right of the hero's centre, at his middle (the picture is 200 x 100)."""
    image = _picture(renderer, stage.player.position)
    return image.getpixel((95, 50)), image.getpixel((105, 50))


def test_standing_shows_the_idle_frame_and_running_steps_through_the_run_cycle(folder):
    stage, renderer = _staged(folder, CharacterLook.from_tileset(folder / "hero.tsx"))
    _step(stage, renderer, PlatformerInput(), 30)  # land and settle
    assert stage.player.on_floor
    assert _sides(renderer, stage) == (COLORS[0], WHITE)
    seen = set()
    for _ in range(24):
        _step(stage, renderer, PlatformerInput(right=True), 2)
        seen.add(_sides(renderer, stage)[0])
    assert stage.player.velocity[0] > 50
    assert {COLORS[1], COLORS[2]} <= seen and COLORS[0] not in seen  # both run frames, never the idle one


def test_facing_left_mirrors_the_picture(folder):
    stage, renderer = _staged(folder, CharacterLook.from_tileset(folder / "hero.tsx"))
    _step(stage, renderer, PlatformerInput(), 30)
    _step(stage, renderer, PlatformerInput(left=True), 20)
    _step(stage, renderer, PlatformerInput(), 40)  # stopped, still facing left
    assert abs(stage.player.velocity[0]) < 1.0 and stage.controller.facing < 0
    assert _sides(renderer, stage) == (WHITE, COLORS[0])


def test_in_the_air_it_shows_the_jump_pose_and_a_fall_falls_back_to_it(folder):
    stage, renderer = _staged(folder, CharacterLook.from_tileset(folder / "hero.tsx"))
    _step(stage, renderer, PlatformerInput(), 30)
    _step(stage, renderer, PlatformerInput(jump=True), 6)
    assert not stage.player.on_floor
    assert _sides(renderer, stage)[0] == COLORS[3]


def test_the_picture_stands_on_the_characters_feet(folder):
    """The picture's bottom row is the floor's drawn edge: the shape's bottom (16 px below the centre: the 20 x 32
    box) less the mover's skin (0.5 px: collision lies on the drawn edge, and a standing character keeps the
    skin above it); its top is 36 px above that, and nothing of it shows below the feet."""
    stage, renderer = _staged(folder, CharacterLook.from_tileset(folder / "hero.tsx"))
    _step(stage, renderer, PlatformerInput(), 30)
    x, y = stage.player.position
    skin = stage.player.config.skin
    assert (x, y - skin) == (round(x), round(y - skin))  # (whole pixels: the rows below are exact)
    image = _picture(renderer, (x, y - skin))
    assert y - 16 - skin == 16  # (the Solid's top edge: 112 px down a 128 px map)
    # The view's centre (16 px above the feet) is the boundary of rows 49 and 50 (100 px high, y down): the
    # feet are at the one of 65 / 66.
    column = [image.getpixel((95, row)) for row in range(100)]
    assert [row for row, color in enumerate(column) if color == COLORS[0]] == list(range(30, 66))


def test_a_sprite_sheet_look_draws_as_the_tileset_one(folder):
    look = CharacterLook.from_sheet(_hero_sheet(), (20, 36), {"idle": Animation((0,)), "run": Animation((1, 2))})
    stage, renderer = _staged(folder, look)
    _step(stage, renderer, PlatformerInput(), 30)
    assert _sides(renderer, stage) == (COLORS[0], WHITE)
    _step(stage, renderer, PlatformerInput(left=True), 20)
    assert _sides(renderer, stage)[1] in (COLORS[1], COLORS[2])


def test_a_character_taken_out_of_the_world_is_no_longer_drawn(folder):
    stage, renderer = _staged(folder, CharacterLook.from_tileset(folder / "hero.tsx"))
    _step(stage, renderer, PlatformerInput(), 30)
    at = stage.player.position
    stage.world.remove(stage.player)
    renderer.sync()
    assert len(renderer.characters) == 0
    assert _picture(renderer, at).getpixel((95, 50)) == SKY[:3]


def test_bad_looks_say_what_is_wrong(folder, tmp_path):
    with pytest.raises(ValueError, match=r"'run' animation names frames that are not in the look: \[7\]"):
        CharacterLook.from_sheet(_hero_sheet(), (20, 36), {"idle": Animation((0,)), "run": Animation((1, 7))})
    with pytest.raises(ValueError, match="does not fit the sheet"):
        CharacterLook.from_sheet(_hero_sheet(), (100, 36), {"idle": Animation((0,))})
    plain = tmp_path / "plain.tsx"
    plain.write_text(HERO_TSX.replace('name="pose"', 'name="kind"'))
    shutil.copy(folder / "hero.png", tmp_path / "hero.png")
    with pytest.raises(ValueError, match=r"plain.tsx: no tile has a 'pose' property"):
        CharacterLook.from_tileset(plain)


def test_without_a_controller_it_faces_where_it_moves(folder):
    """Any character (an enemy of the game's own, say) may be shown without a controller: it faces the way its
    velocity points, and keeps facing it when it stops."""
    stage = Stage.from_level(load_level(folder / "m.tmx"), HERO)
    renderer = LevelRenderer(stage.level, stage.world)
    renderer.show_character(stage.player, CharacterLook.from_tileset(folder / "hero.tsx"))  # (no controller)
    _step(stage, renderer, PlatformerInput(), 30)
    assert _sides(renderer, stage) == (COLORS[0], WHITE)
    _step(stage, renderer, PlatformerInput(left=True), 20)
    _step(stage, renderer, PlatformerInput(), 40)
    assert abs(stage.player.velocity[0]) < 1.0
    assert _sides(renderer, stage) == (WHITE, COLORS[0])


def test_only_a_character_of_the_renderers_world_can_be_shown(folder):
    from engine import Character

    _, renderer = _staged(folder, CharacterLook.from_tileset(folder / "hero.tsx"))
    stranger = Character(HERO, (0.0, 0.0))
    with pytest.raises(ValueError, match="not in the renderer's world"):
        renderer.show_character(stranger, CharacterLook.from_tileset(folder / "hero.tsx"))
