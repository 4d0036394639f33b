"""Which characters touch each other, step to step: ``begin`` and ``end`` events between characters.

Characters block one another through the mover (each is an obstacle to the others); this part only watches
which pairs touch, so a game can write "an enemy touched the player" as it writes "a crate touched the
floor". A pair touches when the two shapes are within the larger of their ``MoverConfig.touch_margin``\\ s
(px), with :data:`SLACK` to spare, and their filters touch; a pair that touches stops touching only when
:data:`PARTED` px further apart (two characters pushing each other part by a pixel or two for a step now and
then: one touch must make one begin and one end).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..character import Character
from ..types import ContactEvent
from .jit import kernels
from .manifolds import manifold

__all__ = ["CharacterTouches"]

SLACK = 0.1
"""Pixels past the touch margin still counted as touching: the mover holds two characters pressed together
exactly the margin apart, and a pair must not flicker between touching and not with the last bit."""
PARTED = 4.0
"""Pixels past the touch margin (and :data:`SLACK`) a touching pair must part before its end event."""


class CharacterTouches:
    """The pairs of characters that touched at the end of the last step."""

    def __init__(self) -> None:
        self._pairs: dict[tuple[int, int], tuple[Character, Character]] = {}

    @property
    def watching(self) -> bool:
        """Whether some pair touched at the end of the last step (its end event is still to come)."""
        return bool(self._pairs)

    def __getstate__(self) -> dict[str, Any]:
        """A copy keeps the touching pairs by object (their keys are the ids of this process's objects)."""
        return {"pairs": list(self._pairs.values())}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._pairs = {(id(a), id(b)): (a, b) for a, b in state["pairs"]}

    def forget(self, character: Character) -> None:
        """``character`` left the world: its touches are dropped, with no ``end`` event (as for a removed body)."""
        self._pairs = {key: pair for key, pair in self._pairs.items() if character not in pair}

    def events(self, characters: Sequence[Character]) -> list[ContactEvent]:
        """The begin and end events of this step, for ``characters`` where they are now (in the world's
        order: ``a`` is the one added first). A begin event's normal points from ``a`` towards ``b``."""
        if len(characters) < 2 and not self._pairs:
            return []  # (a hero alone, touching no one before: no pair can begin or end; asked every step)
        now = self._touching(characters, self._pairs)
        events = [ContactEvent("begin", a, b, normal) for key, (a, b, normal) in now.items() if key not in self._pairs]
        events += [ContactEvent("end", a, b, (0.0, 0.0)) for key, (a, b) in self._pairs.items() if key not in now]
        self._pairs = {key: (a, b) for key, (a, b, _) in now.items()}
        return events

    @staticmethod
    def _touching(characters: Sequence[Character], before: dict[tuple[int, int], tuple[Character, Character]]
                  ) -> dict[tuple[int, int], tuple[Character, Character, tuple]]:
        """The pairs touching now (those in ``before`` until they parted), with the normal from ``a`` to
        ``b``."""
        if len(characters) < 2:
            return {}
        margins = [ch.config.touch_margin + SLACK for ch in characters]
        touching = {}
        for i, j in _overlapping_pairs(characters, margins):
            a, b = characters[i], characters[j]
            if not a.filter.touches(b.filter):
                continue
            key = (id(a), id(b))
            margin = max(margins[i], margins[j]) + (PARTED if key in before else 0.0)
            touch = manifold(a.shape, a.transform, b.shape, b.transform, margin)
            if touch is not None and touch.separation <= margin:
                touching[key] = (a, b, touch.normal)
        return touching


_FEW = 16
"""Up to this many characters, their boxes are paired in Python (a level's hero and enemies: faster than the
arrays and the compiled sweep, which pay for themselves on crowds)."""


def _overlapping_pairs(characters: Sequence[Character], margins: list[float]) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, in order, of ``characters`` whose boxes grown by their ``margins`` and
    :data:`PARTED` (px) overlap or touch."""
    grown = [m + PARTED for m in margins]
    count = len(characters)
    if count > _FEW:
        at = np.array([ch.position for ch in characters])
        boxes = np.array([ch.shape.local_aabb for ch in characters]) + np.hstack([at, at]) \
            + np.array(grown)[:, None] * [-1.0, -1.0, 1.0, 1.0]
        first, second = kernels().broad_phase.sweep_pairs(boxes, count, np.zeros(count, np.bool_))
        in_order = np.lexsort((second, first))  # (the world's order, whatever the sweep's)
        return list(zip(first[in_order].tolist(), second[in_order].tolist()))
    rows = []
    for ch, g in zip(characters, grown):  # (the same sums as the arrays': box + position, then the margin)
        (x, y), box = ch.position, ch.shape.local_aabb
        rows.append((box.min_x + x - g, box.min_y + y - g, box.max_x + x + g, box.max_y + y + g))
    pairs = []
    for i in range(count - 1):
        low_x, low_y, high_x, high_y = rows[i]
        for j in range(i + 1, count):
            other = rows[j]
            if other[0] <= high_x and low_x <= other[2] and other[1] <= high_y and low_y <= other[3]:
                pairs.append((i, j))
    return pairs
