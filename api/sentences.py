"""An event's sentence for players, said by the server: what ``?sentences=true`` adds to each event
of the events endpoint and of a table's stream.

The game makes the sentence from the event as the caller is served it (``games.engine.sentences``,
``Game.sentences``), so it shows no card the caller's ``data`` does not hold. Here it is said in
the request's language, its players named as the table's (``games.words.name_seats``), and given
as ``{"text", "parts"}``: ``text`` the whole sentence as plain text (each card as its code, cards
of a row separated by spaces), ``parts`` the same in order as ``{"text": ...}`` and
``{"cards": [codes]}`` for a client that draws cards. Machine fields never change with the language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from games import selectors
from games.engine import registry
from games.engine.sentences import Cards, Sentence, describe
from games.engine.words import Text
from games.models import Table
from games.words import name_seats, say

# Where a row of cards stands in a said sentence: NUL, its index, NUL (no message holds a NUL).
_ROW = re.compile("\x00(\\d+)\x00")


def _marked(value: Any, rows: list[tuple[str, ...]]) -> Any:
    """``value`` with every ``Cards`` in it (at any depth) replaced by the mark of its row."""
    if isinstance(value, Cards):
        rows.append(value.codes)
        return f"\x00{len(rows) - 1}\x00"
    if isinstance(value, Text):
        values = {key: _marked(item, rows) for key, item in value.values.items()}
        return Text(value.msgid, values, value.plural, value.number)
    if isinstance(value, list | tuple):
        return [_marked(item, rows) for item in value]
    return value


def parts_of(sentence: Sentence, names: Mapping[int, Any]) -> dict[str, Any]:
    """The sentence said in the active language: its plain ``text`` and its ``parts``."""
    parts: list[dict[str, Any]] = []

    def text(words: str) -> None:
        if not words:
            return
        if parts and "text" in parts[-1]:
            parts[-1]["text"] += words
        else:
            parts.append({"text": words})

    for piece in name_seats(list(sentence), names):
        rows: list[tuple[str, ...]] = []
        said = str(say(_marked(piece, rows)))
        last = 0
        for found in _ROW.finditer(said):
            text(said[last : found.start()])
            parts.append({"cards": list(rows[int(found.group(1))])})
            last = found.end()
        text(said[last:])
    plain = "".join(part["text"] if "text" in part else " ".join(part["cards"]) for part in parts)
    return {"text": plain, "parts": parts}


def with_sentences(table: Table, events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` (the events API's items for the caller) each with its ``sentence`` last, in the
    active language."""
    decider = registry.get(table.game)
    names = selectors.player_names(table)
    currency = table.currency or None
    return [{**event, "sentence": parts_of(describe(decider.sentences, event, currency), names)} for event in events]
