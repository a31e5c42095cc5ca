"""The Guerra Chevichona bot: War has no choices, so it throws whenever the round awaits it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

THROW = {"type": "throw"}


def choose(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """``throw`` (a bot never leaves); ``ValueError`` when the round does not await this seat."""
    if THROW not in legal_actions:
        raise ValueError("The bot was asked to act but the round does not await its throw.")
    return dict(THROW)
