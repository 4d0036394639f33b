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


@pytest.fixture(autouse=True, scope="session")
def physics_kernels_ready():
    """Compile (or load from numba's disk cache) the physics kernels once, before any test, as ``ledgekit
    warmup`` would: on a fresh checkout the first compile takes tens of seconds, and it must not land inside a
    test with a time limit (a subprocess, a game window that waits for its "preparing physics" bar)."""
    from engine import warm_up

    warm_up()
