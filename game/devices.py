"""Optional devices: a gamepad and sound. Neither is needed to play, so a missing or failing one never
stops the game: it is skipped with a one-line notice on stderr.

Why this matters: pyglet's Linux joystick backend lists ``/dev/input``, which containers, some VMs and
some desktops do not have (``FileNotFoundError``); audio back ends fail in as many ways.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import arcade

__all__ = ["load_sounds", "notice", "open_joystick", "play_loop", "play_sound", "set_volume"]


def notice(message: str) -> None:
    """One line on stderr, for a device the game goes on without."""
    print(f"notice: {message}", file=sys.stderr)


def open_joystick() -> Any | None:
    """The first gamepad, opened; ``None`` when there is none or it cannot be listed or opened."""
    list_joysticks = getattr(arcade, "get_joysticks", None)
    if list_joysticks is None:  # headless arcade has no input back end at all: nothing to report
        return None
    try:
        joysticks = list_joysticks()
    except Exception as error:  # noqa: BLE001 - any back-end failure means "no gamepad"
        notice(f"no gamepad support on this machine ({_describe(error)}); keyboard only")
        return None
    if not joysticks:
        return None
    joystick = joysticks[0]
    try:
        joystick.open()
    except Exception as error:  # noqa: BLE001
        notice(f"the gamepad could not be opened ({_describe(error)}); keyboard only")
        return None
    return joystick


def load_sounds(folder: Path, names: Iterable[str]) -> dict[str, Any]:
    """``{name: sound}`` for each ``folder/name.wav`` that loads; one notice for all that do not."""
    sounds: dict[str, Any] = {}
    failed: list[str] = []
    first_error: Exception | None = None
    for name in names:
        try:
            sounds[name] = arcade.load_sound(folder / f"{name}.wav")
        except Exception as error:  # noqa: BLE001 - no audio device, missing or broken file
            failed.append(name)
            first_error = first_error or error
    if failed:
        notice(f"sound off for {', '.join(failed)} ({_describe(first_error)})")
    return sounds


def play_sound(sound: Any | None, volume: float) -> None:
    """Play ``sound`` if there is one; an audio failure mid-game is ignored (the game goes on silently)."""
    if sound is None or volume <= 0.0:
        return
    try:
        arcade.play_sound(sound, volume=volume)
    except Exception:  # noqa: BLE001, S110 - a sound that cannot play is not worth stopping for
        pass


def play_loop(sound: Any | None, volume: float) -> Any | None:
    """Start ``sound`` looping (music); the player to change its volume later, or ``None`` if it cannot play."""
    if sound is None:
        return None
    try:
        return arcade.play_sound(sound, volume=volume, loop=True)
    except Exception as error:  # noqa: BLE001 - music is a nicety
        notice(f"music off ({_describe(error)})")
        return None


def set_volume(player: Any | None, volume: float) -> None:
    if player is not None:
        try:
            player.volume = volume
        except Exception:  # noqa: BLE001, S110 - a player the audio back end already dropped
            pass


def _describe(error: BaseException | None) -> str:
    if error is None:
        return "unknown error"
    text = str(error) or type(error).__name__
    return text.splitlines()[0] if text.strip() else type(error).__name__
