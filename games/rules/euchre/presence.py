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

# The presence commands a seat may be offered, in the order ``presence.actions`` lists them.
CANDIDATES: tuple[dict[str, Any], ...] = ({"type": "sit_out"}, {"type": "sit_in"}, {"type": "leave"})


def refusal(state: EuchreState, seat: int, command: Mapping[str, Any]) -> IllegalAction | None:
    """Why ``seat`` may not send its ``sit_out``, ``sit_in`` or ``leave`` now (none before the
    start or after the end, nothing once its player left), or ``None``."""
    if state.phase == "waiting":
        return IllegalAction(T("The match has not started."), code="not_started")
    if state.phase == "finished":
        return IllegalAction(T("The match is over."), code="game_over")
    # ``games.engine.presence`` words the refusals of presence for every game.
    return presence.refusal(state.presence, seat, command.get("type"))


def events(state: EuchreState, seat: int, command: Mapping[str, Any]) -> list[Any]:
    """The event of ``sit_out``, ``sit_in`` or ``leave`` from ``seat``, once ``refusal`` lets it
    through (``games.engine.presence`` raises if it does not)."""
    if command.get("type") == "leave":
        return [presence.leave(state.presence, seat)]
    return list(presence.decide(state.presence, {**command, "seat": seat}))
