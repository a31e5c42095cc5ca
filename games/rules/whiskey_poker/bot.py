"""A Whiskey Poker bot: aim for the best hand (pot and points scoring) or away from the worst
(loser_pays), knocking when the hand is likely good enough. Sees only its own view."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.widow.bot import BEST, NOT_WORST, choose_exchange


def choose(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's action for this view; one of ``legal_actions``."""
    aim = NOT_WORST if view.get("scoring") == "loser_pays" else BEST
    return choose_exchange(view, legal_actions, rng, aim)
