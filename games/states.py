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


# By table id: the game's slug, the version and the state at it. A table's game never changes; the
# slug is kept so that a state is only ever given back to the game it is of.
_cache: OrderedDict[Any, tuple[str, int, Any]] = OrderedDict()
_cache_lock = threading.Lock()


def remember(table: Any, decider: Decider, version: int, state: Any) -> None:
    """Offer the state of ``table`` at ``version`` to the in-process cache once the current
    transaction commits (never a state a rollback would undo). States are immutable, so sharing
    them between threads is safe."""
    key, slug = _table_id(table), decider.slug

    def store() -> None:
        with _cache_lock:
            known = _cache.get(key)
            if known is None or known[0] != slug or known[1] < version:
                _cache[key] = (slug, version, state)
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
        _cache.pop(_table_id(table), None)


def _cached(table_id: Any, decider: Decider) -> tuple[int, Any] | None:
    with _cache_lock:
        found = _cache.get(table_id)
    return found[1:] if found is not None and found[0] == decider.slug else None


def cached_version(table_id: Any) -> int | None:
    """The version of the table's state in the cache, if it holds one (of whichever game): what a
    reader that has not read the table's row yet asks for the events after."""
    with _cache_lock:
        found = _cache.get(table_id)
    return found[1] if found is not None else None
