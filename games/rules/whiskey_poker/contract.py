"""Whiskey Poker's wire shapes, as types: its legal actions (the widow exchange) and the top-level
keys of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict

from games.rules.widow.contract import EXCHANGE_ACTIONS


class EndMatch(TypedDict):
    """The owner ends the match after this hand (owner only)."""

    type: Literal["end_match"]


ACTIONS: tuple[type, ...] = (*EXCHANGE_ACTIONS, EndMatch)


class WhiskeyPokerView(TypedDict, total=False):
    game: Required[Literal["whiskey-poker"]]
    seat: int | None
    hand_no: int
    started: bool
    finished: bool
    seats: int
    dealer: int
    turn: int | None
    phase: int | None
    hand: list[str] | None
    widow: list[str] | None
    widow_face_up: bool
    chips: list[int]
    points: list[int]
    pot: int
    order: list[int]
    out: list[bool]
    knocks: list[int]
    first_knocker: int | None
    winners: list[int]
    losers: list[int]
    scoring: str
    target_points: int | None
    end_requested: bool
    reduced_pack: bool
    pack_lowest_rank: str
    last_showdown: dict[str, Any] | None
    chip_value: int
    currency: str | None
    flush_by_suit: bool
    phase2_turns: int
    turns_before_forced_knock: int | None


VIEW: type = WhiskeyPokerView
