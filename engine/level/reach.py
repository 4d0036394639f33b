"""Can the level be finished? ``ledgekit check --reach``: a search over what the player can do, simulated with
the real stage (world, mover, platformer controller, rules and the standard building blocks), from the Spawn.

The search plays short *moves* (run left or right 16 frames, step 4 frames, wait 20 frames, full and short
jumps left, up and right steered until landing, steering in the air, a jump in coyote time just over an
edge, drop through a one-way floor, climb a ladder, board a platform on a path when its path brings it level
beside the player, ride it to the end of its way) from kept states: every new state is kept as a pickled
copy of the whole stage, and a move starts from a fresh copy of it (or from the stage itself, when it is the
state just kept). States are told apart by the player's cell (8 px), velocity (50 px/s across, 100 px/s up),
floor and ladder, the switches pressed, the number of enemies left, and where the crates and platforms near
the player are (to 16 px, and which way each platform goes): a state whose key was seen before is dropped,
and so is a move in which the player dies. Crates, springs, platforms, doors and enemies are simulated, not
approximated.

The order states are tried in: the target is the Goal first, then each pickup and checkpoint not touched
yet. A state's distance to it is measured through the level's open space (:mod:`engine.level.reach_field`:
round walls, over their tops, so a climb up a ladder or a ride up a lift is progress). States whose key is new
even on a coarse grid (32 px, no velocities) come before the others; among them the nearest first, and of a
state's moves those heading across toward the target first (boarding and riding before all), each next move
ranking ``MOVE_RANK_PX`` farther than the one before it. The order never decides a verdict: every state is
reached by simulated steps.

Nothing here is random and no result depends on the clock, except where the CPU budget
(``time.process_time``) cuts the search: then the outcome says "not decided within the budget". A route to
the Goal is checked by playing it again on a fresh stage from the Spawn: it must reach the Goal with no death.
Units: pixels, seconds, engine frame (y up).
"""

from __future__ import annotations

import heapq
import io
import itertools
import json
import math
import pickle
import time
import types
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
import functools
from functools import partial
from pathlib import Path
from typing import Any

from .level import Level, Problem, load_level
from .reach_field import DistanceField

__all__ = ["ACTIONS", "STEP", "ReachResult", "Target", "reach_problems", "route_segments", "search_reach",
           "write_route"]

STEP = 1.0 / 60.0
"""Seconds per simulated step: the fixed rate the game plays at."""
ACTIONS = ("left", "right", "up", "down", "jump")
"""The buttons, in the order route files list them (the game's ``--input`` format)."""
CELL = 8.0
"""Pixels: the grid the player's position is told apart by."""
VX_BUCKET, VY_BUCKET = 50.0, 100.0
"""px/s: the steps the player's velocity is told apart by (across, up)."""
NEAR_CRATE, NEAR_PLATFORM, THING_CELL = (320.0, 240.0), (640.0, 400.0), 16.0
"""Pixels: crates within the first box around the player (half width, half height), platforms within the second
(a ferry across a pit may be that far when the wait for it starts), count in a state's key, by their position to
``THING_CELL`` px."""
SPRING_FRAMES = 30
"""Steps a move may go on to leave a spring's area (see ``_Search._off_springs``)."""
COARSE_CELL = 32.0
"""Pixels: the grid states are seen on coarsely (:meth:`_Search._novel`): a state new even on it is tried first."""
MOVE_RANK_PX = 64.0
"""Pixels a state's next move ranks behind its previous one: a state's best move is tried before the
lesser moves of a state not much farther."""
BOARD_LEVEL, BOARD_GAP, BOARD_HORIZON, BOARD_WALK = 6.0, 24.0, 1200, 40
"""A platform is boarded (:class:`_Board`) when its top comes within ``BOARD_LEVEL`` px of the player's feet
and its side within ``BOARD_GAP`` px of the player's, in at most ``BOARD_HORIZON`` steps; the walk onto it
takes at most ``BOARD_WALK`` steps."""
RIDE_FRAMES = 1200
"""Steps a ride (:class:`_Ride`) lasts at most: 20 s, longer than any shipped platform's way."""
PROGRESS_EVERY = 2.0
"""CPU seconds between progress reports."""

Hold = frozenset[str]
_NONE: Hold = frozenset()


def default_player_shape() -> Any:
    """The 20 x 32 px hero with 2 px round corners, the one :class:`~engine.PlatformerConfig`'s defaults are
    tuned for (the demo's and the starter game's)."""
    from ..geometry import RoundedPolygon

    return RoundedPolygon.box(10, 16, radius=2)


