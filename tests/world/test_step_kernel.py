"""The rigid-body step's compiled glue gives exactly what the numpy and Python code it replaced gave.

Each compiled piece is run against a reference on random scenes: the participants' rows
(:func:`engine.world.step_kernel.common_participants` against the solver's Python ``_participants``), the
touch summary, the rest times and sleeping groups (against the numpy islands), the light flags and graph
colours (against the numpy expressions and
:func:`engine.world.warmstart.colour_contacts`), the bodies' boxes (against the numpy per-vertex-count
groups), the static candidates kept from step to step (against fresh look-ups) and each body's near
segments (against the broad phase's ``query_list``), and the body-pair sweep
with an order kept from call to call and sleepers left out (against all pairs), and the sweeps continuous
collision passes over (against the broad phase's candidates). Equality is exact: the
compiled code keeps the references' arithmetic order. Last, ``engine.warm_up`` compiles every signature the
step uses (nothing compiles mid-game).
"""

from __future__ import annotations

from types import SimpleNamespace

import math
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest

import engine
from engine import CollisionFilter, KinematicBody, PhysicsConfig, RigidBody, RoundedPolygon, Transform, World
from engine.bodies import GRAVITY_SCALE, PREVIOUS_X, SLEEP_TIME, SLEEPING, STATE_COLUMNS, VX, X, Y
from engine.world import collide_kernel, contacts, step_kernel
from engine.world.collide_kernel import body_boxes, refresh_near, sweep_pairs
from engine.world.contacts import DYNAMIC, STATIC, RigidScene, collide_all
from engine.world.solver import _participants  # the Python path, the compiled one's reference
from engine.world.collide_kernel import touch_summary
from engine.world.step_kernel import begin_in, common_participants, rest_and_sleep, sweep_may_hit
from engine.world.step_memory import borrowed, step_start
from engine.world.warmstart import colour_contacts

SHAPES = [RoundedPolygon.box(16, 16, radius=1), RoundedPolygon.box(24, 8, radius=0.5),
          RoundedPolygon.capsule((-10, 0), (10, 0), 5), RoundedPolygon.box(6, 20)]


def random_pile(seed, count=40):
    """A world with a walled floor and ``count`` random bodies (mixed shapes, frictions, restitutions,
    masses), some overlapping, stepped a few times so that they touch, move and spin."""
    rng = np.random.default_rng(seed)
    world = World(physics=PhysicsConfig(enable_sleep=False))
    world.add_chain([(-300, 400), (-300, 0), (300, 0), (300, 400)], radius=2.0)
    for i in range(count):
        world.add_body(RigidBody(SHAPES[i % len(SHAPES)], (float(rng.uniform(-260, 260)), float(rng.uniform(20, 200))),
                                 angle=float(rng.uniform(-1, 1)), friction=float(rng.uniform(0.1, 1.0)),
                                 restitution=float(rng.choice([0.0, 0.0, 0.3])), density=float(rng.uniform(0.5, 3)),
                                 velocity=(float(rng.uniform(-90, 90)), float(rng.uniform(-90, 90)))))
    for _ in range(int(rng.integers(1, 30))):
        world.step(1 / 60)
    return world


def gathered(world):
    """What the step hands the solve: the scene, table, start placement and the contacts found."""
    rigid = world._rigid  # (built as the step builds them)
    table = rigid.table()
    numbers = rigid.body_state
    begin_in(table.memory, numbers, False)  # (the step's start: placement and sleep flags into the memory)
    position, angle, asleep = (array.copy() for array in step_start(table.memory))
    scene = RigidScene(world.static, [], [], world.gravity, world.physics, world.static_friction)
    found, _ = collide_all(scene, world.bodies, table, asleep)
    return scene, table, numbers, position, angle, found


@pytest.mark.parametrize("seed", range(8))
def test_compiled_participants_are_the_python_paths(seed):
    world = random_pile(seed)
    scene, _, numbers, position, angle, found = gathered(world)
    awake = np.flatnonzero(numbers[:, SLEEPING] == 0.0)
    assert len(found.keys) > 20 and {STATIC, DYNAMIC} <= set(found.a_kind.tolist())
    p = _participants(scene, 1 / 60, world.bodies, found, numbers[:, VX:GRAVITY_SCALE + 1], position, angle, awake)
    rows, ia, ib, friction, restitution = common_participants(numbers, awake, position, angle, found.a_kind,
                                                              found.a_index, found.b_index, scene.static_friction)
    assert np.array_equal(ia, p.ia) and np.array_equal(ib, p.ib)
    assert np.array_equal(friction, p.friction) and np.array_equal(restitution, p.restitution)
    assert np.array_equal(rows[:, 0:3], p.velocity) and np.array_equal(rows[:, 3], p.inv_mass)
    assert np.array_equal(rows[:, 4], p.inv_inertia) and np.array_equal(rows[:, 5:7], p.center)
    assert np.array_equal(rows[:, 7], p.angle)


@pytest.mark.parametrize("seed", range(6))
def test_touch_summary_is_the_numpy_expressions(seed):
    rng = np.random.default_rng(seed)
    m, bodies = 200, 30
    separation = rng.uniform(-1, 2, (m, 2))
    valid = rng.random((m, 2)) < 0.7
    a_kind = rng.choice([STATIC, DYNAMIC], m)
    b_index = rng.integers(0, bodies, m)
    a_index = np.where(a_kind == DYNAMIC, rng.integers(0, bodies, m), -1)
    asleep = rng.random(bodies) < 0.4
    closest, touching, mixed = touch_summary(separation, valid, a_kind, a_index, b_index, asleep, 0.25)
    nearest = np.where(valid, separation, np.inf)
    expected = np.minimum(nearest[:, 0], nearest[:, 1])
    assert np.array_equal(closest, expected) and np.array_equal(touching, expected < 0.25)
    differ = (a_kind == DYNAMIC) & (asleep[a_index] != asleep[b_index])
    assert np.array_equal(mixed, np.flatnonzero((expected < 0.25) & differ)) and len(mixed)


