"""The window as a player sees it: resizable, fullscreen on F11 / Alt+Enter, the game scaled by whole
factors (pixel-perfect) with black bars; screenshots of the title, pause and settings screens, checked by
regions. Every PNG is written to ``$LEDGEKIT_SHOTS`` too when that is set, to look at."""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from game.app import GameWindow, save_frame  # noqa: E402
from game.screen import Letterbox, letterbox  # noqa: E402
from tests.game.test_settings_flow import open_settings_from_title, press  # noqa: E402
from tests.game.test_window import ROOT, frames  # noqa: E402

DEMO = ROOT / "levels" / "demo.tmx"


def shot(window, tmp_path, name, size=None):
    path = tmp_path / f"{name}.png"
    if size is None:
        save_frame(window, path)
    else:
        arcade.get_image(0, 0, *size).save(path)
    if os.environ.get("LEDGEKIT_SHOTS"):
        shutil.copy(path, Path(os.environ["LEDGEKIT_SHOTS"]) / path.name)
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


@pytest.mark.parametrize("window_size, expected", [
    ((1280, 720), Letterbox(2, 0, 0, 1280, 720)),
    ((1920, 1080), Letterbox(3, 0, 0, 1920, 1080)),
    ((1920, 1200), Letterbox(3, 0, 60, 1920, 1080)),  # 16:10: bars top and bottom
    ((1000, 600), Letterbox(1, 180, 120, 640, 360)),  # too small for 2x: 1x, centred
    ((2000, 730), Letterbox(2, 360, 5, 1280, 720)),  # wide: bars left and right
    ((500, 300), Letterbox(1, -70, -30, 640, 360)),  # smaller than the game: 1x, cropped evenly
])
def test_pixel_perfect_takes_the_largest_whole_scale_that_fits(window_size, expected):
    assert letterbox(*window_size, mode="pixel") == expected


@pytest.mark.parametrize("window_size, expected", [
    ((1000, 600), Letterbox(1.5625, 0, 19, 1000, 562, "fill")),  # 1000 / 640: fills the width
    ((1200, 700), Letterbox(1.875, 0, 12, 1200, 675, "fill")),
    ((1920, 1200), Letterbox(3, 0, 60, 1920, 1080, "fill")),  # (3 is the largest that fits here)
    ((500, 300), Letterbox(500 / 640, 0, 9, 500, 281, "fill")),  # smaller than the game: all of it, smaller
])
def test_fill_takes_the_largest_scale_that_fits_whole_or_not(window_size, expected):
    assert letterbox(*window_size, mode="fill") == expected


@pytest.mark.parametrize("window_size, mode, used", [
    ((1280, 720), "pixel", 1.0),  # 2x: all of the window
    ((1366, 768), "pixel", 0.88),  # 2x uses 88 % of what fill (2.13x) would: pixel-perfect it stays
    ((1920, 1200), "pixel", 0.9),  # 3x, bars above and below (16:10): as fill would be
    ((1200, 700), "fill", 0.96),  # 1x would use 27 % of the window: fill (1.875x) uses 96 %
    ((1000, 600), "fill", 0.94),
    ((1279, 719), "fill", 1.0),  # one pixel short of 2x: not 1x in a mostly black window
])
def test_auto_picks_pixel_perfect_when_it_uses_at_least_80_percent_else_fill(window_size, mode, used):
    box = letterbox(*window_size)
    assert box.mode == mode
    assert box.w * box.h / (window_size[0] * window_size[1]) == pytest.approx(used, abs=0.01)


def test_resizing_the_window_moves_the_game_into_a_centred_letterbox(tmp_path):
    window = GameWindow(DEMO)
    try:
        assert window.resizeable  # (pyglet spells it so)
        window.pixels.mode = "pixel"
        window.on_resize(1000, 600)
        assert window.pixels.box == Letterbox(1, 180, 120, 640, 360) and window.ui.box == window.pixels.box
        frames(window, 2)
        img = shot(window, tmp_path, "resized_1000x600", size=(1000, 600))
        assert img[:, :170].max() == 0 and img[:, 830:].max() == 0  # black bars at the sides ...
        assert img[490:, :].max() == 0 and img[:110, :].max() == 0  # ... and above and below
        assert img[130:470, 190:810].mean() > 100  # the game in the middle
        window.on_resize(1280, 720)
        assert window.pixels.box.scale == 2
    finally:
        window.close()


def test_f11_and_alt_enter_toggle_fullscreen_and_the_game_rescales(tmp_path):
    window = GameWindow(DEMO)
    try:
        window.on_key_press(arcade.key.F11, 0)
        assert window.fullscreen
        w, h = window.get_framebuffer_size()
        assert window.pixels.box == letterbox(w, h)
        assert window.pixels.box.scale >= 2
        frames(window, 2)  # draws at the new size (headless, the image itself stays 1280 x 720)
        window.on_key_press(arcade.key.ENTER, arcade.key.MOD_ALT)
        assert not window.fullscreen and window.state == "play"  # Alt+Enter did not act as Enter
        assert window.pixels.box.scale == 2
    finally:
        window.close()


