"""The rendering and audio adapter: the only engine module that imports arcade.

:class:`LevelRenderer` draws a :class:`~engine.level.level.Level` and the live state of its
:class:`~engine.world.World`: tile layers as batched SpriteLists (flips honoured, animated tiles), image
layers with Tiled's parallax factors, rigid bodies at their angle, moving platforms, sensors that have a
tile look (pickups, flags), characters given a :class:`CharacterLook` (the player: animated by pose, facing
his way), and a debug overlay (thick segments with their radius, body shapes, contact points and normals,
the character's floor normal and velocity, broad-phase cells, physics time). :class:`Sounds` plays a
game's named sounds through arcade, silently where there is no audio.

Everything is drawn in the engine frame (pixels, y up); arcade's default projection is y-up too, so no
conversion happens here.
"""

from __future__ import annotations

import math
import sys
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import arcade
import numpy as np
from arcade.gl import BufferDescription
from PIL import Image

from .bodies import RigidBody, Sensor
from .character import Character
from .collector import collector_paused
from .geometry import AABB, RoundedPolygon, Transform
from .level.formats import read_tileset_file
from .level.level import Level
from .level.objects import LevelObject, level_object_of
from .level.model import NO_TINT, MapObject, ObjectGroup, Tint
from .level.pictures import object_picture
from .level.tmx import FLIP_D, FLIP_H, FLIP_V, GID_MASK, TileLayer, Tileset
from .play.animation import Animation, Animator, character_pose
from .world import KinematicBody, World

__all__ = ["REPEAT_MARGIN", "CharacterLook", "CharacterSprite", "LevelRenderer", "Sounds", "draw_shape"]

PLAIN_SOLID = (74, 82, 99, 255)
"""The fill of a Solid object that has no tile to be drawn with (slate)."""
PLAIN_EDGE = (150, 160, 178, 255)
PLAIN_ONE_WAY = (176, 124, 70, 255)
"""The line of a OneWay object that has no tile (planks)."""

REPEAT_MARGIN = 2048.0
"""How far (px) a repeating image layer reaches beyond the map's sides: the view's half-width can exceed the
map's edge by that much (a large window on a small map) and still find the layer there."""


def _tileset_images(tileset: Tileset) -> dict[int, Image.Image]:
    """Each tile's picture by local id: cut from the sheet where Tiled cuts it (margin and spacing counted),
    or, in an image collection, the tile's own image at its own size."""
    if tileset.image_tiles:
        return {tid: Image.open(tile.image).convert("RGBA") for tid, tile in tileset.image_tiles.items()
                if tile.image.exists()}
    if tileset.image is None or not tileset.image.exists():
        return {}
    sheet = Image.open(tileset.image).convert("RGBA")
    out = {}
    for tid in range(tileset.tilecount):
        left, top, width, height = tileset.image_rect(tid)
        out[tid] = sheet.crop((left, top, left + width, top + height))
    return out


def _look(sprite: arcade.BasicSprite, opacity: float, tint: Tint) -> None:
    """A sprite drawn as Tiled draws its layer: colours multiplied by the tint, alpha by the tint's alpha and
    the opacity (libtiled's ``tinted`` and the painter's opacity)."""
    if opacity != 1.0 or tint != NO_TINT:
        red, green, blue, alpha = tint
        sprite.color = (red, green, blue, round(alpha * opacity))


def _looking(image: Image.Image, opacity: float, tint: Tint) -> Image.Image:
    """An RGBA image with its layer's tint and opacity multiplied into its pixels (as :func:`_look` does for a
    sprite): the image-layer quad then draws it as it draws any image."""
    if opacity == 1.0 and tint == NO_TINT:
        return image
    factors = np.array([*tint[:3], tint[3] * opacity], dtype=np.float64) / 255.0
    pixels = np.asarray(image, dtype=np.float64) * factors
    return Image.fromarray(np.rint(pixels).astype(np.uint8))


_SpriteOnThing = tuple[arcade.Sprite, float, float, float]
"""A sprite of a drawn thing: (sprite, its centre's offset from the thing's position in the thing's frame (px),
its turn relative to the thing (radians, counter-clockwise))."""


@dataclass
class _Drawn:
    """A body, character or sensor the renderer draws, its sprites, and the pose they were last set to."""

    thing: Any
    sprites: list[_SpriteOnThing]
    turns: bool
    """Whether the sprites turn with the thing (bodies, characters) or keep their angle (sensors)."""
    shown: tuple[float, float, float, bool] | None = None


