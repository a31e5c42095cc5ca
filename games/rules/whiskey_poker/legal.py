"""Whiskey Poker's one judge of a command (``refusal``), and what it lets through: a seat's
``legal_actions`` (the exchange, WX-2..WX-7, and presence, CM-20) and the owner's
``owner_actions`` (ending a pot-scoring match, WP-6). ``decide`` raises what the judge answers and
makes the events of what it accepts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import between_hands, presence
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.rules.whiskey_poker.state import POT, State
from games.rules.widow import presence as seating
from games.rules.widow.legal import (
    PRESENCE_CANDIDATES,
    TURN_COMMANDS,
    legal_moves,
    time_refusal,
    turn_refusal,
    unknown_action,
)

END_MATCH: dict[str, Any] = {"type": "end_match"}


def refusal(
    state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any] | None = None
) -> IllegalAction | None:
    """Why ``command`` from ``seat`` (``None`` for the owner's ``end_match``, sent from no seat) is
    refused now, with the words, code and legal actions ``decide`` raises, or ``None`` when
    ``decide`` accepts it: before the start or after the end, the owner's end of the match (WP-6),
    presence (CM-20) and an exchange move off turn or of the wrong phase (WX-2..WX-7). ``extra`` (``Context.extra``) judges nothing here."""
    kind = command.get("type")
    refused = time_refusal(state, kind)
    if refused is not None or kind == "start":
        return refused
    if kind == "end_match":
        return _end_match_refusal(state)
    if kind == between_hands.IDLE_END:
        # The system's, at the end of a wait (CM-21); the gate offers it to nobody.
        return between_hands.idle_end_refusal(state.waiting)
    if kind in presence.COMMANDS:
        return seating.refusal(state, seat, kind)
    if kind in TURN_COMMANDS:
        return turn_refusal(state.exchange, seat, command, state.max_orbits)
    return unknown_action(kind, legal_actions(state, seat))


def _end_match_refusal(state: State) -> IllegalAction | None:
    """WP-6: only a pot-scoring match is ended by its owner, and once (the game runs)."""
    if state.scoring != POT:
        return IllegalAction(T("Only a pot-scoring match can be ended by the table's owner."))
    if state.end_requested:
        return IllegalAction(T("The match already ends after this hand."))
    return None


def legal_actions(state: State, seat: Any) -> list[dict[str, Any]]:
    """The exchange moves ``seat`` may make on its turn; and, whoever's turn it is, sit out, sit in
    or leave (CM-20). The candidates the judge lets through: the exchange's by the judge's own
    test of a move (``legal_moves``), without building the refusals."""
    if state.finished or not state.started:
        return []
    moves = legal_moves(state.exchange, seat, state.max_orbits)
    return moves + [
        dict(action) for action in PRESENCE_CANDIDATES if seating.refusal(state, seat, action["type"]) is None
    ]


def owner_actions(state: State) -> list[dict[str, Any]]:
    """WP-6: ``end_match`` while the owner may send it (a running pot-scoring match whose end is
    not yet asked for): the owner's candidate the judge lets through."""
    return [dict(END_MATCH)] if refusal(state, None, END_MATCH) is None else []
