"""Signs that teach inside the level: every ``Sign`` object of a map is a post in the ground, and when the hero
comes near, a panel over it shows its text. A text names controls by action in square brackets
(``"[down] + [jump] drops through thin floors"``); they are written with the player's current bindings, as
keys on the keyboard (``Down / S + Space / Z``) or as gamepad buttons once the gamepad was used last
(``d-pad down + A``), so a rebinding or a gamepad shows at once in every sign.

The rules (which signs, their text, which are near) are plain functions the tests call headless;
:class:`SignView` draws them: posts into the game image, panels at the window's resolution (crisp text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import arcade
from PIL import Image

from engine import Level, LevelError, LevelObject

from .controls import ACTIONS, Controls, key_label

if TYPE_CHECKING:
    from .menus import Ui

__all__ = ["NEAR", "Sign", "SignView", "control_name", "hint_text", "signs_of", "visible_signs"]

TOKEN = re.compile(r"\[([^\]]*)\]")
"""A control in a sign's text: an action's name in square brackets."""

NEAR = (112.0, 96.0)
"""A sign shows its panel while the hero's centre is within this many px of the post's foot, sideways and
up or down (three and a half tiles and three tiles): he reads it as he walks up, before the lesson."""

BUTTON_NAMES = {0: "A", 1: "B", 2: "X", 3: "Y", 4: "LB", 5: "RB", 6: "back", 7: "start"}
"""XInput-style pads on Linux (the defaults in :mod:`game.controls`)."""

@dataclass(frozen=True)
class Sign:
    """A sign of the level: ``foot`` is where its post stands (engine frame: px, y up, the object's bottom
    centre), ``text`` its text with controls in square brackets, ``id`` the Tiled object's id."""

    id: int
    foot: tuple[float, float]
    text: str


def signs_of(level: Level) -> list[Sign]:
    """The level's signs in map order. A sign whose text is empty or names a control that is not an action
    raises :class:`LevelError` naming the file, layer and object."""
    return [_sign(level, obj) for obj in level.objects if obj.cls == "Sign"]


def _sign(level: Level, obj: LevelObject) -> Sign:
    where = f"{level.path}: layer {obj.layer!r}, object {obj.id}" + (f" {obj.name!r}" if obj.name else "")
    text = str(obj.properties.get("text", "")).strip()
    if not text:
        raise LevelError(f"{where} (Sign): its text is empty; give it a text property")
    for name in TOKEN.findall(text):
        if name not in ACTIONS:
            raise LevelError(f"{where} (Sign): [{name}] in its text is not a control; "
                             f"use {', '.join(f'[{a}]' for a in ACTIONS)}")
    x, y = obj.position
    return Sign(obj.id, (x, y - obj.size[1] / 2), text)


def control_name(action: str, controls: Controls) -> str:
    """How the player presses ``action`` now: its keys (``Space / Z``), or on the gamepad (``A``,
    ``d-pad down``) when the gamepad was the last thing used."""
    if controls.device == "gamepad":
        if action == "jump":
            index = controls.buttons.get("jump", -1)
            return BUTTON_NAMES.get(index, f"button {index}")
        return f"d-pad {action}"
    return " / ".join(key_label(code) for code in controls.keys.get(action, ())) or f"(no key for {action})"


def hint_text(text: str, controls: Controls) -> str:
    """A sign's text with each ``[action]`` written as the player's current control for it."""
    return TOKEN.sub(lambda m: control_name(m.group(1), controls), text)


def visible_signs(signs: list[Sign], hero: tuple[float, float]) -> list[Sign]:
    """The signs near enough to the hero (engine frame, px) to show their panel (see :data:`NEAR`)."""
    hx, hy = hero
    return [s for s in signs if abs(s.foot[0] - hx) <= NEAR[0] and abs(s.foot[1] - hy) <= NEAR[1]]


WOOD, WOOD_DARK, WOOD_LIGHT, INK_LINE = (150, 98, 56, 255), (88, 56, 34, 255), (196, 142, 86, 255), (92, 62, 40, 255)


def post_image() -> Image.Image:
    """A signpost, 24 x 30 px, its foot at the bottom centre: a board with two lines of writing on a post, in
    the tiles' flat style (a dark rim, a light top edge, no smoothing)."""
    img = Image.new("RGBA", (24, 30), (0, 0, 0, 0))
    for y in range(12, 30):  # the post
        for x in (11, 12):
            img.putpixel((x, y), WOOD_DARK if x == 12 else WOOD)
    for y in range(0, 14):  # the board
        for x in range(0, 24):
            edge = x in (0, 23) or y in (0, 13)
            img.putpixel((x, y), WOOD_DARK if edge else WOOD_LIGHT if y == 1 else WOOD)
    for y, (a, b) in ((4, (4, 19)), (8, (4, 15))):  # the writing
        for x in range(a, b):
            img.putpixel((x, y), INK_LINE)
    return img


class SignView:
    """Draws a level's signs: :meth:`draw_posts` inside the world camera (logical px of the game image),
    :meth:`draw_panels` afterwards at window resolution through a :class:`~game.menus.Ui`."""

    TEXT_SIZE = 8.0
    """Panel text size (logical px, as the HUD's)."""

    def __init__(self, signs: list[Sign]) -> None:
        self.signs = signs
        texture = arcade.Texture(post_image(), hash="signpost")
        self.posts: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        for sign in signs:
            post = arcade.Sprite(texture)
            post.center_x, post.bottom = sign.foot[0], sign.foot[1]
            self.posts.append(post)

    def draw_posts(self) -> None:
        self.posts.draw(pixelated=True)

    def draw_panels(self, ui: Ui, hero: tuple[float, float], camera: tuple[float, float],
                    view: tuple[float, float], controls: Controls) -> None:
        """A panel over each sign near the hero, its text written with ``controls``' bindings. ``camera`` is
        the view's centre (engine frame, px), ``view`` its size in logical px."""
        for sign in visible_signs(self.signs, hero):
            text = hint_text(sign.text, controls)
            half = ui.text_width(text, self.TEXT_SIZE) / 2 + 8
            # The post's top on the screen (logical px), the panel above it, kept whole inside the view.
            x = sign.foot[0] - camera[0] + view[0] / 2
            y = sign.foot[1] + 30 - camera[1] + view[1] / 2
            cx = min(max(x, half + 4), view[0] - half - 4)
            bottom = min(max(y + 8, 4), view[1] - 48)
            ui.rect(x - 3, x + 3, bottom - 5, bottom, (250, 210, 90, 200))  # the tail, pointing at the post
            ui.panel(cx - half, cx + half, bottom, bottom + 18)
            ui.text(text, cx, bottom + 5, (236, 238, 246, 255), self.TEXT_SIZE, anchor_x="center")
