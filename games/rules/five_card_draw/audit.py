"""Five-Card Draw's hand audit hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.audit import NoExports, Streams
from games.rules.five_card_draw import cards


class FiveCardDrawAudit(NoExports):
    """The hand audit's hooks for Five-Card Draw."""

    def audit_deck(self, config: Mapping[str, Any], hand: Sequence[Any]) -> str | None:
        """The deck the table's ``wild`` option gives (FD-1, FD-15)."""
        return cards.deck_name(config.get("wild", "none"))

    def audit_deal(self, config: Mapping[str, Any], deck: Sequence[str], hand: Sequence[Any]) -> list[str]:
        """Not yet checked."""
        return []

    def audit_outcome(self, config: Mapping[str, Any], hand: Sequence[Any], streams: Streams) -> list[str]:
        """Not yet checked."""
        return []

    def showdown(self, config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
        """Nothing yet."""
        return []
