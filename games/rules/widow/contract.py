"""The wire shapes of the widow games' turns (La Viuda, Whiskey Poker), as types: what
``exchange.legal_moves`` offers. ``games.engine.contract`` turns these into the API document's
schemas, and tests/api/test_contract.py checks real legal actions against them."""

from __future__ import annotations

from typing import Literal, TypedDict


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
