"""La Viuda's wire shapes, as types: its legal actions (the widow exchange, and the widow's offer)
and the top-level keys of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Literal, TypedDict

from games.engine import presence
from games.rules.la_viuda.events import ShowdownHeld
from games.rules.widow.contract import EVENT_EXTRAS, EXCHANGE_ACTIONS, ShowdownEntry, WidowView


class BuyWidow(TypedDict):
    type: Literal["buy_widow"]


class DeclineWidow(TypedDict):
    type: Literal["decline_widow"]


ACTIONS: tuple[type, ...] = (*EXCHANGE_ACTIONS, BuyWidow, DeclineWidow, *presence.ACTIONS)


class LaViudaView(WidowView):
    game: Literal["la-viuda"]
    winner: int | None
    offer: int | None
    widow_bought_by: int | None
    widow_price: int
    wild_rank: str | None
    chips_per_player: int
    # The last showdown as recorded (its public fields, tagged with ``type``), and its hands in words.
    last_showdown: ShowdownHeld | None
    showdown: list[ShowdownEntry] | None


VIEW: type = LaViudaView
__all__ = ["ACTIONS", "EVENT_EXTRAS", "VIEW"]