@dataclass
class Target:
    """A place the search tries to reach: the Goal, a pickup or a checkpoint (a sensor of the level)."""

    kind: str
    """``goal``, ``pickup`` or ``checkpoint``."""
    object_id: int | None
    name: str
    layer: str
    position: tuple[float, float]
    """Centre of its area, px (engine frame)."""
    box: tuple[float, float, float, float]
    """(min_x, min_y, max_x, max_y) of its area, px."""
    reached: bool | None = None
    """True: touched by the player alive; False: the search ran out of states first (unreachable); None: not
    decided within the budget."""
    closest: float = math.inf
    """Least gap (px) between the player's box and the target's box over every simulated step."""
    closest_at: tuple[float, float] = (0.0, 0.0)
    """Where the player's centre was then."""


@dataclass
class ReachResult:
    """What :func:`search_reach` found for one level."""

    path: Path
    goal: Target | None
    """``None`` when the level has no Goal."""
    targets: list[Target]
    """Pickups and checkpoints, in map order."""
    route: list[Hold] = field(default_factory=list)
    """The buttons held each step, Spawn to Goal (empty when the Goal was not reached)."""
    route_plays: bool = False
    """The route, played again on a fresh stage, reaches the Goal with no death."""
    states: int = 0
    """States kept (distinct keys simulated)."""
    steps: int = 0
    """Physics steps simulated."""
    cpu_seconds: float = 0.0
    goal_cpu_seconds: float | None = None
    """CPU seconds the search took to find the route to the Goal (``None``: not found)."""
    exhausted: bool = False
    """Every state reachable (as the search tells them apart) was explored."""
    budget: float = 0.0


# ------------------------------------------------------------------------------------------------ snapshots
_SHARED: dict[int, list[Any]] = {}
"""What the snapshots of each live :class:`_Snapshots` share, by its serial number: a snapshot names a shared
object by (serial, index) and :func:`_shared_object` finds it again."""
_SERIALS = itertools.count()


def _shared_object(serial: int, index: int) -> Any:
    return _SHARED[serial][index]


class _Snapshots:
    """Whole-stage copies as pickled bytes. What never changes in play (the level, its static geometry, shapes,
    configs) is shared rather than copied, as are functions (the rules' subscribers: a respawn never happens in
    a kept state, a death ends the move). The pickler asks about objects of classes only (``reducer_override``:
    not about each number, string, list and dict, as ``persistent_id`` would): half the time of a save."""

    def __init__(self, stage: Any) -> None:
        from ..geometry import RoundedPolygon

        world = stage.world
        level = stage.level
        things = [*world.sensors, *world.bodies, *world.kinematic_bodies, *world.characters]
        shared: list[Any] = [level, level.tmx, world.static, world.physics, stage.controller.config,
                             stage.rules.config, *level.objects, *level.entities,
                             *(t.shape for t in things), *(t.filter for t in things), *(s.data for s in world.sensors)]
        self.shared = shared
        self.index = {id(x): i for i, x in enumerate(shared)}
        self.immutable = (types.FunctionType, RoundedPolygon)
        """Kinds shared whenever met (a shape the world made and caches, say: a copy would be checked again)."""
        self.serial = next(_SERIALS)
        _SHARED[self.serial] = shared
        weakref.finalize(self, _SHARED.pop, self.serial, None)

    def save(self, stage: Any) -> bytes:
        buffer = io.BytesIO()
        _SharingPickler(buffer, self).dump(stage)
        return buffer.getvalue()

    @staticmethod
    def load(data: bytes) -> Any:
        return pickle.loads(data)

    def reduce(self, obj: Any) -> Any:
        """How a snapshot holds ``obj``: a reference for a shared object, else ``NotImplemented`` (a copy)."""
        found = self.index.get(id(obj))
        if found is None:
            if obj is _shared_object or not isinstance(obj, self.immutable):
                return NotImplemented
            found = self.index[id(obj)] = len(self.shared)
            self.shared.append(obj)
        return _shared_object, (self.serial, found)


class _SharingPickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, snapshots: _Snapshots) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.reducer_override = snapshots.reduce  # type: ignore[method-assign]


# ------------------------------------------------------------------------------------------------ moves
@dataclass(frozen=True)
class _Move:
    """Buttons held for a number of frames, phase after phase; it ends early on landing (``until_landing``)
    or on leaving the floor (``until_airborne``: a run that goes over an edge stops there, so that a jump can
    start from the edge, in coyote time)."""

    phases: tuple[tuple[int, Hold], ...]
    until_landing: bool = False
    until_airborne: bool = False
    leads: bool = False
    """Tried first from any state it is offered in (a wait on a moving platform)."""

    @property
    def side(self) -> int:
        """-1, 0 or 1: the way it goes across (tried first when the target lies that way)."""
        held = self.phases[0][1]
        return int("right" in held) - int("left" in held)

    @property
    def aim(self) -> tuple[float, float]:
        """A rough guess (px) of where the move takes the player from where it starts, for the order moves are
        tried in (never for what they do): about 3 px a step across, a jump's rise, a climb's or drop's way."""
        across = sum(count for count, held in self.phases if "right" in held or "left" in held)
        first = self.phases[0][1]
        rise = 0.0
        if "jump" in first:
            rise = -48.0 if "down" in first else min(6.0 * self.phases[0][0], 80.0)
        elif "up" in first or "down" in first:
            rise = (2.0 if "up" in first else -2.0) * self.phases[0][0]
        return self.side * min(3.0 * across, 72.0), rise

    def buttons(self, stage: Any) -> Iterator[Hold]:
        """The buttons of each step (the stage as the previous step left it is there to look at)."""
        for count, held in self.phases:
            for _ in range(count):
                yield held


