"""Helpers for the exhaustive hand tests: every k-subset of a deck as a numpy array, and a reference
evaluator written the obvious way (slow, independent of ``games.engine.hands``' tables)."""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np

REFERENCE_CATEGORIES = {
    "five_of_a_kind": 10,
    "royal_flush": 9,
    "straight_flush": 8,
    "four_of_a_kind": 7,
    "full_house": 6,
    "flush": 5,
    "straight": 4,
    "three_of_a_kind": 3,
    "two_pair": 2,
    "pair": 1,
    "high_card": 0,
}


def combinations(n: int, k: int) -> np.ndarray:
    """Every k-subset of ``range(n)`` in lexicographic order, as an ``(C(n, k), k)`` array."""
    rows = np.arange(n, dtype=np.int16)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1].astype(np.int64)
        counts = n - 1 - last
        ends = np.cumsum(counts)
        total = int(ends[-1]) if len(ends) else 0
        new = np.arange(total) - np.repeat(ends - counts, counts) + np.repeat(last + 1, counts)
        rows = np.hstack([np.repeat(rows, counts, axis=0), new[:, None].astype(np.int16)])
    return rows


ALL_STRAIGHTS = frozenset(range(5, 15))


@functools.cache
def reference(
    ranks: tuple[int, ...], flush: bool, straights: frozenset[int] = ALL_STRAIGHTS
) -> tuple[int, tuple[int, ...]]:
    """(category, ranks compared) of 5 cards given their ranks (2..14, repeats allowed) and whether
    they all share a suit; the best category they make, per CM-11..CM-13. ``straights`` are the
    tops of the straights the pack allows (WP-8)."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [count for _, count in groups]
    order = tuple(rank for rank, _ in groups)
    distinct = sorted(counts)
    top = None
    if len(distinct) == 5 and distinct[4] - distinct[0] == 4:
        top = distinct[4]
    elif distinct == [2, 3, 4, 5, 14]:
        top = 5
    if top not in straights:
        top = None
    if shape == [5]:
        return 10, order
    if top and flush:
        return (9, (14,)) if top == 14 else (8, (top,))
    if shape == [4, 1]:
        return 7, order
    if shape == [3, 2]:
        return 6, order
    if flush:
        return 5, tuple(sorted(ranks, reverse=True))
    if top:
        return 4, (top,)
    return {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0), order
