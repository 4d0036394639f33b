"""The standard platformer rules as a component: pickups, hazards, checkpoints, falls, respawn and the goal.

:class:`PlatformerRules` watches one world's events for one player character and turns them into game
events (:class:`GameEvent`) that a game subscribes to with :meth:`PlatformerRules.on`. It knows the world's
sensors by their ``tag`` (what ``Level.build_world`` gives the Tiled classes ``Pickup``, ``Hazard``,
``Checkpoint`` and ``Goal``), so any game with such sensors gets the rules by making one object::

    rules = PlatformerRules(world, hero)
    rules.on("pickup", lambda event: play_sound("coin"))
    ...
    controller.update(buttons, dt); world.step(dt); rules.update(dt)

A game extends it by subscribing (``rules.on("respawn", reset_my_enemies)``, ``rules.off`` to stop), by emitting
its own events through :meth:`PlatformerRules.emit`, or by subclassing (every reaction is a method).

Units: pixels, seconds; engine frame (y up).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bodies import Sensor
from ..character import Character
from ..level.objects import level_object_of
from ..types import Vec2, WorldError

__all__ = ["GameEvent", "PlatformerRules", "RulesConfig", "object_id"]


@dataclass(frozen=True)
class RulesConfig:
    """Tunables of the rules."""

    fall_depth: float = 200.0
    """Pixels below the bottom of the map (y = 0) at which a falling player has fallen out of the level."""
    pickup_tag: str = "pickup"
    hazard_tag: str = "hazard"
    checkpoint_tag: str = "checkpoint"
    goal_tag: str = "goal"


@dataclass(frozen=True)
class GameEvent:
    """Something the rules decided: ``type`` is ``pickup``, ``hazard``, ``fall``, ``crushed`` (squeezed by a
    moving body), ``checkpoint``, ``goal``, ``respawn`` (or a game's own); ``source`` the sensor (or other
    object) behind it; ``data`` what a trace records of it (``id``: the Tiled object id where there is one)."""

    type: str
    source: Any = None
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """``{"type": ..., **data}``: the form a trace writes."""
        return {"type": self.type, **self.data}


def object_id(thing: Any) -> int | str | None:
    """The Tiled object id behind a world object: the ``id`` of its ``LevelObject`` (see
    :func:`~engine.level.objects.level_object_of`), else its ``name`` as an int when it is one, else the name,
    else ``None``."""
    obj = level_object_of(thing)
    if obj is not None:
        return obj.id
    name = getattr(thing, "name", "")
    if isinstance(name, str) and name.isdigit():
        return int(name)
    return name or None


class PlatformerRules:
    """Pickups, hazards, checkpoints, falls, respawn and the goal for one ``player`` in one ``world``.

    ``spawn`` is where the player starts and respawns until a checkpoint is reached (default: where the
    player is now). Call :meth:`update` once after every ``world.step``; read :attr:`events` (this step's)
    or subscribe with :meth:`on`.
    """

    def __init__(self, world: Any, player: Character, spawn: Vec2 | None = None,
                 config: RulesConfig | None = None) -> None:
        if not isinstance(player, Character):
            raise WorldError(f"PlatformerRules needs a Character as the player, got {player!r}")
        self.world = world
        self.player = player
        self.config = config or RulesConfig()
        self.spawn: Vec2 = spawn if spawn is not None else player.position
        self.respawn_point: Vec2 = self.spawn
        self.time = 0.0
        self.pickups = 0
        self.deaths = 0
        self.complete = False
        self.events: list[GameEvent] = []
        self._handlers: dict[str, list[Callable[[GameEvent], None]]] = {}
        self._started = False

    @property
    def pickup_total(self) -> int:
        """How many pickups the level holds (collected or not)."""
        return sum(1 for s in self.world.sensors if s.tag == self.config.pickup_tag)

    # ---------------------------------------------------------------- subscribing
    def on(self, event_type: str, handler: Callable[[GameEvent], None]) -> Callable[[GameEvent], None]:
        """Call ``handler(event)`` for every event of ``event_type`` (``"*"``: every event). Returns ``handler``,
        to hand to :meth:`off` later."""
        self._handlers.setdefault(event_type, []).append(handler)
        return handler

    def off(self, event_type: str, handler: Callable[[GameEvent], None]) -> None:
        """Stop calling ``handler`` for ``event_type`` (one subscription: subscribed twice, it is called once
        more). Safe from inside a handler: the event being sent still reaches the handlers it started with.
        Raises ``WorldError`` when ``handler`` is not subscribed to ``event_type``."""
        handlers = self._handlers.get(event_type, [])
        if handler not in handlers:
            raise WorldError(f"rules.off: {handler!r} is not subscribed to {event_type!r} events")
        handlers.remove(handler)

    def emit(self, event: GameEvent) -> None:
        """Record ``event`` for this step and call its subscribers (games emit their own events here too)."""
        self.events.append(event)
        for handler in [*self._handlers.get(event.type, ()), *self._handlers.get("*", ())]:
            handler(event)

    # ---------------------------------------------------------------- stepping
    def start_step(self) -> None:
        """A new step begins: :attr:`events` starts empty (events emitted before the world steps, by a
        ladder say, belong to it). Without this call, :meth:`update` starts it."""
        self.events = []
        self._started = True

    def update(self, dt: float) -> None:
        """React to the world's events of the step just taken (``dt`` seconds)."""
        if not self._started:
            self.events = []
        self._started = False
        if not self.complete:
            self.time += dt
        crushed = None
        for event in self.world.events:
            if event.kind == "begin" and isinstance(event.a, Sensor) and event.b is self.player:
                self.touch(event.a)
            elif event.kind == "crushed" and event.a is self.player:
                crushed = event.b
        if crushed is not None:
            self.kill("crushed", crushed)
        if self.player.position[1] < -self.config.fall_depth:
            self.kill("fall")

    def touch(self, sensor: Sensor) -> None:
        """The player entered ``sensor``: act on its tag."""
        cfg = self.config
        if sensor.tag == cfg.pickup_tag and sensor.enabled:
            self.collect(sensor)
        elif sensor.tag == cfg.hazard_tag:
            self.kill("hazard", sensor)
        elif sensor.tag == cfg.checkpoint_tag:
            self.reach_checkpoint(sensor)
        elif sensor.tag == cfg.goal_tag and not self.complete:
            self.complete = True
            self.emit(GameEvent("goal", sensor, {"id": object_id(sensor), "time": round(self.time, 4)}))

    def collect(self, sensor: Sensor) -> None:
        sensor.enabled = False
        self.pickups += 1
        kind = sensor.data.get("kind", "coin") if isinstance(sensor.data, dict) else "coin"
        self.emit(GameEvent("pickup", sensor, {"id": object_id(sensor), "kind": kind}))

    def reach_checkpoint(self, sensor: Sensor) -> None:
        if self.respawn_point != sensor.position:
            self.respawn_point = sensor.position
            self.emit(GameEvent("checkpoint", sensor, {"id": object_id(sensor)}))

    def kill(self, cause: str, source: Any = None) -> None:
        """The player dies (``cause``: ``hazard``, ``fall``, ``crushed``, ``enemy`` or a game's own) and
        respawns at the last checkpoint (or the spawn)."""
        self.deaths += 1
        data: dict[str, Any] = {}
        if source is not None and object_id(source) is not None:
            data["id"] = object_id(source)
        self.emit(GameEvent(cause, source, data))
        self.respawn()

    def respawn(self) -> None:
        """Put the player back at the respawn point, at rest (subscribers of ``respawn`` reset their things)."""
        self.player.teleport(self.respawn_point)
        self.player.velocity = (0.0, 0.0)
        self.emit(GameEvent("respawn", self.player, {}))