@dataclass(frozen=True)
class _Board:
    """Wait ``wait`` steps for a platform (``platform``: its index among the world's kinematic bodies) to come
    level with the floor beside the player (worked out from its path), then walk onto it (at most
    ``BOARD_WALK`` steps): how a ferry or a lift is taken."""

    side: int
    platform: int
    wait: int
    until_landing: bool = False
    until_airborne: bool = False
    leads: bool = True

    @property
    def aim(self) -> tuple[float, float]:
        return 32.0 * self.side, 0.0

    def buttons(self, stage: Any) -> Iterator[Hold]:
        for _ in range(self.wait):
            yield _NONE
        body, walk = stage.world.kinematic_bodies[self.platform], _hold("right" if self.side > 0 else "left")
        for _ in range(BOARD_WALK):
            yield walk
            if stage.player.platform is body and stage.player.on_floor:
                return


@dataclass(frozen=True)
class _Ride:
    """Stay on the moving platform the player stands on until it turns back (its velocity points the other
    way) or the player is off it, at most ``RIDE_FRAMES`` steps: to the end of a ferry's or a lift's way."""

    side: int = 0
    until_landing: bool = False
    until_airborne: bool = False
    leads: bool = True
    aim: tuple[float, float] = (0.0, 0.0)

    def buttons(self, stage: Any) -> Iterator[Hold]:
        player = stage.player
        body = player.platform
        if body is None:
            return
        start = body.velocity
        for _ in range(RIDE_FRAMES):
            yield _NONE
            vx, vy = body.velocity
            if player.platform is not body or vx * start[0] + vy * start[1] < 0.0:
                return


def _hold(*names: str) -> Hold:
    return frozenset(n for n in names if n)


_SIDES = ("left", "", "right")
RUN = {side: _Move(((16, _hold(side)),), until_airborne=True) for side in ("left", "right")}
STEP_ASIDE = tuple(_Move(((4, _hold(side)),), until_airborne=True) for side in ("left", "right"))
"""A few pixels across (from rest): to stand just so under a coin, on a spring's edge."""
WAIT = _Move(((20, _NONE),), until_airborne=True)
"""Long enough for a platform at 60 px/s to move a whole ``THING_CELL``: each wait for a ferry is a new state."""
RIDE_WAIT = _Move(WAIT.phases, until_airborne=True, leads=True)
"""A wait on a moving platform (tried first there: getting off half way may be the way on)."""
JUMPS = tuple(_Move(((held, _hold(side, "jump")), (40 - held, _hold(side))), until_landing=True)
              for held in (40, 5) for side in _SIDES)
"""Full and short jumps, left, straight up and right, steered the same way until landing (at most 40 frames)."""
STEER = tuple(_Move(((20, _hold(side)),), until_landing=True) for side in _SIDES)
DROP = _Move(((1, _hold("down", "jump")), (30, _NONE)), until_landing=True)
CLIMB = {side: _Move(((8, _hold(side)),)) for side in ("up", "down", "left", "right")}


_AnyMove = _Move | _Board | _Ride


def _moves(stage: Any, ladders: list[Any], came_by: _AnyMove | None, ended: str) -> list[_AnyMove]:
    """The moves worth trying from this state (a standing player, one on a ladder, one in the air), which
    ``came_by`` that move, ended as it says (see :meth:`_Search._play`). On a moving platform: a ride to the end
    of its way, then waits on it, first (a ride is not offered again after a ride or such a wait: the next
    would only go back)."""
    player, controller = stage.player, stage.controller
    after_run = ended == "airborne" and came_by is not None and not came_by.until_landing
    on_ladder = any(ladder.holds(player) for ladder in ladders)
    if controller.climbing:
        return [CLIMB["up"], CLIMB["down"], CLIMB["left"], CLIMB["right"], *JUMPS[:3]]
    grab = [CLIMB["up"]] if on_ladder else []
    if player.on_floor:
        floor = player.floor_collider
        one_way = floor is not None and floor.one_way is not None
        platform = player.platform
        carried = platform is not None and any(platform.velocity)  # (a platform, a crate still sliding)
        if platform is None or getattr(platform, "path", None) is None:
            lead: list[_AnyMove] = [RIDE_WAIT] if carried else list(_boardings(stage))
        elif isinstance(came_by, _Ride):
            lead = []
        else:
            lead = [RIDE_WAIT] if came_by is RIDE_WAIT else [_Ride(), RIDE_WAIT]
        return [*lead, RUN["right"], RUN["left"], *JUMPS, *([WAIT] if not lead else []), *grab,
                *([DROP, CLIMB["down"]] if one_way else []), *STEP_ASIDE]
    return [*STEER, *grab, *(JUMPS if after_run else ())]  # just over an edge: a jump in coyote time


