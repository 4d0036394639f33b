"""``ledgekit check --reach``: hand-made maps whose gaps, ledges, coins and switches lie just inside or just
outside what the hero can do, worked out from ``PlatformerConfig`` (jump height, run speed, air time); the
search must tell them apart with the real physics, and a route it finds must play to the goal in the game.

Maps are drawn with Solid rectangles in Tiled's frame (y down): the floor's top is at y = FLOOR_Y.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from engine import MoverConfig, PlatformerConfig
from engine.level.cli import DEFAULT_REACH_BUDGET, main
from engine.level.reach import reach_problems, search_reach, summary, write_route

from .mapkit import map_text, objects, write_map

FLOOR_Y = 320
"""Tiled y of the floor's top (px, y down); the map is 384 px tall."""
GRAVITY = 1800.0
"""The maps' gravity (the default map property), px/s^2."""
HERO_WIDTH = 20.0
BUDGET = 120.0
"""CPU seconds: far more than these small maps need (they are searched to the end in a few seconds)."""


def jump_numbers(cfg: PlatformerConfig) -> tuple[float, float]:
    """(highest jump, px; time in the air of a held jump back down to the height it left, s), from the
    controller's rules: take-off speed sqrt(2 g jump_height), lighter gravity while |vy| < apex_threshold and
    jump held, heavier gravity falling."""
    v0 = math.sqrt(2 * GRAVITY * cfg.jump_height)
    apex_v, light, heavy = cfg.apex_threshold, GRAVITY * cfg.apex_gravity_multiplier, GRAVITY * cfg.fall_gravity_multiplier
    rise = (v0 ** 2 - apex_v ** 2) / (2 * GRAVITY)
    height = rise + apex_v ** 2 / (2 * light)
    t_rise, t_apex = (v0 - apex_v) / GRAVITY, 2 * apex_v / light
    t_fall = (math.sqrt(apex_v ** 2 + 2 * heavy * rise) - apex_v) / heavy
    return height, t_rise + t_apex + t_fall


HIGHEST, AIR_TIME = jump_numbers(PlatformerConfig())
LONGEST = PlatformerConfig().run_speed * AIR_TIME
"""px the hero's centre travels across in a held running jump."""
WIDEST_GAP = PlatformerConfig().run_speed * (AIR_TIME + PlatformerConfig().coyote_time) + HERO_WIDTH
"""An upper bound on the widest gap: the flight, the coyote time's run past the edge and the hero's width."""
HIGHEST_LEDGE = HIGHEST + MoverConfig().step_height
"""The highest ledge: the jump, and the mover's step up onto a ledge the feet come within that far of."""


def test_the_numbers_are_the_controllers():
    assert 85 < HIGHEST < 95 and 150 < LONGEST < 190  # 89.8 px high, 166 px long with the defaults


