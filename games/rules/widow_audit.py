"""The audit hooks both widow games share (``games.engine.decider.Auditable``): the deck a hand
shuffled, its deal checked against the recomputed deck, and the showdown as the audit lists it.
Pure: it reads the hand's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import DECKS
from games.rules import widow
from games.rules.widow_games import HandStarted


def _started(hand: Sequence[Any]) -> HandStarted | None:
    return next((event for event in hand if type(event) is HandStarted), None)


def deck_name(hand: Sequence[Any]) -> str | None:
    """The named deck whose cards the hand dealt: hands, widow and stock hold the whole pack (the
    54-card La Viuda pack, the 52-card pack or Whiskey Poker's reduced pack, WP-8)."""
    started = _started(hand)
    if started is None:
        return None
    cards = sorted([*(card for cards in started.hands for card in cards), *started.widow_cards, *started.stock])
    # Euchre's 24 cards are also the reduced pack for 3 players; a widow game calls it by its own name.
    names = sorted(DECKS, key=lambda name: name.startswith("euchre"))
    return next((name for name in names if sorted(DECKS[name]) == cards), None)


def deal_differences(deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
    """Dealing ``deck`` in the hand's turn order (WX-1, WP-3, LV-4) must give exactly the recorded
    hands, widow and stock."""
    started = _started(hand)
    if started is None:
        return ["no HandStarted event in the hand"]
    hands, widow_cards, stock = widow.deal(deck, started.order, len(started.hands))
    differences = []
    for seat, (recorded, dealt) in enumerate(zip(started.hands, hands)):
        if tuple(recorded) != tuple(dealt):
            differences.append(f"HandStarted: seat {seat} holds {list(recorded)}, the deck deals {list(dealt)}")
    if tuple(started.widow_cards) != widow_cards:
        differences.append(f"HandStarted: the widow is {list(started.widow_cards)}, the deck deals {list(widow_cards)}")
    if tuple(started.stock) != stock:
        differences.append("HandStarted: the undealt stock is not the rest of the deck in order")
    return differences


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every shown hand with its category and description; in La Viuda the worst hand ``pays`` and
    the others are ``safe`` (with LV-7's tie-break steps); in Whiskey Poker the best ``wins`` or
    ``splits`` and the others lose (WP-5)."""
    held = next((event for event in hand if type(event).__name__ == "ShowdownHeld"), None)
    if held is None:
        return []
    steps = [
        {"rule": step.rule, "step": step.step, "sentence": step.sentence, "still_tied": list(step.still_tied)}
        for step in getattr(held, "steps", ())
    ]
    shown = []
    for entry in held.hands:
        if hasattr(held, "loser"):
            outcome = "pays" if entry.seat == held.loser else "safe"
            tie_break = steps if entry.seat in held.tied and len(held.tied) > 1 else []
        else:
            outcome = ("wins" if len(held.best) == 1 else "splits") if entry.seat in held.best else "loses"
            tie_break = []
        shown.append(
            {
                "seat": entry.seat,
                "cards": list(entry.cards),
                "category": entry.category,
                "description": entry.description,
                "value": entry.value,
                "wild_count": entry.wild_count,
                "outcome": outcome,
                "tie_break": tie_break,
            }
        )
    return shown
