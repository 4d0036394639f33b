"""The one internal model of a Tiled map, whatever file format it came from (TMX/TSX/TX XML read by
:mod:`engine.level.tmx`, TMJ/TSJ/TJ JSON read by :mod:`engine.level.tiled_json`), and the checks every reader
applies to the numbers it reads.

Coordinates in the model are Tiled's: pixels, y down, origin at the map's top-left. The level module converts
them to the engine's y-up frame, and nowhere else converts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

__all__ = [
    "FLIP_D", "FLIP_H", "FLIP_V", "GID_MASK", "Budget", "ImageTile", "LayerLook", "LevelError", "MAX_COORD",
    "MAX_FILE_BYTES", "MAX_OBJECTS", "MAX_POINTS", "MAX_TILES", "MAX_WORLD_MAPS", "MapObject", "NO_TINT",
    "ObjectGroup", "ObjectRef", "PLAIN_LOOK", "TileLayer", "TiledMap", "Tileset", "Tint", "TmxMap",
    "add_object_group", "check_number", "multiply_tints", "read_tint",
]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest map, tileset or template file read (bytes)."""

MAX_TILES = 8_000_000
"""Most cells (width x height x tile layers) a map may have: a 2000 x 2000 map of two layers."""

MAX_OBJECTS = 50_000
"""Most objects (map objects and tile collision shapes together) a map may have."""

MAX_POINTS = 1_000_000
"""Most polygon and polyline vertices a map (its objects and tile collision shapes together) may have."""

MAX_COORD = 1e7
"""Pixels. No coordinate, size or offset may be larger in magnitude: a 2000-tile map of 4096 px tiles is
8.2e6 px wide, and beyond 1e7 px single-precision rendering and the solver's tolerances stop making sense."""

MAX_WORLD_MAPS = 256
"""Most maps a ``.world`` file may list (each is read and built: a world of thousands would load for minutes)."""

MAX_DEPTH = 64
"""Deepest element nesting accepted (groups inside groups); Tiled users never get near it."""

FLIP_H = 1 << 31
FLIP_V = 1 << 30
FLIP_D = 1 << 29
GID_MASK = ~(FLIP_H | FLIP_V | FLIP_D | (1 << 28)) & 0xFFFFFFFF


Tint = tuple[int, int, int, int]
"""A colour (red, green, blue, alpha; 0-255 each) that Tiled multiplies into every pixel a layer draws."""
NO_TINT: Tint = (255, 255, 255, 255)


def read_tint(value: Any, where: str) -> Tint:
    """A layer's ``tintcolor`` (``#RRGGBB`` or ``#AARRGGBB``, Tiled's form) as a :data:`Tint`; none given is
    :data:`NO_TINT`."""
    if value is None or value == "":
        return NO_TINT
    text = str(value).strip().removeprefix("#")
    if len(text) not in (6, 8) or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise LevelError(f"{where}: tintcolor {str(value)[:20]!r} is not a colour (#RRGGBB or #AARRGGBB)")
    alpha = int(text[:2], 16) if len(text) == 8 else 255
    red, green, blue = (int(text[k:k + 2], 16) for k in range(len(text) - 6, len(text), 2))
    return (red, green, blue, alpha)


