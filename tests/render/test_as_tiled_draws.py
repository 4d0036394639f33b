"""Ledgekit draws each fixture map as Tiled draws it: the renderer's offscreen picture of every map in
``fixtures/`` against ``references/``, made by Tiled's own ``tmxrasterizer`` (``make_references.py``).

Both pictures are laid over the same opaque colour (Tiled's keeps transparency, the window's cannot), then
compared pixel by pixel: a pixel differs when a channel differs by more than :data:`TOLERANCE` levels (the two
round translucent blends differently by a level or two); at most :data:`MOST_DIFFERING` of the map's pixels may
differ (rotated tiles' edge pixels are sampled a little differently)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
from PIL import Image  # noqa: E402

from engine.level.level import load_level  # noqa: E402
from engine.render import LevelRenderer  # noqa: E402

from .make_references import (  # noqa: E402
    ANIMATION_MS, FIXTURES, REFERENCES, SHIPPED, SHIPPED_REFERENCES, rasterize_tile_layers, shipped_digest,
)

BACKGROUND = (30, 200, 90, 255)
TOLERANCE = 4
MOST_DIFFERING = 0.01
NAMES = sorted(path.stem for path in FIXTURES.glob("*.tmx"))
RECORDED = json.loads((SHIPPED_REFERENCES / "sources.json").read_text())
"""The shipped levels Tiled's pictures were made of, each with the digest of what it was made from."""


@pytest.fixture(scope="module")
def window():
    made = arcade.Window(640, 360, "as Tiled draws", visible=False, antialiasing=False)
    yield made
    made.close()


def ledgekit_picture(window: arcade.Window, map_path: Path, advance_s: float = 0.0) -> np.ndarray:
    """The renderer's picture of a whole map (RGB, rows from the map's top), drawn over BACKGROUND."""
    level = load_level(map_path)
    renderer = LevelRenderer(level, level.build_world())
    if advance_s:
        renderer.animate(advance_s)
    window.clear(color=BACKGROUND)
    camera = arcade.Camera2D()
    camera.position = (window.width / 2, window.height / 2)  # the map's bottom-left at the window's
    camera.use()
    renderer.draw(camera.position)
    width, height = int(level.width), int(level.height)
    return np.asarray(arcade.get_image(0, 0, width, height).convert("RGB"))


def tiled_picture(name: str, size: tuple[int, int]) -> np.ndarray:
    """Tiled's picture of the map's rectangle (RGB), over BACKGROUND."""
    reference = Image.open(REFERENCES / f"{name}.png").convert("RGBA").crop((0, 0, *size))
    laid = Image.new("RGBA", size, BACKGROUND)
    laid.alpha_composite(reference)
    return np.asarray(laid.convert("RGB"))


def test_every_fixture_has_tiled_s_picture():
    assert NAMES and all((REFERENCES / f"{name}.png").exists() for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_renderer_draws_the_map_as_tiled_does(window, name, tmp_path):
    ours = ledgekit_picture(window, FIXTURES / f"{name}.tmx", ANIMATION_MS / 1000 if name == "animation" else 0.0)
    theirs = tiled_picture(name, (ours.shape[1], ours.shape[0]))
    differs = (np.abs(ours.astype(int) - theirs.astype(int)) > TOLERANCE).any(axis=-1)
    if differs.mean() > MOST_DIFFERING:
        Image.fromarray(ours).save(tmp_path / f"{name}_ledgekit.png")
        Image.fromarray(theirs).save(tmp_path / f"{name}_tiled.png")
        Image.fromarray((differs * 255).astype(np.uint8)).save(tmp_path / f"{name}_differs.png")
    assert differs.mean() <= MOST_DIFFERING, (
        f"{name}: {differs.mean():.1%} of pixels differ from Tiled's picture (see {tmp_path})")


def tile_layers_picture(window: arcade.Window, map_path: Path) -> np.ndarray:
    """The renderer's picture of a map's tile layers (RGB, rows from the map's top) over BACKGROUND, drawn a
    window at a time (a shipped level is up to 18,880 px wide)."""
    level = load_level(map_path)
    renderer = LevelRenderer(level, level.build_world())
    width, height = int(level.width), int(level.height)
    picture = np.zeros((height, width, 3), dtype=np.uint8)
    for left in range(0, width, window.width):
        for bottom in range(0, height, window.height):
            window.clear(color=BACKGROUND)
            camera = arcade.Camera2D()
            camera.position = (left + window.width / 2, bottom + window.height / 2)
            camera.use()
            for sprites, _ in renderer.layers:  # (the shipped tile layers have no parallax)
                sprites.draw(pixelated=True)
            shot = np.asarray(arcade.get_image(0, 0, window.width, window.height).convert("RGB"))
            # The shot's rows run down from world y = bottom + window height - 1; the picture's from the map's top.
            top_row = height - (bottom + window.height)
            rows = slice(max(top_row, 0), top_row + window.height)
            columns = min(window.width, width - left)
            picture[rows, left:left + columns] = shot[max(-top_row, 0):, :columns]
    return picture


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_the_shipped_levels_tile_layers_are_drawn_as_tiled_draws_them(window, name, tmp_path):
    map_path = SHIPPED / f"{name}.tmx"
    reference = SHIPPED_REFERENCES / f"{name}.png"
    if shipped_digest(map_path) != RECORDED[name]:
        if shutil.which("tmxrasterizer") is None:
            pytest.skip(f"{name} changed since Tiled's picture of it was made, and tmxrasterizer is not installed "
                        "(apt-get install -y tiled; then remake it with tests/render/make_references.py)")
        reference = tmp_path / f"{name}.png"
        rasterize_tile_layers(map_path, reference)
    ours = tile_layers_picture(window, map_path)
    laid = Image.new("RGBA", (ours.shape[1], ours.shape[0]), BACKGROUND)
    laid.alpha_composite(Image.open(reference).convert("RGBA").crop((0, 0, ours.shape[1], ours.shape[0])))
    theirs = np.asarray(laid.convert("RGB"))
    differs = (np.abs(ours.astype(int) - theirs.astype(int)) > TOLERANCE).any(axis=-1)
    assert differs.mean() <= MOST_DIFFERING, f"{name}: {differs.mean():.2%} of pixels differ from Tiled's picture"
