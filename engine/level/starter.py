"""``ledgekit new DIR``: a starter game a developer owns, written into ``DIR``.

It writes a Tiled project declaring the game's classes (``game.tiled-project``), a small tileset drawn here
(``tiles.png``, 32 px tiles) with its ``tiles.tsx`` (collision shapes set: ground, two slopes, a one-way
plank; classes for the crate, coin, flags, sign), the hero's animated look (``hero.png`` with ``hero.tsx``: a
tile per pose, the run a Tiled tile animation), four short sounds (``sounds/*.wav``, made here), one level
(``level1.tmx``: ground, slopes, a one-way platform, a crate, coins, a checkpoint, a sign and the goal) and a
``main.py`` on the public API that plays it (window, follow camera, renderer with the animated hero, the
standard rules, sounds, restart, live reload when the level is saved).

    ledgekit new mygame && python mygame/main.py          # play it
    python mygame/main.py --headless --frames 60          # run it without a window
    ledgekit check mygame                                 # 0 problems

Nothing is overwritten: a folder that already holds one of these files is refused.
"""

from __future__ import annotations

import json
import wave
from pathlib import Path

__all__ = ["STARTER_FILES", "write_starter"]

STARTER_FILES = ("game.tiled-project", "tiles.png", "tiles.tsx", "hero.png", "hero.tsx", "sounds", "level1.tmx", "main.py")
"""The files ``ledgekit new`` writes."""

TILE = 32
GROUND, SLOPE_UP, SLOPE_DOWN, PLANK, CRATE, COIN, CHECKPOINT, GOAL, DIRT = range(9)
"""Tile ids of tiles.png (one row): ``GROUND`` has grass on top, ``DIRT`` (under other ground) has none."""
TILE_COUNT = 9
SKY = "#8ecdf0"

LAYOUT = [
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "...............===......................",
    "........................................",
    "....................................##..",
    "............/#######\\...............##..",
    "############################...#########",
    "############################...#########",
    "############################...#########",
]
"""The level, one character a 32 px cell: ``#`` ground, ``/`` and ``\\`` slopes, ``=`` one-way plank."""
CELLS = {"#": GROUND, "/": SLOPE_UP, "\\": SLOPE_DOWN, "=": PLANK}

OBJECTS = [
    ("Spawn", 'x="64" y="367"', "<point/>", ""),  # the hero's centre: 16 px (+ 1 to spare) over the floor
    ("Sign", 'x="176" y="320" width="96" height="32"', "", '<property name="text" value="arrows run, space jumps"/>'),
    ("Sign", 'x="464" y="160" width="160" height="32"', "",
     '<property name="text" value="down + jump drops through"/>'),
    ("Pickup", 'x="528" y="232"', "<point/>", '<property name="kind" value="coin"/>'),
    ("Crate", 'x="736" y="352" width="32" height="32"', "", ""),
    ("Pickup", 'x="960" y="320"', "<point/>", '<property name="kind" value="coin"/>'),
    ("Checkpoint", 'x="800" y="320" width="32" height="64"', "", ""),
    ("Goal", 'x="1184" y="256" width="32" height="64"', "", ""),
]
"""(class, position and size in Tiled pixels (y down), shape, properties) of the level's objects."""


