"""Five-Card Draw's wire shapes, as types: its legal actions (the betting package's
``Legal.as_dicts`` and ``legal.draw_limits``) and the top-level keys of its view (``view.py``).
``games.engine.contract`` makes them schemas. A bet or raise is sent with an ``amount`` between
``min`` and ``max``; a draw with the cards to ``discard`` (and, for the counts its ``show_ace``
names, an ace to ``show``); a top-up with the ``chips`` it buys."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, Required, TypedDict

from games.engine import presence


class Fold(TypedDict):
    type: Literal["fold"]


class Check(TypedDict):
    type: Literal["check"]


class Call(TypedDict):
    type: Literal["call"]
    amount: int


class Bet(TypedDict):
    type: Literal["bet"]
    min: int
    max: int
    amount: NotRequired[int]


class Raise(TypedDict):
    type: Literal["raise"]
    min: int
    max: int
    amount: NotRequired[int]


class AllIn(TypedDict):
    type: Literal["all_in"]
    amount: int


class ShowAce(TypedDict):
    """The ace rule of a draw (FD-7): discarding ``min`` to ``max`` cards needs ``show``, one of
    ``aces`` (the aces in your hand); ``keep`` is true when the ace shown stays in your hand
    (``four_with_ace``), false when it may be discarded too (``five_with_ace``). Fewer discards
    are made without showing."""

    min: int
    max: int
    aces: list[str]
    keep: bool


class Draw(TypedDict):
    """The draw, one action with its range (FD-7, FD-14): send ``discard``, ``min`` to ``max``
    card codes of your hand, and for the counts ``show_ace`` names, ``show``: the ace you show."""

    type: Literal["draw"]
    min: int
    max: int
    show_ace: NotRequired[ShowAce]
    discard: NotRequired[list[str]]
    show: NotRequired[str]


class TopUp(TypedDict):
    """A cash player holding no cards buys more chips (FD-13): send ``chips``, ``min`` to ``max``
    (the stack stays at most ``max_buy_in`` and the wallet pays for them)."""

    type: Literal["top_up"]
    min: int
    max: int
    chips: NotRequired[int]


class EndTable(TypedDict):
    """The owner ends a cash game after this hand (owner only)."""

    type: Literal["end_table"]


ACTIONS: tuple[type, ...] = (Fold, Check, Call, Bet, Raise, AllIn, Draw, TopUp, EndTable, *presence.ACTIONS)


class FiveCardDrawView(TypedDict, total=False):
    status: str
    seat: int | None
    format: str
    variant: Required[str]
    betting: Required[str]
    forced_bets: str
    opening: str
    ace_rule: str
    wild: Any
    shotgun: Any
    high_low: Any
    hand_no: int
    button: int | None
    pot: int
    players: list[dict[str, Any]]
    to_act: list[int]
    played_by_bot: list[int]
    hand: dict[str, Any] | None
    last_hand: dict[str, Any] | None
    end_requested: bool
    cannot_post: bool
    notice: str | None
    winners: list[int]
    end_reason: str | None


VIEW: type = FiveCardDrawView
