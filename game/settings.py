"""The player's settings and best results, kept in one small JSON file in the user's config folder.

``$XDG_CONFIG_HOME/ledgekit/settings.json`` (``~/.config/ledgekit/settings.json`` when the variable is
unset). A missing file means defaults; a corrupt or wrong-shaped one is ignored with a one-line notice
(the game never fails to start because of it), and the next save replaces it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .controls import BUTTON_ROLES, DEFAULT_BUTTONS, DEFAULT_KEYS, key_code, key_name
from .devices import notice
from .screen import SCALE_MODES

__all__ = ["Best", "Settings", "settings_path"]

VERSION = 1


def settings_path() -> Path:
    """Where the settings live: the XDG config folder, else ``~/.config``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "ledgekit" / "settings.json"


@dataclass
class Best:
    """A level's best finish: the fastest time, and the most coins in any finish."""

    time: float
    coins: int


@dataclass
class Settings:
    sound_volume: float = 0.8
    music_volume: float = 0.6
    mute: bool = False
    scaling: str = "auto"
    """How the game fills the window: ``auto``, ``pixel`` (pixel-perfect) or ``fill`` (see game.screen)."""
    keys: dict[str, tuple[int, ...]] = field(default_factory=lambda: dict(DEFAULT_KEYS))
    buttons: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_BUTTONS))
    best: dict[str, Best] = field(default_factory=dict)
    """Keyed by the level's file name (``demo.tmx``)."""

    def effective_volume(self, kind: str = "sound") -> float:
        if self.mute:
            return 0.0
        return self.music_volume if kind == "music" else self.sound_volume

    def record_finish(self, level: str, time: float, coins: int) -> bool:
        """Keep a finish if it beats the best time or coin count; True if anything improved."""
        old = self.best.get(level)
        if old is None:
            self.best[level] = Best(round(time, 3), coins)
            return True
        better = Best(min(old.time, round(time, 3)), max(old.coins, coins))
        self.best[level] = better
        return better != old

    # --- the file -------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "sound_volume": self.sound_volume, "music_volume": self.music_volume, "mute": self.mute,
            "scaling": self.scaling,
            "keys": {action: [key_name(c) for c in codes] for action, codes in self.keys.items()},
            "gamepad_buttons": dict(self.buttons),
            "best": {name: {"time": b.time, "coins": b.coins} for name, b in sorted(self.best.items())},
        }

    def save(self, path: Path | None = None) -> None:
        """Write the file (atomically: a crash mid-write leaves the old file); a failure is a notice."""
        path = path or settings_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n")
            tmp.replace(path)
        except OSError as error:
            notice(f"settings not saved to {path} ({error.strerror or error})")

    @classmethod
    def load(cls, path: Path | None = None) -> "Settings":
        """The saved settings, or defaults when there are none or the file is unreadable (with a notice)."""
        path = path or settings_path()
        if not path.exists():
            return cls()
        try:
            return cls.from_json(json.loads(path.read_text()))
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            notice(f"ignoring the settings file {path} ({reason}); using defaults")
            return cls()

    @classmethod
    def from_json(cls, data: Any) -> "Settings":
        """Settings from parsed JSON; raises ``ValueError`` (or ``TypeError``) naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        settings = cls(
            sound_volume=_volume(data.get("sound_volume", 0.8), "sound_volume"),
            music_volume=_volume(data.get("music_volume", 0.6), "music_volume"),
            mute=bool(data.get("mute", False)),
            scaling=_scaling(data.get("scaling", "auto")),
        )
        for action, names in dict(data.get("keys", {})).items():
            if action not in settings.keys:
                raise ValueError(f"unknown action {action!r} in keys")
            codes = tuple(key_code(n) for n in names)
            if not codes or None in codes:
                raise ValueError(f"bad key names {names!r} for {action}")
            settings.keys[action] = tuple(c for c in codes if c is not None)
        for role, index in dict(data.get("gamepad_buttons", {})).items():
            if role not in BUTTON_ROLES or not isinstance(index, int) or not 0 <= index < 32:
                raise ValueError(f"bad gamepad button {role!r}: {index!r}")
            settings.buttons[role] = index
        for name, best in dict(data.get("best", {})).items():
            settings.best[str(name)] = Best(float(best["time"]), int(best["coins"]))
        return settings


def _scaling(value: Any) -> str:
    if value not in SCALE_MODES:
        raise ValueError(f"scaling must be one of {', '.join(SCALE_MODES)}, got {value!r}")
    return str(value)


def _volume(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a number from 0 to 1, got {value!r}")
    return float(value)
