"""The errors the game services raise: the service error family of ``ledger.errors``, and the one
refusal only a game makes (``Illegal``)."""

from __future__ import annotations

from ledger.errors import (
    Conflict,
    Forbidden,
    IdempotencyMismatch,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    ServiceError,
)

__all__ = [
    "Conflict",
    "Forbidden",
    "IdempotencyMismatch",
    "Illegal",
    "InsufficientFunds",
    "InvalidRequest",
    "NotFound",
    "ServiceError",
]


class Illegal(ServiceError):
    """The rules refuse the action; ``legal_actions`` lists what is allowed now."""

    status_code = 422
    code = "illegal_action"
