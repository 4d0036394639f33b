"""The solve's per-step set-up gives exactly what the per-point arithmetic it replaced gave.

:func:`engine.world.kernel._contact_constants` and :func:`engine.world.warmstart.fill_contact_table` turn
anchors and contact points with each row's cos and sin made once per step (``_row_trig``) instead of for
every point; these tests redo the per-point arithmetic in Python (``math.cos`` of the row's angle at each
use) and ask for equality, not closeness.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from engine.world import kernel as k_
from engine.world.warmstart import _match, carried_rows, fill_contact_table


def random_contacts(seed, rows=7, m=12):
    rng = np.random.default_rng(seed)
    body = np.zeros((rows, k_.BODY_COLUMNS))
    body[:, k_.INV_MASS], body[:, k_.INV_INERTIA] = rng.uniform(0.5, 2, rows), rng.uniform(0.001, 0.01, rows)
    body[:, k_.CENTER_X], body[:, k_.CENTER_Y] = rng.uniform(-100, 100, rows), rng.uniform(-100, 100, rows)
    body[:, k_.ANGLE] = rng.uniform(-4, 4, rows)
    contact = rng.uniform(-20, 20, (m, k_.CONTACT_COLUMNS))
    angle = rng.uniform(-math.pi, math.pi, m)
    contact[:, k_.NX], contact[:, k_.NY] = np.cos(angle), np.sin(angle)
    contact[:, k_.VALID0], contact[:, k_.VALID1] = 1.0, (rng.random(m) < 0.7).astype(float)
    contact[:, k_.STIFF] = (rng.random(m) < 0.5).astype(float)
    pair = np.stack([rng.integers(0, rows, m), rng.integers(0, rows, m)], axis=1).astype(np.int64)
    return body, contact, pair, rng


def test_contact_constants_turn_the_anchors_as_the_per_point_cos_and_sin_did():
    for seed in range(5):
        body, contact, pair, rng = random_contacts(seed)
        params = np.zeros(k_.PARAMETERS)
        params[k_.BLOCK_LIMIT] = 1000.0
        jac, constants = k_._contact_constants(contact, body, rng.normal(0, 50, (len(body), 3)), pair, params,
                                               k_.angle_trig(body[:, k_.ANGLE].copy()))
        for k, (a, b) in enumerate(pair.tolist()):
            nx, ny = contact[k, k_.NX], contact[k, k_.NY]
            for i in range(2):
                on = contact[k, k_.VALID0 + i]
                ca, sa = math.cos(body[a, k_.ANGLE]), math.sin(body[a, k_.ANGLE])
                cb, sb = math.cos(body[b, k_.ANGLE]), math.sin(body[b, k_.ANGLE])
                x, y = contact[k, k_.ANCHOR_A0_X + 2 * i], contact[k, k_.ANCHOR_A0_Y + 2 * i]
                qax, qay = ca * x - sa * y, sa * x + ca * y
                x, y = contact[k, k_.ANCHOR_B0_X + 2 * i], contact[k, k_.ANCHOR_B0_Y + 2 * i]
                qbx, qby = cb * x - sb * y, sb * x + cb * y
                assert jac[k, 1, i + 2, 2] == on * (qay * ny + qax * nx)
                assert jac[k, 1, i + 2, 5] == on * (-qbx * nx - qby * ny)
                gap = (body[b, k_.CENTER_X] - body[a, k_.CENTER_X]) * ny - (body[b, k_.CENTER_Y] - body[a, k_.CENTER_Y]) * nx
                assert constants[k, k_.DRIFT0 + i] == gap + (qbx - qax) * ny - (qby - qay) * nx


def test_fresh_anchors_are_the_points_in_each_rows_frame_as_per_point_cos_and_sin_made_them():
    rng = np.random.default_rng(11)
    m, rows = 15, 6
    center, angle = rng.uniform(-50, 50, (rows, 2)), rng.uniform(-4, 4, rows)
    pair = rng.integers(0, rows, (m, 2)).astype(np.int64)
    point = rng.uniform(-60, 60, (m, 2, 2))
    valid = np.ones((m, 2), dtype=bool)
    none = np.zeros(0, dtype=np.int64)
    _, _, anchors, _ = fill_contact_table(
        none, np.zeros((0, 2), np.int64), np.zeros((0, 2), bool), np.zeros((0, 4)), np.zeros((0, 2), bool),
        np.zeros((0, 2, 4)), np.arange(m, dtype=np.int64), np.zeros((m, 2), np.int64), valid,
        np.tile([0.0, 1.0], (m, 1)), point, np.zeros((m, 2)), np.zeros(m, bool), np.zeros(m, bool), np.zeros(m, bool),
        np.ones(m), np.zeros(m), pair, center, angle)
    for i in range(m):
        for slot in range(2):
            for side in range(2):
                row = pair[i, side]
                c, s = math.cos(angle[row]), math.sin(angle[row])
                rx, ry = point[i, slot, 0] - center[row, 0], point[i, slot, 1] - center[row, 1]
                assert anchors[i, slot, 2 * side] == c * rx + s * ry
                assert anchors[i, slot, 2 * side + 1] == c * ry - s * rx


def test_carried_rows_are_the_key_match():
    """:func:`engine.world.warmstart.carried_rows` maps this step's contacts (in colour order) to the last
    step's rows as the match by key does: through the last colouring when the same pairs were found in the
    same order, by key otherwise (pairs gone or new, another found order, a last set longer than its
    colouring)."""
    rng = np.random.default_rng(5)
    for case in range(40):
        m = int(rng.integers(0, 30))
        found_keys = rng.choice(10**6, m, replace=False).astype(np.int64)
        old_order = rng.permutation(m).astype(np.int64)
        old_keys = found_keys[old_order]
        if case % 4 == 1 and m:  # one pair gone, another new
            old_keys = old_keys.copy()
            old_keys[int(rng.integers(0, m))] = 10**6 + case
        elif case % 4 == 2 and m > 1:  # found in another order
            found_keys = found_keys[rng.permutation(m)]
        elif case % 4 == 3:  # the last set is longer than its colouring (sleepers' contacts carried)
            old_keys = np.concatenate([old_keys, np.array([2 * 10**6 + case], dtype=np.int64)])
        order = rng.permutation(m).astype(np.int64)
        assert np.array_equal(carried_rows(order, found_keys, old_keys, old_order), _match(old_keys, found_keys[order]))


@numba.njit(_nrt=False)
def _carved_without_runtime(flat, out):
    """Carves (3, 2, 4) out of ``flat[4:28]`` without numba's runtime and writes it, doubled, into ``out``."""
    view = k_.shaped(flat[4:28], (3, 2, 4))
    for i in range(3):
        for j in range(2):
            for k in range(4):
                out[i, j, k] = 2.0 * view[i, j, k]


