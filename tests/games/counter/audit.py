"""Counter's audit hooks (``games.engine.audit.AuditHooks``). The service checks the commitment
(CM-5), the client seed (CM-6) and recomputes the deck from the revealed seed (CM-7..CM-9); these
hooks name the deck, check the deal against it, re-add the hand and show every card, which
``HandEnded`` revealed (CM-10). No PHH export: Counter is no poker game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.audit import NoExports, Streams
from tests.games.counter.events import Added, HandEnded, HandStarted


def _first(hand: Sequence[Any], kind: type) -> Any:
    return next((event for event in hand if isinstance(event, kind)), None)


def _re_added(started: HandStarted, ended: HandEnded, hand: Sequence[Any]) -> list[str]:
    """Turns go round from ``first``, totals add up, the seat that reached the target wins the pot."""
    differences = []
    seats, turn, total, last = len(started.cards), started.first, 0, None
    for event in hand:
        if not isinstance(event, Added):
            continue
        if event.seat != turn:
            differences.append(f"Added: seat {event.seat} added on seat {turn}'s turn")
        total += event.amount
        if event.total != total:
            differences.append(f"Added: total {event.total}, the amounts add up to {total}")
        turn, last = (event.seat + 1) % seats, event.seat
    if ended.winner != last or ended.pot != total:
        differences.append(f"HandEnded: seat {ended.winner} won {ended.pot}; re-added, seat {last} wins {total}")
    return differences


class CounterAudit(NoExports):
    """The audit hooks of the counter game."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """Every hand shuffles the 52 English cards (CM-3, CM-9)."""
        return "english_52" if _first(hand, HandStarted) is not None else None

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """Seat ``i`` gets card ``i`` of the deck recomputed from the revealed seed (CM-9)."""
        started = _first(hand, HandStarted)
        if started is None:
            return ["no HandStarted event in the hand"]
        return [
            f"HandStarted: seat {seat} holds {card}, the deck deals {deck[seat]} (deck position {seat})"
            for seat, card in enumerate(started.cards)
            if card != deck[seat]
        ]

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """Re-add the hand, and check the cards shown at the end are the cards dealt (CM-10)."""
        started = _first(hand, HandStarted)
        ended = _first(hand, HandEnded)
        if started is None or ended is None:
            return ["the hand has no HandStarted or no HandEnded"]
        differences = _re_added(started, ended, hand)
        if ended.cards != started.cards:
            differences.append("HandEnded: the cards shown are not the cards dealt")
        return differences

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """Every seat's card is shown when the hand ends (CM-10); the seat that reached the target wins."""
        ended = _first(hand, HandEnded)
        if ended is None:
            return []
        return [
            {
                "seat": seat,
                "cards": [card],
                "category": None,
                "description": "reached the target" if seat == ended.winner else "did not reach the target",
                "outcome": "wins" if seat == ended.winner else "loses",
                "tie_break": [],
            }
            for seat, card in enumerate(ended.cards)
        ]

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """``Added`` in words; the audit's generic line for the rest."""
        if isinstance(event, Added):
            timed = " (timeout)" if event.by_timeout else ""
            return f"Seat {event.seat} ({actor}) adds {event.amount}{timed}, total {event.total}"
        return None
