"""The one request parser: JSON with bounds on what a body may make the server do.

DRF's parser hands any JSON to ``json.load``: a body of ten thousand ``[`` overflows the
decoder's recursion (a 500), and a 5,000-digit number costs quadratic time to convert and then
fails deeper in (another 500). Here nesting and number length are bounded before anything is
built, and either excess is a 400 ``malformed_request`` like any other bad JSON.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding

# Strings first, so brackets and digits inside them are not counted.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


# A whole number in a query parameter: ASCII digits, perhaps after a minus sign. Python's int()
# and str.isdigit() take more (other scripts' digits, "²", "1_000", " 7 ", "+7", and DRF "7.0").
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def is_whole_number(text: str) -> bool:
    """Whether ``text`` is an integer as the document types a query parameter."""
    return _WHOLE_NUMBER.fullmatch(text) is not None


def max_depth() -> int:
    return int(getattr(settings, "JSON_MAX_DEPTH", 20))


def max_digits() -> int:
    return int(getattr(settings, "JSON_MAX_NUMBER_DIGITS", 30))


def _check_depth(text: str) -> None:
    limit, depth = max_depth(), 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                raise ParseError(gettext("JSON nested deeper than %(limit)s levels.") % {"limit": limit})
        else:
            depth -= 1


def _number(literal: str) -> str:
    if sum(ch.isdigit() for ch in literal) > max_digits():
        raise ParseError(
            gettext("A JSON number has more than %(digits)s digits; send long values as strings.")
            % {"digits": max_digits()}
        )
    return literal


def _int(literal: str) -> int:
    return int(_number(literal))


def _float(literal: str) -> float:
    value = float(_number(literal))
    if not math.isfinite(value):
        raise ParseError(gettext("The JSON number %(number)s is out of range.") % {"number": literal})
    return value


def _constant(name: str) -> Any:
    raise ParseError(gettext("%(name)s is not JSON.") % {"name": name})


class StrictJSONParser(JSONParser):
    """``JSONParser`` with bounded nesting (``JSON_MAX_DEPTH``) and number length
    (``JSON_MAX_NUMBER_DIGITS``), and no ``NaN`` or ``Infinity``."""

    def parse(self, stream, media_type=None, parser_context=None):  # type: ignore[no-untyped-def]
        encoding = get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
        except UnicodeError as exc:
            raise ParseError(
                gettext("The body is not valid %(encoding)s: %(error)s") % {"encoding": encoding, "error": exc}
            ) from None
        _check_depth(text)
        try:
            return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
        except (ValueError, RecursionError) as exc:
            # DRF's own message, which its catalogues translate too.
            raise ParseError(gettext("JSON parse error - %(detail)s") % {"detail": exc}) from None
