"""CM-20 in Euchre: sitting out, sitting in and leaving (``games.engine.presence`` keeps who is away).

Euchre is a match, so any seated player may sit out, sit in or leave while it is on, on their turn
or not: the table's bot plays the seat of a player who sat out until they sit in, and of a player
who left for the rest of the match, whose result and prize stay theirs (EU-21). Nobody is ever out
of a Euchre match, so every seat may do all three until its player has left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import presence
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.rules.euchre.state import EuchreState


def match_on(state: EuchreState) -> bool:
    """True between the start and the end of the match, when presence may change."""
    return state.phase not in ("waiting", "finished")


def legal(state: EuchreState, seat: int) -> list[dict[str, Any]]:
    """The presence actions ``seat`` may send now: none before the start, after the end or once
    its player left."""
    if not match_on(state) or not 0 <= seat < state.seats:
        return []
    return presence.actions(state.presence, seat)


def decide(state: EuchreState, seat: int, command: Mapping[str, Any]) -> list[Any]:
    """The event of ``sit_out``, ``sit_in`` or ``leave`` from ``seat``, or ``IllegalAction``."""
    if state.phase == "waiting":
        raise IllegalAction(T("The match has not started."), code="not_started")
    if state.phase == "finished":
        raise IllegalAction(T("The match is over."), code="game_over")
    if command.get("type") == "leave":
        return [presence.leave(state.presence, seat)]
    return list(presence.decide(state.presence, {**command, "seat": seat}))
