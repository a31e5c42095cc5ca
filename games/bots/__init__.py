"""Bot policies by game slug. A policy is pure: ``choose(view, legal_actions, rng) -> action``.

It sees only the view its seat is served, so a bot cannot cheat; ``rng`` is a ``random.Random``
seeded by the caller.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Policy = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], random.Random], dict[str, Any]]

_POLICIES: dict[str, Policy] = {}


def register_policy(slug: str, policy: Policy) -> Policy:
    """Make ``policy`` the bot of game ``slug``."""
    _POLICIES[slug] = policy
    return policy


def unregister_policy(slug: str) -> None:
    _POLICIES.pop(slug, None)


def random_legal(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Any legal action, uniformly: the fallback for a game without a bot of its own."""
    return dict(rng.choice(list(legal)))


def policy_for(slug: str) -> Policy:
    """The bot of a game, or the random legal player when the game has none."""
    return _POLICIES.get(slug, random_legal)


def install() -> None:
    """Register the bot of every game that has one of its own."""
    from games.bots import euchre, guerra, la_viuda, whiskey_poker

    for slug, module in (
        ("euchre", euchre),
        ("guerra", guerra),
        ("la-viuda", la_viuda),
        ("whiskey-poker", whiskey_poker),
    ):
        register_policy(slug, module.choose)
