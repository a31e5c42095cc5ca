"""The edge helpers every answer uses: money as decimal strings beside minor units, times in
RFC 3339 UTC with ``Z``."""

from __future__ import annotations

import datetime as dt

from ledger.times import rfc3339
from ledger.units import money_shown


def test_money_keys_become_decimal_strings_with_minor_units_beside_them_at_any_depth():
    data = {
        "type": "TableEnded",
        "chip_value": 50,
        "prize": 8500,
        "stacks": [20, 20],
        "chips": 3,
        "amount": 12,  # chips in a bet, not money
        "last": {"stake": 1000, "finished": True},
        "events": [{"price": 1000}],
    }
    assert money_shown(data, "MXN") == {
        "type": "TableEnded",
        "chip_value": "0.50",
        "chip_value_minor": 50,
        "prize": "85.00",
        "prize_minor": 8500,
        "stacks": [20, 20],
        "chips": 3,
        "amount": 12,
        "last": {"stake": "10.00", "stake_minor": 1000, "finished": True},
        "events": [{"price": "10.00", "price_minor": 1000}],
    }
    assert money_shown({"chip_value": 500}, "JPY") == {"chip_value": "500", "chip_value_minor": 500}
    assert money_shown({"chip_value": 0, "stake": True}, None) == {
        "chip_value": None,
        "chip_value_minor": 0,
        "stake": True,
    }


def test_times_are_utc_with_z_and_always_six_decimals():
    utc = dt.datetime(2025, 1, 31, 12, 0, tzinfo=dt.UTC)
    assert rfc3339(utc) == "2025-01-31T12:00:00.000000Z"
    mexico = dt.datetime(2025, 1, 31, 6, 0, 0, 123456, tzinfo=dt.timezone(dt.timedelta(hours=-6)))
    assert rfc3339(mexico) == "2025-01-31T12:00:00.123456Z"
    assert rfc3339(dt.datetime(2025, 1, 31, 12, 0)) == "2025-01-31T12:00:00.000000Z"
    assert rfc3339(None) is None
