"""Euchre's wire shapes, as types: its legal actions (``legal.candidates``) and the top-level keys
of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict

from games.engine import presence


class KeepHand(TypedDict):
    type: Literal["keep_hand"]


class FarmersSwap(TypedDict):
    type: Literal["farmers_swap"]
    cards: list[str]


class AceNoFace(TypedDict):
    type: Literal["ace_no_face"]


class Pass(TypedDict):
    type: Literal["pass"]


class OrderUp(TypedDict):
    type: Literal["order_up"]
    alone: bool


class PickUp(TypedDict):
    type: Literal["pick_up"]
    alone: bool


class NameTrump(TypedDict):
    type: Literal["name_trump"]
    suit: str
    alone: bool


class CallNoTrump(TypedDict):
    type: Literal["call_no_trump"]
    alone: bool


class Play(TypedDict):
    type: Literal["play"]
    card: str


class Discard(TypedDict):
    type: Literal["discard"]
    card: str


ACTIONS: tuple[type, ...] = (
    KeepHand,
    FarmersSwap,
    AceNoFace,
    Pass,
    OrderUp,
    PickUp,
    NameTrump,
    CallNoTrump,
    Play,
    Discard,
    *presence.ACTIONS,
)


class EuchreView(TypedDict, total=False):
    game: Required[Literal["euchre"]]
    seat: int | None
    phase: str
    seats: int
    cutthroat: bool
    target_points: int
    hand_no: int
    commitment: str
    dealer: int
    deal_patterns: list[Any]
    first_dealer_draws: list[dict[str, Any]]
    scores: list[int]
    turn: int
    to_act: list[int]
    turned_card: str | None
    turned_down: bool
    picked_up: bool
    bidding_round: int
    bids: list[dict[str, Any]]
    shown: list[dict[str, Any]]
    trump: str | None
    no_trump: bool
    maker: int
    makers: list[int]
    alone: bool
    sitting_out: int
    trick: list[dict[str, Any]]
    tricks: list[dict[str, Any]]
    tricks_won: list[int]
    hand_sizes: list[int]
    winners: list[int]
    hand: list[str]
    discard: str
    played_by_bot: list[int]


VIEW: type = EuchreView
