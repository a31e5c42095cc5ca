"""The engine's two refusals: an illegal command, and table options that cannot be played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class IllegalAction(Exception):
    """A command the rules refuse: a sentence for the player and the actions that are legal now."""

    def __init__(self, message: str, *, legal: Sequence[Mapping[str, Any]] = (), code: str = "illegal_action"):
        super().__init__(message)
        self.message = message
        self.legal = [dict(action) for action in legal]
        self.code = code


class InvalidOptions(ValueError):
    """Table options that are out of range or refused in combination; the message names them."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        # The message itself, so that ``str(exc)`` keeps a ``Text``'s message id and values for the
        # edge to translate (``Exception.__str__`` would copy it into a plain ``str``).
        return self.message
