"""Reading Tiled's XML files (``.tmx`` maps, ``.tsx`` tilesets, ``.tx`` templates) into the one model of
:mod:`engine.level.model`.

Each file is parsed once, by :func:`engine.level.source.read_xml` (bounded: see there). The parsed tree is
then read by:

* **pytmx** for tile layer data (``pytmx.TiledTileLayer``: CSV and base64, uncompressed, zlib or gzip; its
  gid registry gives back every cell's gid and flip flags) and for casting typed custom property values
  (``pytmx.pytmx.prop_type``: bool, int, float, color, file, object, string, enum);
* **this module** for what pytmx does not read or reads wrongly, in one place (:class:`_GapFiller`): objects
  (pytmx 3.x reads points and ellipses as rectangles, ignores templates and renumbers tile object gids),
  tile collision shapes (the same object reader), the layer tree (pytmx flattens groups and loses their
  offsets and parallax), tilesets (pytmx's ``TiledTileset`` re-reads an external ``.tsx`` with an unbounded
  ``ElementTree.parse``, fails on tilesets without ``tilecount`` and on class-typed properties) and
  class-typed properties (pytmx needs the project's custom types to read them, else ``KeyError`` /
  ``TypeError``; they become nested dicts here);
* hostile-input checks before pytmx sees a layer: the inflated size of compressed data is capped by the
  map's dimensions, so a small zlib bomb never inflates.

Every number is checked finite and within bounds where it is read, and every error names the file, layer
and object. Coordinates are Tiled's: pixels, y down, origin at the map's top-left.
"""

from __future__ import annotations

import base64
import binascii
import logging
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

from .model import (
    FLIP_D, FLIP_H, FLIP_V, GID_MASK, MAX_COORD, MAX_OBJECTS, MAX_TILES, Budget, ImageTile, LayerLook, PLAIN_LOOK,
    LevelError, MapObject, ObjectRef, TiledMap, TileLayer, Tileset, TmxMap, add_object_group, check_int, check_number,
    read_tint,
)
from .formats import MAP_READERS, TILESET_READERS, read_map_file, read_tileset_file
from .source import path_kind, read_xml, resolve_name

__all__ = [
    "FLIP_D", "FLIP_H", "FLIP_V", "GID_MASK", "LevelError", "MapObject", "TileLayer", "Tileset", "TmxMap",
    "read_map",
]

_SHAPE_TAGS = ("ellipse", "point", "polygon", "polyline", "text")
_MAX_POINTS = 10_000
"""Most vertices one polygon or polyline may have."""


def _pytmx() -> Any:
    # pytmx logs an error when it finds no pygame at import; Ledgekit never needs pygame.
    logging.getLogger("pytmx.util_pygame").setLevel(logging.CRITICAL)
    import pytmx  # type: ignore[import-untyped]  # imported here: reading a TMX map is the only user

    return pytmx


def read_map(path: str | Path) -> TiledMap:
    """Read a ``.tmx`` map (or, by extension, a ``.tmj`` / ``.json`` one: see :mod:`.tiled_json`)."""
    path = Path(path)
    if path.suffix.lower() == ".world":
        raise LevelError(f"{path}: a .world file lists maps; load it with load_world (or `ledgekit check` it)")
    if path.suffix.lower() != ".tmx" and path.suffix.lower() in MAP_READERS:
        return read_map_file(path)  # a JSON map (engine.level.tiled_json)
    root = read_xml(path, "map")
    if root.tag != "map":
        raise LevelError(f"{path}: not a Tiled map (the root element is <{root.tag}>, not <map>)")
    return _GapFiller(path, root).read()


def map_size_checks(path: Path, orientation: str, infinite: bool, width: int, height: int, tw: int, th: int,
                    layer_count: int) -> None:
    """The checks on a map's header shared by the TMX and JSON readers."""
    if orientation != "orthogonal":
        raise LevelError(f"{path}: {orientation} maps are not supported, only orthogonal ones "
                         "(Tiled: Map > Map Properties > Orientation)")
    if infinite:
        raise LevelError(f"{path}: infinite maps are not supported; in Tiled untick Map > Map Properties > Infinite")
    if width <= 0 or height <= 0 or tw <= 0 or th <= 0:
        raise LevelError(f"{path}: map size {width}x{height} tiles of {tw}x{th} px must all be positive")
    if tw > 4096 or th > 4096:
        raise LevelError(f"{path}: tiles of {tw}x{th} px are absurd (at most 4096 px)")
    cells = width * height * max(1, layer_count)
    if cells > MAX_TILES:
        raise LevelError(f"{path}: {width}x{height} tiles x {max(1, layer_count)} layers is {cells:,} cells, "
                         f"more than the {MAX_TILES:,} a level may have")


