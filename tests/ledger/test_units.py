"""Money as exact integers of minor units, and the account-key grammar. No database."""

from __future__ import annotations

import uuid

import pytest

from ledger import keys
from ledger.errors import BadAmount, UnknownAccount, UnknownUnit
from ledger.units import format_amount, parse_amount


@pytest.mark.parametrize(
    ("text", "unit", "minor"),
    [
        ("100.00", "MXN", 10000),
        ("100", "MXN", 10000),
        ("0.1", "MXN", 10),
        ("0.07", "USD", 7),
        ("-2.50", "EUR", -250),
        ("1500", "JPY", 1500),
        ("1.234", "KWD", 1234),
        ("25", "CHIP", 25),
    ],
)
def test_parse_amount_is_exact(text, unit, minor):
    assert parse_amount(text, unit) == minor


@pytest.mark.parametrize(
    ("minor", "unit", "text"),
    [(10000, "MXN", "100.00"), (7, "USD", "0.07"), (-250, "EUR", "-2.50"), (1500, "JPY", "1500"), (0, "MXN", "0.00")],
)
def test_format_amount_has_the_units_places(minor, unit, text):
    assert format_amount(minor, unit) == text
    assert parse_amount(text, unit) == minor


def test_too_many_decimals_are_refused_with_the_count():
    with pytest.raises(BadAmount, match=r"3 decimal places; MXN allows 2"):
        parse_amount("100.001", "MXN")
    with pytest.raises(BadAmount, match="JPY allows no decimal places"):
        parse_amount("10.5", "JPY")


@pytest.mark.parametrize("text", ["1e3", " 1.00", "1.", ".5", "1,00", "", "NaN", "+1"])
def test_malformed_amounts_are_refused(text):
    with pytest.raises(BadAmount):
        parse_amount(text, "MXN")


def test_a_float_is_refused_so_no_rounding_can_creep_in():
    with pytest.raises(BadAmount, match="decimal string"):
        parse_amount(0.1, "MXN")  # type: ignore[arg-type]


def test_unknown_unit_is_refused():
    with pytest.raises(UnknownUnit, match="XYZ"):
        parse_amount("1.00", "XYZ")


def test_keys_say_what_their_accounts_are():
    table = uuid.uuid4()
    assert keys.parse_key(keys.wallet_key(7, "MXN")) == keys.AccountSpec("wallet:7:MXN", "wallet", "MXN", user_id=7)
    seat = keys.parse_key(keys.seat_key(table, 2))
    assert (seat.kind, seat.unit, seat.table_id, seat.seat, seat.allow_negative) == ("seat", "CHIP", table, 2, False)
    assert keys.parse_key(keys.bank_key(table)).allow_negative
    assert keys.parse_key(keys.house_cash_key("MXN")).allow_negative
    assert not keys.parse_key(keys.escrow_key(table, "MXN")).allow_negative
    assert not keys.parse_key(keys.payout_key(5, "MXN")).allow_negative


@pytest.mark.parametrize(
    "key",
    ["wallet:x:MXN", "wallet:1:XYZ", "wallet:1:CHIP", "table:not-a-uuid:pot:CHIP", "house:cash", "bank:1", ""],
)
def test_keys_outside_the_grammar_are_refused(key):
    with pytest.raises(UnknownAccount):
        keys.parse_key(key)


def test_a_table_uuid_has_one_spelling():
    table = uuid.uuid4()
    with pytest.raises(UnknownAccount):
        keys.parse_key(f"table:{str(table).upper()}:pot:CHIP")
