"""Presentation at any window size: the game draws at a fixed logical resolution into an offscreen texture,
which is shown scaled into the window, centred, with black bars around it, always with nearest sampling (no
blur). Two ways to scale: **pixel-perfect**, the largest whole factor that fits (every art pixel a crisp
square of the same size), and **fill**, the largest factor that fits (not only whole numbers: some art
pixels are a screen pixel wider than others, and no window is left mostly black). ``auto``, the default,
takes pixel-perfect when it uses at least :data:`AUTO_PIXEL_SHARE` of the area fill would use, else fill.
Text (HUD, menus) is drawn afterwards at the window's own resolution, so it stays sharp at any scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import arcade
from arcade.gl import geometry
from arcade.types import LBWH, LRBT

__all__ = ["AUTO_PIXEL_SHARE", "LOGICAL_HEIGHT", "LOGICAL_WIDTH", "SCALE_MODES", "Letterbox", "PixelScreen",
           "letterbox"]

LOGICAL_WIDTH, LOGICAL_HEIGHT = 640, 360
"""The game's resolution: 20 x 11 of the 32 px tiles, a 20 x 32 hero a tenth of the height; 16:9, so
1280 x 720 shows it at 2x, 1920 x 1080 at 3x and 2560 x 1440 at 4x with no bars."""


SCALE_MODES = ("auto", "pixel", "fill")
"""How the game is scaled into the window (a setting): see the module docstring."""

AUTO_PIXEL_SHARE = 0.8
"""``auto`` is pixel-perfect while that covers at least this share of the area fill would cover: 1280 x 720
(2x, all of it), 1366 x 768 (2x, 88 %), 1920 x 1200 (3x, 100 %); else fill: 1200 x 700 (1x would use 28 %)."""


@dataclass(frozen=True)
class Letterbox:
    """Where the scaled game sits in the window: ``scale`` (window px per logical px: whole when
    pixel-perfect, any when filling), lower-left ``x, y`` and size ``w, h`` in window px, and ``mode``,
    the way it was scaled (``pixel`` or ``fill``)."""

    scale: float
    x: int
    y: int
    w: int
    h: int
    mode: str = "pixel"

    def to_window(self, lx: float, ly: float) -> tuple[float, float]:
        """A logical point's window position (for crisp text placed over the game)."""
        return self.x + lx * self.scale, self.y + ly * self.scale


def letterbox(window_w: int, window_h: int, logical_w: int = LOGICAL_WIDTH,
              logical_h: int = LOGICAL_HEIGHT, mode: str = "auto") -> Letterbox:
    """The game's place in a window: ``pixel``, the largest whole scale that fits (at least 1: a window
    smaller than the game crops it, centred); ``fill``, the largest scale that fits; ``auto``, pixel
    unless that uses under :data:`AUTO_PIXEL_SHARE` of what fill would (then fill)."""
    if mode not in SCALE_MODES:
        raise ValueError(f"scale mode must be one of {', '.join(SCALE_MODES)}, got {mode!r}")
    fit = min(window_w / logical_w, window_h / logical_h)
    whole = max(1, min(window_w // logical_w, window_h // logical_h))
    if mode == "auto":
        mode = "pixel" if whole <= fit and (whole / fit) ** 2 >= AUTO_PIXEL_SHARE else "fill"
    scale: float = whole if mode == "pixel" else fit
    w, h = round(logical_w * scale), round(logical_h * scale)
    return Letterbox(scale, (window_w - w) // 2, (window_h - h) // 2, w, h, mode)


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
        self.mode = "auto"
        """How the game is scaled into the window, one of :data:`SCALE_MODES` (change it with :meth:`set_mode`)."""
        self.window_size = window.get_framebuffer_size()
        """The window's size (framebuffer px) at the last :meth:`resize`."""
        # Text over the game: 1:1 window pixels inside the letterbox, origin at its lower-left corner.
        self.gui = arcade.Camera2D()
        self.resize(*window.get_framebuffer_size())

    def world_camera(self) -> arcade.Camera2D:
        """A camera that draws into the offscreen image (logical pixels)."""
        w, h = self.size
        return arcade.Camera2D(viewport=LBWH(0, 0, w, h), render_target=self.framebuffer)

    def resize(self, window_w: int, window_h: int) -> Letterbox:
        self.window_size = (window_w, window_h)
        box = self.box = letterbox(window_w, window_h, *self.size, mode=self.mode)
        self.gui.viewport = LBWH(box.x, box.y, box.w, box.h)
        # A Camera2D's projection is around its position: centre both on the letterbox.
        self.gui.projection = LRBT(-box.w / 2, box.w / 2, -box.h / 2, box.h / 2)
        self.gui.position = (box.w / 2, box.h / 2)
        return box

    def set_mode(self, mode: str) -> Letterbox:
        """Scale the game another way (one of :data:`SCALE_MODES`) in the same window; the new letterbox."""
        self.mode = mode
        return self.resize(*self.window_size)

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
