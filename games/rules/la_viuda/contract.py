"""La Viuda's wire shapes, as types: its legal actions (the widow exchange, and the widow's offer)
and the top-level keys of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict

from games.rules.widow.contract import EXCHANGE_ACTIONS


class BuyWidow(TypedDict):
    type: Literal["buy_widow"]


class DeclineWidow(TypedDict):
    type: Literal["decline_widow"]


ACTIONS: tuple[type, ...] = (*EXCHANGE_ACTIONS, BuyWidow, DeclineWidow)


class LaViudaView(TypedDict, total=False):
    game: Required[Literal["la-viuda"]]
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
    pot: int
    order: list[int]
    out: list[bool]
    knocks: list[int]
    first_knocker: int | None
    winner: int | None
    offer: int | None
    widow_bought_by: int | None
    widow_price: int
    wild_rank: str
    last_showdown: dict[str, Any] | None
    chip_value: int
    chips_per_player: int
    currency: str | None
    flush_by_suit: bool
    phase2_turns: int
    turns_before_forced_knock: int | None


VIEW: type = LaViudaView
