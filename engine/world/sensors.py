"""Sensors: regions that report overlaps with characters and rigid bodies as begin / end events.

:class:`SensorSet` owns the world's sensors and what each one overlapped after the last step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bodies import Sensor
from ..geometry import AABB, RoundedPolygon, collide
from ..types import ContactEvent

__all__ = ["SensorSet"]


class SensorSet:
    """The world's sensors, in the order they were added, and their overlaps of the last step."""

    def __init__(self) -> None:
        self.sensors: list[Sensor] = []
        self._inside: dict[int, dict[int, Any]] = {}
        """id(sensor) -> {id(other): other} overlapping after the last step."""
        self._boxes: dict[int, tuple[tuple, float, RoundedPolygon, AABB]] = {}
        """id(sensor) -> its position, angle and shape when its box was last made, and that box (the shape
        itself is kept: an id could be reused by a new shape once the old one is gone)."""

    def add(self, sensor: Sensor) -> Sensor:
        self.sensors.append(sensor)
        return sensor

    def remove(self, sensor: Sensor) -> None:
        self.sensors.remove(sensor)
        self._inside.pop(id(sensor), None)
        self._boxes.pop(id(sensor), None)

    def forget(self, other: object) -> None:
        """``other`` left the world: no sensor overlaps it any more (and no end event is owed for it)."""
        for inside in self._inside.values():
            inside.pop(id(other), None)

    def sense(self, others: Sequence[Any]) -> list[ContactEvent]:
        """Begin / end events of every sensor against ``others`` (characters and rigid bodies: anything with
        ``shape``, ``transform`` and ``filter``). A disabled sensor overlaps nothing (its overlaps end)."""
        events = []
        near = self._near_pairs(others)
        for index, sensor in enumerate(self.sensors):
            before = self._inside.get(id(sensor), {})
            now = self._overlapping(sensor, [others[k] for k in near.get(index, ())]) if sensor.enabled else {}
            for key, entered in now.items():
                if key not in before:
                    events.append(ContactEvent("begin", sensor, entered, (0.0, 0.0)))
            for key, left in before.items():
                if key not in now:
                    events.append(ContactEvent("end", sensor, left, (0.0, 0.0)))
            self._inside[id(sensor)] = now
        return events

    def _near_pairs(self, others: Sequence[Any]) -> dict[int, list[int]]:
        """Sensor index -> the indices of ``others`` whose boxes overlap its box (ascending). All boxes once
        per step and one array test: a level has dozens of sensors (coins, checkpoints, spikes) and dozens of
        crates, and only a few pairs are near each other."""
        if not others or not self.sensors:
            return {}
        theirs = np.array([other.shape.aabb(other.transform) for other in others], dtype=np.float64)
        ours = np.array([self._box_of(sensor) for sensor in self.sensors], dtype=np.float64)
        near = (theirs[None, :, 0] <= ours[:, None, 2]) & (theirs[None, :, 2] >= ours[:, None, 0]) \
            & (theirs[None, :, 1] <= ours[:, None, 3]) & (theirs[None, :, 3] >= ours[:, None, 1])
        pairs: dict[int, list[int]] = {}
        for sensor, other in zip(*(index.tolist() for index in np.nonzero(near))):
            pairs.setdefault(sensor, []).append(other)
        return pairs

    def _box_of(self, sensor: Sensor) -> AABB:
        """The sensor's box, made again only when its placement or shape changed (game code may move it)."""
        position, angle, shape = tuple(sensor.position), sensor.angle, sensor.shape
        kept = self._boxes.get(id(sensor))
        if kept is None or kept[2] is not shape or kept[0] != position or kept[1] != angle:
            kept = self._boxes[id(sensor)] = (position, angle, shape, sensor.aabb())
        return kept[3]

    @staticmethod
    def _overlapping(sensor: Sensor, near: list[Any]) -> dict[int, Any]:
        """Which of the ``near`` characters and bodies (in their order) overlap ``sensor``."""
        found: dict[int, Any] = {}
        if not near:
            return found
        xf = sensor.transform
        for other in near:
            if not sensor.filter.touches(other.filter):
                continue
            m = collide(sensor.shape, xf, other.shape, other.transform)
            if m is not None and m.separation < 0.0:
                found[id(other)] = other
        return found

