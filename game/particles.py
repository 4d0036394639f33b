"""A small particle system for the demo's feel: dust when the hero lands or runs, a sparkle where a pickup
was taken, a puff where an enemy was stomped or crushed. Driven by what a step reported (the controller's
events and the stage's :class:`engine.play.GameEvent`), drawn as one SpriteList in the world camera.

Units: pixels and seconds, engine frame (y up).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import arcade

__all__ = ["Particle", "Particles"]

RUN_DUST_INTERVAL = 0.09
"""Seconds between two dust puffs at the feet of a hero running fast on the ground."""
RUN_DUST_SPEED = 180.0
"""px/s: running faster than this on the ground kicks up dust."""


@dataclass
class Particle:
    """One particle: its sprite, velocity (px/s), gravity (px/s^2, y up), and seconds left of ``life``."""

    sprite: arcade.Sprite
    vx: float
    vy: float
    gravity: float
    life: float
    lifetime: float


class Particles:
    """Particles, updated by :meth:`update` each frame and drawn by :meth:`draw`. ``seed`` fixes the spread,
    so a replay looks the same each time."""

    def __init__(self, assets: Path, seed: int = 1) -> None:
        self.textures = {name: arcade.load_texture(assets / f"{name}.png") for name in ("dust", "sparkle", "puff")}
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.live: list[Particle] = []
        self.random = random.Random(seed)
        self.run_timer = 0.0

    def burst(self, kind: str, x: float, y: float, count: int, speed: float, gravity: float = 0.0,
              life: float = 0.4, up: bool = False) -> None:
        """``count`` particles of texture ``kind`` from (x, y), flying at up to ``speed`` px/s (upwards only
        when ``up``), each living ``life`` s (a little random)."""
        for _ in range(count):
            angle = self.random.uniform(0.0, math.pi) if up else self.random.uniform(0.0, 2 * math.pi)
            v = speed * self.random.uniform(0.4, 1.0)
            sprite = arcade.Sprite(self.textures[kind])
            sprite.center_x, sprite.center_y = x, y
            lifetime = life * self.random.uniform(0.7, 1.0)
            self.live.append(Particle(sprite, v * math.cos(angle), v * math.sin(angle), gravity, lifetime, lifetime))
            self.sprites.append(sprite)

    def after_step(self, hero: Any, controller_events: set[str] | list[str], game_events: list[Any],
                   dt: float) -> None:
        """React to one physics step: the hero's landing and running, pickups, stomped or crushed enemies."""
        x, y = hero.position
        feet = y - 17
        if "land" in controller_events:
            self.burst("dust", x, feet, 6, 60.0, gravity=-40.0, life=0.35, up=True)
        self.run_timer -= dt
        if hero.on_floor and abs(hero.velocity[0]) > RUN_DUST_SPEED and self.run_timer <= 0.0:
            self.run_timer = RUN_DUST_INTERVAL
            self.burst("dust", x - math.copysign(8, hero.velocity[0]), feet, 1, 25.0, life=0.3, up=True)
        for event in game_events:
            where = _position_of(event.source)
            if where is None:
                continue
            if event.type == "pickup":
                self.burst("sparkle", *where, 10, 90.0, gravity=-120.0, life=0.5)
            elif event.type in ("stomp", "enemy_crushed"):
                self.burst("puff", *where, 8, 70.0, life=0.45)
            elif event.type == "spring":
                self.burst("dust", where[0], where[1], 4, 50.0, life=0.3, up=True)

    def update(self, dt: float) -> None:
        """Move, fall and fade every particle by ``dt`` seconds; the spent ones go."""
        for particle in list(self.live):
            particle.life -= dt
            if particle.life <= 0.0:
                self.live.remove(particle)
                particle.sprite.remove_from_sprite_lists()
                continue
            particle.vy += particle.gravity * dt
            sprite = particle.sprite
            sprite.center_x += particle.vx * dt
            sprite.center_y += particle.vy * dt
            sprite.alpha = max(0, min(255, int(255 * particle.life / particle.lifetime * 1.5)))

    def draw(self) -> None:
        self.sprites.draw(pixelated=True)


def _position_of(source: Any) -> tuple[float, float] | None:
    """Where an event happened: its source's position (a sensor's, or a game object's character's)."""
    character = getattr(source, "character", None)
    if character is not None:
        return tuple(character.position)  # type: ignore[return-value]
    sensor = getattr(source, "sensor", None)
    position = getattr(sensor if sensor is not None else source, "position", None)
    return (float(position[0]), float(position[1])) if position is not None else None