class Sketch:
    """A map made of objects (Tiled frame), written beside the fixture tileset."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.items: list[str] = []
        self.next_id = 1

    def add(self, cls: str, x: float, y: float, w: float = 0, h: float = 0, name: str = "",
            props: str = "") -> int:
        oid = self.next_id
        self.next_id += 1
        size = f' width="{w}" height="{h}"' if w else ""
        body = ("" if w else "<point/>") + (f"<properties>{props}</properties>" if props else "")
        self.items.append(f'<object id="{oid}" name="{name}" class="{cls}" x="{x}" y="{y}"{size}>{body}</object>')
        return oid

    def floor(self, x0: float, x1: float, top: float = FLOOR_Y) -> None:
        self.add("Solid", x0, top, x1 - x0, 384 - top)

    def write(self, folder: Path, name: str) -> Path:
        self.add("Solid", -32, 0, 32, 384, "left wall")
        self.add("Solid", self.width, 0, 32, 384, "right wall")
        return write_map(folder, map_text(objects("".join(self.items)), w=self.width // 32, h=12, spawn=False),
                         name)


def gap_map(folder: Path, gap: float) -> Path:
    """Spawn on a floor 200 px wide; a gap of ``gap`` px with spikes at its bottom; the goal on the far side."""
    s = Sketch(640)
    s.add("Spawn", 40, FLOOR_Y - 20)
    s.floor(0, 200)
    s.floor(200 + gap, 640)
    s.add("Hazard", 200, 370, gap, 14, "spikes")
    s.add("Goal", 560, FLOOR_Y - 64, 32, 64, "flag")
    return s.write(folder, "gap.tmx")


def ledge_map(folder: Path, height: float) -> Path:
    """Spawn on the floor; a step ``height`` px high; the goal on top of it."""
    s = Sketch(640)
    s.add("Spawn", 40, FLOOR_Y - 20)
    s.floor(0, 640)
    s.floor(300, 640, FLOOR_Y - height)
    s.add("Goal", 560, FLOOR_Y - height - 64, 32, 64, "flag")
    return s.write(folder, "ledge.tmx")


def search(path: Path):
    result = search_reach(path, BUDGET)
    assert result.exhausted or result.route, "the budget cut the search: the verdict would mean nothing"
    return result


@pytest.mark.slow
def test_a_gap_a_hero_wider_than_the_longest_jump_is_crossed_and_its_route_plays(tmp_path):
    result = search(gap_map(tmp_path, LONGEST + HERO_WIDTH))
    assert result.goal.reached and result.route_plays
    assert not [p for p in reach_problems(result) if p.severity == "error"]


@pytest.mark.slow
def test_a_gap_wider_than_any_jump_is_an_error_naming_the_goal(tmp_path):
    result = search(gap_map(tmp_path, WIDEST_GAP))
    assert result.goal.reached is False and result.exhausted and not result.route
    errors = [p for p in reach_problems(result) if p.severity == "error"]
    assert len(errors) == 1 and errors[0].name == "flag" and "cannot be reached" in errors[0].message
    assert "closest reach:" in errors[0].message


@pytest.mark.slow
def test_a_ledge_just_below_the_highest_is_climbed(tmp_path):
    result = search(ledge_map(tmp_path, HIGHEST_LEDGE - 4))
    assert result.goal.reached and result.route_plays


@pytest.mark.slow
def test_a_ledge_just_above_the_highest_is_out_of_reach(tmp_path):
    result = search(ledge_map(tmp_path, HIGHEST_LEDGE + 4))
    assert result.goal.reached is False and result.exhausted
    assert 0 < result.goal.closest < math.inf


@pytest.mark.slow
def test_a_coin_above_the_highest_jump_is_a_warning_and_one_below_is_collected(tmp_path):
    s = Sketch(640)
    s.add("Spawn", 40, FLOOR_Y - 20)
    s.floor(0, 640)
    low = s.add("Pickup", 300, FLOOR_Y - 32 - 0.8 * HIGHEST, name="low coin")
    high = s.add("Pickup", 400, FLOOR_Y - 32 - HIGHEST - 12 - 10, name="high coin")
    s.add("Goal", 560, FLOOR_Y - 64, 32, 64, "flag")
    result = search(s.write(tmp_path, "coins.tmx"))
    by_id = {t.object_id: t for t in result.targets}
    assert by_id[low].reached is True and by_id[high].reached is False
    warnings = [p for p in reach_problems(result) if p.severity == "warning"]
    assert [p.object_id for p in warnings] == [high]
    assert warnings[0].name == "high coin" and "cannot be reached" in warnings[0].message
    assert 0 < by_id[high].closest < 20  # the head's box at the apex, just under the coin's


def door_map(folder: Path, switch_high: bool) -> Path:
    """A wall from the ceiling down to a door on the floor; the goal behind it; the door's switch on the floor
    before it, or on a shelf higher than any jump."""
    s = Sketch(640)
    s.add("Spawn", 40, FLOOR_Y - 20)
    s.floor(0, 640)
    door = s.add("Door", 400, FLOOR_Y - 96, 16, 96, "gate")
    s.add("Solid", 400, 0, 16, FLOOR_Y - 96, "wall over the door")
    ref = f'<property name="door" type="object" value="{door}"/>'
    if switch_high:
        s.add("Solid", 200, FLOOR_Y - 200, 64, 16, "high shelf")
        s.add("Switch", 216, FLOOR_Y - 208, 32, 8, "button", ref)
    else:
        s.add("Switch", 216, FLOOR_Y - 8, 32, 8, "button", ref)
    s.add("Goal", 560, FLOOR_Y - 64, 32, 64, "flag")
    return s.write(folder, "door.tmx")


@pytest.mark.slow
def test_a_goal_behind_a_door_whose_switch_can_be_pressed_is_reached(tmp_path):
    result = search(door_map(tmp_path, switch_high=False))
    assert result.goal.reached and result.route_plays


@pytest.mark.slow
def test_a_goal_behind_a_door_whose_switch_is_out_of_reach_is_an_error(tmp_path):
    result = search(door_map(tmp_path, switch_high=True))
    assert result.goal.reached is False and result.exhausted
    assert [p.name for p in reach_problems(result) if p.severity == "error"] == ["flag"]


def test_a_tiny_budget_says_not_decided_rather_than_unreachable(tmp_path):
    result = search_reach(gap_map(tmp_path, WIDEST_GAP), budget=0.05)
    assert result.goal.reached is None and not result.exhausted
    problems = reach_problems(result)
    assert [p.severity for p in problems] == ["warning"]
    assert "not decided within the budget" in problems[0].message


@pytest.mark.slow
def test_the_command_prints_the_verdict_and_exits_1_for_an_unreachable_goal(tmp_path, capsys):
    path = ledge_map(tmp_path, HIGHEST_LEDGE + 4)
    assert main(["check", "--reach", "--reach-budget", str(BUDGET), str(path)]) == 1
    captured = capsys.readouterr()
    out = captured.out
    assert "error:" in out and "'flag'" in out and "cannot be reached" in out and "closest reach:" in out
    assert out.strip().splitlines()[-1] == "1 map(s) checked: 1 error(s), 0 warning(s)"
    assert "reach: ledge.tmx:" in captured.err and "s CPU" in captured.err  # the progress line


def test_route_and_budget_need_reach(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["check", "--route", str(tmp_path / "r.json"), "levels/demo.tmx"])
    assert stop.value.code == 2


def test_a_route_for_several_maps_goes_into_a_folder(tmp_path, capsys):
    first, second = ledge_map(tmp_path / "a", 40), gap_map(tmp_path / "b", 64)
    assert main(["check", "--reach", "--route", str(tmp_path / "route.json"), str(first), str(second)]) == 2
    assert "must be a folder" in capsys.readouterr().err
    (tmp_path / "routes").mkdir()
    assert main(["check", "--reach", "--route", str(tmp_path / "routes"), str(first), str(second)]) == 0
    assert sorted(p.name for p in (tmp_path / "routes").iterdir()) == ["gap.json", "ledge.json"]


def test_the_same_map_gives_the_same_route(tmp_path):
    path = ledge_map(tmp_path, HIGHEST_LEDGE - 4)
    first, second = search_reach(path, BUDGET), search_reach(path, BUDGET)
    assert first.route and first.route == second.route and first.states == second.states


def play_route(level: Path, route: Path, tmp_path: Path) -> list[dict]:
    """The route played by the game's headless runner; the trace's events, step by step."""
    from game.__main__ import main as game

    frames = sum(seg["frames"] for seg in json.loads(route.read_text()))
    trace = tmp_path / "trace.jsonl"
    assert game(["--headless", "--level", str(level), "--frames", str(frames + 30), "--input", str(route),
                 "--trace", str(trace)]) == 0
    return [e for line in trace.read_text().splitlines() for e in json.loads(line)["events"]]


def test_the_route_file_plays_to_the_goal_in_the_game(tmp_path):
    path = door_map(tmp_path, switch_high=False)
    route = tmp_path / "route.json"
    assert main(["check", "--reach", "--route", str(route), str(path)]) == 0
    kinds = [e["type"] for e in play_route(path, route, tmp_path)]
    assert "switch" in kinds and kinds[-1] == "goal"
    assert not {"hazard", "fall", "enemy", "crushed"} & set(kinds)


ROOT = Path(__file__).resolve().parents[2]


def shipped_level_names() -> list[str]:
    """Every level the game ships (its level select lists these)."""
    from game.data import shipped_levels

    return [path.stem for path in shipped_levels()]


def test_the_shipped_levels_are_the_five_this_test_was_measured_on():
    assert sorted(shipped_level_names()) == ["1_hills_and_ledges", "2_crates", "3_machines", "demo", "playground"]


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_level_names())
def test_every_shipped_level_reaches_its_goal_by_a_route_that_plays(tmp_path, name):
    # (Four times the default budget: speed is measured, not asserted; the closing notes and the README give
    # each level's search time, all within the default 30 s on an idle machine. A busy CI machine's CPU
    # seconds run slower.)
    level = ROOT / "levels" / f"{name}.tmx"
    result = search_reach(level, 4 * DEFAULT_REACH_BUDGET, goal_only=True)
    assert result.goal.reached and result.route_plays, summary(result)
    route = tmp_path / "route.json"
    write_route(result, route)
    kinds = [e["type"] for e in play_route(level, route, tmp_path)]
    assert "goal" in kinds and not {"hazard", "fall", "enemy", "crushed"} & set(kinds)


def test_a_level_its_factories_refuse_is_an_error_not_a_traceback(tmp_path, capsys):
    s = Sketch(640)
    s.add("Spawn", 40, FLOOR_Y - 20)
    s.floor(0, 640)
    s.add("Switch", 216, FLOOR_Y - 8, 32, 8, "button")  # no door property
    path = s.write(tmp_path, "broken.tmx")
    assert main(["check", "--reach", str(path)]) == 1
    out = capsys.readouterr().out
    assert "--reach cannot build the level" in out and "Switch" in out and "door" in out


def test_a_route_that_cannot_be_written_is_an_error(tmp_path, capsys):
    path = ledge_map(tmp_path, 40)
    assert main(["check", "--reach", "--route", str(tmp_path / "missing" / "route.json"), str(path)]) == 1
    assert "cannot write the route to" in capsys.readouterr().out
