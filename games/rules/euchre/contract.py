"""Euchre's wire shapes, as types: its legal actions (``legal.candidates``) and the top-level keys
of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

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


class SeatCard(TypedDict):
    """A card and the seat it is from: a play to a trick, or a draw for first dealer."""

    seat: int
    card: str


class Bid(TypedDict):
    seat: int
    bid: str


class Shown(TypedDict):
    """Cards a seat showed (a farmer's hand, an ace-no-face claim)."""

    seat: int
    cards: list[str]


class Trick(TypedDict):
    """A trick taken: its plays, who won it, and the sentence saying so (EU-11)."""

    plays: list[SeatCard]
    winner: int
    sentence: str


class EuchreView(TypedDict):
    """Every key is always there but a seat's own ``hand`` and the dealer's ``discard``."""

    game: Literal["euchre"]
    seat: int | None
    phase: str
    seats: int
    cutthroat: bool
    target_points: int
    hand_no: int
    commitment: str
    dealer: int
    deal_patterns: list[str]
    first_dealer_draws: list[SeatCard]
    scores: list[int]
    turn: int
    to_act: list[int]
    turned_card: str | None
    turned_down: bool
    picked_up: bool
    bidding_round: int
    bids: list[Bid]
    shown: list[Shown]
    trump: str | None
    no_trump: bool
    maker: int
    makers: list[int]
    alone: bool
    sitting_out: int
    trick: list[SeatCard]
    tricks: list[Trick]
    tricks_won: list[int]
    hand_sizes: list[int]
    winners: list[int]
    hand: NotRequired[list[str]]
    discard: NotRequired[str]
    played_by_bot: list[int]


class YourHand(TypedDict):
    hand: list[str]


class YourSwap(TypedDict):
    given: list[str]
    taken: list[str]


class YourDiscard(TypedDict):
    card: str


# What a seat sees of its own in an event (``view.view_event``): its dealt hand, its farmer's
# swap, the card it discarded as dealer.
EVENT_EXTRAS: dict[str, type] = {
    "HandStarted": YourHand,
    "FarmersHandSwapped": YourSwap,
    "DealerDiscarded": YourDiscard,
}

VIEW: type = EuchreView
