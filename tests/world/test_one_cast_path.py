"""The character mover has one compiled cast path: every sweep, against the level's segments and against bodies
(crates, platforms, other characters), for any convex rounded shape a character or a body can have (a polygon, a
capsule, a circle; turned or not), is a ray cast against Minkowski sums in the compiled kernels
(``engine.world.kernels.mover``). The readable reference is ``engine.geometry``: these tests hold the compiled
casts to it, and characters of every shape to the moves that reference makes.

Units: pixels. The tolerance is 1e-9 px; the kernels follow the reference step for step, so in practice the
answers are the same bits (the tests count how many are).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Character, KinematicBody, MoverConfig, RigidBody, RoundedPolygon, World
from engine.geometry import AABB, Transform
from engine.types import SceneHit
from tests.world.test_cast_kernel import hills_world, reference_cast, reference_world

TOLERANCE = 1e-9
"""Pixels."""


def random_shape(rng: np.random.Generator) -> RoundedPolygon:
    """A convex polygon (3 to 8 vertices), a capsule or a circle, a few to 30 px across, maybe rounded."""
    kind = rng.integers(0, 4)
    radius = float(rng.choice([0.0, 0.5, 2.0, 3.5]))
    if kind == 0:
        return RoundedPolygon.circle(float(rng.uniform(2.0, 12.0)))
    if kind == 1:
        a = rng.uniform(-12, 12, 2)
        return RoundedPolygon.capsule(tuple(a), tuple(a + rng.normal(0, 10, 2) + 0.5), max(radius, 1.0))
    if kind == 2:
        return RoundedPolygon.box(float(rng.uniform(4, 30)), float(rng.uniform(4, 30)), radius)
    angles = np.sort(rng.uniform(0, 2 * math.pi, int(rng.integers(3, 9))))
    size = rng.uniform(4, 15)
    points = np.stack([np.cos(angles), np.sin(angles)], axis=1) * size * rng.uniform(0.6, 1.0, (len(angles), 1))
    try:
        return RoundedPolygon(points.tolist(), radius=radius)
    except Exception:  # (too thin after the hull: a box instead)
        return RoundedPolygon.box(10.0, 6.0, radius)


def random_world(seed: int) -> World:
    """Segments at any angle and thickness (chains with joints among them), turned crates of every shape,
    a kinematic platform, and characters of every shape."""
    rng = np.random.default_rng(seed)
    world = World(gravity=(0.0, 0.0))
    for _ in range(5):
        start = rng.uniform(-150, 150, 2)
        steps = rng.integers(-40, 41, (int(rng.integers(2, 5)), 2)) * rng.choice([1.0, 0.5, 4.0])
        world.add_chain(np.cumsum(np.vstack([start, steps]), axis=0), radius=float(rng.choice([0.0, 1.0, 2.0])))
    a = rng.uniform(-150, 150, (15, 2))
    world.add_segments(a, a + rng.normal(0, 40, (15, 2)), radius=rng.choice([0.0, 0.5, 3.0], 15))
    for _ in range(8):
        world.add_body(RigidBody(random_shape(rng), tuple(rng.uniform(-150, 150, 2).tolist()),
                                 angle=float(rng.uniform(-3, 3))))
    world.add_kinematic(KinematicBody(random_shape(rng), tuple(rng.uniform(-150, 150, 2).tolist()),
                                      angle=float(rng.uniform(-3, 3))))
    for _ in range(3):
        world.add_character(Character(random_shape(rng), tuple(rng.uniform(-150, 150, 2).tolist())))
    return world


def differences(got: list[SceneHit], expected: list[SceneHit], length: float) -> tuple[float, int]:
    """The largest difference (px) between two casts' hits (their fractions as distances along the sweep, their
    points, their normals) and how many hits are the same bits; the colliders, order and overlaps must agree."""
    assert [(h.collider, h.started_inside) for h in got] == [(h.collider, h.started_inside) for h in expected]
    worst, same = 0.0, 0
    for a, b in zip(got, expected):
        worst = max(worst, abs(a.fraction - b.fraction) * length, *(abs(p - q) for p, q in zip(a.point, b.point)),
                    *(abs(p - q) for p, q in zip(a.normal, b.normal)))
        same += a == b
    return worst, same


@pytest.mark.parametrize("seed", range(4))
def test_compiled_casts_of_any_shape_turned_or_not_are_the_reference_casts(seed):
    """Random shapes (polygons, capsules, circles), upright and turned, swept from random places by random,
    axis-aligned, short and zero translations, and from where a first sweep stopped (on a surface: the
    reference's on-surface rules decide), against random segments and turned crates, a platform and characters
    of every shape: the compiled casts (``World.cast``) are the reference's, to 1e-9 px."""
    world = random_world(seed)
    rng = np.random.default_rng(50 + seed)
    compared = hits = same = 0
    for _ in range(250):
        shape = random_shape(rng)
        angle = 0.0 if rng.random() < 0.5 else float(rng.uniform(-3.2, 3.2))
        position = tuple(rng.uniform(-170, 170, 2).tolist())
        kind = rng.integers(0, 4)
        translation = ((0.0, 0.0) if kind == 0 else tuple(rng.normal(0, 3, 2).tolist()) if kind == 1 else
                       (float(rng.normal(0, 80)), 0.0) if kind == 2 else tuple(rng.normal(0, 80, 2).tolist()))
        sweeps = [(position, translation)]
        for start, move in sweeps:
            xf = Transform(start, angle)
            gathered = world.candidates(shape.aabb(xf).swept(move).grown(1.0))
            got = world.cast(shape, xf, move, candidates=gathered)
            expected = reference_cast(shape, xf, move, gathered.neighbours())
            worst, equal = differences(got, expected, math.hypot(*move))
            assert worst <= TOLERANCE, (shape, start, angle, move)
            compared, hits, same = compared + 1, hits + len(got), same + equal
            if got and move != (0.0, 0.0) and len(sweeps) < 3:
                f = got[0].fraction
                sweeps += [((start[0] + move[0] * f, start[1] + move[1] * f), (-move[1], move[0])),
                           ((start[0] + move[0] * f, start[1] + move[1] * f), move)]
    assert compared > 300 and hits > 300
    assert same == hits  # (not required: the kernels just happen to give the very same bits)


def test_a_sweep_that_ignores_a_level_segment_passes_through_it():
    """A segment in ``ignore`` is left out of the compiled cast, as a body in it is."""
    world = World()
    floor = world.add_segments([(-100.0, 0.0)], [(100.0, 0.0)], radius=1.0)
    below = world.add_segments([(-100.0, -40.0)], [(100.0, -40.0)], radius=1.0)
    shape = RoundedPolygon.circle(5.0)
    xf = Transform((0.0, 20.0))
    gathered = world.candidates(AABB(-120, -60, 120, 40))
    hits = world.cast(shape, xf, (0.0, -80.0), candidates=gathered)
    assert [h.collider.segment for h in hits] == [floor[0], below[0]]
    ignoring = world.cast(shape, xf, (0.0, -80.0), ignore=(world.static.collider(floor[0]),), candidates=gathered)
    assert [h.collider.segment for h in ignoring] == [below[0]] and ignoring[0] == hits[1]


def walkers_run(world: World, shapes, monkeypatch, reference: bool) -> list[tuple]:
    """Walkers of the given shapes running, jumping and bumping for four seconds; each step's positions,
    velocities and contact flags."""
    if reference:
        reference_world(monkeypatch)
    walkers = [world.add_character(Character(shape, (float(x), 70.0), MoverConfig()))
               for x, shape in zip(range(-150, 150, 40), shapes)]
    trace = []
    for step in range(240):
        for k, ch in enumerate(walkers):
            jump = (step + 13 * k) % 70 == 0 and ch.on_floor
            ch.velocity = (230.0 if (step // 50 + k) % 2 else -230.0, 520.0 if jump else ch.velocity[1] - 30.0)
        world.step(1.0 / 60.0)
        trace.append(tuple((ch.position, ch.velocity, ch.on_floor, ch.on_wall, ch.on_ceiling, ch.floor_normal)
                           for ch in walkers))
    monkeypatch.undo()
    return trace


SHAPES = [RoundedPolygon.circle(9.0), RoundedPolygon.capsule((0.0, -8.0), (0.0, 8.0), 6.0),
          RoundedPolygon.box(10, 16, radius=2), RoundedPolygon.capsule((-6.0, 0.0), (6.0, 0.0), 7.0),
          RoundedPolygon([(-7, -12), (7, -12), (9, 4), (0, 13), (-9, 4)], radius=1.0), RoundedPolygon.circle(5.0),
          RoundedPolygon.box(8, 12)]


def crates_and_platforms() -> World:
    """The ramps-and-ledges level with crates of every shape to push and stand on and two moving platforms."""
    world = hills_world()
    for k, shape in enumerate([RoundedPolygon.box(12, 12, 1.0), RoundedPolygon.circle(9.0),
                               RoundedPolygon.capsule((-10.0, 0.0), (10.0, 0.0), 5.0), RoundedPolygon.box(30, 6)]):
        world.add_body(RigidBody(shape, (-120.0 + 70.0 * k, 30.0), angle=0.3 * k))
    world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 5, 1.0), (60.0, 100.0), velocity=(0.0, -30.0)))
    world.add_kinematic(KinematicBody(RoundedPolygon.box(30, 5, 1.0), (-260.0, 60.0), velocity=(40.0, 0.0),
                                      angle=0.2))
    return world


@pytest.mark.parametrize("level", ["ramps", "crates and platforms"])
def test_characters_of_every_shape_move_as_the_reference_casts_move_them(level, monkeypatch):
    """Circles, capsules (standing and lying), boxes and a pentagon walking, jumping, pushing crates, riding
    platforms and bumping into each other, on the ramps-and-ledges level alone and with crates and platforms:
    with the compiled casts they move exactly as with the reference's casts and contacts (the same positions,
    velocities and flags every step)."""
    def world() -> World:
        return hills_world() if level == "ramps" else crates_and_platforms()

    compiled = walkers_run(world(), SHAPES, monkeypatch, reference=False)
    reference = walkers_run(world(), SHAPES, monkeypatch, reference=True)
    assert compiled == reference
    assert sum(on_floor for step in compiled for _, _, on_floor, *_ in step) > 500  # they stand, walk and land
    assert compiled[0] != compiled[-1]
