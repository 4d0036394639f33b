"""Headless screenshots: the title screen and the first frame of each shipped level draw the right things
in the right places (pixel regions, not just "not blank")."""

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

os.environ.setdefault("ARCADE_HEADLESS", "1")

from game.__main__ import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
SHIRT = np.array([220, 70, 60])
SKY = np.array([126, 200, 240])


def close_to(pixels, color, tol=30):
    return (np.abs(pixels[..., :3].astype(int) - color).max(axis=-1) <= tol)


@pytest.mark.parametrize("level", LEVELS, ids=lambda p: p.name)
def test_first_frame_shows_sky_ground_hud_and_the_hero_at_the_spawn(tmp_path, level):
    shot = tmp_path / "frame.png"
    assert main(["--headless", "--level", str(level), "--frames", "1", "--screenshot", str(shot)]) == 0
    img = np.asarray(Image.open(shot).convert("RGB"))
    h, w, _ = img.shape
    assert (h, w) == (720, 1280)  # the window's starting size: the 640 x 360 game at 2x
    sky = img[60:120, :]
    # The level's own sky across the top (below the HUD line): every pixel one of its sky image's bands.
    from engine.level.level import load_level

    sky_layer = next(layer for layer in load_level(level).tmx.layers if isinstance(layer, dict))
    bands = np.unique(np.asarray(Image.open(sky_layer["image"]).convert("RGB"))[:, 0].astype(int), axis=0)
    nearest = np.abs(sky[:, :, None, :].astype(int) - bands[None, None, :, :]).max(axis=-1).min(axis=-1)
    assert (nearest <= 3).mean() > 0.9
    assert (img[h - 20:, :, 0] < 160).mean() > 0.5 and close_to(img[h - 20:], SKY).mean() < 0.3  # ground at the bottom
    shirt = close_to(img, SHIRT, 12)
    _, xs = np.nonzero(shirt)
    assert len(xs) > 30  # the hero's shirt is on screen
    spawn_x = load_level(level).spawn[0]
    scale = w // 640
    # Where the spawn is (the camera clamps to the map's left), in logical pixels times the scale.
    assert abs(xs.mean() - min(spawn_x, 320) * scale) < 40
    # The HUD line: the level's name at the left, the coins in the middle, the clock at the right, each light
    # text with a dark shadow.
    for left, right in ((10, 340), (w // 2 - 100, w // 2 + 100), (w - 180, w - 4)):
        hud = img[10:40, left:right].astype(int)
        assert (hud.min(axis=-1) > 225).sum() > 60 and (hud.sum(axis=-1) < 200).sum() > 60


def test_title_screen_shows_the_name_and_the_level_list(tmp_path):
    from game.app import title_screenshot

    shot = tmp_path / "title.png"
    title_screenshot(shot)
    img = np.asarray(Image.open(shot).convert("RGB"))
    title_band = img[95:190, 380:900]
    yellow = (title_band[..., 0] > 200) & (title_band[..., 1] > 170) & (title_band[..., 2] < 140)
    assert yellow.sum() > 300  # "LEDGEKIT" in gold
    list_band = img[270:450, 320:960]
    assert (list_band.min(axis=-1) > 200).sum() > 100  # the level names in light grey
