"""A platformer's follow camera, as pure math: where the view's centre goes as the hero moves (no arcade; a game
sets its own camera's position from :attr:`FollowCamera.position` each frame).

What it does, in the order :meth:`FollowCamera.follow` applies it:

* **Look-ahead**: the point followed leads the hero by up to :attr:`CameraConfig.look_ahead` px in the direction
  he runs, easing over as he turns, so the player sees where he is going.
* **Dead zone**: inside a box around the view's centre the hero moves without moving the camera (no jitter
  from small hops); outside it the camera eases toward him (exponential smoothing, frame-rate independent).
* **Margins**: whatever the smoothing's lag, the hero's box is never closer than :attr:`CameraConfig.margin`
  px to the view's edges (a fast fall or a high jump moves the camera at once).
* **Map bounds**: the view never shows past the map's left or right edge, nor past its bottom by more than
  :attr:`CameraConfig.below_map`; above the map's top it follows the hero (the game draws its sky there), so a
  jump that leaves the map's top keeps him in view.
* **Whole pixels**: :attr:`FollowCamera.position` is rounded, so tiles do not shimmer in a scaled-up image.

Units: pixels and seconds, engine frame (y up, origin at the map's bottom-left); positions are view centres.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CameraConfig", "FollowCamera"]


@dataclass(frozen=True)
class CameraConfig:
    """How a :class:`FollowCamera` follows; validated when made."""

    dead_zone: tuple[float, float] = (0.12, 0.15)
    """Half-size of the dead zone as fractions of the view's width and height (77 x 54 px of a 640 x 360 view)."""
    look_ahead: float = 48.0
    """How far (px) the followed point leads the hero in his running direction; 0 for none."""
    look_ahead_speed: float = 120.0
    """How fast (px/s) the lead moves over when the hero turns (it takes 0.8 s to swing 96 px across)."""
    running_speed: float = 30.0
    """The horizontal speed (px/s) above which the hero counts as running in a direction (slower keeps the lead)."""
    smoothing: float = 0.0005
    """The fraction of the distance to its target left after one second (0.0005: about 12 % closes per 60 Hz
    frame); 0 snaps at once."""
    margin: float = 48.0
    """Least distance (px) kept between the followed box and the view's edges, whatever the smoothing's lag."""
    below_map: float = 0.0
    """How far (px) the view may go below the map's bottom edge when the margin asks for it (a hero on a floor
    near the map's bottom); 0 makes the bottom a hard edge. The game draws what shows there."""

    def __post_init__(self) -> None:
        fractions_ok = all(0.0 <= f < 0.5 for f in self.dead_zone)
        if not fractions_ok or len(self.dead_zone) != 2:
            raise ValueError(f"dead_zone must be two fractions in [0, 0.5), got {self.dead_zone}")
        for name in ("look_ahead", "look_ahead_speed", "running_speed", "margin", "below_map"):
            value = getattr(self, name)
            if not value >= 0.0:  # (also refuses NaN)
                raise ValueError(f"{name} must be >= 0, got {value}")
        if not 0.0 <= self.smoothing < 1.0:
            raise ValueError(f"smoothing must be in [0, 1), got {self.smoothing}")


class FollowCamera:
    """The centre of a view of ``view_size`` (px) over a map of ``map_size`` (px), following one box.

    Call :meth:`snap` when a level starts (or the hero respawns far away), then :meth:`follow` once per drawn
    frame; read :attr:`position` for the camera. ``x`` and ``y`` hold the unrounded centre.
    """

    def __init__(self, view_size: tuple[float, float], map_size: tuple[float, float],
                 config: CameraConfig | None = None) -> None:
        self.view_size = view_size
        self.map_size = map_size
        self.config = config or CameraConfig()
        self.x, self.y = view_size[0] / 2, view_size[1] / 2
        self.lead = 0.0
        """The look-ahead's current offset (px, + right)."""

    @property
    def position(self) -> tuple[int, int]:
        """The view's centre in whole pixels (what to give the drawing camera)."""
        return round(self.x), round(self.y)

    @property
    def view(self) -> tuple[float, float, float, float]:
        """The view's (left, bottom, right, top) edges at :attr:`position`, px."""
        (x, y), (w, h) = self.position, self.view_size
        return x - w / 2, y - h / 2, x + w / 2, y + h / 2

    def snap(self, x: float, y: float, half_size: tuple[float, float] = (0.0, 0.0)) -> None:
        """Centre on the point ``(x, y)`` at once (inside the map's bounds), with no lead."""
        self.lead = 0.0
        self.x, self.y = x, y
        self._keep_in_view(x, y, half_size)

    def follow(self, x: float, y: float, dt: float, *, velocity_x: float = 0.0,
               half_size: tuple[float, float] = (0.0, 0.0)) -> None:
        """Move toward the box of centre ``(x, y)`` and ``half_size`` (px) after ``dt`` seconds; ``velocity_x``
        (px/s, + right) is the hero's, for the look-ahead."""
        cfg = self.config
        if abs(velocity_x) > cfg.running_speed:
            wanted = cfg.look_ahead if velocity_x > 0 else -cfg.look_ahead
            turn = cfg.look_ahead_speed * dt
            self.lead += max(-turn, min(turn, wanted - self.lead))
        dead_x, dead_y = cfg.dead_zone[0] * self.view_size[0], cfg.dead_zone[1] * self.view_size[1]
        target_x = _into_dead_zone(self.x, x + self.lead, dead_x)
        target_y = _into_dead_zone(self.y, y, dead_y)
        k = 1.0 - pow(cfg.smoothing, dt) if cfg.smoothing > 0.0 else 1.0
        self.x += (target_x - self.x) * k
        self.y += (target_y - self.y) * k
        self._keep_in_view(x, y, half_size)

    def _keep_in_view(self, x: float, y: float, half_size: tuple[float, float]) -> None:
        """The margins around the box, then the map's bounds (the top one only while the box is below it, the
        bottom one moved down by up to ``below_map`` for the margin)."""
        (w, h), (map_w, _) = self.view_size, self.map_size
        # (Half a pixel less: the rounded position must keep the margin too.)
        reach_x = max(0.0, w / 2 - self.config.margin - half_size[0] - 0.5)
        reach_y = max(0.0, h / 2 - self.config.margin - half_size[1] - 0.5)
        self.x = min(max(self.x, x - reach_x), x + reach_x)
        self.y = min(max(self.y, y - reach_y), y + reach_y)
        self.x = w / 2 if map_w <= w else min(max(self.x, w / 2), map_w - w / 2)
        lowest = max(h / 2 - self.config.below_map, min(h / 2, y + reach_y))
        highest = max(self._top_bound(), y - reach_y)
        self.y = max(min(self.y, highest), lowest)

    def _top_bound(self) -> float:
        """The highest centre that shows nothing above the map (the lowest, for a map shorter than the view)."""
        h, map_h = self.view_size[1], self.map_size[1]
        return max(h / 2, map_h - h / 2)


def _into_dead_zone(centre: float, point: float, half: float) -> float:
    """The centre that brings ``point`` just inside a dead zone of half-size ``half`` around it (or the centre)."""
    if point > centre + half:
        return point - half
    if point < centre - half:
        return point + half
    return centre
