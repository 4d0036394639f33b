"""Levels: a Tiled map read by :mod:`engine.level.tmx`, turned into the engine's world by its authoring
conventions (see ``levels/README.md``).

This is the only place that converts Tiled's frame (pixels, y down, origin top-left) into the engine's
(pixels, y up, origin at the map's bottom-left): ``y_engine = map_height_px - y_tiled``; rotations flip sign
(Tiled turns clockwise on screen, the engine counts counter-clockwise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bodies import RigidBody, Sensor
from ..geometry import GeometryError, RoundedPolygon, Vec2
from ..world import KinematicBody, PlatformPath, World, WorldError
from .outlines import merge_outlines, ring_segments
from .tmx import LevelError, MapObject, TmxMap, read_map

__all__ = ["CLASSES", "Entity", "Level", "LevelError", "Problem", "check_level", "load_level"]

CLASSES = ("Spawn", "Solid", "OneWay", "Crate", "MovingPlatform", "Hazard", "Checkpoint", "Goal", "Pickup")
"""The object classes the engine understands (Tiled's Class field, or the older Type field)."""

DEFAULT_GRAVITY = 1800.0
DEFAULT_SEGMENT_RADIUS = 2.0
PICKUP_RADIUS = 12.0


@dataclass(frozen=True)
class Problem:
    """Something wrong (``"error"``) or suspicious (``"warning"``) in a level file."""

    severity: str
    file: str
    message: str
    layer: str = ""
    object_id: int | None = None
    name: str = ""
    position: Vec2 | None = None
    """Where, in the engine frame (pixels, y up)."""

    def __str__(self) -> str:
        where = [self.file]
        if self.layer:
            where.append(f"layer {self.layer!r}")
        if self.object_id is not None:
            where.append(f"object {self.object_id}" + (f" {self.name!r}" if self.name else ""))
        if self.position is not None:
            where.append(f"at ({self.position[0]:.0f}, {self.position[1]:.0f})")
        return f"{self.severity}: {', '.join(where)}: {self.message}"


@dataclass
class Entity:
    """A thing the level places: what it is, where (engine frame), its shape and its Tiled object."""

    kind: str
    position: Vec2
    angle: float
    shape: RoundedPolygon | None
    source: MapObject
    properties: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.source.id


@dataclass
class Level:
    """A loaded level: static geometry, entities and map properties, in the engine frame."""

    path: Path
    width: float
    """Map width in pixels."""
    height: float
    """Map height in pixels."""
    gravity: float
    segment_radius: float
    next_level: str
    properties: dict[str, Any]
    solid_rings: list[list[Vec2]]
    """Closed outlines of merged tiles and solid objects."""
    solid_chains: list[list[Vec2]]
    """Open chains (solid polylines)."""
    one_way: list[tuple[Vec2, Vec2, Vec2]]
    """One-way segments: (start, end, the direction a character must come from)."""
    spawn: Vec2 | None
    entities: list[Entity]
    problems: list[Problem]
    tmx: TmxMap

    def of_kind(self, kind: str) -> list[Entity]:
        return [e for e in self.entities if e.kind == kind]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def build_world(self, world: World | None = None) -> World:
        """A :class:`~engine.world.World` holding this level's geometry, platforms, crates and sensors
        (sensor ``tag`` is the entity kind, ``name`` the Tiled object id)."""
        world = world or World(gravity=(0.0, -self.gravity))
        r = self.segment_radius
        for ring in self.solid_rings:
            world.add_chain(ring, r, closed=True)
        for chain in self.solid_chains:
            world.add_chain(chain, r, closed=False)
        for a, b, direction in self.one_way:
            world.add_segments([a], [b], r, one_way=direction)
        for e in self.entities:
            if e.shape is None:  # the spawn: a place, not a thing
                continue
            if e.kind == "crate":
                props = e.properties
                world.add_body(RigidBody(
                    e.shape, e.position, e.angle, density=props.get("density", 1.0),
                    friction=props.get("friction", 0.6), restitution=props.get("restitution", 0.0),
                    name=str(e.id),
                ))
            elif e.kind == "platform":
                path = e.properties.get("_path")
                world.add_kinematic(KinematicBody(
                    e.shape, e.position, e.angle, one_way=(0.0, 1.0) if e.properties.get("one_way") else None,
                    path=path, name=str(e.id),
                ))
            elif e.kind in ("hazard", "checkpoint", "goal", "pickup"):
                world.add_sensor(Sensor(e.shape, e.position, e.angle, tag=e.kind, name=str(e.id),
                                        data=dict(e.properties)))
        return world


class _Builder:
    def __init__(self, tmx: TmxMap) -> None:
        self.tmx = tmx
        self.file = str(tmx.path)
        self.map_h = tmx.height * tmx.tileheight
        self.problems: list[Problem] = []

    # -------------------------------------------------------------- frame
    def up(self, x: float, y: float) -> Vec2:
        """Tiled (y down) -> engine (y up)."""
        return (x, self.map_h - y)

    def problem(self, severity: str, message: str, obj: MapObject | None = None, layer: str = "") -> None:
        if obj is not None:
            cx, cy = obj.center()
            self.problems.append(Problem(severity, self.file, message, obj.layer, obj.id, obj.name, self.up(cx, cy)))
        else:
            self.problems.append(Problem(severity, self.file, message, layer))

    # -------------------------------------------------------------- tiles
    def tile_polygons(self, gid_raw: int, col: int, row: int) -> tuple[list[list[Vec2]], bool]:
        """Collision polygons of one placed tile (engine frame) and whether the tile is one-way."""
        from .tmx import FLIP_D, FLIP_H, FLIP_V, GID_MASK

        gid = gid_raw & GID_MASK
        ts = self.tmx.tileset_of(gid)
        if ts is None:
            return [], False
        local = gid - ts.firstgid
        shapes = ts.tile_shapes.get(local, [])
        one_way = bool(ts.tile_properties.get(local, {}).get("one_way", False))
        tw, th = self.tmx.tilewidth, self.tmx.tileheight
        # Tiles taller than the grid hang up from the bottom of their cell, as Tiled draws them.
        x0, y0 = col * tw, (row + 1) * th - ts.tileheight
        polys = []
        for shape in shapes:
            pts = shape.outline()
            if len(pts) < 3:
                continue
            moved = []
            for px, py in pts:
                if gid_raw & FLIP_D:
                    px, py = py, px
                if gid_raw & FLIP_H:
                    px = ts.tilewidth - px
                if gid_raw & FLIP_V:
                    py = ts.tileheight - py
                moved.append(self.up(x0 + px, y0 + py))
            polys.append(moved)
        return polys, one_way

    def full_block_gids(self) -> set[int]:
        """Gids (flip bits included) of tiles whose collision is exactly their whole cell, not one-way."""
        from .tmx import FLIP_D, FLIP_H, FLIP_V

        full: set[int] = set()
        tw, th = self.tmx.tilewidth, self.tmx.tileheight
        for ts in self.tmx.tilesets:
            if (ts.tilewidth, ts.tileheight) != (tw, th):
                continue
            for local, shapes in ts.tile_shapes.items():
                if ts.tile_properties.get(local, {}).get("one_way"):
                    continue
                if len(shapes) == 1 and shapes[0].kind == "rectangle" and shapes[0].rotation == 0 and (
                    shapes[0].x, shapes[0].y, shapes[0].width, shapes[0].height) == (0, 0, tw, th):
                    gid = ts.firstgid + local
                    # A full block stays full under any flip.
                    full.update(gid | flags for flags in (0, FLIP_H, FLIP_V, FLIP_D, FLIP_H | FLIP_V,
                                                          FLIP_H | FLIP_D, FLIP_V | FLIP_D, FLIP_H | FLIP_V | FLIP_D))
        return full

    def tiles(self) -> tuple[list[list[Vec2]], list[tuple[Vec2, Vec2, Vec2]]]:
        from .tmx import TileLayer

        rings: list[list[Vec2]] = []
        one_way: list[tuple[Vec2, Vec2, Vec2]] = []
        for layer in self.tmx.layers:
            if not isinstance(layer, TileLayer) or layer.properties.get("collision") is False:
                continue
            solid: list[list[Vec2]] = []
            full = self.full_block_gids()
            tw, th = self.tmx.tilewidth, self.tmx.tileheight
            for row, cells in enumerate(layer.cells):
                run: list[tuple[float, float, float]] = []  # (left, right, top) of one-way tops in this row
                block_start = -1
                for col, raw in enumerate([*cells, 0]):
                    # Runs of full blocks become one rectangle before the union (far fewer shapes to merge).
                    if raw in full:
                        if block_start < 0:
                            block_start = col
                        continue
                    if block_start >= 0:
                        x0, x1 = block_start * tw, col * tw
                        top, bottom = self.map_h - row * th, self.map_h - (row + 1) * th
                        solid.append([(x0, bottom), (x1, bottom), (x1, top), (x0, top)])
                        block_start = -1
                    if not raw:
                        continue
                    polys, is_one_way = self.tile_polygons(raw, col, row)
                    if is_one_way:
                        for poly in polys:
                            xs, ys = [p[0] for p in poly], [p[1] for p in poly]
                            run.append((min(xs), max(xs), max(ys)))
                    else:
                        solid.extend(polys)
                one_way.extend(_merge_runs(run))
            rings.extend(merge_outlines(solid))
        return rings, one_way

    # -------------------------------------------------------------- objects
    def object_ring(self, obj: MapObject) -> list[Vec2]:
        return [self.up(x, y) for x, y in obj.outline()]

    def body_shape(self, obj: MapObject) -> tuple[RoundedPolygon, Vec2, float] | None:
        """A convex body shape centred on its centroid, its centre and angle (engine frame)."""
        if obj.kind in ("rectangle", "tile") or obj.kind == "ellipse":
            if obj.width <= 0 or obj.height <= 0:
                self.problem("error", f"{obj.cls} has no size ({obj.width} x {obj.height} px)", obj)
                return None
            cx, cy = obj.center()
            angle = -math.radians(obj.rotation)
            if obj.kind == "ellipse" and abs(obj.width - obj.height) < 1e-6:
                return RoundedPolygon.circle(obj.width / 2), self.up(cx, cy), angle
            if obj.kind == "ellipse":
                pts = [self.up(x, y) for x, y in obj.outline()]
                return self._convex(obj, pts)
            radius = min(1.0, 0.25 * min(obj.width, obj.height))  # slightly rounded corners roll nicely
            return RoundedPolygon.box(obj.width / 2, obj.height / 2, radius), self.up(cx, cy), angle
        if obj.kind == "polygon":
            return self._convex(obj, self.object_ring(obj))
        kinds = "a rectangle, ellipse, convex polygon or tile object"
        self.problem("error", f"a {obj.cls} must be {kinds}, not a {obj.kind}", obj)
        return None

    def _convex(self, obj: MapObject, pts: list[Vec2]) -> tuple[RoundedPolygon, Vec2, float] | None:
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        try:
            shape = RoundedPolygon([(x - cx, y - cy) for x, y in pts])
        except GeometryError as error:
            self.problem("error", f"{obj.cls} shape is not usable: {error}", obj)
            return None
        return shape, (cx, cy), 0.0

    def build(self) -> Level:
        tmx = self.tmx
        props = tmx.properties
        gravity = _prop_number(props, "gravity", DEFAULT_GRAVITY, self, minimum=0.0)
        radius = _prop_number(props, "segment_radius", DEFAULT_SEGMENT_RADIUS, self, minimum=0.0)
        next_level = str(props.get("next_level", ""))
        if next_level and not (tmx.path.parent / next_level).exists():
            self.problem("error", f"map property next_level {next_level!r} names a file that does not exist")
        self.check_images()
        rings, one_way = self.tiles()
        chains: list[list[Vec2]] = []
        entities: list[Entity] = []
        spawns: list[MapObject] = []
        by_id = {o.id: o for o in tmx.objects}
        for obj in tmx.objects:
            cls = obj.cls
            if cls == "Spawn":
                spawns.append(obj)
                entities.append(Entity("spawn", self.up(*obj.center()), 0.0, None, obj))
            elif cls == "Solid":
                if obj.kind == "polyline":
                    chains.append(self.object_ring(obj))
                elif obj.kind in ("rectangle", "ellipse", "polygon", "tile"):
                    rings.extend(merge_outlines([self.object_ring(obj)]) or self._degenerate(obj))
                else:
                    kinds = "a rectangle, polygon, polyline or ellipse"
                    self.problem("error", f"a Solid must be {kinds}, not a {obj.kind}", obj)
            elif cls == "OneWay":
                one_way.extend(self.one_way_object(obj))
            elif cls == "Crate":
                made = self.body_shape(obj)
                if made:
                    entities.append(Entity("crate", made[1], made[2], made[0], obj, self.crate_props(obj)))
            elif cls == "MovingPlatform":
                made = self.body_shape(obj)
                if made:
                    entity = Entity("platform", made[1], made[2], made[0], obj, dict(obj.properties))
                    self.platform_path(entity, by_id)
                    entities.append(entity)
            elif cls in ("Hazard", "Checkpoint", "Goal"):
                made = self.area(obj)
                if made:
                    entities.append(Entity(cls.lower(), made[1], made[2], made[0], obj, dict(obj.properties)))
            elif cls == "Pickup":
                entities.append(Entity("pickup", self.up(*obj.center()), 0.0, RoundedPolygon.circle(PICKUP_RADIUS),
                                       obj, {"kind": obj.properties.get("kind", "coin"), **obj.properties}))
            elif cls:
                self.problem("warning", f"unknown class {cls!r} (known: {', '.join(CLASSES)}); ignored", obj)
        if not spawns:
            self.problem("error", "no Spawn: add a point object of class Spawn where the player starts")
        for extra in spawns[1:]:
            self.problem("error", f"more than one Spawn (the first is object {spawns[0].id})", extra)
        return Level(
            tmx.path, float(tmx.width * tmx.tilewidth), float(self.map_h), gravity, radius, next_level, dict(props),
            rings, chains, one_way, self.up(*spawns[0].center()) if spawns else None, entities, self.problems, tmx,
        )

    def _degenerate(self, obj: MapObject) -> list:
        self.problem("error", f"{obj.cls} {obj.kind} has no area", obj)
        return []

    def check_images(self) -> None:
        for ts in self.tmx.tilesets:
            if ts.image is not None and not ts.image.exists():
                self.problem("error", f"tileset {ts.name!r} image {ts.image.name!r} not found (looked for {ts.image})")
        for layer in self.tmx.layers:
            if isinstance(layer, dict) and layer.get("image") is not None and not layer["image"].exists():
                self.problem("error", f"image layer image {layer['image'].name!r} not found", layer=layer["name"])

    def crate_props(self, obj: MapObject) -> dict[str, Any]:
        out = {}
        limits = (("density", 1.0, 1e-6, 1e6), ("friction", 0.6, 0.0, 10.0), ("restitution", 0.0, 0.0, 1.0))
        for name, default, low, high in limits:
            value = obj.properties.get(name, default)
            if not isinstance(value, (int, float)) or not (low <= value <= high):
                self.problem("error", f"Crate property {name} = {value!r} must be a number from {low} to {high}", obj)
                value = default
            out[name] = float(value)
        return out

    def platform_path(self, entity: Entity, by_id: dict[int, MapObject]) -> None:
        obj = entity.source
        ref = obj.properties.get("path")
        speed = obj.properties.get("speed", 60.0)
        mode = obj.properties.get("mode", "loop")
        if not ref:
            return  # a platform without a path stands still (a kinematic block)
        target = by_id.get(int(ref))
        if target is None:
            self.problem("error", f"MovingPlatform path points to object {ref}, which does not exist", obj)
            return
        if target.kind not in ("polyline", "polygon") or len(target.points) < 2:
            self.problem("error", f"MovingPlatform path {ref} must be a polyline or polygon, not a {target.kind}", obj)
            return
        points = self.object_ring(target)
        if target.kind == "polygon":
            mode = "loop"
        try:
            entity.properties["_path"] = PlatformPath(points, float(speed), str(mode))
        except (WorldError, TypeError, ValueError) as error:
            self.problem("error", f"MovingPlatform path: {error}", obj)
            return
        entity.position = points[0]

    def area(self, obj: MapObject) -> tuple[RoundedPolygon, Vec2, float] | None:
        if obj.kind == "point":
            return RoundedPolygon.circle(PICKUP_RADIUS), self.up(*obj.center()), 0.0
        if obj.kind in ("polygon", "polyline"):
            pts = self.object_ring(obj)
            try:
                hull = RoundedPolygon.hull(pts)
            except GeometryError as error:
                self.problem("error", f"{obj.cls} area is not usable: {error}", obj)
                return None
            return hull, (0.0, 0.0), 0.0
        return self.body_shape(obj)

    def one_way_object(self, obj: MapObject) -> list[tuple[Vec2, Vec2, Vec2]]:
        angle = -math.radians(obj.rotation)
        direction = (-math.sin(angle), math.cos(angle))  # "up", turned with the object
        if obj.kind == "polyline":
            pts = self.object_ring(obj)
            return [(a, b, direction) for a, b in ring_segments(pts, closed=False)]
        if obj.kind in ("rectangle", "tile"):
            corners = [self.up(x, y) for x, y in obj.outline()]
            # The top edge in the object's own frame: Tiled's first two corners are its top (y-down frame).
            a, b = (corners[0], corners[1]) if obj.kind == "rectangle" else (corners[3], corners[2])
            return [(a, b, direction)]
        self.problem("error", f"a OneWay must be a rectangle or a polyline, not a {obj.kind}", obj)
        return []


def _merge_runs(run: list[tuple[float, float, float]]) -> list[tuple[Vec2, Vec2, Vec2]]:
    """Adjacent one-way tile tops at the same height become one segment."""
    out: list[tuple[Vec2, Vec2, Vec2]] = []
    for left, right, top in sorted(run, key=lambda r: (r[2], r[0])):
        if out and abs(out[-1][1][1] - top) < 1e-6 and abs(out[-1][1][0] - left) < 1e-6:
            out[-1] = (out[-1][0], (right, top), (0.0, 1.0))
        else:
            out.append(((left, top), (right, top), (0.0, 1.0)))
    return out


def _prop_number(props: dict, name: str, default: float, builder: _Builder, minimum: float) -> float:
    value = props.get(name, default)
    if not isinstance(value, (int, float)) or not math.isfinite(value) or value < minimum:
        builder.problem("error", f"map property {name} = {value!r} must be a number >= {minimum}")
        return default
    return float(value)


def load_level(path: str | Path) -> Level:
    """Load a level. Raises :class:`LevelError` when the file cannot be read at all, or when it has errors
    (listed in the message); warnings are kept in ``Level.problems``."""
    level = _load(path)
    if level.errors:
        listing = "\n".join(f"  {p}" for p in level.errors)
        raise LevelError(f"{path}: {len(level.errors)} error(s):\n{listing}")
    return level


def _load(path: str | Path) -> Level:
    return _Builder(read_map(path)).build()


def check_level(path: str | Path) -> list[Problem]:
    """Every problem in a level file, errors and warnings; a file that cannot be read is one error."""
    try:
        return _load(path).problems
    except LevelError as error:
        return [Problem("error", str(path), str(error).removeprefix(f"{path}: "))]