# ---------------------------------------------------------------- a character's animated look
@dataclass(frozen=True)
class CharacterLook:
    """How a character (the player, or any other) is drawn: a picture per frame, and per pose (``idle``,
    ``run``, ``jump``, ``fall``, ``climb``, ``hurt``, ``wall``: see :func:`engine.play.character_pose`) an
    :class:`~engine.play.Animation` of frame keys. Give it to :meth:`LevelRenderer.show_character`.

    Make one from a Tiled tileset (:meth:`from_tileset`: a tile per pose, its Tiled animation the pose's frames)
    or from a sprite sheet image (:meth:`from_sheet`). A pose without an animation falls back as
    :class:`~engine.play.Animator` says (``fall`` -> ``jump`` -> ``idle``, ``run`` -> ``idle``...)."""

    frames: Mapping[Any, Image.Image]
    """Frame key -> its picture (RGBA), drawn facing right unless :attr:`faces_left`."""
    animations: Mapping[str, Animation]
    """Pose -> its animation, whose frames are keys of :attr:`frames`."""
    foot: float | None = None
    """Where the pictures' bottom edge goes, relative to the character's position (px, y up); ``None``: the
    bottom of the character's shape less its mover's ``skin`` (level collision lies on the edges Tiled draws,
    and a standing character keeps ``skin`` px above the floor: the feet go on the drawn edge)."""
    pace: Mapping[str, float] = field(default_factory=lambda: {"run": 120.0, "climb": 60.0})
    """Pose -> the character's speed (px/s) at which its animation plays at its own fps; faster plays it faster
    (legs that keep up with the ground). A pose not named plays at its fps."""
    faces_left: bool = False
    """The pictures face left (they are mirrored while the character faces right)."""

    def __post_init__(self) -> None:
        if not self.animations:
            raise ValueError("a CharacterLook needs at least one animation (an 'idle' one, say)")
        for pose, animation in self.animations.items():
            missing = [key for key in animation.frames if key not in self.frames]
            if missing:
                raise ValueError(f"CharacterLook: the {pose!r} animation names frames that are not in the look: "
                                 f"{missing} (frames are {sorted(map(str, self.frames))})")
        for pose, pace in self.pace.items():
            if not pace > 0:
                raise ValueError(f"CharacterLook: pace of {pose!r} must be a speed > 0 px/s, got {pace!r}")

    @classmethod
    def from_sheet(cls, image: str | Path | Image.Image, frame_size: tuple[int, int],
                   animations: Mapping[str, Animation], **options: Any) -> CharacterLook:
        """A look cut from a sprite sheet: frames of ``frame_size`` (px) side by side, row after row, keyed by
        their index (0 at the top left, counting along the rows); ``animations`` name frames by index.
        ``options``: the other fields (``foot``, ``pace``, ``faces_left``)."""
        sheet = image if isinstance(image, Image.Image) else Image.open(image)
        sheet = sheet.convert("RGBA")
        width, height = frame_size
        if width <= 0 or height <= 0 or width > sheet.width or height > sheet.height:
            raise ValueError(f"CharacterLook.from_sheet: frame size {frame_size} does not fit the sheet "
                             f"({sheet.width} x {sheet.height} px)")
        columns = sheet.width // width
        frames = {k: sheet.crop(((k % columns) * width, (k // columns) * height,
                                 (k % columns + 1) * width, (k // columns + 1) * height))
                  for k in range(columns * (sheet.height // height))}
        return cls(frames, animations, **options)

    @classmethod
    def from_tileset(cls, path: str | Path, **options: Any) -> CharacterLook:
        """A look from a Tiled tileset (``.tsx`` or ``.tsj``), as made in Tiled's tileset editor: a tile whose
        ``pose`` property (string) names a pose shows that pose; the tile's animation (Tiled's animation editor)
        is the pose's frames, played at their mean duration, else the tile alone is. Frames are keyed by tile id.
        ``options``: the other fields (``foot``, ``pace``, ``faces_left``)."""
        path = Path(path)
        if path.suffix.lower() in (".tsj", ".json"):
            from .level import tiled_json  # noqa: F401  (registers the JSON tileset reader)
        tileset = read_tileset_file(path, 1, path, None)
        frames = _tileset_images(tileset)
        animations = {}
        for tid, properties in sorted(tileset.tile_properties.items()):
            pose = properties.get("pose")
            if pose is None:
                continue
            steps = tileset.tile_animations.get(tid) or [(tid, 100)]
            missing = [tile for tile, _ in steps if tile not in frames]
            if missing:
                raise ValueError(f"{path}: tile {tid} (pose {pose!r}) shows tiles {missing}, which have no picture")
            fps = 1000.0 * len(steps) / max(sum(ms for _, ms in steps), 1)
            animations[str(pose)] = Animation(tuple(tile for tile, _ in steps), fps=min(fps, 999.0))
        if not animations:
            raise ValueError(f"{path}: no tile has a 'pose' property (idle, run, jump, fall, climb, hurt, wall): "
                             "give the tile of each pose one in Tiled's tileset editor")
        return cls(frames, animations, **options)


class CharacterSprite:
    """A character drawn by a :class:`LevelRenderer` with a :class:`CharacterLook` (made by
    :meth:`LevelRenderer.show_character`). The renderer places, animates and flips it; the game may set
    :attr:`hurt`, :attr:`scale` and :attr:`visible`."""

    def __init__(self, character: Character, look: CharacterLook, controller: Any, key: str) -> None:
        self.character, self.look, self.controller = character, look, controller
        self.textures = {frame: (arcade.Texture(picture, hash=f"{key}-{frame}-r"),
                                 arcade.Texture(picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT), hash=f"{key}-{frame}-l"))
                         for frame, picture in look.frames.items()}
        self.animator = Animator(look.animations)
        self.sprite = arcade.Sprite(self.textures[self.animator.frame][0])
        self.hurt = False
        """Show the ``hurt`` pose whatever the character does (set by the game, e.g. for a moment after a death)."""
        self.scale: tuple[float, float] = (1.0, 1.0)
        """The picture's stretch (x, y), about its bottom centre (a squash on landing)."""
        self.facing = 1
        """+1 facing right, -1 left: the controller's ``facing`` when there is one, else where it last moved."""
        self.pose = self.animator.state
        """The pose shown (see :func:`engine.play.character_pose`)."""
        box = character.shape.local_aabb
        self._foot = look.foot if look.foot is not None else box.min_y - character.config.skin

    @property
    def visible(self) -> bool:
        """Whether it is drawn (a game hides its hero on a title screen's backdrop)."""
        return bool(self.sprite.visible)

    @visible.setter
    def visible(self, shown: bool) -> None:
        self.sprite.visible = shown

    def animate(self, dt: float) -> None:
        """Advance the animation by ``dt`` seconds in the character's pose, and face its way."""
        character, controller = self.character, self.controller
        self.pose = character_pose(character, controller, hurt=self.hurt)
        pace = self.look.pace.get(self.pose)
        vx, vy = character.velocity
        speed = math.hypot(vx, vy) / pace if pace else 1.0
        frame = self.animator.update(self.pose, dt, speed)
        facing = getattr(controller, "facing", None)  # (None without a controller)
        if facing:
            self.facing = 1 if facing > 0 else -1
        elif abs(vx) > 1.0:
            self.facing = 1 if vx > 0 else -1
        mirrored = (self.facing < 0) != self.look.faces_left
        self.sprite.texture = self.textures[frame][1 if mirrored else 0]

    def place(self, alpha: float) -> None:
        """Stand the picture on the character's feet, ``alpha`` of the way from its previous step's position."""
        (x0, y0), (x1, y1) = self.character.previous_transform.position, self.character.position
        x, y = x0 + (x1 - x0) * alpha, y0 + (y1 - y0) * alpha
        self.sprite.scale = self.scale
        self.sprite.center_x = x
        self.sprite.center_y = y + self._foot + self.sprite.height / 2


class LevelRenderer:
    """Sprites for a level and its world. Call :meth:`sync` after each physics step (or with an
    interpolation ``alpha`` between the previous and the current step) and :meth:`draw` inside a camera.

    The renderer follows the world: at each :meth:`sync`, a body, platform, character or sensor added to the
    world since the last one gets its sprites (when it has a look), and one taken out loses them."""

    def __init__(self, level: Level, world: World) -> None:
        self.level = level
        self.world = world
        self._textures: dict[int, arcade.Texture] = {}
        self._images: dict[int, Image.Image] = {}
        for ts in level.tmx.tilesets:
            for tid, img in _tileset_images(ts).items():
                self._images[ts.firstgid + tid] = img
        self._map_objects = {obj.id: obj for obj in level.tmx.objects}
        self.layers: list[tuple[arcade.SpriteList, tuple[float, float]]] = []
        """Tile layers (sprites, parallax factor), in map order."""
        self.backgrounds: list[tuple[arcade.SpriteList, tuple[float, float]]] = []
        """Image layers (sprites, parallax factor), in map order."""
        self.decorations: list[arcade.SpriteList] = []
        """Object layers' tile objects that no world thing carries (props, signs, Solid and OneWay tiles), drawn
        where Tiled draws them, one sprite list per object layer."""
        self._decoration_of: dict[int, arcade.Sprite] = {}
        """Each decoration's sprite by its object's id (hidden while a world thing made from it is drawn)."""
        self._order: list[arcade.SpriteList] = []
        """The layers' sprite lists in the map's layer order (what :meth:`draw` draws, with the things after)."""
        self._image_quads: dict[arcade.SpriteList, _ImageQuad] = {}
        """What draws each image layer (by its sprite list): one textured quad instead of its many sprites."""
        self._animated: list[tuple[arcade.BasicSprite, list[tuple[int, int]], int]] = []
        """Animated tiles: (sprite, frames as (tile id, ms), the first gid of the tileset with the cell's flip bits)."""
        self.bodies: arcade.SpriteList = arcade.SpriteList()
        """Every drawn thing's sprites (bodies, platforms, characters, sensors, static objects' looks)."""
        self._drawn: dict[int, _Drawn] = {}
        """The things drawn, by their id, in the order they were found."""
        self._seen: tuple[int, ...] = ()
        """The ids of the world's things at the last :meth:`_follow_world`, in the world's order."""
        self._class_tiles: dict[str, int | None] = {}
        self._animators: list[tuple[arcade.Sprite, Character, Animator]] = []
        """Characters drawn by the renderer (enemies), animated through engine.play's Animator by pose."""
        self.characters: arcade.SpriteList = arcade.SpriteList()
        """The sprites of the characters given a look by :meth:`show_character`, drawn after everything else."""
        self._shown: dict[int, CharacterSprite] = {}
        """The characters given a look by :meth:`show_character`, by their id."""
        self.plain: list[tuple[str, list[tuple[float, float]], tuple[int, int, int, int], float]] = []
        """Solid and OneWay objects that have no tile to be drawn with, in a plain style: (``"fill"``, ``"line"``
        or ``"loop"``, points (px, engine frame), colour, line width (px))."""
        self._plain_shapes: arcade.shape_list.ShapeElementList | None = None
        """:attr:`plain` as one batch, made at the first draw (a renderer can be made without a window)."""
        carried = {obj.id for obj in map(level_object_of, self._world_things()) if obj is not None}
        with collector_paused():
            self._build_layers(carried)
        self._static_sprites()
        self.time = 0.0
        self.sync()

    # ---------------------------------------------------------------- textures
    def texture(self, raw_gid: int) -> arcade.Texture | None:
        """The texture of a gid, flip bits applied (Tiled order: diagonal, then horizontal, vertical)."""
        cached = self._textures.get(raw_gid)
        if cached is not None:
            return cached
        img = self._images.get(raw_gid & GID_MASK)
        if img is None:
            return None
        if raw_gid & FLIP_D:
            img = img.transpose(Image.Transpose.TRANSPOSE)
        if raw_gid & FLIP_H:
            img = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        if raw_gid & FLIP_V:
            img = img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        tex = arcade.Texture(img, hash=f"ledgekit-gid-{raw_gid}-{id(self)}")
        self._textures[raw_gid] = tex
        return tex

    # ---------------------------------------------------------------- layers, in map order
    def _build_layers(self, carried: set[int]) -> None:
        """Sprites of every visible layer, and the order :meth:`draw` draws them in (the map's)."""
        for layer in self.level.tmx.layers:
            if isinstance(layer, TileLayer):
                if layer.visible:
                    self.layers.append((self._tile_layer(layer), layer.parallax))
                    self._order.append(self.layers[-1][0])
            elif isinstance(layer, dict):
                if layer.get("image") is not None and Path(layer["image"]).exists() and layer.get("visible", True):
                    self.backgrounds.append((self._image_layer(layer), layer["parallax"]))
                    self._order.append(self.backgrounds[-1][0])
            else:
                sprites = self._decorations(layer, carried)
                if len(sprites):
                    self.decorations.append(sprites)
                    self._order.append(sprites)

    def _tile_layer(self, layer: TileLayer) -> arcade.SpriteList:
        """A tile layer's sprites: each tile's picture with its bottom-left corner on its cell's, moved by the
        layer's and its tileset's offsets (a tile larger than the grid reaches up and right)."""
        tmx = self.level.tmx
        tw, th = tmx.tilewidth, tmx.tileheight
        map_h = self.level.height
        sprites: arcade.SpriteList = arcade.SpriteList(use_spatial_hash=False)
        looked = layer.opacity != 1.0 or layer.tint != NO_TINT  # (most layers: no call per tile)
        kinds: dict[int, tuple[arcade.Texture | None, tuple[list[tuple[int, int]], int] | None, tuple[float, float]]] = {}
        for row, cells in enumerate(layer.cells):
            for col, raw in enumerate(cells):
                if not raw:
                    continue
                kind = kinds.get(raw)
                if kind is None:
                    ts = tmx.tileset_of(raw & GID_MASK)
                    kind = kinds[raw] = (self.texture(raw), self._tile_animation(raw),
                                         ts.offset if ts is not None else (0.0, 0.0))
                tex, animation, (ox, oy) = kind
                if tex is None:
                    continue
                # A BasicSprite: drawn only (the world collides), it costs a third of a Sprite to make, and a big
                # map has tens of thousands. Placed by its centre: arcade's left / bottom are the hit box's, which
                # skips a tile's transparent edge columns (a slope's), and would shift it off its cell.
                sprite = arcade.BasicSprite(tex, center_x=col * tw + layer.offset[0] + ox + tex.width / 2,
                                            center_y=map_h - (row + 1) * th - layer.offset[1] - oy + tex.height / 2)
                if looked:
                    _look(sprite, layer.opacity, layer.tint)
                sprites.append(sprite)
                if animation is not None:
                    self._animated.append((sprite, *animation))
        return sprites

    def _decorations(self, group: list[MapObject], carried: set[int]) -> arcade.SpriteList:
        """An object layer's visible tile objects that no world thing carries (``carried``: ids of the objects
        things were made from), drawn as Tiled draws them, in its draw order. A ``Spawn`` is left out: the game
        draws the player."""
        sprites: arcade.SpriteList = arcade.SpriteList(use_spatial_hash=False)
        for obj in group.drawn_in_order() if isinstance(group, ObjectGroup) else group:
            if obj.visible and obj.kind == "tile" and obj.id not in carried and obj.cls != "Spawn":
                sprite = self._picture_sprite(obj)
                if sprite is not None:
                    sprites.append(sprite)
                    self._decoration_of[obj.id] = sprite
        return sprites

    def _picture_sprite(self, obj: MapObject) -> arcade.Sprite | None:
        """A tile object's sprite where Tiled draws it (see :func:`engine.level.pictures.object_picture`)."""
        picture = object_picture(self.level.tmx, obj)
        tex = self.texture(picture.gid) if picture is not None else None
        if picture is None or tex is None:
            return None
        sprite = arcade.Sprite(tex)
        sprite.width, sprite.height = max(picture.size[0], 1e-3), max(picture.size[1], 1e-3)
        sprite.position = picture.center
        sprite.angle = -math.degrees(picture.angle)  # arcade turns clockwise
        _look(sprite, picture.opacity, picture.tint)
        self._animate_if_animated(sprite, picture.gid)
        return sprite

    def _tile_animation(self, raw_gid: int) -> tuple[list[tuple[int, int]], int] | None:
        """A tile's animation: its frames as (tile id, ms) and its tileset's first gid with the gid's flip bits
        (each frame is shown flipped as the cell is); ``None`` when still."""
        gid = raw_gid & GID_MASK
        ts = self.level.tmx.tileset_of(gid)
        if ts is None or gid - ts.firstgid not in ts.tile_animations:
            return None
        return ts.tile_animations[gid - ts.firstgid], ts.firstgid | (raw_gid & ~GID_MASK & 0xFFFFFFFF)

    def _image_layer(self, layer: dict[str, Any]) -> arcade.SpriteList:
        """An image layer's sprites: the image at the layer's offset (px, Tiled's y down from the map's top), or
        copies of it side by side across the map and ``REPEAT_MARGIN`` px beyond when the layer repeats
        (Tiled's ``repeatx`` / ``repeaty``), so a parallax layer narrower than the map never runs out."""
        tex = arcade.load_texture(layer["image"])
        repeat_x, repeat_y = layer.get("repeat", (False, False))
        left = layer["offset"][0]
        top = self.level.height - layer["offset"][1]
        xs, ys = [left], [top]
        if repeat_x:
            first = left - math.ceil((left + REPEAT_MARGIN) / tex.width) * tex.width
            xs = [first + k * tex.width for k in range(math.ceil((self.level.width + 2 * REPEAT_MARGIN) / tex.width) + 2)]
        if repeat_y:
            first = top + math.ceil((self.level.height + REPEAT_MARGIN - top) / tex.height) * tex.height
            ys = [first - k * tex.height for k in range(math.ceil((self.level.height + 2 * REPEAT_MARGIN) / tex.height) + 2)]
        sprites: arcade.SpriteList = arcade.SpriteList(use_spatial_hash=False)
        for x in xs:
            for y in ys:
                sprite = arcade.Sprite(tex)
                sprite.center_x, sprite.center_y = x + tex.width / 2, y - tex.height / 2  # (not left / top: hit box)
                _look(sprite, layer.get("opacity", 1.0), layer.get("tint", NO_TINT))
                sprites.append(sprite)
        image = _looking(Image.open(layer["image"]).convert("RGBA"), layer.get("opacity", 1.0), layer.get("tint", NO_TINT))
        self._image_quads[sprites] = _ImageQuad(image, (xs[0], ys[-1] - tex.height), (len(xs), len(ys)))
        return sprites

    # ---------------------------------------------------------------- things, drawn by their tiles
    def tile_of(self, obj: LevelObject) -> int | None:
        """The tile (raw gid, flips included) an object is drawn with: its own tile for a tile object, else the
        first tile of the map's tilesets whose class is the object's class; ``None`` when neither exists."""
        if obj.tile:
            return obj.tile | (FLIP_H if obj.flip[0] else 0) | (FLIP_V if obj.flip[1] else 0)
        if obj.cls not in self._class_tiles:
            self._class_tiles[obj.cls] = next(
                (ts.firstgid + local for ts in self.level.tmx.tilesets for local in sorted(ts.tile_properties)
                 if ts.tile_class(local) == obj.cls), None)
        return self._class_tiles[obj.cls]

    def _sprites_for(self, thing: Any, box: AABB, default: str) -> list[_SpriteOnThing]:
        """Sprites with the tile of the thing's level object, each with its offset from the thing's position
        (``box``: the thing's local box); none without a look. A tile object's tile is placed where Tiled draws
        it (stretched over the object, turned, flipped, offset), then follows the thing. Else how the class's
        tile covers the box is the tile's ``draw`` property in its tileset, else ``default``: ``stretch`` (over
        the box: crates, platforms), ``repeat`` (tiled across it: ladders, rows of spikes) or ``stand`` (its own
        size on the box's bottom, centred across: flags, springs, enemies)."""
        obj = level_object_of(thing)
        source = self._map_objects.get(obj.id) if obj is not None and obj.kind == "tile" else None
        if source is not None and source.gid:
            return self._picture_for(thing, source)
        gid = self.tile_of(obj) if obj is not None else None
        tex = self.texture(gid) if gid is not None else None
        if tex is None or gid is None:
            return []
        ts = self.level.tmx.tileset_of(gid & GID_MASK)
        mode = default
        if ts is not None:
            mode = str(ts.tile_properties.get((gid & GID_MASK) - ts.firstgid, {}).get("draw", default))
        cx = (box.min_x + box.max_x) / 2
        if mode == "repeat":
            return self._repeated(tex, box)
        sprite = arcade.Sprite(tex)
        if isinstance(thing, Character):
            self._animators.append((sprite, thing, _character_animator(self.level, gid)))
        else:
            self._animate_if_animated(sprite, gid)
        if mode == "stretch":
            sprite.width, sprite.height = max(1.0, box.width), max(1.0, box.height)
            return [(sprite, cx, (box.min_y + box.max_y) / 2, 0.0)]
        return [(sprite, cx, box.min_y + sprite.height / 2, 0.0)]

    def _picture_for(self, thing: Any, source: MapObject) -> list[_SpriteOnThing]:
        """A tile object's picture (as Tiled draws it) as a sprite placed relative to the thing's pose now."""
        sprite = self._picture_sprite(source)
        if sprite is None:
            return []
        if isinstance(thing, Character):
            self._animators.append((sprite, thing, _character_animator(self.level, source.gid)))
        (x, y), angle = thing.position, float(getattr(thing, "angle", 0.0))
        c, s = math.cos(angle), math.sin(angle)
        dx, dy = sprite.center_x - x, sprite.center_y - y
        return [(sprite, c * dx + s * dy, -s * dx + c * dy, -math.radians(sprite.angle) - angle)]

    @staticmethod
    def _repeated(tex: arcade.Texture, box: AABB) -> list[_SpriteOnThing]:
        """The tile repeated across the box, in whole tiles (stretched a little to fit). An object thinner than
        half a tile shows the tile's top part at its own size (a one-way ledge's planks, a platform's slab)."""
        columns = max(1, round(box.width / tex.width))
        rows = max(1, round(box.height / tex.height))
        thin = box.height < 0.5 * tex.height
        placed = []
        for row in range(rows):
            for col in range(columns):
                sprite = arcade.Sprite(tex)
                sprite.width = box.width / columns
                sprite.height = tex.height if thin else box.height / rows
                y = box.max_y - sprite.height / 2 if thin else box.min_y + (row + 0.5) * sprite.height
                placed.append((sprite, box.min_x + (col + 0.5) * sprite.width, y, 0.0))
        return placed

    def _animate_if_animated(self, sprite: arcade.BasicSprite, gid: int) -> None:
        animation = self._tile_animation(gid)
        if animation is not None:
            self._animated.append((sprite, *animation))

    def _world_things(self) -> list[Any]:
        """Everything in the world that can be drawn: bodies, platforms, characters, sensors."""
        world = self.world
        return [*world.bodies, *world.kinematic_bodies, *world.characters, *world.sensors]

    def _look_of(self, thing: Any) -> list[_SpriteOnThing]:
        """The sprites a world thing is drawn with: its level object's tile; a body or platform without one gets
        a plain box, so that it is never invisible; a character without one (the player: the game draws it) and
        a sensor without one get none."""
        box = thing.shape.local_aabb
        if id(thing) in self._shown:
            return []  # (drawn with its CharacterLook)
        if isinstance(thing, Sensor):
            return self._sprites_for(thing, box, "stand")
        made = self._sprites_for(thing, box, "stand" if isinstance(thing, Character) else "stretch")
        if not made and isinstance(thing, (RigidBody, KinematicBody)):
            made = [(arcade.SpriteSolidColor(max(1, int(box.width)), max(1, int(box.height)),
                                             color=(160, 110, 60, 255)), 0.0, 0.0, 0.0)]
        return made

    def _follow_world(self) -> None:
        """Sprites for things added to the world since the last call, none for things taken out of it."""
        things = self._world_things()
        seen = tuple(map(id, things))
        if seen == self._seen:
            return  # (the usual frame: the same things; checked in C, a few microseconds for a hundred)
        self._seen = seen
        now = dict(zip(seen, things))
        for key in [key for key in self._drawn if key not in now]:
            gone = self._drawn.pop(key)
            for sprite, *_ in gone.sprites:
                sprite.visible = False  # (for code that kept the sprite: it is no longer drawn)
                self.bodies.remove(sprite)
            dropped = {id(sprite) for sprite, *_ in gone.sprites}
            self._animated = [entry for entry in self._animated if id(entry[0]) not in dropped]
            self._animators = [entry for entry in self._animators if entry[1] is not gone.thing]
            self._show_decoration(gone.thing, True)
            shown = self._shown.pop(key, None)
            if shown is not None:
                self.characters.remove(shown.sprite)
        for key, thing in now.items():
            if key not in self._drawn:
                drawn = self._drawn[key] = _Drawn(thing, self._look_of(thing), not isinstance(thing, Sensor))
                for sprite, *_ in drawn.sprites:
                    self.bodies.append(sprite)
                if drawn.sprites:
                    self._show_decoration(thing, False)

    def _show_decoration(self, thing: Any, shown: bool) -> None:
        """Hide the decoration of the object a drawn thing was made from while the thing is drawn instead."""
        obj = level_object_of(thing)
        sprite = self._decoration_of.get(obj.id) if obj is not None else None
        if sprite is not None:
            sprite.visible = shown

    def _static_sprites(self) -> None:
        """Static objects (``Solid``, ``OneWay``) that are not tile objects (those are decorations): drawn from
        their class's tile, covering the object as the tile's ``draw`` property says (``repeat`` by default), or,
        with no such tile, in a plain style (:meth:`_plain_shape`), never invisible."""
        for obj in self.level.objects:
            if obj.cls not in ("Solid", "OneWay") or obj.kind == "tile":
                continue
            made = self._sprites_for(_Placed(obj.position, obj.angle, obj), obj.shape.local_aabb, "repeat") \
                if obj.shape is not None else []
            if not made:
                self._plain_shape(obj)
            for sprite, dx, dy, _ in made:
                c, s = math.cos(obj.angle), math.sin(obj.angle)
                sprite.center_x = obj.position[0] + c * dx - s * dy
                sprite.center_y = obj.position[1] + s * dx + c * dy
                sprite.angle = -math.degrees(obj.angle)
                self.bodies.append(sprite)

    def _plain_shape(self, obj: LevelObject) -> None:
        """A Solid or OneWay without a tile, in a plain style: a Solid's area filled in slate with a light edge
        (a polyline: a thick line), a OneWay as a plank-coloured line along its top."""
        points = [(float(x), float(y)) for x, y in obj.points]
        if len(points) < 2:
            return
        if obj.cls == "OneWay":
            top = points if obj.kind == "polyline" else points[:2]  # (a rectangle's first two corners: its top)
            self.plain.append(("line", top, PLAIN_ONE_WAY, 3.0))
        elif obj.kind == "polyline":
            self.plain.append(("line", points, PLAIN_SOLID, 4.0))
        else:
            if obj.shape is not None:  # convex: filled (a concave polygon keeps its edge only)
                self.plain.append(("fill", points, PLAIN_SOLID, 0.0))
            self.plain.append(("loop", points, PLAIN_EDGE, 2.0))

    def _draw_plain(self) -> None:
        if not self.plain:
            return
        if self._plain_shapes is None:
            shapes = arcade.shape_list
            self._plain_shapes = shapes.ShapeElementList()
            for kind, points, color, width in self.plain:
                self._plain_shapes.append(
                    shapes.create_polygon(points, color) if kind == "fill" else
                    shapes.create_line_strip(points, color, width) if kind == "line" else
                    shapes.create_line_loop(points, color, width))
        self._plain_shapes.draw()

    # ---------------------------------------------------------------- characters with a look of their own
    def show_character(self, character: Character, look: CharacterLook, controller: Any = None) -> CharacterSprite:
        """Draw ``character`` (the player, or any) with ``look`` from now on, instead of the tile of its level
        object if it had one: :meth:`sync` stands it on its feet, :meth:`animate` plays the animation of its
        pose and faces it its way (``controller``: its :class:`~engine.PlatformerController`, whose ``facing``
        and ``climbing`` it reads; without one it faces where it moves), :meth:`draw` draws it after the
        level's things. Returns the :class:`CharacterSprite` (for a hurt pose, a squash, hiding it)."""
        if character not in self.world.characters:
            raise ValueError("show_character: the character is not in the renderer's world (add it first)")
        drawn = self._drawn.get(id(character))
        if drawn is not None and drawn.sprites:  # (its tile look until now)
            for sprite, *_ in drawn.sprites:
                self.bodies.remove(sprite)
            drawn.sprites = []
            self._animators = [entry for entry in self._animators if entry[1] is not character]
        old = self._shown.pop(id(character), None)
        if old is not None:
            self.characters.remove(old.sprite)
        shown = self._shown[id(character)] = CharacterSprite(character, look, controller, f"ledgekit-look-{id(self)}")
        self.characters.append(shown.sprite)
        shown.animate(0.0)
        shown.place(1.0)
        return shown

    def draw_characters(self) -> None:
        """Draw the characters given a look by :meth:`show_character` (:meth:`draw` does, unless told not to)."""
        self.characters.draw(pixelated=True)

    # ---------------------------------------------------------------- per frame
    def sprite_of(self, thing: object) -> arcade.Sprite | None:
        """The sprite that draws a body, character or sensor, or ``None`` when it has none."""
        drawn = self._drawn.get(id(thing))
        return drawn.sprites[0][0] if drawn is not None and drawn.sprites else None

    def sync(self, alpha: float = 1.0) -> None:
        """Follow the world (see the class), then move sprites to the things' poses, blended ``alpha`` of the way
        from their previous step. The sprites of a thing whose pose is the one they already show are left alone
        (most of a level's crates rest and its coins and spikes never move, and arcade re-uploads every sprite
        that is set)."""
        self._follow_world()
        for drawn in self._drawn.values():
            thing = drawn.thing
            if drawn.turns:
                prev = thing.previous_transform
                (x0, y0), a0 = prev.position, prev.angle
                (x1, y1), a1 = thing.position, thing.angle
                x, y, angle = x0 + (x1 - x0) * alpha, y0 + (y1 - y0) * alpha, a0 + (a1 - a0) * alpha
                shown = True
            else:
                (x, y), angle, shown = thing.position, 0.0, thing.enabled
            if drawn.shown == (x, y, angle, shown):
                continue
            drawn.shown = (x, y, angle, shown)
            c, s = math.cos(angle), math.sin(angle)
            for sprite, dx, dy, turn in drawn.sprites:
                sprite.center_x, sprite.center_y = x + c * dx - s * dy, y + s * dx + c * dy
                if drawn.turns:
                    sprite.angle = -math.degrees(angle + turn)  # arcade turns clockwise
                sprite.visible = shown
        for character_sprite in self._shown.values():
            character_sprite.place(alpha)

    def animate(self, dt: float) -> None:
        """Advance tile animations by ``dt`` seconds, and characters' animations by their poses."""
        for character_sprite in self._shown.values():
            character_sprite.animate(dt)
        for sprite, character, animator in self._animators:
            tex = self.texture(animator.update(character_pose(character), dt))
            if tex is not None:
                sprite.texture = tex
            if abs(character.velocity[0]) > 1.0:  # face where it walks (the tile faces left)
                sprite.scale_x = -abs(sprite.scale_x) if character.velocity[0] > 0 else abs(sprite.scale_x)
        self.time += dt
        ms = int(self.time * 1000)
        for tile_sprite, frames, first_and_flips in self._animated:
            total = sum(d for _, d in frames) or 1
            t = ms % total
            for tile, duration in frames:
                if t < duration:
                    tex = self.texture(first_and_flips + tile)  # (the flip bits are above any gid)
                    if tex is not None:
                        tile_sprite.texture = tex
                    break
                t -= duration

    def draw(self, camera_position: tuple[float, float] = (0.0, 0.0), characters: bool = True) -> None:
        """Draw the layers in the map's order (image layers, tile layers, object layers' decorations), then the
        plain static shapes and the things, then (unless ``characters`` is false: a game that draws something
        between calls :meth:`draw_characters` itself) the characters shown with a :class:`CharacterLook`.
        ``camera_position`` feeds the parallax of layers whose factor is not 1 (they are shifted by
        ``(1 - factor) * camera position``, rounded to whole px; the position is the view's centre in the
        engine frame, px)."""
        cx, cy = camera_position
        # Whole pixels, as the tile layers' below.
        shifts = [(round((1 - px) * cx), round((1 - py) * cy)) for _, (px, py) in self.backgrounds]
        quads = [self._image_quads.get(sprites) for sprites, _ in self.backgrounds]
        images = {id(sprites): k for k, (sprites, _) in enumerate(self.backgrounds)}
        tiles = {id(sprites): parallax for sprites, parallax in self.layers}
        for sprites in self._drawing_order():
            k = images.get(id(sprites))
            if k is None:
                self._draw_tile_layer(sprites, tiles.get(id(sprites), (1.0, 1.0)), camera_position)
            elif quads[k] is not None:
                in_front = zip(quads[k + 1:], shifts[k + 1:])
                quads[k].draw(shifts[k], [(q.opaque_band[0] + dy, q.opaque_band[1] + dy)  # type: ignore[union-attr]
                                          for q, (_, dy) in in_front if q is not None and q.opaque_band is not None])
            else:
                sprites.move(*shifts[k])
                sprites.draw(pixelated=True)
                sprites.move(-shifts[k][0], -shifts[k][1])
        self._draw_plain()
        self.bodies.draw(pixelated=True)
        if characters:
            self.draw_characters()

    def _drawing_order(self) -> list[arcade.SpriteList]:
        """The sprite lists of :attr:`backgrounds`, :attr:`layers` and :attr:`decorations`, in the map's order
        (lists a caller put there are drawn after the map's, image layers first)."""
        present = [sprites for sprites, _ in self.backgrounds] + [sprites for sprites, _ in self.layers] + \
            list(self.decorations)
        known = {id(sprites) for sprites in self._order}
        return [sprites for sprites in self._order if any(sprites is p for p in present)] + \
            [sprites for sprites in present if id(sprites) not in known]

    @staticmethod
    def _draw_tile_layer(sprites: arcade.SpriteList, parallax: tuple[float, float],
                         camera_position: tuple[float, float]) -> None:
        if parallax != (1.0, 1.0):
            # Whole pixels: a layer at a fractional offset would shimmer against the tiles as the camera moves.
            dx, dy = round((1 - parallax[0]) * camera_position[0]), round((1 - parallax[1]) * camera_position[1])
            sprites.move(dx, dy)
            sprites.draw(pixelated=True)
            sprites.move(-dx, -dy)
        else:
            sprites.draw(pixelated=True)

    def fills(self, camera_position: tuple[float, float], view_size: tuple[float, float]) -> bool:
        """Whether the image layers alone cover every pixel of the view with opaque ones (an opaque sky
        repeated across it), so that clearing the picture before :meth:`draw` would be wasted work.
        ``camera_position``: the view's centre as for :meth:`draw`; ``view_size``: its width and height (px)."""
        cx, cy = camera_position
        half_w, half_h = view_size[0] / 2, view_size[1] / 2
        for sprites, (px, py) in self.backgrounds:
            quad = self._image_quads.get(sprites)
            if quad is None or quad.blended or quad.cutout:
                continue
            dx, dy = round((1 - px) * cx), round((1 - py) * cy)
            if (quad.left + dx <= cx - half_w and cx + half_w <= quad.right + dx
                    and quad.bottom + dy <= cy - half_h and cy + half_h <= quad.top + dy):
                return True
        return False

    def draw_debug(self, physics_ms: float | None = None) -> None:
        """The debug overlay: level segments with their thickness, body shapes, contacts, characters."""
        bp = self.world.static.broadphase
        for x0, y0, x1, y1 in bp.aabbs.tolist():  # broad-phase boxes
            arcade.draw_lrbt_rectangle_outline(x0, x1, y0, y1, (255, 255, 0, 70), 1)
        for i in range(len(bp)):
            a, b, r = bp.a[i], bp.b[i], float(bp.radius[i])
            arcade.draw_line(float(a[0]), float(a[1]), float(b[0]), float(b[1]), (255, 255, 255, 90), max(1.0, 2 * r))
            arcade.draw_line(float(a[0]), float(a[1]), float(b[0]), float(b[1]), (255, 60, 60, 255), 1)
        for body in [*self.world.bodies, *self.world.kinematic_bodies]:
            draw_shape(body.shape, body.transform, (80, 255, 120, 255))
        for sensor in self.world.sensors:
            draw_shape(sensor.shape, sensor.transform, (255, 220, 0, 160))
        contacts = self.world.contacts_of_last_step
        for i in range(len(contacts)):
            nx, ny = contacts.normal[i].tolist()
            for j in (0, 1):
                if contacts.valid[i, j]:
                    x, y = contacts.point[i, j].tolist()
                    arcade.draw_point(x, y, (255, 0, 255, 255), 4)
                    arcade.draw_line(x, y, x + nx * 12, y + ny * 12, (255, 0, 255, 255), 1)
        for ch in self.world.characters:
            draw_shape(ch.shape, ch.transform, (0, 200, 255, 255))
            x, y = ch.position
            arcade.draw_line(x, y, x + ch.velocity[0] * 0.1, y + ch.velocity[1] * 0.1, (0, 255, 255, 255), 2)
            if ch.floor_normal is not None:
                fx, fy = ch.floor_normal
                arcade.draw_line(x, y - 16, x + fx * 20, y - 16 + fy * 20, (255, 128, 0, 255), 2)
        if physics_ms is not None:
            arcade.draw_text(f"physics {physics_ms:.2f} ms/step", 0, 0, (255, 255, 255, 255), 12)


# ---------------------------------------------------------------- sounds
class Sounds:
    """Short sounds by name, each loaded once (WAV, or any format arcade reads), played with a volume.

    A machine without audio (no device, a failing back end, pyglet's silent driver) is no error: the sounds
    stay silent and one line on stderr says so; so does a file that does not decode. A name that was never
    given, or a file that is not there, is the game's mistake and raises (naming it).

        sounds = Sounds({"coin": "coin.wav", "jump": "jump.wav"}, volume=0.8)
        sounds.play("jump", volume=0.5)                   # 0.8 x 0.5 of full volume
        sounds.hook(stage.rules, {"pickup": "coin"})      # a coin sound at each pickup event
    """

    def __init__(self, files: Mapping[str, str | Path], volume: float = 1.0) -> None:
        """``files``: name -> a file path, or an arcade resource (``":resources:sounds/coin1.wav"``)."""
        found = {name: _resolved(path) for name, path in files.items()}
        missing = [f"{name!r} ({path})" for name, path in found.items() if not path.is_file()]
        if missing:
            raise FileNotFoundError(f"Sounds: no file for {', '.join(missing)}")
        self.volume = _volume(volume)
        """The effects' volume (0 silent .. 1 full), multiplied with each :meth:`play`'s."""
        self.names = tuple(files)
        self._sounds: dict[str, Any] = {}
        self._loops: dict[str, Any] = {}
        """The players of the loops playing, by name."""
        off = _no_audio()
        failed: list[str] = []
        for name, path in found.items() if off is None else ():
            try:
                self._sounds[name] = arcade.load_sound(path)
            except Exception as error:  # noqa: BLE001 - any back-end or decoder failure means "this one is silent"
                failed.append(name)
                off = off or f"{Path(path).name}: {_first_line(error)}"
        if off is not None and files:
            silent = "all sounds" if not self._sounds else ", ".join(failed)
            print(f"notice: sound off for {silent} ({off})", file=sys.stderr)

    @classmethod
    def from_folder(cls, folder: str | Path, names: Iterable[str], volume: float = 1.0) -> Sounds:
        """The sounds ``folder/NAME.wav`` for each of ``names``."""
        return cls({name: Path(folder) / f"{name}.wav" for name in names}, volume)

    @property
    def silent(self) -> bool:
        """Whether no sound can play (no audio, or none loaded)."""
        return not self._sounds

    def play(self, name: str, volume: float = 1.0) -> None:
        """Play sound ``name`` once at ``volume`` (0 .. 1) times :attr:`volume`; nothing when sound is off.
        An audio failure mid-game is ignored (the game goes on without that sound)."""
        sound = self._sound(name)
        loudness = self.volume * _volume(volume)
        if sound is None or loudness <= 0.0:
            return
        try:
            arcade.play_sound(sound, volume=loudness)
        except Exception:  # noqa: BLE001, S110 - a sound that cannot play is not worth stopping the game for
            pass

    def loop(self, name: str, volume: float = 1.0) -> None:
        """Play sound ``name`` over and over (music) at ``volume`` (not scaled by :attr:`volume`), until
        :meth:`stop`; starting it again restarts it."""
        self.stop(name)
        sound = self._sound(name)
        if sound is None:
            return
        try:
            self._loops[name] = arcade.play_sound(sound, volume=_volume(volume), loop=True)
        except Exception as error:  # noqa: BLE001 - music is a nicety
            print(f"notice: {name} off ({_first_line(error)})", file=sys.stderr)

    def set_loop_volume(self, name: str, volume: float) -> None:
        """Change the volume (0 .. 1) of the loop ``name`` while it plays."""
        player = self._loops.get(name)
        if player is not None:
            try:
                player.volume = _volume(volume)
            except Exception:  # noqa: BLE001, S110 - a player the audio back end already dropped
                pass

    def loop_player(self, name: str) -> Any:
        """The audio player (pyglet's) of the loop ``name`` while it plays, else ``None``."""
        return self._loops.get(name)

    def stop(self, name: str | None = None) -> None:
        """Stop the loop ``name`` (every loop when ``None``)."""
        for key in [name] if name is not None else list(self._loops):
            player = self._loops.pop(key, None)
            try:
                if player is not None:
                    player.pause()
            except Exception:  # noqa: BLE001, S110 - the audio back end may be gone already
                pass

    def hook(self, rules: Any, sounds: Mapping[str, str], volume: float = 1.0) -> list[tuple[str, Any]]:
        """Play a sound at each game event: ``sounds`` maps an event type of ``rules`` (a
        :class:`~engine.play.PlatformerRules`: ``pickup``, ``hazard``, ``checkpoint``, ``goal``...) to a sound
        name. Returns the (event type, handler) pairs, for ``rules.off(*pair)``."""
        for name in sounds.values():
            self._sound(name)  # (an unknown name fails here, not at the first event)
        return [(event, rules.on(event, lambda _event, name=name: self.play(name, volume)))
                for event, name in sounds.items()]

    def _sound(self, name: str) -> Any:
        if name not in self.names:
            raise KeyError(f"Sounds: no sound named {name!r} (the names are {', '.join(self.names) or 'none'})")
        return self._sounds.get(name)


def _resolved(path: str | Path) -> Path:
    """A sound's file: the path, or where arcade keeps a ``:resources:`` one."""
    if str(path).startswith(":"):
        try:
            return Path(arcade.resources.resolve(str(path)))
        except (FileNotFoundError, KeyError, ValueError):
            return Path(str(path))  # (reported as missing, by its given name)
    return Path(path)


def _volume(volume: float) -> float:
    if not (isinstance(volume, (int, float)) and 0.0 <= volume <= 1.0):
        raise ValueError(f"a volume is a number from 0 (silent) to 1 (full), got {volume!r}")
    return float(volume)


def _no_audio() -> str | None:
    """Why sound cannot play on this machine (no usable audio back end), or ``None`` when it can."""
    try:
        from pyglet.media.drivers import get_audio_driver

        driver = get_audio_driver()
    except Exception as error:  # noqa: BLE001 - a back end that fails to start is the same as none
        return f"the audio back end failed: {_first_line(error)}"
    if driver is None or type(driver).__name__ == "SilentDriver":
        return "no audio device"
    return None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _character_animator(level: Level, gid: int) -> Animator:
    """An :class:`Animator` for a character drawn with tile ``gid``: ``idle`` is the tile, ``run`` its Tiled
    animation (every pose without frames of its own falls back to these)."""
    animations = {"idle": Animation((gid,))}
    ts = level.tmx.tileset_of(gid & GID_MASK)
    frames = ts.tile_animations.get((gid & GID_MASK) - ts.firstgid) if ts is not None else None
    if frames:
        durations = [max(duration, 1) for _, duration in frames]
        fps = 1000.0 * len(frames) / sum(durations)
        animations["run"] = Animation(tuple(ts.firstgid + tile for tile, _ in frames), fps=fps)  # type: ignore[union-attr]
    return Animator(animations, fallbacks={"jump": "run", "fall": "run", "climb": "run", "hurt": "idle"})


_IMAGE_QUAD_VERTEX = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform vec2 shift;
in vec2 in_vert;
in vec2 in_uv;
out vec2 uv;
void main() {
    uv = in_uv;
    gl_Position = window.projection * window.view * vec4(in_vert + shift, 0.0, 1.0);
}
"""
_IMAGE_QUAD_FRAGMENT = """#version 330
#define CUTOUT 0
uniform sampler2D image;
in vec2 uv;
out vec4 color;
void main() {
    color = texture(image, uv);
#if CUTOUT
    if (color.a == 0.0) discard;
#endif
}
"""
_image_quad_programs: weakref.WeakKeyDictionary[Any, dict[bool, Any]] = weakref.WeakKeyDictionary()
"""The two image-layer programs (plain, cutout) of each GL context, compiled once per context."""


def _grouped(placed: list[tuple[arcade.Sprite, Any, tuple[float, float]]]
             ) -> list[tuple[Any, list[tuple[arcade.Sprite, float, float]]]]:
    """(sprite, thing, offset) rows as (thing, its sprites with their offsets), things in first-seen order."""
    groups: dict[int, tuple[Any, list[tuple[arcade.Sprite, float, float]]]] = {}
    for sprite, thing, (dx, dy) in placed:
        groups.setdefault(id(thing), (thing, []))[1].append((sprite, dx, dy))
    return list(groups.values())


class _ImageQuad:
    """An image layer as one textured quad: the image repeats inside it through the texture's wrapping, so
    a layer of a hundred copies is one draw of four vertices, and it fills each covered pixel once.

    The picture is the sprites' one (nearest sampling of the same pixels at the same places), drawn the
    cheapest exact way for software renderers, where every pixel a draw covers costs: an opaque image (a
    sky) without blending, an image whose pixels are all either opaque or fully transparent (pixel art) by
    discarding the transparent ones, and only an image with translucent pixels with blending. The quad
    leaves out the image's fully transparent top and bottom rows, and the rows that the opaque bands of
    the layers in front will cover anyway (see :meth:`draw`): then it is drawn as the pieces left."""

    def __init__(self, image: Image.Image, bottom_left: tuple[float, float], copies: tuple[int, int]) -> None:
        self.image, self.copies = image, copies
        alpha = np.asarray(image)[..., 3]
        self.blended = bool(((alpha > 0) & (alpha < 255)).any())
        self.cutout = not self.blended and bool((alpha == 0).any())
        self.copy_bottom, self.copy_height = bottom_left[1], image.height
        self.left, self.right = bottom_left[0], bottom_left[0] + copies[0] * image.width
        self.u = float(copies[0])
        self.bottom, self.top = self.copy_bottom, self.copy_bottom + copies[1] * image.height
        self.opaque_band: tuple[float, float] | None = None
        """World y range (px, before the parallax shift) that the layer covers with opaque pixels from side to
        side (a layer repeated across; ``None`` when it has no such rows)."""
        if copies[1] == 1:
            drawn = np.flatnonzero((alpha > 0).any(axis=1))  # image rows, from the top
            if len(drawn):
                self.bottom, self.top = self._row_span(int(drawn[0]), int(drawn[-1]))
            opaque = (alpha == 255).all(axis=1)
            if copies[0] > 1 and opaque.any():
                self.opaque_band = self._row_span(*_longest_run(opaque))
        self.drawn_spans: list[tuple[float, float]] = []
        """The world y ranges (px, before the shift) the vertices cover now: the quad's pieces left visible."""
        self.gl: tuple[Any, Any, Any, Any] | None = None
        """(program, texture, vertex buffer, geometry), made at the first draw (as a SpriteList's: a renderer
        can be made without an active window)."""

    def _gl_objects(self) -> tuple[Any, Any, Any, Any]:
        if self.gl is None:
            ctx = arcade.get_window().ctx
            programs = _image_quad_programs.setdefault(ctx, {})
            if self.cutout not in programs:
                programs[self.cutout] = ctx.program(vertex_shader=_IMAGE_QUAD_VERTEX, fragment_shader=_IMAGE_QUAD_FRAGMENT,
                                                    defines={"CUTOUT": str(int(self.cutout))})  # (replaces the #define)
            wrap_x, wrap_y = (ctx.REPEAT if n > 1 else ctx.CLAMP_TO_EDGE for n in self.copies)
            # GL's rows go up: the image's bottom row first, so that v = 0 is a copy's bottom edge.
            texture = ctx.texture(self.image.size, components=4,
                                  data=self.image.transpose(Image.Transpose.FLIP_TOP_BOTTOM).tobytes(),
                                  filter=(ctx.NEAREST, ctx.NEAREST), wrap_x=wrap_x, wrap_y=wrap_y)
            buffer = ctx.buffer(reserve=3 * 6 * 4 * 4)  # room for three pieces (a band in front cuts one in two)
            geometry = ctx.geometry([BufferDescription(buffer, "2f 2f", ["in_vert", "in_uv"])], mode=ctx.TRIANGLES)
            self.gl = (programs[self.cutout], texture, buffer, geometry)
        return self.gl

    def _row_span(self, first: int, last: int) -> tuple[float, float]:
        """World y range (px, bottom, top) of the image's rows ``first`` to ``last`` (from the top) in its copy."""
        return self.copy_bottom + self.copy_height - 1 - last, self.copy_bottom + self.copy_height - first

    def draw(self, shift: tuple[float, float], covered: list[tuple[float, float]]) -> None:
        """Draw inside the current camera, moved by ``shift`` (px, the layer's parallax offset), leaving out
        the rows inside the ``covered`` world y ranges (px, after the shift: the layers in front cover them
        with opaque pixels, so the picture is the same)."""
        spans = [(self.bottom + shift[1], self.top + shift[1])]
        for low, high in covered:
            spans = [piece for bottom, top in spans for piece in ((bottom, min(top, low)), (max(bottom, high), top))
                     if piece[0] < piece[1]]
        if not spans:
            return  # wholly hidden
        spans = [(bottom - shift[1], top - shift[1]) for bottom, top in spans]
        program, texture, buffer, geometry = self._gl_objects()
        if spans != self.drawn_spans:
            self.drawn_spans = spans
            corners = []
            for bottom, top in spans:  # two triangles each
                v0, v1 = (bottom - self.copy_bottom) / self.copy_height, (top - self.copy_bottom) / self.copy_height
                low_left, low_right = (self.left, bottom, 0.0, v0), (self.right, bottom, self.u, v0)
                up_left, up_right = (self.left, top, 0.0, v1), (self.right, top, self.u, v1)
                corners += [*low_left, *low_right, *up_left, *up_left, *low_right, *up_right]
            data = np.array(corners, dtype="f4").tobytes()
            if len(data) > buffer.size:
                buffer.orphan(len(data))
            buffer.write(data)
        ctx = texture.ctx
        program["shift"] = shift
        texture.use(0)
        with ctx.enabled_only(*((ctx.BLEND,) if self.blended else ())):
            if self.blended:
                ctx.blend_func = ctx.BLEND_DEFAULT
            geometry.render(program, vertices=6 * len(spans))


def _longest_run(flags: np.ndarray) -> tuple[int, int]:
    """First and last index of the longest run of true values (there is at least one)."""
    best, start = (0, -1), None
    for i, flag in enumerate([*flags.tolist(), False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            if i - 1 - start > best[1] - best[0]:
                best = (start, i - 1)
            start = None
    return best


class _Placed:
    """A static level object seen as a thing with a look (its user data is the level object)."""

    def __init__(self, position: tuple[float, float], angle: float, obj: LevelObject) -> None:
        self.position, self.angle, self.user_data = position, angle, obj


def draw_shape(shape: RoundedPolygon, xf: Transform, color: tuple[int, int, int, int]) -> None:
    """Outline of a rounded polygon (core edges offset by the radius, corners as arcs)."""
    verts = [xf.apply(v) for v in shape.vertices]
    r = shape.radius
    if shape.count == 1:
        arcade.draw_circle_outline(verts[0][0], verts[0][1], r, color, 1)
        return
    points = []
    normals = [xf.rotate(n) for n in shape.normals]
    n = shape.count
    for i in range(n):
        a, b = verts[i], verts[(i + 1) % n]
        nx, ny = normals[i]
        points.append((a[0] + nx * r, a[1] + ny * r))
        points.append((b[0] + nx * r, b[1] + ny * r))
        if r > 0:
            nx2, ny2 = normals[(i + 1) % n]
            start, end = math.atan2(ny, nx), math.atan2(ny2, nx2)
            sweep = (end - start) % (2 * math.pi)
            for k in range(1, 4):
                ang = start + sweep * k / 4
                points.append((b[0] + math.cos(ang) * r, b[1] + math.sin(ang) * r))
    arcade.draw_polygon_outline(points, color, 1)
