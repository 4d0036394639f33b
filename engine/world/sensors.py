"""Sensors: regions that report overlaps with characters and rigid bodies as begin / end events.

:class:`SensorSet` owns the world's sensors and what each one overlapped after the last step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bodies import Sensor
from ..geometry import collide
from ..types import ContactEvent

__all__ = ["SensorSet"]


class SensorSet:
    """The world's sensors, in the order they were added, and their overlaps of the last step."""

    def __init__(self) -> None:
        self.sensors: list[Sensor] = []
        self._inside: dict[int, dict[int, Any]] = {}
        """id(sensor) -> {id(other): other} overlapping after the last step."""

    def add(self, sensor: Sensor) -> Sensor:
        self.sensors.append(sensor)
        return sensor

    def remove(self, sensor: Sensor) -> None:
        self.sensors.remove(sensor)
        self._inside.pop(id(sensor), None)

    def forget(self, other: object) -> None:
        """``other`` left the world: no sensor overlaps it any more (and no end event is owed for it)."""
        for inside in self._inside.values():
            inside.pop(id(other), None)

    def sense(self, others: Sequence[Any]) -> list[ContactEvent]:
        """Begin / end events of every sensor against ``others`` (characters and rigid bodies: anything with
        ``shape``, ``transform`` and ``filter``). A disabled sensor overlaps nothing (its overlaps end)."""
        events = []
        for sensor in self.sensors:
            before = self._inside.get(id(sensor), {})
            now = self._overlapping(sensor, others) if sensor.enabled else {}
            for key, entered in now.items():
                if key not in before:
                    events.append(ContactEvent("begin", sensor, entered, (0.0, 0.0)))
            for key, left in before.items():
                if key not in now:
                    events.append(ContactEvent("end", sensor, left, (0.0, 0.0)))
            self._inside[id(sensor)] = now
        return events

    @staticmethod
    def _overlapping(sensor: Sensor, others: Sequence[Any]) -> dict[int, Any]:
        box = sensor.aabb()
        xf = sensor.transform
        found: dict[int, Any] = {}
        for other in others:
            if not sensor.filter.touches(other.filter):
                continue
            if other.shape.aabb(other.transform).overlaps(box):
                m = collide(sensor.shape, xf, other.shape, other.transform)
                if m is not None and m.separation < 0.0:
                    found[id(other)] = other
        return found
