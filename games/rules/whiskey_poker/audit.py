"""Whiskey Poker's hand audit hooks (``games.engine.audit.AuditHooks``): the shared widow checks,
and the best and worst hands re-found. Pure: it reads the hand's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.audit import NoExports, Streams
from games.engine.cards import reduced_pack_ranks
from games.engine.words import N, Text
from games.rules.whiskey_poker.cards import NO_WILD
from games.rules.whiskey_poker.events import PlayerCashedOut, ShowdownHeld
from games.rules.widow import audit as shared
from games.rules.widow import presence
from games.rules.widow.events import HandStarted


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every shown hand with its category and description: the best ``wins`` or, tied, ``splits``
    (WP-5); the others lose."""
    held = shared.first_of(hand, ShowdownHeld)
    if held is None:
        return []
    won = "wins" if len(held.best) == 1 else "splits"
    return [shared.shown_entry(entry, won if entry.seat in held.best else "loses", []) for entry in held.hands]


def outcome_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
    """Re-decide the showdown from the shown cards: the first dealer re-drawn, every hand re-valued
    (CM-11..CM-14, LV-12, WP-8) and the best and worst hands re-found."""
    held = shared.first_of(hand, ShowdownHeld)
    started = shared.first_of(hand, HandStarted)
    first = shared.first_dealer_differences(hand, streams)
    if held is None or started is None:
        return first  # a hand that ended without a showdown (the match was ended, a player left)
    lowest = reduced_pack_ranks(int(config["seats"]))[0] if config.get("reduced_pack") else "2"
    values, wrong = shared.revalue(
        held.hands, NO_WILD, flush_by_suit=bool(config.get("flush_by_suit")), lowest_rank=lowest
    )
    if wrong:
        return first + wrong
    best = tuple(seat for seat in values if values[seat] == max(values.values()))
    worst = tuple(seat for seat in values if values[seat] == min(values.values()))
    if tuple(held.best) != best or tuple(held.worst) != worst:
        return [
            *first,
            f"ShowdownHeld: best {list(held.best)} and worst {list(held.worst)}, re-valued {list(best)} and {list(worst)}",
        ]
    return first


class WhiskeyPokerAudit(NoExports):
    """Whiskey Poker's audit hooks."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The named deck the hand shuffled (CM-3, CM-9): the 52-card or the reduced pack (WP-8)."""
        return shared.deck_name(hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the recorded deal differs from dealing ``deck`` in turn order (WX-1, WP-3)."""
        return shared.deal_differences(deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """The showdown re-decided from the shown cards."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """The shown hands with category, description and outcome."""
        return showdown(config, hand)

    def history_line(self, event: Any, actor: str, names: Sequence[str]) -> str | None:
        """A player sitting out, sitting in, leaving or cashed out after leaving, in words (CM-20);
        the generic line otherwise."""
        return presence.history_line(event, names) or cashed_out_line(event, names)


def cashed_out_line(event: Any, names: Sequence[str]) -> Text | None:
    """The line of a leaver cashed out when the hand ended (CM-20), or ``None`` for another event."""
    if not isinstance(event, PlayerCashedOut):
        return None
    return N(
        "{player} is cashed out with {count} chip",
        "{player} is cashed out with {count} chips",
        event.chips,
        player=names[event.seat],
    )
