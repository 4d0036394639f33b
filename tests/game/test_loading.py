"""No stalls a player sees: a loading card is on screen while a level is prepared, the first frame after a
load runs one physics step (not a burst of catch-up steps for the load's time), and F1 shows fps, frame time
and physics time."""

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from game.app import GameWindow  # noqa: E402
from game.hud import FrameClock, debug_line  # noqa: E402
from tests.game.test_window import ROOT  # noqa: E402


def choose_first_level(window):
    window.on_key_press(arcade.key.ENTER, 0)
    window.on_key_release(arcade.key.ENTER, 0)
    assert window.state == "play"


def test_the_first_frames_after_a_load_run_one_step_each_however_long_the_load_took():
    window = GameWindow()
    try:
        choose_first_level(window)
        window.on_update(1.7)  # the frame that waited for the load (1.7 s, as measured on a slow machine)
        assert window.play.session.steps == 1
        window.on_draw()
        for _ in range(5):
            window.on_update(1 / 60)
        assert window.play.session.steps == 6
        window.on_key_press(arcade.key.R, 0)  # a restart is a load too
        window.on_update(0.9)
        assert window.play.session.steps == 1
        window.on_update(0.1)  # a slow frame in play (not after a load) still catches up: six steps
        assert window.play.session.steps == 7
    finally:
        window.close()


def test_a_loading_card_is_on_screen_while_the_level_loads(monkeypatch):
    """What the window shows at the moment the load starts: the card's dark panel in the middle, over the
    title (where the highlighted first row's gold is without it)."""
    import game.app

    seen = []
    real_open = game.app.Session.open

    def open_and_look(path):
        seen.append((window.loading, arcade.get_image(0, 0, *window.get_framebuffer_size()).convert("RGB")))
        return real_open(path)

    window = GameWindow()
    try:
        monkeypatch.setattr(game.app.Session, "open", open_and_look)
        monkeypatch.setattr(window, "flip", lambda: None)  # (keep the drawn frame in the buffer we read)
        choose_first_level(window)
        assert window.loading is None
    finally:
        window.close()
    name, image = seen[0]
    assert name == "1. Hills and ledges"
    r, g, b = image.getpixel((430, 720 - 2 * 180))  # inside the card, left of its text
    assert r < 60 and g < 60 and b < 90


def test_the_frame_clock_gives_fps_mean_and_worst_frame_time():
    clock = FrameClock()
    for _ in range(59):
        clock.tick(1 / 60)
    clock.tick(0.1)  # one stall
    assert 50 < clock.fps < 56
    assert abs(clock.worst_ms - 100.0) < 1e-6
    line = debug_line(clock, 0.42)
    assert line.startswith("fps 5") and "frame 18.1 ms (worst 100.0)" in line and "physics 0.42 ms/step" in line


def test_f1_shows_the_numbers_of_the_game_being_played():
    window = GameWindow(ROOT / "levels" / "demo.tmx")
    try:
        window.on_key_press(arcade.key.F1, 0)
        for _ in range(30):
            window.on_update(1 / 60)
            window.on_draw()
        play = window.play
        assert play.debug and 59 < play.frames.fps < 61 and play.physics_ms > 0.0
    finally:
        window.close()
