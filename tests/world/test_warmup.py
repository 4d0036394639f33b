"""Compiling the physics kernels ahead: ``engine.warm_up``, its background form and ``ledgekit warmup``."""

import subprocess
import sys
import time

from engine import warm_up
from engine.level.cli import main
from engine.warmup import WARM_UP_STAGES, BackgroundWarmUp


def test_warm_up_reports_every_stage_in_order_up_to_done():
    seen: list[tuple[float, str]] = []
    seconds = warm_up(lambda fraction, stage: seen.append((fraction, stage)))
    assert len(seen) == WARM_UP_STAGES
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert all(stage for _, stage in seen) and seconds >= 0.0


def test_background_warm_up_finishes_without_error():
    job = BackgroundWarmUp()
    deadline = time.monotonic() + 600
    while not job.done and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.done and job.error is None
    assert job.fraction == 1.0 and job.seconds is not None


def test_ledgekit_warmup_command_prints_progress_and_succeeds(capsys):
    assert main(["warmup"]) == 0
    out = capsys.readouterr().out
    assert "100%" in out and "ready in" in out


def test_ledgekit_warmup_runs_as_an_installed_command():
    done = subprocess.run([sys.executable, "-m", "engine.level.cli", "warmup"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "ready in" in done.stdout
