"""What a game's factories receive for each Tiled object: :class:`LevelObject`, in the engine's frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..geometry import RoundedPolygon, Vec2

__all__ = ["LevelObject", "level_object_of"]


@dataclass(eq=False)
class LevelObject:
    """One Tiled object, converted to the engine's frame (pixels, y up, origin at the map's bottom-left;
    angles in radians, counter-clockwise).

    ``cls`` is the object's class (Tiled's Class field, the older Type field, or its tile's class).
    ``position`` is the centre (a point object's point); ``shape`` is a convex :class:`RoundedPolygon`
    around ``position`` for rectangles, ellipses, convex polygons and tile objects, ``None`` for points,
    polylines and concave polygons; ``points`` are the outline or polyline in world coordinates.
    ``properties`` are typed (bool, int, float, str, colour as str, file as str); a property that
    references another object holds that :class:`LevelObject`.
    """

    id: int
    name: str
    cls: str
    position: Vec2
    angle: float = 0.0
    shape: RoundedPolygon | None = None
    points: list[Vec2] = field(default_factory=list)
    size: Vec2 = (0.0, 0.0)
    """Width and height in pixels (0 for points)."""
    kind: str = "point"
    """Tiled's object kind: ``point``, ``rectangle``, ``ellipse``, ``polygon``, ``polyline`` or ``tile``."""
    tile: int | None = None
    """The tile (global id, flip bits cleared) a tile object shows; ``None`` for other objects."""
    flip: tuple[bool, bool] = (False, False)
    """A tile object's (horizontal, vertical) flip."""
    layer: str = ""
    properties: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"LevelObject(id={self.id}, cls={self.cls!r}, name={self.name!r}, position={self.position})"


def level_object_of(thing: Any) -> LevelObject | None:
    """The :class:`LevelObject` a world object was made from: its ``user_data``, or its user data's user
    data (a body whose user data is a game object made from a level object), else ``None``."""
    data = getattr(thing, "user_data", None)
    for _ in range(4):
        if data is None or isinstance(data, LevelObject):
            return data
        data = getattr(data, "user_data", None)
    return None