@pytest.mark.parametrize("seed", range(6))
def test_light_flags_and_colours_are_the_numpy_ones(seed):
    world = random_pile(seed, count=60)
    scene, table, numbers, position, angle, found = gathered(world)
    awake = np.flatnonzero(numbers[:, SLEEPING] == 0.0)
    rows, ia, ib, _, _ = common_participants(numbers, awake, position, angle, found.a_kind, found.a_index,
                                             found.b_index, scene.static_friction)
    cfg, dt, (gx, gy) = world.physics, 1 / 60, world.gravity
    nearest = np.where(found.valid, found.separation, np.inf)
    closest = np.minimum(nearest[:, 0], nearest[:, 1])
    extent = np.concatenate([table.sleep_extent[awake], np.zeros(len(rows) - len(awake))])
    v, normal = rows[:, 0:3], found.normal
    gap = closest - cfg.light_gap_fraction * cfg.linear_slop
    closing = (v[ia, 0] - v[ib, 0]) * normal[:, 0] + (v[ia, 1] - v[ib, 1]) * normal[:, 1] \
        + np.abs(v[ia, 2]) * extent[ia] + np.abs(v[ib, 2]) * extent[ib] + np.abs(gx * normal[:, 0] + gy * normal[:, 1]) * dt
    expected = (gap > 0.0) & (closing * dt < gap)
    settings = np.array([gx, gy, dt, cfg.light_gap_fraction * cfg.linear_slop])
    got_extent, circle = np.full(len(rows), np.nan), np.ones(len(awake), dtype=bool)
    light = np.zeros(len(ia), dtype=bool)
    step_kernel._lights(rows, ia, ib, collide_kernel.found_arrays(found.ints, found.floats, found.flags),
                        table.sleep_extent, table.count, awake, settings, got_extent, circle, light)
    assert np.array_equal(got_extent, extent) and np.array_equal(circle, table.count[awake] == 1)
    assert np.array_equal(light, expected) and light.any() and not light.all()
    order, sizes, light_colours = colour_contacts(ia, ib, len(awake), light)
    got_order, starts, got_light_colours = step_kernel._colours(ia, ib, len(awake), light)
    assert np.array_equal(got_order, order) and np.diff(starts).tolist() == sizes and starts[0] == 0
    assert got_light_colours.tolist() == light_colours


@pytest.mark.parametrize("seed", range(4))
def test_body_boxes_are_the_numpy_groups(seed):
    rng = np.random.default_rng(seed)
    shapes = [SHAPES[i % len(SHAPES)] for i in range(50)] + [RoundedPolygon.circle(7)] * 3
    table = contacts.ShapeTable([RigidBody(shape, (0.0, 0.0)) for shape in shapes])
    position, angle = rng.uniform(-500, 500, (len(shapes), 2)), rng.uniform(-7, 7, len(shapes))
    placement, boxes = body_boxes(table.vertices, table.offsets, table.radius, position, angle, 4.0)
    for k, shape in enumerate(shapes):
        c, s = np.cos(angle[k]), np.sin(angle[k])
        verts = np.array(shape.vertices, dtype=np.float64)
        world_x = c * verts[:, 0] - s * verts[:, 1] + position[k, 0]
        world_y = s * verts[:, 0] + c * verts[:, 1] + position[k, 1]
        grow = shape.radius + 4.0
        assert boxes[k].tolist() == [world_x.min() - grow, world_y.min() - grow, world_x.max() + grow,
                                     world_y.max() + grow]
        assert placement[k].tolist() == [position[k, 0], position[k, 1], angle[k]]


def all_pairs(boxes, ids, asleep):
    b = boxes
    over = (b[:, None, 0] <= b[None, :, 2]) & (b[:, None, 2] >= b[None, :, 0]) \
        & (b[:, None, 1] <= b[None, :, 3]) & (b[:, None, 3] >= b[None, :, 1]) & (ids[:, None] < ids[None, :]) \
        & ~(asleep[:, None] & asleep[None, :])
    lo, hi = np.nonzero(over)
    order = np.lexsort((hi, lo))
    return lo[order], hi[order]


@pytest.mark.parametrize("seed", range(10))
def test_the_sweep_with_a_kept_order_finds_all_pairs_in_order(seed):
    rng = np.random.default_rng(seed)
    count = int(rng.integers(2, 80))
    low = rng.uniform(0, 200, (count, 2))
    size = rng.uniform(0, 40, (count, 2))
    if seed % 2:  # on a grid: equal starts (ties broken by row, as numpy's stable sort) and edges that touch
        low, size = np.round(low / 10) * 10, np.round(size / 10) * 10
    ids = rng.permutation(count) + 3
    order = rng.permutation(count).astype(np.int64)  # (whatever the last call left)
    for _ in range(5):  # the boxes drift, the order is kept
        boxes = np.concatenate([low, low + size], axis=1)
        asleep = rng.random(count) < 0.3
        lo, hi = sweep_pairs(boxes, order, ids, asleep)
        expected_lo, expected_hi = all_pairs(boxes, ids, asleep)
        assert np.array_equal(lo, expected_lo) and np.array_equal(hi, expected_hi)
        assert np.array_equal(order, np.argsort(boxes[:, 0], kind="stable"))
        low += rng.normal(0, 3, low.shape)


