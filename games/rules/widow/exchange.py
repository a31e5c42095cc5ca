"""The widow exchange shared by La Viuda and Whiskey Poker (WX-1..WX-7), written once.

A hand's exchange is a small frozen state (``Exchange``) with its own events. Each game deals with
``deal``, has each move judged by ``games.rules.widow.legal`` and asks ``turn_events`` for its
events, folds the events with ``evolve`` and
runs its own showdown once ``Exchange.turn`` is ``-1`` (the turn came back to the first knocker).
Direction is only in ``order``: the seats of the hand in turn order, the dealer last.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine import cards
from games.engine import seats as table_seats
from games.engine.codec import secret_field
from games.engine.replace import replacer

HAND_SIZE = 5
OVER = -1


# --- events ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Passed:
    """A player passed in phase 1 (WX-2); ``timed_out`` when the turn timer played it (WX-7)."""

    seat: int
    timed_out: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Knocked:
    """A player knocked. ``first`` for the knock that ends the hand (WX-6); a later knock is a pass.
    ``forced`` when WX-7's orbit limit left no other move; ``timed_out`` when the timer played it."""

    seat: int
    first: bool
    phase: int
    forced: bool = False
    timed_out: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class WidowTaken:
    """Phase 1 exchange (WX-2): the player's hand went face up into the middle as the new widow and
    they took the face-down widow unseen. ``took`` is private to that player (WP-9)."""

    seat: int
    gave: tuple[str, ...]
    took: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class WidowTurnedUp:
    """Nobody exchanged by the dealer's turn: the widow was turned face up (WX-3)."""

    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class HandExchanged:
    """Phase 2: the player swapped all five cards with the face-up widow (WX-5)."""

    seat: int
    gave: tuple[str, ...]
    took: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class CardExchanged:
    """Phase 2: the player swapped one card with one card of the face-up widow (WX-5)."""

    seat: int
    gave: str
    took: str


EVENT_TYPES: tuple[type, ...] = (Passed, Knocked, WidowTaken, WidowTurnedUp, HandExchanged, CardExchanged)
TURN_EVENTS = (Passed, Knocked, WidowTaken, HandExchanged, CardExchanged)


# --- state -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Exchange:
    """The widow exchange of one hand. ``hands`` is indexed by seat (empty for a seat not in the
    hand). ``turn`` is the seat to act, ``OVER`` once the hand has reached its showdown."""

    order: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    widow: tuple[str, ...]
    face_up: bool = False
    turn: int = OVER
    first_knocker: int = OVER
    knocks: tuple[int, ...] = ()
    phase2_turns: int = 0

    @property
    def dealer(self) -> int:
        """The dealer is the last seat of the turn order (WP-3, LV-4)."""
        return self.order[-1]

    @property
    def phase(self) -> int:
        """1 while the widow is face down, 2 once it is face up (WX-2, WX-5)."""
        return 2 if self.face_up else 1


def turn_order(dealer: int, seats: int, out: Sequence[bool], step: int) -> tuple[int, ...]:
    """The seats of a hand in turn order: starting next to the dealer in direction ``step`` (+1
    clockwise for Whiskey Poker, -1 counterclockwise for La Viuda, CM-4), skipping seats that are
    out, with the dealer last."""
    playing = {seat for seat in range(seats) if not out[seat]}
    if dealer not in playing:
        raise ValueError(f"dealer {dealer} is out of the game")
    first = table_seats.next_seat(dealer, seats, playing, clockwise=step > 0)
    return table_seats.turn_order(first, seats, playing, clockwise=step > 0)


def next_dealer(dealer: int, seats: int, out: Sequence[bool], step: int) -> int:
    """The next seat from ``dealer`` in direction ``step`` that is still in the game (WP-2, LV-3)."""
    playing = {seat for seat in range(seats) if not out[seat]}
    return table_seats.next_seat(dealer, seats, playing, clockwise=step > 0)


