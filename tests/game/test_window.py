"""The windowed game's flow, driven headless: title -> play -> pause -> restart -> complete -> next."""

import os
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from game.app import GameWindow  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def frames(window, n, dt=1 / 60):
    for _ in range(n):
        window.on_update(dt)
        window.on_draw()


def test_title_then_play_pause_restart(tmp_path):
    record = tmp_path / "rec.json"
    window = GameWindow(record=record)
    try:
        assert window.state == "title" and window.levels[0].name == "1_hills_and_ledges.tmx"
        window.on_key_press(arcade.key.ENTER, 0)
        window.on_key_release(arcade.key.ENTER, 0)
        assert window.state == "play"
        window.on_key_press(arcade.key.RIGHT, 0)
        frames(window, 60)
        x_after_run = window.play.session.hero.position[0]
        assert x_after_run > window.play.session.level.spawn[0] + 100
        window.on_key_press(arcade.key.ESCAPE, 0)
        assert window.state == "pause"
        frames(window, 30)
        assert window.play.session.hero.position[0] == x_after_run  # paused: nothing moves
        window.on_key_press(arcade.key.R, 0)
        assert window.state == "play" and window.play.session.steps == 0
        window.on_key_press(arcade.key.F1, 0)
        frames(window, 5)  # the debug overlay draws
        assert window.play.debug
    finally:
        window.on_close()
    assert record.exists() and '"right"' in record.read_text()


def test_reaching_the_goal_shows_complete_and_enter_goes_to_the_next_level():
    window = GameWindow(ROOT / "levels" / "demo.tmx")
    try:
        session = window.play.session
        goal = next(s for s in session.world.sensors if s.tag == "goal")
        session.hero.teleport(goal.position)
        frames(window, 30)
        assert window.state == "complete"
        window.on_key_press(arcade.key.ENTER, 0)
        assert window.state == "play" and window.play.session.level.path.name == "playground.tmx"
    finally:
        window.close()


def test_saving_the_level_while_playing_reloads_it_within_a_second(tmp_path):
    import shutil

    (tmp_path / "levels").mkdir()
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    for name in ("demo.tmx", "tiles.tsx", "playground.tmx"):
        shutil.copy(ROOT / "levels" / name, tmp_path / "levels" / name)
    level = tmp_path / "levels" / "demo.tmx"
    window = GameWindow(level)
    try:
        frames(window, 30)
        before = window.play
        assert before.session.steps > 20
        stat = level.stat()
        os.utime(level, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))  # "saved in Tiled"
        waited = 0
        while window.play is before and waited < 60:  # at most one second of frames
            frames(window, 1)
            waited += 1
        assert window.play is not before
        assert window.play.session.steps < 60
    finally:
        window.close()


def test_a_broken_save_goes_to_the_title_and_the_fixed_save_comes_back_to_the_level(tmp_path):
    """Saving a half-written level sends the game to the title with the error; the watcher keeps watching
    there, and the fixed save is played again without the player doing anything."""
    import shutil

    (tmp_path / "levels").mkdir()
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    for name in ("demo.tmx", "tiles.tsx", "playground.tmx"):
        shutil.copy(ROOT / "levels" / name, tmp_path / "levels" / name)
    level = tmp_path / "levels" / "demo.tmx"
    good = level.read_text()
    window = GameWindow(level)

    def save(text, seconds_later):
        level.write_text(text)
        stat = level.stat()
        os.utime(level, ns=(stat.st_atime_ns, stat.st_mtime_ns + seconds_later * 1_000_000_000))

    def frames_until(done, limit=90):
        for _ in range(limit):
            frames(window, 1)
            if done():
                return True
        return False

    try:
        frames(window, 10)
        save(good[: len(good) // 2], 2)  # a half-written save
        assert frames_until(lambda: window.state == "title")
        assert "demo.tmx" in window.title.message
        save(good, 4)  # fixed
        assert frames_until(lambda: window.state == "play")
        assert window.play.session.level.path == level and window.title.message == ""
    finally:
        window.close()


class _Compiling:
    """A first start's warm-up still compiling in the background, 40 % done (the plain kernels run meanwhile)."""

    done, playable, fraction, error, first_start = False, True, 0.4, None, True


def test_the_level_plays_at_once_while_the_kernels_compile_and_a_bar_shows_progress():
    window = GameWindow(level=ROOT / "levels" / "demo.tmx")
    try:
        window.warm_up = _Compiling()
        drawn: list[str] = []
        draw_text = window.ui.text
        window.ui.text = lambda value, *args, **kwargs: (drawn.append(value), draw_text(value, *args, **kwargs))
        window.on_key_press(arcade.key.RIGHT, 0)
        frames(window, 30)
        assert window.play.session.steps >= 29  # no waiting for the compiler
        assert any(text.startswith("Compiling physics (first start only)") and "40%" in text for text in drawn)
        window.warm_up.done = True
        drawn.clear()
        frames(window, 30)
        assert window.play.session.steps >= 58
        assert not any("physics" in text for text in drawn)  # (the bar is gone)
    finally:
        window.close()