def _boardings(stage: Any) -> list[_Board]:
    """A :class:`_Board` for each platform on a path that, within one round of its path (at most
    ``BOARD_HORIZON`` steps), comes level with the player's feet (within ``BOARD_LEVEL`` px) right beside
    the player (a gap of at most ``BOARD_GAP`` px): its position at each coming step is the path's."""
    from ..geometry import Transform

    player = stage.player
    box = player.aabb()
    left, feet, right = box[0], box[1], box[2]
    boardings = []
    for index, body in enumerate(stage.world.kinematic_bodies):
        path = body.path
        if path is None:
            continue
        local = body.shape.aabb(Transform((0.0, 0.0), body.angle))
        xs, ys = [p[0] for p in path.points], [p[1] for p in path.points]
        if (min(ys) + local.max_y > feet + BOARD_LEVEL or max(ys) + local.max_y < feet - BOARD_LEVEL
                or min(xs) + local.min_x > right + BOARD_GAP or max(xs) + local.max_x < left - BOARD_GAP):
            continue  # (its way never passes beside the player's feet)
        rounds = math.ceil(path.length / (path.speed * STEP))
        for step in range(1, min(rounds, BOARD_HORIZON) + 1):
            x, y = path.position_at(body.path_distance + path.speed * STEP * step)
            if abs(y + local.max_y - feet) > BOARD_LEVEL:
                continue
            if -BOARD_LEVEL <= x + local.min_x - right <= BOARD_GAP:
                boardings.append(_Board(1, index, step))
                break
            if -BOARD_LEVEL <= left - (x + local.max_x) <= BOARD_GAP:
                boardings.append(_Board(-1, index, step))
                break
    return boardings


# ------------------------------------------------------------------------------------------------ the search
@dataclass(eq=False)
class _Node:
    """A state kept: its snapshot (dropped once every move from it was tried), how it was reached (its parent
    and the buttons of each step from there) and where the player was."""

    snapshot: bytes
    parent: _Node | None
    frames: tuple[Hold, ...]
    position: tuple[float, float]
    untried: int = 0
    distance: float = 0.0
    """How far from the target it ranks (px)."""
    novel: bool = True
    """It differs from every state kept before it even as seen coarsely (:meth:`_Search._novel`)."""
    waited: bool = False
    """It was reached by waiting in its parent."""


class _Budget(Exception):
    """The CPU budget ran out."""


