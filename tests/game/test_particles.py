"""Particles react to what a step reported: dust on landing and running, sparkles at a taken pickup, a puff
where an enemy was stomped; each particle fades and goes."""

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

from game.app import ASSETS  # noqa: E402
from game.particles import Particles  # noqa: E402
from game.runner import frames_of, read_input  # noqa: E402
from game.session import Session  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def hero(x=100.0, y=50.0, vx=0.0, on_floor=True):
    return SimpleNamespace(position=(x, y), velocity=(vx, 0.0), on_floor=on_floor)


def test_landing_kicks_up_dust_at_the_feet_and_it_fades_away():
    particles = Particles(ASSETS)
    particles.after_step(hero(), ["land"], [], 1 / 60)
    assert len(particles.live) >= 4
    assert all(abs(p.sprite.center_y - 33) < 1 and abs(p.sprite.center_x - 100) < 1 for p in particles.live)
    particles.update(0.1)
    assert all(p.sprite.center_y > 33 for p in particles.live)  # dust rises
    particles.update(1.0)
    assert particles.live == [] and len(particles.sprites) == 0


def test_running_fast_leaves_a_trail_of_dust_standing_leaves_none():
    particles = Particles(ASSETS)
    for _ in range(30):
        particles.after_step(hero(vx=0.0), [], [], 1 / 60)
    assert particles.live == []
    for _ in range(30):
        particles.after_step(hero(vx=250.0), [], [], 1 / 60)
    assert 4 <= len(particles.live) <= 7  # one puff every 0.09 s over half a second


@pytest.mark.parametrize(("level", "kind", "texture"), [("1_hills_and_ledges", "pickup", "sparkle"),
                                                        ("3_machines", "stomp", "puff")])
def test_a_pickup_sparkles_and_a_stomp_puffs_where_it_happened(level, kind, texture):
    session = Session.open(ROOT / "levels" / f"{level}.tmx")
    particles = Particles(ASSETS)
    inputs = frames_of(read_input(Path(__file__).parent / "runs" / f"{level}.json"))
    for _ in range(3000):
        session.step(next(inputs))
        happened = [e for e in session.game_events if e.type == kind]
        if happened:
            break
    assert happened, f"the recorded run has a {kind}"
    particles.after_step(session.hero, session.controller.events, session.game_events, 1 / 60)
    source = happened[0].source
    where = (source.character if hasattr(source, "character") else source.sensor if hasattr(source, "sensor")
             else source).position
    mine = [p for p in particles.live if p.sprite.texture is particles.textures[texture]]
    assert len(mine) >= 5
    assert all(abs(p.sprite.center_x - where[0]) < 1 and abs(p.sprite.center_y - where[1]) < 1 for p in mine)

