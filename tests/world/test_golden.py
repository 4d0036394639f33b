"""Guards for physics changes that must not change results: golden hashes and a path fuzz.

* **Golden hashes.** A few fixed scenes (a crate pyramid, a pile with a lift and a ferry, a hero among crates
  with a sensor) are stepped and the bits of every body's end state are hashed; the hashes are kept in
  ``golden_hashes.json`` beside this file. A change meant to keep the physics as it is (a refactor, a speed-up)
  must keep them. A change meant to alter results re-blesses them, and says why in its commit:

      LEDGEKIT_BLESS=1 .venv/bin/python -m pytest tests/world/test_golden.py

  The hashes hold for one platform (x86_64 here): another CPU or another numba/LLVM may round differently;
  there, check the scenes by eye (or the recorded runs) and re-bless.
* **Path fuzz.** Random worlds (seeded: crates of random sizes and angles, circles, lifts, ferries, heroes
  steered at random, sensors) step to the same numbers with the kernels compiled and as plain Python: the one
  physics path runs the same both ways (what the game runs while a first start compiles).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import struct
from pathlib import Path

import numpy as np
import pytest

from engine import Character, KinematicBody, PlatformPath, RigidBody, RoundedPolygon, Sensor, World
from engine.world import jit

GOLDEN = Path(__file__).with_name("golden_hashes.json")
DT = 1 / 60


def _pyramid() -> tuple[World, list[Character]]:
    world = World()
    world.add_chain([(-800, 0), (800, 0)], radius=2.0)
    base = 8
    for row in range(base):
        for k in range(base - row):
            world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1.0),
                                     ((k - (base - 1 - row) / 2) * 33.0, 18.0 + 32.0 * row)))
    return world, []


def _machines() -> tuple[World, list[Character]]:
    world = World()
    world.add_chain([(-400, 300), (-400, 0), (100, 0), (300, 60), (500, 60), (500, 300)])
    for i in range(16):
        world.add_body(RigidBody(RoundedPolygon.box(10 + i % 3 * 4, 12), (-150 + (i % 5) * 31, 20 + (i // 5) * 32),
                                 angle=0.1 * i, restitution=0.3 if i == 5 else 0.0))
    world.add_body(RigidBody(RoundedPolygon.circle(9), (-60, 200)))
    world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (200, 120), velocity=(-60.0, 0.0)))
    lift = KinematicBody(RoundedPolygon.box(30, 6), (-250, 10))
    lift.path = PlatformPath([(-250, 10), (-250, 150)], speed=70.0)
    world.add_kinematic(lift)
    return world, []


def _hero_among_crates() -> tuple[World, list[Character]]:
    world, _ = _machines()
    hero = world.add_character(RoundedPolygon.box(10, 16), (-300, 40))
    world.add_sensor(Sensor(RoundedPolygon.box(20, 20), (0, 30), tag="goal"))
    return world, [hero]


SCENES = {"pyramid_36": _pyramid, "machines": _machines, "hero_among_crates": _hero_among_crates}


def _steer(heroes: list[Character], step: int, rng: random.Random | None = None) -> None:
    """Run the heroes right (or at random), jumping now and then."""
    for hero in heroes:
        run = 120.0 if rng is None else rng.choice((-150.0, 0.0, 150.0))
        jump = (step % 70 == 0) if rng is None else rng.random() < 0.03
        hero.velocity = (run, 400.0 if jump and hero.on_floor else hero.velocity[1] - 30.0)


def _state_hash(world: World) -> str:
    digest = hashlib.sha256()
    for b in world.bodies:
        digest.update(struct.pack("<6d", *b.position, b.angle, *b.velocity, b.angular_velocity))
    for k in world.kinematic_bodies:
        digest.update(struct.pack("<3d", *k.position, k.angle))
    for ch in world.characters:
        digest.update(struct.pack("<4d", *ch.position, *ch.velocity))
    return digest.hexdigest()


def _golden_run(name: str) -> str:
    world, heroes = SCENES[name]()
    for step in range(300):
        _steer(heroes, step)
        world.step(DT)
    return _state_hash(world)


def test_the_golden_scenes_end_in_the_blessed_states():
    """A step that changes any bit of a body's state in these scenes changes a hash: bless it on purpose."""
    hashes = {name: _golden_run(name) for name in SCENES}
    if os.environ.get("LEDGEKIT_BLESS") == "1":
        GOLDEN.write_text(json.dumps(hashes, indent=2, sort_keys=True) + "\n")
    blessed = json.loads(GOLDEN.read_text())
    changed = sorted(name for name in SCENES if blessed.get(name) != hashes[name])
    assert not changed, (f"physics results changed in {changed}: if that is meant, re-bless with "
                         "LEDGEKIT_BLESS=1 .venv/bin/python -m pytest tests/world/test_golden.py and say why")


