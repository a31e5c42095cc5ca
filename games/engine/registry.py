"""The games this service plays, by slug. ``games.rules`` registers each game's ``Game`` value once."""

from __future__ import annotations

from games.engine.decider import Decider

_REGISTRY: dict[str, Decider] = {}


def register(decider: Decider) -> Decider:
    """Make a game available by its slug. Registering the same slug again replaces it (tests)."""
    _REGISTRY[decider.slug] = decider
    return decider


def unregister(slug: str) -> None:
    """Remove a game (tests that register a small one clean up after themselves)."""
    _REGISTRY.pop(slug, None)


def get(slug: str) -> Decider:
    """The game with this slug; ``KeyError`` if there is none."""
    return _REGISTRY[slug]


def all_games() -> list[Decider]:
    """Every registered game, by slug."""
    return [_REGISTRY[slug] for slug in sorted(_REGISTRY)]
