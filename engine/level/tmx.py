"""Reading Tiled files: pytmx for the map, its tile layers and tilesets, and the one place that fills
pytmx's gaps.

pytmx (3.x) reads point, ellipse and text objects as plain rectangles, ignores object templates (``.tx``),
loses the file order of layers inside groups, and mixes tile flip flags into re-numbered gids. This module
reads objects itself, from the XML, for map object layers *and* for tileset tile collision shapes, so
every object kind, template, rotation, flip flag and Tiled 1.9 ``class`` / 1.10 ``type`` field is kept.

Coordinates here are Tiled's: pixels, y down, origin at the map's top-left. The level module converts them
to the engine's y-up frame, and nowhere else converts.

Bad input never reaches pytmx unchecked: the file size, entity declarations (the "billion laughs"
expansion), map dimensions and the tileset files are checked first, and every error names the file.
"""

from __future__ import annotations

import logging
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "LevelError",
    "MAX_FILE_BYTES",
    "MAX_TILES",
    "MapObject",
    "TileLayer",
    "TmxMap",
    "read_map",
]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest map, tileset or template file read (bytes)."""

MAX_TILES = 8_000_000
"""Most cells (width x height x tile layers) a map may have: a 2000 x 2000 map of two layers."""

FLIP_H = 1 << 31
FLIP_V = 1 << 30
FLIP_D = 1 << 29
GID_MASK = ~(FLIP_H | FLIP_V | FLIP_D | (1 << 28)) & 0xFFFFFFFF


class LevelError(ValueError):
    """A level that cannot be loaded. The message names the file and, where known, the layer, the object
    id and name, and the position."""


def _read_xml(path: Path, what: str) -> ET.Element:
    """Parse an XML file with bounds: size capped, no DTD or entity declarations (no entity expansion)."""
    try:
        size = path.stat().st_size
    except OSError:
        raise LevelError(f"{path}: {what} not found") from None
    if size > MAX_FILE_BYTES:
        raise LevelError(f"{path}: {what} is {size} bytes; more than {MAX_FILE_BYTES} is not read")
    data = path.read_bytes()
    head = data[:4096].upper()
    if b"<!DOCTYPE" in head or b"<!ENTITY" in data.upper():
        raise LevelError(f"{path}: {what} declares a DTD or entities; Tiled never writes those, refusing to expand them")
    try:
        return ET.fromstring(data)
    except ET.ParseError as error:
        raise LevelError(f"{path}: {what} is not well-formed XML ({error})") from None


def _number(value: str | None, default: float, where: str) -> float:
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise LevelError(f"{where}: {value!r} is not a number") from None
    if not math.isfinite(number):
        raise LevelError(f"{where}: {value!r} is not a finite number")
    return number


def _properties(node: ET.Element | None, where: str) -> dict[str, Any]:
    """Typed custom properties of a node (``<properties><property name type value/>``)."""
    props: dict[str, Any] = {}
    if node is None:
        return props
    for prop in node.findall("./properties/property"):
        name = prop.get("name", "")
        kind = prop.get("type", "string")
        raw = prop.get("value")
        if raw is None:
            raw = prop.text or ""
        if kind == "bool":
            props[name] = raw.strip().lower() == "true"
        elif kind == "int" or kind == "object":
            props[name] = int(_number(raw or "0", 0, f"{where}: property {name!r}"))
        elif kind == "float":
            props[name] = _number(raw, 0.0, f"{where}: property {name!r}")
        else:
            props[name] = raw
    return props


@dataclass
class MapObject:
    """One Tiled object, as authored (Tiled's frame: pixels, y down).

    ``kind`` is ``"rectangle"``, ``"ellipse"``, ``"point"``, ``"polygon"``, ``"polyline"``, ``"text"`` or
    ``"tile"``. ``points`` are relative to (x, y) for polygons and polylines. ``rotation`` is in degrees,
    clockwise (Tiled's convention), about (x, y). ``cls`` is the Tiled 1.9 ``class`` or the older / 1.10
    ``type`` field. For tile objects (x, y) is the bottom-left corner, as Tiled stores it.
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
        c, s = math.cos(math.radians(self.rotation)), math.sin(math.radians(self.rotation))
        return [(self.x + c * px - s * py, self.y + s * px + c * py) for px, py in local]

    def center(self) -> tuple[float, float]:
        """Centre of the object's outline (its position for points)."""
        pts = self.outline()
        if self.kind in ("polygon", "polyline"):
            return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if self.kind == "point":
            return pts[0]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def _read_object(node: ET.Element, layer: str, base: Path, where: str, templates: dict) -> MapObject:
    """An object node, merged over its template (the object's own attributes and properties win)."""
    attrs: dict[str, str] = {}
    props: dict[str, Any] = {}
    shape_node: ET.Element = node
    template_name = node.get("template")
    if template_name:
        template_path = (base / template_name).resolve()
        tpl = templates.get(template_path)
        if tpl is None:
            root = _read_xml(template_path, f"template {template_name!r} used by {where}")
            tobj = root.find("object")
            if tobj is None:
                raise LevelError(f"{template_path}: template has no object")
            tpl = templates[template_path] = tobj
        attrs.update(tpl.attrib)
        props.update(_properties(tpl, f"{template_path}"))
        if not any(node.find(tag) is not None for tag in ("ellipse", "point", "polygon", "polyline", "text")):
            shape_node = tpl
    attrs.update(node.attrib)
    props.update(_properties(node, where))
    oid = int(_number(attrs.get("id"), 0, where))
    here = f"{where}, object {oid}"
    kind = "rectangle"
    points: list[tuple[float, float]] = []
    for tag in ("ellipse", "point", "polygon", "polyline", "text"):
        child = shape_node.find(tag)
        if child is not None:
            kind = tag
            if tag in ("polygon", "polyline"):
                try:
                    points = [(float(a), float(b)) for a, b in (p.split(",") for p in child.get("points", "").split())]
                except ValueError:
                    raise LevelError(f"{here}: {tag} points {child.get('points')!r} are not 'x,y' pairs") from None
            break
    raw_gid = int(_number(attrs.get("gid"), 0, here))
    if raw_gid:
        kind = "tile"
    return MapObject(
        id=oid,
        name=attrs.get("name", ""),
        cls=attrs.get("class") or attrs.get("type", ""),
        layer=layer,
        kind=kind,
        x=_number(attrs.get("x"), 0.0, here),
        y=_number(attrs.get("y"), 0.0, here),
        width=_number(attrs.get("width"), 0.0, here),
        height=_number(attrs.get("height"), 0.0, here),
        rotation=_number(attrs.get("rotation"), 0.0, here),
        points=points,
        gid=raw_gid & GID_MASK,
        flip_h=bool(raw_gid & FLIP_H),
        flip_v=bool(raw_gid & FLIP_V),
        flip_d=bool(raw_gid & FLIP_D),
        properties=props,
        template=template_name,
        visible=attrs.get("visible", "1") != "0",
    )


@dataclass
class TileLayer:
    """A tile layer: ``cells[row][col]`` are Tiled gids with their flip bits (0 = empty); row 0 is the
    top row."""

    name: str
    cells: list[list[int]]
    properties: dict[str, Any]
    visible: bool = True
    offset: tuple[float, float] = (0.0, 0.0)
    parallax: tuple[float, float] = (1.0, 1.0)
    opacity: float = 1.0


@dataclass
class Tileset:
    """A tileset's gid range, tile size, image and per-tile data (local tile id -> ...)."""

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


@dataclass
class TmxMap:
    """Everything the level module needs from a ``.tmx`` file, in file order."""

    path: Path
    width: int
    height: int
    tilewidth: int
    tileheight: int
    properties: dict[str, Any]
    layers: list[TileLayer | list[MapObject] | dict]
    tilesets: list[Tileset]
    objects: list[MapObject]
    tmx: Any  # the pytmx.TiledMap, for anything else a game wants

    @property
    def pixel_size(self) -> tuple[int, int]:
        return (self.width * self.tilewidth, self.height * self.tileheight)

    def tileset_of(self, gid: int) -> Tileset | None:
        found = None
        for ts in self.tilesets:
            if ts.firstgid <= gid:
                found = ts
        return found if found is not None and gid < found.firstgid + max(found.tilecount, 1) else None


def read_map(path: str | Path) -> TmxMap:
    """Read a ``.tmx`` map: checks first (size, entities, dimensions, tileset files), then pytmx, then
    the objects, tile shapes and layer order pytmx does not keep."""
    path = Path(path)
    root = _read_xml(path, "map")
    if root.tag != "map":
        raise LevelError(f"{path}: not a Tiled map (the root element is <{root.tag}>, not <map>)")
    where = str(path)
    if root.get("infinite", "0") == "1":
        raise LevelError(
            f"{path}: infinite maps are not supported; in Tiled untick Map > Map Properties > Infinite"
        )
    width = int(_number(root.get("width"), 0, f"{where}: map width"))
    height = int(_number(root.get("height"), 0, f"{where}: map height"))
    tw = int(_number(root.get("tilewidth"), 0, f"{where}: tilewidth"))
    th = int(_number(root.get("tileheight"), 0, f"{where}: tileheight"))
    if width <= 0 or height <= 0 or tw <= 0 or th <= 0:
        raise LevelError(f"{path}: map size {width}x{height} tiles of {tw}x{th} px must all be positive")
    if tw > 4096 or th > 4096:
        raise LevelError(f"{path}: tiles of {tw}x{th} px are absurd (at most 4096 px)")
    layer_count = max(1, len(root.findall(".//layer")))
    if width * height * layer_count > MAX_TILES:
        raise LevelError(
            f"{path}: {width}x{height} tiles x {layer_count} layers is {width * height * layer_count:,} cells, "
            f"more than the {MAX_TILES:,} a level may have"
        )
    tilesets = [_read_tileset(path, node) for node in root.findall("tileset")]

    # pytmx logs an error when it finds no pygame at import; Ledgekit never needs pygame.
    logging.getLogger("pytmx.util_pygame").setLevel(logging.CRITICAL)
    import pytmx  # type: ignore[import-untyped]  # imported here: reading a map is the only thing needing it

    try:
        tmx = pytmx.TiledMap(str(path), load_all_tiles=False)
    except LevelError:
        raise
    except Exception as error:  # pytmx raises many kinds; name the file whatever it was
        raise LevelError(f"{path}: pytmx could not read the map: {type(error).__name__}: {error}") from None

    templates: dict = {}
    layers: list = []
    objects: list[MapObject] = []

    def walk(node: ET.Element, group_offset: tuple[float, float], group_visible: bool) -> None:
        for child in node:
            name = child.get("name", "")
            visible = group_visible and child.get("visible", "1") != "0"
            offset = (group_offset[0] + _number(child.get("offsetx"), 0.0, where),
                      group_offset[1] + _number(child.get("offsety"), 0.0, where))
            if child.tag == "group":
                walk(child, offset, visible)
            elif child.tag == "layer":
                layers.append(_tile_layer(path, child, width, height, offset, visible))
            elif child.tag == "objectgroup":
                group = [
                    _read_object(o, name, path.parent, f"{path}, layer {name!r}", templates)
                    for o in child.findall("object")
                ]
                for obj in group:
                    obj.x += offset[0]
                    obj.y += offset[1]
                    obj.visible = obj.visible and visible
                layers.append(group)
                objects.extend(group)
            elif child.tag == "imagelayer":
                image = child.find("image")
                layers.append({
                    "name": name,
                    "image": (path.parent / image.get("source", "")).resolve() if image is not None else None,
                    "offset": offset,
                    "parallax": (_number(child.get("parallaxx"), 1.0, where), _number(child.get("parallaxy"), 1.0, where)),
                    "visible": visible,
                })

    walk(root, (0.0, 0.0), True)
    return TmxMap(path, width, height, tw, th, _properties(root, where), layers, tilesets, objects, tmx)


def _tile_layer(path: Path, node: ET.Element, width: int, height: int, offset, visible: bool) -> TileLayer:
    """A tile layer's cells with flip bits kept (CSV or base64, optionally compressed)."""
    name = node.get("name", "")
    data = node.find("data")
    if data is None:
        raise LevelError(f"{path}, layer {name!r}: has no <data>")
    encoding = data.get("encoding")
    compression = data.get("compression")
    if data.find("chunk") is not None:
        raise LevelError(f"{path}, layer {name!r}: chunked (infinite) layer data is not supported")
    if encoding == "csv":
        try:
            flat = [int(v) for v in (data.text or "").replace("\n", "").split(",") if v.strip()]
        except ValueError:
            raise LevelError(f"{path}, layer {name!r}: CSV data is not a list of numbers") from None
    elif encoding == "base64":
        import base64
        import struct

        raw = base64.b64decode((data.text or "").strip())
        if compression == "zlib" or compression == "gzip":
            import zlib

            raw = zlib.decompress(raw, 15 + 32)
        elif compression == "zstd":
            raise LevelError(f"{path}, layer {name!r}: zstd-compressed layers are not supported; use zlib or CSV")
        flat = list(struct.unpack(f"<{len(raw) // 4}I", raw[: len(raw) // 4 * 4]))
    elif encoding is None:
        flat = [int(t.get("gid", "0")) for t in data.findall("tile")]
    else:
        raise LevelError(f"{path}, layer {name!r}: unknown data encoding {encoding!r}")
    if len(flat) != width * height:
        raise LevelError(f"{path}, layer {name!r}: has {len(flat)} cells, the map needs {width * height}")
    cells = [flat[r * width:(r + 1) * width] for r in range(height)]
    return TileLayer(
        name, cells, _properties(node, f"{path}, layer {name!r}"), visible, offset,
        (_number(node.get("parallaxx"), 1.0, str(path)), _number(node.get("parallaxy"), 1.0, str(path))),
        _number(node.get("opacity"), 1.0, str(path)),
    )


def _read_tileset(map_path: Path, node: ET.Element) -> Tileset:
    firstgid = int(_number(node.get("firstgid"), 1, f"{map_path}: tileset firstgid"))
    source = node.get("source")
    if source:
        ts_path = (map_path.parent / source).resolve()
        if not ts_path.exists():
            raise LevelError(f"{map_path}: tileset {source!r} not found (looked for {ts_path})")
        ts_node = _read_xml(ts_path, f"tileset {source!r}")
    else:
        ts_path, ts_node = map_path, node
    where = f"{ts_path}"
    image_node = ts_node.find("image")
    image = (ts_path.parent / image_node.get("source", "")).resolve() if image_node is not None else None
    props: dict[int, dict[str, Any]] = {}
    shapes: dict[int, list[MapObject]] = {}
    animations: dict[int, list[tuple[int, int]]] = {}
    templates: dict = {}
    for tile in ts_node.findall("tile"):
        tid = int(_number(tile.get("id"), 0, f"{where}: tile id"))
        tile_props = _properties(tile, f"{where}, tile {tid}")
        if tile.get("type") or tile.get("class"):
            tile_props.setdefault("class", tile.get("class") or tile.get("type"))
        props[tid] = tile_props
        group = tile.find("objectgroup")
        if group is not None:
            shapes[tid] = [
                _read_object(o, f"tile {tid}", ts_path.parent, f"{where}, tile {tid} collision", templates)
                for o in group.findall("object")
            ]
        anim = tile.find("animation")
        if anim is not None:
            animations[tid] = [(int(f.get("tileid", "0")), int(f.get("duration", "100"))) for f in anim.findall("frame")]
    return Tileset(
        name=ts_node.get("name", ""),
        firstgid=firstgid,
        tilecount=int(_number(ts_node.get("tilecount"), 0, where)),
        tilewidth=int(_number(ts_node.get("tilewidth"), 0, where)),
        tileheight=int(_number(ts_node.get("tileheight"), 0, where)),
        columns=int(_number(ts_node.get("columns"), 0, where)),
        source=ts_path,
        image=image,
        tile_properties=props,
        tile_shapes=shapes,
        tile_animations=animations,
    )
