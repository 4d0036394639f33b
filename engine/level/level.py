"""Levels: a Tiled map read by :mod:`engine.level.tmx`, turned into the engine's world by its authoring
conventions (see ``levels/README.md``).

This is the only place that converts Tiled's frame (pixels, y down, origin top-left) into the engine's
(pixels, y up, origin at the map's bottom-left): ``y_engine = map_height_px - y_tiled``; rotations flip sign
(Tiled turns clockwise on screen, the engine counts counter-clockwise).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..bodies import RigidBody, Sensor
from ..collector import collector_paused
from ..geometry import GeometryError, RoundedPolygon, Vec2
from ..types import DEFAULT_FRICTION
from ..types import DEFAULT_GRAVITY as DEFAULT_GRAVITY_VECTOR
from ..world import KinematicBody, PlatformPath, World, WorldError
from .model import GID_MASK, MAX_WORLD_MAPS, ObjectRef, TileLayer
from .objects import LevelObject
from .outlines import merge_packed_arrays, pack_rings, ring_segments, shared_rings
from .project import Project, find_project, read_project
from .source import path_kind, resolve_name
from .tiles import TilePlacer, TileGeometry
from .tmx import LevelError, MapObject, TmxMap, read_map

if TYPE_CHECKING:
    from .insets import ThinPart

__all__ = ["CLASSES", "MAX_WORLD_MAPS", "Entity", "Level", "LevelError", "Problem", "check_level", "load_level",
           "load_world"]

CLASSES = ("Spawn", "Solid", "OneWay", "Crate", "MovingPlatform", "Hazard", "Checkpoint", "Goal", "Pickup")
"""The object classes the level itself builds (Tiled's Class field, or the older Type field)."""
BLOCK_CLASSES = ("Ladder", "Spring", "Walker", "Door", "Switch", "FallingPlatform")
"""The classes of :func:`engine.play.standard_factories` (known without a project file declaring them)."""

DEFAULT_GRAVITY = -DEFAULT_GRAVITY_VECTOR[1]
"""px/s^2, downwards: the map property gravity when a map does not set it."""
DEFAULT_SEGMENT_RADIUS = 2.0
PICKUP_RADIUS = 12.0
MAX_SPEED = 1e5
"""Pixels per second: the fastest a moving platform may be set to go."""
MIN_BODY_SIZE = 1.0
"""Pixels. A crate or platform narrower or flatter than this is an error (the solver needs some extent)."""
_MIN_AREA = 1e-6
"""Square pixels. A Solid with less area than this has none."""
MAP_SUFFIXES = (".tmx", ".tmj", ".json")
_THIN_WARNINGS = 10
"""Thin parts warned about one by one; beyond this many, one more warning counts the rest."""


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
class Collision:
    """The static geometry a level hands the world: thick segments of ``radius`` px whose rounded surface lies
    on the drawn edges of tiles and objects (their cores are inset by the radius, see
    :mod:`engine.level.insets`). Engine frame: pixels, y up."""

    radius: float = DEFAULT_SEGMENT_RADIUS
    rings: list[list[Vec2]] = field(default_factory=list)
    """Closed chains: the cores of :attr:`Level.solid_rings`."""
    chains: list[list[Vec2]] = field(default_factory=list)
    """Open chains: solid polylines on their drawn line, a spur along each sharp tip, and the centre lines of
    parts thinner than twice the radius."""
    one_way: list[tuple[Vec2, Vec2, Vec2]] = field(default_factory=list)
    """One-way segments (start, end, pass direction): the cores of :attr:`Level.one_way`."""


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
    """Closed outlines of merged tiles and solid objects, on their drawn edges."""
    solid_chains: list[list[Vec2]]
    """Open chains (solid polylines), on their drawn lines."""
    one_way: list[tuple[Vec2, Vec2, Vec2]]
    """One-way segments on the drawn tops: (start, end, the direction a character must come from)."""
    spawn: Vec2 | None
    entities: list[Entity]
    problems: list[Problem]
    tmx: TmxMap
    objects: list[LevelObject] = field(default_factory=list)
    """Every object of the map with a class, in map order, in the engine frame (what factories receive)."""
    built: list[tuple[LevelObject, Any]] = field(default_factory=list)
    """What the factories of the last :meth:`build_world` made, with the object each was made from."""
    project: Path | None = None
    """The Tiled project file that declares this map's classes, if one was found."""
    collision: Collision = field(default_factory=Collision)
    """What :meth:`build_world` adds to the world: the outlines above with their cores inset, so bodies rest
    on the drawn edges."""
    _unbuilt: list[Problem] = field(default_factory=list)
    """The warnings of the last :meth:`build_world` about objects nothing was made for (in :attr:`problems`)."""

    def of_kind(self, kind: str) -> list[Entity]:
        return [e for e in self.entities if e.kind == kind]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def build_world(self, world: World | None = None,
                    factories: Mapping[str, Callable[[LevelObject, World], Any]] | None = None) -> World:
        """A :class:`~engine.world.World` (``world``, or a new one with the map's gravity) holding this level's
        geometry, crates, platforms and sensors, and whatever ``factories`` make.

        ``factories`` maps a Tiled class name to ``factory(obj: LevelObject, world: World) -> object``,
        called for every object of that class in map order; a factory for a built-in class (``Crate``,
        ``Pickup``...) replaces the built-in. What they return is kept in :attr:`built`. Built-in things
        carry their :class:`LevelObject` as ``user_data`` (sensors: ``tag`` is the kind, ``name`` the id).
        A factory's error for a bad object becomes a :class:`LevelError` naming the file and the object.
        """
        world = world or World(gravity=(0.0, -self.gravity))
        self._add_static(world)
        factories = dict(factories or {})
        entities = {e.id: e for e in self.entities}
        self.built = []
        self._forget_unbuilt()
        for obj in self.objects:
            factory = factories.get(obj.cls)
            if factory is not None:
                self.built.append((obj, self._make(factory, obj, world)))
            elif obj.id in entities:
                _add_entity(world, entities[obj.id], obj)
            elif obj.cls not in CLASSES and self.project is None:
                self._unbuilt_class(obj)
        return world

    def _forget_unbuilt(self) -> None:
        self.problems = [p for p in self.problems if not any(p is q for q in self._unbuilt)]
        self._unbuilt = []

    def _unbuilt_class(self, obj: LevelObject) -> None:
        """A warning (in :attr:`problems`, and logged) for an object of a class nothing builds: no factory was
        given for it and no project file declares it, so it is dropped."""
        problem = Problem("warning", str(self.path), f"class {obj.cls!r} has no factory: nothing was made for this "
                          "object (pass a factory for it to build_world, or declare the class in a Tiled project "
                          "file)", obj.layer, obj.id, obj.name, obj.position)
        self._unbuilt.append(problem)
        self.problems.append(problem)
        logging.getLogger("ledgekit.level").warning("%s", problem)

    def _add_static(self, world: World) -> None:
        """The collision's segments, in one ``add_segments`` call per kind (a large map has 170,000 chains, and a
        call per chain cost 40 us each): the same segments, in the order a call per chain adds them."""
        collision = self.collision
        r = collision.radius
        if any(len(chain) < 2 for chain in [*collision.rings, *collision.chains]):
            for ring in collision.rings:  # (add_chain names the short chain, as it always did)
                world.add_chain(ring, r, closed=True)
            for chain in collision.chains:
                world.add_chain(chain, r, closed=False)
        else:
            for chains, closed in ((collision.rings, True), (collision.chains, False)):
                if chains:
                    world.add_segments(*_chain_ends(chains, closed), r)
        run: list[tuple[Vec2, Vec2, Vec2]] = []
        for segment in [*collision.one_way, None]:  # (runs of one direction, one call each)
            if run and (segment is None or segment[2] != run[0][2]):
                world.add_segments([a for a, _, _ in run], [b for _, b, _ in run], r, one_way=run[0][2])
                run = []
            if segment is not None:
                run.append(segment)

    def _make(self, factory: Callable[[LevelObject, World], Any], obj: LevelObject, world: World) -> Any:
        try:
            return factory(obj, world)
        except (WorldError, GeometryError, LevelError, ValueError, TypeError, KeyError) as error:
            where = f"layer {obj.layer!r}, object {obj.id}" + (f" {obj.name!r}" if obj.name else "")
            raise LevelError(f"{self.path}: {where} ({obj.cls}): {error}") from error


def _add_entity(world: World, e: Entity, obj: LevelObject) -> None:
    """A built-in thing of the level into the world."""
    if e.shape is None:  # the spawn: a place, not a thing
        return
    if e.kind == "crate":
        props = e.properties
        world.add_body(RigidBody(
            e.shape, e.position, e.angle, density=props.get("density", 1.0),
            friction=props.get("friction", DEFAULT_FRICTION), restitution=props.get("restitution", 0.0),
            name=str(e.id), user_data=obj,
        ))
    elif e.kind == "platform":
        world.add_kinematic(KinematicBody(
            e.shape, e.position, e.angle, one_way=(0.0, 1.0) if e.properties.get("one_way") else None,
            path=e.properties.get("_path"), name=str(e.id), user_data=obj,
        ))
    elif e.kind in ("hazard", "checkpoint", "goal", "pickup"):
        world.add_sensor(Sensor(e.shape, e.position, e.angle, tag=e.kind, name=str(e.id),
                                data=dict(e.properties), user_data=obj))


class _Builder:
    def __init__(self, tmx: TmxMap) -> None:
        self.tmx = tmx
        self.file = str(tmx.path)
        self.map_h = tmx.height * tmx.tileheight
        self.problems: list[Problem] = []
        self.placer = TilePlacer(tmx)
        self.project = self._project()

    def _project(self) -> Project | None:
        """The Tiled project file over this map, if any (a broken one is an error, and then ignored)."""
        path = find_project(self.tmx.path)
        if path is None:
            return None
        try:
            return read_project(path)
        except LevelError as error:
            self.problem("error", f"project file {path.name}: {error}")
            return None

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
    def tiles(self, into: TileGeometry) -> None:
        """Every colliding tile layer's shapes, offsets applied. A colliding layer with parallax is an error:
        its tiles would be drawn somewhere the collision is not."""
        for layer in self.tmx.layers:
            if not isinstance(layer, TileLayer) or layer.properties.get("collision") is False:
                continue
            if layer.parallax != (1.0, 1.0) and any(any(row) for row in layer.cells):
                self.problem("error", f"parallax {layer.parallax[0]:g} x {layer.parallax[1]:g} on a layer that "
                             "collides: set the layer's parallax factor to 1, or its property collision = false",
                             layer=layer.name)
                continue
            self.placer.layer(layer, into)
        for layer in self.tmx.layers:
            if isinstance(layer, TileLayer):
                self.cells_without_tile(layer)

    def cells_without_tile(self, layer: TileLayer) -> None:
        """A warning for each gid of a layer that no tileset has (past its tileset's last tile: Tiled shows the
        cell as invalid, the game draws it empty and, for a colliding layer, solid nowhere)."""
        cells = np.asarray(layer.cells, dtype=np.int64) & GID_MASK
        for gid in np.unique(cells[cells != 0]).tolist():
            if self.tmx.tileset_of(gid) is None:
                rows, cols = np.nonzero(cells == gid)
                row, col = int(rows[0]), int(cols[0])
                where = self.up((col + 0.5) * self.tmx.tilewidth, (row + 0.5) * self.tmx.tileheight)
                self.problems.append(Problem(
                    "warning", self.file, f"gid {gid} is in no tileset (past its tileset's last tile): {len(rows)} "
                    f"cell(s) drawn empty, the first at column {col}, row {row}", layer.name, position=where))

    # -------------------------------------------------------------- objects
    def object_ring(self, obj: MapObject) -> list[Vec2]:
        return [self.up(x, y) for x, y in obj.outline()]

    def tile_of(self, obj: MapObject) -> bool:
        """Whether a tile object's gid names a tile of some tileset (an error is reported when not)."""
        if obj.kind != "tile":
            return True
        if self.tmx.tileset_of(obj.gid) is None:
            self.problem("error", f"tile object gid {obj.gid} is in no tileset of the map", obj)
            return False
        return True

    def solid(self, obj: MapObject, into: TileGeometry) -> None:
        """A Solid object's outline (or, for a tile object, its tile's collision shapes) into the static set."""
        if obj.kind == "polyline":
            if len(obj.points) < 2:
                self.problem("error", "Solid polyline needs at least 2 points", obj)
            else:
                into.chains.append(self.object_ring(obj))
        elif obj.kind == "tile":
            if not self.tile_of(obj):
                return
            shapes = self.placer.object_shapes(obj)
            if shapes is None:  # a tile without collision shapes: its whole box
                into.polygons.append(self.object_ring(obj))
            else:
                into.polygons.extend(shapes[0])
                into.chains.extend(shapes[1])
        elif obj.kind in ("rectangle", "ellipse", "polygon"):
            ring = self.object_ring(obj)
            if len(ring) < 3 or _area(ring) < _MIN_AREA:
                self.problem("error", f"Solid {obj.kind} has no area", obj)
            else:
                into.polygons.append(ring)
        else:
            self.problem("error", f"a Solid must be a rectangle, polygon, polyline, ellipse or tile object, "
                         f"not a {obj.kind}", obj)

    def body_shape(self, obj: MapObject) -> tuple[RoundedPolygon, Vec2, float] | None:
        """A convex body shape centred on its centroid, its centre and angle (engine frame)."""
        if obj.kind == "tile":
            if not self.tile_of(obj):
                return None
            shapes = self.placer.object_shapes(obj)
            if shapes is not None and shapes[0]:
                return self._tile_body(obj, shapes[0])
        map_w = self.tmx.width * self.tmx.tilewidth
        if obj.cls in ("Crate", "MovingPlatform") and (obj.width > map_w or obj.height > self.map_h):
            self.problem("error", f"{obj.cls} is {obj.width:g} x {obj.height:g} px, larger than the map "
                         f"({map_w} x {self.map_h:g} px)", obj)
            return None
        if obj.kind in ("rectangle", "tile", "ellipse"):
            if obj.width < MIN_BODY_SIZE or obj.height < MIN_BODY_SIZE:
                self.problem("error", f"{obj.cls} is too small ({obj.width:g} x {obj.height:g} px; "
                             f"at least {MIN_BODY_SIZE:g} px each way)", obj)
                return None
            cx, cy = obj.center()
            angle = -math.radians(obj.rotation)
            if obj.kind == "ellipse" and abs(obj.width - obj.height) < 1e-6:
                return RoundedPolygon.circle(obj.width / 2), self.up(cx, cy), angle
            if obj.kind == "ellipse":
                return self._convex(obj, self.object_ring(obj))
            radius = min(1.0, 0.25 * min(obj.width, obj.height))  # slightly rounded corners roll nicely
            return RoundedPolygon.box(obj.width / 2, obj.height / 2, radius), self.up(cx, cy), angle
        if obj.kind == "polygon":
            return self._convex(obj, self.object_ring(obj))
        kinds = "a rectangle, ellipse, convex polygon or tile object"
        self.problem("error", f"a {obj.cls} must be {kinds}, not a {obj.kind}", obj)
        return None

    def _tile_body(self, obj: MapObject, polygons: list[list[Vec2]]) -> tuple[RoundedPolygon, Vec2, float] | None:
        """A body from a tile object's collision shapes: the one shape, or the hull of several (warned)."""
        if len(polygons) == 1:
            return self._convex(obj, polygons[0])
        self.problem("warning", f"{obj.cls} tile has {len(polygons)} collision shapes; the body is their convex hull",
                     obj)
        try:
            hull = RoundedPolygon.hull([p for poly in polygons for p in poly])
        except GeometryError as error:
            self.problem("error", f"{obj.cls} shape is not usable: {error}", obj)
            return None
        return self._convex(obj, [(float(x), float(y)) for x, y in hull.vertices])

    def _convex(self, obj: MapObject, pts: list[Vec2]) -> tuple[RoundedPolygon, Vec2, float] | None:
        if len(pts) < 3:
            self.problem("error", f"{obj.cls} polygon needs at least 3 points, it has {len(pts)}", obj)
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        if max(xs) - min(xs) < MIN_BODY_SIZE or max(ys) - min(ys) < MIN_BODY_SIZE:
            self.problem("error", f"{obj.cls} is too small (at least {MIN_BODY_SIZE:g} px each way)", obj)
            return None
        cx = sum(xs) / len(pts)
        cy = sum(ys) / len(pts)
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
        next_level = self.next_level(props.get("next_level", ""))
        self.check_images()
        static = TileGeometry()
        self.tiles(static)
        entities: list[Entity] = []
        spawns: list[MapObject] = []
        one_way = _merge_runs(static.one_way_tops)
        by_id = {o.id: o for o in tmx.objects}
        for obj in tmx.objects:
            cls = obj.cls
            if cls == "Spawn":
                spawns.append(obj)
                entities.append(Entity("spawn", self.up(*obj.center()), 0.0, None, obj))
            elif cls == "Solid":
                self.solid(obj, static)
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
                self.other_class(obj)
        if not spawns:
            self.problem("error", "no Spawn: add a point object of class Spawn where the player starts")
        for extra in spawns[1:]:
            self.problem("error", f"more than one Spawn (the first is object {spawns[0].id})", extra)
        for spawn in spawns[:1]:
            self.off_map(spawn, ": the player starts there")
        bodies = [e for e in entities if e.kind in ("crate", "platform")]
        for body in bodies:
            self.off_map(body.source)
        # All static solid geometry of the map, tiles of every layer and Solid objects alike, is one union.
        packed = merge_packed_arrays(*static.all_polygons())  # (kept as arrays for the checks and the insets)
        rings = shared_rings(packed[0], packed[1].tolist())
        self.starts_inside_solid(packed, spawns[:1], [e for e in bodies if e.kind == "crate"],
                                 [e for e in bodies if e.kind == "platform"])
        collision = self.collision(rings, packed, static.chains, one_way, radius)
        objects = self.level_objects()
        return Level(
            tmx.path, float(tmx.width * tmx.tilewidth), float(self.map_h), gravity, radius, next_level, dict(props),
            rings, static.chains, one_way, self.up(*spawns[0].center()) if spawns else None, entities,
            self.problems, tmx, objects, project=self.project.path if self.project is not None else None,
            collision=collision,
        )

    def off_map(self, obj: MapObject, consequence: str = "") -> None:
        """A warning for an object (the Spawn, a crate, a moving platform) whose centre lies outside the map."""
        x, y = obj.center()
        map_w = self.tmx.width * self.tmx.tilewidth
        if not (0 <= x <= map_w and 0 <= y <= self.map_h):
            self.problem("warning", f"{obj.cls} at ({x:g}, {y:g}) (Tiled's frame) is outside the map (0..{map_w} x "
                         f"0..{self.map_h:g} px){consequence}", obj)

    def starts_inside_solid(self, packed: tuple[np.ndarray, np.ndarray], spawns: list[MapObject],
                            crates: list[Entity], platforms: list[Entity]) -> None:
        """A warning for the Spawn whose centre lies in the solid geometry of the rings ``packed`` (engine frame,
        laid end to end: (points (n, 2), each ring's point count); holes are rings too: inside is inside an odd
        number of them) or on its top surface (the point 1 px below the centre is tested, so a Spawn put on the
        grass line, where the player's feet go, is reported: the Spawn is the player's centre), and for a crate
        whose shape reaches more than :data:`_SUNK` px into it (it would be thrown out at the first step); and for
        a moving platform whose shape reaches that far into it where it starts and at every point of its path (it
        can carry nothing). A lift that starts in its shaft, flush with the floor or partly in it, and rises out
        of it is not reported: kinematic bodies pass through the level, and the shipped levels' lifts are made so."""
        corners, sizes = packed
        if not len(sizes) or not (spawns or crates or platforms):
            return
        import shapely

        points = [self.up(*spawn.center()) for spawn in spawns]
        below = shapely.points([x for x, _ in points], [y - 1.0 for _, y in points])
        stops = [_stops(platform) for platform in platforms]
        outlines = [*(_outline(crate) for crate in crates), *(outline for each in stops for outline in each)]
        # Only the rings whose boxes reach a Spawn or a crate can hold one: a big map has tens of thousands of
        # rings, and making each a shapely polygon took a third of a second.
        start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        low, high = np.minimum.reduceat(corners, start, axis=0), np.maximum.reduceat(corners, start, axis=0)
        near = np.zeros(len(sizes), dtype=bool)
        for x0, y0, x1, y1 in shapely.bounds(np.array([*below, *outlines], dtype=object)).tolist():
            near |= (low[:, 0] <= x1) & (x0 <= high[:, 0]) & (low[:, 1] <= y1) & (y0 <= high[:, 1])
        if not near.any():
            return
        ring_of_corner = np.repeat(np.arange(len(sizes)), sizes)
        chosen = near[ring_of_corner]
        polygons = np.asarray(shapely.polygons(shapely.linearrings(
            corners[chosen], indices=np.cumsum(near)[ring_of_corner[chosen]] - 1)))
        tree = shapely.STRtree(polygons)
        inside = np.bincount(tree.query(below, predicate="within")[0], minlength=len(points)) % 2 == 1
        for spawn, spawn_inside in zip(spawns, inside.tolist()):
            if spawn_inside:
                x, y = spawn.center()
                self.problem("warning", f"Spawn at ({x:g}, {y:g}) (Tiled's frame) is inside solid geometry: the Spawn "
                             "is the player's centre, so half the player would start in the ground; put it half the "
                             "player's height above the ground (16 px for a 32 px tall player)", spawn)
        for crate, outline in zip(crates, outlines):
            depth = _sunk_depth(outline, polygons, tree)
            if depth > _SUNK:
                self.problem("warning", f"Crate's shape starts {round(depth, 1):g} px inside solid geometry: it "
                             "starts stuck in the ground", crate.source)
        for platform, each in zip(platforms, stops):
            depths = [_sunk_depth(outline, polygons, tree) for outline in each]
            if min(depths) > _SUNK:
                self.problem("warning", f"MovingPlatform's shape starts {round(depths[0], 1):g} px inside solid "
                             "geometry and is still in it at every point of its path (or it has no path): it can "
                             "carry nothing there", platform.source)

    def collision(self, rings: list[list[Vec2]], packed: tuple[np.ndarray, np.ndarray], chains: list[list[Vec2]],
                  one_way: list[tuple[Vec2, Vec2, Vec2]], radius: float) -> Collision:
        """The world's static geometry: the drawn outlines (``rings``, and the same laid end to end in ``packed``)
        with their cores inset by ``radius``; a warning for each part too thin to inset (it collides along its
        centre line instead)."""
        from .insets import inset_one_way, inset_rings  # (and shapely: imported by the first level loaded, not
        # by every program that imports the engine)

        insets = inset_rings(rings, radius, packed)
        for part in insets.thin[:_THIN_WARNINGS]:
            self.thin_part(part, radius)
        if len(insets.thin) > _THIN_WARNINGS:
            self.problem("warning", f"{len(insets.thin) - _THIN_WARNINGS} more solid parts are thinner than twice "
                         f"the segment radius ({2 * radius:g} px) and collide along their centre lines")
        lines = [list(c) for c in chains] + insets.spurs + [list(part.line) for part in insets.thin]
        return Collision(radius, insets.rings, lines, inset_one_way(one_way, radius))

    def thin_part(self, part: ThinPart, radius: float) -> None:
        proud = max(0.0, radius - part.thickness / 2)
        self.problems.append(Problem(
            "warning", self.file, f"a solid part {part.thickness:.3g} px thick is thinner than twice the segment "
            f"radius ({2 * radius:g} px): it collides along its centre line, {proud:.3g} px outside its drawn edges "
            f"(make it at least {2 * radius:g} px thick, or lower the map property segment_radius)",
            position=part.where))

    # -------------------------------------------------------------- classes and objects for the game
    def other_class(self, obj: MapObject) -> None:
        """A class the level does not build itself: kept for the game's factories. With a project file it
        must be declared there; without one, a class that is no standard block gets a warning."""
        cls = obj.cls
        if self.project is not None:
            if cls not in self.project.classes:
                self.problem("error", f"unknown class {cls!r}{self.project.suggestion(cls)}: the project file "
                             f"{self.project.path.name} does not declare it", obj)
            return
        if cls not in BLOCK_CLASSES:
            known = (*CLASSES, *BLOCK_CLASSES)
            close = [k for k in known if k.lower() == cls.lower()]
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            self.problem("warning", f"class {cls!r}{hint} is not built in: it is kept for a factory the game "
                         "registers (declare it in a Tiled project file to make this check strict)", obj)

    def check_properties(self, obj: MapObject) -> None:
        """Each property the object sets, against the type its class declares in the project file."""
        if self.project is None:
            return
        for name, value in obj.properties.items():
            message = self.project.property_problem(obj.cls, name, value)
            if message is not None:
                self.problem("error", message, obj)

    def level_objects(self) -> list[LevelObject]:
        """Every object with a class, as the game's factories see it; object references resolved."""
        made = {}
        for obj in self.tmx.objects:
            if obj.cls:
                self.check_properties(obj)
                made[obj.id] = self.level_object(obj)
        by_id = {o.id: o for o in self.tmx.objects}
        for level_object in made.values():
            for name, value in level_object.properties.items():
                if isinstance(value, ObjectRef):
                    level_object.properties[name] = self._reference(level_object, name, value, made, by_id)
        return list(made.values())

    def _reference(self, owner: LevelObject, name: str, ref: ObjectRef, made: dict[int, LevelObject],
                   by_id: dict[int, MapObject]) -> LevelObject | None:
        if ref == 0:
            return None
        if ref in made:
            return made[ref]
        if ref in by_id:  # an object without a class (a path, a marker): converted on demand
            return self.level_object(by_id[ref])
        if owner.cls not in CLASSES:  # (the built-in classes report their own references)
            self.problem("error", f"property {name} references object {int(ref)}, which does not exist",
                         by_id.get(owner.id))
        return None

    def level_object(self, obj: MapObject) -> LevelObject:
        """One object in the engine frame: centre, angle, a convex shape when it has one, points, size."""
        cx, cy = self.up(*obj.center())
        angle = -math.radians(obj.rotation)
        shape: RoundedPolygon | None = None
        points = [self.up(x, y) for x, y in obj.outline()] if obj.kind != "point" else []
        big_enough = obj.width >= MIN_BODY_SIZE and obj.height >= MIN_BODY_SIZE
        if obj.kind in ("rectangle", "tile") and big_enough:
            shape = RoundedPolygon.box(obj.width / 2, obj.height / 2, 0.0)
        elif obj.kind == "ellipse" and big_enough:
            shape = RoundedPolygon.circle(obj.width / 2) if abs(obj.width - obj.height) < 1e-6 else None
        elif obj.kind == "polygon" and len(points) >= 3:
            shape, angle = _convex_or_none(points, (cx, cy)), 0.0
        if shape is None and obj.kind == "ellipse" and big_enough:
            shape, angle = _convex_or_none(points, (cx, cy)), 0.0
        return LevelObject(
            id=obj.id, name=obj.name, cls=obj.cls, position=(cx, cy), angle=angle, shape=shape, points=points,
            size=(obj.width, obj.height), kind=obj.kind, tile=(obj.gid & GID_MASK) or None if obj.gid else None,
            flip=(obj.flip_h, obj.flip_v), layer=obj.layer, properties=dict(obj.properties),
        )

    def next_level(self, value: Any) -> str:
        """The map property next_level, checked: a map file inside the folder tree of this map."""
        name = str(value)
        if not name:
            return ""
        home = self.tmx.path.parent.resolve()
        try:
            target = resolve_name(home, name, "next_level")
        except LevelError:
            self.problem("error", f"map property next_level {name[:60]!r} is not a usable file name")
            return name
        kind = path_kind(target)
        if not target.is_relative_to(home):
            self.problem("error", f"map property next_level {name!r} is outside this map's folder ({home})")
        elif kind == "missing":
            self.problem("error", f"map property next_level {name!r} names a file that does not exist")
        elif kind != "file" or target.suffix.lower() not in MAP_SUFFIXES:
            self.problem("error", f"map property next_level {name!r} is not a map file "
                         f"({', '.join(MAP_SUFFIXES)})")
        return name

    def check_images(self) -> None:
        """Every image the renderer will open exists and is a regular file (not a folder or a device, which
        an image loader would read forever)."""
        for ts in self.tmx.tilesets:
            if ts.image is None and not ts.image_tiles:
                self.problem("warning", f"tileset {ts.name!r} ({ts.source.name}) has no image: its tiles are drawn "
                             "empty")
            images = [ts.image] if ts.image is not None else []
            images += [tile.image for tile in ts.image_tiles.values()]
            for image in images:
                kind = path_kind(image)
                if kind == "missing":
                    self.problem("error", f"tileset {ts.name!r} image {image.name!r} not found (looked for {image})")
                elif kind != "file":
                    self.problem("error", f"tileset {ts.name!r} image {str(image)!r} is not a regular file")
        image_layers = [layer for layer in self.tmx.layers if isinstance(layer, dict) and layer.get("image")]
        for layer in image_layers:
            path: Path = layer["image"]
            kind = path_kind(path)
            if kind == "missing":
                self.problem("error", f"image layer image {path.name!r} not found", layer=layer["name"])
            elif kind != "file":
                self.problem("error", f"image layer image {str(path)!r} is not a regular file", layer=layer["name"])

    def crate_props(self, obj: MapObject) -> dict[str, Any]:
        out = {}
        limits = (("density", 1.0, 1e-6, 1e6), ("friction", DEFAULT_FRICTION, 0.0, 10.0), ("restitution", 0.0, 0.0, 1.0))
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
        if isinstance(ref, bool) or not isinstance(ref, (int, float)) or ref != int(ref):
            self.problem("error", f"MovingPlatform path must be an object reference, not {str(ref)[:40]!r}", obj)
            return
        speed_ok = isinstance(speed, (int, float)) and not isinstance(speed, bool) and 0 < speed <= MAX_SPEED
        if not speed_ok:
            self.problem("error", f"MovingPlatform property speed = {str(speed)[:40]!r} must be a number of px/s "
                         f"from 0 to {MAX_SPEED:g}", obj)
            return
        if mode not in ("loop", "pingpong"):
            self.problem("error", f"MovingPlatform property mode = {mode!r} must be loop or pingpong", obj)
            return
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
            segments = [(a, b, direction) for a, b in ring_segments(pts, closed=False) if a != b]
        elif obj.kind in ("rectangle", "tile"):
            if obj.kind == "tile" and not self.tile_of(obj):
                return []
            corners = [self.up(x, y) for x, y in obj.outline()]
            # The top edge in the object's own frame: Tiled's first two corners are its top (y-down frame).
            a, b = (corners[0], corners[1]) if obj.kind == "rectangle" else (corners[3], corners[2])
            segments = [(a, b, direction)] if a != b else []
        else:
            self.problem("error", f"a OneWay must be a rectangle or a polyline, not a {obj.kind}", obj)
            return []
        if not segments:
            self.problem("error", "OneWay has no length (a rectangle needs a width, a polyline two distinct points)",
                         obj)
        return segments


def _convex_or_none(points: list[Vec2], center: Vec2) -> RoundedPolygon | None:
    """The convex polygon through ``points`` (world) around ``center``; ``None`` when they are not convex."""
    try:
        return RoundedPolygon([(x - center[0], y - center[1]) for x, y in points])
    except GeometryError:
        return None


_SUNK = 1.0
"""Pixels: a crate whose shape starts deeper than this in solid geometry is reported (one resting on the ground
touches it: 0 px)."""


def _outline(body: Entity) -> Any:
    """The shape of ``body`` where it starts (engine frame), as a shapely geometry."""
    import shapely

    assert body.shape is not None
    c, s = math.cos(body.angle), math.sin(body.angle)
    x, y = body.position
    core = [(x + c * vx - s * vy, y + s * vx + c * vy) for vx, vy in body.shape.vertices]
    line = shapely.Point(core[0]) if len(core) == 1 else shapely.LineString(core) if len(core) == 2 else \
        shapely.Polygon(core)
    return line.buffer(body.shape.radius) if body.shape.radius > 0 else line


def _stops(platform: Entity) -> list[Any]:
    """A moving platform's shape (shapely, engine frame) where it starts, then at each further point of its path
    (it starts at the first)."""
    import shapely

    start = _outline(platform)
    path = platform.properties.get("_path")
    if path is None:
        return [start]
    x0, y0 = platform.position
    return [start, *(shapely.affinity.translate(start, x - x0, y - y0) for x, y in path.points[1:])]


def _sunk_depth(outline: Any, polygons: Any, tree: Any) -> float:
    """How far (px) ``outline`` (a body's shape, see :func:`_outline`) reaches into the solid region of
    ``polygons`` (shapely polygons of the solid rings, indexed by ``tree``; even-odd: a ring inside a ring is a
    hole), measured at the overlap's corners from the region's boundary; 0 when it does not reach in."""
    import shapely

    near = sorted(tree.query(outline).tolist())  # (in the rings' order, however the tree was built)
    if not near:
        return 0.0
    try:
        solid = polygons[near[0]]
        for k in near[1:]:
            solid = shapely.symmetric_difference(solid, polygons[k])
        overlap = shapely.intersection(outline, solid)
    except shapely.errors.GEOSException:  # (rings shapely cannot take apart: no warning rather than a crash)
        return 0.0
    if overlap.is_empty:
        return 0.0
    corners = shapely.points(shapely.get_coordinates(overlap))
    return float(np.max(shapely.distance(corners, solid.boundary)))


def _chain_ends(chains: list[list[Vec2]], closed: bool) -> tuple[np.ndarray, np.ndarray]:
    """The start and end points ((n, 2) px) of the segments of ``chains`` (each of at least 2 points) laid end to
    end: through each chain's points, and back to its first when ``closed``."""
    points, sizes = pack_rings(chains)
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    following = np.arange(len(points)) + 1
    if closed:
        following[start + sizes - 1] = start
        return points, points[following]
    keep = np.ones(len(points), dtype=bool)
    keep[start + sizes - 1] = False  # (an open chain's last point starts no segment)
    return points[keep], points[following[keep]]


def _merge_runs(run: list[tuple[float, float, float]]) -> list[tuple[Vec2, Vec2, Vec2]]:
    """Adjacent one-way tile tops at the same height become one segment."""
    out: list[tuple[Vec2, Vec2, Vec2]] = []
    for left, right, top in sorted(run, key=lambda r: (r[2], r[0])):
        if out and abs(out[-1][1][1] - top) < 1e-6 and abs(out[-1][1][0] - left) < 1e-6:
            out[-1] = (out[-1][0], (right, top), (0.0, 1.0))
        else:
            out.append(((left, top), (right, top), (0.0, 1.0)))
    return out


def _area(ring: list[Vec2]) -> float:
    """Unsigned area of a ring (shoelace), square pixels."""
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))) / 2


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
    with collector_paused():  # (millions of points and no cycles: see collector_paused)
        return _Builder(read_map(path)).build()


def load_world(path: str | Path) -> list[tuple[Level, Vec2]]:
    """Load every map of a Tiled ``.world`` file: each level (in its own frame) with where the world puts
    its top-left corner (pixels, Tiled's y-down world frame). Raises :class:`LevelError` as
    :func:`load_level` does, for the world file or any of its maps."""
    from .tiled_json import read_world

    return [(load_level(map_path), offset) for map_path, offset in read_world(Path(path))]


def check_level(path: str | Path) -> list[Problem]:
    """Every problem in a level file, errors and warnings; a file that cannot be read is one error."""
    try:
        return _load(path).problems
    except LevelError as error:
        return [Problem("error", str(path), str(error).removeprefix(f"{path}: "))]

