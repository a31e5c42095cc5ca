"""Random legal clients for Five-Card Draw, shared by its HTTP tests: they choose from the
``legal_actions`` a seat's view lists, with an amount for a bet and the cards for a draw."""

from __future__ import annotations

import hashlib
import itertools
import random
import secrets
import uuid
from typing import Any

from api import limits
from games.engine.presence import is_presence_action
from games.models import Table

# Weighted so that hands last and often reach a showdown, with some folds, raises and all-ins.
WEIGHTS = {"fold": 1, "check": 4, "call": 4, "bet": 2, "raise": 1, "all_in": 0.3, "draw": 1}


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action of the caller's seat: bets mostly small, a random discard, with a shown ace
    when the option asks for one (FD-4, FD-7); never sitting out, in or leaving (CM-20), nor the
    owner's ``end_table``."""
    legal = [option for option in view["legal_actions"] if not is_presence_action(option) and option["type"] in WEIGHTS]
    weights = dict(WEIGHTS)
    if view["state"]["hand"]["street"] == 0:
        weights["bet"] = 20  # a seat that may open does, mostly: fewer hands nobody opens (FD-6)
    option = rng.choices(legal, weights=[weights[o["type"]] for o in legal])[0]
    kind = option["type"]
    if kind in ("bet", "raise"):
        return {"type": kind, "amount": option["min"] + int((option["max"] - option["min"]) * rng.random() ** 4)}
    if kind == "draw":
        held = list(view["state"]["hand"]["your_cards"])
        count = rng.randint(option["min"], option["max"])
        rule = option.get("show_ace")
        if rule is None or count < rule["min"]:
            return {"type": "draw", "discard": rng.sample(held, count)}
        ace = rng.choice(rule["aces"])
        pool = [card for card in held if card != ace] if rule["keep"] else held
        return {"type": "draw", "discard": rng.sample(pool, count), "show": ace}
    return {"type": kind}


def passive(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Check when possible, else fold; stand pat in the draw: never puts a chip in."""
    kinds = {option["type"] for option in view["legal_actions"]}
    if "draw" in kinds:
        return {"type": "draw", "discard": []}
    return {"type": "check" if "check" in kinds else "fold"}


def repeat_deals(monkeypatch, tag: str) -> None:
    """The same deals every run: server seeds and table ids (both go into the shuffle, CM-7, and a
    bot chooses from the table id and version) counted from ``tag``; no request throttling (these
    tests send thousands of requests a minute)."""
    seeds, tables = itertools.count(1), itertools.count(1)
    base = int.from_bytes(hashlib.sha256(tag.encode()).digest()[:4]) << 96

    def token_bytes(n: int | None = None) -> bytes:
        return hashlib.sha256(f"{tag} seed {next(seeds)}".encode()).digest()[: n or 32]

    # Patched in ``secrets`` itself, as tests/api/test_answers_unchanged.py does.
    monkeypatch.setattr(secrets, "token_bytes", token_bytes)
    monkeypatch.setattr(
        Table._meta.pk, "_get_default", lambda: uuid.UUID(int=base | 0x4000_8000_0000_0000_0000 + next(tables))
    )
    monkeypatch.setattr(limits.CountingThrottle, "allow_request", lambda self, request, view: True)