def test_the_sweep_finds_all_pairs_of_a_crowd_past_its_first_room():
    """A crowd of boxes all over each other: far more pairs than the sweep makes room for at first (four per
    box), so it grows its room and sweeps again."""
    rng = np.random.default_rng(3)
    low = rng.uniform(0, 10, (60, 2))
    boxes = np.concatenate([low, low + 30.0], axis=1)
    ids, asleep = np.arange(60, dtype=np.int64), np.zeros(60, dtype=bool)
    lo, hi = sweep_pairs(boxes, np.arange(60, dtype=np.int64), ids, asleep)
    expected_lo, expected_hi = all_pairs(boxes, ids, asleep)
    assert len(lo) == 60 * 59 // 2
    assert np.array_equal(lo, expected_lo) and np.array_equal(hi, expected_hi)


def test_static_candidates_kept_from_step_to_step_are_fresh_look_ups():
    world = random_pile(5, count=50)
    for _ in range(40):
        world.step(1 / 60)
        scene, _, _, _, _, found = gathered(world)
        fresh = contacts.ShapeTable(world.bodies)
        begin_in(fresh.memory, world._rigid.body_state, False)
        again, _ = collide_all(scene, world.bodies, fresh, None)
        assert np.array_equal(found.keys, again.keys) and np.array_equal(found.ids, again.ids)


