"""The compiled character queries (engine.world.kernels.mover) against the readable reference, bit for bit.

``World.cast`` sweeps every shape compiled; :func:`reference_cast` is the same cast written with ``engine.geometry``
alone. ``World.contacts`` answers gathered candidates (``World.gather``'s answer) with the compiled kernels;
:func:`reference_contacts` is the reference's way (``engine.geometry.contact_from_sum`` per segment,
``engine.geometry.collide`` per body). Both must give equal hits and contacts: the same floats (bodies' contacts,
from the compiled manifold, within 1e-9 px), colliders, order.
"""

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Character, CollisionFilter, KinematicBody, MoverConfig, RigidBody, RoundedPolygon, World
from engine.types import DEFAULT_FILTER, SceneContact, SceneHit
from engine.geometry import (
    AABB, Transform, cast_against_sum, collide, contact_from_sum, minkowski_difference, shape_cast,
)
from engine.world.kernels.mover import py_hypot, thousandths
from tests.geometry.oracle import convex_polygons


def test_py_hypot_gives_pythons_hypot_bit_for_bit():
    rng = np.random.default_rng(7)
    x = rng.normal(size=100_000) * 10.0 ** rng.uniform(-8, 8, 100_000)
    y = np.where(rng.random(100_000) < 0.3, x * rng.uniform(0.999, 1.001, 100_000), rng.normal(size=100_000) * 50)
    special = [(0.0, 0.0), (-0.0, 3.0), (3.0, 4.0), (math.inf, 1.0), (1.0, -math.inf), (5e-324, 1e-310), (1e300, 1e300)]
    pairs = list(zip(x.tolist(), y.tolist())) + special
    assert [py_hypot(a, b) for a, b in pairs] == [math.hypot(a, b) for a, b in pairs]
    assert math.isnan(py_hypot(math.nan, 1.0))


def random_world(seed: int, with_bodies: bool = False) -> World:
    """Chains (joints where grown shapes meet), loose segments at any angle and a box outline; optionally a
    kinematic box among them (the compiled casts merge it in order)."""
    rng = np.random.default_rng(seed)
    world = World()
    for _ in range(6):
        start = rng.uniform(-200, 200, 2)
        steps = rng.integers(-40, 41, (int(rng.integers(2, 6)), 2)) * rng.choice([1.0, 0.5, 8.0])
        world.add_chain(np.cumsum(np.vstack([start, steps]), axis=0), radius=float(rng.choice([0.0, 1.0, 2.0])))
    a = rng.uniform(-200, 200, (25, 2))
    b = a + rng.normal(0, 40, (25, 2))
    world.add_segments(a, b, radius=rng.choice([0.0, 0.5, 3.0], 25))
    world.add_chain([(-64, -64), (64, -64), (64, 0), (-64, 0)], radius=1.0, closed=True)
    if with_bodies:
        world.add_kinematic(KinematicBody(RoundedPolygon.box(20, 6, radius=1), (float(rng.uniform(-60, 60)), 30.0)))
    return world


def probes(rng: np.random.Generator, count: int):
    """Positions and translations: random ones, axis-aligned ones and zero ones."""
    for _ in range(count):
        x, y = rng.uniform(-220, 220, 2).tolist()
        kind = rng.integers(0, 4)
        if kind == 0:
            tx, ty = rng.normal(0, 60, 2).tolist()
        elif kind == 1:
            tx, ty = (float(rng.normal(0, 60)), 0.0) if rng.random() < 0.5 else (0.0, float(rng.normal(0, 60)))
        elif kind == 2:
            tx, ty = 0.0, 0.0
        else:
            tx, ty = rng.normal(0, 3, 2).tolist()
        yield (x, y), (tx, ty)


SHAPES = [RoundedPolygon.box(10, 16, radius=2), RoundedPolygon([(-6, -9), (7, -8), (3, 10)], radius=0.5),
          RoundedPolygon.box(4, 4)]


