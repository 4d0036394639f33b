"""Menus drawn over the game: the title with level select, the pause menu and the settings screen.

Layout is in logical pixels (the game's 640 x 360, y up); :class:`Ui` scales positions and font sizes by
the letterbox's scale, so text is rasterised at the window's resolution and stays crisp.
Menus take *commands* (``up``, ``down``, ``left``, ``right``, ``confirm``, ``back``, ``pause``, see
:mod:`game.controls`) and answer with what the window should do next, as a short string.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import arcade

from .controls import ACTIONS, BUTTON_ROLES, DEFAULT_BUTTONS, DEFAULT_KEYS, Controls, key_label
from .screen import LOGICAL_HEIGHT, LOGICAL_WIDTH, SCALE_MODES, Letterbox
from .settings import Settings

__all__ = ["LevelEntry", "Menu", "PauseMenu", "SettingsMenu", "TitleMenu", "Ui"]

GOLD = (250, 210, 90, 255)
INK = (236, 238, 246, 255)
MUTED = (160, 170, 195, 255)
SHADOW = (30, 22, 40, 255)
PANEL = (18, 22, 38, 238)
HILITE = (250, 210, 90, 70)


class Ui:
    """Text and boxes in logical coordinates, drawn at window resolution (see the module docstring)."""

    def __init__(self) -> None:
        self.box = Letterbox(1, 0, 0, LOGICAL_WIDTH, LOGICAL_HEIGHT)
        self._texts: dict[tuple, arcade.Text] = {}

    def text(self, value: str, x: float, y: float, color: Any = INK, size: float = 10, live: bool = False,
             **kwargs: Any) -> None:
        """Draw through cached :class:`arcade.Text` objects (``draw_text`` lays out again every call).
        ``live``: text that changes often (a clock) keeps one object per place and only swaps its string,
        which is much cheaper than making a new one."""
        s = self.box.scale
        place = (x * s, y * s, tuple(color), size * s, tuple(sorted(kwargs.items())))
        key = ("live", *place) if live else (value, *place)
        label = self._texts.get(key)
        if label is None:
            if len(self._texts) > 256:
                self._texts.clear()
            label = self._texts[key] = arcade.Text(value, x * s, y * s, color, size * s, **kwargs)
        elif label.text != value:
            label.text = value
        label.draw()

    def text_width(self, value: str, size: float = 10, **kwargs: Any) -> float:
        """How wide (logical px) :meth:`text` draws ``value`` at ``size``."""
        s = self.box.scale
        key = ("width", value, size * s, tuple(sorted(kwargs.items())))
        label = self._texts.get(key)
        if label is None:
            label = self._texts[key] = arcade.Text(value, 0, 0, INK, size * s, **kwargs)
        return float(label.content_width) / s

    def shadowed(self, value: str, x: float, y: float, color: Any, size: float, live: bool = False,
                 **kwargs: Any) -> None:
        self.text(value, x + 1.5, y - 1.5, SHADOW, size, live, **kwargs)
        self.text(value, x, y, color, size, live, **kwargs)

    def rect(self, left: float, right: float, bottom: float, top: float, color: Any) -> None:
        s = self.box.scale
        arcade.draw_lrbt_rectangle_filled(left * s, right * s, bottom * s, top * s, color)

    def dim(self, alpha: int = 150) -> None:
        """Darken everything drawn so far (the frozen game behind a menu)."""
        self.rect(0, LOGICAL_WIDTH, 0, LOGICAL_HEIGHT, (8, 10, 20, alpha))

    def panel(self, left: float, right: float, bottom: float, top: float) -> None:
        self.rect(left - 2, right + 2, bottom - 2, top + 2, (250, 210, 90, 120))
        self.rect(left, right, bottom, top, PANEL)


@dataclass
class Item:
    """A menu row: its ``label``, the ``value`` shown at its right, and ``slider``, a fraction (0 to 1) drawn as
    a bar left of the value (a volume)."""

    label: str
    value: Callable[[], str] | None = None
    slider: Callable[[], float] | None = None


class Menu:
    """A vertical list with a highlighted row; ``up``/``down`` move, wrapping around."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.selected = 0

    def move(self, command: str) -> bool:
        if command in ("up", "down"):
            self.selected = (self.selected + (1 if command == "down" else -1)) % len(self.items)
            return True
        return False

    def draw(self, ui: Ui, left: float, right: float, top: float, row: float = 22, size: float = 10) -> None:
        for i, item in enumerate(self.items):
            y = top - row * i
            if i == self.selected:
                ui.rect(left - 6, right + 6, y - 6, y + row - 8, HILITE)
            color = GOLD if i == self.selected else INK
            ui.text(item.label, left, y, color, size)
            if item.value is not None:
                ui.text(item.value(), right, y, color, size, anchor_x="right")
            if item.slider is not None:
                _slider(ui, right - 150, right - 40, y + size * 0.4, item.slider(), color)


