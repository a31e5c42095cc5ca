"""Counter: the small game the store, service, API and task tests play, and the worked example of
adding a game: one package in the common shape, its ``game`` module building the game once as a
``games.engine.decider.Game`` from the functions of the modules beside it, registered with one
call, ``registry.register(counter.DECIDER)``.

Seats take turns adding 1 to 5 chips to the pot (never past the target); the seat whose chips bring
the hand's total to the target wins the pot. Each hand deals every seat one secret card from the
hand's fair stream (CM-5..CM-9, so there is hidden information to keep out of views) and reveals
the server seed and the cards when it ends (CM-10). After ``hands`` hands the game ends: chips go
back to the bank, each seat is paid its chips' worth (``chip_value``) and the seats with most chips
share the stakes.

Commands: ``{"type": "start"}`` (system, deals hand 1), ``{"type": "add", "seat": n, "amount": k}``,
``{"type": "timeout", "seat": n}`` (system: the absent seat adds 1).
Events: ``GameStarted``, ``HandStarted``, ``Added``, ``HandEnded``, ``GameEnded``.

Readings left open: the first seat of hand ``k`` is seat ``(k - 1) mod seats``; a tie for most chips
shares the stakes, the remainder to the lowest winning seat.
Pure: no Django, no clock, no randomness of its own.
"""

from __future__ import annotations

from tests.games.counter.game import DECIDER

__all__ = ["DECIDER"]
