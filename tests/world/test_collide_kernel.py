"""The compiled manifolds (engine.world.collide_kernel) give what the readable ``engine.geometry.collide``
gives, pair for pair: same normals, points, separations and feature ids (within 1e-9), for polygons of any
vertex counts, capsules, static segments and circles, many pairs of mixed counts in one call. Then the step:
the contacts it gathers are the scalar manifolds, with segment features numbered as before."""

from __future__ import annotations

import importlib
import math
import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import RigidBody, RoundedPolygon, Transform, World
from engine.geometry import collide
from engine.world import collide_kernel
from engine.world.collide_kernel import collide_pairs
from engine.world.contacts import STATIC, RigidScene, collide_all
from engine.world.step_kernel import begin_in
from tests.geometry.oracle import capsules, circles, convex_polygons, transforms

TOLERANCE = 1e-9
polygons = st.one_of(convex_polygons(), capsules())
anything = st.one_of(convex_polygons(), capsules(), circles())
margins = st.sampled_from([0.0, 0.5, 4.0])


def pack(pairs):
    """Flat shape arrays for ``collide_pairs`` from (a, xf_a, b, xf_b) tuples: shapes 2p (A) and 2p + 1 (B)."""
    shapes, places = [], []
    for a, xa, b, xb in pairs:
        shapes += [a, b]
        places += [(*xa.position, xa.angle), (*xb.position, xb.angle)]
    vertices = np.concatenate([np.array(s.vertices, dtype=float) for s in shapes])
    normals = np.concatenate([np.array(s.normals or ((0.0, 0.0),), dtype=float) for s in shapes])
    offsets = np.concatenate([[0], np.cumsum([s.count for s in shapes])])
    radius = np.array([s.radius for s in shapes])
    return vertices, normals, offsets, radius, np.array(places, dtype=float)


def compiled(pairs, margin):
    count = len(pairs)
    return collide_pairs(*pack(pairs), np.arange(0, 2 * count, 2), np.arange(1, 2 * count, 2), margin)


def assert_same(expected, out, k):
    """Pair ``k`` of the compiled output is the scalar manifold ``expected`` (or no contact)."""
    got = [j for j in (0, 1) if out.valid[k, j]]
    if expected is None:
        assert not got, k
        assert out.a_edge[k] == -1
        return
    assert len(got) == len(expected.points), k
    assert np.allclose(out.normal[k], expected.normal, rtol=0, atol=TOLERANCE), k
    # The slots hold the points in the reference's order (it lists only the valid ones).
    for j, p in zip(got, expected.points):
        assert int(out.id[k, j]) == p.id, k
        assert math.isclose(out.separation[k, j], p.separation, rel_tol=0, abs_tol=TOLERANCE), k
        assert np.allclose(out.point[k, j], p.point, rtol=0, atol=TOLERANCE), k
    for j in set((0, 1)) - set(got):
        assert out.separation[k, j] == math.inf, k


def assert_matches_reference(pairs, margin):
    out = compiled(pairs, margin)
    for k, (a, xa, b, xb) in enumerate(pairs):
        assert_same(collide(a, xa, b, xb, margin), out, k)
    return out


@given(polygons, transforms, polygons, transforms, margins)
def test_one_polygon_pair_matches_the_reference(a, xa, b, xb, margin):
    assert_matches_reference([(a, xa, b, xb)], margin)


@given(anything, transforms, anything, transforms, margins)
def test_one_pair_of_any_shapes_matches_the_reference(a, xa, b, xb, margin):
    assert_matches_reference([(a, xa, b, xb)], margin)


@given(st.lists(st.tuples(anything, transforms, anything, transforms), min_size=1, max_size=6), margins)
def test_many_pairs_of_mixed_vertex_counts_in_one_call_match_the_reference(pairs, margin):
    assert_matches_reference(pairs, margin)


