"""Errors raised by the game and ledger services, each with its HTTP status and a stable code."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(self, detail: str, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(GameError):
    status_code = 404
    code = "not_found"


class Forbidden(GameError):
    status_code = 403
    code = "forbidden"


class Conflict(GameError):
    """Another writer got there first; ``current_version`` says where the table is now."""

    status_code = 409
    code = "version_conflict"


class InvalidRequest(GameError):
    status_code = 400
    code = "invalid"


class Illegal(GameError):
    """The rules refuse the action; ``legal_actions`` lists what is allowed now."""

    status_code = 422
    code = "illegal_action"


class IdempotencyMismatch(GameError):
    status_code = 422
    code = "idempotency_key_reused"


class InsufficientFunds(GameError):
    status_code = 422
    code = "insufficient_funds"