class _Search:
    """Greedy best-first search with deferred evaluation: the frontier holds (state, move) pairs ranked by how
    near the state is to the target and whether the move heads its way; a move is played only when its pair
    comes first, so a search that keeps getting nearer plays one move per step forward."""

    def __init__(self, level: Level, budget: float, player_shape: Any, feel: Any, factories: Mapping | None,
                 progress: Callable[[str], None] | None) -> None:
        from ..play import Ladder, Stage, Switch, object_id, standard_factories

        self.level = level
        self.factories = standard_factories() if factories is None else factories
        self.shape = player_shape if player_shape is not None else default_player_shape()
        self.feel = feel
        self.stage_class, self.ladder_class, self.switch_class, self.object_id = Stage, Ladder, Switch, object_id
        root = self._fresh_stage()
        self.snapshots = _Snapshots(root)
        self.result = ReachResult(level.path, None, [], budget=budget)
        self._targets(root)
        targets = [t for t in [self.result.goal, *self.result.targets] if t is not None and t.object_id is not None]
        self.by_tag_and_id: dict[tuple[Any, Any], Target] = {(t.kind, t.object_id): t for t in targets}
        self.fields: dict[int, DistanceField] = {}
        self.unreached = [t for t in [self.result.goal, *self.result.targets] if t is not None]
        """The targets not touched yet (how near the player comes to each is noted every step)."""
        self.progress = progress
        self.start = time.process_time()
        self.deadline = self.start + budget
        self.next_report = self.start + PROGRESS_EVERY
        self.seen: set[tuple] = {self._key(root)}
        self.open: list[tuple[int, float, int, int, _Node, int, _AnyMove]] = []
        """(state, move) pairs: (0 for a novel state, else 1; its distance from the target plus ``MOVE_RANK_PX``
        for each move of it ranked before this one, px; that rank; the order pushed; the state; the move's place
        in :func:`_moves`' list; the move)."""
        self.coarse_seen: set[tuple] = set()
        self.counter = 0
        self.goal_node: tuple[_Node, tuple[Hold, ...]] | None = None
        self.target: Target | None = self.result.goal
        self.live: tuple[_Node, Any] | None = None
        """The state kept last and its stage as the move left it, until another move is played."""
        self._keep(root, None, ())

    def _fresh_stage(self) -> Any:
        return self.stage_class.from_level(self.level, self.shape, self.factories, feel=self.feel)

    def _targets(self, stage: Any) -> None:
        from .objects import level_object_of

        for sensor in stage.world.sensors:
            if sensor.tag not in ("goal", "pickup", "checkpoint"):
                continue
            obj = level_object_of(sensor)
            box = sensor.aabb()
            target = Target(sensor.tag, _int_or_none(self.object_id(sensor)), obj.name if obj else "",
                            obj.layer if obj else "", ((box.min_x + box.max_x) / 2, (box.min_y + box.max_y) / 2),
                            (box.min_x, box.min_y, box.max_x, box.max_y))
            if sensor.tag == "goal":
                self.result.goal = self.result.goal or target
            else:
                self.result.targets.append(target)

    # ---------------------------------------------------------------- the frontier
    def _keep(self, stage: Any, parent: _Node | None, frames: tuple[Hold, ...], came_by: _AnyMove | None = None,
              ended: str = "done") -> None:
        """A new state: snapshot it and put every move worth trying from it on the frontier. A state reached by
        waiting is ranked no farther than the one it waited in: a ferry may carry the player away before it
        turns, and the wait for it is the way on."""
        moves = _moves(stage, stage.find(self.ladder_class), came_by, ended)
        node = _Node(self.snapshots.save(stage), parent, frames, stage.player.position, len(moves))
        node.novel = self._novel(stage)
        node.waited = parent is not None and came_by is not None and (came_by is WAIT or came_by.leads)
        self.live = (node, stage)
        self._push(node, list(enumerate(moves)))

    def _push(self, node: _Node, moves: list[tuple[int, _AnyMove]]) -> None:
        """Put ``node``'s ``moves`` (each with its place in :func:`_moves`' list) on the frontier, ranked."""
        node.distance = self._distance(node.position)
        if node.waited and node.parent is not None:
            node.distance = min(node.distance, node.parent.distance)
        tier = 0 if node.novel else 1
        for order, (index, move) in enumerate(sorted(moves, key=partial(self._move_rank, node))):
            self.counter += 1
            heapq.heappush(self.open, (tier, node.distance + MOVE_RANK_PX * order, order, self.counter, node, index,
                                       move))

    def _novel(self, stage: Any) -> bool:
        """Whether the state differs from every state kept before even as seen coarsely (:meth:`_key` to
        ``COARSE_CELL`` px, without velocities); notes it."""
        coarse = self._key(stage, COARSE_CELL, COARSE_CELL, speeds=False)
        if coarse in self.coarse_seen:
            return False
        self.coarse_seen.add(coarse)
        return True

    def _field(self, target: Target) -> DistanceField:
        """``target``'s distance field (made the first time it is asked for)."""
        found = self.fields.get(id(target))
        if found is None:
            level = self.level
            found = self.fields[id(target)] = DistanceField(level.solid_rings, level.width, level.height, target.box)
        return found

    def _distance(self, position: tuple[float, float]) -> float:
        target = self.target
        if target is None:
            return 0.0
        return self._field(target).at(*position)

    def _move_rank(self, node: _Node, entry: tuple[int, _AnyMove]) -> tuple[bool, int, float, int]:
        """Where a move comes among a state's: those that lead (a ride, a boarding) first, then those heading
        across the way the target's distance falls, then those going straight up, down or nowhere (nearest the
        target where they aim first: a climb up a ladder or a drop, :attr:`_Move.aim`), then those going away;
        in :func:`_moves`' order among equals."""
        index, move = entry
        target = self.target
        if target is None:
            return not move.leads, 0, 0.0, index
        field = self._field(target)
        toward = field.heading_across(*node.position)
        if move.side == toward:
            return not move.leads, 0, 0.0, index
        if move.side:
            return not move.leads, 2, 0.0, index
        (x, y), (dx, dy) = node.position, move.aim
        return not move.leads, 1, field.at(x + dx, y + dy), index

    def retarget(self, target: Target) -> None:
        """Aim at ``target`` now: the frontier is ranked again by the distance to it."""
        self.target = target
        untried: dict[int, tuple[_Node, dict[int, _AnyMove]]] = {}
        for *_, node, index, move in self.open:
            untried.setdefault(id(node), (node, {}))[1][index] = move
        self.open = []
        for node, moves in untried.values():
            self._push(node, sorted(moves.items()))

    def run_until(self, done: Callable[[], bool]) -> None:
        """Play the first move of the frontier until ``done()`` or the frontier is empty (then ``exhausted``).
        Raises :class:`_Budget` when the CPU budget runs out."""
        while not done():
            found = self._next()
            if found is None:
                self.result.exhausted = True
                return
            node, move = found
            live, self.live = self.live, None
            # (the stage a state was just kept from is that state: no copy needed to go on from it)
            stage = live[1] if live is not None and live[0] is node else self.snapshots.load(node.snapshot)
            node.untried -= 1
            if not node.untried:
                node.snapshot = b""  # (every move from it tried: only its route is needed now)
            self._try(node, stage, move)

    def _next(self) -> tuple[_Node, _AnyMove] | None:
        """The first (state, move) pair of the frontier, ``None`` when it is empty."""
        if not self.open:
            return None
        *_, node, _, move = heapq.heappop(self.open)
        return node, move

    def _try(self, parent: _Node, stage: Any, move: _AnyMove) -> None:
        """Play ``move`` on ``stage`` (a copy of ``parent``'s); keep the state it ends in when it is new."""
        frames, ended = self._play(stage, move)
        if ended == "dead":
            return
        if ended == "goal":
            if self.goal_node is None:
                self.goal_node = (parent, frames)
            return
        key = self._key(stage)
        if key in self.seen:
            return
        self.seen.add(key)
        self.result.states += 1
        self._keep(stage, parent, frames, move, ended)

    def _play(self, stage: Any, move: _AnyMove) -> tuple[tuple[Hold, ...], str]:
        """Step ``stage`` through ``move``; returns the buttons of each step and how it ended (``dead``,
        ``goal``, ``landed``, ``airborne`` or ``done``)."""
        from ..platformer import PlatformerInput

        player, rules = stage.player, stage.rules
        frames: list[Hold] = []
        was_on_floor = player.on_floor
        held, buttons = _NONE, PlatformerInput()
        for now in move.buttons(stage):
            if now != held:
                held, buttons = now, PlatformerInput(**{a: a in now for a in ACTIONS})
            stage.step(buttons, STEP)
            frames.append(held)
            self.result.steps += 1
            if rules.deaths:
                return tuple(frames), "dead"
            self._watch(stage)
            if rules.complete:
                return tuple(frames), "goal"
            on_floor = player.on_floor
            if move.until_landing and on_floor and not was_on_floor and len(frames) > 1:
                return tuple(frames), "landed"
            if move.until_airborne and was_on_floor and not on_floor:
                return tuple(frames), "airborne"
            was_on_floor = on_floor
        self._check_budget()
        return self._off_springs(stage, frames, held)

    def _off_springs(self, stage: Any, frames: list[Hold], held: Hold) -> tuple[tuple[Hold, ...], str]:
        """Hold the last buttons (up to ``SPRING_FRAMES`` more steps) until neither the player nor a crate is in a
        spring's area: copies of the world used to forget what their sensors held, so a state kept inside a
        spring launched again when continued, unlike the game (sensors now keep it; this keeps the search's
        states as they were measured)."""
        from ..platformer import PlatformerInput

        springs = [s for s in stage.world.sensors if s.tag == "spring"]
        if not springs:
            return tuple(frames), "done"
        buttons = PlatformerInput(**{a: a in held for a in ACTIONS})
        for _ in range(SPRING_FRAMES):
            if not any(_inside(spring, thing) for spring in springs for thing in [stage.player, *stage.world.bodies]):
                break
            stage.step(buttons, STEP)
            frames.append(held)
            self.result.steps += 1
            if stage.rules.deaths:
                return tuple(frames), "dead"
            self._watch(stage)
            if stage.rules.complete:
                return tuple(frames), "goal"
        return tuple(frames), "done"

    def _watch(self, stage: Any) -> None:
        """Note the targets the player touched this step, and how near it came to the others."""
        player = stage.player
        for event in stage.world.events:
            if event.kind == "begin" and event.b is player:
                target = self.by_tag_and_id.get((getattr(event.a, "tag", None), self.object_id(event.a)))
                if target is not None and not target.reached:
                    target.reached = True
                    self.unreached.remove(target)
        left, bottom, right, top = player.aabb()
        for target in self.unreached:
            min_x, min_y, max_x, max_y = target.box
            dx = max(min_x - right, left - max_x, 0.0)
            dy = max(min_y - top, bottom - max_y, 0.0)
            if dx < target.closest and dy < target.closest:  # (most are far: skip the square root)
                gap = math.hypot(dx, dy)
                if gap < target.closest:
                    target.closest, target.closest_at = gap, player.position

    def _key(self, stage: Any, cell: float = CELL, thing_cell: float = THING_CELL, speeds: bool = True) -> tuple:
        """What tells states apart: the player's ``cell``, velocity step (``speeds``), floor and ladder; the
        switches pressed; the crates and platforms (doors, lifts, falling platforms) near the player, to
        ``thing_cell`` px, and which way each platform goes; and how many enemies are left (where they walk is
        not part of it: a patrol would make every wait new)."""
        player, world = stage.player, stage.world
        x, y = player.position
        near: list[tuple] = []
        for index, crate in enumerate(world.bodies):
            tx, ty = crate.position
            if abs(tx - x) <= NEAR_CRATE[0] and abs(ty - y) <= NEAR_CRATE[1]:
                near.append((index, round(tx / thing_cell), round(ty / thing_cell)))
        for index, platform in enumerate(world.kinematic_bodies):
            tx, ty = platform.position
            if abs(tx - x) <= NEAR_PLATFORM[0] and abs(ty - y) <= NEAR_PLATFORM[1]:
                vx, vy = platform.velocity
                near.append((-1 - index, round(tx / thing_cell), round(ty / thing_cell), (vx > 0) - (vx < 0),
                             (vy > 0) - (vy < 0)))
        switches = tuple(s.pressed for s in stage.find(self.switch_class))
        vx, vy = player.velocity
        speed = (round(vx / VX_BUCKET), round(vy / VY_BUCKET)) if speeds else ()
        return (round(x / cell), round(y / cell), *speed, player.on_floor, stage.controller.climbing, switches,
                len(world.characters), tuple(near))

    def save_for_the_replay(self, steps: int) -> None:
        """Bring the deadline forward by what a replay of ``steps`` steps will cost (at the CPU per step the
        search has spent so far, copies included: a little more than a replay's), so that the search for
        pickups and checkpoints leaves the route's replay inside the budget."""
        spent = time.process_time() - self.start
        per_step = spent / max(self.result.steps, 1)
        self.deadline = min(self.deadline, self.start + self.result.budget - per_step * steps)

    def _check_budget(self) -> None:
        now = time.process_time()
        if now >= self.next_report and self.progress is not None:
            self.next_report = now + PROGRESS_EVERY
            goal = self.result.goal
            aim = self.target or goal
            where = f", {aim.kind} {aim.object_id}: {aim.closest:.0f} px to go" if aim is not None else ""
            self.progress(f"{self.level.path.name}: {self.result.states} states, {now - self.start:.1f} s CPU{where}")
        if now >= self.deadline:
            raise _Budget

    # ---------------------------------------------------------------- the route
    def route(self) -> list[Hold]:
        if self.goal_node is None:
            return []
        node, last = self.goal_node
        parts: list[tuple[Hold, ...]] = [last]
        walk: _Node | None = node
        while walk is not None:
            parts.append(walk.frames)
            walk = walk.parent
        return [held for part in reversed(parts) for held in part]

    def plays(self, route: list[Hold]) -> bool:
        """``route`` played on a fresh stage from the Spawn reaches the Goal with no death."""
        from ..platformer import PlatformerInput

        stage = self._fresh_stage()
        for held in route:
            stage.step(PlatformerInput(**{a: a in held for a in ACTIONS}), STEP)
            if stage.rules.deaths:
                return False
        return bool(stage.rules.complete)


