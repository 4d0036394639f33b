"""What a game object sees of the stage it is on, and the game objects' base class."""

from __future__ import annotations

from typing import Any, Protocol

from ..character import Character
from ..platformer import PlatformerController, PlatformerInput
from .rules import PlatformerRules

__all__ = ["GameObject", "StageView"]


class StageView(Protocol):
    """The stage as its game objects use it (implemented by :class:`engine.play.Stage`)."""

    world: Any
    player: Character
    controller: PlatformerController
    rules: PlatformerRules

    def controller_of(self, character: Character) -> PlatformerController | None: ...

    def find(self, kind: type) -> list[Any]: ...

    def remove(self, thing: Any) -> None: ...


class GameObject:
    """Base of the building blocks: hooks the stage calls around every world step (both do nothing here)."""

    def before_step(self, stage: StageView, buttons: PlatformerInput, dt: float) -> None:
        """Before the player's controller and the world step (``buttons``: what the player holds)."""

    def after_step(self, stage: StageView, dt: float) -> None:
        """After the world stepped and the rules reacted (``stage.world.events`` holds the step's events)."""
