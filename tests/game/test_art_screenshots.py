"""Offscreen screenshots of the shipped levels, checked by regions: the parallax layers are there and move
by their factors when the camera moves, and no seam shows between tiles at fractional camera positions or
zooms. Every PNG is written to ``$LEDGEKIT_SHOTS`` too when that is set, to look at."""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from engine.render import LevelRenderer  # noqa: E402
from game.session import Session  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
W, H = 640, 360
MAGENTA = (255, 0, 255)
"""The clear colour of the seam checks: no tile has it, so any magenta pixel inside the ground is a gap."""


@pytest.fixture(scope="module")
def window():
    win = arcade.Window(W, H, "art", visible=False, antialiasing=False)
    yield win
    win.close()


def shoot(window, renderer, position, name, tmp_path, zoom=1.0, clear=MAGENTA):
    """The renderer's picture with the camera's centre at ``position`` (px, engine frame) and ``zoom``."""
    window.clear(color=(*clear, 255))
    camera = arcade.Camera2D()
    camera.position = position
    camera.zoom = zoom
    camera.use()
    renderer.draw(position)
    path = tmp_path / f"{name}.png"
    arcade.get_image(0, 0, W, H).save(path)
    if os.environ.get("LEDGEKIT_SHOTS"):
        shutil.copy(path, Path(os.environ["LEDGEKIT_SHOTS"]) / path.name)
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


def only(renderer, keep):
    """The renderer drawing nothing but ``keep`` (an image layer's sprites, or "tiles")."""
    renderer.backgrounds = [b for b in renderer.backgrounds if b[0] is keep]
    renderer.layers = renderer.layers if keep == "tiles" else []
    renderer.bodies = arcade.SpriteList()
    return renderer


def test_every_level_has_sky_hills_and_trees_behind_the_ground():
    for path in sorted((ROOT / "levels").glob("*.tmx")):
        layers = [layer for layer in Session.open(path).level.tmx.layers if isinstance(layer, dict)]
        assert [(layer["name"], layer["parallax"][0], layer["repeat"][0]) for layer in layers] == [
            ("sky", 0.0, True), ("hills", 0.25, True), ("trees", 0.5, True)], path.name


def horizontal_shift(before, after, rows, largest=80):
    """How many px the picture in ``rows`` moved right between the two shots (best match of columns)."""
    a, b = before[rows], after[rows]
    errors = {s: np.abs(b[:, largest:W - largest] - a[:, largest - s:W - largest - s]).mean()
              for s in range(-largest, largest + 1)}
    return min(errors, key=errors.get), min(errors.values())


@pytest.mark.parametrize("name, factor", [("hills", 0.25), ("trees", 0.5)])
def test_a_parallax_layer_moves_by_its_factor_when_the_camera_moves(window, tmp_path, name, factor):
    session = Session.open(ROOT / "levels" / "1_hills_and_ledges.tmx")
    renderer = LevelRenderer(session.level, session.world)
    names = [layer["name"] for layer in session.level.tmx.layers if isinstance(layer, dict)]
    layer = renderer.backgrounds[names.index(name)][0]
    only(renderer, layer)
    before = shoot(window, renderer, (800.0, 180.0), f"{name}_a", tmp_path)
    after = shoot(window, renderer, (864.0, 180.0), f"{name}_b", tmp_path)
    drawn = (np.abs(before - MAGENTA).max(axis=-1) > 0).any(axis=1)
    assert drawn.sum() > 100  # the layer covers a good band of the screen
    shift, error = horizontal_shift(before, after, slice(int(np.argmax(drawn)), H))
    assert shift == -round(64 * factor) and error < 1.0  # the camera went 64 px right: the layer 64 * factor left


def test_the_tiles_move_with_the_camera_and_the_sky_stays(window, tmp_path):
    session = Session.open(ROOT / "levels" / "1_hills_and_ledges.tmx")
    renderer = only(LevelRenderer(session.level, session.world), "tiles")
    before = shoot(window, renderer, (800.0, 332.0), "tiles_a", tmp_path)
    after = shoot(window, renderer, (864.0, 332.0), "tiles_b", tmp_path)
    assert horizontal_shift(before, after, slice(200, H))[0] == -64
    sky = LevelRenderer(session.level, session.world)
    sky = only(sky, sky.backgrounds[0][0])
    first, second = (shoot(window, sky, (x, 332.0), f"sky_{x}", tmp_path) for x in (800.0, 864.0))
    assert np.array_equal(first, second) and first[0, 0, 2] > first[0, 0, 0] + 60  # a blue sky, fixed


