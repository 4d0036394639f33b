"""The project's own art generator: draws every PNG in ``assets/`` with Pillow, deterministically.

Run ``python -m game.art`` to redraw them. Nothing here is copied from elsewhere: tiles, hero and effects
are drawn from simple shapes and a fixed-seed noise, so the art is reproducible and free to ship.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from PIL import Image, ImageDraw

from .data import assets_folder

ASSETS = assets_folder()
TILE = 32

# Tile ids of tiles.png (one row); levels/tiles.tsx gives them their collision shapes.
BLOCK, SLOPE_R, SLOPE_L, SLOPE2_R_LOW, SLOPE2_R_HIGH, SLOPE2_L_HIGH, SLOPE2_L_LOW, HALF, ONE_WAY, GRASS, \
    CRATE, PLATFORM, SPIKES, GOAL, COIN, CHECKPOINT, BLOCK_INNER, LADDER, SPRING, WALKER, WALKER_STEP, DOOR, \
    SWITCH, FALLING, BOULDER, FLOWERS, MUSHROOMS, PEBBLES = range(28)
TILE_COLUMNS = 16
"""Tiles per row of tiles.png (ids run left to right, then down)."""
GROUND_FIRST = 32
"""The first id of the autotiled ground blocks (see GROUND_VARIANTS)."""


def _ground_variants() -> dict[tuple[bool, ...], int]:
    """Every autotiled ground block: ``(top, right, bottom, left, top_left, top_right, bottom_right,
    bottom_left)`` exposed (open to the air) -> tile id. A corner counts (an inner corner: the two sides
    beside it covered, the diagonal cell open) only when both sides beside it are covered, so there are the
    47 blocks of the classic blob set. The plain grass-topped block and the buried block keep their old ids
    (BLOCK, BLOCK_INNER), so maps written before autotiling still read right."""
    out: dict[tuple[bool, ...], int] = {}
    next_id = GROUND_FIRST
    for sides in range(16):
        top, right, bottom, left = (bool(sides & bit) for bit in (1, 2, 4, 8))
        possible = [not top and not left, not top and not right, not bottom and not right, not bottom and not left]
        for corners in range(16):
            corner = tuple(bool(corners & bit) for bit in (1, 2, 4, 8))
            if any(c and not ok for c, ok in zip(corner, possible)):
                continue
            key = (top, right, bottom, left, *corner)
            if key == (True,) + (False,) * 7:
                out[key] = 0  # BLOCK
            elif not any(key):
                out[key] = 16  # BLOCK_INNER
            else:
                out[key] = next_id
                next_id += 1
    return out


GROUND_VARIANTS = _ground_variants()
SURFACES = {SLOPE_R: (32, 0), SLOPE_L: (0, 32), SLOPE2_R_LOW: (32, 16), SLOPE2_R_HIGH: (16, 0),
            SLOPE2_L_HIGH: (0, 16), SLOPE2_L_LOW: (16, 32), HALF: (16, 16)}
"""The top line of each surface tile: px down from the tile's top at its left and right edges."""
SLOPE_FEET = {slope: max(GROUND_VARIANTS.values()) + 1 + k
              for k, slope in enumerate((SLOPE_R, SLOPE2_R_LOW, SLOPE_L, SLOPE2_L_LOW))}