def reference_cast(shape: RoundedPolygon, xf: Transform, translation, neighbours) -> list[SceneHit]:
    """``World.cast`` written with ``engine.geometry`` alone: each neighbour whose box meets the swept box, a level
    segment against an upright shape by its Minkowski sum with ``edge_midpoints=False`` (the mover's contact
    point), everything else by :func:`~engine.geometry.shape_cast`; nearest first, in the neighbours' order
    between equal fractions."""
    tx, ty = float(translation[0]), float(translation[1])
    box = shape.aabb(xf).swept((tx, ty))
    hits = []
    for collider, target, xf_target, near in neighbours:
        if not box.overlaps(AABB(*near)):
            continue
        if collider.body is None and xf.angle == 0.0:
            grown = minkowski_difference(target, xf_target, shape, 0.0)
            hit = cast_against_sum(grown, shape, xf, tx, ty, target, xf_target, False)
        else:
            hit = shape_cast(shape, xf, (tx, ty), target, xf_target)
        if hit is not None:
            hits.append(SceneHit(hit.fraction, hit.point, hit.normal, collider, hit.started_inside))
    hits.sort(key=lambda h: h.fraction)
    return hits


def reference_world(monkeypatch) -> None:
    """Make ``World`` answer the mover the reference's way: every cast by :func:`reference_cast`, contacts by
    ``engine.geometry`` one by one, no one-call slides, first hits or touches (the mover then slides cast by
    cast and classifies contacts itself)."""
    def cast(self, shape, xf, translation, ignore=(), candidates=None):
        if candidates is None:
            candidates = self.gather(shape.aabb(xf).swept(translation), ignore)
        neighbours = candidates.neighbours() if hasattr(candidates, "neighbours") else candidates
        ignored = {id(x) for x in ignore}
        return reference_cast(shape, xf, translation, [n for n in neighbours if id(n.collider) not in ignored
                                                        and id(n.collider.body) not in ignored])

    def contacts(self, shape, xf, margin=0.0, ignore=(), candidates=None):
        if candidates is None:
            candidates = self.candidates(shape.aabb(xf).grown(margin), ignore)
        neighbours = candidates.neighbours() if hasattr(candidates, "neighbours") else candidates
        ignored = {id(x) for x in ignore}
        return reference_contacts(self, shape, xf, margin, [n for n in neighbours if id(n.collider) not in ignored
                                                            and id(n.collider.body) not in ignored],
                                  bodies_compiled=True)

    monkeypatch.setattr(World, "cast", cast)
    monkeypatch.setattr(World, "contacts", contacts)
    for name in ("slide", "first_hit", "touching"):
        monkeypatch.setattr(World, name, lambda *args, **kwargs: None)


def both_ways(world: World, shape: RoundedPolygon, position, translation, margin: float):
    """(compiled, reference) answers of a cast and a contact query with the candidates gathered around."""
    xf = Transform(position)
    box = shape.aabb(xf).swept(translation).grown(margin + 1.0)
    gathered = world.candidates(box)
    assert world._sum_rows(shape, xf, (), gathered) is not None  # the compiled way answers these
    compiled = (world.cast(shape, xf, translation, candidates=gathered),
                world.contacts(shape, xf, margin, candidates=gathered))
    plain = gathered.neighbours()
    reference = (reference_cast(shape, xf, translation, plain), reference_contacts(world, shape, xf, margin, plain))
    return compiled, reference


def reference_contacts(world: World, shape: RoundedPolygon, xf: Transform, margin: float, neighbours,
                       bodies_compiled: bool = False) -> list[SceneContact]:
    """``World.contacts`` written with ``engine.geometry`` alone: a segment's contact from the Minkowski sum of
    the segment and the shape, a body's as the deepest point of ``collide`` (``bodies_compiled``: of the
    compiled manifold, ``World.contact_with``, which matches ``collide`` within 1e-9 px, to compare runs bit for
    bit)."""
    found = []
    min_x, min_y, max_x, max_y = shape.aabb(xf).grown(margin)
    for n in neighbours:
        if not (n.box[0] <= max_x and n.box[2] >= min_x and n.box[1] <= max_y and n.box[3] >= min_y):
            continue
        if n.collider.segment >= 0:
            separation, normal, point = contact_from_sum(world.static.minkowski_sum(shape, n.collider.segment), shape,
                                                         xf, n.shape, Transform(), False)
            if separation <= margin:
                found.append(SceneContact(normal, separation, point, n.collider))
            continue
        if bodies_compiled:
            contact = world.contact_with(shape, xf, n.collider, margin)
            found += [contact] if contact is not None else []
            continue
        m = collide(n.shape, n.transform, shape, xf, margin)
        if m is not None:
            deepest = min(m.points, key=lambda p: p.separation)
            found.append(SceneContact(m.normal, deepest.separation, deepest.point, n.collider))
    return found


