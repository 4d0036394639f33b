"""The kinematic bodies' step in one compiled call (``kernels.mover.advance_kinematic``): every platform goes
where its velocity or its path takes it, bit for bit as the path's own ``position_at`` says, with the boxes over
the step that the gathers and the rigid step read; the plain Python kernel gives the same numbers."""

from __future__ import annotations

import numpy as np
import pytest

from engine import KinematicBody, PlatformPath, RoundedPolygon
from engine.world import jit
from engine.world.kinematic import KinematicSet

DT = 1.0 / 60.0


def _platforms(seed: int) -> KinematicSet:
    """A dozen platforms: free ones at random speeds (some spinning), ones on loop and ping-pong paths of 2-5
    points (some a point repeated: a leg 0 long), started anywhere along them, a negative distance too."""
    rng = np.random.default_rng(seed)
    platforms = KinematicSet()
    for k in range(12):
        shape = RoundedPolygon.box(float(rng.uniform(8, 60)), float(rng.uniform(3, 20)), radius=float(rng.uniform(0, 3)))
        body = KinematicBody(shape, (float(rng.uniform(-900, 900)), float(rng.uniform(-500, 500))),
                             velocity=(float(rng.uniform(-400, 400)), float(rng.uniform(-400, 400))))
        if k % 3:
            points = [(float(x), float(y)) for x, y in rng.uniform(-800, 800, size=(int(rng.integers(2, 6)), 2))]
            if k % 4 == 1:
                points.insert(1, points[0])  # (a leg 0 long: passed over)
            body.path = PlatformPath(points, float(rng.uniform(20, 3000)), "loop" if k % 2 else "pingpong")
            body.path_distance = float(rng.uniform(-2000, 5000))
        elif k == 3:
            body.angular_velocity = 1.5
        platforms.add(body)
    return platforms


def _step_and_check(platforms: KinematicSet, rng: np.random.Generator) -> None:
    """One step after game code may have placed a body; each body is where its path or velocity says."""
    bodies = platforms.bodies
    placed = None
    if rng.random() < 0.3:
        placed = bodies[int(rng.integers(len(bodies)))]
        placed.position = (float(rng.uniform(-900, 900)), float(rng.uniform(-500, 500)))
    before = [(b.position, b.velocity, b.angle, b.path_distance) for b in bodies]
    platforms.advance(DT)
    for body, (position, velocity, angle, distance) in zip(bodies, before):
        previous = body.previous_transform
        if body.path is None:
            assert previous.position == position
            assert body.position == (position[0] + velocity[0] * DT, position[1] + velocity[1] * DT)
        else:
            speed = body.path.speed
            assert body.path_distance == distance + speed * DT
            assert body.position == body.path.position_at(body.path_distance)
            start = body.path.position_at(body.path_distance - speed * DT) if body is placed else position
            assert previous.position == start  # (placed: put back on its path, as if it had been there)
            assert body.velocity == ((body.position[0] - start[0]) / DT, (body.position[1] - start[1]) / DT)
        assert previous.angle == angle and body.angle == angle + body.angular_velocity * DT
    for body, box in zip(bodies, platforms.boxes().tolist()):  # (the box where it is, grown over where it was)
        now, was = body.shape.aabb(body.transform), body.shape.aabb(body.previous_transform)
        assert box[0] <= min(now.min_x, was.min_x) + 1e-9 and box[1] <= min(now.min_y, was.min_y) + 1e-9
        assert box[2] >= max(now.max_x, was.max_x) - 1e-9 and box[3] >= max(now.max_y, was.max_y) - 1e-9
        assert box[2] - box[0] <= max(now.max_x, was.max_x) - min(now.min_x, was.min_x) + 1e-9
    speeds = [float(np.hypot(*b.velocity)) for b in bodies]
    assert platforms.fastest_step(DT) == max(speeds) * DT


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_platforms_go_where_their_paths_and_speeds_take_them(seed: int) -> None:
    platforms, rng = _platforms(seed), np.random.default_rng(100 + seed)
    for _ in range(200):
        _step_and_check(platforms, rng)


def test_the_plain_kernel_steps_platforms_to_the_compiled_numbers() -> None:
    numbers = []
    for plain in (False, True):
        (jit.run_plain if plain else jit.run_compiled)()
        try:
            platforms, rng = _platforms(5), np.random.default_rng(9)
            for _ in range(120):
                _step_and_check(platforms, rng)
            numbers.append(np.array([(*b.position, *b.velocity, b.angle, *b.previous_transform.position)
                                     for b in platforms.bodies]).tobytes() + platforms.boxes().tobytes())
        finally:
            jit.run_compiled()
    assert numbers[0] == numbers[1]
