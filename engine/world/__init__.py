"""The world and its parts: static geometry, rigid bodies, kinematic bodies, characters and sensors.

``from engine.world import World`` (or ``from engine import World``) is all most games need.
"""

from ..types import BodyKind, Collider, CollisionFilter, Neighbour, SceneContact, SceneHit, WorldError
from .kinematic import KinematicBody, PlatformPath
from .static import QueryConfig, StaticGeometry
from .world import World
from . import cast_kernel, collide_kernel, kernel, step_kernel, step_memory, warmstart
from .kernel_cache import refresh_kernel_cache

KERNEL_MODULES = (kernel, warmstart, step_kernel, collide_kernel, cast_kernel, step_memory)
"""Every module with cached compiled functions: their cache is kept true to their sources together."""

# (Before any kernel runs: a kernel compiled with an edited module's old code must not be loaded from the cache.)
refresh_kernel_cache(KERNEL_MODULES)

__all__ = [
    "BodyKind", "Collider", "CollisionFilter", "KinematicBody", "Neighbour", "PlatformPath", "QueryConfig",
    "SceneContact", "SceneHit", "StaticGeometry", "World", "WorldError",
]
