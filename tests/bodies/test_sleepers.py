"""Sleepers lie aside (issue 32): a step costs what its awake bodies and their neighbours cost, not what the
sleeping ones do, and the sleepers' contacts are still there to see and to wake them.
"""

from engine import RigidBody, RoundedPolygon, World

CRATE = RoundedPolygon.box(16.0, 16.0, radius=1.0)
FLOOR_Y = 2.0
"""The shelves' and the floor's radius (px): a crate resting on one has its centre at 16 + 2 px."""


def _world_with_a_sliding_crate() -> tuple[World, RigidBody]:
    """A floor of its own far left of everything, a crate on it (pushed along every step: it never sleeps)."""
    world = World()
    world.add_chain([(-24_000.0, 0.0), (-20_000.0, 0.0)], radius=FLOOR_Y)
    return world, world.add_body(RigidBody(CRATE, (-22_000.0, 18.0)))


def _with_sleepers(count: int) -> tuple[World, RigidBody]:
    """The sliding crate's world and ``count`` crates on shelves (100 a shelf, 8 px apart), stepped until they
    all sleep."""
    world, crate = _world_with_a_sliding_crate()
    for shelf in range(count // 100):
        world.add_chain([(0.0, shelf * 100.0), (4000.0, shelf * 100.0)], radius=FLOOR_Y)
    for k in range(count):
        world.add_body(RigidBody(CRATE, ((k % 100) * 40.0 + 20.0, (k // 100) * 100.0 + 18.0)))
    for _ in range(120):
        crate.velocity = (200.0, 0.0)
        world.step(1 / 60)
    assert sum(b.sleeping for b in world.bodies) == count
    return world, crate


def _slide(world: World, crate: RigidBody, steps: int) -> list[tuple[float, float]]:
    """The crate pushed back and forth for ``steps`` steps: where it is after each."""
    trail = []
    for k in range(steps):
        crate.velocity = (200.0 if k % 120 < 60 else -200.0, 0.0)
        world.step(1 / 60)
        trail.append(crate.position)
    return trail


def test_one_awake_crate_among_3000_sleepers_moves_as_alone_and_leaves_them_asleep():
    """Sleepers lie aside: a crate sliding far from 3,000 sleeping ones moves exactly as in a world of its own,
    and none of them wakes. (What that costs is measured, not asserted: tests/benchmarks/bench_scale.py, the
    sleepers row: one awake crate among 10,000 sleepers about 2.2x the crate alone, 47-67x before.)"""
    alone, crowd = _world_with_a_sliding_crate(), _with_sleepers(3000)
    for _ in range(120):  # (as the crowd's crate was pushed while the sleepers settled)
        alone[1].velocity = (200.0, 0.0)
        alone[0].step(1 / 60)
    assert _slide(*alone, 240) == _slide(*crowd, 240)
    assert sum(b.sleeping for b in crowd[0].bodies) == 3000


def test_a_sleeping_stack_keeps_its_contacts_and_a_crate_dropped_on_it_wakes_it():
    world = World()
    world.add_chain([(-200.0, 0.0), (200.0, 0.0)], radius=FLOOR_Y)
    stack = [world.add_body(RigidBody(CRATE, (0.0, 18.0 + 32.0 * k))) for k in range(3)]
    for _ in range(180):
        world.step(1 / 60)
    assert all(b.sleeping for b in stack)
    touching = world.contacts_of_last_step
    assert len(touching) >= 3  # (floor-bottom and the two between crates: drawn by the debug overlay)
    world.add_body(RigidBody(CRATE, (0.0, 18.0 + 32.0 * 3 + 4.0)))
    for _ in range(15):  # (it lands within them: 4 px at 1800 px/s^2)
        world.step(1 / 60)
    assert not any(b.sleeping for b in stack)
