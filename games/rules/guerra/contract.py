"""Guerra's wire shapes, as types: its legal actions (``decide.legal_actions``) and the top-level
keys of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict

from games.engine import presence


class Throw(TypedDict):
    type: Literal["throw"]


ACTIONS: tuple[type, ...] = (Throw, *presence.ACTIONS)


class GuerraView(TypedDict, total=False):
    status: str
    seat: int | None
    hand_no: int
    deck: Required[str]
    jokers: bool
    ace_high: bool
    auto_play: bool
    max_rounds: int
    rounds_played: Required[int]
    next_round_size: int
    players: list[dict[str, Any]]
    table: list[Any]
    awaiting: list[int]
    played_by_bot: list[int]
    last_round: dict[str, Any] | None
    ambushes: int
    forfeited_cards: int
    winners: list[int]
    end_reason: str | None
    commitment: str | None
    next_commitment: str | None
    client_seed: str
    server_seed: str | None


VIEW: type = GuerraView
