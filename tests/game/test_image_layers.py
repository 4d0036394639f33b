"""Image layers drawn as one textured quad each (engine.render): the same picture as their copies' sprites,
the rows hidden behind the opaque bands of the layers in front left out, and ``LevelRenderer.fills``
telling when the picture needs no clear (headless)."""

import os
import shutil

import numpy as np
import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
from PIL import Image  # noqa: E402

from engine.level.level import load_level  # noqa: E402
from engine.render import LevelRenderer  # noqa: E402

W, H = 320, 180
MAGENTA = (255, 0, 255, 255)

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="20" height="8" tilewidth="32" tileheight="32" infinite="0">
 <imagelayer id="1" name="sky" offsety="-100" parallaxx="0.0" parallaxy="1" repeatx="1">
  <image source="sky.png" width="16" height="400"/></imagelayer>
 <imagelayer id="2" name="hills" offsety="90" parallaxx="0.25" parallaxy="1" repeatx="1">
  <image source="cut.png" width="40" height="60"/></imagelayer>
 <imagelayer id="3" name="lifted" offsetx="7" offsety="120" parallaxx="0.5" parallaxy="0.5" repeatx="1">
  <image source="cut.png" width="40" height="60"/></imagelayer>
 <imagelayer id="4" name="glass" offsety="40" parallaxx="0.75" parallaxy="1" repeatx="1">
  <image source="glass.png" width="24" height="20"/></imagelayer>
 <imagelayer id="5" name="once" offsetx="150" offsety="60" parallaxx="0.5" parallaxy="1">
  <image source="once.png" width="30" height="20"/></imagelayer>
 <objectgroup id="6" name="o"><object id="1" class="Spawn" x="10" y="10"><point/></object></objectgroup>
</map>
"""
VIEWS = [(160.0, 90.0), (333.0, 128.0), (480.0, 166.0), (250.0, 40.0), (310.0, 300.0)]
"""Camera centres (px, engine frame): across the map, and one whose view reaches above the sky."""


def _images(folder):
    rng = np.random.default_rng(7)
    sky = rng.integers(0, 256, (400, 16, 4), dtype=np.uint8)
    sky[..., 3] = 255  # opaque, every pixel different: a misplaced texel shows
    cut = rng.integers(0, 256, (60, 40, 4), dtype=np.uint8)
    cut[..., 3] = np.where(rng.random((60, 40)) < 0.5, 0, 255)
    cut[:8, :, 3] = 0  # transparent top rows, left out of the quad
    cut[40:52, :, 3] = 255  # an opaque band across: what it hides behind it is left out
    glass = rng.integers(0, 256, (20, 24, 4), dtype=np.uint8)
    glass[..., 3] = rng.choice([0, 90, 255], (20, 24))  # translucent pixels: blended
    once = rng.integers(0, 256, (20, 30, 4), dtype=np.uint8)
    once[..., 3] = np.where(rng.random((20, 30)) < 0.3, 0, 255)
    for name, pixels in (("sky", sky), ("cut", cut), ("glass", glass), ("once", once)):
        Image.fromarray(pixels).save(folder / f"{name}.png")


@pytest.fixture(scope="module")
def level(tmp_path_factory):
    folder = tmp_path_factory.mktemp("image_layers")
    _images(folder)
    (folder / "m.tmx").write_text(TMX)
    window = arcade.Window(W, H, "image layers", visible=False, antialiasing=False)
    yield window, load_level(folder / "m.tmx")
    window.close()
    shutil.rmtree(folder, ignore_errors=True)


def shoot(window, renderer, position, clear=True):
    if clear:
        window.clear(color=MAGENTA)
    camera = arcade.Camera2D()
    camera.position = position
    camera.use()
    renderer.draw(position)
    return np.asarray(arcade.get_image(0, 0, W, H).convert("RGBA"))


def test_image_layers_as_quads_draw_the_picture_of_their_sprites(level):
    window, lvl = level
    quads = LevelRenderer(lvl, lvl.build_world())
    sprites = LevelRenderer(lvl, lvl.build_world())
    sprites._image_quads.clear()  # every image layer falls back to drawing its sprites
    for position in VIEWS:
        expected = shoot(window, sprites, position)
        assert (expected[..., :3] != MAGENTA[:3]).any(axis=-1).mean() > 0.2  # the layers are on screen
        assert np.array_equal(shoot(window, quads, position), expected), position


def test_rows_hidden_behind_an_opaque_band_in_front_are_left_out(level):
    window, lvl = level
    renderer = LevelRenderer(lvl, lvl.build_world())
    shoot(window, renderer, (160.0, 90.0))
    sky, hills = (renderer._image_quads[sprites] for sprites, _ in renderer.backgrounds[:2])
    # cut.png's band (its rows 40..51 from the top) on the hills layer: world y 256 - 90 - 52 .. 256 - 90 - 40.
    assert hills.opaque_band == (114.0, 126.0)
    assert all(not (bottom < 126.0 and top > 114.0) for bottom, top in sky.drawn_spans)  # the sky skips it
    assert len(sky.drawn_spans) >= 2
    # The hills' own transparent top rows (0..7) are not drawn: its quad ends at row 8.
    assert max(top for _, top in hills.drawn_spans) == 256 - 90 - 8


def test_fills_when_an_opaque_sky_covers_the_view_and_the_picture_needs_no_clear(level):
    window, lvl = level
    renderer = LevelRenderer(lvl, lvl.build_world())
    # The sky spans world y -144 .. 256 (offset -100 from the top, 400 px tall).
    assert renderer.fills((160.0, 90.0), (W, H))
    assert not renderer.fills((310.0, 300.0), (W, H))  # the view's top (390) is above the sky's
    assert not renderer.fills((160.0, -60.0), (W, H))  # its bottom below
    window.clear(color=MAGENTA)
    uncleared = shoot(window, renderer, (333.0, 128.0), clear=False)
    assert np.array_equal(uncleared, shoot(window, renderer, (333.0, 128.0)))
    assert not (uncleared[..., :3] == MAGENTA[:3]).all(axis=-1).any()


def test_a_level_without_an_opaque_repeating_layer_never_fills(level, tmp_path):
    _, lvl = level
    for image in lvl.path.parent.glob("*.png"):
        shutil.copy(image, tmp_path / image.name)
    (tmp_path / "m.tmx").write_text(TMX.replace('repeatx="1"', 'repeatx="0"'))
    bare = load_level(tmp_path / "m.tmx")
    renderer = LevelRenderer(bare, bare.build_world())
    assert not renderer.fills((160.0, 90.0), (W, H))  # one sky image, 16 px wide, covers no view
