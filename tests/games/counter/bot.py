"""The counter bot: add 1 whenever it may (no randomness needed)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The smallest legal addition, from the bot's own view only."""
    return dict(min(legal, key=lambda action: action["amount"]))