def test_warm_up_compiles_every_signature_the_step_uses():
    """In a fresh process: after ``warm_up``, scenes with sleep, a kinematic body, a walking character, circles
    and collision filters, and one of crates only (the step in one call), add no signature to any kernel (a
    signature added is a compile, seconds long, the first time a player meets it)."""
    script = textwrap.dedent("""
        import numba
        from engine import (CollisionFilter, KinematicBody, PhysicsConfig, RigidBody, RoundedPolygon, World,
                            warm_up)
        from engine.world import cast_kernel, collide_kernel, kernel, step_kernel, step_memory, warmstart
        from tests.character.levels import HERO, standing_y, tiled_floor
        warm_up()
        def signatures():
            kernels = (cast_kernel, collide_kernel, kernel, step_kernel, step_memory, warmstart)
            return {(m.__name__, n): len(f.signatures) for m in kernels
                    for n, f in vars(m).items() if isinstance(f, numba.core.registry.CPUDispatcher)}
        before = signatures()
        world = World(physics=PhysicsConfig(time_to_sleep=0.2))
        tiled_floor(world, range(-10, 20))
        world.add_kinematic(KinematicBody(RoundedPolygon.box(60, 6), (0.0, 80.0), velocity=(30.0, 0.0)))
        hero = world.add_character(HERO, (200.0, standing_y(0.0)))
        for i in range(12):
            shape = RoundedPolygon.circle(8) if i % 3 == 0 else RoundedPolygon.box(10, 10, radius=1)
            flt = CollisionFilter(group=-1) if i == 5 else CollisionFilter()
            world.add_body(RigidBody(shape, (-100.0 + 20 * i, 30.0 + 25 * (i % 4)), filter=flt))
        plain = World(physics=PhysicsConfig(time_to_sleep=0.2))  # (no kinematic body, no character)
        tiled_floor(plain, range(-10, 20))
        for i in range(6):
            plain.add_body(RigidBody(RoundedPolygon.box(10, 10, radius=1), (-100.0 + 30 * i, 30.0)))
        for step in range(200):
            hero.velocity = (-120.0 if step < 100 else 120.0, hero.velocity[1])  # (walks, into the crates and back)
            world.step(1 / 60)
            plain.step(1 / 60)
        added = {k: v - before[k] for k, v in signatures().items() if v != before[k]}
        print(sum(b.sleeping for b in world.bodies), sum(b.sleeping for b in plain.bodies), added)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    asleep, plain_asleep, added = done.stdout.split(" ", 2)
    assert added.strip() == "{}" and int(asleep) > 0 and int(plain_asleep) > 0


def numpy_sleep(cfg, numbers, a_kind, a_index, b_index, touching, dt, sleep_extent, awake_rows, motion, held):
    """The numpy sleep step that :func:`rest_and_sleep` replaced (with ``held`` for its pushers' loop)."""
    spin = np.abs(motion[:, 2]) * sleep_extent[awake_rows]
    resting = (np.hypot(motion[:, 0], motion[:, 1]) <= cfg.sleep_linear_velocity) & (spin <= cfg.sleep_linear_velocity)
    rested = np.where(resting, numbers[awake_rows, SLEEP_TIME] + dt, 0.0)
    if not (rested >= cfg.time_to_sleep).any():
        numbers[awake_rows, SLEEP_TIME] = rested
        return
    row = np.full(len(numbers), -1, dtype=np.int64)
    row[awake_rows] = np.arange(len(awake_rows))
    for body in held.tolist():
        if row[body] >= 0:
            rested[row[body]] = 0.0
    numbers[awake_rows, SLEEP_TIME] = rested
    pairs = touching & (a_kind == DYNAMIC)
    ea, eb = row[a_index[pairs]], row[b_index[pairs]]
    both = (ea >= 0) & (eb >= 0)
    label = np.arange(len(awake_rows))
    ea, eb = ea[both], eb[both]
    while True:
        la, lb = label[ea], label[eb]
        differ = la != lb
        if not differ.any():
            break
        np.minimum.at(label, np.maximum(la, lb)[differ], np.minimum(la, lb)[differ])
        while not np.array_equal(label[label], label):
            label = label[label]
    least = np.full(len(awake_rows), np.inf)
    np.minimum.at(least, label, rested)
    sleepers = awake_rows[least[label] >= cfg.time_to_sleep]
    numbers[sleepers, SLEEPING] = 1.0
    numbers[sleepers, VX:VX + 3] = 0.0


@pytest.mark.parametrize("seed", range(12))
def test_rest_times_and_sleeping_groups_are_the_numpy_ones(seed):
    rng = np.random.default_rng(seed)
    cfg, bodies, m = PhysicsConfig(), 60, 150
    numbers = rng.uniform(-5, 5, (bodies, STATE_COLUMNS))
    numbers[:, SLEEPING] = rng.random(bodies) < 0.2
    numbers[:, SLEEP_TIME] = rng.choice([0.0, 0.2, cfg.time_to_sleep - 0.01, cfg.time_to_sleep + 0.1], bodies)
    awake = np.flatnonzero(numbers[:, SLEEPING] == 0.0)
    motion = rng.normal(0, 3, (len(awake), 3)) * rng.choice([0.0, 0.01, 1.0], (len(awake), 1))
    a_kind = rng.choice([STATIC, DYNAMIC, DYNAMIC], m)
    b_index = rng.integers(0, bodies, m)
    a_index = np.where(a_kind == DYNAMIC, rng.integers(0, bodies, m), -1)
    touching = rng.random(m) < 0.5
    held = rng.choice(bodies, 3).astype(np.int64) if seed % 2 else np.zeros(0, dtype=np.int64)
    extent = rng.uniform(4, 30, bodies)
    expected = numbers.copy()
    numpy_sleep(cfg, expected, a_kind, a_index, b_index, touching, 1 / 60, extent, awake, motion, held)
    rest_and_sleep(numbers, awake, motion, extent, 1 / 60, cfg.sleep_linear_velocity, cfg.time_to_sleep, a_kind,
                   a_index, b_index, touching, held)
    assert np.array_equal(numbers, expected)
    if seed < 8:
        assert expected[awake, SLEEPING].any()  # (some groups fell asleep: the islands were compared)


@pytest.mark.parametrize("seed", range(6))
def test_a_sweep_left_out_of_continuous_collision_has_no_candidate_segment(seed):
    """:func:`sweep_may_hit` may keep a sweep that meets nothing, but never drops one the broad phase has a
    candidate for (the swept box of the shape from where it started, at its present angle)."""
    rng = np.random.default_rng(seed)
    world = World()
    for _ in range(40):  # scattered platforms and slopes, some long (crossing many grid cells)
        x, y, length, turn = rng.uniform(-800, 800), rng.uniform(-400, 400), rng.uniform(10, 900), rng.uniform(-1, 1)
        world.add_chain([(x, y), (x + length * np.cos(turn), y + length * np.sin(turn))], radius=2.0)
    bodies = [world.add_body(RigidBody(SHAPES[i % len(SHAPES)], (float(rng.uniform(-900, 900)),
                                                                   float(rng.uniform(-500, 500))),
                                       angle=float(rng.uniform(-3, 3)))) for i in range(300)]
    rigid = world._rigid
    table, numbers, bp = rigid.table(), rigid.body_state, world.static.broadphase
    numbers[:, PREVIOUS_X:PREVIOUS_X + 2] = numbers[:, X:Y + 1] + rng.normal(0, 30, (len(bodies), 2))
    awake = np.arange(len(bodies))
    fast = rng.choice(len(bodies), 200, replace=False).astype(np.int64)
    moved = rng.normal(0, 60, (len(bodies), 2))
    may = sweep_may_hit(numbers, awake, fast, moved, table.vertices, table.offsets, table.radius, bp.cell_size,
                        *bp.cell_arrays(), bp.aabbs)
    for i, hit in zip(fast.tolist(), may.tolist()):
        body = bodies[i]
        start = Transform(body.previous_transform.position, body.angle)
        candidates = bp.query_swept(body.shape.aabb(start), tuple(moved[i].tolist()))
        assert hit or not len(candidates), i
    assert may.any() and not may.all()


@pytest.mark.parametrize("seed", range(6))
def test_near_segment_lists_are_the_broad_phase_s_query_lists(seed):
    """:func:`refresh_near` looks again for the bodies that left their padded boxes, and its lists are
    ``query_list``'s (boxes of all sizes, up to larger than the grid); the others keep theirs."""
    rng = np.random.default_rng(seed)
    world = World()
    for _ in range(60):
        x, y, length, turn = rng.uniform(-800, 800), rng.uniform(-400, 400), rng.uniform(5, 600), rng.uniform(-3, 3)
        world.add_chain([(x, y), (x + length * np.cos(turn), y + length * np.sin(turn))], radius=2.0)
    bp = world.static.broadphase
    count = 120
    near_box = np.tile([np.inf, np.inf, -np.inf, -np.inf], (count, 1))
    start, members = np.zeros(count + 1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    kept_awake = np.zeros(0, dtype=np.int64)
    for _ in range(4):
        low = rng.uniform(-1000, 1000, (count, 2))
        boxes = np.concatenate([low, low + rng.choice([5.0, 60.0, 900.0, 3000.0], (count, 1))], axis=1)
        awake = np.sort(rng.choice(count, 90, replace=False)).astype(np.int64)
        was = near_box.copy()
        same, start, members, ks, segs = refresh_near(near_box, start, members, boxes, awake, kept_awake, 16.0,
                                                      bp.cell_size, *bp.cell_arrays(), bp.aabbs)
        assert not same
        kept_awake = awake
        for k in awake.tolist():
            inside = (was[k, :2] <= boxes[k, :2]).all() and (was[k, 2:] >= boxes[k, 2:]).all()
            expected = was[k] if inside else boxes[k] + (-16.0, -16.0, 16.0, 16.0)
            assert near_box[k].tolist() == expected.tolist()
            assert members[start[k]:start[k + 1]].tolist() == bp.query_list(near_box[k].tolist())
        assert ks.tolist() == [k for k in awake.tolist() for _ in range(start[k + 1] - start[k])]
        assert segs.tolist() == [s for k in awake.tolist() for s in members[start[k]:start[k + 1]].tolist()]
    assert len(segs) > 50
    same, *_ = refresh_near(near_box, start, members, boxes, awake, kept_awake, 16.0, bp.cell_size,
                            *bp.cell_arrays(), bp.aabbs)
    assert same  # nobody moved: the pairs stand


@pytest.mark.parametrize("seed", range(6))
def test_pairs_that_began_and_ended_touching_are_the_key_set_differences(seed):
    rng = np.random.default_rng(seed)
    old_keys = rng.choice(10_000, 300, replace=False).astype(np.int64)
    keys = np.concatenate([rng.choice(old_keys, 200, replace=False), 10_000 + np.arange(60)])[rng.permutation(260)]
    old_touching, touching = rng.random(300) < 0.6, rng.random(260) < 0.6
    where = {k: i for i, k in enumerate(old_keys.tolist())}
    source = np.array([where.get(k, -1) for k in keys.tolist()], dtype=np.int64)
    changes = np.full(len(keys) + len(old_keys), -7, dtype=np.int64)
    began_count, ended_count = step_kernel._touch_changes(source, touching, old_touching,
                                                          np.ones(len(old_keys), dtype=bool), changes)
    began, ended = changes[:began_count], changes[began_count:began_count + ended_count]
    now_rows = np.flatnonzero(touching)
    was = old_keys[old_touching]
    assert np.array_equal(began, now_rows[~np.isin(keys[now_rows], was)]) and len(began)
    assert np.array_equal(ended, np.flatnonzero(old_touching & ~np.isin(old_keys, keys[touching]))) and len(ended)


def _stacked_pair() -> tuple[World, RigidBody, RigidBody]:
    """A crate resting on another on the floor, settled."""
    world = World(gravity=(0.0, -1800.0))
    world.add_chain([(-200.0, 0.0), (200.0, 0.0)], radius=1.0)
    low = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, 17.0)))
    high = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, 50.0)))
    for _ in range(30):
        world.step(1 / 60)
    return world, low, high


