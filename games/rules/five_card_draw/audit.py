"""Five-Card Draw's hand audit hooks (``games.engine.audit.AuditHooks``): the deck a hand shuffled
and every card it dealt or drew followed from the recomputed deck (FD-3, FD-7, FD-8, FD-16), here;
its outcome re-decided (``audit_outcome``); the showdown as the audit lists it and the hand in words
(``audit_history``); and its PHH export (``phh``). Pure: it reads the hand's recorded events only.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import between_hands
from games.engine.audit import Streams
from games.rules.five_card_draw import cards
from games.rules.five_card_draw.audit_hand import cards_text, dealing_order, first_of
from games.rules.five_card_draw.audit_history import history_line, showdown
from games.rules.five_card_draw.audit_outcome import outcome_differences
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    HandStarted,
    PlayerActed,
    ShowdownHeld,
    StockReshuffled,
)
from games.rules.five_card_draw.phh import phh


def deck_name(config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
    """The deck the table's ``wild`` option gives (FD-1, FD-15), when the hand dealt."""
    if first_of(hand, CardsDealt) is None:
        return None
    return cards.deck_name(str(config.get("wild", "none")))


@dataclasses.dataclass
class _Cards:
    """Where every card is as the recomputed deck deals it: each seat's hand, the stock (each card
    with the place it came from) and the discards and folded hands not yet reshuffled (FD-8), with
    every difference from the events found on the way. Mutable: it follows the hand's events."""

    held: dict[int, list[str]]
    stock: list[tuple[str, str]]
    pool: list[str] = dataclasses.field(default_factory=list)
    differences: list[str] = dataclasses.field(default_factory=list)

    def fold(self, event: PlayerActed) -> None:
        """A folded hand joins the cards a reshuffle takes (FD-8)."""
        if event.action == "fold":
            self.pool += self.held.get(event.seat, [])
            self.held[event.seat] = []

    def reshuffle(self, event: StockReshuffled, following: CardsDrawn | None) -> None:
        """FD-8: only when the stock runs short for a draw; the discards and folded hands so far
        (the drawing player's discards of earlier draws included, the ones of this draw not yet
        made) become a new stock under what is left."""
        name = f"StockReshuffled {event.number}"
        if following is None or following.seat != event.seat or following.count <= len(self.stock):
            wanted = "no draw" if following is None else f"seat {following.seat}'s draw of {following.count}"
            self.differences.append(
                f"{name}: the stock of {len(self.stock)} cards was not short for {wanted} "
                f"(seat {event.seat} is recorded drawing) (FD-8)"
            )
        if Counter(event.cards) != Counter(self.pool):
            self.differences.append(
                f"{name}: reshuffles {cards_text(event.cards)}; the discards and folded hands so far are "
                f"{cards_text(self.pool)} (FD-8)"
            )
        if Counter(event.stock) != Counter(event.cards) or event.size != len(event.stock):
            self.differences.append(
                f"{name}: the new stock of {event.size} cards ({cards_text(event.stock)}) is not the "
                f"{len(event.cards)} cards reshuffled (CM-18)"
            )
        self.stock += [(card, f"reshuffle-{event.number} position {i}") for i, card in enumerate(event.stock)]
        gone = Counter(event.stock)
        kept = []
        for card in self.pool:
            if gone[card]:
                gone[card] -= 1
            else:
                kept.append(card)
        self.pool = kept

    def draw(self, event: CardsDrawn) -> None:
        """FD-7: the discards come from the seat's hand and the replacements from the stock's top."""
        seat, held = event.seat, self.held.get(event.seat, [])
        name = f"CardsDrawn (draw {event.draw})"
        strange = [card for card in event.discarded if card not in held]
        if strange:
            self.differences.append(
                f"{name}: seat {seat} discards {cards_text(strange)}, which the deal and its draws did not "
                f"leave it (it holds {cards_text(held)})"
            )
        count = len(event.discarded)
        if not event.count == count == len(event.received):
            self.differences.append(
                f"{name}: seat {seat} draws {event.count}, discards {count} and receives {len(event.received)} (FD-7)"
            )
        given = self.stock[: len(event.received)]
        for i, card in enumerate(event.received):
            if i >= len(given):
                self.differences.append(f"{name}: seat {seat} receives {card} from an empty stock (FD-8)")
            elif card != given[i][0]:
                self.differences.append(
                    f"{name}: seat {seat}'s replacement {i + 1} is {card}, the stock gives {given[i][0]} ({given[i][1]})"
                )
        kept = [card for card in held if card not in event.discarded]
        self.held[seat] = kept + [card for card, _ in given]
        self.pool += [card for card in event.discarded if card in held]
        self.stock = self.stock[len(given) :]

    def shown(self, event: ShowdownHeld) -> None:
        """FD-9: the hands shown are the ones the deal and the draws left."""
        for entry in event.hands:
            held = self.held.get(entry.seat, [])
            if Counter(entry.cards) != Counter(held):
                self.differences.append(
                    f"ShowdownHeld: seat {entry.seat} shows {cards_text(entry.cards)}, the deal and its draws "
                    f"leave it {cards_text(held)}"
                )


