"""Provably fair randomness (CM-5..CM-10, CM-18, CM-19).

The server commits to ``sha256(server_seed)`` before a hand; every random choice of the hand is
then drawn from an HMAC-SHA256 stream keyed by that seed, so anyone given the revealed seed can
recompute the deck and every other choice. The engine never makes a seed: the service does (with
``secrets``) and passes it in.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from games.engine.cards import JOKERS, in_canonical_order, low_rank

T = TypeVar("T")

SEED_BYTES = 32


def commitment(server_seed: bytes) -> str:
    """The published commitment of a seed: ``sha256(server_seed)`` as lowercase hex (CM-5)."""
    return hashlib.sha256(server_seed).hexdigest()


def hand_client_seed(seat_seeds: Sequence[str | None]) -> str:
    """The hand's client seed: each seat's seed joined by ``|``, empty for none (CM-6)."""
    return "|".join(seed or "" for seed in seat_seeds)


def valid_client_seed(seed: str) -> bool:
    """A player's client seed: 0-64 printable ASCII characters, no ``|`` (CM-6)."""
    return len(seed) <= 64 and all(32 <= ord(ch) < 127 for ch in seed) and "|" not in seed


class Stream:
    """The random stream of one purpose in one hand (CM-7), read 4 bytes at a time (CM-8)."""

    __slots__ = ("_buffer", "_counter", "_key", "_prefix")

    def __init__(self, server_seed: bytes, table_id: str, hand_no: int, client_seed: str, purpose: str):
        self._key = server_seed
        self._prefix = f"{table_id}:{hand_no}:{client_seed}:{purpose}:"
        self._counter = 0
        self._buffer = b""

    def _block(self) -> bytes:
        message = f"{self._prefix}{self._counter}".encode()
        self._counter += 1
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def next_bytes(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream."""
        while len(self._buffer) < n:
            self._buffer += self._block()
        chunk, self._buffer = self._buffer[:n], self._buffer[n:]
        return chunk

    def uniform(self, m: int) -> int:
        """A uniform integer in ``[0, m)`` without modulo bias (CM-8)."""
        if not 1 <= m <= 2**32:
            raise ValueError(f"uniform() needs 1 <= m <= 2**32, got {m}")
        limit = 2**32 - (2**32 % m)
        while True:
            x = int.from_bytes(self.next_bytes(4), "big")
            if x < limit:
                return x % m


def shuffle(items: Sequence[T], stream: Stream) -> list[T]:
    """Fisher-Yates over ``items`` in the order given (CM-9); position 0 is the top card."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = stream.uniform(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def shuffled(
    items: Sequence[T], server_seed: bytes, table_id: str, hand_no: int, client_seed: str, purpose: str = "deck"
) -> list[T]:
    """``items`` (already in canonical order, CM-3 / CM-18) shuffled with the stream of ``purpose``."""
    return shuffle(items, Stream(server_seed, table_id, hand_no, client_seed, purpose))


def pick(n: int, server_seed: bytes, table_id: str, hand_no: int, client_seed: str, purpose: str) -> int:
    """One uniform choice in ``[0, n)`` from its own purpose's stream (the La Viuda colour card)."""
    return Stream(server_seed, table_id, hand_no, client_seed, purpose).uniform(n)


def streams(server_seed: bytes, table_id: str, hand_no: int, client_seed: str) -> Callable[[str], Stream]:
    """The streams of one hand by purpose: ``streams(...)("colour-card")`` is a fresh :class:`Stream`."""

    def stream(purpose: str) -> Stream:
        return Stream(server_seed, table_id, hand_no, client_seed, purpose)

    return stream


def reshuffled(
    cards: Iterable[str],
    deck: Sequence[str],
    server_seed: bytes,
    table_id: str,
    hand_no: int,
    client_seed: str,
    purpose: str,
) -> list[str]:
    """A later shuffle of some cards (CM-18): put in ``deck``'s canonical order, then shuffled with ``purpose``."""
    return shuffled(in_canonical_order(cards, deck), server_seed, table_id, hand_no, client_seed, purpose)


@dataclasses.dataclass(frozen=True, slots=True)
class FirstDealer:
    """The first-dealer draw (CM-19): who deals, and every card taken, in order, as ``(seat, card)``."""

    dealer: int
    draws: tuple[tuple[int, str], ...]


def first_dealer(
    deck: Sequence[str], seats: Sequence[int], server_seed: bytes, table_id: str, client_seed: str
) -> FirstDealer:
    """Draw the table's first dealer (CM-19) from hand 1's stream, purpose ``first-dealer``.

    ``deck`` is the table's deck in canonical order (jokers are left out here); ``seats`` the seated
    seats; the draw itself is :func:`draw_for_dealer`.
    """
    cards = shuffled(
        [card for card in deck if card not in JOKERS], server_seed, table_id, 1, client_seed, "first-dealer"
    )
    return draw_for_dealer(cards, seats)


def draw_for_dealer(cards: Sequence[str], seats: Sequence[int]) -> FirstDealer:
    """The CM-19 draw from ``cards`` already shuffled: one card to each seat in seat order; the
    lowest card deals (aces low, suits do not count); seats tied for lowest take the next cards,
    in seat order, until one is lowest. Should the pack run out first (not possible with these
    decks), the first of the tied seats deals."""
    if not seats:
        raise ValueError("the first-dealer draw needs at least one seat")
    drawing = sorted(seats)
    draws: list[tuple[int, str]] = []
    position = 0
    while len(drawing) > 1 and position + len(drawing) <= len(cards):
        taken = [(seat, cards[position + offset]) for offset, seat in enumerate(drawing)]
        position += len(drawing)
        draws.extend(taken)
        lowest = min(low_rank(card) for _, card in taken)
        drawing = [seat for seat, card in taken if low_rank(card) == lowest]
    return FirstDealer(drawing[0], tuple(draws))
