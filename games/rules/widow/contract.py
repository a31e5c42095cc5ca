"""The wire shapes of the widow games' turns (La Viuda, Whiskey Poker), as types: what
``legal.legal_moves`` offers. ``games.engine.contract`` turns these into the API document's
schemas, and tests/api/test_contract.py checks real legal actions against them; and the view keys
both games' views share (``widow.view``), which each game's own view type extends."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class Pass(TypedDict):
    type: Literal["pass"]


class ExchangeAll(TypedDict):
    type: Literal["exchange_all"]


class ExchangeOne(TypedDict):
    """Give ``give`` from the hand for ``take`` from the widow (cards as ``"AS"``, ``"TD"``)."""

    type: Literal["exchange_one"]
    give: str
    take: str


class Knock(TypedDict):
    type: Literal["knock"]


EXCHANGE_ACTIONS: tuple[type, ...] = (Pass, ExchangeAll, ExchangeOne, Knock)


class TieBreak(TypedDict):
    """A tie at the showdown settled by a rule (``rule``, said in ``sentence``); La Viuda's LV-7
    steps also say which ``step`` and who is ``still_tied``."""

    rule: str
    sentence: str
    step: NotRequired[int]
    still_tied: NotRequired[list[int]]


class ShowdownEntry(TypedDict):
    """A shown hand as the view and the audit list it (``widow.audit.shown_entry``): ``category``
    the code, ``category_name`` and ``description`` the words; ``outcome`` ``wins``, ``splits``,
    ``loses``, ``pays`` or ``safe``."""

    seat: int
    cards: list[str]
    category: str
    category_name: str
    description: str
    value: int
    wild_count: int
    outcome: str
    tie_break: list[TieBreak]


class YourHand(TypedDict):
    hand: list[str]


class YourTake(TypedDict):
    took: list[str]


# What a seat sees of its own in an event (``widow.view.view_event``): its dealt hand, the cards
# it took unseen from the widow.
EVENT_EXTRAS: dict[str, type] = {"HandStarted": YourHand, "WidowTaken": YourTake}


class WidowView(TypedDict):
    """The keys of the view both widow games build with ``games.rules.widow.view``: all always
    there but the exchange's own, which come once a hand is dealt."""

    seat: int | None
    hand_no: int
    started: bool
    finished: bool
    seats: int
    dealer: int | None
    turn: int | None
    phase: int | None
    hand: list[str] | None
    widow: list[str] | None
    widow_face_up: bool
    chips: list[int]
    pot: int
    order: NotRequired[list[int]]
    out: list[bool]
    knocks: NotRequired[list[int]]
    first_knocker: NotRequired[int | None]
    chip_value: int
    currency: str | None
    flush_by_suit: bool
    phase2_turns: NotRequired[int]
    turns_before_forced_knock: NotRequired[int | None]
    played_by_bot: list[int]
