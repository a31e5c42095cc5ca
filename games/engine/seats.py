"""Seats and direction (CM-4): seats ``0 … n-1`` clockwise; left is ``i+1``, right is ``i-1``."""

from __future__ import annotations

from collections.abc import Collection


def left_of(seat: int, seats: int) -> int:
    """The seat to the left of ``seat``, that is the next one clockwise (CM-4)."""
    return (seat + 1) % seats


def right_of(seat: int, seats: int) -> int:
    """The seat to the right of ``seat``, the next one counterclockwise (CM-4)."""
    return (seat - 1) % seats


def next_seat(seat: int, seats: int, playing: Collection[int], *, clockwise: bool = True) -> int:
    """The next seat after ``seat`` that is in ``playing``, skipping the others (CM-4).

    ``clockwise=False`` moves right, as La Viuda does. ``seat`` itself need not be playing.
    """
    if not playing:
        raise ValueError("no seat is playing")
    step = 1 if clockwise else -1
    for distance in range(1, seats + 1):
        candidate = (seat + step * distance) % seats
        if candidate in playing:
            return candidate
    raise ValueError(f"no playing seat among 0..{seats - 1}")


def turn_order(first: int, seats: int, playing: Collection[int], *, clockwise: bool = True) -> tuple[int, ...]:
    """The playing seats in turn order, starting at ``first`` (or the next playing seat after it)."""
    start = first if first in playing else next_seat(first, seats, playing, clockwise=clockwise)
    order = [start]
    while len(order) < len(set(playing)):
        order.append(next_seat(order[-1], seats, playing, clockwise=clockwise))
    return tuple(order)
