"""Game tests never read or write the player's real settings: the config folder is a fresh tmp dir."""

import pytest


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder


@pytest.fixture(autouse=True, scope="session")
def physics_ready():
    """Compile (or load) the physics kernels before any window is made, as ``ledgekit warmup`` would: a window
    then finds them ready at once instead of showing its "preparing physics" bar for the first frames."""
    from engine import warm_up

    warm_up()
