"""Sensors: regions that report overlaps with characters and rigid bodies as begin / end events.

:class:`SensorSet` owns the world's sensors and what each one overlapped after the last step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bodies import Sensor
from ..geometry import RoundedPolygon, collide, touching_pairs
from ..types import ContactEvent

__all__ = ["SensorSet"]


class SensorSet:
    """The world's sensors, in the order they were added, and their overlaps of the last step."""

    def __init__(self) -> None:
        self.sensors: list[Sensor] = []
        self._inside: dict[int, dict[int, Any]] = {}
        """id(sensor) -> {id(other): other} overlapping after the last step; only sensors something is in."""
        self._placements: list[tuple[tuple, float, int]] = []
        """Each sensor's position, angle and id(shape) when :attr:`_boxes` were made (in sensor order)."""
        self._shapes: list[RoundedPolygon] = []
        """Those shapes, kept alive so that their ids cannot be reused by new shapes while compared."""
        self._boxes = np.zeros((0, 4))
        """Every sensor's box (min x, min y, max x, max y, px) as placed in :attr:`_placements`."""
        self._checked: dict[tuple[int, int], tuple[tuple, bool]] = {}
        """(id(sensor), id(other)) -> (both placements and shapes, whether they overlapped): the last step's
        exact tests, reused while neither moved nor changed shape (a coin over a resting crate is tested every
        step otherwise: nine tenths of level 2's tests)."""

    def add(self, sensor: Sensor) -> Sensor:
        self.sensors.append(sensor)
        return sensor

    def remove(self, sensor: Sensor) -> None:
        self.sensors.remove(sensor)
        self._inside.pop(id(sensor), None)

    def forget(self, other: object) -> None:
        """``other`` left the world: no sensor overlaps it any more (and no end event is owed for it)."""
        for key in list(self._inside):
            self._inside[key].pop(id(other), None)
            if not self._inside[key]:
                del self._inside[key]

    def sense(self, others: Sequence[Any], boxes: np.ndarray | None = None) -> list[ContactEvent]:
        """Begin / end events of every sensor against ``others`` (characters and rigid bodies: anything with
        ``shape``, ``transform`` and ``filter``), in sensor order. ``boxes``: the others' boxes ((len(others),
        4) px, at least as large as their shapes' boxes), when the caller has them. A disabled sensor overlaps
        nothing (its overlaps end). Only the sensors that something is near or was in are looked at."""
        events: list[ContactEvent] = []
        checked: dict[tuple[int, int], tuple[tuple, bool]] = {}
        near = self._near_pairs(others, boxes)
        inside = self._inside
        if inside:
            for index, sensor in enumerate(self.sensors):
                if id(sensor) in inside:
                    near.setdefault(index, [])
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

    def _near_pairs(self, others: Sequence[Any], boxes: np.ndarray | None) -> dict[int, list[int]]:
        """Sensor index -> the indices of ``others`` whose boxes overlap its box (ascending). All boxes at once
        and one array test: a level has dozens of sensors (coins, checkpoints, spikes) and dozens of crates,
        and only a few pairs are near each other."""
        if not others or not self.sensors:
            return {}
        if boxes is None:
            boxes = np.array([other.shape.aabb(other.transform) for other in others], dtype=np.float64)
        pairs: dict[int, list[int]] = {}
        for sensor, other in zip(*(index.tolist() for index in touching_pairs(self._sensor_boxes(), boxes))):
            pairs.setdefault(sensor, []).append(other)
        return pairs

    def _sensor_boxes(self) -> np.ndarray:
        """Every sensor's box, made again only when a sensor was added, removed, moved, turned or reshaped
        (game code may do any of those between steps; most sensors never move)."""
        placements = [(tuple(s.position), s.angle, id(s.shape)) for s in self.sensors]
        if placements != self._placements:
            self._boxes = np.array([s.aabb() for s in self.sensors], dtype=np.float64).reshape(-1, 4)
            self._placements, self._shapes = placements, [s.shape for s in self.sensors]
        return self._boxes

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
                m = collide(sensor.shape, xf, other.shape, other_xf)
                overlaps = m is not None and m.separation < 0.0
            checked[key] = (placed, overlaps)
            if overlaps:
                found[id(other)] = other
        return found
