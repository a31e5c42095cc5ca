"""What a seat may see: its own card while the hand is on, never another's; everything once the
hand ends (CM-10)."""

from __future__ import annotations

from typing import Any

from games.engine.codec import encode_event
from tests.games.counter.events import HandStarted
from tests.games.counter.state import CounterState


def view(state: CounterState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (or a spectator, ``None``) sees it."""
    in_hand = state.turn is not None
    return {
        "hand_no": state.hand_no,
        "target": state.target,
        "total": state.total,
        "pot": state.pot,
        "chips": list(state.chips),
        "turn": state.turn,
        "your_card": state.cards[seat] if in_hand and seat is not None and seat < len(state.cards) else None,
        "revealed": list(state.revealed),
        "finished": state.finished,
        "winners": list(state.winners),
    }


def view_event(event: Any, seat: int | None) -> dict[str, Any]:
    """The event's public fields, plus the seat's own card when a hand is dealt."""
    type_name, data, _ = encode_event(event)
    shown = {"type": type_name, **data}
    if isinstance(event, HandStarted) and seat is not None and seat < len(event.cards):
        shown["your_card"] = event.cards[seat]
    return shown
