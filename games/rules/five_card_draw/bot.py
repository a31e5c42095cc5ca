"""The Five-Card Draw bot: plays from its own seat's view only."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


def choose(view: Mapping[str, Any], legal_actions: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Check when it can, else call; in the draw, keep pairs and better."""
    kinds = {option["type"]: option for option in legal_actions}
    if "draw" in kinds:
        held = view["hand"]["your_cards"]
        ranks = [card[0] for card in held]
        keep = [card for card in held if ranks.count(card[0]) > 1]
        most = kinds["draw"]["max"]
        return {"type": "draw", "discard": [card for card in held if card not in keep][:most]}
    for kind in ("check", "call"):
        if kind in kinds:
            return {"type": kind}
    return {"type": "fold"}