def _slider(ui: Ui, left: float, right: float, middle: float, fraction: float, color: Any) -> None:
    """A horizontal slider: a dark track, the part up to ``fraction`` filled in ``color``, a knob there."""
    ui.rect(left, right, middle - 2, middle + 2, (60, 64, 86, 255))
    x = left + (right - left) * min(max(fraction, 0.0), 1.0)
    ui.rect(left, x, middle - 2, middle + 2, color)
    ui.rect(x - 2, x + 2, middle - 5, middle + 5, INK)


@dataclass
class LevelEntry:
    """A level on the title screen: its file name, display name and coin count (None: it does not load)."""

    file: str
    name: str
    coins: int | None


class TitleMenu:
    """The level list (with best time and coins, in two right-aligned columns) plus Settings and Quit.
    Answers ``play:<index>``, ``settings`` or ``quit``."""

    BEST_RIGHT, COINS_RIGHT = 400.0, 476.0
    """The right edges (logical px) of the BEST and COINS columns: numbers line up on their last digit."""

    def __init__(self, levels: list[LevelEntry], settings: Settings) -> None:
        self.levels = levels
        self.settings = settings
        self.menu = Menu([Item(e.name) for e in levels] + [Item("Settings"), Item("Quit")])
        self.message = ""

    def columns(self, entry: LevelEntry) -> tuple[str, str]:
        """A level's BEST and COINS cells: ``("12.3 s", "5/31")``, ``("--.- s", "-/31")`` before a finish."""
        if entry.coins is None:
            return "", "does not load"
        best = self.settings.best.get(entry.file)
        if best is None:
            return "--.- s", f"-/{entry.coins}"
        return f"{best.time:.1f} s", f"{best.coins}/{entry.coins}"

    def command(self, command: str) -> str | None:
        if self.menu.move(command):
            return None
        if command in ("confirm", "pause"):
            i = self.menu.selected
            if i < len(self.levels):
                return f"play:{i}"
            return "settings" if i == len(self.levels) else "quit"
        if command == "back":
            return "quit"
        return None

    def draw(self, ui: Ui) -> None:
        ui.dim(90)
        cx = LOGICAL_WIDTH / 2
        ui.shadowed("LEDGEKIT", cx, 272, GOLD, 34, anchor_x="center", bold=True)
        ui.text("a platformer on thick, rounded ground", cx, 252, INK, 8, anchor_x="center")
        rows = len(self.menu.items)
        top = 214
        ui.panel(150, 490, top - 22 * rows + 10, top + 26)
        ui.text("LEVEL", 164, top + 12, MUTED, 7)
        ui.text("BEST", self.BEST_RIGHT, top + 12, MUTED, 7, anchor_x="right")
        ui.text("COINS", self.COINS_RIGHT, top + 12, MUTED, 7, anchor_x="right")
        self.menu.draw(ui, 164, self.COINS_RIGHT, top - 6)
        for i, entry in enumerate(self.levels):
            color = GOLD if i == self.menu.selected else INK
            best, coins = self.columns(entry)
            y = top - 6 - 22 * i
            ui.text(best, self.BEST_RIGHT, y, color, 10, anchor_x="right")
            ui.text(coins, self.COINS_RIGHT, y, color, 10, anchor_x="right")
        ui.text("arrows / d-pad choose    enter / A select    esc / B quit    F11 fullscreen", cx, 16, MUTED, 7,
                anchor_x="center")
        if self.message:
            ui.text(self.message, cx, 32, (255, 130, 130, 255), 7, anchor_x="center")


class PauseMenu:
    """Resume, Restart, Settings, Quit to title; answers ``resume``, ``restart``, ``settings`` or ``title``."""

    ANSWERS = ("resume", "restart", "settings", "title")

    def __init__(self) -> None:
        self.menu = Menu([Item("Resume"), Item("Restart"), Item("Settings"), Item("Quit to title")])

    def command(self, command: str) -> str | None:
        if self.menu.move(command):
            return None
        if command == "confirm":
            return self.ANSWERS[self.menu.selected]
        if command in ("back", "pause"):
            return "resume"
        return None

    def draw(self, ui: Ui) -> None:
        ui.dim(150)
        cx = LOGICAL_WIDTH / 2
        ui.panel(220, 420, 110, 250)
        ui.shadowed("PAUSED", cx, 222, GOLD, 18, anchor_x="center", bold=True)
        self.menu.draw(ui, 240, 400, 190, size=10)


RESETS = "sound 80 %, music 60 %, mute off, scaling auto, every key and gamepad button"
"""What "Reset to defaults" puts back, as the settings screen says it."""

SCALING_NAMES = {"auto": "auto", "pixel": "pixel-perfect", "fill": "fill"}


