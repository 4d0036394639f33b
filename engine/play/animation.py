"""Sprite animation, without any drawing: which frame of which animation to show, from a character's state.

An :class:`Animation` is a sequence of frames (anything the renderer understands: tile ids, texture names)
played at ``fps``; an :class:`Animator` holds one per state and advances the current one. The states a
platformer character needs come from :func:`character_pose`: ``idle``, ``run``, ``jump``, ``fall``,
``climb``, ``hurt`` (and ``wall`` while wall sliding).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..types import WorldError

__all__ = ["POSES", "Animation", "Animator", "character_pose"]

POSES = ("idle", "run", "jump", "fall", "climb", "hurt", "wall")
"""The states :func:`character_pose` returns."""


@dataclass(frozen=True)
class Animation:
    """``frames`` shown one after another at ``fps`` frames per second, looping or holding the last one."""

    frames: Sequence[Any]
    fps: float = 10.0
    loop: bool = True

    def __post_init__(self) -> None:
        if len(self.frames) == 0:
            raise WorldError("an Animation needs at least one frame")
        if not (isinstance(self.fps, (int, float)) and 0 < self.fps < 1000):
            raise WorldError(f"Animation fps must be a number in (0, 1000), got {self.fps!r}")

    def frame_at(self, seconds: float) -> Any:
        index = int(seconds * self.fps)
        count = len(self.frames)
        return self.frames[index % count if self.loop else min(index, count - 1)]


class Animator:
    """Plays one of ``animations`` (state -> :class:`Animation`) at a time; a new state starts at frame 0.
    A state with no animation of its own plays ``fallbacks[state]`` (by default ``idle``'s)."""

    def __init__(self, animations: Mapping[str, Animation], state: str = "idle",
                 fallbacks: Mapping[str, str] | None = None) -> None:
        if not animations:
            raise WorldError("an Animator needs at least one animation")
        self.animations = dict(animations)
        self.fallbacks = {"run": "idle", "jump": "idle", "fall": "jump", "climb": "idle", "hurt": "idle",
                          "wall": "fall", **(fallbacks or {})}
        self.state = state
        self.clock = 0.0

    def _resolve(self, state: str) -> Animation:
        seen = set()
        while state not in self.animations and state not in seen:
            seen.add(state)
            state = self.fallbacks.get(state, "idle")
        return self.animations.get(state) or next(iter(self.animations.values()))

    def update(self, state: str, dt: float, speed: float = 1.0) -> Any:
        """Advance by ``dt`` seconds (times ``speed``: a run cycle can follow the running speed) in ``state``;
        returns the frame to show."""
        if state != self.state:
            self.state, self.clock = state, 0.0
        else:
            self.clock += dt * speed
        return self.frame

    @property
    def frame(self) -> Any:
        return self._resolve(self.state).frame_at(self.clock)


def character_pose(character: Any, controller: Any = None, hurt: bool = False, run_threshold: float = 20.0) -> str:
    """The animation state of a character (and its controller, if any): ``hurt`` wins, then ``climb``,
    ``wall``, ``jump`` / ``fall`` in the air, ``run`` faster than ``run_threshold`` px/s, else ``idle``."""
    if hurt:
        return "hurt"
    if controller is not None and getattr(controller, "climbing", False):
        return "climb"
    if controller is not None and getattr(controller, "wall_sliding", False):
        return "wall"
    vx, vy = character.velocity
    if not character.on_floor:
        return "jump" if vy > 0 else "fall"
    return "run" if abs(vx) > run_threshold else "idle"
