"""What a seat may see of a widow table and of its events (WX-1, WP-9): its own cards, the widow
only while face up, the public table with the seats the table's bot plays (CM-20); a seed only
once its hand has ended (CM-10)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.codec import encode_event
from games.rules.widow import exchange
from games.rules.widow.events import HandStarted
from games.rules.widow.state import NOBODY, TableState


def view(state: TableState, seat: int | None, game: str, table: Mapping[str, Any]) -> dict[str, Any]:
    """What ``seat`` may see: the public table both games have, then ``table`` (what the game
    adds), then the exchange as ``seat`` sees it. ``game`` is the game's slug."""
    data: dict[str, Any] = {
        "game": game,
        "seats": state.seats,
        "seat": seat,
        "started": state.started,
        "hand_no": state.hand_no,
        "chips": list(state.chips),
        "pot": state.pot,
        "out": list(state.out),
        "dealer": None if state.dealer == NOBODY else state.dealer,
        "flush_by_suit": state.flush_by_suit,
        "chip_value": state.chip_value,
        "currency": state.currency,
        "finished": state.finished,
        "played_by_bot": sorted(state.presence.away),
        "last_showdown": public_event(state.last_showdown) if state.last_showdown is not None else None,
        **table,
    }
    data.update(exchange.view(state.exchange, seat, state.max_orbits))
    return data


def view_event(event: Any, seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: its public fields, plus its own dealt hand or the cards it
    took unseen (WX-1, WP-9). A seed appears only in ``HandEnded`` (CM-10)."""
    data = public_event(event)
    if type(event) is HandStarted:
        data.update(hand_started_private(event, seat))
    else:
        data.update(exchange.private_fields(event, seat))
    return data


def public_event(event: Any) -> dict[str, Any]:
    """The public part of an event, with its type, as a JSON-able dict."""
    name, public, _secret = encode_event(event)
    return {"type": name, **public}


def hand_started_private(event: HandStarted, seat: int | None) -> dict[str, Any]:
    """A seat sees its own dealt hand and nothing else of the deal (WX-1)."""
    if seat is not None and 0 <= seat < len(event.hands) and event.hands[seat]:
        return {"hand": list(event.hands[seat])}
    return {}
