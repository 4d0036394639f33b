"""Ledgekit: a 2D platformer framework.

The everyday names are here: ``from engine import World, RigidBody, load_level, ...``. Subpackages:
``engine.geometry`` (the pure geometry kernel: shapes, contacts, queries, casts, broad phase),
``engine.world`` (the world and its parts), ``engine.level`` (Tiled maps), ``engine.play`` (building
blocks a game composes: rules, ladders, springs, enemies, doors, falling platforms, sprite animation) and
``engine.render`` (the arcade adapter, the only module that imports arcade). Everything but the renderer
runs without a window. The physics kernels are compiled with numba on first use and cached on disk;
:func:`warm_up` compiles them ahead (``ledgekit warmup`` from the command line).
"""

from .bodies import PhysicsConfig, RigidBody, Sensor
from .character import Character, MoverConfig
from .geometry import RoundedPolygon, Transform
from .level.level import Level, LevelError, load_level
from .level.objects import LevelObject
from .platformer import PlatformerConfig, PlatformerController, PlatformerInput
from .types import CollisionFilter, ContactEvent, WorldError
from .warmup import BackgroundWarmUp, first_start, warm_up
from .world import KinematicBody, PlatformPath, World

__version__ = "0.1.0"

__all__ = [
    "BackgroundWarmUp", "Character", "CollisionFilter", "ContactEvent", "KinematicBody", "Level", "LevelError",
    "LevelObject", "MoverConfig", "PhysicsConfig", "PlatformPath", "PlatformerConfig", "PlatformerController",
    "PlatformerInput", "RigidBody", "RoundedPolygon", "Sensor", "Transform", "World", "WorldError", "first_start",
    "load_level", "warm_up",
]
