"""Euchre's audit hooks (``games.engine.audit.AuditHooks``): the deck a hand shuffled and its deal
checked against the recomputed deck (EU-3), here; its outcome re-decided (``audit_outcome``); the
hand as the audit shows it and its history in words (``audit_history``). Pure: it reads the hand's
recorded events only.

A hand's events run from its ``HandStarted`` to its ``HandEnded`` (and ``MatchWon`` after the last
hand); hand 1 also holds the table's ``MatchStarted`` with the first-dealer draw (CM-19).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine import presence
from games.engine.audit import NoExports, Streams
from games.rules.euchre.audit_history import history_line, showdown
from games.rules.euchre.audit_outcome import outcome_differences
from games.rules.euchre.cards import cards_text, deal_hands
from games.rules.euchre.events import (
    AceNoFaceDeclared,
    CardPlayed,
    DealerDiscarded,
    FarmersHandSwapped,
    HandEnded,
    HandStarted,
    TrumpMade,
    first_event,
)

DECK_NAME = "euchre_24"


def deck_name(hand: Sequence[Any]) -> str | None:
    """``euchre_24`` when the hand dealt (EU-2: every variant shuffles the same 24 cards)."""
    return DECK_NAME if first_event(hand, HandStarted) is not None else None


def deal_differences(deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
    """Every way the hand's events differ from dealing ``deck`` in EU-3's packets: the deck
    ``HandStarted`` recorded, its turned card, and every card the events later show a seat holding
    (a farmer's hand or ace-no-face shown, the dealer's pick-up and discard, the cards played, the
    hands and kitty ``HandEnded`` reveals) followed from that deal."""
    started = first_event(hand, HandStarted)
    if started is None:
        return ["no HandStarted event in the hand"]
    differences = [
        f"HandStarted: deck position {i} is {card}, the seed gives {deck[i] if i < len(deck) else None}"
        for i, card in enumerate(started.deck)
        if i >= len(deck) or card != deck[i]
    ]
    if len(started.deck) != len(deck):
        differences.append(f"HandStarted: {len(started.deck)} cards recorded, the deck has {len(deck)}")
    dealt, kitty = deal_hands(tuple(deck), started.dealer, started.seats, started.pattern)
    if started.turned_card != kitty[0]:
        differences.append(
            f"HandStarted: the turned card is {started.turned_card}, "
            f"the deck turns up {kitty[0]} (deck position {len(deck) - len(kitty)})"
        )
    return differences + _holding_differences(hand, started, dealt, kitty)


@dataclasses.dataclass
class _Holdings:
    """Each seat's cards and the kitty followed from the deal, and every difference found.
    Mutable: it accumulates as the hand's events go by."""

    dealer: int
    dealt: tuple[tuple[str, ...], ...]
    held: list[list[str]]
    kitty: list[str]
    # The dealer's discards anywhere in the hand, which ``HandEnded`` must reveal.
    discards: list[str]
    differences: list[str] = dataclasses.field(default_factory=list)

    def _take(self, event: Any, seat: int, card: str, verb: str) -> None:
        if card in self.held[seat]:
            self.held[seat].remove(card)
        else:
            self.differences.append(
                f"{type(event).__name__}: seat {seat} {verb} {card}, which the deal did not leave it "
                f"(dealt {cards_text(self.dealt[seat])}; holding {cards_text(self.held[seat])})"
            )

    def shown(self, event: FarmersHandSwapped | AceNoFaceDeclared) -> None:
        """A claim shows the seat's whole hand (EU-16, EU-17)."""
        if tuple(event.shown) != tuple(self.held[event.seat]):
            self.differences.append(
                f"{type(event).__name__}: seat {event.seat} shows {cards_text(event.shown)}, "
                f"the deal gave it {cards_text(self.held[event.seat])}"
            )

    def swap(self, event: FarmersHandSwapped) -> None:
        """The farmer takes the three kitty cards after the turned one (EU-16)."""
        if tuple(event.taken) != tuple(self.kitty[1:4]):
            self.differences.append(
                f"FarmersHandSwapped: seat {event.seat} takes {cards_text(event.taken)}, "
                f"the kitty's cards after the turned one are {cards_text(self.kitty[1:4])} (EU-16)"
            )
        for card in event.given:
            self._take(event, event.seat, card, "gives")
        self.held[event.seat] += event.taken
        self.kitty = [self.kitty[0], *event.given, *self.kitty[4:]]

    def pick_up(self, event: TrumpMade) -> None:
        """The dealer takes the turned card from the kitty (EU-4)."""
        if event.dealer_picks_up:
            self.held[self.dealer].append(self.kitty.pop(0))

    def discard(self, event: DealerDiscarded) -> None:
        """The dealer discards a card it holds (EU-4)."""
        self._take(event, event.seat, event.card, "discards")

    def play(self, event: CardPlayed) -> None:
        """A seat plays a card it holds."""
        self._take(event, event.seat, event.card, "plays")

    def revealed(self, event: HandEnded) -> None:
        """The hands, kitty and discard ``HandEnded`` reveals are what the deal and the plays left."""
        for seat, cards in enumerate(event.hands):
            if seat < len(self.held) and Counter(cards) != Counter(self.held[seat]):
                self.differences.append(
                    f"HandEnded: seat {seat} is revealed holding {cards_text(cards)}, "
                    f"the deal and the hand's plays leave it {cards_text(self.held[seat])}"
                )
        if tuple(event.kitty) != tuple(self.kitty):
            self.differences.append(
                f"HandEnded: the kitty is revealed as {cards_text(event.kitty)}, the deal leaves {cards_text(self.kitty)}"
            )
        if event.discard != (self.discards[-1] if self.discards else ""):
            self.differences.append(
                f"HandEnded: the discard is revealed as {event.discard or 'none'}, "
                f"DealerDiscarded shows {self.discards[-1] if self.discards else 'none'}"
            )


