"""Units of account: ISO 4217 currencies with their minor-unit exponent, and ``CHIP``.

Money is an integer count of minor units (centavos for MXN); it travels as a decimal string
("100.00") and is parsed exactly, never through a float.
"""

from __future__ import annotations

import re
from typing import Any

from games.engine.words import N, T
from ledger.errors import BadAmount, UnknownUnit

CHIP = "CHIP"

# Exponent of the minor unit: 100.00 MXN is 10000 minor units; JPY has none.
UNITS: dict[str, int] = {
    "MXN": 2,
    "USD": 2,
    "EUR": 2,
    "GBP": 2,
    "CAD": 2,
    "ARS": 2,
    "BRL": 2,
    "CLP": 0,
    "COP": 2,
    "PEN": 2,
    "JPY": 0,
    "KRW": 0,
    "CHF": 2,
    "KWD": 3,
    "BHD": 3,
    CHIP: 0,
}
CURRENCIES = frozenset(code for code in UNITS if code != CHIP)

# Bigint holds 9.2e18; a ceiling well below it keeps every sum of postings inside the column.
MAX_MINOR = 10**15

# ASCII digits only (``\d`` takes any script's digits) and nothing after them: ``$`` would let a
# trailing newline through. Longer than this is refused before ``int`` sees it.
_DECIMAL = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?")
MAX_AMOUNT_CHARS = 40


def exponent(unit: str) -> int:
    """The number of decimal places of ``unit``; refuses a unit we do not know."""
    try:
        return UNITS[unit]
    except KeyError:
        known = sorted(UNITS)
        raise UnknownUnit(
            T("Unknown unit {unit}; known units are {known}.", unit=repr(unit), known=known), unit=unit
        ) from None


def currency(code: str) -> str:
    """``code`` if it is a currency (not ``CHIP``)."""
    if code not in CURRENCIES:
        known = sorted(CURRENCIES)
        raise UnknownUnit(
            T("Unknown currency {currency}; known currencies are {known}.", currency=repr(code), known=known), unit=code
        )
    return code


def parse_amount(text: str, unit: str) -> int:
    """Minor units of a decimal string such as ``"100.00"``, exactly; refuses more decimals than
    the unit has, exponents, spaces and floats."""
    places = exponent(unit)
    if not isinstance(text, str):
        raise BadAmount(
            T('Send the amount as a decimal string such as "100.00", not {kind}.', kind=type(text).__name__)
        )
    if len(text) > MAX_AMOUNT_CHARS:
        raise BadAmount(T("An amount of {length} characters is larger than this service accepts.", length=len(text)))
    match = _DECIMAL.fullmatch(text)
    if not match:
        raise BadAmount(T('{amount} is not a decimal amount; write it like "100.00".', amount=repr(text)))
    sign, whole, fraction = match.groups()
    fraction = fraction or ""
    if len(fraction) > places:
        allowed = N("{count} decimal place", "{count} decimal places", places) if places else T("no decimal places")
        raise BadAmount(
            T(
                "{amount} has {places} decimal places; {unit} allows {allowed}.",
                amount=repr(text),
                places=len(fraction),
                unit=unit,
                allowed=allowed,
            )
        )
    minor = int(whole + fraction.ljust(places, "0"))
    if minor > MAX_MINOR:
        raise BadAmount(T("{amount} is larger than this service accepts.", amount=repr(text)))
    return -minor if sign else minor


def format_amount(minor: int, unit: str) -> str:
    """The decimal string of ``minor`` units, with exactly the unit's decimal places."""
    places = exponent(unit)
    sign = "-" if minor < 0 else ""
    digits = str(abs(minor)).rjust(places + 1, "0")
    if not places:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


# The names under which a table's config, a game's view and its events carry money, in minor
# units of the table's currency (chip prices, stakes, prizes, La Viuda's price).
MONEY_KEYS = frozenset({"chip_value", "stake", "prize", "price", "widow_price"})


def money_shown(data: Any, unit: str | None) -> Any:
    """``data`` as a client sees it: every integer under a ``MONEY_KEYS`` name, at any depth, as
    the decimal string of ``unit`` (``None`` without a currency: no money at the table), with the
    integer of minor units beside it as ``<name>_minor``. Stored events and the engine keep
    integers; this is for the edge."""
    if isinstance(data, list):
        return [money_shown(item, unit) for item in data]
    if not isinstance(data, dict):
        return data
    shown: dict[str, Any] = {}
    for key, value in data.items():
        if key in MONEY_KEYS and isinstance(value, int) and not isinstance(value, bool):
            shown[key] = format_amount(value, unit) if unit else None
            shown[f"{key}_minor"] = value
        else:
            shown[key] = money_shown(value, unit)
    return shown
