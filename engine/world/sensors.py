"""Sensors: regions that report overlaps with characters and rigid bodies as begin / end events.

:class:`SensorSet` owns the world's sensors and what each one overlapped after the last step.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bodies import SENSOR_PLACEMENTS, Sensor
from ..geometry import touching_pairs
from ..types import ContactEvent
from .manifolds import manifold

__all__ = ["SensorSet"]

_FEW = 16
"""Up to this many characters and bodies, a step first asks whether any is near a sensor box by box in Python
(a few microseconds less than the array calls, which are the whole cost when nothing is near)."""


class SensorSet:
    """The world's sensors, in the order they were added, and their overlaps of the last step."""

    def __init__(self) -> None:
        self.sensors: list[Sensor] = []
        self._inside: dict[int, dict[int, Any]] = {}
        """id(sensor) -> {id(other): other} overlapping after the last step; only sensors something is in."""
        self._changes = 0
        """How many times a sensor was added or removed."""
        self._index: _SensorIndex | None = None
        """The sensors' boxes, sorted for look-ups, as they were when made (see :meth:`_sensor_index`)."""
        self._checked: dict[tuple[int, int], tuple[tuple, bool]] = {}
        """(id(sensor), id(other)) -> (both placements and shapes, whether they overlapped): the last step's
        exact tests, reused while neither moved nor changed shape (a coin over a resting crate is tested every
        step otherwise: nine tenths of level 2's tests)."""

    def __getstate__(self) -> dict[str, Any]:
        """What a copy keeps (``copy.deepcopy``, pickling: a search that tries moves on copies of a world):
        the overlaps by object, not by the ids of this process's objects; the caches are made again."""
        by_sensor = {id(sensor): sensor for sensor in self.sensors}
        inside = [(by_sensor[key], list(others.values())) for key, others in self._inside.items() if key in by_sensor]
        return {"sensors": self.sensors, "inside": inside, "changes": self._changes}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]
        self.sensors, self._changes = state["sensors"], state["changes"]
        self._inside = {id(sensor): {id(other): other for other in others} for sensor, others in state["inside"]}

    def add(self, sensor: Sensor) -> Sensor:
        self.sensors.append(sensor)
        self._changes += 1
        return sensor

    def remove(self, sensor: Sensor) -> None:
        self.sensors.remove(sensor)
        self._changes += 1
        self._inside.pop(id(sensor), None)

    def forget(self, other: object) -> None:
        """``other`` left the world: no sensor overlaps it any more (and no end event is owed for it)."""
        for key in list(self._inside):
            self._inside[key].pop(id(other), None)
            if not self._inside[key]:
                del self._inside[key]

    def sense(self, others: Sequence[Any], boxes: np.ndarray | Sequence[Sequence[float]] | None = None
              ) -> list[ContactEvent]:
        """Begin / end events of every sensor against ``others`` (characters and rigid bodies: anything with
        ``shape``, ``transform`` and ``filter``), in sensor order. ``boxes``: the others' boxes ((len(others),
        4) px, an array or a sequence of (min x, min y, max x, max y), at least as large as their shapes'
        boxes), when the caller has them. A disabled sensor overlaps nothing (its overlaps end). Only the sensors
        that something is near or was in are looked at."""
        events: list[ContactEvent] = []
        checked: dict[tuple[int, int], tuple[tuple, bool]] = {}
        near = self._near_pairs(others, boxes)
        inside = self._inside
        if inside:
            row_of = self._sensor_index().row_of
            for key in inside:
                near.setdefault(row_of[key], [])
        for index in sorted(near):
            sensor = self.sensors[index]
            before = inside.get(id(sensor), {})
            now = self._overlapping(sensor, [others[k] for k in near[index]], checked) if sensor.enabled else {}
            for key, entered in now.items():
                if key not in before:
                    events.append(ContactEvent("begin", sensor, entered, (0.0, 0.0)))
            for key, left in before.items():
                if key not in now:
                    events.append(ContactEvent("end", sensor, left, (0.0, 0.0)))
            if now:
                inside[id(sensor)] = now
            else:
                inside.pop(id(sensor), None)
        self._checked = checked
        return events

    def _near_pairs(self, others: Sequence[Any], boxes: np.ndarray | Sequence[Sequence[float]] | None
                    ) -> dict[int, list[int]]:
        """Sensor index -> the indices of ``others`` whose boxes overlap its box (ascending)."""
        if not others or not self.sensors:
            return {}
        if boxes is None:
            boxes = np.array([other.shape.aabb(other.transform) for other in others], dtype=np.float64)
        pairs: dict[int, list[int]] = {}
        for sensor, other in zip(*self._sensor_index().touching(boxes)):
            pairs.setdefault(sensor, []).append(other)
        return pairs

    def _sensor_index(self) -> _SensorIndex:
        """The sensors' boxes, made again only when a sensor was added, removed, moved, turned or reshaped
        (game code may do any of those between steps; most sensors never move)."""
        index = self._index
        if index is None or index.key != (SENSOR_PLACEMENTS.count, self._changes) or index.moved_in_place():
            index = self._index = _SensorIndex(self.sensors, (SENSOR_PLACEMENTS.count, self._changes))
        return index

    def _overlapping(self, sensor: Sensor, near: list[Any], checked: dict) -> dict[int, Any]:
        """Which of the ``near`` characters and bodies (in their order) overlap ``sensor``. Each exact test is
        put in ``checked`` (this step's tests)."""
        found: dict[int, Any] = {}
        if not near:
            return found
        xf = sensor.transform
        for other in near:
            if not sensor.filter.touches(other.filter):
                continue
            key, other_xf = (id(sensor), id(other)), other.transform
            placed = (sensor, sensor.shape, xf.position, xf.angle, other, other.shape, other_xf.position, other_xf.angle)
            last = self._checked.get(key)
            if last is not None and last[0] == placed:
                overlaps = last[1]
            else:
                m = manifold(sensor.shape, xf, other.shape, other_xf)
                overlaps = m is not None and m.separation < 0.0
            checked[key] = (placed, overlaps)
            if overlaps:
                found[id(other)] = other
        return found


