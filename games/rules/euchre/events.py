"""Euchre's events: past tense, frozen. Secret fields stay out of every view (``view.py``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from games.engine import presence
from games.engine.codec import secret_field

Plays = tuple[tuple[int, str], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class MatchStarted:
    """The table started; ``draws`` are the cards that chose the first dealer (CM-19)."""

    seats: int
    dealer: int
    draws: Plays


@dataclasses.dataclass(frozen=True, slots=True)
class DealPatternChosen:
    """A seat chose how it deals in packets from now on (EU-3)."""

    seat: int
    pattern: str


@dataclasses.dataclass(frozen=True, slots=True)
class HandStarted:
    """A new hand was shuffled and dealt (EU-2, EU-3). ``deck`` is the shuffled order, top first."""

    hand_no: int
    seats: int
    dealer: int
    pattern: str
    commitment: str
    next_commitment: str | None
    client_seed: str
    turned_card: str
    server_seed: str = secret_field()
    deck: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimDeclined:
    """A seat kept its hand when offered the farmer's hand or ace-no-face claim (EU-16, EU-17)."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class FarmersHandSwapped:
    """A seat showed a hand of nines and tens and swapped three cards with the kitty (EU-16)."""

    seat: int
    shown: tuple[str, ...]
    given: tuple[str, ...] = secret_field()
    taken: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class AceNoFaceDeclared:
    """A seat showed an ace with only nines and tens; the same dealer deals again (EU-17)."""

    seat: int
    shown: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Passed:
    """A seat passed in the given round of bidding (EU-4, EU-5)."""

    seat: int
    round: int


@dataclasses.dataclass(frozen=True, slots=True)
class TrumpMade:
    """A seat ordered up (round 1) or named (round 2) trump; ``suit`` is ``None`` for no trump
    (EU-18). ``makers`` are the maker's side (EU-6, EU-19); ``sitting_out`` is the lone maker's
    partner or -1 (EU-7); ``dealer_picks_up`` says whether the dealer takes the turned card (EU-4)."""

    seat: int
    round: int
    suit: str | None
    alone: bool
    makers: tuple[int, ...]
    sitting_out: int
    dealer_picks_up: bool


@dataclasses.dataclass(frozen=True, slots=True)
class DealerDiscarded:
    """The dealer discarded one card face down after picking up (EU-4)."""

    seat: int
    card: str = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card was played to the current trick (EU-10)."""

    seat: int
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class TrickTaken:
    """A trick was completed and won (EU-11)."""

    trick_no: int
    winner: int
    plays: Plays


@dataclasses.dataclass(frozen=True, slots=True)
class HandEnded:
    """A hand is over: played (scored, EU-12, EU-13), thrown in (EU-5) or redealt (EU-17). The
    seed and every card still hidden are revealed (CM-10, EU-20)."""

    hand_no: int
    outcome: str
    makers: tuple[int, ...]
    maker_tricks: int
    points: tuple[int, ...]
    scores: tuple[int, ...]
    server_seed: str
    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...]
    discard: str


@dataclasses.dataclass(frozen=True, slots=True)
class MatchWon:
    """The match is over: these seats won (EU-14, EU-19)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]


EVENT_TYPES = (
    MatchStarted,
    DealPatternChosen,
    HandStarted,
    ClaimDeclined,
    FarmersHandSwapped,
    AceNoFaceDeclared,
    Passed,
    TrumpMade,
    DealerDiscarded,
    CardPlayed,
    TrickTaken,
    HandEnded,
    MatchWon,
    # CM-20: sitting out, sitting in and leaving.
    *presence.EVENT_TYPES,
)


def first_event(hand: Sequence[Any], kind: type) -> Any:
    """A hand's first event of type ``kind``, or ``None`` (the audit reads hands this way)."""
    return next((event for event in hand if isinstance(event, kind)), None)