@given(anything, transforms, st.data())
def test_close_pairs_match_the_reference(a, xa, data):
    """B placed near A (random transforms are mostly far apart): touching, resting and deep pairs."""
    b = data.draw(anything)
    angle = data.draw(st.floats(-math.pi, math.pi))
    offset = data.draw(st.tuples(st.floats(-30, 30), st.floats(-30, 30)))
    xb = Transform((xa.position[0] + offset[0], xa.position[1] + offset[1]), angle)
    assert_matches_reference([(a, xa, b, xb)], data.draw(margins))


def random_pairs(seed, count, kind_a, kind_b):
    """``count`` random pairs of boxes, quads or segments (capsules), placed so that many of them touch."""
    rng = np.random.default_rng(seed)

    def shape(kind):
        if kind == "box":
            hw, hh = rng.uniform(4, 24, 2)
            return RoundedPolygon.box(hw, hh, radius=rng.choice([0.0, 1.0, min(hw, hh) * 0.5]))
        if kind == "quad":
            while True:
                try:
                    return RoundedPolygon.hull(rng.uniform(-20, 20, (4, 2)), rng.choice([0.0, 2.0]))
                except Exception:
                    continue
        if kind == "pentagon":
            size = float(rng.uniform(6, 20))
            return RoundedPolygon([(size * math.cos(2 * math.pi * i / 5), size * math.sin(2 * math.pi * i / 5))
                                   for i in range(5)], radius=float(rng.choice([0.0, 1.5])))
        return RoundedPolygon.capsule((0, 0), tuple(rng.uniform(-40, 40, 2)), rng.choice([0.0, 1.0, 3.0]))

    wanted = {"box": 4, "quad": 4, "pentagon": 5, "seg": 2}
    pairs = []
    while len(pairs) < count:
        a, b = shape(kind_a), shape(kind_b)
        if a.count != wanted[kind_a] or b.count != wanted[kind_b]:
            continue
        xa = Transform(tuple(rng.uniform(-5, 5, 2)), rng.uniform(-math.pi, math.pi))
        xb = Transform(tuple(rng.uniform(-40, 40, 2)), rng.choice([0.0, rng.uniform(-math.pi, math.pi)]))
        pairs.append((a, xa, b, xb))
    return pairs


@pytest.mark.parametrize("kinds", [("box", "box"), ("quad", "box"), ("seg", "box"), ("box", "seg"), ("seg", "seg"),
                                   ("seg", "pentagon"), ("pentagon", "quad")])
@pytest.mark.parametrize("margin", [0.0, 4.0])
def test_random_pairs_match_the_reference(kinds, margin):
    pairs = random_pairs(zlib.crc32(repr(kinds).encode()), 400, *kinds)  # (hash() of str varies per run)
    out = assert_matches_reference(pairs, margin)
    assert (out.valid.any(axis=1)).sum() > 40  # the random pairs really touch often enough to mean something


@pytest.mark.parametrize("margin", [0.0, 4.0])
def test_static_segments_at_the_world_origin_against_bodies_match_the_reference(margin):
    """Segments as the step gives them: world-frame ends, placed at (0, 0, 0), always shape A."""
    rng = np.random.default_rng(11)
    pairs = []
    for a, xa, b, xb in random_pairs(5, 300, "seg", "box") + random_pairs(6, 300, "seg", "pentagon"):
        ends = [xa.apply(v) for v in a.vertices]
        pairs.append((RoundedPolygon.capsule(ends[0], ends[1], a.radius), Transform(), b,
                      Transform(xb.position, float(rng.uniform(-math.pi, math.pi)))))
    assert_matches_reference(pairs, margin)


