"""collide_batch gives what collide gives, pair for pair (collide itself is checked against shapely)."""

import math
import zlib

import numpy as np
import pytest

from engine.geometry import RoundedPolygon, Transform, collide
from engine.geometry.batch import collide_batch, padded_segments, world_polygons


def random_pairs(seed, count, kind_a, kind_b):
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
        return RoundedPolygon.capsule((0, 0), tuple(rng.uniform(-40, 40, 2)), rng.choice([0.0, 1.0, 3.0]))

    pairs = []
    while len(pairs) < count:
        a, b = shape(kind_a), shape(kind_b)
        if a.count != (4 if kind_a != "seg" else 2) or b.count != (4 if kind_b != "seg" else 2):
            continue
        xa = Transform(tuple(rng.uniform(-5, 5, 2)), rng.uniform(-math.pi, math.pi))
        xb = Transform(tuple(rng.uniform(-40, 40, 2)), rng.choice([0.0, rng.uniform(-math.pi, math.pi)]))
        pairs.append((a, xa, b, xb))
    return pairs


def pack(pairs, which):
    shapes = [p[0] if which == "a" else p[2] for p in pairs]
    xfs = [p[1] if which == "a" else p[3] for p in pairs]
    verts = np.array([s.vertices for s in shapes])
    normals = np.array([s.normals for s in shapes])
    pos = np.array([x.position for x in xfs])
    ang = np.array([x.angle for x in xfs])
    wv, wn = world_polygons(verts, normals, pos, ang)
    return wv, wn, np.array([s.radius for s in shapes])


def assert_matches_scalar(pairs, out, margin, a_feature=lambda i: i):
    """Every pair's batch manifold is the scalar ``collide``'s: same points (ids, separations, positions)
    and normal. ``a_feature`` maps the batch's A feature numbers to the scalar ones."""
    compared = 0
    for k, (a, xa, b, xb) in enumerate(pairs):
        m = collide(a, xa, b, xb, margin)
        got = [j for j in (0, 1) if out.valid[k, j]]
        if m is None:
            assert not got, k
            continue
        compared += 1
        assert len(got) == len(m.points), k
        assert np.allclose(out.normal[k], m.normal, atol=1e-9), k
        expected = sorted((p.id, p.separation, p.point) for p in m.points)
        actual = sorted(((a_feature(int(out.id[k, j]) >> 8) << 8) | (int(out.id[k, j]) & 255),
                         float(out.separation[k, j]), tuple(out.point[k, j])) for j in got)
        for (ie, se, pe), (ia, sa, pa) in zip(expected, actual):
            assert ie == ia and math.isclose(se, sa, abs_tol=1e-9) and np.allclose(pe, pa, atol=1e-9), k
    assert compared > 40  # the random pairs really touch often enough to mean something


@pytest.mark.parametrize("kinds", [("box", "box"), ("quad", "box"), ("seg", "box"), ("box", "seg"), ("seg", "seg")])
@pytest.mark.parametrize("margin", [0.0, 4.0])
def test_batch_matches_the_scalar_collide(kinds, margin):
    pairs = random_pairs(zlib.crc32(repr(kinds).encode()), 400, *kinds)  # (hash() of str varies per run)
    va, na, ra = pack(pairs, "a")
    vb, nb, rb = pack(pairs, "b")
    assert_matches_scalar(pairs, collide_batch(va, na, ra, vb, nb, rb, margin), margin)


@pytest.mark.parametrize("count", [2, 4, 5])
@pytest.mark.parametrize("margin", [0.0, 4.0])
def test_segments_padded_to_share_a_batch_with_polygons_collide_as_segments(count, margin):
    """A segment padded to ``count`` vertices (its fake edges masked; 2: not padded) gives the scalar segment's
    manifold; its feature ids number the padded vertices (a, b, b, ..., a), consistently."""
    rng = np.random.default_rng(7 + count)
    pairs = []
    while len(pairs) < 400:
        a, xa, b, xb = random_pairs(int(rng.integers(1 << 30)), 1, "seg", "box")[0]
        if count == 5:
            size = float(rng.uniform(6, 20))
            b = RoundedPolygon([(size * math.cos(2 * math.pi * i / 5), size * math.sin(2 * math.pi * i / 5))
                                for i in range(5)], radius=float(rng.choice([0.0, 1.5])))
        pairs.append((a, xa, b, xb))
    ends = np.array([[xa.apply(a.vertices[0]), xa.apply(a.vertices[1])] for a, xa, _, _ in pairs])
    va, na, fake = padded_segments(ends[:, 0], ends[:, 1], count)
    ra = np.array([p[0].radius for p in pairs])
    vb, nb, rb = pack(pairs, "b")
    out = collide_batch(va, na, ra, vb, nb, rb, margin, fake_a=fake)
    assert_matches_scalar(pairs, out, margin, a_feature=lambda i: i if count == 2 else (0 if i in (0, count - 1) else 1))
