"""A stage: one world, one player, the rules and the game objects, stepped together in a fixed order.

:class:`Stage` is the loop every platformer writes, once::

    stage = Stage(world, hero)                     # or Stage.from_level(level, hero_shape, factories)
    stage.step(PlatformerInput(right=True), 1 / 60)

Each step: every game object's ``before_step`` (a ladder grabbing the player, an enemy choosing where to
walk), the player's controller, ``world.step``, the rules (pickups, hazards, checkpoints, goal), then every
object's ``after_step`` (a spring launching what touched it, a door opening). A game object is anything
with those two methods (:class:`GameObject` gives empty ones); objects made by a level's factories join
the stage by themselves.

Units: pixels, seconds; engine frame (y up).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ..character import Character, MoverConfig
from ..geometry import RoundedPolygon
from ..platformer import PlatformerConfig, PlatformerController, PlatformerInput
from ..types import DEFAULT_FILTER, CollisionFilter, WorldError
from .base import GameObject
from .blocks import standard_factories
from .rules import PlatformerRules, RulesConfig

__all__ = ["GameObject", "Stage"]


class Stage:
    """One world, its player (a character driven by a :class:`PlatformerController`), the rules and the game
    objects, stepped together."""

    def __init__(self, world: Any, player: Character, controller: PlatformerController | None = None,
                 objects: Iterable[Any] = (), rules: RulesConfig | None = None, spawn: Any = None) -> None:
        if not isinstance(player, Character):
            raise WorldError(f"Stage needs a Character as the player, got {player!r}")
        self.world = world
        self.player = player
        self.controller = controller or PlatformerController(player)
        self.rules = PlatformerRules(world, player, spawn, rules)
        self.objects: list[Any] = []
        self.steps = 0
        self.level: Any = None
        """The level staged (``from_level``), else ``None``."""
        for thing in objects:
            self.add(thing)

    @classmethod
    def from_level(cls, level: Any, player_shape: RoundedPolygon, factories: Mapping[str, Callable] | None = None,
                   mover: MoverConfig | None = None, feel: PlatformerConfig | None = None, *,
                   player_filter: CollisionFilter = DEFAULT_FILTER, player_data: Any = None) -> Stage:
        """Build ``level``'s world with ``factories`` (the standard ones by default, see
        :func:`engine.play.standard_factories`), put a player of ``player_shape`` at its spawn, and stage it
        with every object the factories made. ``player_filter`` and ``player_data`` become the player's
        ``filter`` (what it collides with) and ``user_data`` (the game's, never read by the engine)."""
        world = level.build_world(factories=standard_factories() if factories is None else factories)
        if level.spawn is None:
            raise WorldError(f"{level.path}: the level has no Spawn")
        player = world.add_character(Character(player_shape, level.spawn, mover or MoverConfig(),
                                               user_data=player_data, filter=player_filter))
        controller = PlatformerController(player, feel or PlatformerConfig())
        made = [thing for _, thing in level.built] if hasattr(level, "built") else []
        stage = cls(world, player, controller, made, spawn=level.spawn)
        stage.level = level
        return stage

    @property
    def next_level(self) -> Path | None:
        """The map the goal leads to (the level's ``next_level``, beside it), or ``None``."""
        name = getattr(self.level, "next_level", "") if self.level is not None else ""
        return self.level.path.parent / name if name else None

    def add(self, thing: Any) -> Any:
        """Add a game object (anything with ``before_step`` / ``after_step``; others are ignored). Returns it."""
        if hasattr(thing, "before_step") and hasattr(thing, "after_step") and thing not in self.objects:
            self.objects.append(thing)
            joined = getattr(thing, "joined", None)
            if callable(joined):
                joined(self)
        return thing

    def remove(self, thing: Any) -> None:
        if thing in self.objects:
            self.objects.remove(thing)

    def controller_of(self, character: Character) -> PlatformerController | None:
        """The controller that drives ``character``: the player's, or a game object's (an enemy's)."""
        if character is self.player:
            return self.controller
        for thing in self.objects:
            controller = getattr(thing, "controller", None)
            if isinstance(controller, PlatformerController) and controller.character is character:
                return controller
        return None

    def find(self, kind: type) -> list[Any]:
        """The game objects of a type (``stage.find(Walker)``)."""
        return [thing for thing in self.objects if isinstance(thing, kind)]

    def step(self, buttons: PlatformerInput, dt: float) -> None:
        """One fixed step with ``buttons`` held (see the module docstring for the order)."""
        self.rules.start_step()
        for thing in list(self.objects):
            thing.before_step(self, buttons, dt)
        self.controller.update(buttons if not self.rules.complete else PlatformerInput(), dt)
        self.world.step(dt)
        self.steps += 1
        self.rules.update(dt)
        for thing in list(self.objects):
            thing.after_step(self, dt)
