"""Wallets, transactions and deposits on the wire. Money travels as decimal strings ("100.00"),
with the integer of minor units beside it for programs."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import (
    ErrorSerializer,  # noqa: F401 - re-exported for the ledger views
    StrictSerializer,
)
from games.engine.words import T
from games.words import say
from ledger.errors import ServiceError
from ledger.times import rfc3339
from ledger.units import currency as currency_code
from ledger.units import format_amount, parse_amount


@extend_schema_field({"type": "string", "example": "100.00"})
class DecimalStringField(serializers.Field):
    """Passes the raw JSON value on, so a number can be refused by name instead of rounded."""

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class TimestampField(serializers.DateTimeField):
    """A time as every answer gives it: RFC 3339 UTC with ``Z`` and microseconds (``ledger.times``)."""

    def to_representation(self, value: Any) -> Any:
        return rfc3339(value)


class BalanceSerializer(serializers.Serializer):
    currency = serializers.CharField()
    balance = serializers.CharField(source="amount", help_text='Decimal string, e.g. "100.00".')
    balance_minor = serializers.IntegerField(source="minor", help_text="The balance in minor units (centavos).")


class WalletsSerializer(serializers.Serializer):
    wallets = BalanceSerializer(many=True)


class PostingSerializer(serializers.Serializer):
    account = serializers.CharField(source="account.key")
    unit = serializers.CharField()
    amount = serializers.SerializerMethodField(help_text='Signed decimal string, e.g. "-100.00".')
    amount_minor = serializers.IntegerField(source="amount")

    @extend_schema_field(serializers.CharField())
    def get_amount(self, posting: Any) -> str:
        return format_amount(posting.amount, posting.unit)


class TransactionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    memo = serializers.CharField()
    reference = serializers.CharField()
    table_id = serializers.UUIDField(allow_null=True)
    hand_no = serializers.IntegerField(allow_null=True)
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    created_at = TimestampField()
    postings = PostingSerializer(many=True)


class DepositSerializer(StrictSerializer):
    currency = serializers.CharField(help_text="ISO 4217 code, e.g. MXN.")
    amount = DecimalStringField(help_text='A positive decimal string with at most the currency\'s places: "100.00".')

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            unit = currency_code(attrs["currency"])
        except ServiceError as exc:
            raise serializers.ValidationError({"currency": say(exc.detail)}) from None
        try:
            minor = parse_amount(attrs["amount"], unit)
        except ServiceError as exc:
            raise serializers.ValidationError({"amount": say(exc.detail)}) from None
        if minor <= 0:
            raise serializers.ValidationError({"amount": say(T("A deposit must be more than zero."))})
        return {"currency": unit, "amount_minor": minor}


class DepositResultSerializer(serializers.Serializer):
    transaction = TransactionSerializer()
    wallet = BalanceSerializer(help_text="The wallet as it stands now.")


class PendingDepositSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="The deposit's id, as the 202 of the deposit gave it.")
    user = serializers.CharField(allow_null=True, help_text="Whose wallet it is for.")
    currency = serializers.CharField()
    amount = serializers.CharField(help_text='Decimal string, e.g. "1500.00".')
    amount_minor = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["pending", "approved", "rejected"])
    recorded_by = serializers.CharField(allow_null=True)
    recorded_at = TimestampField()
    transaction_id = serializers.IntegerField(help_text="The transaction that opened it (kind `deposit_pending`).")
    decided_by = serializers.CharField(allow_null=True, help_text="The second member of staff; null while pending.")
    decided_at = TimestampField(allow_null=True)
    decision_transaction_id = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_null=True, help_text="Why it was rejected; null otherwise.")


class PendingDepositsPageSerializer(serializers.Serializer):
    results = PendingDepositSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()


class WalletLineSerializer(serializers.Serializer):
    """One movement of one of your wallets, in words."""

    id = serializers.IntegerField(help_text="The line's id (its posting).")
    transaction_id = serializers.IntegerField()
    kind = serializers.CharField(
        help_text="The transaction's kind, a machine word (`deposit`, `buy_in_reserved`, `payout_paid`, "
        "a game's event type, ...); `description` says it in words."
    )
    description = serializers.CharField(help_text="What moved and why, in the reader's language.")
    currency = serializers.CharField()
    amount = serializers.CharField(help_text='Signed decimal string: "-10.00" left the wallet.')
    amount_minor = serializers.IntegerField()
    balance_after = serializers.CharField(help_text="The wallet's balance just after this line, a decimal string.")
    balance_after_minor = serializers.IntegerField()
    table_id = serializers.UUIDField(allow_null=True, help_text="The table it was for; null for none.")
    game = serializers.CharField(allow_null=True, help_text="That table's game (its slug); null without a table.")
    game_name = serializers.CharField(allow_null=True, help_text="The game's name in the reader's language.")
    hand_no = serializers.IntegerField(allow_null=True)
    payout_id = serializers.IntegerField(allow_null=True, help_text="The payout this line paid, if it did.")
    created_at = TimestampField()


class WalletLinesPageSerializer(serializers.Serializer):
    results = WalletLineSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()


class MyPayoutSerializer(serializers.Serializer):
    """One of your payouts: the prize a finished table owes your seat, and where it stands."""

    id = serializers.IntegerField()
    table_id = serializers.UUIDField()
    game = serializers.CharField(allow_null=True, help_text="The table's game (its slug).")
    game_name = serializers.CharField(allow_null=True, help_text="The game's name in the reader's language.")
    seat = serializers.IntegerField()
    currency = serializers.CharField()
    amount = serializers.CharField(help_text="Decimal string.")
    amount_minor = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["pending", "approved", "rejected"],
        help_text="`pending`: waits for staff review; `approved`: paid into your wallet; `rejected`: not paid.",
    )
    status_text = serializers.CharField(help_text="Where it stands, in a sentence for you.")
    reason = serializers.CharField(
        allow_null=True, help_text="The decision's reason once decided; null while pending or when none was given."
    )
    automatic = serializers.BooleanField(help_text="Decided by a rule (a small amount), not by a person.")
    approvals = serializers.IntegerField(help_text="Approvals so far.")
    approvals_needed = serializers.IntegerField(help_text="Approvals it takes (two above the two-person limit).")
    created_at = TimestampField()
    decided_at = TimestampField(allow_null=True)
    transaction_id = serializers.IntegerField(
        allow_null=True, help_text="The transaction that paid (or returned) it; null while pending."
    )


class MyPayoutsPageSerializer(serializers.Serializer):
    results = MyPayoutSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()
