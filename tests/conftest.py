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
