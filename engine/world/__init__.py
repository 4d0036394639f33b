"""The world and its parts: static geometry, rigid bodies, kinematic bodies, characters and sensors.

``from engine.world import World`` (or ``from engine import World``) is all most games need.
"""

from ..types import BodyKind, Collider, CollisionFilter, Neighbour, SceneContact, SceneHit, WorldError
from .kinematic import KinematicBody, PlatformPath
from .static import QueryConfig, StaticGeometry
from .world import World

__all__ = [
    "BodyKind", "Collider", "CollisionFilter", "KinematicBody", "Neighbour", "PlatformPath", "QueryConfig",
    "SceneContact", "SceneHit", "StaticGeometry", "World", "WorldError",
]