def test_the_game_image_is_pixel_perfect_at_2x(tmp_path):
    window = GameWindow(DEMO)
    try:
        from game.signs import SignView

        window.play.signs = SignView([])  # (the sign's panel by the start is text at the window's resolution)
        window.on_key_press(arcade.key.RIGHT, 0)
        frames(window, 37)  # mid-run: the hero and a pushed crate at fractional positions
        img = shot(window, tmp_path, "play_2x")[80:, :]  # below the HUD text
        blocks = img[::2, ::2].repeat(2, axis=0).repeat(2, axis=1)
        assert np.array_equal(blocks, img)
    finally:
        window.close()


def test_title_screen_has_a_backdrop_the_logo_and_the_level_list(tmp_path):
    window = GameWindow()
    try:
        frames(window, 2)
        img = shot(window, tmp_path, "title")
        logo = img[95:190, 380:900]
        gold = (logo[..., 0] > 200) & (logo[..., 1] > 170) & (logo[..., 2] < 140)
        assert gold.sum() > 3000
        ground = img[620:700, 0:1000]
        assert (ground[..., 0] > ground[..., 2]).mean() > 0.8  # the level's (dimmed) earth behind the menu
        rows = img[270:450, 320:960]
        assert (rows.min(axis=-1) > 200).sum() > 300  # level names in light text on the panel
    finally:
        window.close()


def test_pause_menu_dims_the_frozen_frame_and_lists_its_choices(tmp_path):
    window = GameWindow(DEMO)
    try:
        frames(window, 10)
        playing = shot(window, tmp_path, "playing")
        press_escape = window.on_key_press
        press_escape(arcade.key.ESCAPE, 0)
        frames(window, 2)
        paused = shot(window, tmp_path, "pause")
        assert window.state == "pause"
        corner = (slice(500, 700), slice(0, 300))  # away from the menu panel
        assert paused[corner].mean() < 0.6 * playing[corner].mean()
        assert paused[corner].mean() > 0.1 * playing[corner].mean()  # dimmed, not black: the level shows
        panel = paused[230:500, 440:840]
        gold = (panel[..., 0] > 200) & (panel[..., 1] > 170) & (panel[..., 2] < 140)
        assert gold.sum() > 300  # "PAUSED" and the highlighted "Resume"
        assert (panel.min(axis=-1) > 200).sum() > 300  # the other choices
    finally:
        window.close()


def test_settings_screen_shows_volumes_and_bindings(tmp_path):
    window = GameWindow()
    try:
        open_settings_from_title(window)
        frames(window, 1)
        before = shot(window, tmp_path, "settings")
        press(window, arcade.key.LEFT)  # sound volume down one notch: its bar shortens
        frames(window, 1)
        after = shot(window, tmp_path, "settings_quieter")
        bar_row = (slice(0, 720), slice(700, 960))
        assert (before[bar_row] != after[bar_row]).any()
        panel = before[40:640, 300:980]
        assert (panel.min(axis=-1) > 200).sum() > 1000  # many rows of light text
        assert before[:, :290].mean() < 90  # the backdrop dimmed around the panel
    finally:
        window.close()


def text_right_edge(img, top, bottom, left, right):
    """The rightmost column in ``img[top:bottom, left:right]`` holding bright text (ink or gold)."""
    region = img[top:bottom, left:right]
    columns = np.nonzero((region[..., 0] > 200).any(axis=0))[0]
    return left + int(columns.max())


def test_the_title_table_lines_up_best_and_coins_whatever_their_widths(tmp_path):
    from game.settings import Best

    window = GameWindow()
    try:
        window.settings.best["demo.tmx"] = Best(5.04, 3)  # one-digit coins and a short time
        window.settings.best["2_crates.tmx"] = Best(123.4, 31)
        frames(window, 2)
        img = shot(window, tmp_path, "title_table")
        best_edges, coin_edges = [], []
        for row in range(5):  # the five levels
            baseline = 208 - 22 * row  # logical px (see TitleMenu.draw), y up; the image is 2x, y down
            top, bottom = 720 - 2 * (baseline + 9), 720 - 2 * (baseline - 2)
            best_edges.append(text_right_edge(img, top, bottom, 620, 806))
            coin_edges.append(text_right_edge(img, top, bottom, 810, 960))
        assert max(best_edges) - min(best_edges) <= 2, best_edges
        assert max(coin_edges) - min(coin_edges) <= 3, coin_edges
    finally:
        window.close()


def test_the_volume_is_a_drawn_slider_that_follows_the_setting(tmp_path):
    window = GameWindow()
    try:
        open_settings_from_title(window)  # (the first row, sound volume, is highlighted: a gold slider)
        filled = []
        for presses in (0, 3):
            for _ in range(presses):
                press(window, arcade.key.LEFT)
            frames(window, 1)
            img = shot(window, tmp_path, f"slider_{presses}")
            track = img[128:132, 2 * (474 - 150):2 * (474 - 40)]  # the slider's row, its track's length
            gold = (track[..., 0] > 200) & (track[..., 1] > 170) & (track[..., 2] < 140)
            filled.append(gold.any(axis=0).mean())
        assert filled[0] == pytest.approx(0.8, abs=0.04) and filled[1] == pytest.approx(0.5, abs=0.04)
    finally:
        window.close()
