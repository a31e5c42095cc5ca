"""The shapes of the hand audit, verification, replay and payout answers, for the document (the
answers are built by ``games.audit``; tests/api/test_contract.py checks them against these)."""

from __future__ import annotations

from rest_framework import serializers


class ResultLineSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, required=False)
    bot = serializers.BooleanField(required=False)
    chips = serializers.IntegerField(required=False, allow_null=True)
    money = serializers.CharField(required=False, allow_null=True, help_text="Decimal string.")
    money_minor = serializers.IntegerField(required=False, allow_null=True)
    outcome = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="The showdown's word for the seat (`wins`, `splits`, `pays`, …); null where no hand was shown.",
    )


class HandSummarySerializer(serializers.Serializer):
    hand_no = serializers.IntegerField()
    ended_at = serializers.DateTimeField(allow_null=True)
    result = ResultLineSerializer(many=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    audit = serializers.CharField(help_text="The URL of the hand's audit.")
    verify = serializers.CharField(help_text="The URL of the hand's verification.")
    history = serializers.CharField(help_text="The URL of the hand's history.")


class HandsPageSerializer(serializers.Serializer):
    results = HandSummarySerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()


class CheckSerializer(serializers.Serializer):
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["pass", "fail", "skip"])
    detail = serializers.CharField(allow_blank=True)
    differences = serializers.ListField(child=serializers.JSONField())


class VerificationSerializer(serializers.Serializer):
    table_id = serializers.UUIDField()
    hand_no = serializers.IntegerField()
    ok = serializers.BooleanField()
    checks = CheckSerializer(many=True)


class AuditEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    hand_no = serializers.IntegerField()
    actor = serializers.CharField(allow_null=True)
    actor_kind = serializers.CharField()
    actor_seat = serializers.IntegerField(allow_null=True)
    recorded_actor = serializers.CharField(required=False, allow_null=True)
    created_at = serializers.DateTimeField()
    data = serializers.DictField(help_text="The event's public fields.")
    secret = serializers.DictField(help_text="The event's secret fields, revealed after the hand.")
    hash = serializers.CharField()
    prev_hash = serializers.CharField()


class SeatLineSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    bot = serializers.BooleanField()


class HandAuditSerializer(serializers.Serializer):
    table_id = serializers.UUIDField()
    game = serializers.CharField()
    hand_no = serializers.IntegerField()
    purpose = serializers.CharField()
    seats = SeatLineSerializer(many=True)
    commitment = serializers.CharField(allow_null=True)
    server_seed = serializers.CharField(allow_null=True)
    client_seed = serializers.CharField(allow_null=True)
    revealed_at = serializers.DateTimeField(allow_null=True)
    deck_name = serializers.CharField(allow_null=True, required=False)
    deck = serializers.ListField(child=serializers.CharField(), allow_null=True)
    events = AuditEventSerializer(many=True)
    showdown = serializers.ListField(child=serializers.DictField())
    result = ResultLineSerializer(many=True)
    transactions = serializers.ListField(child=serializers.DictField())
    payouts = serializers.ListField(child=serializers.DictField())
    payout_transactions = serializers.ListField(child=serializers.DictField())
    verification = VerificationSerializer()


class ReplayEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    hand_no = serializers.IntegerField()
    actor = serializers.CharField(allow_null=True)
    actor_kind = serializers.CharField()
    actor_seat = serializers.IntegerField(allow_null=True)
    data = serializers.DictField()


class ReplaySerializer(serializers.Serializer):
    table_id = serializers.UUIDField()
    game = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    latest_version = serializers.IntegerField()
    event = ReplayEventSerializer(allow_null=True)
    state = serializers.DictField(allow_null=True, help_text="The game's view for a spectator (a GameView).")


class PayoutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "approved", "rejected"])
    table_id = serializers.UUIDField()
    table = serializers.DictField(help_text="The table's game, status and result.")
    seat = serializers.IntegerField(allow_null=True)
    player = serializers.CharField(allow_null=True)
    currency = serializers.CharField()
    amount = serializers.CharField(help_text="Decimal string.")
    amount_minor = serializers.IntegerField()
    automatic = serializers.BooleanField()
    approvals_needed = serializers.IntegerField()
    decisions = serializers.ListField(child=serializers.DictField())
    decided_at = serializers.DateTimeField(allow_null=True)
    follow_up = serializers.CharField(allow_null=True)
    pending_account = serializers.CharField()
    transaction_id = serializers.IntegerField(allow_null=True)
    ledger_trail = serializers.ListField(child=serializers.DictField())
    created_at = serializers.DateTimeField()


class PayoutsPageSerializer(serializers.Serializer):
    results = PayoutSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()
