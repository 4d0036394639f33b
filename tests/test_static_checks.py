"""Lint (ruff) and type checks (mypy) of the engine and the demo game, as tests: a newcomer's test run keeps them green."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tool(name):
    exe = Path(sys.executable).parent / name
    return str(exe) if exe.exists() else shutil.which(name)


@pytest.mark.skipif(tool("ruff") is None, reason="ruff is installed by the test extra")
def test_ruff_is_clean():
    done = subprocess.run([tool("ruff"), "check", "engine", "game", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(tool("mypy") is None, reason="mypy is installed by the test extra")
def test_mypy_is_clean_on_the_engine_and_the_game():
    done = subprocess.run([tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
