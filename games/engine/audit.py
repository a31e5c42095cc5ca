"""What a game adds for hand audits (``games.audit``): the deck a hand shuffled, its deal and
outcome re-checked, the showdown as the audit lists it, and the hand in words.

A game that has them sets ``audit`` on its ``Game`` to an :class:`AuditHooks` object; a game
without (``audit=None``, the default) is still audited: the deck comes from a ``deck`` secret field if an
event records one, the deal and outcome checks are skipped, and the history uses generic lines.

``hand`` is always the decoded events of one hand (the game's own event objects, secret fields
included), in order; ``config`` the table's config (options plus ``seats`` and money terms).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from games.engine.fairness import Stream

Streams = Callable[[str], Stream]

PLAYER_NAMES = "player_names"
"""The key under which the audit passes, in ``config``, each seat's player's name (by seat number)
to ``showdown``, so that its sentences name the players; absent, a game names seats by number."""


class AuditHooks(Protocol):
    """The audit hooks of one game."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The name in ``games.engine.cards.DECKS`` of the canonical deck this hand shuffled with
        purpose ``deck`` (CM-3, CM-9), e.g. ``"english_54"``; ``None`` when the hand dealt no deck.
        ``docs/verify_hand.py`` knows the same names."""
        ...

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """Every way the cards that the hand's events record as dealt differ from dealing ``deck``
        (the shuffle recomputed from the revealed seed, top card first) in the game's deal order.
        Empty when they agree. Each entry is a sentence naming the event and the place, e.g.
        ``"HandStarted: seat 2 holds Kd, the deck deals 7c (deck position 5)"``."""
        ...

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """Re-decide what the hand's recorded outcome rests on, from its events alone: every random
        choice besides the deck recomputed with ``streams`` (``streams(purpose)`` is the hand's
        :class:`games.engine.fairness.Stream` for that purpose, CM-7, CM-18), and whatever the game
        can re-evaluate (hand values, tie-breaks, who took the pot). Differences as sentences naming
        the event; empty when everything agrees."""
        ...

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """One dict per seat shown at the end of the hand: ``seat`` (int), ``cards`` (codes),
        ``category`` (a code, e.g. ``"full_house"``, or ``None``), ``category_name`` and
        ``description`` (words, where the game has them),
        ``outcome`` (``"wins"``, ``"splits"``, ``"returned"``, ``"pays"``, ``"safe"``, ``"loses"``, ``"out"``) and
        ``tie_break`` (a list of steps, each a dict with at least ``rule`` and ``sentence``; empty
        when no tie had to be broken). Empty list when nothing is shown."""
        ...

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """One line of the plain-text hand history for ``event`` (``actor`` is the name of who
        caused it: a username, ``"bot (seat 2)"`` or ``"dealer"``; ``names[seat]`` is the name of
        each seat's player, so a line names players rather than seat numbers; ``config`` the table's,
        for a game whose cards read differently by its options, Guerra's Spanish deck), or ``None``
        for the generic line. The hand is over, so the line may show what was secret during it."""
        ...

    def phh(self, config: Mapping[str, Any], hand: Sequence[Any], players: Sequence[str]) -> str | None:
        """The hand in the Poker Hand History format (PHH, TOML text) for poker games where it fits,
        or ``None``; ``players`` are the seats' names in seat order."""
        ...


class NoExports:
    """The two hooks most games leave to the audit: generic history lines and no PHH export."""

    def history_line(
        self, event: Any, actor: str, names: Sequence[str], config: Mapping[str, Any] | None = None
    ) -> str | None:
        """The generic line."""
        return None

    def phh(self, config: Mapping[str, Any], hand: Sequence[Any], players: Sequence[str]) -> str | None:
        """No PHH export: the game is not one the format names."""
        return None
