"""A Whiskey Poker bot: aim for the best hand (pot and points scoring) or away from the worst
(loser_pays), knocking when the hand is likely good enough. Sees only its own view."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import RANKS, deck, reduced_pack
from games.rules.widow.bot import BEST, NOT_WORST, choose_exchange


def choose(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's action for this view; one of ``legal_actions``."""
    aim = NOT_WORST if view.get("scoring") == "loser_pays" else BEST
    return choose_exchange(view, legal_actions, rng, aim, pack=pack_in_view(view))


def pack_in_view(view: Mapping[str, Any]) -> tuple[str, ...]:
    """The table's pack as the view describes it (public facts only): 52 cards, or the reduced
    pack down to ``pack_lowest_rank`` (WP-8)."""
    if view.get("reduced_pack"):
        lowest = view.get("pack_lowest_rank") or "2"
        return reduced_pack(len(RANKS[RANKS.index(lowest) :]) - 3)
    return deck()