class _GapFiller:
    """Reads one parsed ``.tmx`` tree: pytmx for layer data and property values, itself for the rest."""

    def __init__(self, path: Path, root: ET.Element) -> None:
        self.path = path
        self.root = root
        self.templates: dict[Path, tuple[ET.Element, Path, list[tuple[int, Path]]]] = {}
        self.tilesets: list[Tileset] = []
        self.budget = Budget(path)

    # ------------------------------------------------------------------ map
    def read(self) -> TiledMap:
        path, root = self.path, self.root
        where = str(path)
        width = check_int(root.get("width"), f"{where}: map width", default=0, high=100_000)
        height = check_int(root.get("height"), f"{where}: map height", default=0, high=100_000)
        tw = check_int(root.get("tilewidth"), f"{where}: tilewidth", default=0, high=100_000)
        th = check_int(root.get("tileheight"), f"{where}: tileheight", default=0, high=100_000)
        map_size_checks(path, root.get("orientation", "orthogonal"), root.get("infinite", "0") == "1",
                        width, height, tw, th, sum(1 for _ in root.iter("layer")))
        count = sum(1 for _ in root.iter("object"))
        if count > MAX_OBJECTS:
            raise LevelError(f"{path}: {count:,} objects, more than the {MAX_OBJECTS:,} a level may have")
        self.width, self.height = width, height
        pytmx = _pytmx()
        self.pmap = pytmx.TiledMap()  # the gid registry the layers share; no file: the tree is ours
        self.pmap.filename = str(path)
        self.tilesets = [self.tileset(node) for node in root.findall("tileset")]
        layers: list = []
        objects: list[MapObject] = []
        self.walk(root, (0.0, 0.0), (1.0, 1.0), True, layers, objects)
        self.restore_flip_bits(layers)
        props = self.properties(root, where)
        tiled = TiledMap(path, width, height, tw, th, props, layers, self.tilesets, objects, self.pmap)
        inherit_from_tiles(tiled)
        return tiled

    def walk(self, node: ET.Element, offset: tuple[float, float], parallax: tuple[float, float], visible: bool,
             layers: list, objects: list[MapObject], look: LayerLook = PLAIN_LOOK) -> None:
        """Layers in file order, with their groups' offsets, parallax factors, visibility, opacity and tint
        folded in."""
        for child in node:
            if child.tag not in ("group", "layer", "objectgroup", "imagelayer"):
                continue
            name = child.get("name", "")
            where = f"{self.path}, layer {name!r}"
            here_visible = visible and child.get("visible", "1") != "0"
            here_offset = (offset[0] + check_number(child.get("offsetx"), f"{where}: offsetx", default=0.0),
                           offset[1] + check_number(child.get("offsety"), f"{where}: offsety", default=0.0))
            here_parallax = (parallax[0] * check_number(child.get("parallaxx"), f"{where}: parallaxx", default=1.0),
                             parallax[1] * check_number(child.get("parallaxy"), f"{where}: parallaxy", default=1.0))
            here_look = look.within(
                check_number(child.get("opacity"), f"{where}: opacity", default=1.0, low=0.0, high=1.0),
                read_tint(child.get("tintcolor"), where))
            if child.tag == "group":
                self.walk(child, here_offset, here_parallax, here_visible, layers, objects, here_look)
            elif child.tag == "layer":
                layers.append(self.tile_layer(child, here_offset, here_parallax, here_visible, here_look))
            elif child.tag == "objectgroup":
                group = [self.map_object(o, name, where) for o in child.findall("object")]
                add_object_group(group, here_offset, here_visible, layers, objects, *here_look,
                                 draw_order=child.get("draworder", "topdown"))
            else:
                image = child.find("image")
                layers.append({
                    "name": name,
                    "image": resolve_name(self.path.parent, image.get("source", ""), where) if image is not None
                    else None,
                    "offset": here_offset, "parallax": here_parallax, "visible": here_visible,
                    "repeat": (child.get("repeatx", "0") == "1", child.get("repeaty", "0") == "1"),
                    "opacity": here_look.opacity, "tint": here_look.tint,
                })

    # ------------------------------------------------------------------ tile layers
    def tile_layer(self, node: ET.Element, offset: tuple[float, float], parallax: tuple[float, float],
                   visible: bool, look: LayerLook = PLAIN_LOOK) -> TileLayer:
        """A tile layer's cells, decoded by pytmx (flip bits restored later by :meth:`restore_flip_bits`)."""
        name = node.get("name", "")
        where = f"{self.path}, layer {name!r}"
        data = node.find("data")
        if data is None:
            raise LevelError(f"{where}: has no <data>")
        if data.find("chunk") is not None:
            raise LevelError(f"{where}: chunked (infinite) layer data is not supported")
        encoding, compression = data.get("encoding"), data.get("compression")
        needed = self.width * self.height
        if encoding is None:
            # The oldest format, one <tile gid> element per cell, which pytmx no longer reads.
            flat = [check_int(t.get("gid"), f"{where}: tile gid", default=0) for t in data.findall("tile")]
            data = ET.Element("data", {"encoding": "csv"})
            data.text = ",".join(map(str, flat)) or "0"
        elif encoding == "base64":
            check_inflated_size(data.text or "", compression, needed, where)
        elif encoding != "csv":
            raise LevelError(f"{where}: unknown data encoding {encoding!r} (Tiled writes csv or base64)")
        # pytmx gets the cells only: its property reader would fail on class-typed properties (read below).
        bare = ET.Element("layer", {"name": name, "width": str(self.width), "height": str(self.height)})
        bare.append(data)
        try:
            decoded = _pytmx().TiledTileLayer(self.pmap, bare)
        except (ValueError, TypeError, OverflowError, zlib.error, binascii.Error, EOFError, OSError) as error:
            raise LevelError(f"{where}: layer data cannot be decoded ({type(error).__name__}: {error})") from None
        cells = [list(row) for row in decoded.data]
        count = sum(len(row) for row in cells)
        if count != needed:
            raise LevelError(f"{where}: has {count} cells, the map needs {needed}")
        return TileLayer(name, cells, self.properties(node, where), visible, offset, parallax, *look)

    def restore_flip_bits(self, layers: list) -> None:
        """pytmx renumbers each (gid, flips) pair it meets; map its numbers back to Tiled's raw gids."""
        import numpy as np

        back = np.zeros(max(self.pmap.maxgid, 1), dtype=np.int64)
        for (tiled_gid, flags), value in self.pmap.imagemap.items():
            if tiled_gid:  # the (0, 0) entry maps to a bare 0
                back[value[0]] = tiled_gid | (FLIP_H if flags[0] else 0) | (FLIP_V if flags[1] else 0) | \
                    (FLIP_D if flags[2] else 0)
        for layer in layers:
            if isinstance(layer, TileLayer):
                grid = np.asarray(layer.cells, dtype=np.int64).reshape(self.height, self.width)
                raw = back[grid]
                if raw.size and (raw.min() < 0 or raw.max() > 0xFFFFFFFF):
                    raise LevelError(f"{self.path}, layer {layer.name!r}: a cell's gid is outside 0 .. 2^32-1")
                layer.cells = raw.tolist()

    # ------------------------------------------------------------------ properties
    def properties(self, node: ET.Element | None, where: str) -> dict[str, Any]:
        """Typed custom properties of a node: values cast by pytmx's casters, numbers checked, class-typed
        properties (Tiled 1.8+) as nested dicts."""
        props: dict[str, Any] = {}
        if node is None:
            return props
        casters = _pytmx().pytmx.prop_type
        for prop in node.findall("./properties/property"):
            name = prop.get("name", "")
            kind = prop.get("type", "string")
            here = f"{where}: property {name!r}"
            if kind == "class":
                props[name] = self.properties(prop, here)
                continue
            raw = prop.get("value")
            if raw is None:
                raw = prop.text or ""
            if kind in ("int", "float", "object"):
                number = check_number(raw or "0", here, low=-1e300, high=1e300)
                props[name] = number if kind == "float" else check_int(number, here, low=-2**63, high=2**63)
                if kind == "object":
                    props[name] = ObjectRef(props[name])
                continue
            try:
                props[name] = casters.get(kind, str)(raw)
            except (ValueError, TypeError):
                raise LevelError(f"{here}: {raw[:40]!r} is not a valid {kind}") from None
        return props

    # ------------------------------------------------------------------ objects
    def map_object(self, node: ET.Element, layer: str, where: str) -> MapObject:
        """An object node, merged over its template (the object's own attributes and properties win)."""
        attrs: dict[str, str] = {}
        props: dict[str, Any] = {}
        shape_node = node
        template_name = node.get("template")
        gid_from_template = None
        oid_text = node.get("id", "0")
        if template_name:
            tpl, tpl_path, tpl_tilesets = self.template(template_name, f"{where}, object {oid_text}")
            attrs.update(tpl.attrib)
            props.update(self.properties(tpl, str(tpl_path)))
            if tpl.get("gid") is not None and node.get("gid") is None:
                gid_from_template = self.template_gid(tpl.get("gid"), tpl_tilesets, tpl_path)
            if not any(node.find(tag) is not None for tag in _SHAPE_TAGS):
                shape_node = tpl
        attrs.update(node.attrib)
        self.budget.take("objects", 1, where)
        oid = check_int(attrs.get("id"), f"{where}: object id", default=0)
        here = f"{where}, object {oid}" + (f" {attrs['name']!r}" if attrs.get("name") else "")
        props.update(self.properties(node, here))
        kind, points = "rectangle", []
        for tag in _SHAPE_TAGS:
            child = shape_node.find(tag)
            if child is not None:
                kind = tag
                if tag in ("polygon", "polyline"):
                    points = _points(child.get("points", ""), f"{here}: {tag} points")
                    self.budget.take("polygon and polyline points", len(points), here)
                break
        raw_gid = gid_from_template if gid_from_template is not None else \
            check_int(attrs.get("gid"), f"{here}: gid", default=0)
        if raw_gid:
            kind = "tile"
        return MapObject(
            id=oid, name=attrs.get("name", ""), cls=attrs.get("class") or attrs.get("type", ""), layer=layer,
            kind=kind,
            x=check_number(attrs.get("x"), f"{here}: x", default=0.0),
            y=check_number(attrs.get("y"), f"{here}: y", default=0.0),
            width=check_number(attrs.get("width"), f"{here}: width", default=0.0, low=0.0),
            height=check_number(attrs.get("height"), f"{here}: height", default=0.0, low=0.0),
            rotation=check_number(attrs.get("rotation"), f"{here}: rotation", default=0.0, low=-3600, high=3600),
            points=points, gid=raw_gid & GID_MASK, flip_h=bool(raw_gid & FLIP_H), flip_v=bool(raw_gid & FLIP_V),
            flip_d=bool(raw_gid & FLIP_D), properties=props, template=template_name,
            visible=attrs.get("visible", "1") != "0",
        )

    def template(self, name: str, where: str) -> tuple[ET.Element, Path, list[tuple[int, Path]]]:
        """A template's object node, its file and its tilesets (firstgid, resolved source), read once."""
        tpl_path = resolve_name(self.path.parent, name, where)
        cached = self.templates.get(tpl_path)
        if cached is None:
            root = read_xml(tpl_path, f"template {name!r} used by {where}")
            tobj = root.find("object")
            if root.tag != "template" or tobj is None:
                raise LevelError(f"{tpl_path}: not a Tiled template (no <template><object>)")
            sets = [(check_int(t.get("firstgid"), f"{tpl_path}: tileset firstgid", default=1),
                     resolve_name(tpl_path.parent, t.get("source", ""), str(tpl_path))) for t in root.findall("tileset")]
            cached = self.templates[tpl_path] = (tobj, tpl_path, sets)
        return cached

    def template_gid(self, text: str | None, tpl_tilesets: list[tuple[int, Path]], tpl_path: Path) -> int:
        """A template's tile gid renumbered into this map's gids (the template names its own tileset)."""
        raw = check_int(text, f"{tpl_path}: gid", default=0)
        gid, flags = raw & GID_MASK, raw & ~GID_MASK & 0xFFFFFFFF
        owner = max((t for t in tpl_tilesets if t[0] <= gid), default=None, key=lambda t: t[0])
        if owner is None:
            return raw
        for ts in self.tilesets:
            if ts.source == owner[1]:
                return (ts.firstgid + gid - owner[0]) | flags
        raise LevelError(f"{tpl_path}: the template's tileset {owner[1].name!r} is not used by the map {self.path}")

    # ------------------------------------------------------------------ tilesets
    def tileset(self, node: ET.Element) -> Tileset:
        """A tileset entry of the map: inline, or an external ``.tsx`` read with bounds."""
        where = f"{self.path}: tileset"
        firstgid = check_int(node.get("firstgid"), f"{where} firstgid", default=1, low=1, high=GID_MASK)
        source = node.get("source")
        if source:
            ts_path = resolve_name(self.path.parent, source, where)
            if path_kind(ts_path) == "missing":
                raise LevelError(f"{self.path}: tileset {source!r} not found (looked for {ts_path})")
            if ts_path.suffix.lower() in (".tsj", ".json"):
                return read_tileset_file(ts_path, firstgid, self.path, self.budget)  # (engine.level.tiled_json)
            ts_node = read_xml(ts_path, f"tileset {source!r} used by {self.path}")
            if ts_node.tag != "tileset":
                raise LevelError(f"{ts_path}: not a Tiled tileset (the root element is <{ts_node.tag}>)")
        else:
            ts_path, ts_node = self.path, node
        return self.tileset_body(ts_node, ts_path, firstgid)

    def tileset_body(self, ts_node: ET.Element, ts_path: Path, firstgid: int) -> Tileset:
        where = f"{ts_path}, tileset {ts_node.get('name', '')!r}"
        tw = check_int(ts_node.get("tilewidth"), f"{where}: tilewidth", default=0, high=100_000)
        th = check_int(ts_node.get("tileheight"), f"{where}: tileheight", default=0, high=100_000)
        columns = check_int(ts_node.get("columns"), f"{where}: columns", default=0, high=1_000_000)
        image_node = ts_node.find("image")
        image = resolve_name(ts_path.parent, image_node.get("source", ""), where) if image_node is not None else None
        tilecount = check_int(ts_node.get("tilecount"), f"{where}: tilecount", default=-1, low=-1, high=GID_MASK)
        if tilecount < 0:  # older Tiled wrote no tilecount: it follows from the image and the tile size
            tilecount = _tiles_in_image(image_node, tw, th, ts_node, where)
            columns = columns or max(1, check_int(image_node.get("width") if image_node is not None else None,
                                                  f"{where}: image width", default=0) // max(tw, 1))
        tile_offset = ts_node.find("tileoffset")
        offset = (0.0, 0.0) if tile_offset is None else (
            check_number(tile_offset.get("x"), f"{where}: tileoffset x", default=0.0),
            check_number(tile_offset.get("y"), f"{where}: tileoffset y", default=0.0))
        tileset = Tileset(ts_node.get("name", ""), firstgid, tilecount, tw, th, columns, ts_path, image, {}, {}, {},
                          offset, margin=check_int(ts_node.get("margin"), f"{where}: margin", default=0, high=100_000),
                          spacing=check_int(ts_node.get("spacing"), f"{where}: spacing", default=0, high=100_000))
        for tile in ts_node.findall("tile"):
            self.tile(tile, tileset, where)
        if tileset.image_tiles:
            tileset.tilecount = max(tileset.tilecount, max(tileset.image_tiles) + 1)
        return tileset

    def tile(self, tile: ET.Element, ts: Tileset, where: str) -> None:
        """One ``<tile>`` of a tileset: class, properties, own image, collision shapes, animation."""
        tid = check_int(tile.get("id"), f"{where}: tile id", high=GID_MASK)
        here = f"{where}, tile {tid}"
        props = self.properties(tile, here)
        if tile.get("type") or tile.get("class"):
            props.setdefault("class", tile.get("class") or tile.get("type"))
        ts.tile_properties[tid] = props
        own_image = tile.find("image")
        if own_image is not None:
            ts.image_tiles[tid] = ImageTile(
                resolve_name(ts.source.parent, own_image.get("source", ""), here),
                check_int(own_image.get("width"), f"{here}: image width", default=ts.tilewidth, high=100_000),
                check_int(own_image.get("height"), f"{here}: image height", default=ts.tileheight, high=100_000))
        group = tile.find("objectgroup")
        if group is not None:
            ts.tile_shapes[tid] = [self.map_object(o, f"tile {tid}", f"{here} collision")
                                   for o in group.findall("object")]
        animation = tile.find("animation")
        if animation is not None:
            ts.tile_animations[tid] = [
                (check_int(f.get("tileid"), f"{here}: animation tileid", default=0, high=GID_MASK),
                 check_int(f.get("duration"), f"{here}: animation duration", default=100, high=3_600_000))
                for f in animation.findall("frame")]


def check_inflated_size(text: str, compression: str | None, needed: int, where: str) -> None:
    """Refuse base64 layer data that inflates to more than the layer's 4 bytes per cell, without inflating
    more than that (a 1 MB zlib bomb would otherwise become gigabytes). Plain base64 is bounded by the file
    size already."""
    if not compression:
        return
    if compression not in ("zlib", "gzip"):
        raise LevelError(f"{where}: {compression}-compressed layers are not supported; use zlib, gzip or CSV")
    try:
        packed = base64.b64decode(text.strip())
        inflated = zlib.decompressobj(15 + 32).decompress(packed, needed * 4 + 1)  # zlib or gzip header
    except (binascii.Error, ValueError, zlib.error) as error:
        raise LevelError(f"{where}: layer data is not valid base64 {compression} ({error})") from None
    if len(inflated) > needed * 4:
        raise LevelError(f"{where}: compressed layer data inflates to more than the {needed} cells the map has")


def read_tsx_tileset(path: Path, firstgid: int, used_by: Path, budget: Budget | None = None) -> Tileset:
    """An external ``.tsx`` tileset (used by a JSON map), read as the TMX reader reads one, counting its
    objects and points against the map's ``budget``."""
    node = read_xml(path, f"tileset used by {used_by}")
    if node.tag != "tileset":
        raise LevelError(f"{path}: not a Tiled tileset (the root element is <{node.tag}>)")
    reader = _GapFiller(used_by, ET.Element("map"))
    reader.budget = budget or reader.budget
    return reader.tileset_body(node, path, firstgid)


def _tiles_in_image(image_node: ET.Element | None, tw: int, th: int, ts_node: ET.Element, where: str) -> int:
    """The tile count of a tileset that does not state it: the grid of its image, or its listed tiles."""
    if image_node is None or tw <= 0 or th <= 0:
        ids = [check_int(t.get("id"), f"{where}: tile id", high=GID_MASK) for t in ts_node.findall("tile")]
        return max(ids, default=-1) + 1
    spacing = check_int(ts_node.get("spacing"), f"{where}: spacing", default=0, high=100_000)
    margin = check_int(ts_node.get("margin"), f"{where}: margin", default=0, high=100_000)
    iw = check_int(image_node.get("width"), f"{where}: image width", default=0, high=1_000_000)
    ih = check_int(image_node.get("height"), f"{where}: image height", default=0, high=1_000_000)
    cols = max(0, (iw - 2 * margin + spacing) // (tw + spacing))
    rows = max(0, (ih - 2 * margin + spacing) // (th + spacing))
    return cols * rows


def _points(text: str, where: str) -> list[tuple[float, float]]:
    """Polygon / polyline points ``"x,y x,y ..."`` relative to the object, each coordinate checked."""
    pairs = text.split()
    if len(pairs) > _MAX_POINTS:
        raise LevelError(f"{where}: {len(pairs)} points, more than {_MAX_POINTS}")
    points = []
    for pair in pairs:
        xy = pair.split(",")
        if len(xy) != 2:
            raise LevelError(f"{where}: {pair[:40]!r} is not an 'x,y' pair")
        points.append((check_number(xy[0], where), check_number(xy[1], where)))
    return points


def inherit_from_tiles(tiled: TiledMap) -> None:
    """Tile objects take their tile's class when they have none (Tiled 1.9+), and its properties under
    their own, as Tiled shows them."""
    for obj in tiled.objects:
        if not obj.gid:
            continue
        ts = tiled.tileset_of(obj.gid)
        if ts is None:
            continue
        local = obj.gid - ts.firstgid
        tile_props = {k: v for k, v in ts.tile_properties.get(local, {}).items() if k != "class"}
        obj.properties = {**tile_props, **obj.properties}
        if not obj.cls:
            obj.cls = ts.tile_class(local)


__all__ += ["MAX_COORD", "check_inflated_size", "inherit_from_tiles", "map_size_checks", "read_tsx_tileset"]


MAP_READERS[".tmx"] = read_map
TILESET_READERS[".tsx"] = read_tsx_tileset
TILESET_READERS[".xml"] = read_tsx_tileset
