"""The in-process cache of tables' latest states, which ``games.store.load`` starts from (a
command's state is offered to it once the command commits)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.db import transaction

from games.engine.decider import Decider

CACHE_SIZE = 2048


def _table_id(table: Any) -> Any:
    """A table's id, from the table (anything with a ``pk``) or the id itself."""
    return getattr(table, "pk", table)


_cache: OrderedDict[tuple[Any, str], tuple[int, Any]] = OrderedDict()
_cache_lock = threading.Lock()


def remember(table: Any, decider: Decider, version: int, state: Any) -> None:
    """Offer the state of ``table`` at ``version`` to the in-process cache once the current
    transaction commits (never a state a rollback would undo). States are immutable, so sharing
    them between threads is safe."""
    key = (_table_id(table), decider.slug)

    def store() -> None:
        with _cache_lock:
            known = _cache.get(key)
            if known is None or known[0] < version:
                _cache[key] = (version, state)
            _cache.move_to_end(key)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)

    transaction.on_commit(store)


def forget(table: Any | None = None) -> None:
    """Drop cached states: of one table, or all of them (after restoring a database, say)."""
    with _cache_lock:
        if table is None:
            _cache.clear()
            return
        table_id = _table_id(table)
        for key in [key for key in _cache if key[0] == table_id]:
            del _cache[key]


def _cached(table_id: Any, decider: Decider) -> tuple[int, Any] | None:
    with _cache_lock:
        return _cache.get((table_id, decider.slug))
