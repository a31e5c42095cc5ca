"""Five-Card Draw's wire shapes, as types: its legal actions (the betting package's
``Legal.as_dicts`` and ``legal.draw_limits``) and the top-level keys of its view (``view.py``).
``games.engine.contract`` makes them schemas. A bet or raise is sent with an ``amount`` between
``min`` and ``max``; a draw with the cards to ``discard`` (and, for the counts its ``show_ace``
names, an ace to ``show``); a top-up with the ``chips`` it buys."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from games.engine import presence
from games.rules.five_card_draw.events import PotShare


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


class Pot(TypedDict):
    """A pot and the seats that may win it (FD-11)."""

    amount: int
    eligible: list[int]


class Shown(TypedDict):
    """A hand shown at the showdown (``view._shown``): the category codes for a program, their
    names and the hand's description in the reader's words (CM-11..CM-17, FD-15)."""

    seat: int
    cards: list[str]
    category: str
    category_name: str
    description: str
    low_category: str | None
    low_category_name: str | None
    low_description: str | None


class Player(TypedDict):
    """A seat as everyone sees it; the keys after ``cannot_post`` only while it is dealt in."""

    seat: int
    stack: int
    present: bool
    leaving: bool
    eliminated: bool
    in_hand: bool
    cannot_post: bool
    folded: NotRequired[bool]
    all_in: NotRequired[bool]
    bet: NotRequired[int]
    contributed: NotRequired[int]
    cards_held: NotRequired[int]
    face_up: NotRequired[list[str]]
    drew: NotRequired[list[int]]


class HandInPlay(TypedDict):
    """The hand under way: its phase, bets and pots, and ``your_cards`` (empty unless you hold them)."""

    hand_no: int
    button: int
    players: list[int]
    phase: str
    street: int
    draw: int
    stock: int
    current_bet: int
    opener: int | None
    carried: int
    pots: list[Pot]
    your_cards: list[str]
    showdown: list[Shown]


class LastHand(TypedDict):
    """The hand just over: the hands shown and who won what (``passed``: nobody opened)."""

    hand_no: int
    showdown: list[Shown]
    pots: list[Pot]
    shares: list[PotShare]
    passed: bool


class FiveCardDrawView(TypedDict):
    """Every key is always there (``view.view``)."""

    game: Literal["five-card-draw"]
    status: str
    seat: int | None
    format: str
    variant: str
    betting: str
    forced_bets: str
    opening: str
    ace_rule: str
    wild: str
    shotgun: bool
    high_low: bool
    hand_no: int
    button: int | None
    pot: int
    players: list[Player]
    to_act: list[int]
    played_by_bot: list[int]
    hand: HandInPlay | None
    last_hand: LastHand | None
    end_requested: bool
    # CM-21: the cash table deals no hand until a person is dealt in again.
    waiting_for_players: bool
    cannot_post: bool
    notice: str | None
    winners: list[int]
    end_reason: str | None


class ShownWithValues(Shown):
    """A shown hand in a ``ShowdownHeld`` event: as the view shows it, with the recorded values."""

    high: int | None
    low: int | None


class YourCards(TypedDict):
    your_cards: list[str]


class YourDraw(TypedDict):
    discarded: list[str]
    received: list[str]


class ShowdownInWords(TypedDict):
    hands: list[ShownWithValues]


# What ``view.view_event`` adds to an event: a seat's own dealt cards and draw, the showdown's
# hands in words.
EVENT_EXTRAS: dict[str, type] = {"CardsDealt": YourCards, "CardsDrawn": YourDraw, "ShowdownHeld": ShowdownInWords}

VIEW: type = FiveCardDrawView