def _inside(sensor: Any, thing: Any) -> bool:
    """Whether ``thing`` (a character or rigid body) overlaps ``sensor``'s area; their centres' distance first
    against the shapes' reach from them (most things are far: the exact test is twenty times dearer)."""
    from ..geometry import Transform, collide

    (sx, sy), (tx, ty) = sensor.position, thing.position
    if math.hypot(tx - sx, ty - sy) > _reach_of(sensor.shape) + _reach_of(thing.shape):
        return False
    manifold = collide(sensor.shape, sensor.transform, thing.shape, Transform(thing.position, getattr(thing, "angle", 0.0)))
    return manifold is not None and manifold.separation < 0.0


@functools.lru_cache(maxsize=256)
def _reach_of(shape: Any) -> float:
    """px: how far ``shape`` reaches from its centre (its core's farthest vertex and its radius)."""
    return max(math.hypot(x, y) for x, y in shape.vertices) + shape.radius


def _reached(target: Target) -> bool:
    return bool(target.reached)


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) else None


def search_reach(level: Level | str | Path, budget: float = 30.0, *, player_shape: Any = None, feel: Any = None,
                 factories: Mapping[str, Callable] | None = None,
                 progress: Callable[[str], None] | None = None, goal_only: bool = False) -> ReachResult:
    """Search what the player can reach in ``level`` within ``budget`` CPU seconds.

    ``player_shape`` (default :func:`default_player_shape`), ``feel`` (a :class:`~engine.PlatformerConfig`,
    default its defaults) and ``factories`` (default :func:`engine.play.standard_factories`) are the game's:
    the stage is built as ``Stage.from_level(level, player_shape, factories, feel=feel)``. ``progress`` is
    called with a line of text every couple of CPU seconds. ``goal_only`` stops once the Goal is reached
    (pickups and checkpoints not touched by then are left undecided).
    """
    from ..warmup import first_start, warm_up

    if not isinstance(level, Level):
        level = load_level(level)
    if progress is not None and first_start():
        progress("compiling the physics kernels (first run on this machine only: minutes of CPU)")
    warm_up()  # (compiled or loaded from the disk cache before the budget's clock starts)
    search = _Search(level, budget, player_shape, feel, factories, progress)
    result = search.result
    try:
        if result.goal is not None:
            search.run_until(lambda: search.goal_node is not None)
            if search.goal_node is not None:
                result.goal_cpu_seconds = time.process_time() - search.start
                search.save_for_the_replay(len(search.route()))
        for target in [] if goal_only else sorted(result.targets, key=lambda t: (t.position[0], t.position[1],
                                                                                 t.object_id or 0)):
            if not target.reached and search.open:
                search.retarget(target)
                search.run_until(partial(_reached, target))
    except _Budget:
        pass
    _settle(result, search.goal_node is not None)
    result.route = search.route()
    result.route_plays = bool(result.route) and search.plays(result.route)
    result.cpu_seconds = time.process_time() - search.start
    return result


