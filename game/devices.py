"""Optional devices: a gamepad (sound goes through :class:`engine.render.Sounds`, which is as forgiving).
Neither is needed to play, so a missing or failing one never stops the game: it is skipped with a one-line
notice on stderr.

Why this matters: pyglet's Linux joystick backend lists ``/dev/input``, which containers, some VMs and
some desktops do not have (``FileNotFoundError``).
"""

from __future__ import annotations

import sys
from typing import Any

import arcade

__all__ = ["notice", "open_joystick"]


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


def _describe(error: BaseException | None) -> str:
    if error is None:
        return "unknown error"
    text = str(error) or type(error).__name__
    return text.splitlines()[0] if text.strip() else type(error).__name__
