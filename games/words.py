"""Saying the engine's words in the reader's language.

A :class:`~games.engine.words.Text` is English that remembers its message id and values; ``say``
looks the id up in the active language's catalogues (Django's gettext, so the apps' ``locale/``
folders and ``LOCALE_PATHS``), says each value in turn (a ``Text`` value in the same language, a
list joined by the language's own separator) and fills the placeholders. A translation whose
placeholders differ from the message's falls back to English and is logged: a reader gets a whole
sentence, never a ``{hole}``. A plain ``str`` passes through as it is.

A whole number put into a sentence, and an :class:`~games.engine.words.Amount` of money, are
written in the language's own number forms by Babel (Persian digits on a Persian page); the number
fields of a body beside the sentence stay as they are.

``say_all`` does this through dicts and lists (a response body). Under ``strict()`` a ``Text``
that the language's catalogues do not translate raises :class:`Untranslated` instead: the tests
use it to find every message a reader would get in English.
"""

from __future__ import annotations

import contextvars
import logging
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from babel import Locale, UnknownLocaleError, numbers
from django.utils import translation
from django.utils.translation import trans_real

from games.engine.words import Amount, Text

log = logging.getLogger(__name__)

ENGLISH = "en"

_strict: contextvars.ContextVar[bool] = contextvars.ContextVar("words_strict", default=False)


class Untranslated(LookupError):
    """A message the active language's catalogues do not translate (raised only under ``strict``)."""

    def __init__(self, msgid: str, language: str) -> None:
        super().__init__(f"{language}: no translation of {msgid!r}")
        self.msgid = msgid
        self.language = language


@contextmanager
def strict() -> Iterator[None]:
    """Within it, ``say`` raises :class:`Untranslated` for a message without a translation."""
    token = _strict.set(True)
    try:
        yield
    finally:
        _strict.reset(token)


def placeholders(template: str) -> set[str]:
    """The names of a message's ``{name}`` placeholders (``{{`` and ``}}`` are braces, not names)."""
    names = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def separator() -> str:
    """Between the items of a list value: ``", "`` in English."""
    return translation.pgettext("list separator", ", ")


# Babel writes a number with its locale's numbering system's signs (decimal and group separators)
# but always with the digits 0-9; the digits of the systems Babel names for our languages (CLDR's
# numbering systems), by their zero.
_ZEROS = {"arabext": "\u06f0", "arab": "\u0660"}


@lru_cache(maxsize=16)
def _number_forms(language: str) -> tuple[Locale, str, dict[int, str]]:
    """The Babel locale of a Django language code, its numbering system, and the digit map to it."""
    try:
        locale = Locale.parse(translation.to_locale(language))
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse(ENGLISH)
    system = locale.default_numbering_system
    zero = _ZEROS.get(system)
    digits = {ord("0") + step: chr(ord(zero) + step) for step in range(10)} if zero else {}
    return locale, system, digits


def number(value: int | Decimal, language: str | None = None) -> str:
    """A whole or decimal number as the language writes it ("۱۲" in Persian), without grouping (a
    hand's or seat's number reads "1000", not "1,000")."""
    locale, system, digits = _number_forms(language or translation.get_language() or ENGLISH)
    if type(value) is int and value >= 0:
        # Babel's own answer for these (its patterns put nothing around a whole number but its
        # digits), at a fraction of its cost: a view says hundreds of numbers.
        return str(value).translate(digits)
    said = numbers.format_decimal(value, locale=locale, group_separator=False, numbering_system=system)
    return said.translate(digits)


def money(amount: Amount, language: str | None = None) -> str:
    """An amount with its currency's code, "5.00 MXN", in the language's number forms and with the
    currency's own exponent (Babel's currency data: no decimals for JPY, three for KWD)."""
    try:
        value = Decimal(amount.amount)
    except InvalidOperation:
        return str(amount)
    language = language or translation.get_language() or ENGLISH
    locale, system, digits = _number_forms(language)
    if amount.currency is None:
        return number(value, language)
    said = numbers.format_currency(value, amount.currency, format="0.00 ¤¤", locale=locale, numbering_system=system)
    return said.translate(digits)


def say(value: Any, language: str | None = None) -> Any:
    """``value`` in ``language`` (the active one if not given): a ``Text`` translated, a list or
    tuple said item by item and joined, a whole number or an ``Amount`` in the language's number
    forms, anything else as it is."""
    return _Voice(language or translation.get_language()).say(value)


