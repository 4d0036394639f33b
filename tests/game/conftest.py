"""Game tests never read or write the player's real settings: the config folder is a fresh tmp dir."""

import pytest


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder

