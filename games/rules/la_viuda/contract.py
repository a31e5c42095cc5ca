"""La Viuda's wire shapes, as types: its legal actions (the widow exchange, and the widow's offer)
and the top-level keys of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Literal, Required, TypedDict

from games.engine import presence
from games.rules.widow.contract import EXCHANGE_ACTIONS, WidowView


class BuyWidow(TypedDict):
    type: Literal["buy_widow"]


class DeclineWidow(TypedDict):
    type: Literal["decline_widow"]


ACTIONS: tuple[type, ...] = (*EXCHANGE_ACTIONS, BuyWidow, DeclineWidow, *presence.ACTIONS)


class LaViudaView(WidowView, total=False):
    game: Required[Literal["la-viuda"]]
    winner: int | None
    offer: int | None
    widow_bought_by: int | None
    widow_price: int
    wild_rank: str
    chips_per_player: int


VIEW: type = LaViudaView
