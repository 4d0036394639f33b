"""Sleep (compiled): rest times, and groups of touching bodies (islands) that fall asleep together.

A body rests while it moves no faster than the sleep velocity (px/s), its farthest corner included. Once any
has rested ``time_to_sleep`` seconds, each group of awake bodies joined by touching contacts whose every member
has rested that long falls asleep (flag set, velocity zeroed); a body touching a moving kinematic body or
character keeps resting from zero. Groups are found with union-find over the contacts.
"""

from __future__ import annotations


import numpy as np

from .compile import helper, kernel
from .vector import length
from .layout import A, B, DYNAMIC, KIND, SLEEP_TIME, SLEEPING, TOUCHING, VX

__all__ = ["rest_and_sleep"]


@helper
def _join_touching(parent, row_of_body, ints, count):
    """Union-find over the touching contacts between awake bodies: each group's root is its least row. Every
    find in one call, its loops inside (a helper taking ``parent`` once a contact would count references on it
    at every call)."""
    for k in range(count):
        if ints[k, TOUCHING] and ints[k, KIND] == DYNAMIC:
            a, b = row_of_body[ints[k, A]], row_of_body[ints[k, B]]
            if a >= 0 and b >= 0:
                while parent[a] != a:  # (path halving)
                    parent[a] = parent[parent[a]]
                    a = parent[a]
                while parent[b] != b:
                    parent[b] = parent[parent[b]]
                    b = parent[b]
                parent[max(a, b)] = min(a, b)


@helper
def _point_at_roots(parent):
    """Every entry of a union-find's ``parent`` set to its group's root (rows in ascending order: a row's
    parent is lower, and already points at its root)."""
    for r in range(len(parent)):
        parent[r] = parent[parent[r]]


@kernel
def rest_and_sleep(state, awake, extent, dt, sleep_velocity, time_to_sleep, ints, count, held):
    """Count how long each awake body (``awake``: their rows, ascending) has rested, from its velocity in
    ``state`` (``extent``: each body's, px); put resting groups to sleep. ``ints``: the step's contacts (the
    first ``count``); ``held``: per body, whether it touches a moving mover. Writes ``state``."""
    n = len(awake)
    rested, ready = np.empty(n), False
    for r in range(n):
        body = awake[r]
        resting = (length(state[body, VX], state[body, VX + 1]) <= sleep_velocity
                   and abs(state[body, VX + 2]) * extent[body] <= sleep_velocity)
        rested[r] = state[body, SLEEP_TIME] + dt if resting else 0.0
        ready = ready or rested[r] >= time_to_sleep
    row_of_body = np.full(len(state), -1, np.int64)
    for r in range(n):
        row_of_body[awake[r]] = r
        if ready and held[awake[r]]:
            rested[r] = 0.0
        state[awake[r], SLEEP_TIME] = rested[r]
    if not ready:
        return
    parent = np.arange(n)
    _join_touching(parent, row_of_body, ints, count)
    _point_at_roots(parent)
    least = np.full(n, np.inf)
    for r in range(n):
        least[parent[r]] = min(least[parent[r]], rested[r])
    for r in range(n):
        if least[parent[r]] >= time_to_sleep:
            state[awake[r], SLEEPING] = 1.0
            for j in range(3):
                state[awake[r], VX + j] = 0.0