def seams(picture, widest=3):
    """Clear-colour pixels inside the ground: below the ground surface of their own column (a horizontal
    gap), or below the surfaces of the columns on both sides of them (a vertical gap up to ``widest`` px,
    which leaves its own column empty from top to bottom)."""
    magenta = np.all(np.abs(picture - MAGENTA) <= 40, axis=-1)
    height = magenta.shape[0]
    surface = np.where((~magenta).any(axis=0), np.argmax(~magenta, axis=0), height)  # first ground row per column
    rows = np.arange(height)[:, None]
    inside = rows > surface[None, :]
    for k in range(1, widest + 1):
        left = np.concatenate([np.full(k, height), surface[:-k]])
        right = np.concatenate([surface[k:], np.full(k, height)])
        inside |= rows > np.maximum(left, right)[None, :]
    return int((magenta & inside).sum())


@pytest.mark.parametrize("position, zoom", [
    ((448.0, 180.0), 1.0), ((448.25, 180.5), 1.0), ((448.5, 180.25), 1.0), ((449.75, 180.75), 1.0),
    ((448.33, 180.66), 1.5), ((452.5, 120.5), 2.0), ((560.2, 245.3), 0.75),
])
def test_no_seam_between_tiles_at_fractional_camera_positions_and_zooms(window, tmp_path, position, zoom):
    """The start of level 1 (flat ground, a 2:1 hill up and down: slope joints; no grass tuft, whose blades
    have gaps by design), the tile layer alone over a
    magenta clear: every column must be solid from its ground surface down to the screen's bottom."""
    session = Session.open(ROOT / "levels" / "1_hills_and_ledges.tmx")
    renderer = only(LevelRenderer(session.level, session.world), "tiles")
    picture = shoot(window, renderer, position, f"seams_{position[0]}_{zoom}", tmp_path, zoom=zoom)
    assert (~np.all(picture == MAGENTA, axis=-1)).mean() > 0.15  # the ground is on screen
    assert seams(picture) == 0


def test_the_seam_check_finds_a_one_pixel_gap(window, tmp_path):
    session = Session.open(ROOT / "levels" / "1_hills_and_ledges.tmx")
    renderer = only(LevelRenderer(session.level, session.world), "tiles")
    sprites = renderer.layers[0][0]
    for sprite in sprites:  # every tile 1 px to the left: a column of clear colour at each joint
        sprite.center_x -= 1
        sprite.width = 31
    picture = shoot(window, renderer, (448.0, 180.0), "seams_broken", tmp_path)
    assert seams(picture) > 100


def test_each_teaching_level_has_its_own_backdrop_and_ground_decoration():
    """Level 1 a meadow with flowers, level 2 autumn with mushrooms, level 3 dusk with pebbles: no two share
    a backdrop image or a decoration tile, and each backdrop's colours differ (not the same picture twice)."""
    from game.art import FLOWERS, MUSHROOMS, PEBBLES

    names = ["1_hills_and_ledges", "2_crates", "3_machines"]
    images, decorations, skies = [], [], []
    for name, decoration in zip(names, (FLOWERS, MUSHROOMS, PEBBLES)):
        level = Session.open(ROOT / "levels" / f"{name}.tmx").level
        layers = [layer for layer in level.tmx.layers if isinstance(layer, dict)]
        images.append({layer["image"].name for layer in layers})
        skies.append(np.asarray(Image.open(layers[0]["image"]).convert("RGB"))[::40, 0].astype(int))
        cells = (ROOT / "levels" / f"{name}.tmx").read_text().replace("\n", "")  # (the ground layer's CSV)
        decorations.append({tid for tid in (FLOWERS, MUSHROOMS, PEBBLES) if f",{tid + 1}," in cells})
        assert decoration in decorations[-1], f"{name} has no {decoration}"
    for a in range(3):
        for b in range(a + 1, 3):
            assert not images[a] & images[b]
            assert decorations[a] != decorations[b]
            assert np.abs(skies[a] - skies[b]).mean() > 20
