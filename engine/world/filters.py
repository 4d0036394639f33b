"""Collision filters over many colliders at once: their (category, mask, group) columns (the compiled
gathering tests them pair by pair)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..types import DEFAULT_FILTER, CollisionFilter

__all__ = ["filter_arrays", "filter_columns"]


def filter_arrays(filters: Sequence[CollisionFilter]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(category, mask, group) arrays of ``filters``; ``None`` when every one is the default (the usual case:
    then every pair touches and nothing needs testing)."""
    if filters.count(DEFAULT_FILTER) == len(filters):  # (each compared by identity, then ==, at C speed)
        return None
    return filter_columns(filters)


def filter_columns(filters: Sequence[CollisionFilter]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(category, mask, group) arrays of ``filters``."""
    return (np.array([f.category for f in filters], dtype=np.int64), np.array([f.mask for f in filters], dtype=np.int64),
            np.array([f.group for f in filters], dtype=np.int64))