def deal(
    deck: Sequence[str], order: Sequence[int], seats: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """Deal five cards one at a time in turn order, the widow receiving its card just before the
    dealer in every round (WX-1, WP-3, LV-4). Returns the hands by seat, the widow and the stock
    (the undealt cards, top first)."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    widow: list[str] = []
    position = 0
    for _ in range(HAND_SIZE):
        for seat in order[:-1]:
            hands[seat].append(deck[position])
            position += 1
        widow.append(deck[position])
        position += 1
        hands[order[-1]].append(deck[position])
        position += 1
    return tuple(tuple(hand) for hand in hands), tuple(widow), tuple(deck[position:])


def start(order: tuple[int, ...], hands: tuple[tuple[str, ...], ...], widow: tuple[str, ...]) -> Exchange:
    """The exchange of a freshly dealt hand: widow face down, first seat of the order to act."""
    return Exchange(order=order, hands=hands, widow=widow, turn=order[0])


def next_seat(ex: Exchange, seat: int) -> int:
    """The seat after ``seat`` in the hand's turn order."""
    order = ex.order
    return order[(order.index(seat) + 1) % len(order)]


def must_knock(ex: Exchange, max_orbits: int) -> bool:
    """WX-7: after ``max_orbits`` orbits of phase 2 with nobody knocking, the player must knock."""
    return ex.face_up and ex.first_knocker == OVER and ex.phase2_turns >= max_orbits * len(ex.order)


# --- moves (judged by ``games.rules.widow.legal``) ------------------------------------------


def normalise_card(code: Any) -> str:
    """A card code as typed by a player (CM-1), or ``""`` when it is not a card."""
    try:
        return cards.parse_card(code)
    except (cards.CardError, ValueError):
        return ""


def action_of(ex: Exchange, command: Mapping[str, Any]) -> dict[str, Any]:
    """The move ``command`` makes, shaped like a legal move: a ``timeout`` plays pass while the
    widow is face down and knock once it is up (WX-7); an ``exchange_one``'s cards as read (CM-1)."""
    kind = command.get("type")
    if kind == "timeout":
        kind = "knock" if ex.face_up else "pass"
    action: dict[str, Any] = {"type": kind}
    if kind == "exchange_one":
        action.update(give=normalise_card(command.get("give")), take=normalise_card(command.get("take")))
    return action


def turn_events(ex: Exchange | None, command: Mapping[str, Any], max_orbits: int) -> list[Any]:
    """The events of one exchange move (WX-2..WX-7), including the widow turning face up after
    the dealer's phase-1 turn. A ``timeout`` command plays pass in phase 1 and knock in phase 2.
    The move is one the game's judge let through (``games.rules.widow.legal.turn_refusal``)."""
    assert ex is not None
    seat: int = command["seat"]
    timed_out = command.get("type") == "timeout"
    action = action_of(ex, command)
    kind = action["type"]
    hand = ex.hands[seat]
    events: list[Any]
    if kind == "pass":
        events = [Passed(seat, timed_out=timed_out)]
    elif kind == "knock":
        forced = must_knock(ex, max_orbits)
        events = [Knocked(seat, first=ex.first_knocker == OVER, phase=ex.phase, forced=forced, timed_out=timed_out)]
    elif kind == "exchange_all":
        events = [HandExchanged(seat, hand, ex.widow) if ex.face_up else WidowTaken(seat, hand, ex.widow)]
    else:
        events = [CardExchanged(seat, action["give"], action["take"])]
    if not ex.face_up and seat == ex.dealer and kind in ("pass", "knock"):
        events.append(WidowTurnedUp(ex.widow))
    return events


# --- evolve ------------------------------------------------------------------------------------


_replace_exchange = replacer(Exchange)


def _advance(ex: Exchange, seat: int, **changes: Any) -> Exchange:
    following = next_seat(ex, seat)
    knocker = changes.get("first_knocker", ex.first_knocker)
    changes["turn"] = OVER if following == knocker else following
    return _replace_exchange(ex, changes)


def _with_hand(hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _phase2_count(ex: Exchange) -> int:
    return ex.phase2_turns + 1 if ex.face_up and ex.first_knocker == OVER else ex.phase2_turns


def evolve(ex: Exchange, event: Any) -> Exchange:
    """The exchange after one of its events. Never re-checks the rules."""
    kind = type(event)
    if kind is Passed:
        return _advance(ex, event.seat)
    if kind is Knocked:
        changes: dict[str, Any] = {"knocks": (*ex.knocks, event.seat), "phase2_turns": _phase2_count(ex)}
        if event.first:
            changes["first_knocker"] = event.seat
        return _advance(ex, event.seat, **changes)
    if kind is WidowTaken:
        return _advance(
            ex, event.seat, hands=_with_hand(ex.hands, event.seat, event.took), widow=event.gave, face_up=True
        )
    if kind is HandExchanged:
        return _advance(
            ex,
            event.seat,
            hands=_with_hand(ex.hands, event.seat, event.took),
            widow=event.gave,
            phase2_turns=_phase2_count(ex),
        )
    if kind is CardExchanged:
        hand = tuple(event.took if card == event.gave else card for card in ex.hands[event.seat])
        widow = tuple(event.gave if card == event.took else card for card in ex.widow)
        return _advance(
            ex, event.seat, hands=_with_hand(ex.hands, event.seat, hand), widow=widow, phase2_turns=_phase2_count(ex)
        )
    if kind is WidowTurnedUp:
        return _replace_exchange(ex, {"face_up": True})
    raise TypeError(f"not a widow exchange event: {kind.__name__}")


# --- views -------------------------------------------------------------------------------------


def view(ex: Exchange | None, seat: int | None, max_orbits: int) -> dict[str, Any]:
    """What ``seat`` may see of the exchange (WP-9): its own hand, the widow only while face up."""
    if ex is None:
        return {"phase": None, "turn": None, "widow": None, "widow_face_up": False, "hand": None}
    in_hand = seat is not None and 0 <= seat < len(ex.hands) and bool(ex.hands[seat])
    return {
        "phase": ex.phase,
        "order": list(ex.order),
        "dealer": ex.dealer,
        "turn": None if ex.turn == OVER else ex.turn,
        "widow_face_up": ex.face_up,
        "widow": list(ex.widow) if ex.face_up else None,
        "hand": list(ex.hands[seat]) if in_hand and seat is not None else None,
        "first_knocker": None if ex.first_knocker == OVER else ex.first_knocker,
        "knocks": list(ex.knocks),
        "phase2_turns": ex.phase2_turns,
        "turns_before_forced_knock": (
            max(0, max_orbits * len(ex.order) - ex.phase2_turns) if ex.first_knocker == OVER else None
        ),
    }


def private_fields(event: Any, seat: int | None) -> dict[str, Any]:
    """The private part of an exchange event that ``seat`` may see: the cards it took unseen."""
    if type(event) is WidowTaken and seat == event.seat:
        return {"took": list(event.took)}
    return {}


def cards_in(hands: Iterable[Sequence[str]]) -> list[str]:
    """Every card of several hands, flattened."""
    return [card for hand in hands for card in hand]
