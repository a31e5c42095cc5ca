"""Whiskey Poker's wire shapes, as types: its legal actions (the widow exchange) and the top-level
keys of its view (``view.py``). ``games.engine.contract`` makes them schemas."""

from __future__ import annotations

from typing import Literal, TypedDict

from games.engine import presence
from games.rules.whiskey_poker.events import ShowdownHeld
from games.rules.widow.contract import EVENT_EXTRAS, EXCHANGE_ACTIONS, ShowdownEntry, WidowView


class EndMatch(TypedDict):
    """The owner ends the match after this hand (owner only)."""

    type: Literal["end_match"]


ACTIONS: tuple[type, ...] = (*EXCHANGE_ACTIONS, EndMatch, *presence.ACTIONS)


class WhiskeyPokerView(WidowView):
    game: Literal["whiskey-poker"]
    points: list[int]
    winners: list[int]
    losers: list[int]
    scoring: str
    target_points: int | None
    end_requested: bool
    # CM-21: the match deals no hand until a person is dealt in again (a ``pot`` match).
    waiting_for_players: bool
    reduced_pack: bool
    pack_lowest_rank: str
    # The last showdown as recorded (its public fields, tagged with ``type``), and its hands in words.
    last_showdown: ShowdownHeld | None
    showdown: list[ShowdownEntry] | None


VIEW: type = WhiskeyPokerView
__all__ = ["ACTIONS", "EVENT_EXTRAS", "VIEW"]
