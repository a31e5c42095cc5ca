"""The audit hooks both widow games share (``games.engine.decider.Auditable``): the deck a hand
shuffled, its deal checked against the recomputed deck, and the showdown as the audit lists it.
Pure: it reads the hand's recorded events only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import hands as poker
from games.engine.audit import NoExports
from games.engine.cards import DECKS, JOKERS, reduced_pack_ranks
from games.engine.fairness import draw_for_dealer, shuffle
from games.rules.la_viuda import tiebreak
from games.rules.widow import exchange as widow
from games.rules.widow.table import HandStarted


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


def outcome_differences(config: Mapping[str, Any], hand: Sequence[Any], streams: Any) -> list[str]:
    """Re-decide the showdown from the shown cards: every hand re-valued by the card engine
    (CM-11..CM-14, LV-12, WP-8); in La Viuda the worst hand re-found and LV-7's tie-break re-run
    with the hand's streams (colour card, manotazo); in Whiskey Poker the best and worst re-found."""
    held = next((event for event in hand if type(event).__name__ == "ShowdownHeld"), None)
    started = _started(hand)
    first = first_dealer_differences(hand, streams)
    if held is None or started is None:
        return first  # a hand that ended without a showdown (the match was ended, a player left)
    la_viuda = hasattr(held, "loser")
    wild = poker.wild_set(held.wild_rank) if la_viuda else frozenset()
    lowest = "2"
    if not la_viuda and config.get("reduced_pack"):
        lowest = reduced_pack_ranks(int(config["seats"]))[0]
    differences = []
    values = {}
    for entry in held.hands:
        value = poker.high_value(entry.cards, wild, flush_by_suit=bool(config.get("flush_by_suit")), lowest_rank=lowest)
        values[entry.seat] = int(value)
        if int(value) != entry.value or poker.category(value) != entry.category:
            differences.append(
                f"ShowdownHeld: seat {entry.seat}'s {' '.join(entry.cards)} recorded as {entry.category} "
                f"({entry.value}), the engine values it {poker.category(value)} ({int(value)})"
            )
    if differences:
        return first + differences
    differences = first
    if la_viuda:
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
    else:
        best = tuple(seat for seat in values if values[seat] == max(values.values()))
        worst = tuple(seat for seat in values if values[seat] == min(values.values()))
        if tuple(held.best) != best or tuple(held.worst) != worst:
            differences.append(
                f"ShowdownHeld: best {list(held.best)} and worst {list(held.worst)}, re-valued {list(best)} and {list(worst)}"
            )
    return differences


def first_dealer_differences(hand: Sequence[Any], streams: Any) -> list[str]:
    """CM-19 re-drawn from hand 1's stream (purpose ``first-dealer``), in the rule's own words: the
    pack without jokers shuffled, one card to each seat from seat 0, the lowest (aces low) deals,
    the seats tied for lowest draw again."""
    drawn = next((event for event in hand if type(event).__name__ == "FirstDealerDrawn"), None)
    started = _started(hand)
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


class WidowAudit(NoExports):
    """The audit hooks of both widow games (``games.engine.audit.AuditHooks``)."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The named deck the hand shuffled (CM-3, CM-9)."""
        return deck_name(hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the recorded deal differs from dealing ``deck`` in turn order (WX-1)."""
        return deal_differences(deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Any) -> list[str]:
        """The showdown re-decided from the shown cards, LV-7's draws recomputed from the seed."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """The shown hands with category, description, outcome and tie-break steps (LV-13)."""
        return showdown(config, hand)
