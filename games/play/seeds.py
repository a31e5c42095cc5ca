"""Hand seeds: made and committed ahead (CM-5), and remembered by each process once committed.

A hand's server seed and commitment never change once made (only its client seed and reveal time
are filled in later, and commands do not read those), so each process keeps the committed ones:
most commands then need no seed query.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

from django.db import transaction

from games.engine import fairness
from games.models import HandSeed, Table

# Keyed by (table id, hand number).
_SEED_CACHE_SIZE = 4096
_seed_cache: dict[tuple[Any, int], tuple[bytes, str]] = {}
_seed_cache_lock = threading.Lock()


def ensure_seeds(table: Table, *, upto: int) -> None:
    """Make and commit the seeds of every hand up to ``upto`` that has none yet."""
    have = set(HandSeed.objects.filter(table=table, hand_no__lte=upto).values_list("hand_no", flat=True))
    for hand_no in range(1, upto + 1):
        if hand_no not in have:
            seed = secrets.token_bytes(fairness.SEED_BYTES)
            HandSeed.objects.create(
                table=table, hand_no=hand_no, server_seed=seed, commitment=fairness.commitment(seed)
            )


def forget_seeds() -> None:
    """Drop the process's remembered seeds (after a database is restored or recreated)."""
    with _seed_cache_lock:
        _seed_cache.clear()


def hand_seeds(table: Table, *hands: int) -> dict[int, tuple[bytes, str]]:
    """``{hand_no: (server_seed, commitment)}`` of ``hands``, made if missing."""
    with _seed_cache_lock:
        seeds = {n: _seed_cache[(table.pk, n)] for n in hands if (table.pk, n) in _seed_cache}
    if len(seeds) == len(hands):
        return seeds
    # Every earlier hand got its seeds when it was next; only these can be missing.
    wanted = [n for n in hands if n not in seeds]
    read = HandSeed.objects.filter(table=table, hand_no__in=wanted).values_list("hand_no", "server_seed", "commitment")
    found = {n: (bytes(seed), commitment) for n, seed, commitment in read}
    if len(found) < len(wanted):
        ensure_seeds(table, upto=max(hands))
        found = {n: (bytes(seed), commitment) for n, seed, commitment in read.all()}
    seeds.update(found)
    transaction.on_commit(lambda: _keep(table.pk, found))
    return seeds


def _keep(table_id: Any, found: dict[int, tuple[bytes, str]]) -> None:
    # Only once committed: a rolled-back command's new seeds never existed.
    with _seed_cache_lock:
        if len(_seed_cache) + len(found) > _SEED_CACHE_SIZE:
            _seed_cache.clear()
        _seed_cache.update({(table_id, n): seed for n, seed in found.items()})
