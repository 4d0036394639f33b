"""Reading Tiled's JSON files (``.tmj`` / ``.json`` maps, ``.tsj`` tilesets, ``.tj`` templates, ``.world``
files) into the model of :mod:`engine.level.model`, with the conventions and checks of the TMX reader.

Each file is parsed once: the map (and each external ``.tsj`` tileset and ``.tj`` template) by
:func:`engine.level.source.read_json` (bounded size and nesting), then the parsed values are read by
**pytiled-parser** (installed with arcade): ``parse_layer`` for every layer (tile data as arrays or base64
with zlib / gzip, objects of every kind, typed properties) and ``parse_json_tileset`` for tilesets.

Hand-written here, and why: turning its types into the model with every number checked where it is read;
object templates are merged here (pytiled-parser opens them without a bound and lets the template's fields
override the object's own); compressed layer data is checked not to inflate past the map's size before
pytiled-parser inflates it; ``.world`` files are read here (pytiled-parser's ``parse_world`` reads without
a bound and runs the file's regular expressions over the folder listing).

Coordinates are Tiled's: pixels, y down, origin at the map's top-left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .model import (
    FLIP_D, FLIP_H, FLIP_V, GID_MASK, MAX_OBJECTS, MAX_WORLD_MAPS, Budget, ImageTile, LayerLook, PLAIN_LOOK, LevelError,
    MapObject, ObjectRef, TiledMap, TileLayer, Tileset, add_object_group, check_int, check_number, read_tint,
)
from .formats import MAP_READERS, TILESET_READERS
from .source import read_json, resolve_name

__all__ = ["read_json_map", "read_json_tileset", "read_world"]

_OBJECT_DEFAULTS = (("id", 0), ("name", ""), ("visible", True), ("rotation", 0), ("width", 0), ("height", 0),
                    ("x", 0), ("y", 0))
_KINDS = {"Rectangle": "rectangle", "Ellipse": "ellipse", "Point": "point", "Polygon": "polygon",
          "Polyline": "polyline", "Text": "text", "Tile": "tile"}


def read_json_map(path: Path) -> TiledMap:
    """A ``.tmj`` (or ``.json``) map."""
    from .tmx import inherit_from_tiles, map_size_checks

    raw = read_json(path, "map")
    if isinstance(raw, dict) and raw.get("type") in ("tileset", "template"):
        raise LevelError(f"{path}: a Tiled {raw['type']}, not a map")
    if not isinstance(raw, dict) or raw.get("type", "map") != "map" or "layers" not in raw:
        raise LevelError(f"{path}: not a Tiled JSON map (no \"type\": \"map\" with layers)")
    where = str(path)
    width = check_int(raw.get("width"), f"{where}: map width", default=0, high=100_000)
    height = check_int(raw.get("height"), f"{where}: map height", default=0, high=100_000)
    tw = check_int(raw.get("tilewidth"), f"{where}: tilewidth", default=0, high=100_000)
    th = check_int(raw.get("tileheight"), f"{where}: tileheight", default=0, high=100_000)
    layers_raw = _list(raw.get("layers"), f"{where}: layers")
    map_size_checks(path, str(raw.get("orientation", "orthogonal")), bool(raw.get("infinite", False)),
                    width, height, tw, th, _count(layers_raw, "tilelayer"))
    objects = _count(layers_raw, "objectgroup")
    if objects > MAX_OBJECTS:
        raise LevelError(f"{path}: {objects:,} objects, more than the {MAX_OBJECTS:,} a level may have")
    reader = _JsonReader(path, width, height)
    tilesets = [reader.tileset(entry) for entry in _list(raw.get("tilesets", []), f"{where}: tilesets")]
    reader.tilesets = tilesets
    layers: list = []
    found: list[MapObject] = []
    for raw_layer in layers_raw:
        reader.layer(raw_layer, (0.0, 0.0), (1.0, 1.0), True, layers, found)
    props = reader.properties(raw.get("properties"), where)
    tiled = TiledMap(path, width, height, tw, th, props, layers, tilesets, found, raw)
    inherit_from_tiles(tiled)
    return tiled


def read_json_tileset(path: Path, firstgid: int, used_by: Path, budget: Budget | None = None) -> Tileset:
    """A ``.tsj`` tileset used by a map, its gids starting at ``firstgid``; its objects and points count
    against the map's ``budget``."""
    raw = read_json(path, f"tileset used by {used_by}")
    if not isinstance(raw, dict):
        raise LevelError(f"{path}: not a Tiled JSON tileset")
    reader = _JsonReader(used_by, 0, 0)
    reader.budget = budget or reader.budget
    return reader.tileset_body(raw, path, firstgid)


