"""Randomised physics invariants: random closed levels with ramps, ledges, one-way platforms, moving platforms,
crates and several characters, stepped with random dt (1/240 - 1/30 s) and random pushes up to 20,000 px/s,
checking after every step what must never happen. Used by the CI test (a few seconds, fixed seeds) and by
``tests/benchmarks/invariants_long.py`` (a million character steps and more).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

from engine import (
    Character, KinematicBody, PlatformerController, PlatformerInput, PlatformPath, RigidBody, RoundedPolygon, World,
)
from engine.world import BodyKind

BOX = (0.0, 0.0, 1600.0, 900.0)
"""The closed container every level is built in (min_x, min_y, max_x, max_y), px."""
RADIUS = 2.0
HERO = RoundedPolygon.box(10, 16, radius=2)
ROWS = ("non_finite", "overlap", "crossed_core", "escaped", "floor_without_contact")


@dataclass
class Tally:
    """Counts of each broken invariant, and of what was checked."""

    broken: Counter = field(default_factory=Counter)
    character_steps: int = 0
    crate_steps: int = 0
    examples: list[str] = field(default_factory=list)
    gone: set[int] = field(default_factory=set)
    """Objects already counted as escaped (an escape counts once, not at every later step)."""

    def add(self, row: str, what: str) -> None:
        self.broken[row] += 1
        if len(self.examples) < 10:
            self.examples.append(f"{row}: {what}")


def random_world(rng: random.Random) -> tuple[World, list[tuple[tuple[float, float], tuple[float, float]]]]:
    """A closed room with random ramps, ledges and one-way platforms; returns the world and its solid
    segments (for the crossing check)."""
    world = World()
    x0, y0, x1, y1 = BOX
    solid = [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
    for _ in range(rng.randint(4, 12)):
        cx, cy = rng.uniform(100, 1500), rng.uniform(60, 800)
        length, angle = rng.uniform(40, 400), rng.choice([0.0, 0.0, rng.uniform(-1.2, 1.2)])
        a = (cx - math.cos(angle) * length / 2, cy - math.sin(angle) * length / 2)
        b = (cx + math.cos(angle) * length / 2, cy + math.sin(angle) * length / 2)
        if rng.random() < 0.3:
            world.add_segments([a], [b], RADIUS, one_way=(0.0, 1.0))
        else:
            solid.append((a, b))
    for _ in range(rng.randint(0, 3)):  # V's and steps
        vx, vy, w, h = rng.uniform(200, 1400), rng.uniform(30, 600), rng.uniform(20, 120), rng.uniform(10, 200)
        solid += [((vx - w, vy + h), (vx, vy)), ((vx, vy), (vx + w, vy + h))]
    world.add_segments([s[0] for s in solid], [s[1] for s in solid], RADIUS)
    return world, solid


def populate(world: World, rng: random.Random) -> tuple[list[tuple[Character, PlatformerController]], list]:
    characters = []
    for _ in range(rng.randint(1, 3)):
        hero = world.add_character(Character(HERO, (rng.uniform(100, 1500), rng.uniform(100, 850))))
        characters.append((hero, PlatformerController(hero)))
    crates = [world.add_body(RigidBody(RoundedPolygon.box(rng.uniform(6, 20), rng.uniform(6, 20), radius=1.0),
                                       (rng.uniform(100, 1500), rng.uniform(100, 850))))
              for _ in range(rng.randint(0, 6))]
    for _ in range(rng.randint(0, 2)):
        start = (rng.uniform(200, 1400), rng.uniform(100, 700))
        end = (start[0] + rng.uniform(-300, 300), start[1] + rng.uniform(-300, 300))
        world.add_kinematic(KinematicBody(RoundedPolygon.box(rng.uniform(20, 60), 6), start, one_way=rng.choice(
            [None, (0.0, 1.0)]), path=PlatformPath([start, end], rng.uniform(30, 600), "pingpong")))
    return characters, crates


def _crosses(p: tuple[float, float], q: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the moves p->q and the segment a-b properly intersect."""
    def side(o, s, t):
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    d1, d2, d3, d4 = side(a, b, p), side(a, b, q), side(p, q, a), side(p, q, b)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def check_step(world: World, solid, characters, crates, before, tally: Tally) -> None:
    x0, y0, x1, y1 = BOX
    for (hero, _), start in zip(characters, before):
        tally.character_steps += 1
        x, y = hero.position
        if not all(math.isfinite(v) for v in (*hero.position, *hero.velocity)):
            tally.add("non_finite", f"character at {hero.position} v {hero.velocity}")
            continue
        if not (x0 < x < x1 and y0 < y < y1) and id(hero) not in tally.gone:
            tally.gone.add(id(hero))
            tally.add("escaped", f"character at {hero.position}")
        for contact in world.contacts(hero.shape, hero.transform, 0.0, ignore=(hero,)):
            c = contact.collider
            if c.segment >= 0 and c.one_way is None and contact.separation < -0.05:
                tally.add("overlap", f"character at {hero.position} {contact.separation:.3f} px into segment {c.segment}")
                break
        # The move's own path (its stops against surfaces, a climb's corners): a slide around a segment's end
        # is not a crossing, though the straight line from start to end may cut the segment.
        path = hero.last_move.path if hero.last_move is not None and hero.last_move.path else (hero.position,)
        legs = list(zip((start, *path), (*path, hero.position)))
        if any(_crosses(p, q, a, b) for p, q in legs for a, b in solid):
            tally.add("crossed_core", f"character {start} -> {hero.position} along {len(path)} points")
        # (A crate stood on moves in the rigid-body step after the characters, and a character stood on may move
        # after this one: only floors that hold still until the next step are checked.)
        if hero.on_floor and hero.floor_collider is not None and hero.floor_collider.kind in (
                BodyKind.STATIC, BodyKind.KINEMATIC):
            margin = hero.config.skin + hero.config.ground_probe + 0.01
            if not any(ct.normal[1] > 0.0 for ct in world.contacts(hero.shape, hero.transform, margin, ignore=(hero,))):
                floor = hero.floor_collider
                tally.add("floor_without_contact", f"character at {hero.position} on {floor and floor.kind}")
    for body in crates:
        tally.crate_steps += 1
        if not all(math.isfinite(v) for v in (*body.position, body.angle, *body.velocity)):
            tally.add("non_finite", f"crate {body.position}")
        elif not (x0 < body.position[0] < x1 and y0 < body.position[1] < y1) and id(body) not in tally.gone:
            tally.gone.add(id(body))
            tally.add("escaped", f"crate at {body.position}")


def run(seed: int, steps: int, tally: Tally) -> None:
    rng = random.Random(seed)
    world, solid = random_world(rng)
    characters, crates = populate(world, rng)
    for _ in range(steps):
        dt = rng.uniform(1 / 240, 1 / 30)
        for hero, controller in characters:
            if rng.random() < 0.02:  # an explosion, a cannon, a bug in a game: a wild push
                speed, angle = rng.uniform(0, 20_000), rng.uniform(0, 2 * math.pi)
                hero.velocity = (speed * math.cos(angle), speed * math.sin(angle))
            else:
                controller.update(PlatformerInput(left=rng.random() < 0.3, right=rng.random() < 0.4,
                                                  jump=rng.random() < 0.2, down=rng.random() < 0.05), dt)
        before = [hero.position for hero, _ in characters]
        world.step(dt)
        check_step(world, solid, characters, crates, before, tally)