_HOLDING_STEPS: dict[type, Callable[[_Holdings, Any], None]] = {
    FarmersHandSwapped: _Holdings.swap,
    TrumpMade: _Holdings.pick_up,
    DealerDiscarded: _Holdings.discard,
    CardPlayed: _Holdings.play,
    HandEnded: _Holdings.revealed,
}


def _holding_differences(
    hand: Sequence[Any], started: HandStarted, dealt: tuple[tuple[str, ...], ...], kitty: tuple[str, ...]
) -> list[str]:
    """Follow each seat's cards and the kitty from the deal through the hand's events (EU-3, EU-4,
    EU-16): each event must only show cards its seat holds then."""
    holdings = _Holdings(
        dealer=started.dealer,
        dealt=dealt,
        held=[list(cards) for cards in dealt],
        kitty=list(kitty),
        discards=[event.card for event in hand if isinstance(event, DealerDiscarded)],
    )
    for event in hand:
        if isinstance(event, FarmersHandSwapped | AceNoFaceDeclared):
            holdings.shown(event)
        step = _HOLDING_STEPS.get(type(event))
        if step is not None:
            step(holdings, event)
    return holdings.differences


class EuchreAudit(NoExports):
    """Euchre's audit hooks (``games.engine.audit.AuditHooks``); no PHH export: Euchre is no poker game."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """``euchre_24``: the deck every hand shuffles (EU-2, CM-9)."""
        return deck_name(hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the recorded deal and the cards the hand's events show differ from dealing ``deck`` (EU-3)."""
        return deal_differences(deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """The first dealer re-drawn (CM-19), the tricks re-played and the points re-scored (EU-8..EU-14)."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """Every seat's cards, side and result once the hand is over (EU-20)."""
        return showdown(config, hand)

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """The event in words, players by name: "alice orders up hearts.", "bob plays Jh."; "alice sits out" (CM-20)."""
        return presence.history_line(event, names) or history_line(event, names)
