"""One play of one level: the world, the hero, the rules of the demo (pickups, hazards, checkpoints, goal),
stepped at a fixed rate. No arcade here: the window, the headless runner and the tests all drive a
:class:`Session` the same way, which is what makes runs deterministic and replayable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.bodies import RigidBody, Sensor
from engine.geometry import RoundedPolygon
from engine.level.level import Level, load_level
from engine.platformer import PlatformerController, PlatformerInput
from engine.world import World

__all__ = ["ACTIONS", "HERO_SHAPE", "STEP", "Session"]

STEP = 1.0 / 60.0
"""Seconds per physics step (fixed)."""

ACTIONS = ("left", "right", "up", "down", "jump")
"""The input actions, as used by ``--input`` files and recordings."""

HERO_SHAPE = RoundedPolygon.box(10, 16, radius=2)
"""The hero: 20 x 32 px with 2 px rounded corners."""


@dataclass
class Session:
    """A level being played. Call :meth:`step` with the actions held, once per fixed step."""

    level: Level
    world: World = field(init=False)
    steps: int = 0
    pickups: int = 0
    deaths: int = 0
    complete: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    """Game events of the last step, as written to traces."""

    def __post_init__(self) -> None:
        self.world = self.level.build_world()
        assert self.level.spawn is not None  # load_level refuses maps without one
        self.respawn_point = self.level.spawn
        self.hero = self.world.add_character(HERO_SHAPE, self.level.spawn)
        self.controller = PlatformerController(self.hero)
        self.pickup_total = sum(1 for s in self.world.sensors if s.tag == "pickup")

    @classmethod
    def open(cls, path: str | Path) -> "Session":
        return cls(load_level(path))

    @property
    def time(self) -> float:
        return self.steps * STEP

    def step(self, held: frozenset[str] | set[str] | tuple[str, ...] = ()) -> None:
        """Advance one fixed step with the given actions held."""
        buttons = PlatformerInput(**{a: a in held for a in ACTIONS})
        self.events = []
        if not self.complete:
            self.controller.update(buttons, STEP)
        else:
            self.controller.update(PlatformerInput(), STEP)
        self.world.step(STEP)
        self.steps += 1
        for event in self.world.events:
            if event.kind == "begin" and isinstance(event.a, Sensor):
                self._sensor(event.a, event.b)
        if self.hero.position[1] < -200.0:  # fell out of the map
            self._die("fell")

    def _sensor(self, sensor: Sensor, other: object) -> None:
        if other is not self.hero:
            return
        if sensor.tag == "pickup" and sensor.enabled:
            sensor.enabled = False
            self.pickups += 1
            self.events.append({"type": "pickup", "id": int(sensor.name), "kind": sensor.data.get("kind", "coin")})
        elif sensor.tag == "hazard":
            self._die("hazard", int(sensor.name))
        elif sensor.tag == "checkpoint":
            if self.respawn_point != sensor.position:
                self.respawn_point = sensor.position
                self.events.append({"type": "checkpoint", "id": int(sensor.name)})
        elif sensor.tag == "goal" and not self.complete:
            self.complete = True
            self.events.append({"type": "goal", "id": int(sensor.name), "time": round(self.time, 4)})

    def _die(self, cause: str, sensor_id: int | None = None) -> None:
        self.deaths += 1
        event: dict[str, Any] = {"type": "hazard" if cause == "hazard" else "fall"}
        if sensor_id is not None:
            event["id"] = sensor_id
        self.events.append(event)
        self.hero.teleport(self.respawn_point)
        self.hero.velocity = (0.0, 0.0)

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
            "events": self.events,
        }


def _body(b: RigidBody) -> dict[str, Any]:
    return {"id": int(b.name) if b.name.isdigit() else b.name, "x": b.position[0], "y": b.position[1],
            "angle": b.angle, "vx": b.velocity[0], "vy": b.velocity[1]}
