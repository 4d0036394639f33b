"""Input as a player notices it: a tap is never lost, and the gamepad's d-pad, stick and buttons work."""

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from game.app import GameWindow  # noqa: E402
from tests.game.test_window import ROOT, frames  # noqa: E402

DEMO = ROOT / "levels" / "demo.tmx"


def settle(window, n=30):
    frames(window, n)
    assert window.play.session.hero.on_floor


def test_a_jump_tapped_within_one_frame_still_jumps():
    window = GameWindow(DEMO)
    try:
        settle(window)
        ground_y = window.play.session.hero.position[1]
        window.on_key_press(arcade.key.SPACE, 0)  # pressed and released before the next physics step
        window.on_key_release(arcade.key.SPACE, 0)
        frames(window, 8)
        assert window.play.session.hero.position[1] > ground_y + 10
    finally:
        window.close()
