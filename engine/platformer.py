"""Platformer feel on top of the mover: run, jump, gravity and the small forgiving touches players expect.

:class:`PlatformerController` turns a :class:`PlatformerInput` into the character's velocity each frame,
*before* ``World.step``. It implements run acceleration and deceleration (ground and air), gravity with a
terminal velocity, variable jump height (releasing jump cuts the rise), coyote time (a jump still works
shortly after running off a ledge), jump buffering (a jump pressed shortly before landing happens on
landing), lighter gravity near the apex while jump is held, heavier gravity when falling, head-bump corner
correction (slip around a ceiling corner instead of stopping), drop-through of one-way floors (down +
jump), inheriting a moving platform's velocity when leaving it, and optional wall slide / wall jump.

Every value lives in :class:`PlatformerConfig`; the defaults are tuned for a 20 x 32 px hero in a
32 px tile world. Units: pixels, seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from .character import Character
from .geometry import Vec2
from .types import MovingBody, WorldError, require_nonnegative

__all__ = ["PlatformerConfig", "PlatformerController", "PlatformerInput"]


class PlatformerInput(NamedTuple):
    """Buttons held this frame."""

    left: bool = False
    right: bool = False
    up: bool = False
    down: bool = False
    jump: bool = False


@dataclass(frozen=True)
class PlatformerConfig:
    """Feel tunables (pixels, seconds). Validated when made."""

    run_speed: float = 250.0
    """Top lateral speed, px/s."""
    ground_acceleration: float = 2400.0
    """px/s^2 towards ``run_speed`` while a direction is held on the ground (0 to full in ~0.1 s)."""
    ground_deceleration: float = 3000.0
    """px/s^2 towards rest with no direction held on the ground (or when turning)."""
    air_acceleration: float = 1600.0
    """px/s^2 towards ``run_speed`` while a direction is held in the air."""
    air_deceleration: float = 700.0
    """px/s^2 towards rest with no direction held in the air (keeps some momentum)."""
    gravity: float | None = None
    """px/s^2 downwards. ``None`` takes the world's gravity (its length, along ``-up``)."""
    terminal_velocity: float = 900.0
    """Fastest fall, px/s."""
    jump_height: float = 88.0
    """Apex height of a full (held) jump, px, under normal gravity; a bit more with apex gravity on."""
    jump_cut: float = 0.45
    """Upward speed is multiplied by this when jump is released during the rise (variable jump height)."""
    coyote_time: float = 0.1
    """Seconds after leaving the ground during which a jump still works."""
    jump_buffer: float = 0.12
    """Seconds a jump pressed in the air is remembered and done on landing."""
    apex_threshold: float = 90.0
    """px/s. While jump is held and the vertical speed is below this, gravity is lighter (hang time)."""
    apex_gravity_multiplier: float = 0.55
    fall_gravity_multiplier: float = 1.5
    """Gravity multiplier while falling: quicker falls read as weight."""
    corner_correction: float = 6.0
    """Pixels. A rising character whose head would catch a ceiling corner slips sideways up to this far."""
    inherit_platform_velocity: bool = True
    """Leaving a moving platform (jumping or walking off) adds its velocity."""
    wall_slide: bool = False
    """Slide slowly down walls while pushing into them, and jump off them."""
    wall_slide_speed: float = 110.0
    """Fastest fall while wall sliding, px/s."""
    wall_jump_velocity: Vec2 = (280.0, 540.0)
    """(away from the wall, up) px/s given by a wall jump."""
    wall_jump_lock: float = 0.14
    """Seconds after a wall jump during which pushing back towards the wall is ignored."""

    def __post_init__(self) -> None:
        require_nonnegative(self, (
            "run_speed", "ground_acceleration", "ground_deceleration", "air_acceleration", "air_deceleration",
            "terminal_velocity", "jump_height", "coyote_time", "jump_buffer", "apex_threshold",
            "apex_gravity_multiplier", "fall_gravity_multiplier", "corner_correction", "wall_slide_speed",
            "wall_jump_lock",
        ))
        if not (0.0 <= self.jump_cut <= 1.0):
            raise WorldError(f"PlatformerConfig.jump_cut must be within [0, 1], got {self.jump_cut!r}")
        if self.gravity is not None and not (math.isfinite(self.gravity) and self.gravity >= 0):
            raise WorldError(f"PlatformerConfig.gravity must be None or a number >= 0, got {self.gravity!r}")


def _approach(value: float, target: float, step: float) -> float:
    if value < target:
        return min(value + step, target)
    return max(value - step, target)


