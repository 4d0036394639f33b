"""The mover's gather-and-slide in one compiled call (``World._gathered_slide``, with
:func:`engine.world.cast_kernel.gather_slide_touch`) against gathering first and sliding after, bit for bit.

A character runs and jumps about a level of chains, loose segments at any angle and a one-way ledge, with
the shortcut on and off: every step's position, velocity, contact flags, hits and path are the same. The
shortcut must have answered most steps, and its way back (a row not built yet, a one-way segment) must have
been taken too, or the comparison proves nothing.
"""

import numpy as np
import pytest

from engine import Character, PlatformerController, PlatformerInput, RoundedPolygon, World
from engine.world import world as world_module
from tests.world.test_cast_kernel import random_world


def run(seed: int, shortcut: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple], dict[str, int]]:
    """Each step's state of a character driven by random buttons for 600 steps (its hits' colliders by
    segment: each run builds its own world), and how the shortcut went."""
    counts = {"slid": 0, "declined": 0}
    compiled = world_module.gather_slide_touch

    def counted(*args):
        answer = compiled(*args)
        counts["slid" if answer[1] else "declined"] += 1
        return answer

    monkeypatch.setattr(world_module, "gather_slide_touch", counted)
    if not shortcut:
        monkeypatch.setattr(World, "_gathered_slide", lambda *args: None)
    world = random_world(seed)
    world.add_segments([(60.0, 30.0)], [(120.0, 30.0)], radius=1.0, one_way=(0.0, 1.0))
    controller = PlatformerController(world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 20.0))))
    rng = np.random.default_rng(seed)
    states = []
    for _ in range(600):
        left, right, jump, down = (rng.random(4) < (0.3, 0.4, 0.1, 0.05)).tolist()
        controller.update(PlatformerInput(left=left, right=right, jump=jump, down=down), 1 / 60)
        world.step(1 / 60)
        ch = controller.character
        move = ch.last_move
        hits = [(h.fraction, h.point, h.normal, h.collider.segment, h.started_inside) for h in move.hits]
        states.append((ch.position, ch.velocity, ch.on_floor, ch.on_wall, ch.on_ceiling, ch.floor_normal,
                       ch.wall_normal, ch.floor_point, hits, move.path))
    monkeypatch.undo()
    return states, counts


@pytest.mark.parametrize("seed", range(4))
def test_gathering_and_sliding_in_one_call_moves_a_character_exactly_as_the_two_steps_do(seed, monkeypatch):
    with_shortcut, counts = run(seed, True, monkeypatch)
    without, off = run(seed, False, monkeypatch)
    assert with_shortcut == without
    assert counts["slid"] > 100 and counts["declined"] >= 1, counts
    assert off["slid"] == off["declined"] == 0


def test_a_gathers_segments_are_found_when_first_asked_for():
    world = random_world(7)
    box = (-100.0, -100.0, 100.0, 100.0)
    gathered = world.candidates(box)
    assert gathered.pending is not None
    segments = gathered.segments
    assert gathered.pending is None
    expected = sorted(n.collider.segment for n in world.static.neighbours_in(box))
    assert segments.tolist() == expected and len(expected) > 5 and gathered.count == len(expected)
