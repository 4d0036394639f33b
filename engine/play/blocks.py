"""The standard factories: Tiled class name -> the building block that makes it (see ``Level.build_world``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .door import Door, Switch
from .falling import FallingPlatform
from .ladder import Ladder
from .spring import Spring
from .walker import Walker

__all__ = ["standard_factories"]


def standard_factories() -> dict[str, Callable[[Any, Any], Any]]:
    """``{"Ladder": ..., "Spring": ..., "Walker": ..., "Door": ..., "Switch": ..., "FallingPlatform": ...}``:
    pass (a copy of) it to ``Level.build_world(factories=...)``, adding or replacing classes of your own."""
    return {
        "Ladder": Ladder.from_object,
        "Spring": Spring.from_object,
        "Walker": Walker.from_object,
        "Door": Door.from_object,
        "Switch": Switch.from_object,
        "FallingPlatform": FallingPlatform.from_object,
    }
