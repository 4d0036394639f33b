"""The teaching levels are fair: a checkpoint never respawns the hero right in front of a hazard, and the gaps
of levels 1 and 2 ask for no jump near the longest the hero can make, until the level's last section."""

import shutil
from pathlib import Path

import pytest

from engine import load_level
from game import tutorial
from game.mapmaker import map_xml
from game.session import Session

ROOT = Path(__file__).resolve().parents[2]
TILE = 32
SOLID = set("#/\\abcd=-")
"""Layout cells a hero can stand on (see game.mapmaker's legend)."""


def longest_running_jump(tmp_path):
    """How far (px) the hero's centre travels in a jump from a full-speed run, held to the top, back down to
    the height it left from: measured on a flat strip with the game's own physics."""
    (tmp_path / "levels").mkdir()
    (tmp_path / "assets").symlink_to(ROOT / "assets")
    shutil.copy(ROOT / "levels" / "tiles.tsx", tmp_path / "levels" / "tiles.tsx")
    spawn = {"name": "start", "cls": "Spawn", "kind": "point", "x": 48, "y": 12 * TILE - 8}
    path = tmp_path / "levels" / "flat.tmx"
    path.write_text(map_xml(["." * 120] * 12 + ["#" * 120] * 4, [spawn], tutorial.PROPERTIES, backgrounds=False))
    s = Session.open(path)
    for _ in range(90):  # up to full speed
        s.step({"right"})
    x0, y0 = s.hero.position
    s.step({"right", "jump"})
    while s.hero.position[1] > y0 + 0.5 or s.hero.velocity[1] > 0:
        s.step({"right", "jump"})
    return s.hero.position[0] - x0


def gaps(layout, hazards, until_x):
    """Runs of columns (first, last) left of ``until_x`` px with nowhere to stand: no solid or one-way cell
    with open air above it, other than the floor of a pit under a hazard."""
    def standable(col):
        for row in range(1, len(layout)):
            x, y = col * TILE + TILE / 2, row * TILE - TILE / 2  # the air cell's centre (Tiled px, y down)
            if layout[row][col] in SOLID and layout[row - 1][col] not in SOLID:
                if not any(left <= x <= right and top <= y <= bottom for left, right, top, bottom in hazards):
                    return True
        return False

    out, start = [], None
    for col in range(min(len(layout[0]), int(until_x // TILE))):
        if not standable(col):
            start = col if start is None else start
        elif start is not None:
            out.append((start, col - 1))
            start = None
    return out


@pytest.mark.parametrize("name, layout, objects", [
    ("1_hills_and_ledges", tutorial.hills_layout, tutorial.hills_objects),
    ("2_crates", tutorial.crates_layout, tutorial.crates_objects),
])
def test_gaps_before_the_last_checkpoint_are_at_most_70_percent_of_the_longest_running_jump(tmp_path, name,
                                                                                           layout, objects):
    reach = longest_running_jump(tmp_path)
    assert 5 * TILE < reach < 6 * TILE  # (5.3 tiles: the physics as the levels were made for)
    things = objects()
    hazards = [(o["x"], o["x"] + o["w"], o["y"], o["y"] + o["h"]) for o in things if o.get("cls") == "Hazard"]
    last_checkpoint = max(o["x"] for o in things if o.get("cls") == "Checkpoint")
    found = gaps(layout(), hazards, last_checkpoint)
    assert found, "no gaps found: the measure is broken"
    too_wide = [(a, b) for a, b in found if (b - a + 1) * TILE > 0.7 * reach]
    assert not too_wide, f"{name}: gaps (columns) wider than {0.7 * reach:.0f} px: {too_wide}"


@pytest.mark.parametrize("name", ["1_hills_and_ledges", "2_crates", "3_machines"])
def test_every_checkpoint_is_at_least_four_tiles_before_the_next_hazard(name):
    """Where a checkpoint respawns the hero (its flag), the next spikes or pit to the right start four tiles
    on or more: holding right after a respawn gives time to see them and jump."""
    level = load_level(ROOT / "levels" / f"{name}.tmx")
    hazards = [o for o in level.objects if o.cls == "Hazard"]
    for checkpoint in (o for o in level.objects if o.cls == "Checkpoint"):
        x = checkpoint.position[0]
        ahead = [h.position[0] - h.size[0] / 2 for h in hazards if h.position[0] + h.size[0] / 2 > x]
        if ahead:
            tiles = (min(ahead) - x) / TILE
            assert tiles >= 4, f"{name}: checkpoint {checkpoint.name!r} is {tiles:.1f} tiles before a hazard"


class RightAndJumpBot:
    """A player with one idea: hold right, and press jump when a gap or a wall is ahead (``look`` px before
    it), holding it for a full jump (:attr:`JUMP_STEPS`), whatever happens meanwhile. Nothing else: no down,
    no timing to the frame, no memory of what worked. A press always follows a release, as with a real
    button."""

    JUMP_STEPS = 20

    def __init__(self, session, look):
        self.s, self.look = session, look
        self.jumping = 0
        self.released = True

    def actions(self):
        s, held = self.s, {"right"}
        if self.jumping > 0:
            self.jumping -= 1
            return held | {"jump"}
        if not s.hero.on_floor or not self.released:
            self.released = True
            return held
        (hx, hy), reach = s.hero.position, 10 + self.look  # (the hero is 20 px wide)
        gap = s.world.static.ray_cast((hx + reach, hy), (0, -1), 140) is None
        wall = s.world.static.ray_cast((hx, hy - 8), (1, 0), reach) is not None
        if gap or wall:
            self.jumping = self.JUMP_STEPS - 1
            return held | {"jump"}
        return held

    def play(self, limit=60 * 150):
        while not self.s.complete and self.s.steps < limit:
            held = self.actions()
            self.s.step(held)
            self.released = "jump" not in held
        return self.s


@pytest.mark.parametrize("look", [2, 12, 24, 36])
def test_a_bot_that_holds_right_and_jumps_at_gaps_and_walls_reaches_level_ones_goal(look):
    """Jumping anywhere from right at the edge (2 px) to more than a tile before it (36 px) works:
    the level asks for no frame-exact input."""
    s = RightAndJumpBot(Session.open(ROOT / "levels" / "1_hills_and_ledges.tmx"), look).play()
    assert s.complete, f"the bot stopped at column {s.hero.position[0] / TILE:.1f} after {s.steps} steps"
    assert s.deaths == 0