def write_starter(folder: Path) -> list[Path]:
    """Write the starter game into ``folder`` (made if missing); returns the files written.

    Raises ``FileExistsError`` naming the first starter file already there (nothing is written then)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in STARTER_FILES:
        if (folder / name).exists():
            raise FileExistsError(f"{folder / name} already exists: choose a new folder (nothing was written)")
    _draw_tiles().save(folder / "tiles.png")
    (folder / "tiles.tsx").write_text(_tileset())
    _draw_hero().save(folder / "hero.png")
    (folder / "hero.tsx").write_text(HERO_TSX)
    _write_sounds(folder / "sounds")
    (folder / "level1.tmx").write_text(_level())
    (folder / "game.tiled-project").write_text(json.dumps(_project(), indent=4) + "\n")
    (folder / "main.py").write_text(MAIN_PY)
    return [folder / name for name in STARTER_FILES]


def _draw_tiles():  # -> PIL.Image.Image (Pillow comes with arcade; imported here only when a starter is made)
    """The starter's tiles, drawn with plain shapes: a row of 32 px tiles, each drawn on its own (so no stroke
    spills into its neighbour)."""
    from PIL import Image, ImageDraw

    sheet = Image.new("RGBA", (TILE_COUNT * TILE, TILE), (0, 0, 0, 0))
    dirt, grass, wood, pole = (128, 88, 58, 255), (92, 170, 70, 255), (150, 110, 70, 255), (70, 70, 80, 255)
    for tile in range(TILE_COUNT):
        image = Image.new("RGBA", (TILE, TILE), (0, 0, 0, 0))
        d = ImageDraw.Draw(image)
        if tile in (GROUND, DIRT):
            d.rectangle((0, 0, 31, 31), fill=dirt)
            for x, y in ((5, 9), (20, 14), (11, 24), (27, 27), (3, 19)):
                d.point((x, y), fill=(104, 70, 46, 255))
            if tile == GROUND:
                d.rectangle((0, 0, 31, 4), fill=grass)
        elif tile in (SLOPE_UP, SLOPE_DOWN):
            points = [(0, 31), (31, 0), (31, 31)] if tile == SLOPE_UP else [(0, 0), (31, 31), (0, 31)]
            d.polygon(points, fill=dirt)
            d.line(points[:2], fill=grass, width=4)
        elif tile == PLANK:
            d.rectangle((0, 0, 31, 7), fill=wood)
            d.rectangle((0, 6, 31, 7), fill=(100, 70, 45, 255))
        elif tile == CRATE:
            d.rectangle((0, 0, 31, 31), fill=(176, 124, 70, 255), outline=(120, 80, 40, 255), width=3)
            d.line((3, 3, 28, 28), fill=(120, 80, 40, 255), width=3)
        elif tile == COIN:
            d.ellipse((8, 16, 23, 31), fill=(250, 204, 60, 255), outline=(200, 150, 30, 255))
        elif tile in (CHECKPOINT, GOAL):
            d.rectangle((6, 2, 8, 31), fill=pole)
            d.polygon([(9, 2), (27, 8), (9, 14)], fill=(70, 120, 230, 255) if tile == CHECKPOINT else (230, 70, 70, 255))
        sheet.paste(image, (tile * TILE, 0))
    return sheet


HERO_SIZE = (24, 32)
"""A hero frame's size (px): his 20 x 32 collision box with room for a stride."""
HERO_FRAMES = ("idle", "run0", "run1", "run2", "run3", "jump", "fall")
"""hero.png's frames, left to right (tile ids 0 to 6 of hero.tsx), each facing right."""
HERO_TSX = f"""<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="hero" tilewidth="{HERO_SIZE[0]}" tileheight="{HERO_SIZE[1]}" \
tilecount="{len(HERO_FRAMES)}" columns="{len(HERO_FRAMES)}">
 <image source="hero.png" width="{HERO_SIZE[0] * len(HERO_FRAMES)}" height="{HERO_SIZE[1]}"/>
 <tile id="0"><properties><property name="pose" value="idle"/></properties></tile>
 <tile id="1"><properties><property name="pose" value="run"/></properties>
  <animation><frame tileid="1" duration="100"/><frame tileid="2" duration="100"/><frame tileid="3" duration="100"/>\
<frame tileid="4" duration="100"/></animation></tile>
 <tile id="5"><properties><property name="pose" value="jump"/></properties></tile>
 <tile id="6"><properties><property name="pose" value="fall"/></properties></tile>
</tileset>
"""
"""hero.tsx: the hero's look for ``engine.render.CharacterLook.from_tileset`` (a tile per pose; the run is a
Tiled tile animation, edited in Tiled's animation editor)."""


