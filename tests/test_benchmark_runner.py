"""The benchmark runner does not rot: every section of ``tests/benchmarks/run_all.py`` (the building blocks
its ``--quick`` mode runs) runs here on tiny sizes and gives well-formed table rows, and the scenes are the
same for both engines. Nothing here asserts on speed: the times these runs measure are thrown away."""

from __future__ import annotations

import sys
from dataclasses import fields
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_controller  # noqa: E402
import bench_crates  # noqa: E402
import run_all  # noqa: E402

TINY = run_all.Plan(repeats=2, controller_steps=5, level_segments=(100, 200), crowds=(1, 3), crowd_steps=5,
                    pyramid_bases=(2,), pile_counts=(4,), crate_steps=3, sleep_base=2, sleep_steps=5,
                    map_size="20x10", random_map_size="10x6", game_frames=3)


def well_formed(rows: list[str]) -> None:
    assert rows
    for line in rows:
        assert line.startswith("| ") and line.endswith(" |"), line
        cells = line[2:-2].split(" | ")
        assert len(cells) == len(run_all.HEADER[0][2:-2].split(" | ")), line
        assert all(cell.strip() for cell in cells), line
        assert "nan" not in line.lower(), line


def test_the_full_plan_interleaves_at_least_five_rounds_and_the_quick_one_is_smaller():
    assert run_all.FULL.repeats >= 5
    assert run_all.FULL.crowds == (1, 10, 50, 200)
    assert run_all.FULL.pile_counts == (10, 30, 100, 300, 1000)
    assert [b * (b + 1) // 2 for b in run_all.FULL.pyramid_bases] == [10, 36, 105, 300, 990]
    for f in fields(run_all.Plan):
        quick, full = getattr(run_all.QUICK, f.name), getattr(run_all.FULL, f.name)
        if isinstance(full, tuple):
            assert set(quick) <= set(full), f.name
        elif isinstance(full, int):
            assert quick <= full, f.name


def test_rounds_alternate_the_engines():
    calls: list[str] = []
    pair = run_all.interleaved(3, lambda: calls.append("ours") or 2.0, lambda: calls.append("theirs") or 4.0)
    assert calls == ["ours", "theirs"] * 3
    assert pair.ratio == 0.5 and pair.ratio_text() == "0.50x (0.50-0.50)"


def test_controller_and_character_sections():
    rows, scaling = run_all.controller(TINY)
    well_formed(rows)
    assert sorted(scaling) == [100, 200] and len(rows) == 2
    rows = run_all.characters(TINY)
    well_formed(rows)
    assert len(rows) == 2


def test_crowds_get_the_same_starts_and_jumps_in_both_engines():
    runs = bench_controller.platform_runs(100)
    times, lowest = bench_controller.run_ledgekit_crowd(runs, 3, 40)
    arcade_times, arcade_lowest = bench_controller.run_arcade_crowd(runs, 3, 40)
    assert len(times) == len(arcade_times) == 40
    assert lowest > -8.0 and arcade_lowest > -8.0  # landed on the ground, no one fell through


def test_crate_section():
    rows = run_all.crates(TINY)
    well_formed(rows)
    assert len(rows) == 3  # a pyramid, a pile, the pyramid settling with sleep on


def test_crate_scenes_are_seeded_and_built_alike_in_both_engines():
    scene = bench_crates.pile(30)
    assert scene.crates == bench_crates.pile(30).crates and len(scene.crates) == 30
    assert len({(w, h) for w, h, *_ in scene.crates}) > 1  # a few sizes
    world, bodies = bench_crates.ledgekit_world(scene, sleep=False)
    space, pm_bodies = bench_crates.pymunk_space(scene, sleep=False)
    assert len(bodies) == len(pm_bodies) == 30
    ours = [v for b in bodies for v in (*b.position, b.angle)]
    theirs = [v for b in pm_bodies for v in (*b.position, b.angle)]
    assert ours == pytest.approx(theirs)
    assert len(world.static) >= 3 and len(space.static_body.shapes) == 3
    assert len(bench_crates.pyramid(44).crates) == 990


def test_seam_section():
    rows = run_all.seams()
    well_formed(rows)
    assert "set_neighbors" in rows[0]


def test_level_load_section():
    rows = run_all.level_load(TINY)
    well_formed(rows)
    assert len(rows) == 3


def test_demo_section_plays_every_level_of_the_level_select():
    rows, renderer = run_all.demo_frames(TINY)
    well_formed(rows)
    shipped = sorted(p.name for p in (run_all.ROOT / "levels").glob("*.tmx"))
    assert len(rows) == len(shipped)
    assert all(any(f"levels/{name}" in r for r in rows) for name in shipped)
    assert isinstance(renderer, str)


def test_the_table_replaces_only_the_part_between_the_markers():
    text = f"intro\n\n{run_all.START}\nold table\n{run_all.END}\n\nafter\n"
    new = run_all.block(["| a | b | c | d | e |"], "note")
    out = run_all.replace_block(text, new)
    assert out.startswith("intro\n\n" + run_all.START) and out.endswith(run_all.END + "\n\nafter\n")
    assert "old table" not in out and "| a | b | c | d | e |" in out
    readme = (run_all.ROOT / "engine" / "README.md").read_text()
    assert readme.count(run_all.START) == 1 and readme.count(run_all.END) == 1
