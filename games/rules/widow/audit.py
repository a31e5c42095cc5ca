"""The parts of a hand audit both widow games share: the deck a hand shuffled, its deal checked
against the recomputed deck, the first dealer re-drawn, the shown hands re-valued and listed.
Each game's ``audit`` module calls these from its own hooks. Pure: it reads the hand's recorded
events only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from games.engine import hand_words
from games.engine import hands as poker
from games.engine.audit import PLAYER_NAMES
from games.engine.cards import DECKS, JOKERS
from games.engine.fairness import Stream, draw_for_dealer, shuffle
from games.engine.words import T
from games.rules.widow import exchange
from games.rules.widow.events import FirstDealerDrawn, HandStarted, ShownHand

E = TypeVar("E")


def first_of(hand: Sequence[Any], kind: type[E]) -> E | None:
    """The hand's first event of type ``kind``, or ``None``."""
    return next((event for event in hand if type(event) is kind), None)


def deck_name(hand: Sequence[Any]) -> str | None:
    """The named deck whose cards the hand dealt: hands, widow and stock hold the whole pack (the
    54-card La Viuda pack, the 52-card pack or Whiskey Poker's reduced pack, WP-8)."""
    started = first_of(hand, HandStarted)
    if started is None:
        return None
    cards = sorted([*(card for cards in started.hands for card in cards), *started.widow_cards, *started.stock])
    # Euchre's 24 cards are also the reduced pack for 3 players; a widow game calls it by its own name.
    names = sorted(DECKS, key=lambda name: name.startswith("euchre"))
    return next((name for name in names if sorted(DECKS[name]) == cards), None)


def deal_differences(deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
    """Dealing ``deck`` in the hand's turn order (WX-1, WP-3, LV-4) must give exactly the recorded
    hands, widow and stock."""
    started = first_of(hand, HandStarted)
    if started is None:
        return ["no HandStarted event in the hand"]
    dealt, widow_cards, stock = exchange.deal(deck, started.order, len(started.hands))
    differences = []
    for seat, (recorded, cards) in enumerate(zip(started.hands, dealt)):
        if tuple(recorded) != tuple(cards):
            differences.append(f"HandStarted: seat {seat} holds {list(recorded)}, the deck deals {list(cards)}")
    if tuple(started.widow_cards) != widow_cards:
        differences.append(f"HandStarted: the widow is {list(started.widow_cards)}, the deck deals {list(widow_cards)}")
    if tuple(started.stock) != stock:
        differences.append("HandStarted: the undealt stock is not the rest of the deck in order")
    return differences


def first_dealer_differences(hand: Sequence[Any], streams: Callable[[str], Stream]) -> list[str]:
    """CM-19 re-drawn from hand 1's stream (purpose ``first-dealer``), in the rule's own words: the
    pack without jokers shuffled, one card to each seat from seat 0, the lowest (aces low) deals,
    the seats tied for lowest draw again."""
    drawn = first_of(hand, FirstDealerDrawn)
    started = first_of(hand, HandStarted)
    name = deck_name(hand)
    if drawn is None or started is None or name is None:
        return []
    cards = shuffle([card for card in DECKS[name] if card not in JOKERS], streams("first-dealer"))
    redrawn = draw_for_dealer(cards, range(len(started.hands)))
    draws = list(redrawn.draws)
    differences = []
    if [tuple(draw) for draw in drawn.draws] != draws:
        differences.append(f"FirstDealerDrawn: draws {list(drawn.draws)}, the seed draws {draws}")
    if drawn.dealer != redrawn.dealer:
        differences.append(f"FirstDealerDrawn: seat {drawn.dealer} deals, the seed makes seat {redrawn.dealer} (CM-19)")
    return differences


def revalue(
    shown: Sequence[ShownHand], wild: frozenset[str], *, flush_by_suit: bool, lowest_rank: str
) -> tuple[dict[int, int], list[str]]:
    """Every shown hand re-valued by the card engine (CM-11..CM-14, LV-12, WP-8): the values by
    seat, in the order shown, and each hand whose recorded value or category differs."""
    values = {}
    differences = []
    for entry in shown:
        value = poker.high_value(entry.cards, wild, flush_by_suit=flush_by_suit, lowest_rank=lowest_rank)
        values[entry.seat] = int(value)
        if int(value) != entry.value or poker.category(value) != entry.category:
            differences.append(
                f"ShowdownHeld: seat {entry.seat}'s {' '.join(entry.cards)} recorded as {entry.category} "
                f"({entry.value}), the engine values it {poker.category(value)} ({int(value)})"
            )
    return values, differences


def player_names(config: Mapping[str, Any], shown: Sequence[ShownHand] = ()) -> list[str]:
    """Each seat's player's name, from the ``player_names`` the audit puts in ``config``; without
    them (the engine alone) each seat is named "seat 2"."""
    names = config.get(PLAYER_NAMES)
    if names:
        return list(names)
    seats = max([int(config.get("seats", 0)), *(entry.seat + 1 for entry in shown)])
    return seat_names(seats)


def seat_names(seats: int) -> list[str]:
    """Seats named by number, for a view that does not know who sits there: "seat 2"."""
    return [T("seat {seat}", seat=seat) for seat in range(seats)]


def shown_entry(
    entry: ShownHand, outcome: str, tie_break: list[dict[str, Any]], wild: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """One shown hand as the showdown lists it (``games.engine.audit.AuditHooks.showdown``, and
    the hand page): ``category`` is the machine's code, ``category_name`` and ``description`` the
    words, the description saying what each wild card stands for (CM-11..CM-14). The description
    recorded in old events is not shown: the words are made from the cards."""
    return {
        "seat": entry.seat,
        "cards": list(entry.cards),
        "category": entry.category,
        "category_name": hand_words.category_name(entry.category),
        "description": hand_words.describe(entry.value, entry.cards, wild),
        "value": entry.value,
        "wild_count": entry.wild_count,
        "outcome": outcome,
        "tie_break": tie_break,
    }
