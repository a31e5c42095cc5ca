"""Amounts an operator sets per currency, each in that currency's own units: the two-person limits,
the amount below which payouts are approved by rule, the house compensation budget.

A setting's value is a comma-separated list such as ``"EUR=1000.00,MXN=20000,CLP=1000000,KWD=300.000"``:
each ``CUR=amount`` is parsed exactly as a money amount of that currency (``ledger.units``, so
``CLP=10.5`` is refused, as CLP has no decimals), and ``*=amount``, a whole number, stands for that
many units of any currency the list does not name. A currency neither named nor covered by ``*``
gets 0: the safe side (nothing below a two-person limit of 0 is approved alone, a budget of 0 pays
nothing).

The single integer such settings used to hold (``"100000"``) is still read, as before: minor units
for every currency the list does not name. It is kept only so an old environment means what it
meant; ``docs/operations.md`` says to replace it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ledger.errors import ServiceError
from ledger.units import CURRENCIES, exponent, parse_amount

# The settings read through this module (config/settings.py, docs/operations.md).
SETTINGS = (
    "PAYOUT_TWO_PERSON_LIMIT",
    "PAYOUT_AUTO_APPROVE_BELOW",
    "DEPOSIT_TWO_PERSON_LIMIT",
    "DISPUTE_COMPENSATION_BUDGET",
)
_WHOLE = re.compile(r"[0-9]{1,15}")


@dataclass(frozen=True, slots=True)
class PerCurrency:
    """A parsed setting: minor units per named currency, and what any other currency gets."""

    named: Mapping[str, int]
    units: int | None = None  # ``*=``: whole units of the currency asked for
    minor: int | None = None  # the old single integer: minor units of any currency

    def of(self, currency: str) -> int:
        """The amount for ``currency``, in its minor units."""
        if currency in self.named:
            return self.named[currency]
        if self.units is not None:
            return self.units * int(10 ** exponent(currency))
        return self.minor or 0


def amount(name: str, currency: str) -> int:
    """Setting ``name``'s amount for ``currency``, in its minor units."""
    return setting(name).of(currency)


def setting(name: str) -> PerCurrency:
    """Setting ``name`` parsed; a value that does not parse is the deployment's mistake."""
    value = getattr(settings, name, 0)
    try:
        if isinstance(value, int) and not isinstance(value, bool):
            return _legacy(value)
        return parse(str(value))
    except ValueError as error:
        raise ImproperlyConfigured(f"{name}={value!r}: {error}") from None


def check_all() -> None:
    """Refuse to start with any of ``SETTINGS`` unreadable (``ImproperlyConfigured``)."""
    for name in SETTINGS:
        setting(name)


@functools.lru_cache(maxsize=32)
def parse(text: str) -> PerCurrency:
    """``"EUR=1000.00,CLP=1000000,*=500"`` (or the old ``"100000"``) parsed; ``ValueError`` names
    the entry that is wrong."""
    named: dict[str, int] = {}
    units: int | None = None
    minor: int | None = None
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    if not entries:
        raise ValueError('expected entries such as "EUR=1000.00,MXN=20000.00", got nothing')
    for entry in entries:
        code, equals, given = (part.strip() for part in entry.partition("="))
        if not equals:
            if minor is not None or not _WHOLE.fullmatch(code):
                raise ValueError(f"{entry!r} is not CUR=amount")
            minor = int(code)
        elif code == "*":
            if units is not None or not _WHOLE.fullmatch(given):
                raise ValueError(f"{entry!r}: the default is given once, as a whole number of units")
            units = int(given)
        else:
            if code not in CURRENCIES or code in named:
                raise ValueError(f"{entry!r}: {code!r} is not a known currency, or is named twice")
            named[code] = _money(given, code, entry)
    if units is not None and minor is not None:
        raise ValueError("give the default once: either *=units or the old single number, not both")
    return PerCurrency(named=named, units=units, minor=minor)


def _legacy(minor: int) -> PerCurrency:
    if minor < 0:
        raise ValueError("an amount is never below zero")
    return PerCurrency(named={}, minor=minor)


def _money(given: str, currency: str, entry: str) -> int:
    try:
        minor = parse_amount(given, currency)
    except ServiceError as error:
        raise ValueError(f"{entry!r}: {error.detail}") from None
    if minor < 0:
        raise ValueError(f"{entry!r}: an amount is never below zero")
    return minor