def assert_same(compiled, reference, *context) -> None:
    """Equal hits (bit for bit) and contacts: a segment's bit for bit, a body's within 1e-9 px."""
    (hits, contacts), (reference_hits, reference_contacts_) = compiled, reference
    assert hits == reference_hits, context
    assert [c.collider for c in contacts] == [c.collider for c in reference_contacts_], context
    for got, expected in zip(contacts, reference_contacts_):
        if got.collider.segment >= 0:
            assert got == expected, context
        else:
            assert math.isclose(got.separation, expected.separation, abs_tol=1e-9), context
            assert all(math.isclose(g, e, abs_tol=1e-9) for g, e in zip(got.normal + got.point,
                                                                       expected.normal + expected.point)), context


@pytest.mark.parametrize("seed", range(6))
def test_compiled_casts_and_contacts_equal_the_reference_on_random_levels(seed):
    world = random_world(seed, with_bodies=seed % 2 == 1)
    rng = np.random.default_rng(100 + seed)
    hits = 0
    for shape in SHAPES:
        for position, translation in probes(rng, 150):
            compiled, reference = both_ways(world, shape, position, translation, float(rng.choice([0.0, 1.5, 8.0])))
            assert_same(compiled, reference, shape, position, translation)
            hits += len(reference[0])
            # From where the first hit stopped the sweep: on (or within rounding of) a surface, where the
            # reference's on-surface rules decide.
            if reference[0] and translation != (0.0, 0.0):
                f = reference[0][0].fraction
                touching = (position[0] + translation[0] * f, position[1] + translation[1] * f)
                for again in (translation, (-translation[1], translation[0]), (0.0, -1.0)):
                    compiled, reference = both_ways(world, shape, touching, again, 1.0)
                    assert_same(compiled, reference, shape, touching, again)
    assert hits > 100  # the probes hit things (the comparison is not between empty answers)


@settings(max_examples=150, deadline=None)
@given(convex_polygons(), st.floats(-60, 60), st.floats(-20, 60), st.floats(-80, 80), st.floats(-80, 80),
       st.floats(0.0, 4.0))
def test_compiled_casts_and_contacts_equal_the_reference_for_any_convex_shape(shape, x, y, tx, ty, margin):
    world = random_world(3)
    compiled, reference = both_ways(world, shape, (x, y), (tx, ty), margin)
    assert_same(compiled, reference)


def test_the_compiled_cast_reports_what_the_pure_geometry_cast_does():
    """Against engine.geometry directly: the nearest hit of a sweep onto a floor segment."""
    world = World()
    world.add_segments([(-100.0, 0.0)], [(100.0, 0.0)], radius=1.0)
    shape = RoundedPolygon.box(10, 16, radius=2)
    xf = Transform((3.0, 40.0))
    hits = world.cast(shape, xf, (5.0, -60.0), candidates=world.candidates(AABB(-200, -200, 200, 200)))
    target = world.static.shape(0)
    expected = cast_against_sum(minkowski_difference(target, Transform(), shape, 0.0), shape, xf, 5.0, -60.0,
                                target, Transform(), False)
    assert len(hits) == 1 and expected is not None
    assert (hits[0].fraction, hits[0].point, hits[0].normal) == (expected.fraction, expected.point, expected.normal)
    assert hits[0].normal == (0.0, 1.0) and 0.0 < hits[0].fraction < 1.0


def test_thousandths_order_as_pythons_round_to_three_places():
    """The compiled floor choice compares separations as the mover's ``round(separation, 3)`` does: whole
    thousandths standing for exactly Python's rounded values, ties (exact halves) to even, values a last
    place either side of a half on the right side of it."""
    rng = np.random.default_rng(3)
    values = (rng.normal(size=20_000) * 10.0 ** rng.uniform(-6, 2, 20_000)).tolist()
    for k in rng.integers(-5000, 5000, 5_000).tolist():
        half = (k + 0.5) / 1000
        values += [half, math.nextafter(half, math.inf), math.nextafter(half, -math.inf)]
    values += [0.0625, -0.0625, 0.1875, 0.0005, 0.0, -0.0, -1.5]  # 0.0625 * 1000 is an exact half
    assert [float(f"{int(thousandths(x))}e-3") for x in values] == [round(x, 3) for x in values]


