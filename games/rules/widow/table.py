"""What both widow games' Deciders answer the same way, whatever their own rules."""

from __future__ import annotations

from typing import Any

from games.engine import decider
from games.rules.widow import state as shared


class WidowTable(decider.Rules):
    """A widow game's Decider base: no system commands of its own, finished by its state, and the
    chips each seat and the pot hold."""

    def pending_system(self, state: Any) -> dict[str, Any] | None:
        """Nothing: ``decide`` chains every automatic consequence."""
        return None

    def is_finished(self, state: Any) -> bool:
        """True once the game has ended."""
        return bool(state.finished)

    def chip_counts(self, state: Any) -> dict[tuple[Any, ...], int]:
        """The chips each seat and the pot hold (``manage.py reconcile``)."""
        return shared.chip_counts(state)