@pytest.mark.parametrize("margin", [0.0, 4.0])
def test_circles_against_everything_match_the_reference(margin):
    """Circles as A and as B against circles, segments, boxes and pentagons, centres inside and outside the
    other's core, on a vertex, on a segment."""
    rng = np.random.default_rng(12)
    others = [RoundedPolygon.circle(4), RoundedPolygon.capsule((-10, 0), (10, 0), 0.0),
              RoundedPolygon.capsule((0, 0), (8, 6), 2), RoundedPolygon.box(8, 5),
              RoundedPolygon.box(8, 5, radius=2), random_pairs(1, 1, "pentagon", "box")[0][0]]
    pairs = []
    for k in range(600):
        circle = RoundedPolygon.circle(float(rng.uniform(0.5, 9)), tuple(rng.uniform(-3, 3, 2)))
        other = others[k % len(others)]
        xc = Transform(tuple(rng.uniform(-18, 18, 2)), float(rng.uniform(-math.pi, math.pi)))
        xo = Transform(tuple(rng.uniform(-2, 2, 2)), float(rng.choice([0.0, rng.uniform(-math.pi, math.pi)])))
        if k % 10 == 0:  # the centre exactly on the other's core: a vertex, or a segment's middle
            on = other.vertices[0] if other.count != 2 else tuple(0.5 * (u + v) for u, v in zip(*other.vertices))
            xc = Transform(tuple(np.subtract(xo.apply(on), circle.vertices[0])), 0.0)
        pairs.append((circle, xc, other, xo) if k % 2 else (other, xo, circle, xc))
    out = assert_matches_reference(pairs, margin)
    assert out.valid.any(axis=1).sum() > 150


def test_the_tolerances_are_the_reference_s():
    reference = importlib.import_module("engine.geometry.collide")  # (the package's ``collide`` is the function)
    assert collide_kernel.FLIP_TOLERANCE == reference._FLIP_TOLERANCE
    assert collide_kernel.DISJOINT_TOLERANCE == reference._DISJOINT_TOLERANCE


# ------------------------------------------------------------------------------------------------ the step
def scene_contacts(shapes_and_places):
    """The contacts the step gathers for bodies on a floor of two joined segments (all awake)."""
    world = World()
    world.add_chain([(-300, 0), (0, 0), (300, 0)], radius=2.0)
    bodies = [world.add_body(RigidBody(shape, position, angle=angle)) for shape, position, angle in shapes_and_places]
    rigid = world._rigid  # (what the step hands collide_all, built as the step builds it)
    table = rigid.table()
    begin_in(table.memory, rigid.body_state, False)  # (the start placement, into the memory the gathering reads)
    scene = RigidScene(world.static, [], [], world.gravity, world.physics, world.static_friction)
    margin = world.physics.speculative_distance
    found, _ = collide_all(scene, bodies, table, None)
    return world, found, margin


MIXED = [RoundedPolygon.box(16, 16, radius=1), RoundedPolygon.box(30, 6), RoundedPolygon.capsule((-12, 0), (12, 0), 5),
         RoundedPolygon([(-12, -8), (12, -8), (0, 12)], radius=0.5), RoundedPolygon.circle(9),
         RoundedPolygon([(14 * math.cos(2 * math.pi * i / 5), 14 * math.sin(2 * math.pi * i / 5)) for i in range(5)],
                        radius=1.0)]


def padded_to_segment_feature(feature_a, body_count):
    """A segment feature as the step numbers it (padded to the body's vertex count) -> the scalar's (a 0, b 1).
    Circles (one vertex) take the scalar path and its numbering."""
    if body_count <= 2:
        return feature_a
    return 0 if feature_a in (0, body_count - 1) else 1


