"""Batched contact manifolds: :func:`~engine.geometry.collide` for many polygon pairs at once, with numpy.

``collide_batch`` runs the same algorithm as the scalar ``collide`` (SAT on the cores with the
reference-face hysteresis, the incident face, the vertex-vertex axis for rounded corners, parallel edges
side by side as a line contact, and the reference/incident clip) on P pairs whose cores have the same
vertex counts (``nA`` and ``nB``, both at least 2: boxes, capsules, polygons). Branches become masks, so
every pair costs the same few dozen array operations. Circles are not batched (the scalar path is cheap
for them).

Inputs are world-frame core vertices and outward normals; outputs follow ``collide``: normal from A to B,
up to two points per pair (midway between the surfaces), separation (negative = overlap), feature ids,
and a ``valid`` mask per point.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["BatchManifolds", "collide_batch", "padded_segments", "world_polygons"]

_FLIP_TOLERANCE = 0.01
_DISJOINT_TOLERANCE = 0.01


class BatchManifolds(NamedTuple):
    normal: np.ndarray  # (P, 2)
    point: np.ndarray  # (P, 2, 2): pair, point slot, xy
    separation: np.ndarray  # (P, 2)
    id: np.ndarray  # (P, 2) int64
    valid: np.ndarray  # (P, 2) bool


def world_polygons(local_vertices: np.ndarray, local_normals: np.ndarray, position: np.ndarray,
                   angle: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Core vertices and normals ((K, n, 2) each) of K shapes placed at ``position`` (K, 2), ``angle`` (K,)."""
    c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
    vx, vy = local_vertices[..., 0], local_vertices[..., 1]
    verts = np.stack([c * vx - s * vy + position[:, None, 0], s * vx + c * vy + position[:, None, 1]], axis=-1)
    nx, ny = local_normals[..., 0], local_normals[..., 1]
    normals = np.stack([c * nx - s * ny, s * nx + c * ny], axis=-1)
    return verts, normals