def say_all(data: Any, language: str | None = None) -> Any:
    """``data`` with every ``Text`` in it said: dicts and lists walked, their shape kept."""
    return _Voice(language or translation.get_language()).say_all(data)


_PLAIN = frozenset({str, int, float, bool, type(None)})


class _Voice:
    """One language's way of saying things, looked up once for a whole body rather than once for
    each of the hundreds of sentences and numbers a view holds."""

    def __init__(self, language: str | None) -> None:
        self.language = language
        self.english = _english_language(language)
        self.catalogue = trans_real.translation(language or ENGLISH)
        self.strict = _strict.get()
        self._separator: str | None = None

    def say_all(self, data: Any) -> Any:
        # By exact type first: a body is hundreds of plain values, walked on every answer.
        kind = type(data)
        if kind is dict:
            return {key: self.say_all(item) for key, item in data.items()}
        if kind is list:
            return [self.say_all(item) for item in data]
        if kind is Text:
            return self.text(data)
        if kind in _PLAIN:
            return data
        if isinstance(data, Text):
            return self.text(data)
        if isinstance(data, dict):
            return {key: self.say_all(item) for key, item in data.items()}
        if isinstance(data, list | tuple):
            return [self.say_all(item) for item in data]
        return data

    def say(self, value: Any) -> Any:
        if isinstance(value, Text):
            return self.text(value)
        if isinstance(value, Amount):
            return money(value, self.language)
        if isinstance(value, int) and not isinstance(value, bool):
            return number(value, self.language)
        if isinstance(value, list | tuple):
            return self.separator().join(str(self.say(item)) for item in value)
        return value

    def separator(self) -> str:
        """Between the items of a list value: ``", "`` in English (``separator()``)."""
        if self._separator is None:
            with translation.override(self.language):
                self._separator = separator()
        return self._separator

    def text(self, text: Text) -> str:
        language = self.language
        english = text.plural if text.plural is not None and text.number != 1 else text.msgid
        if self.english:
            template = english
        else:
            if self.strict and not is_translated(text.msgid, text.plural, language):
                raise Untranslated(text.msgid, language or "")
            if text.plural is not None:
                template = self.catalogue.ngettext(text.msgid, text.plural, text.number or 0)
            else:
                template = self.catalogue.gettext(text.msgid)
        values = {key: self.say(value) for key, value in text.values.items()}
        if template != english and not _fits(template, text.msgid, text.plural):
            log.warning("translation of %r into %s has other placeholders: %r", text.msgid, language, template)
            template = english
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            log.warning("translation of %r into %s does not format: %r", text.msgid, language, template)
            return english.format(**values)


# How the engine names a player in a view, which does not know who sits where.
SEAT = "seat {seat}"


def name_seats(data: Any, names: Mapping[int, str]) -> Any:
    """``data`` with every player the engine named by seat ("seat 2") named as ``names`` says:
    the edge knows who sits where, and a player reads "Ana has the worst hand", not a number.
    Sentences keep their message ids; only the values change."""
    if isinstance(data, Text):
        if data.msgid == SEAT and data.values.get("seat") in names:
            return names[data.values["seat"]]
        values = {key: name_seats(value, names) for key, value in data.values.items()}
        if all(values[key] is data.values[key] for key in values):
            return data
        return Text(data.msgid, values, data.plural, data.number)
    if isinstance(data, dict):
        return {key: name_seats(item, names) for key, item in data.items()}
    if isinstance(data, list | tuple):
        return [name_seats(item, names) for item in data]
    return data


def is_translated(msgid: str, plural: str | None = None, language: str | None = None) -> bool:
    """Whether the catalogues of ``language`` (the active one if not given) hold ``msgid``."""
    language = language or translation.get_language() or ENGLISH
    catalog = trans_real.translation(language)._catalog  # type: ignore[attr-defined]
    return (msgid, 0) in catalog if plural is not None else msgid in catalog


def _english_language(language: str | None) -> bool:
    return language is None or language == ENGLISH or language.startswith(ENGLISH + "-")


@lru_cache(maxsize=4096)
def _fits(template: str, msgid: str, plural: str | None) -> bool:
    """A translation's placeholders are the message's own; a plural form may leave ``{count}`` out
    (Persian and Spanish say "one card" for one)."""
    try:
        found = placeholders(template)
    except ValueError:
        return False
    expected = placeholders(msgid) | (placeholders(plural) if plural is not None else set())
    if plural is None:
        return found == expected
    return found <= expected and expected - {"count"} <= found
