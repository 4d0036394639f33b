"""Settings as a player meets them: changed in the menu, saved in the config folder, there at the next
start; keys rebound and played with; a broken settings file is a one-line notice, not a crash."""

import json
import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from game.app import GameWindow  # noqa: E402
from game.controls import DEFAULT_BUTTONS, DEFAULT_KEYS  # noqa: E402
from game.settings import Settings, settings_path  # noqa: E402
from tests.game.test_window import ROOT, frames  # noqa: E402

DEMO = ROOT / "levels" / "demo.tmx"


def press(window, *symbols, modifiers=0):
    for symbol in symbols:
        window.on_key_press(symbol, modifiers)
        window.on_key_release(symbol, modifiers)


def select(window, label):
    """Move the settings menu's highlight to the row named ``label`` with the down arrow."""
    menu = window.settings_menu.menu
    for _ in range(len(menu.items)):
        if menu.items[menu.selected].label == label:
            return
        press(window, arcade.key.DOWN)
    raise AssertionError(f"no settings row {label!r}")


def open_settings_from_title(window):
    title = window.title.menu
    while title.items[title.selected].label != "Settings":
        press(window, arcade.key.DOWN)
    press(window, arcade.key.ENTER)
    assert window.state == "settings"


def test_the_settings_file_lives_in_xdg_config_home(config_home, monkeypatch):
    assert settings_path() == config_home / "ledgekit" / "settings.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(config_home / "home"))
    assert settings_path() == config_home / "home" / ".config" / "ledgekit" / "settings.json"


def test_volume_and_mute_are_saved_and_restored_at_the_next_start(config_home):
    window = GameWindow()
    try:
        open_settings_from_title(window)
        select(window, "Sound volume")
        press(window, arcade.key.LEFT, arcade.key.LEFT, arcade.key.LEFT)  # 0.8 -> 0.5
        select(window, "Music volume")
        press(window, arcade.key.RIGHT)  # 0.6 -> 0.7
        select(window, "Mute")
        press(window, arcade.key.ENTER)
        press(window, arcade.key.ESCAPE)
        assert window.state == "title"
    finally:
        window.close()
    saved = json.loads((config_home / "ledgekit" / "settings.json").read_text())
    assert (saved["sound_volume"], saved["music_volume"], saved["mute"]) == (0.5, 0.7, True)
    again = GameWindow()
    try:
        s = again.settings
        assert (s.sound_volume, s.music_volume, s.mute) == (0.5, 0.7, True)
        assert s.effective_volume("sound") == 0.0  # muted
    finally:
        again.close()


def rebind(window, action, symbol):
    select(window, f"Key: {action}")
    press(window, arcade.key.ENTER)
    assert window.settings_menu.waiting == ("key", action)
    press(window, symbol)
    assert window.settings_menu.waiting is None


def test_rebinding_jump_to_x_adds_it_beside_space_plays_with_x_and_survives_a_restart():
    """A new key is added, not swapped in: jump is Space and X after it (X took Z's place, the second)."""
    window = GameWindow()
    try:
        open_settings_from_title(window)
        rebind(window, "jump", arcade.key.X)
        assert window.controls.keys["jump"] == (arcade.key.SPACE, arcade.key.X)
    finally:
        window.close()
    window = GameWindow(DEMO)
    try:
        frames(window, 30)
        hero = window.play.session.hero
        ground_y = hero.position[1]
        window.on_key_press(arcade.key.Z, 0)  # no longer jump
        frames(window, 10)
        window.on_key_release(arcade.key.Z, 0)
        assert abs(hero.position[1] - ground_y) < 1.0
        window.on_key_press(arcade.key.X, 0)
        frames(window, 10)
        assert hero.position[1] > ground_y + 20
    finally:
        window.close()


def test_an_action_has_up_to_two_keys_and_pressing_one_of_its_keys_again_takes_it_off():
    window = GameWindow()
    try:
        open_settings_from_title(window)
        rebind(window, "left", arcade.key.A)  # A is already left's: taken off (Left stays)
        assert window.controls.keys["left"] == (arcade.key.LEFT,)
        rebind(window, "left", arcade.key.J)  # added as the second key
        assert window.controls.keys["left"] == (arcade.key.LEFT, arcade.key.J)
        rebind(window, "left", arcade.key.LEFT)  # and the first can go, leaving J
        rebind(window, "left", arcade.key.J)  # but not the last one
        assert window.controls.keys["left"] == (arcade.key.J,)
    finally:
        window.close()
    assert Settings.load().keys["left"] == (arcade.key.J,)


def test_escape_cancels_a_rebinding_and_a_gamepad_button_can_be_rebound():
    window = GameWindow()
    try:
        open_settings_from_title(window)
        select(window, "Key: left")
        press(window, arcade.key.ENTER, arcade.key.ESCAPE)
        assert window.settings_menu.waiting is None and arcade.key.LEFT in window.controls.keys["left"]
        assert window.state == "settings"

        class Pad:
            x = y = 0.0
            hat_x = hat_y = 0
            buttons = [False] * 8

        pad = window.controls.gamepad = Pad()
        select(window, "Gamepad: jump")
        press(window, arcade.key.ENTER)
        pad.buttons[2] = True  # X on an XInput pad
        frames(window, 1)
        pad.buttons[2] = False
        frames(window, 1)
        assert window.controls.buttons["jump"] == 2 and window.state == "settings"
    finally:
        window.close()
    assert Settings.load().buttons["jump"] == 2


