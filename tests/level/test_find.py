"""Finding a map by its name or path (what ``--level demo`` and ``ledgekit check demo`` rest on)."""

from pathlib import Path

import pytest

from engine import LevelError
from engine.level.cli import main as ledgekit
from engine.level.find import find_map, maps_in

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ROOT / "levels"


def test_a_name_finds_the_map_in_the_folders(tmp_path):
    assert find_map("demo", [tmp_path, LEVELS]) == LEVELS / "demo.tmx"
    assert find_map("demo.tmx", [LEVELS]) == LEVELS / "demo.tmx"
    (tmp_path / "demo.tmj").write_text("{}")
    assert find_map("demo", [tmp_path, LEVELS]) == tmp_path / "demo.tmj"  # the first folder that has it


def test_an_existing_path_is_taken_as_it_is(tmp_path, monkeypatch):
    (tmp_path / "demo.tmx").write_text("<map/>")
    monkeypatch.chdir(tmp_path)
    assert find_map("demo.tmx", [LEVELS]) == Path("demo.tmx")  # the working folder's file, not the shipped one


def test_a_missing_map_names_the_known_levels(tmp_path):
    with pytest.raises(LevelError, match=r"^nowhere: no such map file.*the levels are: 1_hills_and_ledges, 2_crates"):
        find_map("nowhere", [LEVELS])
    with pytest.raises(LevelError, match=r"sub/demo.tmx: no such map file"):
        find_map("sub/demo.tmx", [LEVELS])  # a path into a folder is a path, never a shipped name
    assert maps_in(tmp_path / "missing") == []


def test_ledgekit_check_takes_shipped_names_and_all_shipped_levels(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert ledgekit(["check", "demo"]) == 0
    assert f"ok: {LEVELS / 'demo.tmx'}" in capsys.readouterr().out
    assert ledgekit(["check", "--shipped"]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith(f"{len(maps_in(LEVELS))} map(s) checked: 0 error(s), 0 warning(s)")
    with pytest.raises(SystemExit):
        ledgekit(["check"])  # nothing named: a usage mistake (exit 2), not a silent pass
