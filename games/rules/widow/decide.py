"""What both widow games refuse alike before a command reaches the game's own rules."""

from __future__ import annotations

from typing import Any

from games.engine.errors import IllegalAction
from games.engine.words import T
from games.rules.widow.state import TableState

# The commands of a turn of the exchange (WX-2..WX-7); ``timeout`` is the turn timer's.
TURN_COMMANDS = frozenset({"pass", "knock", "exchange_all", "exchange_one", "timeout"})


def refuse_out_of_time(state: TableState, kind: Any) -> None:
    """``IllegalAction`` for any command once the game is over, for ``start`` once it has started
    and for any other command before it has."""
    if state.finished:
        raise IllegalAction(T("The game is over."), code="game_over")
    if kind == "start":
        if state.started:
            raise IllegalAction(T("The game has already started."))
    elif not state.started:
        raise IllegalAction(T("The game has not started yet."), code="not_started")
