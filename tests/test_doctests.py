"""The docstring examples of the engine run as tests, so they never rot."""

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