class SettingsMenu:
    """Volumes, mute, scaling, key and gamepad-button bindings. Every change is applied to ``controls`` and
    saved at once. Answers ``back`` when left; while :attr:`waiting` names a binding, the window sends the next
    key (:meth:`key_pressed`) or gamepad button (:meth:`button_pressed`) here. ``scaled_as`` says how the
    window scales the game now (``pixel`` or ``fill``: what ``auto`` picked)."""

    def __init__(self, settings: Settings, controls: Controls, save: Callable[[], None],
                 scaled_as: Callable[[], str] = lambda: "pixel") -> None:
        self.settings = settings
        self.controls = controls
        self.save = save
        self.scaled_as = scaled_as
        self.waiting: tuple[str, str] | None = None
        """("key", action) or ("button", role) while waiting for the player to press the new one."""
        self.message = ""
        """A line saying what the last command did (shown until the highlight moves)."""
        s = settings
        items = [
            Item("Sound volume", lambda: f"{round(s.sound_volume * 100)} %", lambda: s.sound_volume),
            Item("Music volume", lambda: f"{round(s.music_volume * 100)} %", lambda: s.music_volume),
            Item("Mute", lambda: "on" if s.mute else "off"),
            Item("Scaling", self._scaling_text),
        ]
        items += [Item(f"Key: {a}", self._key_text(a)) for a in ACTIONS]
        items += [Item(f"Gamepad: {r}", self._button_text(r)) for r in BUTTON_ROLES]
        items += [Item("Reset to defaults"), Item("Back")]
        self.menu = Menu(items)

    def _scaling_text(self) -> str:
        chosen = self.settings.scaling
        if chosen == "auto":
            return f"auto (now {SCALING_NAMES[self.scaled_as()]})"
        return SCALING_NAMES[chosen]

    def _key_text(self, action: str) -> Callable[[], str]:
        def text() -> str:
            if self.waiting == ("key", action):
                return "press a key..."
            return ", ".join(key_label(c) for c in self.controls.keys.get(action, ())) or "none"

        return text

    def _button_text(self, role: str) -> Callable[[], str]:
        def text() -> str:
            if self.waiting == ("button", role):
                return "press a button..."
            return f"button {self.controls.buttons.get(role, -1)}"

        return text

    def command(self, command: str) -> str | None:
        if self.waiting is not None:
            if command == "back":
                self.waiting = None
            return None
        if self.menu.move(command):
            self.message = ""
            return None
        row = self.menu.selected
        label = self.menu.items[row].label
        if command == "back" or (command == "confirm" and label == "Back"):
            return "back"
        if label == "Scaling" and command in ("left", "right", "confirm"):
            modes = list(SCALE_MODES)
            step = -1 if command == "left" else 1
            self.settings.scaling = modes[(modes.index(self.settings.scaling) + step) % len(modes)]
            self.save()
            return None
        if label.endswith("volume") and command in ("left", "right"):
            name = "sound_volume" if label.startswith("Sound") else "music_volume"
            value = getattr(self.settings, name) + (0.1 if command == "right" else -0.1)
            setattr(self.settings, name, round(min(1.0, max(0.0, value)), 2))
            self.save()
        elif command == "confirm" and label == "Mute":
            self.settings.mute = not self.settings.mute
            self.save()
        elif command == "confirm" and label.startswith("Key: "):
            self.waiting = ("key", label[len("Key: "):])
        elif command == "confirm" and label.startswith("Gamepad: "):
            self.waiting = ("button", label[len("Gamepad: "):])
        elif command == "confirm" and label == "Reset to defaults":
            self.reset()
        return None

    def reset(self) -> None:
        """Every setting back to its default (see :data:`RESETS`); best times stay."""
        defaults = Settings()
        s = self.settings
        s.sound_volume, s.music_volume, s.mute = defaults.sound_volume, defaults.music_volume, defaults.mute
        s.scaling = defaults.scaling
        self.controls.keys = dict(DEFAULT_KEYS)
        self.controls.buttons = dict(DEFAULT_BUTTONS)
        self._store_bindings()
        self.message = f"reset: {RESETS}"

    def key_pressed(self, symbol: int) -> None:
        """The key for the binding being waited for (Esc cancels instead)."""
        if self.waiting is None or self.waiting[0] != "key":
            return
        if symbol != arcade.key.ESCAPE:
            self.controls.bind_key(self.waiting[1], symbol)
            self._store_bindings()
        self.waiting = None

    def button_pressed(self, index: int) -> None:
        if self.waiting is None or self.waiting[0] != "button":
            return
        self.controls.bind_button(self.waiting[1], index)
        self._store_bindings()
        self.waiting = None

    def _store_bindings(self) -> None:
        self.settings.keys = dict(self.controls.keys)
        self.settings.buttons = dict(self.controls.buttons)
        self.save()

    def draw(self, ui: Ui) -> None:
        ui.dim(170)
        cx = LOGICAL_WIDTH / 2
        rows = len(self.menu.items)
        top = 300
        ui.panel(150, 490, top - 17 * rows - 2, top + 40)
        ui.shadowed("SETTINGS", cx, top + 16, GOLD, 16, anchor_x="center", bold=True)
        self.menu.draw(ui, 166, 474, top - 8, row=17, size=8)
        label = self.menu.items[self.menu.selected].label
        note = self.message or (f"puts back {RESETS}" if label == "Reset to defaults" else
                                "a new key is added (two at most); its own key again takes it off"
                                if label.startswith("Key: ") else "")
        if note:
            ui.text(note, cx, 34, GOLD if self.message else MUTED, 7, anchor_x="center")
        hint = "esc cancels" if self.waiting else "left / right change    enter / A select    esc / B back"
        ui.text(hint, cx, 16, MUTED, 7, anchor_x="center")
