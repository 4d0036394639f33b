"""Collision filters over many colliders at once: (category, mask, group) columns and the pairwise test."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..types import DEFAULT_FILTER, CollisionFilter

__all__ = ["filter_arrays", "filter_columns", "filters_touch"]


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


def filters_touch(a: tuple[np.ndarray, np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray, np.ndarray]
                  ) -> np.ndarray:
    """Elementwise :meth:`CollisionFilter.touches` of two sets of filter arrays (see :func:`filter_arrays`)."""
    cat_a, mask_a, group_a = a
    cat_b, mask_b, group_b = b
    same_group = (group_a == group_b) & (group_a != 0)
    return np.where(same_group, group_a > 0, ((cat_a & mask_b) != 0) & ((cat_b & mask_a) != 0))