def _random_world(seed: int) -> tuple[World, list[Character]]:
    """A random small world: a floor with a step and walls, crates and circles, maybe lifts, ferries, heroes,
    sensors."""
    rng = random.Random(seed)
    world = World()
    world.add_chain([(-300, 250), (-300, 0), (rng.uniform(-50, 50), 0), (100, rng.uniform(0, 40)),
                     (300, rng.uniform(0, 40)), (300, 250)])
    for _ in range(rng.randint(1, 14)):
        position = (rng.uniform(-250, 250), rng.uniform(30, 220))
        if rng.random() < 0.2:
            shape = RoundedPolygon.circle(rng.uniform(4, 14))
        else:
            shape = RoundedPolygon.box(rng.uniform(4, 24), rng.uniform(4, 24), radius=rng.choice((0.0, 1.0, 2.0)))
        world.add_body(RigidBody(shape, position, angle=rng.uniform(-math.pi, math.pi),
                                 velocity=(rng.uniform(-200, 200), rng.uniform(-200, 200)),
                                 restitution=rng.choice((0.0, 0.0, 0.5))))
    for _ in range(rng.randint(0, 2)):
        platform = KinematicBody(RoundedPolygon.box(rng.uniform(15, 40), 5), (rng.uniform(-200, 200), 20.0))
        platform.path = PlatformPath([platform.position, (platform.position[0] + rng.uniform(-80, 80),
                                                          platform.position[1] + rng.uniform(0, 150))],
                                     speed=rng.uniform(30, 150))
        world.add_kinematic(platform)
    heroes = [world.add_character(RoundedPolygon.box(10, 16), (rng.uniform(-250, 250), 230.0))
              for _ in range(rng.randint(0, 2))]
    if rng.random() < 0.5:
        world.add_sensor(Sensor(RoundedPolygon.box(20, 20), (rng.uniform(-200, 200), 30.0)))
    return world, heroes


def _fuzz_run(seed: int, plain: bool, steps: int) -> tuple[np.ndarray, list[str]]:
    (jit.run_plain if plain else jit.run_compiled)()
    try:
        world, heroes = _random_world(seed)
        rng = random.Random(seed + 1)
        events = []
        for step in range(steps):
            _steer(heroes, step, rng)
            world.step(DT)
            events += [f"{e.kind} {type(e.a).__name__} {type(e.b).__name__}" for e in world.events]
        numbers = [(*b.position, b.angle, *b.velocity) for b in world.bodies]
        numbers += [(*ch.position, 0.0, *ch.velocity) for ch in world.characters]
        return np.array(numbers).reshape(-1, 5), events
    finally:
        jit.run_compiled()


def _mismatches(seeds: range, steps: int) -> list[int]:
    wrong = []
    for seed in seeds:
        compiled, compiled_events = _fuzz_run(seed, plain=False, steps=steps)
        plain, plain_events = _fuzz_run(seed, plain=True, steps=steps)
        if compiled.shape != plain.shape or np.abs(plain - compiled).max(initial=0.0) > 1e-9 \
                or plain_events != compiled_events:
            wrong.append(seed)
    return wrong


def test_random_worlds_step_the_same_compiled_and_plain():
    """A handful of random worlds, a second each."""
    assert _mismatches(range(6), steps=60) == []


@pytest.mark.slow
def test_many_random_worlds_step_the_same_compiled_and_plain():
    """The path fuzz at length: 40 random worlds, 2 s each."""
    assert _mismatches(range(100, 140), steps=120) == []