def touching_probes(world: World, ch: Character, rng: np.random.Generator, count: int):
    """Positions where ``ch`` touches or nearly touches the level (the ends of casts, nudged), and sweeps."""
    for position, (tx, ty) in probes(rng, count):
        ch._mover._candidates = world.candidates(ch.shape.aabb(Transform(position)).grown(200.0), (ch,), ch.filter)
        hit = ch._mover._first_hit(position, (tx, ty))
        if hit is not None:
            nudge = float(rng.choice([0.0, 0.3, -0.2, 1.2]))
            position = (position[0] + tx * hit.fraction + hit.normal[0] * nudge,
                        position[1] + ty * hit.fraction + hit.normal[1] * nudge)
        yield position, tuple(rng.normal(0, 30, 2).tolist())


def touch_state(ch: Character) -> tuple:
    return (ch.on_floor, ch.on_wall, ch.on_ceiling, ch.floor_normal, ch.wall_normal, ch.floor_collider,
            ch.floor_point, ch._mover._floor_gap, ch.platform, ch._mover._needs_recovery, ch._mover._dropping)


@pytest.mark.parametrize("seed", range(4))
def test_compiled_touching_and_first_hits_equal_the_movers_own(seed, monkeypatch):
    """``World.touching`` (what the character touches, classified, its floor chosen, in one compiled
    call) and ``World.first_hit`` against the mover's own classification of ``World.contacts`` and
    filtering of ``World.cast``, with an upright and a tilted up vector: the same state and hits, bit for
    bit."""
    world = random_world(seed)
    rng = np.random.default_rng(seed)
    for up in ((0.0, 1.0), (0.6, 0.8)):
        ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), MoverConfig(up=up)))
        both = []
        for position, d in touching_probes(world, ch, rng, 300):
            answers = []
            for compiled in (True, False):
                if not compiled:
                    monkeypatch.setattr(World, "touching", lambda *args: None)
                    monkeypatch.setattr(World, "first_hit", lambda *args: None)
                ch._mover._needs_recovery = False
                ch._mover._classify_contacts(position)
                answers.append((touch_state(ch), ch._mover._first_hit(position, d)))
                monkeypatch.undo()
            assert answers[0] == answers[1], (position, d)
            both.append(answers[0])
        assert sum(state[0] for state, _ in both) > 30 and sum(state[1] for state, _ in both) > 5
        assert sum(hit is not None for _, hit in both) > 30 and sum(state[9] for state, _ in both) > 0
        world.remove(ch)


@pytest.mark.parametrize("seed", range(3))
def test_a_compiled_slide_tells_what_it_touches_where_it_ended_as_the_mover_would(seed, monkeypatch):
    """``World.slide`` asked for what the character touches at the end (one compiled call for both)
    against the slide alone followed by the mover's own classification of ``World.contacts`` there: the
    same slide and the same touching state, bit for bit."""
    world = random_world(seed)
    rng = np.random.default_rng(seed + 10)
    config = MoverConfig()
    ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0), config))
    touched = 0
    for position, d in touching_probes(world, ch, rng, 300):
        velocity = (d[0] * 60.0, d[1] * 60.0)
        grounded = bool(rng.random() < 0.5)
        both = world.slide(ch._mover, position, d, velocity, grounded, ch._mover._candidates, (), touching=True)
        alone = world.slide(ch._mover, position, d, velocity, grounded, ch._mover._candidates, ())
        assert both is not None and alone is not None and both[:4] == alone[:4] and alone[4] is None
        states = []
        for compiled in (True, False):
            ch._mover._touched = (both[2], ch._mover._candidates, both[4]) if compiled else None
            if not compiled:
                monkeypatch.setattr(World, "touching", lambda *args: None)
            ch._mover._needs_recovery = False
            ch._mover._classify_contacts(both[2])
            states.append(touch_state(ch))
            monkeypatch.undo()
        assert states[0] == states[1], (position, d)
        touched += states[0][0] or states[0][1]
    assert touched > 30


