"""Guerra's wire shapes, as types: its legal actions (``decide.legal_actions``) and the top-level
keys of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from games.engine import presence


class Throw(TypedDict):
    type: Literal["throw"]


ACTIONS: tuple[type, ...] = (Throw, *presence.ACTIONS)


class Player(TypedDict):
    """A player as everyone sees it: the size of its pile, why it is out (``None`` while in)."""

    seat: int
    cards: int
    out: str | None
    thrown: bool


class Play(TypedDict):
    """Cards one player put on the table (``kind``: ``throw``, ``battle`` or ``extra``). A battle
    shows its face-up card and how many lie face down, and, once the round is over, ``face_down``."""

    seat: int
    kind: str
    cards: NotRequired[list[str]]
    skirmish: NotRequired[int]
    layer: NotRequired[int]
    face_up: NotRequired[str]
    face_down_count: NotRequired[int]
    face_down: NotRequired[list[str]]


class Skirmish(TypedDict):
    skirmish: int
    highest: list[int]


class Battle(TypedDict):
    skirmish: int
    winner: int


class Lot(TypedDict):
    """A round settled by lot (GC-14): among whom, who was drawn, and the sentence saying so."""

    players: list[int]
    drawn: int
    sentence: str


class LastRound(TypedDict):
    """The last round once over, every card face up, ``sentence`` in the reader's words (GC-13)."""

    round_no: int
    size: int
    plays: list[Play]
    skirmishes: list[Skirmish]
    battles: list[Battle]
    ambush: list[int]
    taker: int
    cards_taken: int
    sentence: str
    settled_by_lot: list[Lot]


class GuerraView(TypedDict):
    """Every key is always there (``view.view``)."""

    game: Literal["guerra"]
    status: str
    seat: int | None
    hand_no: int
    deck: str
    jokers: bool
    ace_high: bool
    auto_play: bool
    max_rounds: int
    rounds_played: int
    next_round_size: int
    players: list[Player]
    table: list[Play]
    awaiting: list[int]
    played_by_bot: list[int]
    last_round: LastRound | None
    ambushes: int
    forfeited_cards: int
    winners: list[int]
    end_reason: str | None
    commitment: str | None
    next_commitment: str | None
    client_seed: str | None
    server_seed: str | None


VIEW: type = GuerraView
