"""The play screen's top line: the level's name at the left, the coins in the middle, the clock at the right;
and the frame clock behind the F1 overlay's numbers."""

from __future__ import annotations

from collections import deque

import arcade
import pyglet

from .menus import INK, SHADOW, Ui
from .screen import LOGICAL_HEIGHT, LOGICAL_WIDTH

__all__ = ["FrameClock", "Hud", "debug_line"]

FIELDS = (("name", 8.0, "left"), ("coins", LOGICAL_WIDTH / 2, "center"), ("clock", LOGICAL_WIDTH - 8.0, "right"))
"""Each label's key, x (logical px) and anchor."""
SIZE = 8.0
"""Font size (logical px)."""


class Hud:
    """The top line as shadowed labels in one pyglet batch, at window resolution like :class:`Ui`'s text: one
    draw for all six labels, and a change lays out only its own label again (the clock changes ten times a
    second, and laying out a whole line again costs the frame as much as drawing its tiles)."""

    def __init__(self) -> None:
        self.scale = 0.0
        self.batch = pyglet.graphics.Batch()
        self.labels: dict[str, tuple[arcade.Text, arcade.Text]] = {}

    def _build(self, scale: float) -> None:
        """The labels for a letterbox ``scale`` (a resize makes them again)."""
        self.scale, self.batch = scale, pyglet.graphics.Batch()
        behind, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)  # shadows under the text
        y = (LOGICAL_HEIGHT - 16) * scale
        self.labels = {key: (
            arcade.Text("", x * scale + 1.5 * scale, y - 1.5 * scale, SHADOW, SIZE * scale, anchor_x=anchor,
                        batch=self.batch, group=behind),
            arcade.Text("", x * scale, y, INK, SIZE * scale, anchor_x=anchor, batch=self.batch, group=front),
        ) for key, x, anchor in FIELDS}

    def draw(self, ui: Ui, name: str, coins: str, clock: str) -> None:
        """Draw the line with these texts (inside :class:`Ui`'s camera, after the game image)."""
        if ui.box.scale != self.scale:
            self._build(ui.box.scale)
        for key, text in (("name", name), ("coins", coins), ("clock", clock)):
            shadow, label = self.labels[key]
            if label.text != text:
                shadow.text = label.text = text
        self.batch.draw()


class FrameClock:
    """The last second of frame times (s, as the window's ``on_update`` receives them), for the F1 overlay:
    frames per second, the mean frame time and the worst one (a stall shows there for a second)."""

    def __init__(self, frames: int = 60) -> None:
        self.times: deque[float] = deque(maxlen=frames)

    def tick(self, dt: float) -> None:
        if dt > 0.0:
            self.times.append(dt)

    @property
    def fps(self) -> float:
        return len(self.times) / sum(self.times) if self.times else 0.0

    @property
    def mean_ms(self) -> float:
        return 1000.0 * sum(self.times) / len(self.times) if self.times else 0.0

    @property
    def worst_ms(self) -> float:
        return 1000.0 * max(self.times, default=0.0)


def debug_line(clock: FrameClock, physics_ms: float) -> str:
    """The F1 overlay's line: fps, frame time (mean and worst of the last second) and one physics step's time."""
    return (f"fps {clock.fps:.0f}   frame {clock.mean_ms:.1f} ms (worst {clock.worst_ms:.1f})   "
            f"physics {physics_ms:.2f} ms/step   F1 hides")
