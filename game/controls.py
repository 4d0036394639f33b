"""Player input for a fixed-step game: action bindings, latched presses, keyboard and gamepad.

Copy this file or import it. The game asks :meth:`Controls.consume` once per physics step for the actions
to apply; everything else (key events, gamepad polling) only feeds it. Two things it guarantees:

- **A press is never lost.** A key pressed and released between two physics steps (a quick tap while the
  display runs faster than the physics, or a slow frame) still counts as held for the next step: presses
  are latched until a step consumes them.
- **Keyboard and gamepad are the same actions.** The d-pad (hat) and the left stick move; gamepad buttons
  are bound by index to actions (jump) and to menu commands (back, pause). A d-pad tap is latched like a
  key's (from pyglet's ``on_joyhat_motion`` events), so a tap between two polls still moves one step.

Menus read *commands* instead of held actions: ``up``, ``down``, ``left``, ``right``, ``confirm``,
``back`` and ``pause``, from :meth:`Controls.command_for_key` and :meth:`Controls.poll_gamepad`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import arcade

__all__ = ["ACTIONS", "BUTTON_ROLES", "DEFAULT_BUTTONS", "DEFAULT_KEYS", "KEYS_PER_ACTION", "Controls", "key_code",
           "key_label", "key_name"]

ACTIONS = ("left", "right", "up", "down", "jump")
"""What the player does in the level (the ``--input`` file's actions)."""

DEFAULT_KEYS: dict[str, tuple[int, ...]] = {
    "left": (arcade.key.LEFT, arcade.key.A),
    "right": (arcade.key.RIGHT, arcade.key.D),
    "up": (arcade.key.UP, arcade.key.W),
    "down": (arcade.key.DOWN, arcade.key.S),
    "jump": (arcade.key.SPACE, arcade.key.Z),
}

KEYS_PER_ACTION = 2
"""How many keys an action can have (the defaults give each two: arrows and WASD, Space and Z)."""

DEFAULT_BUTTONS: dict[str, int] = {"jump": 0, "back": 1, "pause": 7}
"""Gamepad button indices (an XInput-style pad on Linux: A = 0, B = 1, start = 7)."""

BUTTON_ROLES = ("jump", "back", "pause")
"""What a gamepad button can be bound to: the jump action and two menu commands."""

STICK_DEAD_ZONE = 0.4
"""A stick pushed less than this far (of 1) is centred: worn sticks rest a little off centre."""

# Keys whose meaning is fixed, whatever the bindings: menus and the window need them.
_FIXED_COMMANDS = {
    arcade.key.ESCAPE: "back", arcade.key.ENTER: "confirm", arcade.key.RETURN: "confirm",
    arcade.key.NUM_ENTER: "confirm", arcade.key.UP: "up", arcade.key.DOWN: "down",
    arcade.key.LEFT: "left", arcade.key.RIGHT: "right",
}
_ACTION_COMMANDS = {"jump": "confirm", "up": "up", "down": "down", "left": "left", "right": "right"}


def key_name(symbol: int) -> str:
    """A key's name as arcade spells it (``SPACE``, ``Z``, ``LEFT``), for settings files and menus."""
    from pyglet.window.key import symbol_string

    return str(symbol_string(symbol))


KEY_LABELS = {"SPACE": "Space", "LEFT": "Left", "RIGHT": "Right", "UP": "Up", "DOWN": "Down", "RETURN": "Enter",
              "ENTER": "Enter", "LSHIFT": "Shift", "RSHIFT": "Shift", "LCTRL": "Ctrl", "RCTRL": "Ctrl"}
"""How a key is written for players, where pyglet's name (an upper-case constant) reads badly."""


def key_label(symbol: int) -> str:
    """A key's name for players (``Space``, ``Z``, ``Left``, ``1``): menus and signs write keys so."""
    name = key_name(symbol)
    return KEY_LABELS.get(name, name.lstrip("_"))


def key_code(name: str) -> int | None:
    """The key code for a :func:`key_name` name, or ``None`` if there is no such key."""
    from pyglet.window import key as pyglet_keys  # key_name's spelling is pyglet's (``_1`` for the 1 key)

    code = getattr(pyglet_keys, name, None)
    return code if isinstance(code, int) and not isinstance(code, bool) else None


class Controls:
    """Bindings plus the state of keyboard and gamepad; see the module docstring.

    ``keys`` maps each action to the key codes bound to it; ``buttons`` maps ``jump``/``back``/``pause`` to
    a gamepad button index. ``gamepad`` is anything with pyglet's joystick attributes ``x``, ``y``,
    ``hat_x``, ``hat_y`` and ``buttons`` (or ``None``).
    """

    def __init__(self, keys: Mapping[str, tuple[int, ...]] | None = None, buttons: Mapping[str, int] | None = None,
                 gamepad: Any = None) -> None:
        self.keys: dict[str, tuple[int, ...]] = dict(keys or DEFAULT_KEYS)
        self.buttons: dict[str, int] = dict(buttons or DEFAULT_BUTTONS)
        self._keys_down: set[int] = set()
        self._pad_held: frozenset[str] = frozenset()
        self._pad_commands: frozenset[str] = frozenset()
        self._latched: set[str] = set()
        self.gamepad: Any = None
        self.device = "keyboard"
        """What the player used last, ``keyboard`` or ``gamepad`` (hints name that one's controls)."""
        self.attach(gamepad)

    # --- keyboard -------------------------------------------------------------------------------------
    def action_of_key(self, symbol: int) -> str | None:
        return next((action for action, codes in self.keys.items() if symbol in codes), None)

    def key_down(self, symbol: int) -> None:
        self._keys_down.add(symbol)
        self.device = "keyboard"
        action = self.action_of_key(symbol)
        if action is not None:
            self._latched.add(action)

    def key_up(self, symbol: int) -> None:
        self._keys_down.discard(symbol)

    def command_for_key(self, symbol: int) -> str | None:
        """The menu command a key gives: fixed keys (arrows, Enter, Esc) or the bound action's command."""
        if symbol in _FIXED_COMMANDS:
            return _FIXED_COMMANDS[symbol]
        action = self.action_of_key(symbol)
        return _ACTION_COMMANDS.get(action) if action else None

    # --- gamepad --------------------------------------------------------------------------------------
    def attach(self, gamepad: Any) -> None:
        """Use ``gamepad`` (or none). One that sends pyglet's ``on_joybutton_press`` and ``on_joyhat_motion``
        events also latches a jump or a d-pad direction pressed and released between two polls (the step
        after moves that way once; a menu sees the tap as one command)."""
        self.gamepad = gamepad
        if gamepad is not None:
            self.device = "gamepad"
        self._hat_held: frozenset[str] = frozenset()
        self._tapped_commands: set[str] = set()
        if hasattr(gamepad, "push_handlers"):
            gamepad.push_handlers(on_joybutton_press=self._button_pressed, on_joyhat_motion=self._hat_moved)

    def _button_pressed(self, _gamepad: Any, index: int) -> None:
        self.device = "gamepad"
        if index == self.buttons.get("jump"):
            self._latched.add("jump")

    def _hat_moved(self, _gamepad: Any, hat_x: float, hat_y: float) -> None:
        held = _directions(float(hat_x or 0), float(hat_y or 0))
        pressed = held - self._hat_held
        if pressed:
            self.device = "gamepad"
        self._latched |= pressed
        self._tapped_commands |= {_ACTION_COMMANDS[a] for a in pressed}
        self._hat_held = held

    def poll_gamepad(self) -> list[str]:
        """Read the gamepad once (call every frame): updates the held actions, latches new presses, and
        returns the menu commands newly pressed since the last poll (``up``, ``confirm``, ``back``, ...)."""
        pad = self.gamepad
        if pad is None:
            return []
        held = self._read_pad_actions(pad)
        commands = {_ACTION_COMMANDS[a] for a in held if a in _ACTION_COMMANDS}
        pressed = getattr(pad, "buttons", None) or []
        for role in ("back", "pause"):
            index = self.buttons.get(role, -1)
            if 0 <= index < len(pressed) and pressed[index]:
                commands.add(role)
        self._latched |= held - self._pad_held
        if held - self._pad_held or commands - self._pad_commands:
            self.device = "gamepad"
        new_commands = sorted((commands - self._pad_commands) | self._tapped_commands)
        self._tapped_commands.clear()
        self._pad_held, self._pad_commands = frozenset(held), frozenset(commands)
        return new_commands

    def _read_pad_actions(self, pad: Any) -> set[str]:
        x = float(getattr(pad, "hat_x", 0) or 0) or _stick(getattr(pad, "x", 0.0))
        # pyglet: hat_y is +1 up, but the stick's y is +1 *down*.
        y = float(getattr(pad, "hat_y", 0) or 0) or -_stick(getattr(pad, "y", 0.0))
        held = set(_directions(x, y))
        pressed = getattr(pad, "buttons", None) or []
        index = self.buttons.get("jump", -1)
        if 0 <= index < len(pressed) and pressed[index]:
            held.add("jump")
        return held

    def pressed_button(self) -> int | None:
        """The lowest gamepad button held right now (for rebinding), or ``None``."""
        pressed = getattr(self.gamepad, "buttons", None) or []
        return next((i for i, down in enumerate(pressed) if down), None)

    # --- the physics step's view ----------------------------------------------------------------------
    def held(self) -> frozenset[str]:
        """The actions held right now (keyboard and gamepad), without the latch."""
        keys = {a for a, codes in self.keys.items() if self._keys_down.intersection(codes)}
        return frozenset(keys | self._pad_held)

    def consume(self) -> frozenset[str]:
        """The actions for one physics step: held now, or pressed since the last step (then released)."""
        actions = self.held() | self._latched
        self._latched.clear()
        return actions

    def release_all(self) -> None:
        """Forget every key and latch (after a menu closes, so the key that closed it does not act)."""
        self._keys_down.clear()
        self._latched.clear()

    # --- rebinding ------------------------------------------------------------------------------------
    def bind_key(self, action: str, symbol: int) -> None:
        """Add ``symbol`` to ``action``'s keys (taking it away from any other action). An action keeps
        :data:`KEYS_PER_ACTION` keys at most: a new one beyond that replaces the one added last, so the first
        stays (Space for jump, after Z was replaced by X). The key it already has is taken off it instead,
        unless it is the only one (an action always keeps a key)."""
        codes = self.keys.get(action, ())
        if symbol in codes:
            if len(codes) > 1:
                self.keys[action] = tuple(c for c in codes if c != symbol)
            return
        for other, others in self.keys.items():
            self.keys[other] = tuple(c for c in others if c != symbol)
        self.keys[action] = (*codes[:KEYS_PER_ACTION - 1], symbol)

    def bind_button(self, role: str, index: int) -> None:
        """Make gamepad button ``index`` do ``role`` (``jump``, ``back``, ``pause``); a role that had it swaps."""
        for other, held_index in self.buttons.items():
            if held_index == index and other != role:
                self.buttons[other] = self.buttons.get(role, -1)
        self.buttons[role] = index


def _directions(x: float, y: float) -> frozenset[str]:
    """The actions of a direction: ``x`` -1 left / +1 right, ``y`` +1 up / -1 down (0: neither)."""
    held = set()
    if x < 0:
        held.add("left")
    elif x > 0:
        held.add("right")
    if y > 0:
        held.add("up")
    elif y < 0:
        held.add("down")
    return frozenset(held)


def _stick(value: Any) -> float:
    v = float(value or 0.0)
    return 0.0 if abs(v) < STICK_DEAD_ZONE else (1.0 if v > 0 else -1.0)
