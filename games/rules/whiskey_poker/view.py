"""What a seat may see of a Whiskey Poker table: the shared widow view (its own cards, the widow
only while face up, WP-9) with the scoring, the pack, the points and the result. Events are seen
as in every widow game (``games.rules.widow.view.view_event``)."""

from __future__ import annotations

from typing import Any

from games.rules.whiskey_poker.audit import showdown_entries
from games.rules.whiskey_poker.cards import lowest_rank
from games.rules.whiskey_poker.state import POINTS, State
from games.rules.widow import audit as shared_audit
from games.rules.widow import view as shared
from games.rules.widow.view import view_event

__all__ = ["GAME", "view", "view_event"]

# The game's slug, which every view names.
GAME = "whiskey-poker"


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may see of the table."""
    table = {
        "scoring": state.scoring,
        "reduced_pack": state.reduced_pack,
        "pack_lowest_rank": lowest_rank(state.seats, state.reduced_pack),
        "target_points": state.target_points if state.scoring == POINTS else None,
        "points": list(state.points),
        "end_requested": state.end_requested,
        # CM-21: no person is dealt in, so no hand is dealt until one sits in.
        "waiting_for_players": state.waiting,
        "winners": list(state.winners),
        "losers": list(state.losers),
        # The last showdown's hands in words, with their outcomes (WP-5, WP-7, WP-8); the engine
        # does not know who sits where, so players are named by seat.
        "showdown": (
            showdown_entries(state.last_showdown, state.scoring, shared_audit.seat_names(state.seats))
            if state.last_showdown is not None
            else None
        ),
    }
    return shared.view(state, seat, GAME, table)
