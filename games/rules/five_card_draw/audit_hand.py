"""What the hand audit reads from one Five-Card Draw hand's recorded events, shared by its hooks
(``audit``, ``audit_outcome``, ``audit_history``, ``phh``): the events of a kind, the dealing
order (FD-3), each seat's chips in the pot from the recorded betting (FD-11) and the pots' names.
Pure: it reads the events only, never the engine's state.

The events of hand ``n`` as the audit service gives them run from its ``HandStarted`` to the next
hand's: the forced bets, the deal, the betting and draws, the showdown, ``PotsAwarded`` and
``HandEnded``, then whatever follows between hands (players leaving or going out, a passed pot
given back when the table ends, ``TableEnded``). Hand 1 also holds the table's ``TableStarted``
and ``FirstDealerDrawn`` (CM-19).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from games.rules.five_card_draw.events import (
    ForcedBetsPosted,
    HandEnded,
    HandStarted,
    PlayerActed,
    PotsAwarded,
)

E = TypeVar("E")


def first_of(hand: Sequence[Any], kind: type[E]) -> E | None:
    """The hand's first event of type ``kind``, or ``None``."""
    return next((event for event in hand if type(event) is kind), None)


def all_of(hand: Sequence[Any], kind: type[E]) -> list[E]:
    """Every event of type ``kind`` in the hand, in order."""
    return [event for event in hand if type(event) is kind]


def cards_text(cards: Sequence[str]) -> str:
    """Card codes as the history writes them: ``"Ah Kd 7c"``, or ``"nothing"``."""
    return " ".join(cards) if cards else "nothing"


def pot_name(number: int) -> str:
    """``"the main pot"`` for pot 0, ``"side pot 1"`` for pot 1, …"""
    return "the main pot" if number == 0 else f"side pot {number}"


def blinds(config: Mapping[str, Any]) -> bool:
    """Whether the table posts blinds rather than antes (FD-2)."""
    return config.get("forced_bets") == "blinds"


def dealing_order(config: Mapping[str, Any], started: HandStarted) -> tuple[int, ...]:
    """FD-3: the players dealt in, from the first to get a card: the small blind, or with antes
    the player to the button's left (``HandStarted.players`` already runs from the button's left
    to the button). Heads up with blinds the button is the small blind (FD-2)."""
    players = tuple(started.players)
    if blinds(config) and len(players) == 2 and started.button in players:
        return (started.button, *(seat for seat in players if seat != started.button))
    return players


def blind_seats(started: HandStarted) -> tuple[int, int]:
    """FD-2: the small and big blind: the two players to the button's left, or heads up the button
    and the other player."""
    players = started.players
    if len(players) == 2:
        return started.button, next(seat for seat in players if seat != started.button)
    return players[0], players[1]


def settlement(hand: Sequence[Any]) -> PotsAwarded | None:
    """The hand's own award of its pots (FD-9..FD-11): a ``PotsAwarded`` before ``HandEnded``. A
    ``PotsAwarded`` after it gives a passed hand's pot back when the table ends (FD-6)."""
    for event in hand:
        if type(event) is HandEnded:
            return None
        if type(event) is PotsAwarded:
            return event
    return None


def returned_pot(hand: Sequence[Any]) -> PotsAwarded | None:
    """A ``PotsAwarded`` after ``HandEnded``: a passed hand's pot given back at the table's end."""
    ended = False
    for event in hand:
        if type(event) is HandEnded:
            ended = True
        elif ended and type(event) is PotsAwarded:
            return event
    return None


@dataclasses.dataclass(frozen=True, slots=True)
class Betting:
    """The hand's betting as its events record it: each seat's chips put in (forced bets
    included), the seats that folded, the chips carried from a passed hand (FD-6), and the
    players still in at the end, from the dealer's left."""

    contributed: dict[int, int]
    folded: frozenset[int]
    carried: int
    still_in: tuple[int, ...]

    @property
    def total(self) -> int:
        """Every chip in the pot: contributions and carried chips."""
        return sum(self.contributed.values()) + self.carried


def betting(hand: Sequence[Any]) -> Betting | None:
    """The hand's betting from ``ForcedBetsPosted`` and every ``PlayerActed`` (its chips, its folds);
    ``None`` for a hand without ``HandStarted``."""
    started = first_of(hand, HandStarted)
    if started is None:
        return None
    contributed = dict.fromkeys(started.players, 0)
    forced = first_of(hand, ForcedBetsPosted)
    if forced is not None:
        for seat, chips in forced.posts:
            contributed[seat] = contributed.get(seat, 0) + chips
    folded = set()
    for event in all_of(hand, PlayerActed):
        contributed[event.seat] = contributed.get(event.seat, 0) + event.chips
        if event.action == "fold":
            folded.add(event.seat)
    still_in = tuple(seat for seat in started.players if seat not in folded)
    return Betting(contributed, frozenset(folded), forced.carried if forced else 0, still_in)