class _SensorIndex:
    """The sensors' boxes sorted by their left sides, so that a step looks only at the sensors near the moving
    things: a level may hold thousands of coins and hazards, most out of everyone's reach. Sensors much wider
    than most (a kill zone along a level) are kept apart and tested against everything."""

    def __init__(self, sensors: list[Sensor], key: tuple[int, int]) -> None:
        self.key = key
        self.listed = [(s, tuple(s.position)) for s in sensors if not isinstance(s.position, tuple)]
        """The sensors placed by a list (which game code may change in place), and where they were."""
        self.row_of = {id(sensor): k for k, sensor in enumerate(sensors)}
        """Each sensor's index, by its id."""
        boxes = np.array([s.aabb() for s in sensors], dtype=np.float64).reshape(-1, 4)
        widths = boxes[:, 2] - boxes[:, 0]
        wide = widths > 4.0 * float(np.median(widths)) + 64.0 if len(boxes) else np.zeros(0, np.bool_)
        self.wide = np.flatnonzero(wide)
        narrow = np.flatnonzero(~wide)
        self.order = narrow[np.argsort(boxes[narrow, 0], kind="stable")]
        """The narrow sensors' indices by their boxes' left sides."""
        self.boxes = boxes
        self.left = boxes[self.order, 0]
        self.widest = float(widths[narrow].max()) if len(narrow) else 0.0
        self.lefts: list[float] = self.left.tolist()
        """:attr:`left` as a list, for a few look-ups without array calls."""
        self.listed_boxes: list[list[float]] = boxes.tolist()
        self.listed_order: list[int] = self.order.tolist()
        self.listed_wide: list[int] = self.wide.tolist()
        """:attr:`boxes`, :attr:`order` and :attr:`wide` as lists, for :meth:`_few_touching`."""

    def moved_in_place(self) -> bool:
        """Whether a sensor placed by a list was moved by changing that list."""
        return any(tuple(sensor.position) != where for sensor, where in self.listed)

    def touching(self, others: np.ndarray | Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
        """Every (sensor index, other index) whose boxes overlap or touch (``others``: (n, 4) px, an array or a
        sequence of boxes), ordered by sensor, then other."""
        if len(others) <= _FEW:  # (the usual step: a hero and a few enemies, found without array calls)
            return self._few_touching(others.tolist() if isinstance(others, np.ndarray) else others)
        others = np.asarray(others, dtype=np.float64).reshape(-1, 4)
        lo = np.searchsorted(self.left, others[:, 0] - self.widest, side="left")
        hi = np.searchsorted(self.left, others[:, 2], side="right")
        counts = hi - lo
        if not len(self.wide) and not counts.any():  # (the usual step: nothing near any sensor)
            return [], []
        other = np.repeat(np.arange(len(others)), counts)
        starts = np.repeat(lo - (np.cumsum(counts) - counts), counts)
        sensor = self.order[np.arange(len(other)) + starts]
        if len(self.wide):
            wide, wide_other = touching_pairs(self.boxes[self.wide], others)
            sensor = np.concatenate([sensor, self.wide[wide]])
            other = np.concatenate([other, wide_other])
        a, b = self.boxes[sensor], others[other]
        keep = (b[:, 0] <= a[:, 2]) & (b[:, 2] >= a[:, 0]) & (b[:, 1] <= a[:, 3]) & (b[:, 3] >= a[:, 1])
        sensor, other = sensor[keep], other[keep]
        ordered = np.lexsort((other, sensor))
        return sensor[ordered].tolist(), other[ordered].tolist()

    def _few_touching(self, others: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
        """:meth:`touching` of a few ``others`` (boxes), box by box: the narrow sensors whose left sides lie
        where the box could meet them (found by bisection, as the arrays' search sorted), then the wide ones."""
        lefts, widest, boxes, order = self.lefts, self.widest, self.listed_boxes, self.listed_order
        pairs = []
        for k, (min_x, min_y, max_x, max_y) in enumerate(others):
            for sensor in [order[p] for p in range(bisect_left(lefts, min_x - widest), bisect_right(lefts, max_x))] \
                    + self.listed_wide:
                low_x, low_y, high_x, high_y = boxes[sensor]
                if min_x <= high_x and max_x >= low_x and min_y <= high_y and max_y >= low_y:
                    pairs.append((sensor, k))
        pairs.sort()
        return [sensor for sensor, _ in pairs], [k for _, k in pairs]
