"""Walker enemies: characters that patrol, turn at walls and ledges, hurt on side contact, die stomped or
crushed."""

from __future__ import annotations

from typing import Any

from ..bodies import RigidBody
from ..character import Character, MoverConfig
from ..geometry import RoundedPolygon
from ..platformer import PlatformerConfig, PlatformerController, PlatformerInput
from ..types import WorldError
from .rules import GameEvent, object_id
from .base import GameObject, StageView, number_in

__all__ = ["Walker"]

WALKER_SHAPE = RoundedPolygon.box(12, 10, radius=3)
"""24 x 20 px with rounded corners: a beetle."""


class Walker(GameObject):
    """An enemy: a character with its own controller that walks ``direction`` (-1 or 1) at ``speed`` px/s,
    turns at walls and (``turn_at_ledges``) before walking off a ledge. Touching the player from the side
    hurts the player (the rules' ``enemy`` death); the player landing on it stomps it (it is removed, the
    player bounces ``bounce_speed`` px/s); a crate of at least ``crush_mass`` landing on it, or a moving body
    squeezing it against something, crushes it. Its
    ``mass`` (default about six heroes) makes it hard to shove.

    Tiled: class ``Walker``, a point or rectangle; properties ``speed`` (px/s, 60), ``direction`` (-1 or 1,
    default -1), ``turn_at_ledges`` (bool, true).
    """

    def __init__(self, world: Any, position: tuple[float, float], shape: RoundedPolygon = WALKER_SHAPE,
                 speed: float = 60.0, direction: int = -1, turn_at_ledges: bool = True,
                 bounce_speed: float = 420.0, crush_mass: float = 200.0, mass: float = 4000.0,
                 user_data: Any = None) -> None:
        speed = number_in(speed, "Walker speed", "px/s", 0.0, 1e5, low_inclusive=True)
        if direction not in (-1, 1):
            raise WorldError(f"Walker direction must be -1 or 1, got {direction!r}")
        self.world = world
        self.user_data = user_data
        self.direction = direction
        self.turn_at_ledges = bool(turn_at_ledges)
        self.bounce_speed = float(bounce_speed)
        self.crush_mass = float(crush_mass)
        self.alive = True
        self.character = world.add_character(Character(shape, position, MoverConfig(mass=mass), user_data=self))
        self.controller = PlatformerController(self.character, PlatformerConfig(
            run_speed=speed, ground_acceleration=4000.0, ground_deceleration=4000.0))

    @classmethod
    def from_object(cls, obj: Any, world: Any) -> Walker:
        """The ``Walker`` factory for ``Level.build_world``."""
        direction = obj.properties.get("direction", -1)
        if direction not in (-1, 1):
            raise WorldError(f"Walker object {obj.id}: property direction must be -1 or 1, got {direction!r}")
        return cls(world, obj.position, speed=obj.properties.get("speed", 60.0), direction=direction,
                   turn_at_ledges=bool(obj.properties.get("turn_at_ledges", True)), user_data=obj)

    # ---------------------------------------------------------------- walking
    def before_step(self, stage: StageView, buttons: PlatformerInput, dt: float) -> None:
        if not self.alive:
            return
        ch = self.character
        if ch.on_wall and ch.wall_normal is not None and ch.wall_normal[0] * self.direction < -0.5:
            self.direction = -self.direction
        elif self.turn_at_ledges and ch.on_floor and self._ledge_ahead():
            self.direction = -self.direction
        self.controller.update(PlatformerInput(left=self.direction < 0, right=self.direction > 0), dt)

    def _ledge_ahead(self) -> bool:
        """No floor within a step's height just ahead of the feet."""
        ch = self.character
        box = ch.shape.local_aabb
        ahead = (ch.position[0] + self.direction * (box.width / 2 + 2.0), ch.position[1])
        return ch.cast((0.0, -(ch.config.step_height + 4.0)), ahead) is None

    # ---------------------------------------------------------------- meeting the player and crates
    def after_step(self, stage: StageView, dt: float) -> None:
        if not self.alive:
            return
        for event in self.world.events:
            if event.kind == "land" and event.a is stage.player and event.b is self.character:
                stage.controller.launch(self.bounce_speed)
                self.die(stage, "stomp")
                return
            squashed = event.kind == "crushed" and event.a is self.character
            if squashed or event.kind == "begin" and event.a is self.character and isinstance(event.b, RigidBody) \
                    and event.normal[1] > 0.7 and event.b.mass >= self.crush_mass:
                self.die(stage, "enemy_crushed")
                return
        if self._touches_side_of(stage.player):
            stage.rules.kill("enemy", self)

    def _touches_side_of(self, player: Character) -> bool:
        """Beside the player (boxes within 2 px sideways, overlapping well vertically), not under him."""
        mine, theirs = self.character.aabb(), player.aabb()
        gap_x = max(mine.min_x - theirs.max_x, theirs.min_x - mine.max_x)
        overlap_y = min(mine.max_y, theirs.max_y) - max(mine.min_y, theirs.min_y)
        return gap_x <= 2.0 and overlap_y > 4.0 and not (player.on_floor and player.platform is self.character)

    def die(self, stage: StageView, cause: str) -> None:
        """Leave the world (stomped, crushed, or a game's own reason) and tell the rules."""
        self.alive = False
        self.world.remove(self.character)
        stage.remove(self)
        stage.rules.emit(GameEvent(cause, self, {"id": object_id(self)}))
