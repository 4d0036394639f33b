"""Building blocks a game composes on the world: the standard platformer rules, a stage that steps them
with the world, ready-made game objects (ladders, springs, walker enemies, doors and switches, falling
platforms, a path follower for sensors) and sprite animation.

Everything here is written on the engine's public API, the way a game would write its own objects.
"""

from .animation import POSES, Animation, Animator, character_pose
from .blocks import standard_factories
from .door import Door, Switch
from .falling import FallingPlatform
from .ladder import Ladder
from .path import PathFollower
from .rules import GameEvent, PlatformerRules, RulesConfig, object_id
from .spring import Spring, launch_speed
from .base import GameObject, StageView
from .stage import Stage
from .walker import Walker

__all__ = [
    "POSES", "Animation", "Animator", "Door", "FallingPlatform", "GameEvent", "GameObject", "Ladder",
    "PathFollower", "PlatformerRules", "RulesConfig", "Spring", "Stage", "StageView", "Switch", "Walker", "character_pose",
    "launch_speed",
    "object_id", "standard_factories",
]