def _take(arr: np.ndarray, index: np.ndarray) -> np.ndarray:
    """arr[p, index[p]] for (P, n, 2) arrays."""
    return arr[np.arange(len(index)), index]


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot products over the last axis of length 2 (numpy reductions along a short last axis are slow)."""
    return a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1]


def _max_separation(v1: np.ndarray, n1: np.ndarray, v2: np.ndarray,
                    fake: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    # sep[p, i] = min over j of n1[p, i] . (v2[p, j] - v1[p, i]), one column j at a time (see _dot);
    # ``fake`` edges (padding) never win.
    nx, ny = n1[..., 0], n1[..., 1]
    d = nx * v2[:, 0, 0:1] + ny * v2[:, 0, 1:2]
    for j in range(1, v2.shape[1]):
        np.minimum(d, nx * v2[:, j, 0:1] + ny * v2[:, j, 1:2], out=d)
    d -= _dot(n1, v1)
    if fake is not None:
        d[fake] = -np.inf
    edge = d.argmax(axis=1)
    return edge, d[np.arange(len(edge)), edge]


def _unit(x: np.ndarray) -> np.ndarray:
    """Clamp to [0, 1] (np.clip costs twice as much on small arrays)."""
    return np.minimum(np.maximum(x, 0.0), 1.0)


def _segment_closest(p1, q1, p2, q2):
    """Vectorised closest points of segments p1-q1 and p2-q2 (fractions exactly 0 or 1 at ends). Divides by
    zero for point-like segments (the masks then pick the other branch): call under ``np.errstate``."""
    d1 = q1 - p1
    d2 = q2 - p2
    r = p1 - p2
    dd1 = _dot(d1, d1)
    dd2 = _dot(d2, d2)
    rd1 = _dot(r, d1)
    rd2 = _dot(r, d2)
    d12 = _dot(d1, d2)
    denom = dd1 * dd2 - d12 * d12
    f1 = np.where(denom != 0.0, _unit((d12 * rd2 - rd1 * dd2) / np.where(denom != 0, denom, 1.0)), 0.0)
    f2 = (d12 * f1 + rd2) / dd2
    low = f2 < 0.0
    high = f2 > 1.0
    f1 = np.where(low, _unit(-rd1 / dd1), np.where(high, _unit((d12 - rd1) / dd1), f1))
    f2 = _unit(f2)
    c1 = p1 + f1[:, None] * d1
    c2 = p2 + f2[:, None] * d2
    return f1, f2, c1, c2


def _parallel_overlap(v11, v12, v21, v22):
    e = v12 - v11
    f = v22 - v21
    le = np.hypot(e[:, 0], e[:, 1])
    lf = np.hypot(f[:, 0], f[:, 1])
    parallel = np.abs(e[:, 0] * f[:, 1] - e[:, 1] * f[:, 0]) <= 0.005 * le * lf
    t = e / le[:, None]
    a = _dot(v21 - v11, t)
    b = _dot(v22 - v11, t)
    overlap = np.minimum(le, np.maximum(a, b)) - np.maximum(0.0, np.minimum(a, b))
    return parallel & (overlap > _DISJOINT_TOLERANCE)


def padded_segments(a: np.ndarray, b: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Segments a-b ((S, 2) each) as cores of ``count`` >= 2 vertices, so that they can share a batch with
    ``count``-gons: vertices a, b, b, ..., a; the real edges are a->b (index 0) and b->a (index count - 2),
    the others have zero length (for ``count`` 2: the plain segment, nothing padded). Returns vertices and
    normals (S, count, 2) and the (S, count) mask of fake edges to pass to :func:`collide_batch` as
    ``fake_a``."""
    e = b - a
    n0 = np.stack([e[:, 1], -e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
    if count == 2:
        return np.stack([a, b], axis=1), np.stack([n0, -n0], axis=1), np.zeros((len(a), 2), dtype=bool)
    verts = np.repeat(b[:, None, :], count, axis=1)
    verts[:, 0] = a
    verts[:, count - 1] = a
    normals = np.repeat(n0[:, None, :], count, axis=1)
    normals[:, count - 2:] = -n0[:, None, :]
    fake = np.ones((len(a), count), dtype=bool)
    fake[:, 0] = fake[:, count - 2] = False
    return verts, normals, fake


def collide_batch(
    va: np.ndarray, na: np.ndarray, ra: np.ndarray,
    vb: np.ndarray, nb: np.ndarray, rb: np.ndarray,
    margin: float = 0.0, fake_a: np.ndarray | None = None,
) -> BatchManifolds:
    """Manifolds of P pairs: A cores ``va`` (P, nA, 2) with normals ``na`` and radii ``ra`` (P,), B likewise.
    ``margin`` is the speculative distance, as in ``collide``. ``fake_a`` (P, nA) marks A's padding edges
    (see :func:`padded_segments`): they are never a reference or incident face. A padded A's feature ids
    number its padded vertices."""
    with np.errstate(divide="ignore", invalid="ignore"):  # (masked branches divide by zero; once per batch)
        return _collide_batch(va, na, ra, vb, nb, rb, margin, fake_a)


def _collide_batch(va, na, ra, vb, nb, rb, margin, fake_a) -> BatchManifolds:
    count = len(va)
    n_a, n_b = va.shape[1], vb.shape[1]
    rows = np.arange(count)
    radius = ra + rb
    edge_a, sep_a = _max_separation(va, na, vb, fake_a)
    edge_b, sep_b = _max_separation(vb, nb, va)
    alive = (sep_a <= margin + radius) & (sep_b <= margin + radius)

    flip = sep_b > sep_a + _FLIP_TOLERANCE
    # Incident edges: the other core's face most anti-parallel to the reference normal.
    ref_normal = np.where(flip[:, None], _take(nb, edge_b), _take(na, edge_a))
    facing_a = _dot(ref_normal[:, None, :], na)
    if fake_a is not None:
        facing_a[fake_a] = np.inf
    inc_a = facing_a.argmin(axis=1)
    inc_b = _dot(ref_normal[:, None, :], nb).argmin(axis=1)
    edge_a = np.where(flip, inc_a, edge_a)
    edge_b = np.where(flip, edge_b, inc_b)
    i11, i12 = edge_a, (edge_a + 1) % n_a
    i21, i22 = edge_b, (edge_b + 1) % n_b

    # Cores apart (or two segments): the closest points of the two edges may make a vertex-vertex contact.
    a1, a2 = va[rows, i11], va[rows, i12]
    b1, b2 = vb[rows, i21], vb[rows, i22]
    disjoint = np.maximum(sep_a, sep_b) > _DISJOINT_TOLERANCE
    if n_a == 2 and n_b == 2:
        disjoint = np.ones(count, dtype=bool)
    maybe = disjoint & ~_parallel_overlap(a1, a2, b1, b2)  # (edges side by side make a line contact)
    vertex = None
    if maybe.any():  # (a pile's faces all lie side by side: it skips this)
        f1, f2, c1, c2 = _segment_closest(a1, a2, b1, b2)
        dvec = c2 - c1
        distance = np.hypot(dvec[:, 0], dvec[:, 1])
        at_ends = ((f1 == 0.0) | (f1 == 1.0)) & ((f2 == 0.0) | (f2 == 1.0))
        vertex = maybe & at_ends & (distance > _DISJOINT_TOLERANCE)
        if not vertex.any():
            vertex = None

    # The clip (reference edge 1, incident edge 2), for everyone; the vertex pairs overwrite it below.
    normal, first, second, sep1, sep2 = _clip_batch(a1, a2, b1, b2, flip, ref_normal, ra, rb)
    # Feature ids (A's feature << 8 | B's): the same formula whichever core is the reference.
    id1 = (i11 << 8) | i22
    id2 = (i12 << 8) | i21

    if vertex is not None:  # vertex-vertex contacts (one point)
        vn = dvec / np.where(distance > 0, distance, 1.0)[:, None]
        v_point = 0.5 * (c1 + ra[:, None] * vn + c2 - rb[:, None] * vn)
        fa = np.where(f1 == 0.0, i11, i12)
        fb = np.where(f2 == 0.0, i21, i22)
        normal = np.where(vertex[:, None], vn, normal)
        first = np.where(vertex[:, None], v_point, first)
        sep1 = np.where(vertex, distance - radius, sep1)
        id1 = np.where(vertex, (fa << 8) | fb, id1)

    point = np.stack([first, second], axis=1)
    separation = np.stack([sep1, sep2], axis=1)
    ids = np.stack([id1, id2], axis=1).astype(np.int64)
    valid = (separation <= margin) & alive[:, None]
    if vertex is not None:
        valid[:, 1] &= ~vertex
    return BatchManifolds(normal, point, separation, ids, valid)



def _clip_batch(a1, a2, b1, b2, flip, n, ra, rb):
    """Clip the incident edge against the reference edge (A's edge a1-a2 unless ``flip``, then B's b1-b2),
    reference normal ``n``: the two contact points (midway between the surfaces), their separations and the
    normal from A to B."""
    v11 = np.where(flip[:, None], b1, a1)
    v12 = np.where(flip[:, None], b2, a2)
    v21 = np.where(flip[:, None], a1, b1)
    v22 = np.where(flip[:, None], a2, b2)
    t = np.stack([-n[:, 1], n[:, 0]], axis=1)
    upper1 = _dot(v12 - v11, t)
    upper2 = _dot(v21 - v11, t)
    lower2 = _dot(v22 - v11, t)
    span = upper2 - lower2
    safe = np.where(span > 1e-12, span, 1.0)
    cut_low = (lower2 < 0.0) & (span > 1e-12)
    cut_high = (upper2 > upper1) & (span > 1e-12)
    v_low = np.where(cut_low[:, None], v22 + ((0.0 - lower2) / safe)[:, None] * (v21 - v22), v22)
    v_up = np.where(cut_high[:, None], v22 + ((upper1 - lower2) / safe)[:, None] * (v21 - v22), v21)
    sep_low = _dot(v_low - v11, n)
    sep_up = _dot(v_up - v11, n)
    r1 = np.where(flip, rb, ra)
    r2 = np.where(flip, ra, rb)
    radius = ra + rb
    p_low = v_low + (0.5 * (r1 - r2 - sep_low))[:, None] * n
    p_up = v_up + (0.5 * (r1 - r2 - sep_up))[:, None] * n
    normal = np.where(flip[:, None], -n, n)
    first = np.where(flip[:, None], p_up, p_low)
    second = np.where(flip[:, None], p_low, p_up)
    sep1 = np.where(flip, sep_up, sep_low) - radius
    sep2 = np.where(flip, sep_low, sep_up) - radius
    return normal, first, second, sep1, sep2