def test_the_step_gathers_the_reference_manifolds_for_a_pile_of_mixed_shapes():
    rng = np.random.default_rng(3)
    placed = [(MIXED[i % len(MIXED)], (float(-250 + 40 * (i % 13) + rng.uniform(-6, 6)),
                                       float(14 + 26 * (i // 13) + rng.uniform(-4, 4))), float(rng.uniform(-0.4, 0.4)))
              for i in range(52)]
    world, found, margin = scene_contacts(placed)
    bp = world.static.broadphase
    kinds = set()
    for i in range(len(found.keys)):
        a, b = found.a[i], found.b[i]
        if found.a_kind[i] == STATIC:
            expected = collide(bp.shape(a), Transform(), b.shape, b.transform, margin)
        else:
            expected = collide(a.shape, a.transform, b.shape, b.transform, margin)
        got = [j for j in (0, 1) if found.valid[i, j]]
        assert expected is not None and len(got) == len(expected.points), i
        assert np.allclose(found.normal[i], expected.normal, rtol=0, atol=TOLERANCE), i
        for j, p in zip(got, expected.points):
            feature_a, feature_b = int(found.ids[i, j]) >> 8, int(found.ids[i, j]) & 255
            if found.a_kind[i] == STATIC:
                feature_a = padded_to_segment_feature(feature_a, b.shape.count)
            assert (feature_a << 8 | feature_b) == p.id, i
            assert math.isclose(found.separation[i, j], p.separation, rel_tol=0, abs_tol=TOLERANCE), i
            assert np.allclose(found.point[i, j], p.point, rtol=0, atol=TOLERANCE), i
        counts = (0 if found.a_kind[i] == STATIC else a.shape.count, b.shape.count)
        kinds.add(counts)
    assert len(kinds) >= 8  # many vertex-count combinations, on the floor and between bodies
    assert any(k[0] == 0 for k in kinds) and any(k[0] > 0 for k in kinds)


@pytest.mark.parametrize("shape", [MIXED[0], MIXED[2], MIXED[5]], ids=["box", "capsule", "pentagon"])
def test_a_body_on_the_floor_s_top_face_names_the_segment_s_vertices_as_the_padded_batches_did(shape):
    """The floor runs left to right, so its top is the segment's back face (b -> a): seen from there, a body
    of n vertices names b ``n - 2`` and a ``n - 1`` (n > 2), as the segment padded to n vertices did."""
    bottom = -shape.local_aabb.min_y
    _, found, _ = scene_contacts([(shape, (-150.0, 2.0 + bottom - 0.2), 0.0)])
    assert len(found.keys) == 1 and found.a_kind[0] == STATIC
    n = shape.count
    features = {int(found.ids[0, j]) >> 8 for j in (0, 1) if found.valid[0, j]}
    assert features <= ({n - 2, n - 1} if n > 2 else {0, 1}) and features


def loose_pile_with_a_circle_on_the_joint():
    rng = np.random.default_rng(5)
    return [(MIXED[i % len(MIXED)], (float(-250 + 40 * (i % 13) + rng.uniform(-6, 6)),
                                     float(14 + 30 * (i // 13) + rng.uniform(-4, 4))), float(rng.uniform(-0.4, 0.4)))
            for i in range(52)] + [(MIXED[4], (0.0, 2.0 + 9.0 - 0.2), 0.0)]


def box_on_a_box_on_the_floor():
    box = RoundedPolygon.box(16, 16, radius=1)
    return [(box, (-100.0, 2.0 + 9.0 - 0.2 + 17.8 * level), 0.0) for level in range(2)]


def leans_over_neighbour(static, segment, point, normal):
    """The seam rule in plain Python (the compiled one's reference): a one-point contact at an end cap of
    ``segment`` that another segment shares, whose ``normal`` leans over that other segment."""
    ends, order, group_start, group_size = static.joint_table()
    count = len(ends) // 2
    (ax, ay), (bx, by) = ends[segment].tolist(), ends[segment + count].tolist()
    ex, ey = bx - ax, by - ay
    t = (point[0] - ax) * ex + (point[1] - ay) * ey
    if 0.0 < t < ex * ex + ey * ey:
        return False
    here = segment if t <= 0.0 else segment + count
    hx, hy = ends[here].tolist()
    for other in order[group_start[here]:group_start[here] + group_size[here]].tolist():
        if other % count == segment:
            continue
        fx, fy = ends[(other + count) % (2 * count)].tolist()
        length = math.hypot(fx - hx, fy - hy)
        if length > 0:
            ux, uy = (fx - hx) / length, (fy - hy) / length
            if normal[0] * ux + normal[1] * uy > 1e-6:
                return True
    return False


def boxes_turned_past_the_joint():
    """A box turned 0.5 rad, its lowest corner just past the floor's joint (x = 0), and one touching it: that
    corner meets the left segment's end cap within the speculative distance, with a normal leaning over the
    right segment (the seam rule drops that contact)."""
    box = RoundedPolygon.box(16, 16, radius=1)
    return [(box, (10.0, 12.0), 0.5), (box, (27.0, 12.0), 0.5)]


@pytest.mark.parametrize("placed, case", [(loose_pile_with_a_circle_on_the_joint(), "some kept"),
                                          (box_on_a_box_on_the_floor(), "all kept"),
                                          (boxes_turned_past_the_joint(), "seam rule")], ids=lambda x: str(x)[:12])
def test_gathering_keeps_the_pairs_with_a_point_in_order_without_the_seam_rule_s(placed, case):
    """``gather_manifolds`` copies the kept rows of every output (static pairs first): those with a point,
    less the seam rule's (one point at a shared end cap, leaning over the neighbour), as masking each stage's
    outputs in numpy and the rule in plain Python give them."""
    import engine.world.contacts as contacts

    world, _, margin = scene_contacts(placed)
    ck, table, bp = collide_kernel, contacts.ShapeTable(world.bodies), world.static.broadphase
    side, joint = contacts.segment_sides(bp), world.static.joint_flags()  # (as the step has them)
    position = np.array([b.position for b in world.bodies], dtype=float)
    angle = np.array([b.angle for b in world.bodies], dtype=float)
    placement, boxes, trig = ck.placed_boxes(table.vertices, table.offsets, table.radius, position, angle, margin)
    count, segments = len(world.bodies), len(bp.a)  # (every segment a candidate of every body: the box test sorts)
    candidate_body, candidate_segment = np.repeat(np.arange(count), segments), np.tile(np.arange(segments), count)
    lo, hi = ck.sweep_pairs(boxes, np.arange(count), table.ids, np.zeros(count, dtype=bool))
    asleep = np.zeros(count, dtype=bool)
    args = (table.vertices, table.normals, table.offsets, table.radius, placement, trig, bp.a, bp.b, side,
            bp.radius, bp.aabbs, joint, world.static.joint_table(), boxes, table.ids, table.count,
            candidate_body, candidate_segment, lo, hi, margin, asleep, 0.25)
    ks, sg = ck._static_touching(candidate_body, candidate_segment, bp.aabbs, boxes)
    shapes = ck._with_segments(table.vertices, table.normals, table.offsets, table.radius, trig, bp.a, bp.b,
                               side, bp.radius, sg)
    bodies, ids, count = len(table.offsets) - 1, table.ids, table.count
    pair_a, pair_b = np.concatenate([bodies + np.arange(len(ks)), lo]), np.concatenate([ks, hi])
    a_rows = np.concatenate([sg, lo])
    normal, point, sep, fid, valid, edge = ck._manifolds(*shapes[:4], placement, shapes[4], pair_a, pair_b, margin)
    with_point, keys, seam = ck._kept_rows(len(ks), a_rows, pair_b.copy(), ids, count, fid, valid, edge,
                                           joint)
    dropped = np.array([bool(seam[p]) and leans_over_neighbour(world.static, int(a_rows[p]), point[p, 0].tolist(),
                                                                normal[p].tolist()) for p in range(len(seam))])
    keep = with_point & ~dropped
    kind = np.where(np.arange(len(keep)) < len(ks), 0, 3)
    a_index = np.where(np.arange(len(keep)) < len(ks), -1, a_rows)
    nearest = np.where(valid, sep, np.inf).min(axis=1)
    expected = (keys[keep], kind[keep], a_rows[keep], a_index[keep], pair_b[keep], fid[keep], normal[keep], point[keep],
                sep[keep], nearest[keep], valid[keep], nearest[keep] < 0.25)
    ints, floats, flags, wakers, static_count = ck.gather_manifolds(*args)
    got = ck.found_arrays(ints, floats, flags)
    assert len(wakers) == 0 and static_count == np.count_nonzero(keep[:len(ks)])  # (nothing sleeps)
    assert keep[:len(ks)].any() and keep[len(ks):].any()
    assert {"some kept": not with_point.all() and seam[with_point].any() and not dropped.any(),
            "all kept": keep.all(), "seam rule": dropped.any()}[case]
    assert all(np.array_equal(g, e) and np.asarray(g).dtype == np.asarray(e).dtype for g, e in zip(got, expected))