"""Slope tile -> the buried block to put under it: a slope whose line comes down to its cell's bottom
(the low end of a 45-degree slope or of a 2:1 slope's low half) has no room for its whole grass band, so
the block below carries the rest of the band (a wedge of grass in its top corner)."""
TILE_COUNT = max(SLOPE_FEET.values()) + 1
TILE_ROWS = -(-TILE_COUNT // TILE_COLUMNS)
TILE_CLASSES = {
    ONE_WAY: "OneWay", CRATE: "Crate", PLATFORM: "MovingPlatform", SPIKES: "Hazard", GOAL: "Goal", COIN: "Pickup",
    CHECKPOINT: "Checkpoint", LADDER: "Ladder", SPRING: "Spring", WALKER: "Walker", DOOR: "Door", SWITCH: "Switch",
    FALLING: "FallingPlatform", BOULDER: "Solid",
}
"""The class each object tile has in levels/tiles.tsx: the renderer draws an object of that class with it."""
TILE_PROPERTIES = {
    SPIKES: {"draw": "repeat"}, LADDER: {"draw": "repeat"}, PLATFORM: {"draw": "repeat"}, FALLING: {"draw": "repeat"},
    BOULDER: {"draw": "stretch"},
}
"""How a tile covers an object drawn with it (see engine.render): the default is stretch or stand."""
TILE_ANIMATIONS = {WALKER: [(WALKER, 250), (WALKER_STEP, 250)]}
"""Tiled tile animations: (tile, milliseconds) frames."""

DIRT = (122, 84, 56, 255)
DIRT_DARK = (96, 64, 44, 255)
DIRT_LIGHT = (150, 110, 78, 255)
DIRT_RIM = (74, 48, 34, 255)
GRASS_DARK = (60, 130, 58, 255)
ROCK = (128, 124, 132, 255)
ROCK_DARK = (78, 74, 86, 255)
ROCK_LIGHT = (176, 172, 180, 255)
GRASS_GREEN = (86, 170, 72, 255)
GRASS_LIGHT = (130, 204, 96, 255)
WOOD = (176, 120, 64, 255)
WOOD_DARK = (120, 78, 40, 255)
STEEL = (120, 140, 160, 255)


def _grass_rows(x: int, top_left: float, top_right: float) -> tuple[int, int]:
    """Column ``x``'s surface row and the last row of its grass band (which may pass the tile's bottom: the
    rest belongs to the block below), for a top line from ``top_left`` to ``top_right`` (px down)."""
    top = int(top_left + (top_right - top_left) * (x + 0.5) / TILE)
    drip = (x * 7) % 5  # grass hanging a little into the dirt, the same pattern in every tile
    return top, top + 4 + (drip - 2 if drip >= 3 else 0)


def _slope_foot(slope: int, rng: random.Random) -> Image.Image:
    """The buried block under ``slope`` with the part of the slope's grass band that did not fit above."""
    img = _ground_block((False,) * 8, rng)
    d = ImageDraw.Draw(img)
    for x in range(TILE):
        _, last = _grass_rows(x, *SURFACES[slope])
        if last >= TILE:
            d.line((x, 0, x, last - TILE), fill=GRASS_GREEN)
    return img


def _surface_tile(img: Image.Image, index: int, top_left: float, top_right: float, rng: random.Random) -> None:
    """A ground tile whose top is a straight line from ``top_left`` to ``top_right`` (px down from the tile's
    top at its left and right edges): a slope or a half block. Each column's top pixel follows the line at
    the column's centre, so two tiles whose lines meet (a 2:1 slope's low and high halves, a slope and a
    block) continue each other's grass without a notch; grass, drips and dirt as the ground blocks have."""
    tile = Image.new("RGBA", (TILE, TILE), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    for x in range(TILE):
        top, last = _grass_rows(x, top_left, top_right)
        d.line((x, top, x, TILE - 1), fill=DIRT)
        for _ in range(1 if top > 24 else 2):
            y = rng.randrange(min(top + 6, TILE - 1), TILE)
            d.point((x, y), fill=DIRT_DARK)
        d.line((x, top, x, min(last, TILE - 1)), fill=GRASS_GREEN)
        d.point((x, top), fill=GRASS_LIGHT)
    img.alpha_composite(tile, (index * TILE, 0))


def _ground_block(key: tuple[bool, ...], rng: random.Random) -> Image.Image:
    """One autotiled ground block (``key`` as in GROUND_VARIANTS): dirt, a grass top where the top is open, a
    dark rim on open sides and the bottom, rounded grass over outer corners, small grass / rim notches in
    inner corners. Patterns that meet a neighbour's (grass drips, rims) depend on x or y only, so any two
    blocks side by side continue each other."""
    top, right, bottom, left, top_left, top_right, bottom_right, bottom_left = key
    img = Image.new("RGBA", (TILE, TILE), DIRT)
    d = ImageDraw.Draw(img)
    for _ in range(36):
        d.point((rng.randrange(TILE), rng.randrange(TILE)), fill=DIRT_DARK)
    for _ in range(3):  # pebbles
        x, y = rng.randrange(3, TILE - 5), rng.randrange(8, TILE - 5)
        d.rectangle((x, y, x + 1, y + 1), fill=DIRT_LIGHT)
    if left:
        d.rectangle((0, 0, 1, TILE - 1), fill=DIRT_RIM)
    if right:
        d.rectangle((TILE - 2, 0, TILE - 1, TILE - 1), fill=DIRT_RIM)
    if bottom:
        d.rectangle((0, TILE - 2, TILE - 1, TILE - 1), fill=DIRT_RIM)
    if top:
        d.rectangle((0, 0, TILE - 1, 4), fill=GRASS_GREEN)
        d.line((0, 0, TILE - 1, 0), fill=GRASS_LIGHT)
        for x in range(TILE):
            drip = (x * 7) % 5  # 0..4: grass hanging a little into the dirt, the same in every block
            if drip >= 3:
                d.line((x, 5, x, 5 + drip - 3), fill=GRASS_DARK)
        for side, x0 in ((left, 0), (right, TILE - 2)):
            if side:  # the grass turns down the open side; the very corner pixel is cut round
                d.rectangle((x0, 0, x0 + 1, 6), fill=GRASS_GREEN)
                d.point((0 if x0 == 0 else TILE - 1, 0), fill=(0, 0, 0, 0))
    if top_left:
        d.rectangle((0, 0, 2, 4), fill=GRASS_GREEN)
        d.point((0, 0), fill=GRASS_LIGHT)
    if top_right:
        d.rectangle((TILE - 3, 0, TILE - 1, 4), fill=GRASS_GREEN)
        d.point((TILE - 1, 0), fill=GRASS_LIGHT)
    if bottom_left:
        d.rectangle((0, TILE - 2, 1, TILE - 1), fill=DIRT_RIM)
    if bottom_right:
        d.rectangle((TILE - 2, TILE - 2, TILE - 1, TILE - 1), fill=DIRT_RIM)
    return img


def _boulder(d: ImageDraw.ImageDraw, x: int) -> None:
    """A grey rock mound filling the tile's bottom (the demo's boulder Solid is stretched over it)."""
    d.polygon([(x, 31), (x + 7, 6), (x + 23, 2), (x + 31, 31)], fill=ROCK, outline=ROCK_DARK)
    d.line((x + 8, 9, x + 22, 5), fill=ROCK_LIGHT, width=2)
    d.line((x + 14, 16, x + 19, 24), fill=ROCK_DARK)
    d.line((x + 6, 22, x + 10, 27), fill=ROCK_DARK)


def draw_tiles() -> Image.Image:
    """tiles.png: TILE_COLUMNS tiles a row; the first 25 are drawn on one strip as before, then cut into rows."""
    rng = random.Random(7)
    img = Image.new("RGBA", (GROUND_FIRST * TILE, TILE), (0, 0, 0, 0))
    for tid, (top_left, top_right) in SURFACES.items():
        _surface_tile(img, tid, top_left, top_right, rng)
    d = ImageDraw.Draw(img)
    x = ONE_WAY * TILE
    d.rectangle((x, 0, x + 31, 7), fill=WOOD, outline=WOOD_DARK)
    for k in range(4, 32, 8):
        d.line((x + k, 8, x + k, 12), fill=WOOD_DARK)
    x = GRASS * TILE
    for k in range(0, 32, 3):
        h = rng.randint(4, 10)
        d.line((x + k, 31, x + k + rng.randint(-1, 1), 31 - h), fill=GRASS_GREEN)
    x = CRATE * TILE
    d.rectangle((x, 0, x + 31, 31), fill=WOOD, outline=WOOD_DARK, width=2)
    d.line((x + 3, 3, x + 28, 28), fill=WOOD_DARK, width=3)
    d.line((x + 28, 3, x + 3, 28), fill=WOOD_DARK, width=3)
    _platform(d, PLATFORM * TILE)
    _decorations(d, rng)
    x = SPIKES * TILE
    for k in range(4):
        d.polygon([(x + 8 * k, 31), (x + 8 * k + 4, 14), (x + 8 * k + 8, 31)], fill=(210, 210, 220, 255),
                  outline=(90, 90, 110, 255))
    x = GOAL * TILE
    d.rectangle((x + 4, 2, x + 6, 31), fill=(80, 80, 80, 255))
    d.polygon([(x + 7, 3), (x + 28, 9), (x + 7, 15)], fill=(230, 60, 60, 255))
    x = COIN * TILE
    d.ellipse((x + 8, 8, x + 24, 24), fill=(250, 210, 60, 255), outline=(190, 140, 30, 255), width=2)
    x = CHECKPOINT * TILE
    d.rectangle((x + 4, 2, x + 6, 31), fill=(80, 80, 80, 255))
    d.polygon([(x + 7, 3), (x + 24, 9), (x + 7, 15)], fill=(60, 140, 230, 255))
    _draw_blocks(d)
    _boulder(d, BOULDER * TILE)
    sheet = Image.new("RGBA", (TILE_COLUMNS * TILE, TILE_ROWS * TILE), (0, 0, 0, 0))
    for tid in range(GROUND_FIRST):
        sheet.alpha_composite(img.crop((tid * TILE, 0, (tid + 1) * TILE, TILE)), _cell(tid))
    ground_rng = random.Random(11)
    for key, tid in GROUND_VARIANTS.items():
        sheet.paste(_ground_block(key, ground_rng), _cell(tid))
    for slope, tid in SLOPE_FEET.items():
        sheet.paste(_slope_foot(slope, ground_rng), _cell(tid))
    return sheet


def _cell(tid: int) -> tuple[int, int]:
    """The top-left pixel of tile ``tid`` in tiles.png."""
    return (tid % TILE_COLUMNS) * TILE, (tid // TILE_COLUMNS) * TILE


def _draw_blocks(d: ImageDraw.ImageDraw) -> None:
    """The building blocks' tiles: ladder, spring, walker (two steps), door, switch, falling platform."""
    x = LADDER * TILE
    for rail in (x + 5, x + 24):
        d.rectangle((rail, 0, rail + 2, 31), fill=WOOD, outline=WOOD_DARK)
    for y in range(4, 32, 8):
        d.rectangle((x + 7, y, x + 24, y + 2), fill=WOOD, outline=WOOD_DARK)
    x = SPRING * TILE
    d.rectangle((x + 2, 26, x + 29, 31), fill=STEEL, outline=(70, 86, 104, 255))
    for k in range(3):
        d.line((x + 6, 24 - 6 * k, x + 25, 21 - 6 * k), fill=(200, 200, 210, 255), width=2)
    d.rectangle((x + 2, 20, x + 29, 23), fill=(250, 190, 50, 255), outline=(150, 100, 20, 255))  # (not the hero's red)
    for frame, lift in ((WALKER, 0), (WALKER_STEP, 1)):
        x = frame * TILE
        d.ellipse((x + 4, 12 - lift, x + 27, 31 - lift), fill=(120, 50, 140, 255), outline=OUTLINE)
        d.ellipse((x + 7, 16 - lift, x + 12, 21 - lift), fill=(255, 255, 255, 255))
        d.point((x + 9, 18 - lift), fill=OUTLINE)
        for foot in (8, 16, 23):
            d.line((x + foot, 29, x + foot + (2 if lift else -2), 31), fill=OUTLINE, width=2)
    x = DOOR * TILE
    d.rectangle((x + 8, 0, x + 23, 31), fill=(110, 110, 130, 255), outline=(50, 50, 70, 255), width=2)
    for bolt in (6, 16, 26):
        d.point((x + 12, bolt), fill=(220, 200, 80, 255))
    x = SWITCH * TILE
    d.rectangle((x + 4, 26, x + 27, 31), fill=STEEL, outline=(70, 86, 104, 255))
    d.rectangle((x + 10, 22, x + 21, 26), fill=(240, 160, 40, 255), outline=(150, 90, 20, 255))
    _falling(d, FALLING * TILE)


STEEL_DARK, STEEL_LIGHT, HAZARD_YELLOW = (70, 86, 104, 255), (176, 194, 212, 255), (236, 190, 60, 255)
SANDSTONE, SANDSTONE_DARK, SANDSTONE_LIGHT = (196, 164, 120, 255), (120, 92, 64, 255), (226, 200, 156, 255)


def _platform(d: ImageDraw.ImageDraw, x: int) -> None:
    """A moving platform's 32 x 16 piece (repeated along it): a steel deck with a light top edge, a yellow
    and dark striped rim under it (a machine, not ground) and a rivet at each end, so its repeats read as
    plates bolted together."""
    d.rectangle((x, 0, x + 31, 9), fill=STEEL, outline=STEEL_DARK)
    d.line((x + 1, 1, x + 30, 1), fill=STEEL_LIGHT)
    for k in range(0, 32, 8):  # diagonal stripes along the rim
        d.polygon([(x + k, 10), (x + k + 4, 10), (x + k + 8, 15), (x + k + 4, 15)], fill=HAZARD_YELLOW)
        d.polygon([(x + k + 4, 10), (x + k + 8, 10), (x + k + 8, 15)], fill=(60, 56, 66, 255))
        d.polygon([(x + k, 10), (x + k, 15), (x + k + 4, 15)], fill=(60, 56, 66, 255))
    d.line((x, 15, x + 31, 15), fill=STEEL_DARK)
    for rivet in (x + 3, x + 28):
        d.rectangle((rivet, 4, rivet + 1, 5), fill=STEEL_DARK)


def _falling(d: ImageDraw.ImageDraw, x: int) -> None:
    """A falling platform's 32 x 16 piece: two sandstone bricks with a light top edge and dark cracks,
    crumbling at the bottom (loose pebbles hanging off): it looks as if it will not hold long."""
    d.rectangle((x, 0, x + 31, 11), fill=SANDSTONE, outline=SANDSTONE_DARK)
    d.line((x + 1, 1, x + 30, 1), fill=SANDSTONE_LIGHT)
    d.line((x + 15, 1, x + 15, 10), fill=SANDSTONE_DARK)  # the joint between the two bricks
    d.line((x + 6, 2, x + 9, 6, x + 7, 10), fill=SANDSTONE_DARK)
    d.line((x + 23, 3, x + 21, 7, x + 24, 10), fill=SANDSTONE_DARK)
    for px_, py_ in ((3, 12), (4, 13), (11, 12), (19, 12), (20, 14), (27, 12), (28, 13)):
        d.rectangle((x + px_, py_, x + px_ + 1, py_), fill=SANDSTONE if py_ == 12 else SANDSTONE_DARK)


def _decorations(d: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Ground decorations, one per level's look (they stand on a block's top, no collision): flowers,
    mushrooms and pebbles."""
    x = FLOWERS * TILE
    for k, color in ((3, (240, 90, 110, 255)), (12, (250, 220, 80, 255)), (21, (250, 250, 250, 255)),
                     (28, (150, 120, 240, 255))):
        h = rng.randint(6, 11)
        d.line((x + k, 31, x + k, 31 - h), fill=GRASS_GREEN)
        d.rectangle((x + k - 1, 30 - h, x + k + 1, 32 - h), fill=color)
        d.point((x + k, 31 - h), fill=(250, 200, 60, 255))
    x = MUSHROOMS * TILE
    for k, size in ((6, 5), (17, 7), (26, 4)):
        d.rectangle((x + k - 1, 31 - size, x + k + 1, 31), fill=(236, 226, 206, 255))
        d.ellipse((x + k - size, 28 - 2 * size, x + k + size, 32 - size), fill=(206, 80, 50, 255),
                  outline=(130, 44, 30, 255))
        d.point((x + k - size // 2, 30 - 2 * size + 2), fill=(250, 240, 230, 255))
    x = PEBBLES * TILE
    for k, (w, h) in ((4, (6, 4)), (14, (9, 6)), (25, (5, 3))):
        d.ellipse((x + k - w // 2, 31 - h, x + k + w // 2, 31), fill=ROCK, outline=ROCK_DARK)
        d.point((x + k - 1, 32 - h), fill=ROCK_LIGHT)


HERO_W, HERO_H = 24, 34
HERO_POSES = ("idle", "run0", "run1", "run2", "run3", "jump", "fall", "wall", "climb0", "climb1", "hurt")
"""Frames of hero.png, left to right; each is HERO_W x HERO_H and faces right."""

SKIN = (255, 214, 170, 255)
SHIRT = (220, 70, 60, 255)
PANTS = (50, 70, 140, 255)
HAIR = (70, 45, 30, 255)
OUTLINE = (30, 24, 30, 255)


def _hero_frame(pose: str) -> Image.Image:
    img = Image.new("RGBA", (HERO_W, HERO_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # Legs first (behind the body): (hip x, foot x offset, foot lift) per leg.
    legs = {
        "idle": [(9, 0, 0), (15, 0, 0)],
        "run0": [(9, -4, 0), (15, 4, 3)],
        "run1": [(9, -1, 2), (15, 1, 0)],
        "run2": [(9, 4, 3), (15, -4, 0)],
        "run3": [(9, 1, 0), (15, -1, 2)],
        "jump": [(9, -2, 4), (15, 3, 2)],
        "fall": [(9, -3, 0), (15, 3, 0)],
        "wall": [(9, 0, 3), (15, 2, 0)],
        "climb0": [(9, 0, 5), (15, 0, 0)],
        "climb1": [(9, 0, 0), (15, 0, 5)],
        "hurt": [(9, -3, 1), (15, 3, 1)],
    }[pose]
    for hip, dx, lift in legs:
        d.line((hip, 22, hip + dx, HERO_H - 2 - lift), fill=PANTS, width=4)
        d.rectangle((hip + dx - 2, HERO_H - 3 - lift, hip + dx + 3, HERO_H - 1 - lift), fill=OUTLINE)
    d.rounded_rectangle((5, 11, 19, 24), radius=3, fill=SHIRT, outline=OUTLINE)
    arm = {"jump": (20, 6), "fall": (22, 10), "wall": (22, 8), "climb0": (17, 2), "climb1": (12, 4),
           "hurt": (22, 4)}.get(pose, (17 + (2 if pose.startswith("run") else 0), 20))
    d.line((15, 14, *arm), fill=SKIN, width=3)
    d.ellipse((6, 0, 19, 12), fill=SKIN, outline=OUTLINE)
    d.pieslice((5, -1, 20, 10), 180, 360, fill=HAIR)
    if pose == "hurt":  # eyes shut tight
        d.line((14, 5, 16, 7), fill=OUTLINE)
        d.line((14, 7, 16, 5), fill=OUTLINE)
    else:
        d.point((15, 6), fill=OUTLINE)
        d.point((16, 6), fill=OUTLINE)
    return img


def draw_hero() -> Image.Image:
    sheet = Image.new("RGBA", (HERO_W * len(HERO_POSES), HERO_H), (0, 0, 0, 0))
    for k, pose in enumerate(HERO_POSES):
        sheet.alpha_composite(_hero_frame(pose), (k * HERO_W, 0))
    return sheet


def draw_dust() -> Image.Image:
    img = Image.new("RGBA", (8, 8), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((0, 0, 7, 7), fill=(235, 225, 210, 200))
    return img


BACKGROUND_WIDTH = 640
"""Width (px) of the parallax images: one screen; they repeat side by side (Tiled's repeatx), and their left
and right edges meet seamlessly (every wave in them has a whole number of periods across the width)."""
SKY_HEIGHT = 720
"""The sky image's height (px): taller than any shipped map, anchored at the map's bottom."""
SKY_TOP = (70, 130, 210)
SKY_BOTTOM = (190, 226, 246)
HILLS_FAR = (150, 190, 200, 255)
HILLS_FAR_LIGHT = (170, 206, 212, 255)
TREES = (74, 140, 110, 255)
TREES_DARK = (56, 112, 92, 255)


def _ridge(x: int, waves: Sequence[tuple[float, int, float]], base: float) -> int:
    """Height (px) of a seamless ridge line at column ``x``: ``base`` plus waves (amplitude, periods across
    the image's width, phase)."""
    import math

    return round(base + sum(a * math.sin(2 * math.pi * k * x / BACKGROUND_WIDTH + phase) for a, k, phase in waves))


THEMES: dict[str, dict[str, tuple[int, ...]]] = {
    "meadow": {"sky_top": SKY_TOP, "sky_bottom": SKY_BOTTOM, "hills": HILLS_FAR, "hills_light": HILLS_FAR_LIGHT,
               "trees": TREES, "trees_dark": TREES_DARK, "trees_light": (96, 164, 124, 255)},
    "autumn": {"sky_top": (96, 120, 190), "sky_bottom": (246, 206, 160), "hills": (190, 160, 150, 255),
               "hills_light": (214, 186, 170, 255), "trees": (204, 110, 52, 255), "trees_dark": (120, 66, 46, 255),
               "trees_light": (232, 160, 70, 255)},
    "dusk": {"sky_top": (40, 40, 96), "sky_bottom": (228, 140, 120), "hills": (110, 96, 140, 255),
             "hills_light": (140, 122, 168, 255), "trees": (54, 78, 96, 255), "trees_dark": (36, 50, 70, 255),
             "trees_light": (80, 108, 126, 255)},
}
"""Each level's look behind the ground (a map's image layers name its files, see :func:`backdrop_files`):
level 1 a blue-sky meadow of round trees, level 2 an autumn afternoon of orange crowns, level 3 a dusk of
dark pines on purple hills."""


def backdrop_files(theme: str) -> tuple[str, str, str]:
    """The sky, hills and trees images of a theme (``meadow`` keeps the first names: sky.png ...)."""
    suffix = "" if theme == "meadow" else f"_{theme}"
    return f"sky{suffix}.png", f"hills{suffix}.png", f"trees{suffix}.png"


def draw_sky(theme: str = "meadow") -> Image.Image:
    """A vertical gradient from the theme's top colour to its horizon (8 px bands: pixel-art steps)."""
    colors = THEMES[theme]
    img = Image.new("RGBA", (BACKGROUND_WIDTH // 10, SKY_HEIGHT))
    d = ImageDraw.Draw(img)
    for y in range(0, SKY_HEIGHT, 8):
        t = min(1.0, y / (SKY_HEIGHT - 160))
        color = tuple(round(a + (b - a) * t) for a, b in zip(colors["sky_top"], colors["sky_bottom"]))
        d.rectangle((0, y, img.width, y + 7), fill=color + (255,))
    return img


def draw_hills(theme: str = "meadow") -> Image.Image:
    """Far hills: a ridge with lighter tops, 240 px tall, transparent above the ridge (each theme its own
    shape: rounder, higher or more jagged)."""
    colors = THEMES[theme]
    waves = {"meadow": [(38, 2, 0.3), (18, 5, 1.7), (6, 11, 0.9)], "autumn": [(30, 3, 1.1), (24, 4, 0.2), (5, 13, 2.0)],
             "dusk": [(44, 1, 2.2), (20, 6, 0.7), (12, 17, 1.3)]}[theme]
    h = 240
    img = Image.new("RGBA", (BACKGROUND_WIDTH, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for x in range(BACKGROUND_WIDTH):
        top = h - _ridge(x, waves, 120)
        d.line((x, top, x, h - 1), fill=colors["hills"])
        d.line((x, top, x, top + 3), fill=colors["hills_light"])
    return img


def draw_trees(theme: str = "meadow") -> Image.Image:
    """Near trees over a dark band, 200 px tall, transparent above: round crowns on trunks (meadow,
    autumn), or pointed pines (dusk)."""
    colors = THEMES[theme]
    h = 200
    img = Image.new("RGBA", (BACKGROUND_WIDTH, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rng = random.Random({"meadow": 5, "autumn": 6, "dusk": 8}[theme])
    d.rectangle((0, h - 60, BACKGROUND_WIDTH - 1, h - 1), fill=colors["trees_dark"])
    for k in range(16):
        x = k * BACKGROUND_WIDTH // 16 + rng.randrange(-8, 9)
        r = rng.randrange(18, 30)
        y = h - 60 - rng.randrange(20, 70)
        d.rectangle((x - 2, y, x + 2, h - 60), fill=colors["trees_dark"])
        for dx in (-BACKGROUND_WIDTH, 0, BACKGROUND_WIDTH):  # crowns crossing an edge continue on the other
            if theme == "dusk":
                for tier in range(3):  # a pine: three stacked triangles, narrower going up
                    top, half = y - r - 10 + tier * 14, r * (tier + 2) // 4
                    d.polygon([(x + dx, top), (x + dx - half, top + 24), (x + dx + half, top + 24)],
                              fill=colors["trees"], outline=colors["trees_dark"])
                d.line((x + dx, y - r - 8, x + dx - 4, y - r + 6), fill=colors["trees_light"])
            else:
                d.ellipse((x + dx - r, y - r, x + dx + r, y + r), fill=colors["trees"], outline=colors["trees_dark"])
                d.ellipse((x + dx - r // 2, y - r + 4, x + dx + r // 3, y - r // 3), fill=colors["trees_light"])
    return img


def draw_sparkle() -> Image.Image:
    """A 5 x 5 four-pointed star (pickup sparkle)."""
    img = Image.new("RGBA", (5, 5), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.line((2, 0, 2, 4), fill=(255, 246, 170, 255))
    d.line((0, 2, 4, 2), fill=(255, 246, 170, 255))
    d.point((2, 2), fill=(255, 255, 255, 255))
    return img


def draw_puff() -> Image.Image:
    """A 10 x 10 grey-white cloud puff (an enemy stomped)."""
    img = Image.new("RGBA", (10, 10), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 2, 7, 9), fill=(230, 226, 236, 230))
    d.ellipse((3, 0, 9, 6), fill=(250, 248, 255, 230))
    return img


def main() -> None:
    ASSETS.mkdir(exist_ok=True)
    draw_tiles().save(ASSETS / "tiles.png")
    draw_hero().save(ASSETS / "hero.png")
    draw_dust().save(ASSETS / "dust.png")
    draw_sparkle().save(ASSETS / "sparkle.png")
    draw_puff().save(ASSETS / "puff.png")
    for theme in THEMES:
        sky, hills, trees = backdrop_files(theme)
        draw_sky(theme).save(ASSETS / sky)
        draw_hills(theme).save(ASSETS / hills)
        draw_trees(theme).save(ASSETS / trees)
    from .sounds import write_music, write_sounds

    write_sounds(ASSETS)
    write_music(ASSETS)
    print(f"wrote tiles.png, hero.png, dust.png, sparkle.png, puff.png, the backdrops of {', '.join(THEMES)}, "
          f"sounds and music in {ASSETS}")


if __name__ == "__main__":
    main()
