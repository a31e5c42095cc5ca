"""Words players read, made by the engine in English and said by the edge in the reader's language.

The engine is pure, so it knows no catalogue and no reader. A sentence it makes for a player is a
:class:`Text`: a ``str`` whose value is the English sentence (so it reads, compares, logs and
serialises as English wherever nobody translates it) that also keeps its message id and the values
put into it. The edge (``games.words``) looks the message id up in the reader's language and puts
the values in, each value that is itself a ``Text`` said in that language too. A value that is a
list or tuple is said item by item and joined.

``T`` marks a message and ``N`` one that depends on a count; the catalogue extraction finds both
by name, so a message id must be a literal string at the call. Words never go into events or
state: events keep data, and views, histories and audits make the words from it when asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LIST_SEPARATOR = ", "


class Text(str):
    """An English sentence for players, with what it takes to say it in another language."""

    __slots__ = ("msgid", "number", "plural", "values")
    msgid: str
    plural: str | None
    number: int | None
    values: Mapping[str, Any]

    def __new__(
        cls, msgid: str, values: Mapping[str, Any], plural: str | None = None, number: int | None = None
    ) -> Text:
        template = plural if plural is not None and number != 1 else msgid
        text = super().__new__(cls, template.format(**{key: english(value) for key, value in values.items()}))
        text.msgid = msgid
        text.plural = plural
        text.number = number
        text.values = dict(values)
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a cache, a Celery argument) as the message, not as its English.
        return (Text, (self.msgid, self.values, self.plural, self.number))


def T(msgid: str, /, **values: Any) -> Text:
    """A message: ``T("{player} knocks", player=name)``. ``msgid`` is English with ``{name}``
    placeholders and must be a literal string."""
    return Text(msgid, values)


def N(singular: str, plural: str, count: int, /, **values: Any) -> Text:
    """A message that depends on ``count``, which its placeholders see as ``{count}``:
    ``N("{count} chip", "{count} chips", n)``."""
    return Text(singular, {"count": count, **values}, plural, count)


class Amount(str):
    """An amount of money in a sentence: reads as ``"5.00 MXN"``; the edge writes it in the reader's
    number forms (digits, decimal sign) with the currency's own exponent. ``amount`` is the decimal
    string as served, ``currency`` its code (``None`` for chips without money)."""

    __slots__ = ("amount", "currency")
    amount: str
    currency: str | None

    def __new__(cls, amount: Any, currency: str | None = None) -> Amount:
        said = super().__new__(cls, f"{amount} {currency}" if currency else str(amount))
        said.amount = str(amount)
        said.currency = currency
        return said

    def __reduce__(self) -> tuple[Any, ...]:
        return (Amount, (self.amount, self.currency))


def english(value: Any) -> str:
    """A value as it reads in an English sentence: lists and tuples joined by commas."""
    if isinstance(value, list | tuple):
        return LIST_SEPARATOR.join(english(item) for item in value)
    return str(value)
