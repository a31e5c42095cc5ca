"""The service error family: every refusal a service raises, with its HTTP status and a stable code.

It lives here, in the lowest layer both apps share: ``games.errors`` adds the game refusals to it,
and the API's one exception handler (``api.errors``) turns any of them into the error shape
``{"code": ..., "detail": ..., **extra}`` with the status."""

from __future__ import annotations

from typing import Any

__all__ = [
    "AlreadyReversed",
    "BadAmount",
    "Conflict",
    "DepositDecided",
    "Forbidden",
    "IdempotencyMismatch",
    "ImmutableRecord",
    "InsufficientFunds",
    "InvalidRequest",
    "NotFound",
    "PayoutDecided",
    "SecondApproverNeeded",
    "ServiceError",
    "UnbalancedTransaction",
    "UnknownAccount",
    "UnknownUnit",
]


class ServiceError(Exception):
    """A refusal carried to the client: ``detail`` is the sentence, ``code`` (the class's unless
    given) the stable code, and every other keyword an extra field of the answer."""

    status_code = 400
    code = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        self.extra = extra


class NotFound(ServiceError):
    status_code = 404
    code = "not_found"


class Forbidden(ServiceError):
    status_code = 403
    code = "forbidden"


class Conflict(ServiceError):
    """Another writer got there first; ``current_version`` says where the table is now."""

    status_code = 409
    code = "version_conflict"


class InvalidRequest(ServiceError):
    """A request the service cannot take. ``field`` names the part of the request at fault; the
    answer carries it as ``fields``: ``{name: [message]}``, the shape DRF's own validation errors
    have, so a client reads one shape for every 400."""

    status_code = 400
    code = "invalid"

    def __init__(self, detail: str, *, code: str | None = None, field: str | None = None, **extra: Any):
        if field is not None:
            extra["fields"] = {field: [detail]}
        super().__init__(detail, code=code, **extra)


class IdempotencyMismatch(ServiceError):
    status_code = 422
    code = "idempotency_key_reused"


class InsufficientFunds(ServiceError):
    status_code = 422
    code = "insufficient_funds"


class BadAmount(InvalidRequest):
    code = "invalid_amount"


class UnknownUnit(InvalidRequest):
    code = "unknown_unit"


class UnknownAccount(InvalidRequest):
    """An account key that does not follow the key grammar in ``ledger.keys``."""

    code = "unknown_account"


class UnbalancedTransaction(InvalidRequest):
    code = "unbalanced_transaction"


class AlreadyReversed(Conflict):
    code = "already_reversed"


class ImmutableRecord(RuntimeError):
    """Code tried to change or delete a transaction or posting: a bug, never a client's fault."""


class PayoutDecided(Conflict):
    """The payout was already approved or rejected; its money moved once and will not move again."""

    code = "payout_decided"


class SecondApproverNeeded(Conflict):
    """Under the two-person rule the same staff member cannot approve twice."""

    code = "second_approver_needed"


class DepositDecided(Conflict):
    """The pending deposit was already approved or rejected; its money moved once and will not again."""

    code = "deposit_decided"
