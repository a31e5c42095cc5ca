"""The options both widow games take alike: the exchange's and the showdown's, the number of
seats and the stake the service adds."""

from __future__ import annotations

from typing import Any

from games.engine.errors import InvalidOptions
from games.engine.options import Option
from games.engine.words import T

# Last in both games' option lists.
EXCHANGE_OPTIONS: tuple[Option, ...] = (
    Option(
        "max_orbits",
        "int",
        6,
        1,
        50,
        help=T("Orbits of phase 2 without a knock before one is forced."),
        rules=("WX-7",),
        label=T("Orbits before a forced knock"),
    ),
    Option(
        "turn_seconds",
        "int",
        60,
        5,
        3600,
        help=T("Turn time; a timeout passes or knocks."),
        rules=("WX-7",),
        label=T("Turn time (seconds)"),
    ),
    Option(
        "flush_by_suit",
        "bool",
        False,
        help=T("Flushes compare by suit first: spades, hearts, diamonds, clubs."),
        rules=("LV-12",),
        label=T("Flushes by suit"),
    ),
)


def bad_seats(seats: Any, low: int, high: int) -> bool:
    """True unless ``seats`` is a whole number in ``[low, high]``."""
    return isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high


def stake(given: dict[str, Any]) -> tuple[int, str | None]:
    """Pop the stake (``chip_value`` in minor units, ``currency``) from the given options, checked."""
    chip_value = given.pop("chip_value", 0) or 0
    currency = given.pop("currency", None)
    if isinstance(chip_value, bool) or not isinstance(chip_value, int) or chip_value < 0:
        raise InvalidOptions(
            T(
                "The value per chip must be a whole number of the currency's smallest unit, 0 or more, not {value}.",
                value=repr(chip_value),
            )
        )
    if chip_value and not currency:
        raise InvalidOptions(T("A value per chip needs a currency."))
    return chip_value, currency if chip_value else None
