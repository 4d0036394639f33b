"""The demo's Tiled levels, tileset and project, installed as the package data ``game.levels``.

This folder holds no code: it is a package only so that a wheel carries the maps and
``importlib.resources.files("game.levels")`` finds them wherever Ledgekit is installed (see :mod:`game.data`).
"""