def test_a_filter_set_on_a_body_in_the_world_takes_effect_at_the_next_step():
    # (The step keeps the bodies' filters between steps: a filter set later must still be seen.)
    from engine import CollisionFilter
    world, low, high = _stacked_pair()
    assert high.position[1] > 45.0
    high.filter = CollisionFilter(category=2, mask=1)
    low.filter = CollisionFilter(category=4, mask=1)  # neither touches the other; both touch the floor
    for _ in range(30):
        world.step(1 / 60)
    assert high.position[1] < 20.0  # fell through the lower crate onto the floor
    with pytest.raises(Exception, match="filter must be a CollisionFilter"):
        high.filter = 3  # type: ignore[assignment]


def test_a_shape_set_on_a_body_in_the_world_takes_effect_at_the_next_step():
    world, low, high = _stacked_pair()
    high.position = (200.0, 50.0)  # (moved aside, not removed: a removal alone makes the step look again)
    low.shape = RoundedPolygon.box(16, 32, radius=1)  # twice as tall about its centre: 16 px into the floor
    for _ in range(60):
        world.step(1 / 60)
    assert 31.0 < low.position[1] < 35.0  # pushed out of the floor: it stands on it again


@pytest.mark.parametrize("seed", range(4))
def test_a_step_is_skipped_only_when_every_body_sleeps_where_the_last_step_left_it(seed):
    """The resting shortcut (``all_asleep_in_place``) says yes exactly when every body sleeps and none was
    placed by game code; and a sleeper placed by game code in a resting world stays where it was put, its
    previous placement now that place (it did not move in a step)."""
    from engine.bodies import PLACED, SLEEPING
    from engine.world.step_kernel import all_asleep_in_place
    rng = np.random.default_rng(seed)
    for _ in range(50):
        numbers = np.zeros((int(rng.integers(0, 5)), STATE_COLUMNS))
        numbers[:, SLEEPING] = rng.random(len(numbers)) < 0.8
        numbers[:, PLACED] = rng.random(len(numbers)) < 0.2
        expected = bool(np.all(numbers[:, SLEEPING] == 1.0) and np.all(numbers[:, PLACED] == 0.0))
        assert all_asleep_in_place(numbers) == expected
    world = World()
    world.add_chain([(-100.0, 0.0), (100.0, 0.0)], radius=1.0)
    crate = world.add_body(RigidBody(RoundedPolygon.box(8, 8, radius=1), (0.0, 10.0)))
    for _ in range(120):
        world.step(1 / 60)
    assert crate.sleeping
    crate.position = (50.0, 60.0)  # (in the air: it stays asleep there until something wakes it)
    world.step(1 / 60)
    assert crate.position == (50.0, 60.0) and crate.previous_transform.position == (50.0, 60.0)