def test_the_compiled_floor_choice_takes_the_most_level_of_floors_equally_near_to_a_thousandth(monkeypatch):
    """A gentle ramp crossing a flat floor: where the character stands over the crossing, both are floors and,
    over a few hundredths of a pixel, equally near once rounded to a thousandth (the mover's
    ``round(separation, 3)``); the compiled choice is the mover's (the most level one there), bit for bit."""
    world = World()
    world.add_segments([(-100.0, 0.0)], [(100.0, 0.0)], radius=1.0)
    slope = math.radians(5.0)
    world.add_segments([(-100.0, -100.0 * math.tan(slope))], [(100.0, 100.0 * math.tan(slope))], radius=1.0)
    ch = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 0.0)))
    chosen = []
    for x in np.arange(-10.0, -6.0, 0.0005).tolist():
        position = (x, 16.0 + 1.0 + 0.4)  # the box's bottom 0.4 px above the flat floor's top
        ch._mover._candidates = world.candidates(ch.shape.aabb(Transform(position)).grown(50.0), (ch,))
        states = []
        for compiled in (True, False):
            if not compiled:
                monkeypatch.setattr(World, "touching", lambda *args: None)
            ch._mover._classify_contacts(position)
            states.append(touch_state(ch))
            monkeypatch.undo()
        assert states[0] == states[1], x
        chosen.append(states[0][3])
    assert chosen[0] == (0.0, 1.0) and chosen[-1] != (0.0, 1.0)  # the flat floor, then the ramp


def hills_world() -> World:
    """Ground with 45- and 30-degree ramps up and down, a step, a low ceiling and a ledge overhead."""
    world = World()
    world.add_chain([(-400, 0), (-200, 0), (-160, 40), (-100, 40), (-60, 0), (40, 0), (110, 40), (180, 40),
                     (180, 46), (260, 46), (330, 0), (500, 0), (500, -40), (-400, -40)], radius=1.0, closed=True)
    world.add_segments([(-20.0, 30.0), (200.0, 78.0)], [(30.0, 30.0), (240.0, 78.0)], radius=1.0)
    return world