def test_a_corrupt_settings_file_is_ignored_with_one_notice(config_home, capsys):
    path = config_home / "ledgekit" / "settings.json"
    path.parent.mkdir(parents=True)
    for text in ("{not json", '{"sound_volume": "loud"}', '{"keys": {"jump": ["NO_SUCH_KEY"]}}', "[1, 2]"):
        path.write_text(text)
        window = GameWindow()
        try:
            assert window.settings == Settings()  # defaults
            assert window.state == "title"
        finally:
            window.close()
        # (one notice for the settings; a machine without audio adds its own "sound off" line)
        err = [line for line in capsys.readouterr().err.strip().splitlines() if "sound off" not in line]
        assert len(err) == 1 and "ignoring the settings file" in err[0], err


def test_finishing_a_level_keeps_the_best_time_and_the_title_shows_it():
    window = GameWindow(DEMO)
    try:
        session = window.play.session
        frames(window, 20)
        goal = next(s for s in session.world.sensors if s.tag == "goal")
        session.hero.teleport(goal.position)
        frames(window, 5)
        assert window.state == "complete" and window.new_best
        best = window.settings.best["demo.tmx"]
        assert best.time == round(session.time, 3) and best.coins == session.pickups
    finally:
        window.close()
    window = GameWindow()
    try:
        entry = next(entry for entry in window.title.levels if entry.name == "Demo")
        assert window.title.columns(entry) == (f"{best.time:.1f} s", f"{best.coins}/4")
    finally:
        window.close()


def test_music_plays_and_follows_the_music_volume_and_mute(monkeypatch):
    class Player:
        volume = None

        def pause(self):
            pass

    # A machine with audio (headless tests have pyglet's silent driver), the player recorded instead of heard.
    import pyglet.media.drivers

    monkeypatch.setattr(pyglet.media.drivers, "get_audio_driver", lambda: object())
    monkeypatch.setattr(arcade, "play_sound", lambda sound, volume=1.0, loop=False, **kw: Player())
    window = GameWindow()
    try:
        player = window.sounds.loop_player("music")
        assert player is not None
        open_settings_from_title(window)
        select(window, "Music volume")
        press(window, arcade.key.RIGHT)
        assert player.volume == 0.7
        select(window, "Mute")
        press(window, arcade.key.ENTER)
        assert player.volume == 0.0
    finally:
        window.close()


def test_the_music_loop_is_generated_and_shipped():
    from game.sounds import MUSIC_RATE, music_loop

    samples = music_loop()
    assert 4.0 < len(samples) / MUSIC_RATE < 30.0 and abs(samples).max() <= 1.0
    assert abs(samples[:3]).max() < 0.05 and abs(samples[-3:]).max() < 0.05  # silent at both ends: no click
    assert (ROOT / "assets" / "music.wav").exists()


def test_reset_to_defaults_resets_volumes_mute_scaling_keys_and_buttons_and_says_so():
    window = GameWindow()
    try:
        open_settings_from_title(window)
        select(window, "Sound volume")
        press(window, arcade.key.LEFT, arcade.key.LEFT)
        select(window, "Music volume")
        press(window, arcade.key.RIGHT)
        select(window, "Mute")
        press(window, arcade.key.ENTER)
        select(window, "Scaling")
        press(window, arcade.key.RIGHT)  # auto -> pixel-perfect
        rebind(window, "jump", arcade.key.X)
        window.controls.bind_button("jump", 3)
        select(window, "Reset to defaults")
        press(window, arcade.key.ENTER)
        s = window.settings
        assert (s.sound_volume, s.music_volume, s.mute, s.scaling) == (0.8, 0.6, False, "auto")
        assert window.controls.keys == DEFAULT_KEYS and window.controls.buttons == DEFAULT_BUTTONS
        assert window.pixels.mode == "auto"
        message = window.settings_menu.message
        for part in ("sound 80 %", "music 60 %", "mute off", "scaling auto", "key", "gamepad button"):
            assert part in message
    finally:
        window.close()
    assert Settings.load() == Settings()  # and saved so


def test_the_scaling_setting_changes_the_window_at_once_and_is_saved():
    window = GameWindow()
    try:
        window.on_resize(1200, 700)
        assert window.pixels.box.mode == "fill"  # auto: 1x would use a quarter of the window
        open_settings_from_title(window)
        select(window, "Scaling")
        row = window.settings_menu.menu.items[window.settings_menu.menu.selected]
        assert row.value() == "auto (now fill)"
        press(window, arcade.key.RIGHT)
        assert row.value() == "pixel-perfect" and window.pixels.box.scale == 1
        press(window, arcade.key.RIGHT)
        assert row.value() == "fill" and window.pixels.box.scale == 1.875 and window.ui.box == window.pixels.box
    finally:
        window.close()
    again = GameWindow()
    try:
        assert again.settings.scaling == "fill" and again.pixels.mode == "fill"
    finally:
        again.close()
