"""What a seat may see of a La Viuda table: the shared widow view (its own cards, the widow only
while face up, WP-9) with La Viuda's wild rank, the price and buyer of La Viuda, the offer and the
winner. Events are seen as in every widow game (``games.rules.widow.view.view_event``)."""

from __future__ import annotations

from typing import Any

from games.rules.la_viuda.audit import showdown_entries
from games.rules.la_viuda.state import State
from games.rules.widow import audit as shared_audit
from games.rules.widow import view as shared
from games.rules.widow.state import NOBODY
from games.rules.widow.view import view_event

__all__ = ["GAME", "view", "view_event"]

# The game's slug, which every view names (the bot reads it to know the pack).
GAME = "la-viuda"


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may see of the table."""
    table = {
        "wild_rank": state.wild_rank or None,
        "chips_per_player": state.chips_per_player,
        "widow_price": 2 * state.chip_value,
        "widow_bought_by": None if state.widow_bought_by == NOBODY else state.widow_bought_by,
        "offer": None if state.offer == NOBODY else state.offer,
        "winner": None if state.winner == NOBODY else state.winner,
        # The last showdown's hands in words, with who pays and LV-7's steps said (LV-13); the
        # engine does not know who sits where, so players are named by seat.
        "showdown": (
            showdown_entries(state.last_showdown, shared_audit.seat_names(state.seats))
            if state.last_showdown is not None
            else None
        ),
    }
    return shared.view(state, seat, GAME, table)
