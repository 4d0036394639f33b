"""Shared test setup: headless arcade, and hypothesis profiles.

The default profile is derandomized so CI runs are reproducible; set ``HYPOTHESIS_PROFILE=dev`` for a
longer, randomised search while developing.
"""

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "dev",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402

MAX_WORKERS = 4
"""The most test processes ``-n auto`` starts: each holds numba and the compiled kernels (about 300 MB)."""


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core this process may run on (the container's, not the host's), at most
    :data:`MAX_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # (not on Linux)
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def pytest_sessionstart(session):
    """With workers (pytest-xdist), compile the physics kernels once, here in the controller, before they
    start: each then loads them from numba's disk cache in a second instead of all compiling the same kernels
    at once (on a fresh checkout, a minute or two of CPU each)."""
    distributed = getattr(session.config.option, "numprocesses", None) and not hasattr(session.config, "workerinput")
    if distributed and not session.config.option.collectonly:
        from engine import warm_up

        warm_up()


@pytest.fixture(autouse=True, scope="session")
def physics_kernels_ready():
    """Compile (or load from numba's disk cache) the physics kernels once, before any test, as ``ledgekit
    warmup`` would: on a fresh checkout the first compile takes tens of seconds, and it must not land inside a
    test with a time limit (a subprocess, a game window that waits for its "preparing physics" bar)."""
    from engine import warm_up

    warm_up()