def crowd_run(world: World, compiled: bool, monkeypatch) -> list[tuple]:
    if not compiled:
        reference_world(monkeypatch)
    config = MoverConfig()
    walkers = [world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (float(x), 60.0), config))
               for x in range(-150, 150, 37)]
    trace = []
    for step in range(240):
        for k, ch in enumerate(walkers):
            phase = (step + 11 * k) % 80
            vy = 520.0 if phase == 0 and ch.on_floor else ch.velocity[1] - 1800.0 / 60.0
            ch.velocity = (220.0 if (step // 60 + k) % 2 else -220.0, vy)
        world.step(1.0 / 60.0)
        trace.append(tuple((ch.position, ch.velocity, ch.on_floor, ch.on_wall, ch.floor_normal) for ch in walkers))
    monkeypatch.undo()
    return trace


@pytest.mark.parametrize("seed, bodies", [(1, True), (4, True), (2, False), (5, False), (None, False)])
def test_characters_move_the_same_with_and_without_the_compiled_queries(seed, bodies, monkeypatch):
    """The compiled casts, contacts and slides (without bodies around, whole slides run compiled) against the
    reference's casts and contacts (``engine.geometry``), the mover sliding cast by cast, step by step: the same
    positions, velocities and flags, bit for bit, on random levels and on one of ramps, a step, a low ceiling and
    a ledge (``seed`` None)."""
    def world() -> World:
        return hills_world() if seed is None else random_world(seed, with_bodies=bodies)

    compiled = crowd_run(world(), True, monkeypatch)
    reference = crowd_run(world(), False, monkeypatch)
    assert compiled == reference
    assert len({trace[0][0] for trace in compiled[-1:]}) >= 1 and compiled[0] != compiled[-1]


@pytest.mark.parametrize("seed", range(4))
def test_the_compiled_grid_query_finds_what_the_broad_phase_does(seed):
    """World.candidates' static segments (one compiled grid query) against the broad phase's Python query and
    the filters checked one by one (neighbours_in), for small, large and huge boxes and filtered levels."""
    world = random_world(seed)
    rng = np.random.default_rng(seed)
    world.add_segments([(0.0, 300.0)], [(50.0, 300.0)], radius=1.0, filter=CollisionFilter(category=2, mask=2))
    world.add_segments([(0.0, 310.0)], [(50.0, 310.0)], radius=1.0, filter=CollisionFilter(group=-3))
    queries = [None, CollisionFilter(category=2, mask=2), CollisionFilter(category=4, mask=1), CollisionFilter(group=-3)]
    boxes = [AABB(-1e12, -1e12, 1e12, 1e12), AABB(-5000, -5000, 5000, 5000), AABB(0, 290, 60, 320)]
    for _ in range(200):
        x, y = rng.uniform(-260, 260, 2)
        w, h = rng.uniform(0, 150, 2) * rng.choice([0.05, 1.0, 3.0])
        boxes.append(AABB(x, y, x + w, y + h))
    for box in boxes:
        for query in queries:
            expected = world.static.neighbours_in(box, None, query or DEFAULT_FILTER)  # as World.gather asked
            found = world.candidates(box, filter=query)
            assert found.segments.tolist() == [n.collider.segment for n in expected]
            assert found.neighbours() == expected
    assert any(len(world.candidates(box).segments) > 10 for box in boxes)


def test_a_crowds_gathers_see_each_character_where_it_is_now():
    """Fifteen characters (a crowd: their boxes are tested in one compiled call, and kept between steps while
    nothing changed): gathers between and during steps find exactly the characters whose boxes touch the
    query box, after moves, teleports, direct position changes, filter changes and a new shape."""
    world = World()
    world.add_segments([(-500.0, 0.0)], [(500.0, 0.0)], radius=1.0)
    crowd = [world.add_character(RoundedPolygon.box(8, 12), (float(x), 20.0)) for x in range(-420, 420, 60)]
    assert len(crowd) == 14
    crowd.append(world.add_character(RoundedPolygon.box(8, 12), (0.0, 200.0)))

    def expected(box, query=DEFAULT_FILTER):
        return [ch for ch in crowd if ch.aabb().overlaps(box) and query.touches(ch.filter)]

    def found(box, query=None):
        return [n.collider.body for n in world.gather(box, filter=query) if n.collider.body is not None]

    probe = AABB(-10, 190, 10, 210)
    for _ in range(5):
        for ch in crowd:
            ch.velocity = (120.0, -50.0)
        world.step(1 / 60)
        for box in (probe, AABB(-500, -50, 500, 50), AABB(-100, 0, 100, 40)):
            assert found(box) == expected(box)
    crowd[3].position = (0.0, 195.0)  # moved by the game between steps
    assert crowd[3] in found(probe) and found(probe) == expected(probe)
    crowd[5].teleport((5.0, 205.0))
    assert found(probe) == expected(probe) and crowd[5] in found(probe)
    crowd[3].filter = CollisionFilter(group=-2)
    query = CollisionFilter(group=-2)
    assert crowd[3] not in found(probe, query) and found(probe, query) == expected(probe, query)
    crowd[8].shape = RoundedPolygon.box(100, 200)  # reshaped by the game: now reaching into the probe
    assert crowd[8] in found(probe) and found(probe) == expected(probe)
    world.remove(crowd[5])
    crowd.remove(crowd[5])
    assert found(probe) == expected(probe)


def test_a_crowd_that_passes_through_itself_is_seen_again_once_a_filter_changes():
    """Twelve characters in one negative group (enemies that pass through each other: their gathers skip the
    crowd's boxes): a gather with that group finds none of them, between steps and after them; once the game
    gives one of them another filter, or moves one into the probe, the gathers see exactly what they touch."""
    world = World()
    world.add_segments([(-500.0, 0.0)], [(500.0, 0.0)], radius=1.0)
    apart = CollisionFilter(group=-1)
    crowd = [world.add_character(Character(RoundedPolygon.box(8, 12), (float(x), 20.0), filter=apart))
             for x in range(-330, 330, 60)]
    probe = AABB(-500, -50, 500, 50)

    def found(query):
        return [n.collider.body for n in world.gather(probe, filter=query) if n.collider.body is not None]

    for _ in range(3):
        world.step(1 / 60)
        assert found(apart) == [] and found(DEFAULT_FILTER) == crowd
    crowd[4].filter = DEFAULT_FILTER  # (the game makes one solid to the others between steps)
    assert found(apart) == [crowd[4]]
    world.step(1 / 60)
    assert found(apart) == [crowd[4]]
    crowd[4].filter = apart
    crowd[6].position = (0.0, 400.0)
    assert found(apart) == [] and crowd[6] not in found(DEFAULT_FILTER)
    crowd[6].position = (0.0, 20.0)
    assert crowd[6] in found(DEFAULT_FILTER)


def test_a_gather_finds_exactly_the_rigid_bodies_whose_boxes_meet_its_box():
    """The rigid bodies a gather returns (found from all their boxes at once) are those whose own boxes
    overlap the query box, as one body at a time would find them: turned boxes, circles, bodies touching
    the box's edge exactly, and bodies game code has just moved."""
    rng = np.random.default_rng(11)
    world = World(gravity=(0.0, 0.0))
    shapes = [RoundedPolygon.box(8, 8, radius=1), RoundedPolygon.box(20, 5), RoundedPolygon.circle(6),
              RoundedPolygon([(0, 0), (12, 0), (5, 9)], radius=0.5)]
    bodies = [world.add_body(RigidBody(shapes[k % 4], tuple(rng.uniform(-300, 300, 2)), angle=rng.uniform(-3, 3)))
              for k in range(80)]
    for trial in range(300):
        if trial % 50 == 25:
            for body in bodies[::3]:
                body.position = tuple(rng.uniform(-300, 300, 2))
        x, y = rng.uniform(-320, 320, 2)
        w, h = rng.uniform(1, 120, 2)
        box = AABB(x, y, x + w, y + h)
        if trial % 10 == 0:  # a box ending exactly where a body's box begins
            edge = bodies[trial % len(bodies)].aabb()
            box = AABB(edge.max_x, edge.min_y, edge.max_x + w, edge.max_y)
        gathered = [n.collider.body for n in world.gather(box) if n.collider.body is not None]
        assert gathered == [b for b in bodies if b.aabb().overlaps(box)]


def test_a_gather_finds_exactly_the_kinematic_bodies_whose_swept_boxes_meet_its_box():
    """Kinematic bodies a gather returns (found from their kept boxes) are those whose boxes, swept over the
    step's motion, overlap the query box, as one body at a time would find them: while they move, while they
    stand, and right after game code moves, reshapes or refilters one between steps; each with its transform
    and swept box as they are now."""
    rng = np.random.default_rng(5)
    world = World(gravity=(0.0, 0.0))
    lifts = [world.add_kinematic(KinematicBody(RoundedPolygon.box(20, 4), tuple(rng.uniform(-300, 300, 2)),
                                               velocity=tuple(rng.uniform(-900, 900, 2)) if k % 2 else (0.0, 0.0)))
             for k in range(30)]

    def swept(lift):
        return lift.aabb().union(lift.shape.aabb(lift.previous_transform))

    spares = [KinematicBody(RoundedPolygon.box(40, 40), tuple(rng.uniform(-300, 300, 2))) for _ in range(10)]
    for trial in range(200):
        if trial % 20 == 0:
            world.step(1 / 60)
        if trial % 20 == 10:
            lifts[trial % 30].position = tuple(rng.uniform(-300, 300, 2))
            lifts[(trial + 7) % 30].shape = RoundedPolygon.box(60, 10)
            lifts[(trial + 3) % 30].angle = float(rng.uniform(0, 3))
        if trial % 20 == 12:  # a filter changed, nothing placed: it no longer touches the default filter
            lifts[trial % 30].filter = CollisionFilter(category=2, mask=2)
        if trial % 20 == 15:  # one taken out and one (made long before) put in: as many as before
            world.remove(world.kinematic_bodies[trial % 7])
            world.add_kinematic(spares.pop())
        x, y = rng.uniform(-320, 320, 2)
        w, h = rng.uniform(1, 150, 2)
        box = AABB(x, y, x + w, y + h)
        gathered = [n for n in world.gather(box) if n.collider.body is not None]
        assert [n.collider.body for n in gathered] == [lift for lift in world.kinematic_bodies
                                                       if swept(lift).overlaps(box) and DEFAULT_FILTER.touches(lift.filter)]
        for n in gathered:  # where each is now, its box swept over the step
            assert n.transform == n.collider.body.transform and AABB(*n.box) == swept(n.collider.body)
    assert not spares and lifts and any(lift.filter is not DEFAULT_FILTER for lift in lifts)


def test_casts_against_bodies_hit_as_the_reference_cast_while_bodies_rest_move_and_turn():
    """A world keeps the Minkowski sum of a cast shape and a body's shape while both stay where they are; its
    casts against crates must equal :func:`~engine.geometry.shape_cast` bit for bit while the crates rest,
    after game code moves or turns them, and for another cast shape."""
    from engine.geometry import shape_cast

    rng = np.random.default_rng(8)
    world = World(gravity=(0.0, 0.0))
    crates = [world.add_body(RigidBody(RoundedPolygon.box(float(rng.uniform(6, 20)), float(rng.uniform(6, 20)), 1.0),
                                       tuple(rng.uniform(-150, 150, 2)), angle=float(rng.uniform(0, 3))))
              for _ in range(12)]
    shapes = [RoundedPolygon.box(10, 16, 2.0), RoundedPolygon.circle(7.0)]
    for trial in range(300):
        if trial % 50 == 25:
            crates[trial % 12].position = tuple(rng.uniform(-150, 150, 2))
            crates[(trial + 5) % 12].angle = float(rng.uniform(0, 3))
        shape = shapes[trial % 2]
        xf = Transform(tuple(rng.uniform(-200, 200, 2)))
        move = tuple(rng.uniform(-300, 300, 2))
        got = [(h.fraction, h.point, h.normal, h.collider.body) for h in world.cast(shape, xf, move)]
        expected = []
        for crate in crates:
            hit = shape_cast(shape, xf, move, crate.shape, crate.transform)
            if hit is not None:
                expected.append((hit.fraction, hit.point, hit.normal, crate))
        assert got == sorted(expected, key=lambda h: h[0])


def test_gathers_while_characters_move_find_the_rigid_bodies_a_fresh_look_finds(monkeypatch):
    """While the characters move in a step the rigid bodies stand still, and gathers use their boxes and
    neighbours made at the first one; each such gather must answer as a gather looking afresh would, while
    characters run into, push and stand on a pile of crates."""
    world = World()
    world.add_chain([(-400.0, 0.0), (400.0, 0.0)], radius=1.0)
    for k in range(24):
        world.add_body(RigidBody(RoundedPolygon.box(10, 10, radius=1), (-150.0 + 13 * (k % 8), 12.0 + 22 * (k // 8)),
                                 angle=0.1 * k))
    runners = [world.add_character(RoundedPolygon.box(8, 12, radius=1), (x, 14.0)) for x in (-300.0, 200.0)]
    compared = []
    candidates = World.candidates

    def checked(self, box, ignore=(), filter=None, kept=None, spare=0.0):
        answer = candidates(self, box, ignore, filter, kept, spare)
        if self._standing is not None:
            standing, self._standing = self._standing, None
            fresh = candidates(self, box, ignore, filter, kept, spare)
            self._standing = standing
            assert answer.neighbours() == fresh.neighbours()
            compared.append(sum(n.collider.body in world.bodies for n in fresh.neighbours()))
        return answer

    monkeypatch.setattr(World, "candidates", checked)
    for step in range(240):
        runners[0].velocity = (260.0, -40.0 if step % 60 else 500.0)
        runners[1].velocity = (-260.0, -40.0)
        world.step(1 / 60)
    assert len(compared) > 400 and sum(1 for found in compared if found) > 100


@pytest.mark.parametrize("seed, bodies", [(3, True), (6, False), (None, False)])
def test_moves_that_take_their_last_gathers_segments_again_move_as_with_fresh_gathers(seed, bodies, monkeypatch):
    """A mover gathers the level's segments with room to spare and takes them again while its moves stay inside
    (World.candidates' ``kept``): walkers running, jumping and bumping on random levels (with crates, platforms
    and a one-way segment) and on the ramps-and-ledge level move bit for bit as when every move gathers afresh;
    and most moves do take them again."""
    def world() -> World:
        built = hills_world() if seed is None else random_world(seed, with_bodies=bodies)
        built.add_segments([(-60.0, 50.0)], [(60.0, 50.0)], radius=1.0, one_way=(0.0, 1.0))
        return built

    candidates = World.candidates
    taken = Counter()

    def counted(self, box, ignore=(), filter=None, kept=None, spare=0.0):
        answer = candidates(self, box, ignore, filter, kept, spare)
        if spare > 0.0:  # (a move's gather; recovery's spot checks and probes gather afresh)
            taken["again" if kept is not None and answer.segments is kept.segments else "fresh"] += 1
        return answer

    monkeypatch.setattr(World, "candidates", counted)
    again = crowd_run(world(), True, monkeypatch)
    monkeypatch.setattr(World, "candidates", lambda self, box, ignore=(), filter=None, kept=None, spare=0.0:
                        candidates(self, box, ignore, filter))
    fresh = crowd_run(world(), True, monkeypatch)
    assert again == fresh
    assert taken["again"] > 4 * taken["fresh"], taken
