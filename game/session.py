"""One play of one level: an :class:`engine.play.Stage` (the world, the hero, the standard platformer rules
and the level's game objects made by the standard factories), stepped at a fixed rate. No arcade here: the
window, the headless runner and the tests all drive a :class:`Session` the same way, which is what makes
runs deterministic and replayable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import KinematicBody, Level, PlatformerInput, RigidBody, RoundedPolygon, World, load_level
from engine.play import GameEvent, Stage, object_id

__all__ = ["ACTIONS", "HERO_SHAPE", "STEP", "TRACED_EVENTS", "Session"]

STEP = 1.0 / 60.0
"""Seconds per physics step (fixed)."""

ACTIONS = ("left", "right", "up", "down", "jump")
"""The input actions, as used by ``--input`` files and recordings."""

HERO_SHAPE = RoundedPolygon.box(10, 16, radius=2)
"""The hero: 20 x 32 px with 2 px rounded corners."""

TRACED_EVENTS = frozenset({
    "pickup", "hazard", "fall", "crushed", "checkpoint", "goal", "enemy", "climb", "spring", "stomp", "enemy_crushed",
    "switch", "door", "platform_fall",
})
"""The stage's events that go into traces (``respawn`` follows every death and is not written)."""


@dataclass
class Session:
    """A level being played. Call :meth:`step` with the actions held, once per fixed step."""

    level: Level
    world: World = field(init=False)
    steps: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    """Game events of the last step, as written to traces."""
    game_events: list[GameEvent] = field(default_factory=list)
    """Every game event of the last step as the stage emitted it (with its source: where it happened)."""

    def __post_init__(self) -> None:
        self.stage = Stage.from_level(self.level, HERO_SHAPE)
        self.world = self.stage.world
        self.hero = self.stage.player
        self.controller = self.stage.controller
        self.rules = self.stage.rules
        self.rules.on("*", self._record)

    @classmethod
    def open(cls, path: str | Path) -> "Session":
        return cls(load_level(path))

    # The rules keep the score; these read it.
    @property
    def time(self) -> float:
        return self.steps * STEP

    @property
    def pickups(self) -> int:
        return self.rules.pickups

    @property
    def pickup_total(self) -> int:
        return self.rules.pickup_total

    @property
    def deaths(self) -> int:
        return self.rules.deaths

    @property
    def complete(self) -> bool:
        return self.rules.complete

    def step(self, held: frozenset[str] | set[str] | tuple[str, ...] = ()) -> None:
        """Advance one fixed step with the given actions held."""
        self.events = []
        self.game_events = []
        self.stage.step(PlatformerInput(**{a: a in held for a in ACTIONS}), STEP)
        self.steps += 1

    def _record(self, event: GameEvent) -> None:
        self.game_events.append(event)
        if event.type in TRACED_EVENTS:
            self.events.append(event.as_dict())

    def trace(self) -> dict[str, Any]:
        """The state after the last step, in the ``--trace`` format (engine frame: px, y up)."""
        h = self.hero
        return {
            "step": self.steps,
            "t": round(self.time, 6),
            "player": {
                "x": h.position[0], "y": h.position[1], "vx": h.velocity[0], "vy": h.velocity[1],
                "on_floor": h.on_floor, "on_wall": h.on_wall, "on_ceiling": h.on_ceiling,
            },
            "bodies": [_body(b) for b in self.world.bodies],
            "platforms": [_body(k) for k in self.world.kinematic_bodies],
            "events": self.events,
        }


def _body(b: RigidBody | KinematicBody) -> dict[str, Any]:
    return {"id": object_id(b), "x": b.position[0], "y": b.position[1],
            "angle": b.angle, "vx": b.velocity[0], "vy": b.velocity[1]}