def _settle(result: ReachResult, goal_found: bool) -> None:
    """Targets touched are reached; the others are unreachable when the search ran out of states, undecided
    when the budget ran out first."""
    if result.goal is not None:
        result.goal.reached = True if goal_found else (False if result.exhausted else None)
    for target in result.targets:
        if not target.reached:
            target.reached = False if result.exhausted else None


# ------------------------------------------------------------------------------------------------ reporting
def _closest(target: Target) -> str:
    if not math.isfinite(target.closest):
        return "the search never came near it"
    x, y = target.closest_at
    return f"closest reach: {target.closest:.1f} px short of it, with the player at ({x:.0f}, {y:.0f})"


def reach_problems(result: ReachResult) -> list[Problem]:
    """The Goal unreachable (an error), each pickup and checkpoint unreachable (a warning), and what the budget
    left undecided (a warning saying so), as :class:`~engine.level.level.Problem` s."""
    file = str(result.path)
    problems: list[Problem] = []
    budget = f"not decided within the budget ({result.budget:g} s CPU; raise it with --reach-budget)"
    goal = result.goal
    if goal is None:
        problems.append(Problem("warning", file, "no Goal: --reach looked for its pickups and checkpoints only"))
    elif goal.reached is False:
        problems.append(_problem("error", file, goal, f"the Goal cannot be reached from the Spawn; {_closest(goal)}"))
    elif goal.reached is None:
        problems.append(_problem("warning", file, goal, f"whether the Goal can be reached was {budget}; "
                                                        f"{_closest(goal)}"))
    elif not result.route_plays:
        problems.append(_problem("error", file, goal, "the route the search found to the Goal does not reach it "
                                                      "when played again (the simulation is not deterministic)"))
    for target in result.targets:
        if target.reached is False:
            problems.append(_problem("warning", file, target, f"this {target.kind} cannot be reached; "
                                                              f"{_closest(target)}"))
        elif target.reached is None:
            problems.append(_problem("warning", file, target, f"whether this {target.kind} can be reached was "
                                                              f"{budget}; {_closest(target)}"))
    return problems


