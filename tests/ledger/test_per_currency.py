"""Limits and budgets set per currency, in each currency's own units (``ledger.per_currency``): the
setting's grammar, the old single number of minor units still read as before, refusals that name
the entry at fault; and the payouts and deposits that read the same per-currency two-person limit."""

from __future__ import annotations

import uuid

import pytest
from django.core.exceptions import ImproperlyConfigured

from ledger import keys, per_currency
from ledger import payouts as ledger_payouts
from ledger import services as ledger
from ledger.models import Payout
from ledger.selectors import balance_of

EXAMPLE = "EUR=1000.00,MXN=20000,CLP=1000000,KWD=300.000"


def test_each_currency_is_read_in_its_own_units():
    parsed = per_currency.parse(EXAMPLE)
    assert parsed.of("EUR") == 100_000  # 1000.00 EUR in cents
    assert parsed.of("MXN") == 2_000_000
    assert parsed.of("CLP") == 1_000_000  # no decimals
    assert parsed.of("KWD") == 300_000  # three decimals
    assert parsed.of("USD") == 0  # not named, no default: the safe side


def test_the_default_is_whole_units_of_the_currency_asked_for():
    parsed = per_currency.parse(f"{EXAMPLE},*=500")
    assert (parsed.of("USD"), parsed.of("JPY"), parsed.of("BHD")) == (50_000, 500, 500_000)
    assert parsed.of("EUR") == 100_000  # a named currency keeps its own amount


def test_the_old_single_number_is_minor_units_of_every_currency_not_named():
    assert per_currency.parse("100000").of("EUR") == 100_000
    assert per_currency.parse("100000").of("CLP") == 100_000
    assert per_currency.parse("EUR=5.00, 700").of("KWD") == 700
    assert per_currency.parse("EUR=5.00, 700").of("EUR") == 500


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "got nothing"),
        ("CLP=10.5", "'CLP=10.5'"),  # CLP has no decimals
        ("EUR=1.001", "'EUR=1.001'"),
        ("XXX=10", "'XXX=10'"),
        ("CHIP=10", "'CHIP=10'"),  # chips are no currency
        ("EUR=1,EUR=2", "'EUR=2'"),
        ("EUR=-1.00", "'EUR=-1.00'"),
        ("EUR=1e3", "'EUR=1e3'"),
        ("*=10.5", "'*=10.5'"),
        ("*=1,*=2", "'*=2'"),
        ("1000,*=5", "not both"),
        ("ten", "'ten'"),
    ],
)
def test_a_value_that_does_not_parse_is_refused_naming_the_entry(text, named):
    with pytest.raises(ValueError) as refused:
        per_currency.parse(text)
    assert named in str(refused.value)


def test_a_bad_setting_is_a_configuration_error_naming_the_setting(settings):
    settings.PAYOUT_TWO_PERSON_LIMIT = "EUR=10.001"
    with pytest.raises(ImproperlyConfigured) as refused:
        per_currency.check_all()
    assert "PAYOUT_TWO_PERSON_LIMIT" in str(refused.value)
    settings.PAYOUT_TWO_PERSON_LIMIT = 1000  # an integer from code: minor units, as before
    per_currency.check_all()
    assert ledger_payouts.two_person_limit("KWD") == 1000


def test_the_shipped_defaults_parse_and_are_worth_about_the_same_in_every_currency():
    per_currency.check_all()
    assert ledger_payouts.two_person_limit("EUR") == 1000_00
    assert ledger_payouts.two_person_limit("CLP") == 1_000_000
    assert ledger_payouts.two_person_limit("KWD") == 300_000
    assert ledger_payouts.auto_approve_below("EUR") == 0


def _pending(amount: int, currency: str) -> str:
    """A pending payout account holding ``amount`` (from the house's cash, as a table's escrow would)."""
    key = keys.payout_key(f"{uuid.uuid4()}.0", currency)
    ledger.post(
        key=f"fill:{key}",
        postings=[(keys.house_cash_key(currency), currency, -amount), (key, currency, amount)],
        kind="GameEnded",
    )
    return key


@pytest.mark.parametrize(
    ("amount", "currency", "approvals"),
    [
        (500_000, "CLP", 1),  # 500,000 CLP: within CLP=1000000
        (1_000_001, "CLP", 2),
        (100_000, "EUR", 1),  # 1000.00 EUR exactly
        (100_001, "EUR", 2),
        (300_001, "KWD", 2),  # 300.001 KWD, where the old single number let 100.000 KWD through alone
        (200_000, "KWD", 1),
    ],
)
def test_a_payout_needs_two_approvers_above_its_currencys_limit(alice, settings, amount, currency, approvals):
    settings.PAYOUT_TWO_PERSON_LIMIT = EXAMPLE
    payout = ledger_payouts.open_payout(
        table_id=uuid.uuid4(), seat=0, user=alice, currency=currency, pending_key=_pending(amount, currency)
    )
    assert payout is not None and payout.approvals_needed == approvals


def test_payouts_below_their_currencys_auto_approval_are_paid_by_rule(alice, settings):
    settings.PAYOUT_AUTO_APPROVE_BELOW = "EUR=10.00,CLP=5000"
    small = ledger_payouts.open_payout(
        table_id=uuid.uuid4(), seat=0, user=alice, currency="CLP", pending_key=_pending(4_999, "CLP")
    )
    large = ledger_payouts.open_payout(
        table_id=uuid.uuid4(), seat=0, user=alice, currency="EUR", pending_key=_pending(4_999, "EUR")
    )
    assert small is not None and small.status == Payout.Status.APPROVED and small.automatic
    assert large is not None and large.status == Payout.Status.PENDING  # 49.99 EUR is not below 10.00


def test_a_deposit_waits_for_a_second_member_of_staff_above_its_currencys_limit(alice, carol, settings):
    settings.DEPOSIT_TWO_PERSON_LIMIT = EXAMPLE
    alone = ledger.deposit(user=alice, currency="CLP", amount_minor=900_000, by=carol)
    waits = ledger.deposit(user=alice, currency="KWD", amount_minor=300_001, by=carol)
    assert alone.kind == "deposit"
    assert waits.kind == ledger.PENDING_DEPOSIT  # not in the wallet yet
    assert balance_of(key=keys.wallet_key(alice.pk, "KWD")) == 0
