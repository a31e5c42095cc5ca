"""Whiskey Poker's hand audit hooks (``games.engine.audit.AuditHooks``): the shared widow checks,
the best and worst hands re-found, and the showdown as the audit and the hand page list it. Pure:
it reads the hand's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.audit import NoExports, Streams
from games.engine.card_names import and_list
from games.engine.cards import reduced_pack_ranks
from games.engine.words import T, Text
from games.rules.whiskey_poker.cards import NO_WILD
from games.rules.whiskey_poker.events import ShowdownHeld
from games.rules.whiskey_poker.state import LOSER_PAYS, POINTS, POT
from games.rules.widow import audit as shared
from games.rules.widow.events import HandStarted


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every shown hand with its category and description and its outcome as the table's scoring
    says (WP-5, WP-7, WP-8); tied hands say in a sentence how the tie is settled, naming the
    players (``config``'s ``player_names``, else "seat 2")."""
    held = shared.first_of(hand, ShowdownHeld)
    if held is None:
        return []
    return showdown_entries(held, str(config.get("scoring") or POT), shared.player_names(config, held.hands))


def showdown_entries(held: ShowdownHeld, scoring: str, names: Sequence[str]) -> list[dict[str, Any]]:
    """The shown hands of ``held`` as the audit and the hand page list them. Under ``loser_pays``
    the hands tied for worst ``pays`` and the others are ``safe``, and no hand wins (WP-7); otherwise
    the best hand ``wins`` (tied, they ``split``, WP-5, WP-8) and the others lose."""

    def named(seats: Sequence[int]) -> Text:
        return and_list([names[seat] if 0 <= seat < len(names) else T("seat {number}", number=seat) for seat in seats])

    if scoring == LOSER_PAYS:
        tie = (
            []
            if len(held.worst) < 2
            else [
                _tie(
                    "WP-7",
                    T("{players} tie for the worst hand and each pays one chip to the pool", players=named(held.worst)),
                )
            ]
        )
        return [
            shared.shown_entry(entry, "pays", tie)
            if entry.seat in held.worst
            else shared.shown_entry(entry, "safe", [])
            for entry in held.hands
        ]
    won = "wins" if len(held.best) == 1 else "splits"
    tie = []
    if len(held.best) > 1:
        tie = [
            _tie("WP-8", T("{players} tie for the best hand and each scores a point", players=named(held.best)))
            if scoring == POINTS
            else _tie("WP-5", T("{players} tie for the best hand and split the pot", players=named(held.best)))
        ]
    return [
        shared.shown_entry(entry, won, tie) if entry.seat in held.best else shared.shown_entry(entry, "loses", [])
        for entry in held.hands
    ]


def _tie(rule: str, sentence: Text) -> dict[str, Any]:
    return {"rule": rule, "sentence": sentence}


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