def _draw_hero():  # -> PIL.Image.Image
    """The hero's frames: a red shirt, a face looking right, legs apart by the pose."""
    from PIL import Image, ImageDraw

    width, height = HERO_SIZE
    sheet = Image.new("RGBA", (width * len(HERO_FRAMES), height), (0, 0, 0, 0))
    strides = {"idle": (0, 0), "run0": (-5, 4), "run1": (-2, 1), "run2": (5, -4), "run3": (2, -1),
               "jump": (-4, 5), "fall": (3, 3)}
    for k, frame in enumerate(HERO_FRAMES):
        image = Image.new("RGBA", HERO_SIZE, (0, 0, 0, 0))
        d = ImageDraw.Draw(image)
        back, front = strides[frame]
        lift = 4 if frame in ("jump", "fall") else 0
        for dx in (back, front):  # legs from the hip (y 21) to a foot on the bottom row
            d.line((12, 21, 12 + dx, height - 2 - lift), fill=(50, 70, 150, 255), width=3)
            d.rectangle((10 + dx, height - 3 - lift, 14 + dx, height - 1 - lift), fill=(40, 30, 30, 255))
        d.rectangle((6, 10, 17, 22), fill=(220, 70, 60, 255))  # shirt
        arm = -6 if frame == "jump" else 6 if frame == "fall" else 0
        d.line((11, 13, 16 + abs(arm) // 3, 18 + arm), fill=(250, 220, 190, 255), width=3)
        d.rectangle((7, 1, 17, 10), fill=(250, 220, 190, 255))  # face
        d.rectangle((6, 0, 17, 2), fill=(90, 60, 40, 255))  # hair
        d.rectangle((14, 4, 15, 6), fill=(30, 30, 40, 255))  # an eye on the side he faces
        sheet.paste(image, (k * width, 0))
    return sheet


SOUND_RATE = 22050


def _write_sounds(folder: Path) -> None:
    """sounds/coin.wav, jump.wav, hurt.wav, goal.wav: short square and sine sweeps (16-bit mono WAV)."""
    import numpy as np

    def sweep(f0: float, f1: float, seconds: float, square: bool = False) -> np.ndarray:
        n = int(SOUND_RATE * seconds)
        phase = 2 * np.pi * np.cumsum(np.linspace(f0, f1, n)) / SOUND_RATE
        tone = np.sign(np.sin(phase)) * 0.5 if square else np.sin(phase)
        t = np.linspace(0.0, 1.0, n)
        return tone * np.minimum(1.0, t / 0.02) * np.exp(-3.0 * t)  # quick attack, fading out

    sounds = {"coin": np.concatenate([sweep(990, 990, 0.06), sweep(1320, 1320, 0.14)]) * 0.5,
              "jump": sweep(300, 700, 0.15, square=True) * 0.4,
              "hurt": sweep(400, 90, 0.35, square=True) * 0.4,
              "goal": np.concatenate([sweep(f, f, 0.11) for f in (523, 659, 784, 1046)]) * 0.5}
    folder.mkdir()
    for name, samples in sounds.items():
        with wave.open(str(folder / f"{name}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(SOUND_RATE)
            out.writeframes((np.clip(samples, -1.0, 1.0) * 32767).astype("<i2").tobytes())


def _tileset() -> str:
    """tiles.tsx: collision shapes for the ground, slopes and plank; classes for the things drawn by class."""
    shape = {
        GROUND: '<object id="1" x="0" y="0" width="32" height="32"/>',
        SLOPE_UP: '<object id="1" x="0" y="0"><polygon points="0,32 32,0 32,32"/></object>',
        SLOPE_DOWN: '<object id="1" x="0" y="0"><polygon points="0,0 32,32 0,32"/></object>',
        PLANK: '<object id="1" x="0" y="0" width="32" height="8"/>',
    }
    shape[DIRT] = shape[GROUND]
    classes = {PLANK: "OneWay", CRATE: "Crate", COIN: "Pickup", CHECKPOINT: "Checkpoint", GOAL: "Goal"}
    properties = {PLANK: '<property name="one_way" type="bool" value="true"/><property name="draw" value="repeat"/>',
                  COIN: '<property name="draw" value="stand"/>', CHECKPOINT: '<property name="draw" value="stand"/>',
                  GOAL: '<property name="draw" value="stand"/>'}
    tiles = []
    for tile in range(TILE_COUNT):
        if tile not in shape and tile not in classes:
            continue
        kind = f' type="{classes[tile]}"' if tile in classes else ""
        props = f"<properties>{properties[tile]}</properties>" if tile in properties else ""
        body = f'<objectgroup draworder="index">{shape[tile]}</objectgroup>' if tile in shape else ""
        tiles.append(f' <tile id="{tile}"{kind}>{props}{body}</tile>')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<tileset version="1.10" tiledversion="1.10.2" name="starter" tilewidth="32" tileheight="32" '
            f'tilecount="{TILE_COUNT}" columns="{TILE_COUNT}">\n'
            f' <image source="tiles.png" width="{TILE_COUNT * TILE}" height="{TILE}"/>\n'
            + "\n".join(tiles) + "\n</tileset>\n")


def _cell(row: int, col: int) -> int:
    """The tile of a layout cell: ground under ground or a slope is plain dirt (grass only where it is open)."""
    tile = CELLS[LAYOUT[row][col]]
    return DIRT if tile == GROUND and row > 0 and LAYOUT[row - 1][col] in "#/\\" else tile


def _level() -> str:
    """level1.tmx: the layout as a CSV tile layer, and the objects."""
    height, width = len(LAYOUT), len(LAYOUT[0])
    rows = [",".join(str(_cell(r, c) + 1) if ch in CELLS else "0" for c, ch in enumerate(row))
            for r, row in enumerate(LAYOUT)]
    things = []
    for oid, (cls, where, shape, props) in enumerate(OBJECTS, start=1):
        properties = f"<properties>{props}</properties>" if props else ""
        # `type`, which every Tiled version reads as the class (Tiled 1.8 drops 1.9's `class` on load and save).
        things.append(f'  <object id="{oid}" type="{cls}" {where}>{properties}{shape}</object>')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.10" tiledversion="1.10.2" class="LedgekitMap" orientation="orthogonal" '
            f'renderorder="right-down" width="{width}" height="{height}" tilewidth="{TILE}" tileheight="{TILE}" '
            f'infinite="0" backgroundcolor="{SKY}" nextlayerid="3" nextobjectid="{len(OBJECTS) + 1}">\n'
            ' <properties><property name="gravity" type="float" value="1800"/></properties>\n'
            ' <tileset firstgid="1" source="tiles.tsx"/>\n'
            f' <layer id="1" name="ground" width="{width}" height="{height}">\n  <data encoding="csv">\n'
            + ",\n".join(rows) + "\n  </data>\n </layer>\n"
            ' <objectgroup id="2" name="things">\n' + "\n".join(things) + "\n </objectgroup>\n</map>\n")


def _class(cid: int, name: str, members: list[tuple[str, str, object]], use: str = "object") -> dict:
    return {"id": cid, "name": name, "type": "class", "useAs": [use], "color": "#ff9e9e9e", "drawFill": True,
            "members": [{"name": n, "type": t, "value": v} for n, t, v in members]}


def _project() -> dict:
    """game.tiled-project: the engine's classes the level uses, and the game's own (``Sign``)."""
    classes = [
        _class(1, "LedgekitMap", [("gravity", "float", 1800.0), ("segment_radius", "float", 2.0),
                                  ("next_level", "file", "")], use="map"),
        _class(2, "Spawn", []), _class(3, "Solid", []), _class(4, "OneWay", []),
        _class(5, "Crate", [("density", "float", 1.0), ("friction", "float", 0.6), ("restitution", "float", 0.0)]),
        _class(6, "Pickup", [("kind", "string", "coin")]), _class(7, "Checkpoint", []), _class(8, "Goal", []),
        _class(9, "Hazard", []),
        _class(10, "Sign", [("text", "string", "")]),  # the game's own class: main.py's make_sign builds it
    ]
    return {"automappingRulesFile": "", "commands": [], "compatibilityVersion": 1100, "extensionsPath": "extensions",
            "folders": ["."], "properties": [], "propertyTypes": classes}


MAIN_PY = '''"""My Ledgekit game. Play: ``python main.py``; without a window: ``python main.py --headless --frames 60``.

Edit level1.tmx in Tiled (open game.tiled-project first: it declares the classes) and save: the game reloads it.
The hero's look is hero.tsx (a tile per pose, its ``pose`` property; the run is a tile animation): edit it in
Tiled's tileset editor. Check the level with ``ledgekit check .``. Arrows or A/D run, space jumps, down + jump
drops through the plank, R restarts.
"""

import argparse
import sys
from pathlib import Path

from engine import LevelObject, PlatformerInput, RoundedPolygon, World, load_level
from engine.camera import FollowCamera
from engine.play import Stage, standard_factories

HERE = Path(__file__).resolve().parent
LEVEL = HERE / "level1.tmx"
HERO = RoundedPolygon.box(10, 16, radius=2)  # the player's collision shape: 20 x 32 px, round corners
VIEW = (640, 360)  # the game's pixels; the window shows them at 2x


def new_stage(signs: list) -> Stage:
    """Load the level and stage it: the world, the player at the Spawn, the rules, the level's objects."""
    def make_sign(obj: LevelObject, world: World) -> LevelObject:  # the game's own class, declared in the project
        signs.append((obj.position, obj.properties["text"]))
        return obj

    level = load_level(LEVEL)
    return Stage.from_level(level, HERO, factories={**standard_factories(), "Sign": make_sign})


def prepare_physics():
    """Make the physics kernels ready without waiting for them. On the first start on a machine they compile in a
    background process (about half a minute of CPU) while the game plays on the same kernels run as plain Python
    (slower, the same numbers), then it switches to them; later starts load them from the disk cache in about a
    second. Returns the background compile to wait for before exiting (it fills the cache), or None."""
    from engine import BackgroundWarmUp, first_start

    if not first_start():
        return None
    print("compiling the physics in the background (first start on this machine); playing meanwhile", flush=True)
    return BackgroundWarmUp()


def headless(frames: int) -> int:
    """Run ``frames`` steps holding right, with no window; print where the hero got."""
    stage = new_stage([])
    for _ in range(frames):
        stage.step(PlatformerInput(right=True), 1 / 60)
    x, y = stage.player.position
    print(f"{frames} steps: hero at ({x:.0f}, {y:.0f}), coins {stage.rules.pickups}/{stage.rules.pickup_total}")
    return 0


def play() -> int:
    import arcade

    from engine.level.watch import LevelWatcher
    from engine.render import CharacterLook, LevelRenderer, Sounds

    keys = {arcade.key.LEFT: "left", arcade.key.A: "left", arcade.key.RIGHT: "right", arcade.key.D: "right",
            arcade.key.UP: "up", arcade.key.DOWN: "down", arcade.key.SPACE: "jump", arcade.key.Z: "jump"}

    class Game(arcade.Window):
        def __init__(self) -> None:
            super().__init__(2 * VIEW[0], 2 * VIEW[1], "My Ledgekit game", resizable=True)
            self.held: set[str] = set()
            self.watcher = LevelWatcher(LEVEL)
            self.sounds = Sounds.from_folder(HERE / "sounds", ("coin", "jump", "hurt", "goal"), volume=0.5)
            self.hero_look = CharacterLook.from_tileset(HERE / "hero.tsx")  # idle, run, jump, fall
            self.restart()

        def restart(self) -> None:
            self.signs: list = []
            self.stage = new_stage(self.signs)
            self.renderer = LevelRenderer(self.stage.level, self.stage.world)
            self.follow = FollowCamera(VIEW, (self.stage.level.width, self.stage.level.height))
            self.follow.snap(*self.stage.player.position)
            self.camera = arcade.Camera2D(zoom=2.0)
            self.labels = [arcade.Text(t, x, y + 24, (30, 30, 50, 255), 8, anchor_x="center") for (x, y), t in self.signs]
            # The renderer draws the hero: animated by pose, facing his way, on his feet.
            self.renderer.show_character(self.stage.player, self.hero_look, self.stage.controller)
            self.sounds.hook(self.stage.rules, {"pickup": "coin", "hazard": "hurt", "fall": "hurt", "goal": "goal"})

        def on_key_press(self, key: int, modifiers: int) -> None:
            if key == arcade.key.R:
                self.restart()
            self.held.add(keys.get(key, ""))

        def on_key_release(self, key: int, modifiers: int) -> None:
            self.held.discard(keys.get(key, ""))

        def on_update(self, dt: float) -> None:  # one fixed 60 Hz step per frame, for brevity
            if self.watcher.poll():  # saved in Tiled: play the new version
                self.restart()
            buttons = PlatformerInput(**{a: a in self.held for a in ("left", "right", "up", "down", "jump")})
            self.stage.step(buttons, 1 / 60)
            if "jump" in self.stage.controller.events:
                self.sounds.play("jump", volume=0.6)
            self.renderer.sync()
            self.renderer.animate(1 / 60)
            player = self.stage.player
            self.follow.follow(*player.position, 1 / 60, velocity_x=player.velocity[0], half_size=(10, 16))

        def on_draw(self) -> None:
            self.clear(color=(142, 205, 240, 255))
            self.camera.position = self.follow.position
            self.camera.use()
            self.renderer.draw(self.camera.position, characters=False)
            for label in self.labels:
                label.draw()
            self.renderer.draw_characters()  # (the hero in front of the signs)

    try:
        Game()
    except Exception as error:  # pyglet raises many types for "no display" or "no OpenGL 3.3"
        print(f"error: cannot open the game window ({type(error).__name__}: {error}); try --headless", file=sys.stderr)
        return 1
    arcade.run()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="My Ledgekit game")
    parser.add_argument("--headless", action="store_true", help="run without a window")
    parser.add_argument("--frames", type=int, default=60, help="steps to run headless (60 a second)")
    args = parser.parse_args(argv)
    warming = prepare_physics()
    code = headless(args.frames) if args.headless else play()
    if warming is not None:
        warming.wait()  # (so that the next start finds the compiled physics in the cache)
    return code


if __name__ == "__main__":
    sys.exit(main())
'''
"""The starter's main.py."""