def deal_differences(config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
    """Every way the hand's cards differ from dealing ``deck``: five cards each, one at a time from
    the first in the dealing order (FD-3), the shotgun card face up (FD-16), the stock the rest;
    then every discard from its seat's hand, every replacement from the top of the stock and every
    reshuffle of the discards and folded hands so far (FD-7, FD-8), and the hands shown (FD-9)."""
    started = first_of(hand, HandStarted)
    dealt = first_of(hand, CardsDealt)
    if started is None or dealt is None:
        return [] if started is None else ["CardsDealt: the hand records no deal"]
    order = dealing_order(config, started)
    n = len(order)
    differences = []
    hands: dict[int, list[str]] = {}
    for k, seat in enumerate(order):
        positions = [k + n * j for j in range(5)]
        hands[seat] = [deck[p] for p in positions if p < len(deck)]
        recorded = dealt.hands[seat] if seat < len(dealt.hands) else ()
        for j, p in enumerate(positions):
            card = recorded[j] if j < len(recorded) else None
            if p < len(deck) and card != deck[p]:
                differences.append(
                    f"CardsDealt: seat {seat}'s card {j + 1} is {card or 'missing'}, the deck deals {deck[p]} "
                    f"(deck position {p})"
                )
        if len(recorded) > 5:
            differences.append(f"CardsDealt: seat {seat} holds {len(recorded)} cards, not 5 (FD-3)")
        shotgun = (recorded[0],) if config.get("shotgun") and recorded else ()
        face_up = dealt.face_up[seat] if seat < len(dealt.face_up) else ()
        if tuple(face_up) != shotgun:
            differences.append(
                f"CardsDealt: seat {seat} shows {cards_text(face_up)} face up, FD-16 shows {cards_text(shotgun)}"
            )
    for seat, recorded in enumerate(dealt.hands):
        if seat not in hands and recorded:
            differences.append(f"CardsDealt: seat {seat} was not dealt in but holds {cards_text(recorded)}")
    stock = [(card, f"deck position {p}") for p, card in enumerate(deck) if p >= 5 * n]
    for i, card in enumerate(dealt.stock):
        if i >= len(stock) or card != stock[i][0]:
            given = f"{stock[i][0]} ({stock[i][1]})" if i < len(stock) else "nothing"
            differences.append(f"CardsDealt: stock card {i + 1} is {card}, the deck gives {given}")
    if len(dealt.stock) < len(stock):
        differences.append(f"CardsDealt: the stock holds {len(dealt.stock)} cards, the deck leaves {len(stock)}")
    return differences + _follow(hand, hands, stock)


def _follow(hand: Sequence[Any], hands: dict[int, list[str]], stock: list[tuple[str, str]]) -> list[str]:
    following = _Cards(hands, stock)
    for i, event in enumerate(hand):
        if type(event) is PlayerActed:
            following.fold(event)
        elif type(event) is StockReshuffled:
            after = next((later for later in hand[i + 1 :] if type(later) is CardsDrawn), None)
            following.reshuffle(event, after)
        elif type(event) is CardsDrawn:
            following.draw(event)
        elif type(event) is ShowdownHeld:
            following.shown(event)
    return following.differences


class FiveCardDrawAudit:
    """The hand audit's hooks for Five-Card Draw."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The deck the table's ``wild`` option gives (FD-1, FD-15): ``english_52``, or
        ``english_53`` / ``english_54`` with one or two jokers wild."""
        return deck_name(config, hand)

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """How the dealt, drawn, reshuffled and shown cards differ from dealing ``deck`` (FD-3,
        FD-7, FD-8, FD-9, FD-16)."""
        return deal_differences(config, deck, hand)

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """The first dealer and every reshuffle re-drawn from the seed (CM-18, CM-19), the forced
        bets, openers and draws checked (FD-2, FD-6, FD-7), every shown hand re-valued, and the pots
        re-cut from the recorded betting and re-awarded (FD-9..FD-11, FD-17)."""
        return outcome_differences(config, hand, streams)

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """Every hand shown, with its category, description and the pots (or halves) it took."""
        return showdown(config, hand)

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """The event in words, players by name: "alice raises to 12 chips.", "bob shows …"."""
        return between_hands.history_line(event) or history_line(event, names)

    def phh(self, config: Mapping[str, Any], hand: Sequence[Any], players: Sequence[str]) -> str | None:
        """The hand in PHH for fixed-limit deuce-to-seven triple draw (``F2L3D``), else ``None``."""
        return phh(config, hand, players)
