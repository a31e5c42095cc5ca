"""La Viuda's hand audit hooks (``games.engine.audit.AuditHooks``): the shared widow checks, and
the worst hand re-found with LV-7's tie-break re-run from the hand's streams. Pure: it reads the
hand's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import hands as poker
from games.engine.audit import NoExports, Streams
from games.rules.la_viuda import tiebreak
from games.rules.la_viuda.events import ShowdownHeld
from games.rules.widow import audit as shared
from games.rules.widow import presence
from games.rules.widow.events import HandStarted


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every shown hand with its category and description: the worst hand ``pays``, the others
    are ``safe``; the hands tied for worst carry LV-7's tie-break steps (LV-13)."""
    held = shared.first_of(hand, ShowdownHeld)
    if held is None:
        return []
    steps = [
        {"rule": step.rule, "step": step.step, "sentence": step.sentence, "still_tied": list(step.still_tied)}
        for step in held.steps
    ]
    return [
        shared.shown_entry(
            entry,
            "pays" if entry.seat == held.loser else "safe",
            steps if entry.seat in held.tied and len(held.tied) > 1 else [],
        )
        for entry in held.hands
    ]


def outcome_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
    """Re-decide the showdown from the shown cards: the first dealer re-drawn, every hand re-valued
    with the hand's wild cards (LV-5, LV-12), the worst hand re-found and LV-7's tie-break re-run
    with the hand's streams (colour card, manotazo)."""
    held = shared.first_of(hand, ShowdownHeld)
    started = shared.first_of(hand, HandStarted)
    first = shared.first_dealer_differences(hand, streams)
    if held is None or started is None:
        return first  # a hand that ended without a showdown (a player left)
    wild = poker.wild_set(held.wild_rank)
    values, wrong = shared.revalue(held.hands, wild, flush_by_suit=bool(config.get("flush_by_suit")), lowest_rank="2")
    if wrong:
        return first + wrong
    return first + _loser_differences(held, started, values, wild, streams)


def _loser_differences(
    held: ShowdownHeld, started: HandStarted, values: Mapping[int, int], wild: frozenset[str], streams: Streams
) -> list[str]:
    """LV-6, LV-7: the hands tied for worst and the one that pays, re-found from the values."""
    differences = []
    worst = min(values.values())
    tied = tuple(seat for seat in values if values[seat] == worst)
    if tuple(held.tied) != tied:
        differences.append(f"ShowdownHeld: tied for worst {list(held.tied)}, re-valued {list(tied)}")
    loser = tied[0]
    if len(tied) > 1:
        cards = {entry.seat: entry.cards for entry in held.hands}
        again = tiebreak.la_viuda_tie_break(
            [(seat, cards[seat]) for seat in tied], wild, started.order, stock=started.stock, streams=streams
        )
        loser = again.losers[0]
        if [step.sentence for step in again.steps] != [step.sentence for step in held.steps]:
            differences.append("ShowdownHeld: LV-7's tie-break steps re-run from the seed differ from the record")
    if held.loser != loser:
        differences.append(f"ShowdownHeld: seat {held.loser} recorded as paying, re-decided seat {loser}")
    return differences


class LaViudaAudit(NoExports):
    """La Viuda's audit hooks."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The named deck the hand shuffled (CM-3, CM-9): the 54-card La Viuda pack."""
        return shared.deck_name(hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the recorded deal differs from dealing ``deck`` in turn order (WX-1, LV-4)."""
        return shared.deal_differences(deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """The showdown re-decided from the shown cards, LV-7's draws recomputed from the seed."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """The shown hands with category, description, outcome and tie-break steps (LV-13)."""
        return showdown(config, hand)

    def history_line(self, event: Any, actor: str, names: Sequence[str]) -> str | None:
        """A player sitting out, sitting in or leaving, in words (CM-20); the generic line otherwise."""
        return presence.history_line(event, names)
