"""Euchre (EU-1..EU-22): partnerships or cutthroat, bowers, going alone and the house rules.

``cards`` holds the card order and the deal, ``events`` the events and state, ``fold`` the
``evolve`` functions, ``play`` the legality checks shared by ``decide`` and ``legal_actions``, and
``game`` the Decider itself.
"""

from __future__ import annotations

from games.rules.euchre.game import DECIDER, Euchre

__all__ = ["DECIDER", "Euchre"]
