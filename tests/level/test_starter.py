"""``ledgekit new DIR``: the starter game is written, checks clean, and plays headless from another folder."""

import re
import subprocess
import sys

from engine import load_level
from engine.level.cli import main as ledgekit
from engine.level.starter import STARTER_FILES


def test_ledgekit_new_writes_a_game_that_checks_clean_and_refuses_to_overwrite(tmp_path, capsys):
    folder = tmp_path / "mygame"
    assert ledgekit(["new", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(STARTER_FILES)
    assert f"python {folder / 'main.py'} --headless --frames 60" in capsys.readouterr().out
    assert ledgekit(["check", str(folder)]) == 0
    assert capsys.readouterr().out.strip().endswith("1 map(s) checked: 0 error(s), 0 warning(s)")
    before = (folder / "main.py").read_text() + "# my edits\n"
    (folder / "main.py").write_text(before)
    assert ledgekit(["new", str(folder)]) == 2  # a developer's game is never overwritten
    assert "already exists" in capsys.readouterr().err and (folder / "main.py").read_text() == before


def test_the_starter_level_has_every_piece_a_platformer_starts_with(tmp_path):
    assert ledgekit(["new", str(tmp_path / "g")]) == 0
    level = load_level(tmp_path / "g" / "level1.tmx")
    assert level.spawn is not None and level.one_way  # the plank is a one-way platform
    for kind, count in (("pickup", 2), ("checkpoint", 1), ("goal", 1)):
        assert len(level.of_kind(kind)) == count, kind
    assert [o.cls for o in level.objects].count("Crate") == 1 and [o.cls for o in level.objects].count("Sign") == 2
    slopes = [(a, b) for ring in level.solid_rings for a, b in zip(ring, ring[1:]) if a[0] != b[0] and a[1] != b[1]]
    assert len(slopes) >= 2  # up and down the hill, 45 degrees


def test_the_starter_runs_headless_from_another_folder(tmp_path):
    assert ledgekit(["new", str(tmp_path / "mygame")]) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    runs = {}
    for frames in (60, 120):
        done = subprocess.run([sys.executable, str(tmp_path / "mygame" / "main.py"), "--headless", "--frames", str(frames)],
                              cwd=elsewhere, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        found = re.search(r"(\d+) steps: hero at \((-?\d+), (-?\d+)\), coins 0/2", done.stdout)
        assert found and int(found[1]) == frames, done.stdout
        runs[frames] = int(found[2]), int(found[3])
    assert runs[60][0] > 200  # holding right, the hero ran from the spawn (x = 64)...
    assert runs[120][1] > runs[60][1] + 24  # ...and up the slope onto the higher ground
