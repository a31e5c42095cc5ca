"""The ledger's refusals. They extend the service error family in ``games.errors`` (a leaf module
with no Django in it), so the API's one exception handler maps them to the error shape and status."""

from __future__ import annotations

from games.errors import (
    Conflict,
    Forbidden,
    GameError,
    IdempotencyMismatch,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
)

__all__ = [
    "AlreadyReversed",
    "BadAmount",
    "Conflict",
    "Forbidden",
    "GameError",
    "IdempotencyMismatch",
    "ImmutableRecord",
    "InsufficientFunds",
    "InvalidRequest",
    "NotFound",
    "PayoutDecided",
    "SecondApproverNeeded",
    "UnbalancedTransaction",
    "UnknownAccount",
    "UnknownUnit",
]


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
