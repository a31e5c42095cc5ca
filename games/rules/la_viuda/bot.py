"""A La Viuda bot: avoid the worst hand (LV-6), and answer the offer of La Viuda (LV-8) by whether
the chance of winning the prize is worth its price. Sees only its own view."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.la_viuda.cards import PACK, wild_cards
from games.rules.widow.bot import NOT_WORST, choose_exchange, moves_only


def choose(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's action for this view; one of ``legal_actions``."""
    kinds = {action["type"] for action in moves_only(legal_actions)}
    if "buy_widow" in kinds:
        return {"type": "buy_widow"} if worth_buying(view) else {"type": "decline_widow"}
    rank = view.get("wild_rank")
    wild = wild_cards(rank) if rank else frozenset()
    return choose_exchange(view, legal_actions, rng, NOT_WORST, pack=PACK, wild=wild)


def worth_buying(view: Mapping[str, Any]) -> bool:
    """Buy La Viuda when the chance of outlasting everyone on one chip, taken as one chip's share
    of the chips the players still hold, times the prize, beats the price (LV-8, LV-11)."""
    price = view.get("widow_price") or 0
    if price <= 0:
        return True
    me = view["seat"]
    others = sum(chips for seat, chips in enumerate(view["chips"]) if seat != me and not view["out"][seat])
    prize = view["seats"] * view["chips_per_player"] * view["chip_value"] + price
    return bool(prize / (others + 1) > price)
