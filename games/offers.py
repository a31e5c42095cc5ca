"""What a caller may send to a table now: the one list their table view shows (``selectors``) and
the gate (``games.play.gate``) accepts exactly the types of."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.decider import offered_actions
from games.models import Seat, Table
from games.settlement import wallet_chips


def offered(
    table: Table, seats: Sequence[Seat], decider, state, seat: int | None, *, owner: bool
) -> list[dict[str, Any]]:
    """What the caller at ``seat`` (``owner``: whether they own the table) may send now: the
    engine's ``offered_actions``, with what the seat buys during play (the game's
    ``chip_purchases``) no more than its wallet pays for, the range's ``max`` lowered to it, or the
    purchase left out when it pays for less than ``min``. ``seats`` are the table's seats."""
    listed = offered_actions(decider, state, seat, owner=owner)
    if seat is None or not any(option.get("type") in decider.chip_purchases for option in listed):
        return listed
    chips = wallet_chips(table, seats).get(seat)
    if chips is None:
        return listed
    narrowed = []
    for option in listed:
        if option.get("type") in decider.chip_purchases:
            if chips < option["min"]:
                continue
            option = {**option, "max": min(option["max"], chips)}
        narrowed.append(option)
    return narrowed
