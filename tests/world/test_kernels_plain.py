"""One physics path, run two ways: the kernels compiled by numba and the same functions as plain Python
(what the game runs while a first start compiles, and what ``NUMBA_DISABLE_JIT=1`` runs for pdb and
coverage) step every kind of world to the same numbers."""

from __future__ import annotations

import numpy as np
import pytest

from engine import Character, KinematicBody, PlatformPath, RigidBody, RoundedPolygon, Sensor, World
from engine.world import jit


def _scene(kind: str) -> tuple[World, Character | None]:
    """A small world of one kind: crates only, crates with a lift and a ferry, or all that with a hero and a
    sensor."""
    world = World()
    world.add_chain([(-400, 300), (-400, 0), (100, 0), (300, 60), (500, 60), (500, 300)])
    for i in range(12):
        world.add_body(RigidBody(RoundedPolygon.box(14, 14), (-150 + (i % 4) * 31, 20 + (i // 4) * 32),
                                 angle=0.1 * i, restitution=0.3 if i == 5 else 0.0))
    world.add_body(RigidBody(RoundedPolygon.circle(9), (-60, 200)))
    hero = None
    if kind != "crates":
        world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (200, 120), velocity=(-60.0, 0.0)))
        lift = KinematicBody(RoundedPolygon.box(30, 6), (-250, 10))
        lift.path = PlatformPath([(-250, 10), (-250, 150)], speed=70.0)
        world.add_kinematic(lift)
    if kind == "everything":
        hero = world.add_character(RoundedPolygon.box(10, 16), (-300, 40))
        world.add_sensor(Sensor(RoundedPolygon.box(20, 20), (0, 30), tag="goal"))
    return world, hero


def _run(kind: str, plain: bool, steps: int = 240) -> tuple[np.ndarray, list[str]]:
    (jit.run_plain if plain else jit.run_compiled)()
    try:
        world, hero = _scene(kind)
        events = []
        for _ in range(steps):
            if hero is not None:
                hero.velocity = (120.0, hero.velocity[1] - 30.0)
            world.step(1 / 60)
            events += [f"{e.kind} {type(e.a).__name__} {type(e.b).__name__}" for e in world.events]
        numbers = [(*b.position, b.angle, *b.velocity) for b in world.bodies]
        numbers += [(*k.position, k.angle, *k.velocity) for k in world.kinematic_bodies]
        numbers += [(*ch.position, 0.0, *ch.velocity) for ch in world.characters]
        return np.array(numbers), events
    finally:
        jit.run_compiled()


@pytest.mark.parametrize("kind", ["crates", "platforms", "everything"])
def test_plain_kernels_step_every_kind_of_world_to_the_compiled_numbers(kind):
    compiled, compiled_events = _run(kind, plain=False)
    plain, plain_events = _run(kind, plain=True)
    assert np.abs(plain - compiled).max() <= 1e-9
    assert plain_events == compiled_events
    assert np.isfinite(compiled).all() and compiled_events  # (something touched, began and ended)


def test_plain_kernels_never_import_the_compiler():
    import subprocess
    import sys

    code = ("import sys; from engine.world import jit; jit.run_plain(); from engine import World, RigidBody, "
            "RoundedPolygon; w = World(); w.add_segments([(-50, 0)], [(50, 0)]); "
            "w.add_body(RigidBody(RoundedPolygon.box(8, 8), (0, 12))); [w.step(1 / 60) for _ in range(30)]; "
            "print('numba' in sys.modules, round(w.bodies[0].position[1], 1))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "10.0"]