@pytest.mark.parametrize("m", [0, 1, 7])
def test_a_contact_set_reads_its_packed_arrays_where_the_kernel_put_them(m):
    """The contact set carves its arrays out of the solver's packed buffers as the compiled code does
    (:data:`~engine.world.contacts.CONTACT_FIELDS` against :func:`~engine.world.step_kernel.contact_arrays`);
    the colouring's order too. Every value is distinct, so a field carved at the wrong place shows."""
    rng = np.random.default_rng(m)
    arrays = (np.arange(m, dtype=np.int64) * 3 + 1, rng.integers(0, 99, (m, 2)), rng.random((m, 2)) < 0.5,
              rng.random((m, 2)), rng.random((m, 2, 2)), rng.random((m, 4)), rng.random((m, 2)) < 0.5,
              rng.random((m, 2, 4)), rng.random(m) < 0.5, rng.integers(-1, 9, m), rng.integers(0, 9, m))
    names = ("keys", "ids", "valid", "normal", "point", "impulse", "sliding", "anchors", "touching", "a_index",
             "b_index")  # (contact_arrays' order)
    packed = step_kernel.packed_contacts(*arrays)
    carved = step_kernel.contact_arrays(*packed)
    contact_set = contacts.ContactSet(packed)
    assert len(contact_set) == m
    for name, given, kernel_view in zip(names, arrays, carved):
        assert np.array_equal(getattr(contact_set, name), given), name
        assert np.array_equal(kernel_view, given), name
    order = rng.permutation(m).astype(np.int64)
    colouring = step_kernel.packed_colouring(rng.integers(0, 5, m), rng.integers(0, 5, m), rng.random(m) < 0.5,
                                             order, np.array([0, m // 2, m], dtype=np.int64), np.array([False, True]))
    assert np.array_equal(contacts.Colouring(*colouring).order, order)
    assert np.array_equal(step_kernel.colouring_arrays(*colouring)[3], order)


@pytest.mark.parametrize("m", [0, 1, 7])
def test_found_contacts_read_their_packed_arrays_where_the_kernel_put_them(m):
    """The step's gathered contacts are read where the compiled gathering put them
    (:data:`~engine.world.contacts.FOUND_FIELDS` against :func:`~engine.world.collide_kernel.found_arrays`),
    and picking rows of them keeps the rows of every array and of the contacts that wake a sleeper."""
    rng = np.random.default_rng(m)
    arrays = [np.arange(m, dtype=np.int64) * 3 + 1, rng.integers(0, 4, m), rng.integers(0, 50, m),
              rng.integers(-1, 9, m), rng.integers(0, 9, m), rng.integers(0, 99, (m, 2)), rng.random((m, 2)),
              rng.random((m, 2, 2)), rng.random((m, 2)), rng.random(m), rng.random((m, 2)) < 0.5, rng.random(m) < 0.5]
    found = contacts.Found.of(arrays, list(range(m)), list(range(m)), np.flatnonzero(arrays[11]))
    assert len(found) == m
    for name, given, kernel_view in zip(contacts.FOUND_FIELDS, arrays, collide_kernel.found_arrays(
            found.ints, found.floats, found.flags)):
        assert np.array_equal(getattr(found, name), given), name
        assert np.array_equal(kernel_view, given), name
    rows = np.flatnonzero(rng.random(m) < 0.6)
    picked = found.rows(rows)
    for name, given in zip(contacts.FOUND_FIELDS, arrays):
        assert np.array_equal(getattr(picked, name), given[rows]), name
    assert np.array_equal(picked.wakers, np.flatnonzero(arrays[11][rows]))
    assert list(picked.a) == rows.tolist()


def _count_one_call_steps(monkeypatch):
    """A list that gets an item at every one-call step the solver makes."""
    calls = []
    fixed = step_kernel.FixedTypes(step_kernel.step_in)
    monkeypatch.setattr(contacts, "_STEP_IN", SimpleNamespace(call=lambda *args: calls.append(1) or fixed.call(*args)))
    return calls


def _events_and_contacts(forced_python_path, monkeypatch):
    """Crates dropped onto a floor of joined segments and on each other (begin and end events), stepped 240
    times, as (kind, A, B, normal) with bodies named by their place in the world, and the last step's
    contacts' participants. ``forced_python_path``: an idle kinematic body far away sends every step the
    Python way. Also returns how many steps took the one-call way."""
    world = World()
    world.add_chain([(-300, 200), (-300, 0), (-100, 0), (100, 0), (300, 0), (300, 200)], radius=2.0)
    rng = np.random.default_rng(4)
    for i in range(14):
        world.add_body(RigidBody(SHAPES[i % len(SHAPES)], (float(rng.uniform(-200, 200)), float(40 + 30 * i)),
                                 angle=float(rng.uniform(-0.5, 0.5)), restitution=0.3))
    if forced_python_path:
        world.add_kinematic(KinematicBody(RoundedPolygon.box(10, 10), (5000.0, 5000.0)))
    calls = _count_one_call_steps(monkeypatch)
    place = {id(b): i for i, b in enumerate(world.bodies)}

    def named(participant):
        return ("body", place[id(participant)]) if id(participant) in place else participant

    seen = []
    for _ in range(240):
        world.step(1 / 60)
        seen += [(e.kind, named(e.a), named(e.b), e.normal) for e in world.events]
    last = world._rigid.contacts  # (what the debug overlay draws)
    return seen, [named(a) for a in last.a], [named(b) for b in last.b], len(calls)


def test_the_one_call_step_gives_the_python_path_s_events_and_participants(monkeypatch):
    """A step made in one compiled call names its contacts' participants from the contacts' own rows (a
    segment's index from the key): the same events and the same participants as the Python path."""
    seen, a, b, one_calls = _events_and_contacts(False, monkeypatch)
    expected, expected_a, expected_b, python_one_calls = _events_and_contacts(True, monkeypatch)
    assert one_calls >= 100 and python_one_calls == 0  # (every step until the pile sleeps: then none is made)
    kinds = {kind for kind, *_ in seen}
    assert kinds == {"begin", "end"} and any(isinstance(x, int) for _, x, _, _ in seen)  # (segments: ints)
    assert seen == expected
    assert a == expected_a and b == expected_b and any(isinstance(x, int) for x in a)


def _landing_row_events(forced_python_path, monkeypatch):
    """Two rows of two dozen crates side by side, dropped together onto a floor: the upper row lands on the
    lower one, that many pairs beginning to touch in one step (after other steps' events). Returns each step's
    events (bodies named by their place), how many steps took the one-call way and how many events the table's
    event room holds at first and at the end."""
    world = World()
    world.add_chain([(-450.0, 0.0), (450.0, 0.0)], radius=2.0)
    for i in range(48):
        world.add_body(RigidBody(RoundedPolygon.box(20, 20), (-420.0 + 36.0 * (i % 24), 30.0 + 90.0 * (i // 24))))
    if forced_python_path:
        world.add_kinematic(KinematicBody(RoundedPolygon.box(10, 10), (5000.0, 5000.0)))
    calls = _count_one_call_steps(monkeypatch)
    place = {id(b): i for i, b in enumerate(world.bodies)}
    per_step, first_room = [], len(world._rigid.table().event_room[0])
    for _ in range(60):
        world.step(1 / 60)
        per_step.append([(e.kind, place.get(id(e.a), e.a), place[id(e.b)], e.normal) for e in world.events])
    return per_step, len(calls), (first_room, len(world._rigid.table().event_room[0]))


def test_a_one_call_step_with_more_events_than_its_room_gives_them_all(monkeypatch):
    """The one-call step writes its events' participants into a room Python owns; a step with more events
    than it holds keeps them in the step memory instead (and the room grows): the same events as the Python
    path, step by step."""
    per_step, one_calls, (first_room, room) = _landing_row_events(False, monkeypatch)
    expected, python_one_calls, _ = _landing_row_events(True, monkeypatch)
    most = max(map(len, per_step))
    assert one_calls == 60 and python_one_calls == 0
    assert most > first_room and room >= most
    assert per_step == expected


def test_the_kernel_reads_a_static_contact_s_segment_where_the_key_holds_it():
    """A one-call step names a static participant by the segment index in its contact's key (the kernel's
    ``KEY_A_SHIFT`` and ``KEY_A_MASK``, and the participant namer of its contact sets)."""
    for segment, body_id in ((0, 0), (12345, 77), (2**29 - 1, 2**29 - 1)):
        key = contacts._key(contacts.STATIC, segment, body_id)
        assert (key >> collide_kernel.KEY_A_SHIFT) & collide_kernel.KEY_A_MASK == segment


def test_a_step_memory_refuses_another_set_of_bodies_state():
    """A step memory is made for its table's bodies: started with state rows of another count it refuses
    (compiled code does not check its indices: it would read and write past the memory's arrays)."""
    world = random_pile(1, count=6)
    memory = contacts.ShapeTable(world.bodies[:4]).memory
    with pytest.raises(ValueError, match="another set of bodies"):
        begin_in(memory, world._rigid.body_state, False)


def test_the_one_call_step_is_called_with_one_set_of_argument_types(monkeypatch):
    """The solver calls the one-call step through its compiled entry point for the first call's argument
    types (``FixedTypes``), which does not check them: every world must hand it the same types. Worlds of
    crates that grow, lose bodies, sleep, bounce off a chain and carry collision filters all step with the
    one version the warm-up compiles."""
    engine.warm_up()
    seen = set()
    dispatcher = step_kernel.step_in
    monkeypatch.setattr(contacts, "_STEP_IN", SimpleNamespace(
        call=lambda *args: seen.add(tuple(map(dispatcher.typeof_pyval, args))) or dispatcher(*args)))
    worlds = [random_pile(seed, count=count) for seed, count in ((1, 5), (2, 40))]
    world = World(physics=PhysicsConfig(enable_sleep=True))
    world.add_chain([(-300.0, 200.0), (-300.0, 0.0), (300.0, 0.0), (300.0, 200.0)], radius=2.0)
    for i in range(12):
        world.add_body(RigidBody(SHAPES[i % len(SHAPES)], (-200.0 + 35.0 * i, 30.0 + 9.0 * i), restitution=0.4,
                                 filter=CollisionFilter(category=1 << (i % 3))))
    worlds.append(world)
    for step in range(150):
        for w in worlds:
            w.step(1 / 60)
        if step == 40:
            worlds[1].remove_body(worlds[1].bodies[3])
            worlds[0].add_body(RigidBody(SHAPES[0], (0.0, 300.0)))
    assert len(seen) == 1 and list(seen) == dispatcher.signatures


def _wakes_a_sleeping_pile(forced_python_path, monkeypatch):
    """Eight crates settle on a floor and sleep; a ninth, added at the start far above, falls on them later
    and wakes them all (same bodies, same table: the one-call step resumes after the Python path's steps).
    Returns every step's bodies (position, angle, velocity) and events, and how many steps took the one call."""
    world = World(physics=PhysicsConfig(enable_sleep=True))
    world.add_chain([(-200.0, 0.0), (200.0, 0.0)], radius=2.0)
    for i in range(8):
        world.add_body(RigidBody(RoundedPolygon.box(20, 20), (-70.0 + 20.5 * i, 11.0)))
    world.add_body(RigidBody(RoundedPolygon.box(120, 10), (0.0, 2400.0)))
    if forced_python_path:
        world.add_kinematic(KinematicBody(RoundedPolygon.box(10, 10), (5000.0, 5000.0)))
    calls = _count_one_call_steps(monkeypatch)
    seen = []
    for _ in range(150):
        world.step(1 / 60)
        seen.append(([(b.position, b.angle, b.velocity, b.sleeping) for b in world.bodies],
                     [(e.kind, e.normal) for e in world.events]))
    return seen, len(calls)


def test_a_pile_woken_after_sleeping_steps_as_the_python_path(monkeypatch):
    """While some crates sleep the step goes the Python way, which makes its own contacts; when all are awake
    again the one-call step must start from those (not from the contacts it made before): the same bodies and
    events, step by step, as the Python path."""
    seen, one_calls = _wakes_a_sleeping_pile(False, monkeypatch)
    expected, _ = _wakes_a_sleeping_pile(True, monkeypatch)
    asleep = [sum(sleeping for *_, sleeping in bodies) for bodies, _ in seen]
    woke = asleep.index(0, asleep.index(8))  # (the first step all are awake after the eight slept)
    assert 0 < woke < 140 and one_calls > 45
    assert seen == expected


def test_gravity_and_time_step_changed_mid_run_take_effect_at_the_next_step():
    """Game code may set the world's gravity and step with another dt at any time: the next step uses them
    (a crate in free fall gains gravity x dt of velocity)."""
    world = World(gravity=(0.0, -1000.0))
    world.add_chain([(-100.0, 0.0), (100.0, 0.0)], radius=2.0)
    crate = world.add_body(RigidBody(RoundedPolygon.box(10, 10), (0.0, 5000.0)))
    for _ in range(5):
        world.step(1 / 60)
    for gravity, dt in (((0.0, 600.0), 1 / 60), ((300.0, 600.0), 1 / 60), ((300.0, 600.0), 1 / 120)):
        world.gravity = gravity
        before = crate.velocity
        world.step(dt)
        gained = ((crate.velocity[0] - before[0]) / dt, (crate.velocity[1] - before[1]) / dt)
        assert gained == pytest.approx(gravity, abs=1e-6), (gravity, dt)


def test_contacts_kept_by_game_code_across_steps_stay_those_of_their_step(monkeypatch):
    """A one-call step's contacts stay in compiled memory and are read when asked; the memory keeps only the
    last two steps'. A contact set game code keeps (``contacts_of_last_step``) is read before the memory
    drops its contacts, so, read steps later, it still holds its own step's contacts, and its participants;
    while nothing keeps them, no step reads contacts back."""
    world = random_pile(3, count=24)
    world.step(1 / 60)
    fetched = []
    real_fetch = contacts.kept_contacts
    monkeypatch.setattr(contacts, "kept_contacts", lambda *args: fetched.append(1) or real_fetch(*args))
    for _ in range(5):
        world.step(1 / 60)
    assert fetched == []  # (nothing asked for them)
    held = world.contacts_of_last_step
    then = [array.copy() for array in real_fetch(world._rigid.table().memory, False)]  # (the step's, now)
    for _ in range(4):
        world.step(1 / 60)
    assert len(fetched) == 1  # (read once, when the memory dropped them)
    assert len(held) > 10 and all(np.array_equal(kept, made) for kept, made in zip(held.buffers, then))
    assert list(held.b) == [world.bodies[k] for k in then[0][len(held) * 4:]]  # (b_index: the last of five ints)
    assert not np.array_equal(world.contacts_of_last_step.point, held.point)  # (the world moved on)


@numba.njit(_nrt=False)
def _scaled_position(m, scale):
    """The memory's first position scaled, written back through a borrowed field; and the last cos."""
    position = borrowed(m, "position")
    position[0, 0] *= scale
    return position[0, 0], borrowed(m, "trig")[-1, 0]


@numba.njit
def _borrowed_with_runtime(m):
    return borrowed(m, "position")


def test_a_borrowed_field_is_the_memory_s_own_array_in_runtime_free_code():
    """The kernels' runtime-free functions read the step memory's fields with ``borrowed``: the field's own
    array (what they write lands in the memory). With numba's runtime it refuses to compile (there a field read
    must be counted)."""
    world = random_pile(5, count=6)
    memory = world._rigid.table().memory
    position, angle, _ = step_start(memory)
    before = position[0, 0]
    first, last_cos = _scaled_position(memory, 2.0)
    assert first == 2.0 * before and step_start(memory)[0][0, 0] == first
    assert last_cos == math.cos(angle[-1])
    with pytest.raises(numba.core.errors.NumbaError, match="runtime-free"):
        _borrowed_with_runtime(memory)


@pytest.mark.parametrize("seed", range(4))
def test_the_one_call_gathering_keeps_the_contacts_the_gathering_hands_python(seed):
    """The one-call step's gathering writes its contacts into the step memory's found buffers (grown as
    needed, written over at the next step), and its body pairs come from the memory's sweep scratch: they are
    the contacts the gathering hands Python, bit for bit (seed 3: a crowd piled at one place, more pairs than
    the sweep's first room)."""
    world = random_pile(seed, count=25 + 10 * seed)
    if seed == 3:
        for i in range(40):
            world.add_body(RigidBody(SHAPES[0], (float(i % 5), 60.0 + float(i // 5))))
    table, cfg = world._rigid.table(), world.physics
    begin_in(table.memory, world._rigid.body_state, False)
    contacts.ready_to_gather(table, world.static)
    args = (float(cfg.candidate_padding), float(cfg.speculative_distance), float(cfg.linear_slop),
            contacts.DEFAULT_FILTER_ROW)
    awake = collide_kernel.gather_into(table.memory, *args)
    kept = [array.copy() for array in collide_kernel.found_kept(table.memory)]
    ints, floats, flags, wakers, _, awake_again = collide_kernel.gather_in(table.memory, *args)
    assert len(ints) // 7 > (60 if seed == 3 else 0)
    assert awake == awake_again == len(world.bodies) and len(wakers) == 0
    for memory_held, handed in zip(kept, (ints, floats, flags)):
        assert np.array_equal(memory_held, handed)
