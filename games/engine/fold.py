"""The one fold over a table's stored events: each row decoded into the game's event and applied to
the state before it, step by step.

Pure: the rows come from whoever read them (the store's ``Recorded`` rows, a test's). Every
reader of a table's history (loading, the hand audit, reconcile, a dispute's player views, the
replay view, ``check_replay``) folds through here, so they cannot drift apart in how an event is
decoded, applied, or how a broken one is named.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

from games.engine.codec import decode_event
from games.engine.decider import Decider, event_types_by_name


class Row(Protocol):
    """What the fold reads of a stored event (the store's rows have more: who, when, hashes)."""

    seq: int
    type: str
    data: Mapping[str, Any]
    secret: Mapping[str, Any]


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One stored event of a table's history: its stored ``row``, the game's event it decodes
    to, and the table's state just before and just after it."""

    row: Any
    event: Any
    before: Any
    after: Any


class ReplayFailed(Exception):
    """A stored event that does not decode or does not apply to the state before it. ``applies``
    is true when it decoded (``event``) and ``evolve`` refused it; ``before`` is the state it met."""

    def __init__(self, seq: int, type_name: str, error: Exception, before: Any = None, event: Any = None) -> None:
        super().__init__(f"event {seq} ({type_name}) does not replay: {type(error).__name__}: {error}")
        self.seq = seq
        self.type_name = type_name
        self.error = error
        self.before = before
        self.event = event

    @property
    def applies(self) -> bool:
        """True when the event decoded and it is applying it that failed."""
        return self.event is not None


def fold(decider: Decider, state: Any, rows: Iterable[Row]) -> Iterator[Step]:
    """The steps of folding ``rows`` (stored events, in ``seq`` order) into ``state``, one per
    row; ``ReplayFailed`` at the first row that does not decode or apply."""
    types = event_types_by_name(decider)
    evolve = decider.evolve
    for row in rows:
        try:
            event = decode_event(types, row.type, row.data, row.secret)
        except Exception as error:
            raise ReplayFailed(row.seq, row.type, error, state) from error
        try:
            after = evolve(state, event)
        except Exception as error:
            raise ReplayFailed(row.seq, row.type, error, state, event) from error
        yield Step(row, event, state, after)
        state = after