def read_world(path: Path) -> list[tuple[Path, tuple[float, float]]]:
    """A ``.world`` file: each map's file and where the world places its top-left corner (pixels, y down)."""
    raw = read_json(path, "world")
    if not isinstance(raw, dict) or not isinstance(raw.get("maps", []), list):
        raise LevelError(f"{path}: not a Tiled world file (no \"maps\" list)")
    if raw.get("patterns"):
        raise LevelError(f"{path}: world patterns (regular expressions over file names) are not supported; "
                         "list the maps instead")
    if len(raw.get("maps", [])) > MAX_WORLD_MAPS:
        raise LevelError(f"{path}: lists {len(raw['maps']):,} maps, more than the {MAX_WORLD_MAPS} a world may have")
    home = path.parent.resolve()
    out = []
    for k, entry in enumerate(raw.get("maps", [])):
        here = f"{path}: map {k + 1}"
        if not isinstance(entry, dict) or not isinstance(entry.get("fileName"), str):
            raise LevelError(f"{here}: has no fileName")
        target = resolve_name(home, entry["fileName"], here)
        if not target.is_relative_to(home):
            raise LevelError(f"{here}: {entry['fileName']!r} is outside the world's folder")
        out.append((target, (check_number(entry.get("x"), f"{here}: x", default=0.0),
                             check_number(entry.get("y"), f"{here}: y", default=0.0))))
    return out


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise LevelError(f"{where}: expected a list")
    return value


def _count(layers: list, kind: str) -> int:
    """Tile layers (``tilelayer``) or objects (``objectgroup``) in a layer list, groups included."""
    total, stack = 0, list(layers)
    while stack:
        layer = stack.pop()
        if not isinstance(layer, dict):
            continue
        if layer.get("type") == "group" and isinstance(layer.get("layers"), list):
            stack.extend(layer["layers"])
        elif layer.get("type") == kind:
            total += len(layer.get("objects", [])) if kind == "objectgroup" and isinstance(
                layer.get("objects"), list) else 1
    return total


