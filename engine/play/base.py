"""What a game object sees of the stage it is on, and the game objects' base class."""

from __future__ import annotations

from typing import Any, Protocol

from ..character import Character
from ..geometry import RoundedPolygon
from ..platformer import PlatformerController, PlatformerInput
from ..types import WorldError
from .rules import PlatformerRules

__all__ = ["GameObject", "StageView", "area_of", "number_in"]


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


def number_in(value: Any, what: str, unit: str, low: float, high: float, low_inclusive: bool = False) -> float:
    """``value`` as a float, checked to lie in (``low``, ``high``) (``[low, high)`` with ``low_inclusive``);
    anything else is a :class:`WorldError` naming ``what`` (``"Ladder speed"``) and the bad value."""
    above = isinstance(value, (int, float)) and not isinstance(value, bool) and (
        low <= value if low_inclusive else low < value)
    if not (above and value < high):
        interval = f"{'[' if low_inclusive else '('}{low:,.0f}, {high:,.0f})"
        raise WorldError(f"{what} must be a number of {unit} in {interval}, got {value!r}")
    return float(value)


def area_of(obj: Any, cls: str, shapes: str) -> RoundedPolygon:
    """The shape of a level object a block covers with an area; an object without one (a point, a polyline) is
    a :class:`WorldError` saying which ``shapes`` the class takes."""
    if obj.shape is None:
        raise WorldError(f"{cls} object {obj.id} must be {shapes}, not a {obj.kind}")
    return obj.shape