@dataclass(eq=False)
class PlatformerController:
    """Drives one :class:`~engine.character.Character`. Call :meth:`update` once per fixed step, before
    ``World.step``. ``events`` lists what happened in the last update and step (``"jump"``,
    ``"wall_jump"``, ``"land"``, ``"drop_through"``), for sounds and particles."""

    character: Character
    config: PlatformerConfig = field(default_factory=PlatformerConfig)
    events: list[str] = field(default_factory=list)
    facing: int = 1
    wall_sliding: bool = False
    _coyote: float = 0.0
    _buffer: float = 0.0
    _jump_held_before: bool = False
    _rising_from_jump: bool = False
    _riding: "MovingBody | Character | None" = None
    _wall_lock: float = 0.0
    _wall_lock_direction: int = 0
    _was_on_floor: bool = False
    _climb: tuple[float, float] | None = None
    """(vertical, lateral) climbing speeds while on a ladder, px/s; ``None`` when not climbing."""

    @property
    def gravity(self) -> float:
        if self.config.gravity is not None:
            return self.config.gravity
        gx, gy = self.character.scene.gravity
        return math.hypot(gx, gy)

    @property
    def jump_speed(self) -> float:
        """Take-off speed that reaches ``jump_height`` under normal gravity, px/s."""
        return math.sqrt(2.0 * self.gravity * self.config.jump_height)

    # ---------------------------------------------------------------- what other objects ask of it
    @property
    def climbing(self) -> bool:
        """On a ladder: up/down climb, no gravity, jump leaves (see :meth:`start_climbing`)."""
        return self._climb is not None

    def start_climbing(self, speed: float, lateral_speed: float | None = None) -> None:
        """Hold on to a ladder: up/down move at ``speed`` px/s, left/right at ``lateral_speed`` (default half
        the run speed), no gravity, until :meth:`stop_climbing` or a jump."""
        if not (math.isfinite(speed) and speed > 0):
            raise WorldError(f"climbing speed must be a positive number of px/s, got {speed!r}")
        lateral = 0.5 * self.config.run_speed if lateral_speed is None else float(lateral_speed)
        self._climb = (float(speed), lateral)
        self._riding = None
        self._rising_from_jump = False

    def stop_climbing(self) -> None:
        self._climb = None

    def launch(self, speed: float) -> None:
        """Leave the floor upwards at ``speed`` px/s right now (a spring, a stomp's bounce): like a jump that
        letting go of the button does not cut."""
        if not (math.isfinite(speed) and speed >= 0):
            raise WorldError(f"launch speed must be a number of px/s >= 0, got {speed!r}")
        ch = self.character
        ux, uy = ch.config.up
        rx, ry = uy, -ux
        lateral = ch.velocity[0] * rx + ch.velocity[1] * ry
        ch.velocity = (rx * lateral + ux * speed, ry * lateral + uy * speed)
        ch.leave_floor()
        self._climb = None
        self._riding = None
        self._rising_from_jump = False
        self._coyote = 0.0

    def update(self, buttons: PlatformerInput, dt: float) -> None:
        """Set the character's velocity for the coming step from the buttons held (``dt``: the step's seconds,
        > 0)."""
        if not (isinstance(dt, (int, float)) and math.isfinite(dt) and dt > 0):
            raise WorldError(f"PlatformerController.update: dt must be a positive number of seconds, got {dt!r}")
        ch = self.character
        ux, uy = ch.config.up
        rx, ry = uy, -ux  # "right" for an up vector (0, 1) is +x
        self.events = []
        if ch.on_floor and not self._was_on_floor:
            self.events.append("land")
        self._was_on_floor = ch.on_floor
        vx, vy = ch.velocity
        lateral, vertical = self._timers(buttons, dt, vx * rx + vy * ry, vx * ux + vy * uy)
        if self._climb is not None:
            lateral, vertical = self._climbing(buttons)
            ch.velocity = (rx * lateral + ux * vertical, ry * lateral + uy * vertical)
            return
        direction = self._direction(buttons)
        lateral = self._run(direction, lateral, dt)
        vertical = self._fall(buttons, vertical, dt)
        vertical = self._wall_slide(direction, vertical)
        if self._buffer > 0:
            lateral, vertical = self._jump(buttons, lateral, vertical)
        # Variable jump height: letting go early cuts the rise once.
        if self._rising_from_jump and not buttons.jump and vertical > 0:
            vertical *= self.config.jump_cut
            self._rising_from_jump = False
        ch.velocity = (rx * lateral + ux * vertical, ry * lateral + uy * vertical)
        if vertical > 0 and self.config.corner_correction > 0:
            self._correct_head_bump(vertical * dt)

    def _climbing(self, buttons: PlatformerInput) -> tuple[float, float]:
        """(lateral, vertical) velocity on a ladder; a jump lets go of it and jumps."""
        assert self._climb is not None
        speed, lateral_speed = self._climb
        direction = self._direction(buttons)
        if self._buffer > 0:
            self._climb = None
            self._buffer = 0.0
            self._rising_from_jump = True
            self.character.leave_floor()
            self.events.append("jump")
            return direction * self.config.run_speed, self.jump_speed
        return direction * lateral_speed, (int(buttons.up) - int(buttons.down)) * speed

    def _platform_velocity(self) -> tuple[float, float]:
        """The (lateral, upward) velocity of the platform last stood on (px/s; upward never negative)."""
        assert self._riding is not None
        ux, uy = self.character.config.up
        pvx, pvy = self._riding.velocity
        return pvx * uy - pvy * ux, max(pvx * ux + pvy * uy, 0.0)

    def _timers(self, buttons: PlatformerInput, dt: float, lateral: float, vertical: float) -> tuple[float, float]:
        """Coyote time, jump buffer and wall-jump lock; walking off a moving platform keeps its momentum.
        Returns the (lateral, vertical) velocity to start from."""
        cfg, ch = self.config, self.character
        if ch.on_floor:
            self._coyote = cfg.coyote_time
            self._rising_from_jump = False
            self._riding = ch.platform
        else:
            self._coyote = max(self._coyote - dt, 0.0)
            if self._riding is not None and cfg.inherit_platform_velocity:
                # Walked (or was pushed) off a moving platform: keep its momentum.
                p_lateral, p_up = self._platform_velocity()
                lateral, vertical = lateral + p_lateral, vertical + p_up
                self._riding = None
        pressed = buttons.jump and not self._jump_held_before
        self._jump_held_before = buttons.jump
        self._buffer = cfg.jump_buffer if pressed else max(self._buffer - dt, 0.0)
        self._wall_lock = max(self._wall_lock - dt, 0.0)
        return lateral, vertical

    def _direction(self, buttons: PlatformerInput) -> int:
        """-1, 0 or 1: the run direction held (a wall jump locks out the way back for a moment)."""
        direction = int(buttons.right) - int(buttons.left)
        if self._wall_lock > 0 and direction == self._wall_lock_direction:
            direction = 0
        if direction:
            self.facing = direction
        return direction

    def _run(self, direction: int, lateral: float, dt: float) -> float:
        cfg = self.config
        if self.character.on_floor:
            rate = cfg.ground_acceleration if direction and direction * lateral >= 0 else cfg.ground_deceleration
        else:
            rate = cfg.air_acceleration if direction else cfg.air_deceleration
        return _approach(lateral, direction * cfg.run_speed, rate * dt)

    def _fall(self, buttons: PlatformerInput, vertical: float, dt: float) -> float:
        """Gravity: none standing, lighter at the apex while jump is held, heavier falling, capped."""
        cfg = self.config
        if self.character.on_floor and vertical <= 0:
            return 0.0
        multiplier = 1.0
        if buttons.jump and abs(vertical) < cfg.apex_threshold:
            multiplier = cfg.apex_gravity_multiplier
        elif vertical < 0:
            multiplier = cfg.fall_gravity_multiplier
        return max(vertical - self.gravity * multiplier * dt, -cfg.terminal_velocity)

    def _wall_slide(self, direction: int, vertical: float) -> float:
        cfg, ch = self.config, self.character
        self.wall_sliding = False
        if not cfg.wall_slide:
            return vertical
        wall = self._wall_side()
        if wall and direction * wall < 0 and not ch.on_floor and vertical < 0:
            self.wall_sliding = True
            return max(vertical, -cfg.wall_slide_speed)
        return vertical

    def _wall_side(self) -> int:
        """+1 when the wall touched faces right (it is on our left), -1 when it faces left, 0 for no wall."""
        ch = self.character
        if not ch.on_wall or ch.wall_normal is None:
            return 0
        ux, uy = ch.config.up
        return 1 if ch.wall_normal[0] * uy - ch.wall_normal[1] * ux > 0 else -1

    def _jump(self, buttons: PlatformerInput, lateral: float, vertical: float) -> tuple[float, float]:
        """A buffered jump: drop through a one-way floor (down + jump), jump from the floor (or within coyote
        time), or jump off a wall."""
        cfg, ch = self.config, self.character
        wall = self._wall_side()
        if buttons.down and ch.on_floor and ch.drop_through():
            self._buffer = 0.0
            self.events.append("drop_through")
        elif ch.on_floor or self._coyote > 0:
            vertical = self.jump_speed
            if cfg.inherit_platform_velocity and self._riding is not None:
                p_lateral, p_up = self._platform_velocity()
                lateral, vertical = lateral + p_lateral, vertical + p_up
            self._riding = None
            ch.leave_floor()  # leave now: no carry by the platform this step (its speed is ours)
            self._buffer = self._coyote = 0.0
            self._rising_from_jump = True
            self.events.append("jump")
        elif cfg.wall_slide and wall:
            lateral, vertical = wall * cfg.wall_jump_velocity[0], cfg.wall_jump_velocity[1]
            self._wall_lock = cfg.wall_jump_lock
            self._wall_lock_direction = -wall
            self.facing = wall
            self._buffer = 0.0
            self._rising_from_jump = True
            self.events.append("wall_jump")
        return lateral, vertical

    def _correct_head_bump(self, rise: float) -> None:
        """If the rise this step would stop on a ceiling corner that a small sideways slip avoids, slip."""
        ch = self.character
        ux, uy = ch.config.up
        rx, ry = uy, -ux
        d = (ux * rise, uy * rise)
        if ch.cast(d) is None:
            return
        for offset in range(1, int(self.config.corner_correction) + 1):
            for side in (1, -1):
                slip = (rx * offset * side, ry * offset * side)
                # The slip itself must be free, and from there the rise must be free.
                if ch.cast(slip) is not None:
                    continue
                moved = (ch.position[0] + slip[0], ch.position[1] + slip[1])
                if ch.cast(d, moved) is None:
                    ch.position = moved
                    return
