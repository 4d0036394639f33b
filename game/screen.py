"""Pixel-perfect presentation: the game draws at a fixed logical resolution into an offscreen texture, which
is shown scaled by the largest whole factor that fits the window (nearest sampling, so every art pixel
becomes a crisp square), centred, with black bars around it. Text (HUD, menus) is drawn afterwards at the
window's own resolution, so it stays sharp at any scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import arcade
from arcade.gl import geometry
from arcade.types import LBWH, LRBT

__all__ = ["LOGICAL_HEIGHT", "LOGICAL_WIDTH", "Letterbox", "PixelScreen", "letterbox"]

LOGICAL_WIDTH, LOGICAL_HEIGHT = 640, 360
"""The game's resolution: 20 x 11 of the 32 px tiles, a 20 x 32 hero a tenth of the height; 16:9, so
1280 x 720 shows it at 2x, 1920 x 1080 at 3x and 2560 x 1440 at 4x with no bars."""


@dataclass(frozen=True)
class Letterbox:
    """Where the scaled game sits in the window: whole-number ``scale``, lower-left ``x, y``, size ``w, h``."""

    scale: int
    x: int
    y: int
    w: int
    h: int

    def to_window(self, lx: float, ly: float) -> tuple[float, float]:
        """A logical point's window position (for crisp text placed over the game)."""
        return self.x + lx * self.scale, self.y + ly * self.scale


def letterbox(window_w: int, window_h: int, logical_w: int = LOGICAL_WIDTH,
              logical_h: int = LOGICAL_HEIGHT) -> Letterbox:
    """The largest whole scale that fits (at least 1: a window smaller than the game crops it, centred)."""
    scale = max(1, min(window_w // logical_w, window_h // logical_h))
    w, h = logical_w * scale, logical_h * scale
    return Letterbox(scale, (window_w - w) // 2, (window_h - h) // 2, w, h)


class PixelScreen:
    """The offscreen game image and its scaled blit. Draw the game between :meth:`begin` and :meth:`end`
    (``camera`` is a :class:`arcade.Camera2D` made by :meth:`world_camera`), then :meth:`present`."""

    def __init__(self, window: arcade.Window, width: int = LOGICAL_WIDTH, height: int = LOGICAL_HEIGHT) -> None:
        self.window = window
        self.size = (width, height)
        ctx = window.ctx
        self.texture = ctx.texture((width, height), components=4, filter=(ctx.NEAREST, ctx.NEAREST))
        self.framebuffer = ctx.framebuffer(color_attachments=[self.texture])
        self.quad = geometry.quad_2d_fs()
        # Text over the game: 1:1 window pixels inside the letterbox, origin at its lower-left corner.
        self.gui = arcade.Camera2D()
        self.resize(*window.get_framebuffer_size())

    def world_camera(self) -> arcade.Camera2D:
        """A camera that draws into the offscreen image (logical pixels)."""
        w, h = self.size
        return arcade.Camera2D(viewport=LBWH(0, 0, w, h), render_target=self.framebuffer)

    def resize(self, window_w: int, window_h: int) -> Letterbox:
        box = self.box = letterbox(window_w, window_h, *self.size)
        self.gui.viewport = LBWH(box.x, box.y, box.w, box.h)
        # A Camera2D's projection is around its position: centre both on the letterbox.
        self.gui.projection = LRBT(-box.w / 2, box.w / 2, -box.h / 2, box.h / 2)
        self.gui.position = (box.w / 2, box.h / 2)
        return box

    def present(self) -> None:
        """Clear the window black (the bars) and show the game image scaled into the letterbox."""
        ctx = self.window.ctx
        ctx.screen.use()
        if (self.box.x, self.box.y) != (0, 0) or (self.box.w, self.box.h) != tuple(ctx.screen.size):
            ctx.screen.clear(color=(0, 0, 0, 255))  # only when there are bars: a full-window clear costs
        ctx.viewport = (self.box.x, self.box.y, self.box.w, self.box.h)
        ctx.scissor = None
        self.texture.use(0)
        program = ctx.utility_textured_quad_program
        with ctx.enabled_only():
            self.quad.render(program)
        self.gui.use()
