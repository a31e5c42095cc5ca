"""Counter's events: past tense, frozen. A hand's seed and cards are secret until ``HandEnded``
reveals them (CM-10)."""

from __future__ import annotations

import dataclasses

from games.engine.codec import secret_field


@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted:
    """The table started: every seat has ``start_chips``."""

    seats: int
    start_chips: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was dealt from its committed seed (CM-5..CM-9): one secret card per seat."""

    hand_no: int
    first: int
    commitment: str
    next_commitment: str
    client_seed: str
    server_seed: str = secret_field()
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class Added:
    """A seat added chips to the pot; ``by_timeout`` when the timer added 1 for it."""

    seat: int
    amount: int
    total: int
    by_timeout: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class HandEnded:
    """The seat that reached the target won the pot; the seed and the cards are revealed (CM-10)."""

    hand_no: int
    winner: int
    pot: int
    server_seed: str
    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    """The last hand ended: the seats with most chips won."""

    chips: tuple[int, ...]
    winners: tuple[int, ...]


EVENT_TYPES = (GameStarted, HandStarted, Added, HandEnded, GameEnded)
