"""Table options: what ``GET /games/`` lists for each game, and the check of what a table asks for."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.errors import InvalidOptions
from games.engine.words import N, T, Text


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """A table option with its type, default and range or choices, as ``GET /games/`` lists it."""

    name: str
    type: str  # "int", "bool", "choice", "str"
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""
    # The option's name for players (``T("Stick the dealer")``); ``name`` is the machine field.
    label: str = ""
    # For a ``choice`` option, each choice's words for players, by code (the code stays the value).
    choice_labels: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # The rules the option changes ("FD-14"), a machine field beside the words: a rule id is for a
    # "rules" link, never inside the help a player reads.
    rules: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The option as ``GET /games/`` lists it."""
        data: dict[str, Any] = {
            "name": self.name,
            "label": self.label or self.name,
            "type": self.type,
            "default": self.default,
        }
        if self.minimum is not None:
            data["min"] = self.minimum
        if self.maximum is not None:
            data["max"] = self.maximum
        if self.choices:
            data["choices"] = list(self.choices)
            data["choice_labels"] = {code: self.choice_labels.get(code, code) for code in self.choices}
        if self.help:
            data["help"] = self.help
        if self.rules:
            data["rules"] = list(self.rules)
        return data


def seats_said(seats: Any) -> Any:
    """A number of seats as a refusal says it: a number (said in the reader's digits), or what was
    sent when it is none."""
    return seats if isinstance(seats, int) and not isinstance(seats, bool) else repr(seats)


def _refusal(spec: Option, value: Any) -> Text | None:
    """The refusal of ``value`` for ``spec``, naming the option and its choices as players read them."""
    name = spec.label or spec.name
    if spec.type == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return T("Option '{option}' must be a whole number, not {value}.", option=name, value=repr(value))
        if (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum):
            return T(
                "Option '{option}' must be between {minimum} and {maximum}, not {value}.",
                option=name,
                minimum=spec.minimum,
                maximum=spec.maximum,
                value=value,
            )
    elif spec.type == "bool":
        if not isinstance(value, bool):
            return T("Option '{option}' must be true or false, not {value}.", option=name, value=repr(value))
    elif spec.type == "choice":
        if value not in spec.choices:
            return T(
                "Option '{option}' must be one of {choices}, not {value}.",
                option=name,
                choices=[spec.choice_labels.get(choice, choice) for choice in spec.choices],
                value=repr(value),
            )
    elif spec.type == "str" and not isinstance(value, str):
        return T("Option '{option}' must be a string, not {value}.", option=name, value=repr(value))
    return None


def validate_options(specs: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and check types and ranges; raise ``InvalidOptions`` naming the bad option."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidOptions(
            N(
                "Unknown option: {unknown}. Known: {known}.",
                "Unknown options: {unknown}. Known: {known}.",
                len(unknown),
                unknown=unknown,
                known=[spec.label or spec.name for spec in specs],
            )
        )
    result: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        refusal = _refusal(spec, value)
        if refusal:
            raise InvalidOptions(refusal)
        result[spec.name] = value
    return result
