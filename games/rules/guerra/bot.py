"""The Guerra Chevichona bot: War has no choices, so it throws whenever the round awaits it."""

from __future__ import annotations

import random
from typing import Any

THROW = {"type": "throw"}


def choose(view: dict[str, Any], legal_actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """``throw`` (a bot never leaves); ``ValueError`` when the round does not await this seat."""
    if THROW not in legal_actions:
        raise ValueError("The bot was asked to act but the round does not await its throw.")
    return dict(THROW)
