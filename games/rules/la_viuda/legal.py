"""La Viuda's one judge of a seat's command (``refusal``), and what it lets through
(``legal_actions``): the offer of La Viuda (LV-8, LV-10), the exchange (WX-2..WX-7) and presence
(CM-20). ``decide`` raises what the judge answers and makes the events of what it accepts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import presence
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.rules.la_viuda.state import State
from games.rules.widow import presence as seating
from games.rules.widow.legal import (
    PRESENCE_CANDIDATES,
    TURN_COMMANDS,
    legal_moves,
    time_refusal,
    turn_refusal,
    unknown_action,
)
from games.rules.widow.state import NOBODY

# ``offer_expired`` is the offer timer's (LV-10), judged as the offered seat's answer.
OFFER_COMMANDS = frozenset({"buy_widow", "decline_widow", "offer_expired"})
OFFER_CANDIDATES: tuple[dict[str, Any], ...] = ({"type": "buy_widow"}, {"type": "decline_widow"})


def refusal(
    state: State, seat: Any, command: Mapping[str, Any], extra: Mapping[str, Any] | None = None
) -> IllegalAction | None:
    """Why ``seat`` (``None`` for none) may not send ``command`` now, with the words, code and
    legal actions ``decide`` raises, or ``None`` when ``decide`` accepts it: before the start or
    after the end, presence (CM-20), the answer to the offer (LV-8) and, while an offer waits, no
    exchange move by anyone; an exchange move off turn or of the wrong phase (WX-2..WX-7). ``extra`` (``Context.extra``) judges nothing here."""
    kind = command.get("type")
    refused = time_refusal(state, kind)
    if refused is not None or kind == "start":
        return refused
    if kind in presence.COMMANDS:
        return seating.refusal(state, seat, kind)
    if kind in OFFER_COMMANDS:
        return _offer_refusal(state, seat)
    if kind in TURN_COMMANDS:
        if state.offer != NOBODY:
            return IllegalAction(
                T("Seat {seat} must first answer the offer of La Viuda.", seat=state.offer),
                legal=legal_actions(state, seat),
            )
        return turn_refusal(state.exchange, seat, command, state.max_orbits)
    return unknown_action(kind, legal_actions(state, seat))


def _offer_refusal(state: State, seat: Any) -> IllegalAction | None:
    """LV-8: only the offered seat answers the offer, and only while there is one."""
    if state.offer == NOBODY:
        return IllegalAction(T("Nobody has been offered La Viuda."), legal=legal_actions(state, seat))
    if seat != state.offer:
        return IllegalAction(T("The offer of La Viuda is for seat {seat}, not you.", seat=state.offer), legal=[])
    return None


def legal_actions(state: State, seat: Any) -> list[dict[str, Any]]:
    """What ``seat`` may do now: answer the offer, or an exchange move on its turn; and, whoever's
    turn it is, sit out, sit in or leave (CM-20). The candidates the judge lets through: the
    exchange's by the judge's own test of a move (``legal_moves``), without building the refusals."""
    if state.finished or not state.started:
        return []
    if state.offer != NOBODY:
        moves = [dict(answer) for answer in OFFER_CANDIDATES if _offer_refusal(state, seat) is None]
    else:
        moves = legal_moves(state.exchange, seat, state.max_orbits)
    return moves + [
        dict(action) for action in PRESENCE_CANDIDATES if seating.refusal(state, seat, action["type"]) is None
    ]
