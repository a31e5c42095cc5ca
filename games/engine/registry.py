"""The games this service plays, by slug. ``games.rules`` registers each game's ``Game`` value once.
A game's former slugs (``Game.former_slugs``) still find it: a stored table or a request may carry
one, and every answer names the game by its slug."""

from __future__ import annotations

from games.engine.decider import Decider

_REGISTRY: dict[str, Decider] = {}
_FORMER: dict[str, str] = {}


def register(decider: Decider) -> Decider:
    """Make a game available by its slug. Registering the same slug again replaces it (tests)."""
    _REGISTRY[decider.slug] = decider
    for former in decider.former_slugs:
        _FORMER[former] = decider.slug
    return decider


def unregister(slug: str) -> None:
    """Remove a game (tests that register a small one clean up after themselves)."""
    decider = _REGISTRY.pop(slug, None)
    for former in decider.former_slugs if decider else ():
        _FORMER.pop(former, None)


def slug_of(slug: str) -> str:
    """The game's slug for ``slug``, which may be a former one; an unknown slug as it is."""
    return _FORMER.get(slug, slug)


def get(slug: str) -> Decider:
    """The game with this slug, or a former one; ``KeyError`` if there is none."""
    return _REGISTRY[slug_of(slug)]


def all_games() -> list[Decider]:
    """Every registered game, by slug."""
    return [_REGISTRY[slug] for slug in sorted(_REGISTRY)]
