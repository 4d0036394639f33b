"""The rigid step names the fast bodies Python sweeps against the level (continuous collision): it may leave
out only those whose swept box meets no segment, since the sweep would find nothing to enter for them."""

import math
import random

from engine.bodies import PhysicsConfig, RigidBody
from engine.geometry import RoundedPolygon, Transform
from engine.world import World
from engine.world.jit import kernels


def _thrown_crates_world(seed):
    """Thin platforms, slopes and walls at random, and crates of random shapes thrown fast every way."""
    rng = random.Random(seed)
    world = World(physics=PhysicsConfig(enable_sleep=False))
    world.add_chain([(-600.0, 600.0), (-600.0, 0.0), (600.0, 0.0), (600.0, 600.0)], radius=2.0)
    for _ in range(12):
        x, y, length, turn = rng.uniform(-500, 500), rng.uniform(40, 500), rng.uniform(20, 200), rng.uniform(-1, 1)
        end = (x + length * math.cos(turn), y + length * math.sin(turn))
        world.add_segments([(x, y)], [end], radius=rng.choice([0.0, 1.0, 2.0]))
    for _ in range(40):
        shape = RoundedPolygon.box(rng.uniform(3, 30), rng.uniform(3, 30), radius=rng.choice([0.0, 1.0, 3.0]))
        speed, way = rng.uniform(600, 4000), rng.uniform(0, 2 * math.pi)
        world.add_body(RigidBody(shape, (rng.uniform(-550, 550), rng.uniform(40, 560)), angle=rng.uniform(-3, 3),
                                 velocity=(speed * math.cos(way), speed * math.sin(way)),
                                 angular_velocity=rng.uniform(-30, 30)))
    return world


def _checked_steps(world, steps):
    """``world`` stepped ``steps`` times; after each rigid step, every body that moved its reach (a quarter of
    its box's smaller side, as the step's) and whose swept box (the sweep's own: where it started, at its end
    angle, moved along its move) meets a segment must be among the fast bodies the step names. Returns how
    many such bodies were checked."""
    k = kernels()
    step, broadphase = k.rigid_step.step, world.static.broadphase
    start: dict[int, tuple[float, float]] = {}
    checked = 0

    def checking(*arguments):
        nonlocal checked
        answer = step(*arguments)
        named = set(answer[6].tolist())
        for row, body in enumerate(world.bodies):
            (x0, y0), box = start[row], body.shape.local_aabb
            d = (body.position[0] - x0, body.position[1] - y0)
            if math.hypot(*d) < 0.25 * min(box.width, box.height) * (1 + 1e-9):
                continue
            if len(broadphase.query_swept(body.shape.aabb(Transform((x0, y0), body.angle)), d)):
                checked += 1
                assert row in named, row
        return answer

    k.rigid_step.step = checking
    try:
        for _ in range(steps):
            start.update({row: body.position for row, body in enumerate(world.bodies)})
            world.step(1 / 60)
    finally:
        k.rigid_step.step = step
    return checked


def test_every_fast_body_the_sweep_would_find_a_segment_for_is_named():
    assert sum(_checked_steps(_thrown_crates_world(seed), 40) for seed in range(3)) > 20
