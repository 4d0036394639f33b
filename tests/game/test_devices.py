"""The game starts on any machine: a missing or failing joystick, audio device or sound file never stops it.

Containers, some VMs and desktops have no ``/dev/input``: pyglet's evdev backend then raises
``FileNotFoundError`` from ``arcade.get_joysticks()``. The window must open anyway, with a one-line notice.
"""

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

import game.app as app  # noqa: E402


def _no_input_dir():
    raise FileNotFoundError(2, "No such file or directory", "/dev/input")


def test_window_starts_when_joystick_enumeration_fails(monkeypatch, capsys):
    # Headless arcade has no get_joysticks: put in the windowed one, failing as on a machine without /dev/input.
    monkeypatch.setattr(arcade, "get_joysticks", _no_input_dir, raising=False)
    window = app.GameWindow()
    try:
        assert window.state == "title" and window.joystick is None
        window.on_key_press(arcade.key.ENTER, 0)
        window.on_update(1 / 60)
        window.on_draw()
        assert window.state == "play"
    finally:
        window.close()
    notices = [line for line in capsys.readouterr().err.strip().splitlines() if "sound off" not in line]
    assert len(notices) == 1 and "gamepad" in notices[0] and "/dev/input" in notices[0]


def test_window_starts_when_the_joystick_cannot_be_opened(monkeypatch, capsys):
    class Broken:
        def open(self):
            raise OSError("device busy")

    monkeypatch.setattr(arcade, "get_joysticks", lambda: [Broken()], raising=False)
    window = app.GameWindow()
    try:
        assert window.joystick is None
    finally:
        window.close()
    assert "device busy" in capsys.readouterr().err


def test_missing_or_broken_sounds_play_silently(monkeypatch, capsys):
    def no_audio(path, *args, **kwargs):
        raise OSError(f"cannot open {path}")

    import pyglet.media.drivers

    monkeypatch.setattr(pyglet.media.drivers, "get_audio_driver", lambda: object())  # a device, but no sound loads
    monkeypatch.setattr(arcade, "load_sound", no_audio)
    window = app.GameWindow()
    try:
        window.sound("jump")  # nothing to play: no error
    finally:
        window.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "sound" in err[0]


def test_no_display_at_all_is_a_message_and_exit_status_1():
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k != "ARCADE_HEADLESS"}
    env["DISPLAY"] = ":9876"  # an X server that does not exist: no window, no OpenGL context
    run = subprocess.run([sys.executable, "-m", "game"], env=env, capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 1
    assert "cannot open the game window" in run.stderr and "Traceback" not in run.stderr


def test_every_event_sound_is_a_loaded_sound_and_other_events_play_none():
    """The stage's events map to the sounds the game loads (a name it never loaded would raise); the events
    without a sound of their own (a switch, a door) play nothing rather than fail."""
    window = app.GameWindow()
    try:
        assert set(app.EVENT_SOUNDS.values()) <= set(window.sounds.names)
        assert "switch" not in app.EVENT_SOUNDS
    finally:
        window.close()
