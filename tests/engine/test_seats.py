"""Seats and direction (CM-4)."""

from __future__ import annotations

import pytest

from games.engine.seats import left_of, next_seat, right_of, turn_order


def test_cm_4_left_is_clockwise_and_right_counterclockwise():
    assert left_of(3, 4) == 0 and left_of(0, 4) == 1
    assert right_of(0, 4) == 3 and right_of(2, 4) == 1


def test_cm_4_moving_skips_seats_that_are_out():
    playing = {0, 2, 3}
    assert next_seat(0, 5, playing) == 2
    assert next_seat(3, 5, playing) == 0
    assert next_seat(0, 5, playing, clockwise=False) == 3  # La Viuda moves right
    assert next_seat(1, 5, playing) == 2  # from a seat that is out
    with pytest.raises(ValueError):
        next_seat(0, 5, set())


def test_cm_4_turn_order_both_ways():
    assert turn_order(2, 5, {0, 1, 2, 4}) == (2, 4, 0, 1)
    assert turn_order(2, 5, {0, 1, 2, 4}, clockwise=False) == (2, 1, 0, 4)
    assert turn_order(3, 5, {0, 1, 2, 4}) == (4, 0, 1, 2)