def _problem(severity: str, file: str, target: Target, message: str) -> Problem:
    return Problem(severity, file, message, target.layer, target.object_id, target.name, target.position)


def summary(result: ReachResult) -> str:
    """One line: what was reached, how long the route plays, how much was searched and in how much CPU."""
    counts = []
    for kind in ("pickup", "checkpoint"):
        of_kind = [t for t in result.targets if t.kind == kind]
        counts.append(f"{sum(1 for t in of_kind if t.reached)}/{len(of_kind)} {kind}s")
    if result.route:
        goal = (f"goal reached in {len(result.route) * STEP:.1f} s of play"
                + ("" if result.route_plays else " (the route does not replay)")
                + f", found in {result.goal_cpu_seconds or 0.0:.1f} s CPU")
    else:
        goal = "goal not reached" if result.goal is not None else "no goal"
    undecided = any(t.reached is None for t in [result.goal, *result.targets] if t is not None)
    return (f"reach: {result.path}: {goal}; {', '.join(counts)}; {result.states} states, {result.steps} steps in "
            f"{result.cpu_seconds:.1f} s CPU" + (" (cut by the budget)" if undecided else ""))


def route_segments(route: Iterable[Hold]) -> list[dict[str, Any]]:
    """The route in the game's ``--input`` format: ``[{"frames": 30, "hold": ["right", "jump"]}, ...]``."""
    segments: list[dict[str, Any]] = []
    for held in route:
        hold = [a for a in ACTIONS if a in held]
        if segments and segments[-1]["hold"] == hold:
            segments[-1]["frames"] += 1
        else:
            segments.append({"frames": 1, "hold": hold})
    return segments


def write_route(result: ReachResult, path: str | Path) -> None:
    """Write the route to the Goal as an input file (``python -m game --headless --level L --input FILE``)."""
    Path(path).write_text(json.dumps(route_segments(result.route), indent=1) + "\n")