class _JsonReader:
    """Turns pytiled-parser's types into the model, checking numbers; one per map."""

    def __init__(self, path: Path, width: int, height: int) -> None:
        self.path, self.width, self.height = path, width, height
        self.tilesets: list[Tileset] = []
        self.templates: dict[Path, Any] = {}
        self.budget = Budget(path)

    def properties(self, raw: Any, where: str) -> dict[str, Any]:
        """Custom properties via pytiled-parser; numbers checked, files as text, colours as ``#aarrggbb``."""
        if raw is None:
            return {}
        from pytiled_parser.properties import Color
        from pytiled_parser.parsers.json.properties import parse as parse_properties

        if isinstance(raw, list):  # JSON writes 80 for a float property of 80; keep the declared type
            raw = [{**p, "value": float(p["value"])} if isinstance(p, dict) and p.get("type") == "float"
                   and isinstance(p.get("value"), (int, float)) and not isinstance(p.get("value"), bool) else p
                   for p in raw]
        try:
            parsed = parse_properties(raw)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise LevelError(f"{where}: properties cannot be read ({type(error).__name__}: {error})") from None
        out: dict[str, Any] = {}
        references = {p.get("name") for p in raw if isinstance(p, dict) and p.get("type") == "object"} \
            if isinstance(raw, list) else set()
        for name, value in parsed.items():
            here = f"{where}: property {name!r}"
            if name in references and isinstance(value, int) and not isinstance(value, bool):
                out[name] = ObjectRef(check_number(value, here, low=0, high=2**62))
                continue
            if isinstance(value, bool) or isinstance(value, (str, dict)):
                out[name] = value
            elif isinstance(value, (int, float)):
                number = check_number(value, here, low=-1e300, high=1e300)
                out[name] = value if isinstance(value, int) else number
            elif isinstance(value, Color):
                out[name] = "#{:02x}{:02x}{:02x}{:02x}".format(value.alpha, value.red, value.green, value.blue)
            else:
                out[name] = str(value)
        return out

    # ------------------------------------------------------------------ layers
    def layer(self, raw: Any, offset: tuple[float, float], parallax: tuple[float, float], visible: bool,
              layers: list, objects: list[MapObject], look: LayerLook = PLAIN_LOOK) -> None:
        """One raw layer (recursing into groups), read by pytiled-parser, offsets, parallax, opacity and tint
        folded in."""
        if not isinstance(raw, dict):
            raise LevelError(f"{self.path}: a layer is not a JSON object")
        name = str(raw.get("name", ""))
        where = f"{self.path}, layer {name!r}"
        here_visible = visible and bool(raw.get("visible", True))
        here_offset = (offset[0] + check_number(raw.get("offsetx"), f"{where}: offsetx", default=0.0),
                       offset[1] + check_number(raw.get("offsety"), f"{where}: offsety", default=0.0))
        here_parallax = (parallax[0] * check_number(raw.get("parallaxx"), f"{where}: parallaxx", default=1.0),
                         parallax[1] * check_number(raw.get("parallaxy"), f"{where}: parallaxy", default=1.0))
        here_look = look.within(check_number(raw.get("opacity"), f"{where}: opacity", default=1.0, low=0.0, high=1.0),
                                read_tint(raw.get("tintcolor"), where))
        kind = raw.get("type")
        if kind == "group":
            for child in _list(raw.get("layers", []), f"{where}: layers"):
                self.layer(child, here_offset, here_parallax, here_visible, layers, objects, here_look)
            return
        checked = self.precheck(raw, kind, where)
        parsed = self.parse_layer(checked, where)
        if kind == "tilelayer":
            layers.append(TileLayer(name, self.cells(parsed.data, where), self.properties(raw.get("properties"), where),
                                    here_visible, here_offset, here_parallax, *here_look))
        elif kind == "objectgroup":
            # Each object's properties are read from its JSON (templates merged), which keeps their declared types:
            # pytiled-parser's give an object reference as a bare int and a float of 160 as an int.
            raws = [o.get("properties") if isinstance(o, dict) else None for o in checked.get("objects", [])]
            group = [self.map_object(o, name, where, props) for o, props in zip(parsed.tiled_objects, raws)]
            add_object_group(group, here_offset, here_visible, layers, objects, *here_look,
                             draw_order=str(raw.get("draworder", "topdown")))
        elif kind == "imagelayer":
            image = raw.get("image")
            layers.append({"name": name, "image": resolve_name(self.path.parent, str(image), where) if image else None,
                           "offset": here_offset, "parallax": here_parallax, "visible": here_visible,
                           "repeat": (raw.get("repeatx") is True, raw.get("repeaty") is True),
                           "opacity": here_look.opacity, "tint": here_look.tint})

    def precheck(self, raw: dict, kind: Any, where: str) -> dict:
        """What pytiled-parser would otherwise do unbounded or wrongly: inflate layer data without a cap, open
        template files itself and let the template's fields override the object's own. Returns the layer
        to hand it, templates merged in."""
        from .tmx import check_inflated_size

        if kind == "tilelayer":
            if raw.get("chunks") is not None:
                raise LevelError(f"{where}: chunked (infinite) layer data is not supported")
            if raw.get("encoding") == "base64":
                check_inflated_size(str(raw.get("data", "")), raw.get("compression") or None,
                                    self.width * self.height, where)
        elif kind == "objectgroup":
            objects = _list(raw.get("objects", []), f"{where}: objects")
            return {**raw, "objects": [self.merge_template(o, where) for o in objects]}
        return raw

    def merge_template(self, obj: Any, where: str) -> Any:
        """An object over its ``.tj`` template, as Tiled merges them: the object's own fields and properties
        win; a template tile's gid is renumbered into this map's tilesets."""
        if not isinstance(obj, dict):
            return obj
        if not obj.get("template"):
            # Older Tiled wrote no id and no empty fields; pytiled-parser requires them all.
            return {**dict(_OBJECT_DEFAULTS), **obj}
        name = str(obj["template"])
        here = f"{where}, object {obj.get('id', '?')}"
        tpl_path = resolve_name(self.path.parent, name, here)
        if tpl_path.suffix.lower() == ".tx":
            raise LevelError(f"{here}: XML template {name!r} in a JSON map; save the template as .tj")
        tpl = self.templates.get(tpl_path)
        if tpl is None:
            tpl = self.templates[tpl_path] = read_json(tpl_path, f"template {name!r} used by {here}")
        if not isinstance(tpl, dict) or not isinstance(tpl.get("object"), dict):
            raise LevelError(f"{tpl_path}: not a Tiled template (no \"object\")")
        base = {k: v for k, v in tpl["object"].items() if k not in ("id", "x", "y")}
        merged = {**base, **{k: v for k, v in obj.items() if k != "template"}}
        own_props = _list(obj.get("properties", []), f"{here}: properties")
        base_props = _list(base.get("properties", []), f"{tpl_path}: properties")
        own = {str(p.get("name")) for p in own_props if isinstance(p, dict)}
        inherited = [p for p in base_props if isinstance(p, dict) and str(p.get("name")) not in own]
        merged["properties"] = [*own_props, *inherited]
        if "gid" in base and "gid" not in obj:
            merged["gid"] = self.template_gid(tpl, tpl_path, base["gid"], here)
        return {**dict(_OBJECT_DEFAULTS), **merged}

    def parse_layer(self, raw: dict, where: str) -> Any:
        from pytiled_parser.parsers.json.layer import parse as parse_layer

        try:
            return parse_layer(raw, "utf-8", self.path.parent)  # type: ignore[arg-type]  # checked by pytiled
        except LevelError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OSError, EOFError) as error:
            raise LevelError(f"{where}: pytiled-parser cannot read the layer ({type(error).__name__}: {error})") \
                from None
        except Exception as error:  # zlib.error and the like: any failure is this layer's data
            raise LevelError(f"{where}: layer data cannot be decoded ({type(error).__name__}: {error})") from None

    def cells(self, data: Any, where: str) -> list[list[int]]:
        """The layer's rows of raw gids, checked: the map's size, whole numbers within 32 bits."""
        import numpy as np

        rows = data if isinstance(data, list) else []
        flat = [v for row in rows for v in (row if isinstance(row, list) else [row])]
        try:
            grid = np.asarray(flat, dtype=np.float64)
        except (TypeError, ValueError):
            raise LevelError(f"{where}: layer data is not a grid of numbers") from None
        if grid.size != self.width * self.height:
            raise LevelError(f"{where}: has {grid.size} cells, the map needs {self.width * self.height}")
        grid = grid.reshape(self.height, self.width)
        if not np.isfinite(grid).all() or (grid < 0).any() or (grid > 0xFFFFFFFF).any() or (grid % 1).any():
            raise LevelError(f"{where}: a cell's gid is not a whole number from 0 to 2^32-1")
        return grid.astype(np.int64).tolist()

    # ------------------------------------------------------------------ objects
    def map_object(self, obj: Any, layer: str, where: str, raw_properties: Any = None) -> MapObject:
        """A pytiled-parser object as the model's, every number checked; its properties from
        ``raw_properties`` (the object's JSON list) when given, typed as the TMX reader types them."""
        self.budget.take("objects", 1, where)
        oid = check_int(getattr(obj, "id", 0), f"{where}: object id", default=0)
        name = str(getattr(obj, "name", "") or "")
        here = f"{where}, object {oid}" + (f" {name!r}" if name else "")
        kind = _KINDS.get(type(obj).__name__, "rectangle")
        points = [(check_number(p.x, f"{here}: {kind} points"), check_number(p.y, f"{here}: {kind} points"))
                  for p in getattr(obj, "points", None) or []] if kind in ("polygon", "polyline") else []
        self.budget.take("polygon and polyline points", len(points), here)
        raw_gid = check_int(getattr(obj, "gid", 0), f"{here}: gid", default=0) if kind == "tile" else 0
        size = obj.size
        return MapObject(
            id=oid, name=name, cls=str(getattr(obj, "class_", "") or ""), layer=layer, kind=kind,
            x=check_number(obj.coordinates.x, f"{here}: x", default=0.0),
            y=check_number(obj.coordinates.y, f"{here}: y", default=0.0),
            width=check_number(size.width, f"{here}: width", default=0.0, low=0.0),
            height=check_number(size.height, f"{here}: height", default=0.0, low=0.0),
            rotation=check_number(obj.rotation, f"{here}: rotation", default=0.0, low=-3600, high=3600),
            points=points, gid=raw_gid & GID_MASK, flip_h=bool(raw_gid & FLIP_H), flip_v=bool(raw_gid & FLIP_V),
            flip_d=bool(raw_gid & FLIP_D),
            properties=self.properties(raw_properties, here) if raw_properties is not None
            else self.properties_of(obj, here),
            visible=bool(getattr(obj, "visible", True)),
        )

    def properties_of(self, obj: Any, where: str) -> dict[str, Any]:
        """An object's properties as pytiled-parser already parsed them, checked as :meth:`properties` does."""
        raw = [{"name": k, "type": "string", "value": v} for k, v in (obj.properties or {}).items()]
        checked = self.properties(raw, where)
        return {k: v for k, v in checked.items()}

    def template_gid(self, tpl: dict, tpl_path: Path, raw_gid: Any, where: str) -> int:
        """A template's tile names its own tileset; its gid renumbered into this map's tilesets."""
        gid = check_int(raw_gid, f"{tpl_path}: gid")
        entry = tpl.get("tileset")
        if not isinstance(entry, dict) or not entry.get("source"):
            return gid
        source = resolve_name(tpl_path.parent, str(entry["source"]), str(tpl_path))
        first = check_int(entry.get("firstgid"), f"{tpl_path}: tileset firstgid", default=1, low=1)
        for ts in self.tilesets:
            if ts.source == source:
                return (ts.firstgid + (gid & GID_MASK) - first) | (gid & ~GID_MASK & 0xFFFFFFFF)
        raise LevelError(f"{where}: the template's tileset {source.name!r} is not used by the map")

    # ------------------------------------------------------------------ tilesets
    def tileset(self, entry: Any) -> Tileset:
        """A map's tileset entry: embedded, or an external ``.tsj`` / ``.tsx`` file."""
        where = f"{self.path}: tileset"
        if not isinstance(entry, dict):
            raise LevelError(f"{where} entry is not a JSON object")
        firstgid = check_int(entry.get("firstgid"), f"{where} firstgid", default=1, low=1, high=GID_MASK)
        source = entry.get("source")
        if not source:
            return self.tileset_body(entry, self.path, firstgid)
        ts_path = resolve_name(self.path.parent, str(source), where)
        if ts_path.suffix.lower() in (".tsx", ".xml"):
            from .tmx import read_tsx_tileset

            return read_tsx_tileset(ts_path, firstgid, self.path, self.budget)
        return read_json_tileset(ts_path, firstgid, self.path, self.budget)

    def tileset_body(self, raw: dict, ts_path: Path, firstgid: int) -> Tileset:
        from pytiled_parser.parsers.json.tileset import parse as parse_tileset

        where = f"{ts_path}, tileset {str(raw.get('name', ''))!r}"
        raw = {"spacing": 0, "margin": 0, **raw}
        if "tilecount" not in raw:  # as in the TMX reader: older files may leave it out
            raw["tilecount"] = len(raw.get("tiles", []) or [])
        try:
            parsed = parse_tileset(raw, firstgid, "utf-8", external_path=ts_path.parent)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise LevelError(f"{where}: pytiled-parser cannot read the tileset ({type(error).__name__}: {error})") \
                from None
        tw = check_int(parsed.tile_width, f"{where}: tilewidth", default=0, high=100_000)
        th = check_int(parsed.tile_height, f"{where}: tileheight", default=0, high=100_000)
        image = resolve_name(ts_path.parent, str(parsed.image), where) if parsed.image else None
        offset = (0.0, 0.0) if parsed.tile_offset is None else (
            check_number(parsed.tile_offset.x, f"{where}: tileoffset x"),
            check_number(parsed.tile_offset.y, f"{where}: tileoffset y"))
        tileset = Tileset(str(parsed.name), firstgid,
                          check_int(parsed.tile_count, f"{where}: tilecount", default=0, high=GID_MASK), tw, th,
                          check_int(parsed.columns, f"{where}: columns", default=0, high=1_000_000), ts_path, image,
                          {}, {}, {}, offset, margin=check_int(parsed.margin, f"{where}: margin", default=0, high=100_000),
                          spacing=check_int(parsed.spacing, f"{where}: spacing", default=0, high=100_000))
        # Each tile's properties from its JSON, which keeps their declared types (see :meth:`layer`).
        raw_tiles = raw.get("tiles")
        raw_props = {t.get("id"): t.get("properties") for t in raw_tiles if isinstance(t, dict)} \
            if isinstance(raw_tiles, list) else {}
        for tid, tile in (parsed.tiles or {}).items():
            self.tile(check_int(tid, f"{where}: tile id", high=GID_MASK), tile, tileset, ts_path, where,
                      raw_props.get(tid))
        if tileset.image_tiles:
            tileset.tilecount = max(tileset.tilecount, max(tileset.image_tiles) + 1)
        return tileset

    def tile(self, tid: int, tile: Any, ts: Tileset, ts_path: Path, where: str, raw_properties: Any = None) -> None:
        here = f"{where}, tile {tid}"
        props = self.properties(raw_properties, here) if raw_properties is not None else self.properties_of(tile, here)
        if getattr(tile, "class_", None):
            props.setdefault("class", tile.class_)
        ts.tile_properties[tid] = props
        if tile.image is not None:
            ts.image_tiles[tid] = ImageTile(
                resolve_name(ts_path.parent, str(tile.image), here),
                check_int(tile.image_width or tile.width, f"{here}: imagewidth", default=ts.tilewidth, high=100_000),
                check_int(tile.image_height or tile.height, f"{here}: imageheight", default=ts.tileheight,
                          high=100_000))
        if tile.objects is not None:
            ts.tile_shapes[tid] = [self.map_object(o, f"tile {tid}", f"{here} collision")
                                   for o in getattr(tile.objects, "tiled_objects", [])]
        if tile.animation:
            ts.tile_animations[tid] = [
                (check_int(f.tile_id, f"{here}: animation tileid", high=GID_MASK),
                 check_int(f.duration, f"{here}: animation duration", high=3_600_000)) for f in tile.animation]


MAP_READERS[".tmj"] = read_json_map
MAP_READERS[".json"] = read_json_map
TILESET_READERS[".tsj"] = read_json_tileset
TILESET_READERS[".json"] = read_json_tileset
