"""Guerra Chevichona's events, named in the past tense. Secret fields (the deal, forfeited and
shuffled piles, a battle's face-down cards) are shown to nobody while the match runs (GC-13)."""

from __future__ import annotations

import dataclasses

from games.engine import presence
from games.engine.codec import secret_field


@dataclasses.dataclass(frozen=True, slots=True)
class MatchStarted:
    """The deck was shuffled and dealt (GC-2). The whole match is hand 1 of the fair stream."""

    hand_no: int
    table_id: str
    commitment: str
    next_commitment: str | None
    client_seed: str
    seats: int
    deck: str
    jokers: bool
    pile_sizes: tuple[int, ...]
    server_seed: str = secret_field()
    cards: tuple[str, ...] = secret_field()  # the shuffled deck, top first


@dataclasses.dataclass(frozen=True, slots=True)
class ThrowSent:
    """A player (or the timer, for an absent one) asked to throw in the coming round."""

    round_no: int
    seat: int
    by_timeout: bool


@dataclasses.dataclass(frozen=True, slots=True)
class CardsThrown:
    """A player threw the round's 2 or 3 cards face up, from the top of their pile (GC-3)."""

    round_no: int
    seat: int
    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerOut:
    """A player is out; what is left of their pile goes to the taker of the round (GC-10, GC-11).

    ``reason``: ``short`` (cannot throw the round's cards), ``no_extra`` (no card for a tie-break),
    ``no_battle_cards`` (nothing to put down in a battle), ``no_cards`` (emptied by the round just
    taken), ``left`` (left the table; the pile goes to the next round's taker).
    """

    round_no: int
    seat: int
    reason: str
    count: int
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class AmbushMade:
    """Three cards of one rank in a 3-card round: the round is won by ambush (GC-9)."""

    round_no: int
    seats: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class SkirmishPlayed:
    """Skirmish ``skirmish`` (from 1): ``seats`` had its highest ``card`` (GC-4); two or more make
    it a battle (GC-7)."""

    round_no: int
    skirmish: int
    seats: tuple[int, ...]
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class BattleCardsLaid:
    """One player's layer of a battle: cards face down, then one face up (GC-7, GC-11)."""

    round_no: int
    skirmish: int
    layer: int
    seat: int
    face_up: str
    down_count: int
    face_down: tuple[str, ...] = secret_field()  # shown by RoundTaken once the round is over


@dataclasses.dataclass(frozen=True, slots=True)
class BattleGrew:
    """The face-up cards of a layer tied at the top among ``seats``: another layer (GC-7)."""

    round_no: int
    skirmish: int
    layer: int
    seats: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class BattleWon:
    """The battle of skirmish ``skirmish`` was won by ``seat`` (``by_draw``: a stalemate draw)."""

    round_no: int
    skirmish: int
    seat: int
    layers: int
    by_draw: bool


@dataclasses.dataclass(frozen=True, slots=True)
class ExtraCardThrown:
    """A tied player threw one extra card face up (GC-6 ``skirmishes``, GC-8 ``battles``, GC-9
    ``ambush``)."""

    round_no: int
    seat: int
    card: str
    tie: str


@dataclasses.dataclass(frozen=True, slots=True)
class StalemateDrawn:
    """Nobody left to break a tie had a card: ``seat`` was drawn among ``seats`` (fair stream)."""

    round_no: int
    purpose: str
    seats: tuple[int, ...]
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundTaken:
    """``seat`` took every card of the round and put them under their pile in GC-5 order.

    ``revealed`` shows the battles' face-down cards now that the round is over (GC-13), as
    ``(skirmish, layer, seat, cards)``.
    """

    round_no: int
    seat: int
    count: int
    next_size: int
    revealed: tuple[tuple[int, int, int, tuple[str, ...]], ...]
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class PileShuffled:
    """The ambush winner's pile was shuffled (GC-9, CM-18) with ``purpose``."""

    round_no: int
    seat: int
    purpose: str
    count: int
    cards: tuple[str, ...] = secret_field()  # the new pile, top first


@dataclasses.dataclass(frozen=True, slots=True)
class ForfeitsTaken:
    """The last player in took the piles of those who left (no round was needed)."""

    seat: int
    count: int
    cards: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over (GC-12); the seed of hand 1 is revealed (CM-10).

    ``reason``: ``all_cards`` (one player holds every card) or ``max_rounds`` (most cards win).
    """

    hand_no: int
    server_seed: str
    reason: str
    winners: tuple[int, ...]
    pile_sizes: tuple[int, ...]


EVENT_TYPES: tuple[type, ...] = (
    MatchStarted,
    ThrowSent,
    CardsThrown,
    PlayerOut,
    AmbushMade,
    SkirmishPlayed,
    BattleCardsLaid,
    BattleGrew,
    BattleWon,
    ExtraCardThrown,
    StalemateDrawn,
    RoundTaken,
    PileShuffled,
    ForfeitsTaken,
    MatchEnded,
    # CM-20: sitting out, sitting in and leaving, the same events in every game.
    *presence.EVENT_TYPES,
)
