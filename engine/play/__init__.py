"""Building blocks a game composes on the world: the standard platformer rules and ready-made game objects.

Everything here is written on the engine's public API, the way a game would write its own objects.
"""

from .rules import GameEvent, PlatformerRules, RulesConfig, object_id

__all__ = ["GameEvent", "PlatformerRules", "RulesConfig", "object_id"]