def multiply_tints(outer: Tint, inner: Tint) -> Tint:
    """A layer's tint with its group's multiplied in, as Tiled does (each channel ``a * b / 255``)."""
    r1, g1, b1, a1 = outer
    r2, g2, b2, a2 = inner
    return (r1 * r2 // 255, g1 * g2 // 255, b1 * b2 // 255, a1 * a2 // 255)


class LayerLook(NamedTuple):
    """How a layer is drawn beyond its pixels: its opacity (0-1) and tint, its groups' multiplied in."""

    opacity: float = 1.0
    tint: Tint = NO_TINT

    def within(self, opacity: float, tint: Tint) -> LayerLook:
        """The look of a layer with its own ``opacity`` and ``tint`` inside a group that looks like this."""
        return LayerLook(self.opacity * opacity, multiply_tints(self.tint, tint))


PLAIN_LOOK = LayerLook()
"""A layer drawn as its pixels are: fully opaque, untinted."""


class ObjectRef(int):
    """The value of an ``object`` property: the id of the object it points to (0: none). An ``int``, so code
    that reads ids keeps working; its type tells a reference from a plain number."""


class LevelError(ValueError):
    """A level that cannot be loaded. The message names the file and, where known, the layer, the object
    id and name, and the position."""


def check_number(value: Any, where: str, *, default: float | None = None, low: float = -MAX_COORD,
                 high: float = MAX_COORD) -> float:
    """``value`` (a number or its text) as a finite float within ``[low, high]``; ``None`` gives ``default``
    (an error when there is no default). ``where`` names the file, layer, object and field for the message."""
    if value is None:
        if default is None:
            raise LevelError(f"{where}: missing")
        return default
    if isinstance(value, bool):
        raise LevelError(f"{where}: {value!r} is not a number")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise LevelError(f"{where}: {str(value)[:40]!r} is not a number") from None
    if not math.isfinite(number):
        raise LevelError(f"{where}: {str(value)[:40]!r} is not a finite number")
    if not low <= number <= high:
        raise LevelError(f"{where}: {number:g} is outside {low:g} .. {high:g}")
    return number


class Budget:
    """What one map may still read: objects and vertices, counted across the map, its tilesets and templates,
    so that no file can make the reader do unbounded work within the size limit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.left = {"objects": MAX_OBJECTS, "polygon and polyline points": MAX_POINTS}

    def take(self, what: str, count: int, where: str) -> None:
        self.left[what] -= count
        if self.left[what] < 0:
            limit = MAX_OBJECTS if what == "objects" else MAX_POINTS
            raise LevelError(f"{where}: more than {limit:,} {what} in {self.path.name} and its tilesets; "
                             "a level may not have that many")


def check_int(value: Any, where: str, *, default: int | None = None, low: int = 0, high: int = 2**32 - 1) -> int:
    """``value`` as a whole number within ``[low, high]`` (see :func:`check_number`)."""
    number = check_number(value, where, default=None if default is None else float(default), low=low, high=high)
    if number != int(number):
        raise LevelError(f"{where}: {number:g} is not a whole number")
    return int(number)


@dataclass
class MapObject:
    """One Tiled object, as authored (Tiled's frame: pixels, y down).

    ``kind`` is ``"rectangle"``, ``"ellipse"``, ``"point"``, ``"polygon"``, ``"polyline"``, ``"text"`` or
    ``"tile"``. ``points`` are relative to (x, y) for polygons and polylines. ``rotation`` is in degrees,
    clockwise (Tiled's convention), about (x, y). ``cls`` is the Tiled 1.9 ``class`` or the older / 1.10
    ``type`` field (for a tile object without one, its tile's class). For tile objects (x, y) is the
    bottom-left corner, as Tiled stores it.
    """

    id: int
    name: str
    cls: str
    layer: str
    kind: str
    x: float
    y: float
    width: float = 0.0
    height: float = 0.0
    rotation: float = 0.0
    points: list[tuple[float, float]] = field(default_factory=list)
    gid: int = 0
    flip_h: bool = False
    flip_v: bool = False
    flip_d: bool = False
    properties: dict[str, Any] = field(default_factory=dict)
    template: str | None = None
    visible: bool = True
    opacity: float = 1.0
    """Its layer's opacity (0-1), its groups' multiplied in: how opaque Tiled draws a tile object."""
    tint: Tint = NO_TINT
    """Its layer's tint colour, its groups' multiplied in."""

    def outline(self, segments: int = 16) -> list[tuple[float, float]]:
        """The object's boundary in Tiled's frame, rotation applied: rectangles and tile objects as 4
        corners, ellipses as ``segments`` points, polygons and polylines as their points, a point as
        itself."""
        if self.kind in ("polygon", "polyline"):
            local = list(self.points)
        elif self.kind == "ellipse":
            rx, ry = self.width / 2, self.height / 2
            local = [(rx + rx * math.cos(2 * math.pi * k / segments), ry + ry * math.sin(2 * math.pi * k / segments))
                     for k in range(segments)]
        elif self.kind == "point":
            local = [(0.0, 0.0)]
        elif self.kind == "tile":
            # Tile objects hang up from their bottom-left origin.
            local = [(0.0, 0.0), (self.width, 0.0), (self.width, -self.height), (0.0, -self.height)]
        else:
            local = [(0.0, 0.0), (self.width, 0.0), (self.width, self.height), (0.0, self.height)]
        return [self.place(px, py) for px, py in local]

    def place(self, px: float, py: float) -> tuple[float, float]:
        """A point of the object's own frame (origin at (x, y), unrotated) in the map's frame."""
        c, s = math.cos(math.radians(self.rotation)), math.sin(math.radians(self.rotation))
        return (self.x + c * px - s * py, self.y + s * px + c * py)

    def center(self) -> tuple[float, float]:
        """Centre of the object's outline (its position for points)."""
        pts = self.outline()
        if not pts:
            return (self.x, self.y)
        if self.kind in ("polygon", "polyline"):
            return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if self.kind == "point":
            return pts[0]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


class ObjectGroup(list):
    """An object layer's objects (a list, in the file's order) and ``draw_order``: Tiled's ``draworder``,
    ``"topdown"`` (Tiled's default: drawn by their y, lowest first) or ``"index"`` (in the list's order)."""

    draw_order: str = "topdown"

    def drawn_in_order(self) -> list[MapObject]:
        """The objects in the order Tiled draws them."""
        return sorted(self, key=lambda obj: obj.y) if self.draw_order == "topdown" else list(self)


def add_object_group(group: list[MapObject], offset: tuple[float, float], visible: bool, layers: list,
                     objects: list[MapObject], opacity: float = 1.0, tint: Tint = NO_TINT,
                     draw_order: str = "topdown") -> None:
    """An object layer read by either reader: its objects moved by the layer's (and its groups') offset,
    hidden with it and drawn with its opacity and tint, appended to the map's layers (as an
    :class:`ObjectGroup`) and objects."""
    for obj in group:
        obj.x += offset[0]
        obj.y += offset[1]
        obj.visible = obj.visible and visible
        obj.opacity, obj.tint = opacity, tint
    layer = ObjectGroup(group)
    layer.draw_order = "index" if draw_order == "index" else "topdown"
    layers.append(layer)
    objects.extend(group)


@dataclass
class TileLayer:
    """A tile layer: ``cells[row][col]`` are Tiled gids with their flip bits (0 = empty); row 0 is the
    top row. ``offset`` (pixels, y down) is the layer's own offset plus its groups'; ``parallax``, ``opacity``
    (0-1) and ``tint`` are its own multiplied by its groups'."""

    name: str
    cells: list[list[int]]
    properties: dict[str, Any]
    visible: bool = True
    offset: tuple[float, float] = (0.0, 0.0)
    parallax: tuple[float, float] = (1.0, 1.0)
    opacity: float = 1.0
    tint: Tint = NO_TINT


@dataclass
class ImageTile:
    """A tile of an image-collection tileset: its own image and that image's size (pixels)."""

    image: Path
    width: int
    height: int


@dataclass
class Tileset:
    """A tileset's gid range, tile size, image and per-tile data (local tile id -> ...).

    ``offset`` is the tileset's ``<tileoffset>`` (pixels, y down): Tiled draws every tile of the set moved
    by it. ``image_tiles`` is filled for image-collection tilesets (each tile its own image and size).
    ``margin`` and ``spacing`` (pixels) are the sheet's border around its tiles and the gap between them."""

    name: str
    firstgid: int
    tilecount: int
    tilewidth: int
    tileheight: int
    columns: int
    source: Path
    image: Path | None
    tile_properties: dict[int, dict[str, Any]]
    tile_shapes: dict[int, list[MapObject]]
    tile_animations: dict[int, list[tuple[int, int]]]
    offset: tuple[float, float] = (0.0, 0.0)
    image_tiles: dict[int, ImageTile] = field(default_factory=dict)
    margin: int = 0
    spacing: int = 0

    def image_rect(self, local: int) -> tuple[int, int, int, int]:
        """Where tile ``local`` is cut from the sheet: (left, top, width, height) in the image's pixels (y down),
        margin and spacing counted as Tiled counts them."""
        columns = max(self.columns, 1)
        return (self.margin + (local % columns) * (self.tilewidth + self.spacing),
                self.margin + (local // columns) * (self.tileheight + self.spacing), self.tilewidth, self.tileheight)

    def tile_size(self, local: int) -> tuple[int, int]:
        """Pixel size of one tile: its own image's for image collections, else the set's tile size."""
        own = self.image_tiles.get(local)
        return (own.width, own.height) if own is not None else (self.tilewidth, self.tileheight)

    def tile_class(self, local: int) -> str:
        """The tile's class (Tiled 1.9 ``class``, older ``type``), or ``""``."""
        return str(self.tile_properties.get(local, {}).get("class", ""))


@dataclass
class TiledMap:
    """Everything the level module needs from a map file, in file order (Tiled's frame)."""

    path: Path
    width: int
    height: int
    tilewidth: int
    tileheight: int
    properties: dict[str, Any]
    layers: list[TileLayer | list[MapObject] | dict]
    """Tile layers, object groups (lists of objects) and image layers, each a dict: ``name``, ``image`` (its
    path, or ``None``), ``offset`` (px, y down, groups' offsets added), ``parallax`` (factors, groups'
    multiplied in), ``visible``, ``repeat`` (Tiled's ``repeatx``, ``repeaty``), ``opacity`` and ``tint``
    (groups' multiplied in)."""
    tilesets: list[Tileset]
    objects: list[MapObject]
    tmx: Any = None
    """What the reader kept from its library: for TMX the ``pytmx.TiledMap`` whose gid registry decoded the
    tile layers (it holds no layers or objects: those are in this model); for JSON the parsed JSON map."""
    offset: tuple[float, float] = (0.0, 0.0)
    """Where a ``.world`` file places this map (pixels, y down); (0, 0) for a map loaded alone."""

    @property
    def pixel_size(self) -> tuple[int, int]:
        return (self.width * self.tilewidth, self.height * self.tileheight)

    def tileset_of(self, gid: int) -> Tileset | None:
        """The tileset holding a gid (flip bits removed), or None when no tileset has it."""
        found = None
        for ts in self.tilesets:
            if ts.firstgid <= gid:
                found = ts
        if found is None:
            return None
        local = gid - found.firstgid
        if found.image_tiles:  # image collections may have gaps in their ids
            return found if local in found.image_tiles else None
        return found if local < max(found.tilecount, 1) else None


TmxMap = TiledMap
"""The old name, kept for callers written before JSON maps were read."""