@numba.njit
def _carved(flat, rows):
    return k_.shaped(flat[2:2 + 3 * rows], (rows, 3)), k_.shaped(flat[:rows], (rows,))


def test_shaped_is_reshape_sharing_memory_with_and_without_the_runtime():
    """The step's carving (``kernel.shaped``) gives what ``reshape`` gives, in the flat array's own memory
    (what the kernel writes lands in the buffer), and keeps that memory alive after the buffer is dropped."""
    flat = np.arange(40.0)
    out = np.zeros((3, 2, 4))
    _carved_without_runtime(flat, out)
    assert np.array_equal(out, 2.0 * flat[4:28].reshape((3, 2, 4)))
    for rows in (0, 1, 5):
        table, first = _carved(flat, rows)
        assert table.shape == (rows, 3) and np.array_equal(table, flat[2:2 + 3 * rows].reshape((rows, 3)))
        assert table.flags.c_contiguous and np.array_equal(first, flat[:rows])
    table, _ = _carved(flat, 4)
    table[1, 2] = -1.0
    assert flat[2 + 5] == -1.0
    del flat
    assert table[3].tolist() == [11.0, 12.0, 13.0]
    ints = np.arange(12, dtype=np.int64)
    assert np.array_equal(_carved(ints, 3)[0], ints[2:11].reshape((3, 3)))


def test_a_contact_on_static_geometry_solves_as_its_whole_rows_do():
    """The solve passes and the warm start read and change only B's half of a contact on static geometry (its
    row never moves); the velocities, impulses and largest pushes are those of the whole rows."""
    for seed in range(6):
        body, contact, pair, rng = random_contacts(seed, rows=6, m=14)
        body[0, k_.INV_MASS] = body[0, k_.INV_INERTIA] = 0.0  # row 0: static geometry
        on_level = rng.random(len(pair)) < 0.5
        pair[on_level, 0] = 0
        pair[:, 1] = np.where(pair[:, 1] == 0, 1, pair[:, 1])
        contact[:, k_.FRICTION] = rng.uniform(0.0, 1.0, len(pair))
        params = np.zeros(k_.PARAMETERS)
        params[k_.DT], params[k_.SUBSTEPS], params[k_.BLOCK_LIMIT], params[k_.PUSH_MAX] = 1 / 60, 4, 1000.0, 300.0
        for first in (k_.SOFT_RATE, k_.STIFF_RATE, k_.ANCHOR_RATE):
            params[first:first + 3] = 30.0, 0.8, 0.1
        velocity = rng.normal(0.0, 50.0, (len(body), 3))
        velocity[0] = 0.0
        jac, constants = k_._contact_constants(contact, body, velocity, pair, params,
                                               k_.angle_trig(body[:, k_.ANGLE].copy()))
        impulse, displacement = rng.uniform(0.0, 5.0, (len(pair), 4)), rng.normal(0.0, 0.5, velocity.shape)
        displacement[0] = 0.0
        outcomes = []
        for flagged in (on_level, np.zeros(len(pair), dtype=bool)):
            marked = contact.copy()
            marked[:, k_.STATIC] = flagged.astype(float)
            v, d, acc, pushes = velocity.copy(), displacement.copy(), impulse.copy(), np.zeros((len(pair), 2))
            k_._warm_start(pair, marked, jac, acc, v, np.zeros_like(v))
            for bias in (1.0, 0.0, 1.0):
                k_._solve_pass(pair, marked, jac, constants, acc, np.array([0, len(pair)]), np.zeros(1, dtype=bool), v,
                               d, bias, pushes, params)
            outcomes.append((v, acc, pushes))
        for specialised, whole in zip(*outcomes):
            assert np.array_equal(specialised, whole)
        assert np.all(outcomes[0][0][0] == 0.0)
