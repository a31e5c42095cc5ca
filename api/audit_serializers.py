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


class RecordPostingSerializer(serializers.Serializer):
    account = serializers.CharField()
    unit = serializers.CharField()
    amount = serializers.CharField(help_text="Signed decimal string.")
    amount_minor = serializers.IntegerField()


class TransactionRecordSerializer(serializers.Serializer):
    """A transaction with its postings as the audit lists it (``ledger.records.transactions_json``)."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    reference = serializers.CharField()
    memo = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    postings = RecordPostingSerializer(many=True)


class DecisionSerializer(serializers.Serializer):
    decision = serializers.CharField()
    by = serializers.CharField(allow_null=True, help_text="Who; null for a decision by rule.")
    automatic = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)
    at = serializers.DateTimeField()


class FollowUpSerializer(serializers.Serializer):
    reason = serializers.CharField()
    at = serializers.DateTimeField()
    resolved = serializers.BooleanField()


class PayoutRecordSerializer(serializers.Serializer):
    """A payout with every decision (``ledger.records.payout_record``)."""

    id = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    player = serializers.CharField(allow_null=True)
    currency = serializers.CharField()
    amount = serializers.CharField(help_text="Decimal string.")
    amount_minor = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "approved", "rejected"])
    automatic = serializers.BooleanField()
    approvals_needed = serializers.IntegerField()
    pending_account = serializers.CharField()
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)
    transaction_id = serializers.IntegerField(allow_null=True)
    follow_up = FollowUpSerializer(allow_null=True)
    decisions = DecisionSerializer(many=True)


class TrailLineSerializer(serializers.Serializer):
    """A posting on a payout's pending account (``ledger.records.ledger_trail``)."""

    transaction_id = serializers.IntegerField()
    kind = serializers.CharField()
    reference = serializers.CharField()
    amount = serializers.CharField(help_text="Signed decimal string.")
    amount_minor = serializers.IntegerField()
    at = serializers.DateTimeField()


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
    differences = serializers.ListField(child=serializers.CharField(), help_text="What differs, in words.")


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


class TieBreakLineSerializer(serializers.Serializer):
    """A tie settled by a rule, said in a sentence; the rule's own facts where it has them."""

    rule = serializers.CharField()
    sentence = serializers.CharField()
    step = serializers.IntegerField(required=False)
    still_tied = serializers.ListField(child=serializers.IntegerField(), required=False)
    seats = serializers.ListField(child=serializers.IntegerField(), required=False)
    purpose = serializers.CharField(required=False)
    pot = serializers.IntegerField(required=False)
    half = serializers.CharField(required=False)


class PotWonSerializer(serializers.Serializer):
    """A pot (or half) a Five-Card Draw hand took."""

    pot = serializers.IntegerField()
    name = serializers.CharField()
    half = serializers.CharField()
    chips = serializers.IntegerField()
    uncontested = serializers.BooleanField()
    returned = serializers.BooleanField()


class ShowdownLineSerializer(serializers.Serializer):
    """A seat at the end of the hand (``games.engine.audit.AuditHooks.showdown``): its cards and
    ``category`` for a program, the words for a person, and the outcome; a game adds its own
    (a widow hand's ``value`` and ``wild_count``, a draw hand's ``won`` and ``pots``)."""

    seat = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())
    category = serializers.CharField(allow_null=True)
    category_name = serializers.CharField(allow_null=True, required=False)
    description = serializers.CharField()
    outcome = serializers.ChoiceField(choices=["wins", "splits", "returned", "pays", "safe", "loses", "out"])
    tie_break = TieBreakLineSerializer(many=True)
    value = serializers.IntegerField(required=False)
    wild_count = serializers.IntegerField(required=False)
    won = serializers.IntegerField(required=False)
    pots = PotWonSerializer(many=True, required=False)


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
    showdown = ShowdownLineSerializer(many=True)
    result = ResultLineSerializer(many=True)
    transactions = TransactionRecordSerializer(many=True)
    payouts = PayoutRecordSerializer(many=True)
    payout_transactions = TransactionRecordSerializer(many=True)
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


class PayoutTableSerializer(serializers.Serializer):
    """The table a payout is from (``games.audit.payouts.table_summary``); ``missing`` alone with
    ``id`` when the table is gone."""

    id = serializers.CharField()
    missing = serializers.BooleanField(required=False)
    game = serializers.CharField(required=False)
    status = serializers.CharField(required=False)
    players = SeatLineSerializer(many=True, required=False)
    result = ResultLineSerializer(many=True, required=False)
    audit = serializers.CharField(allow_null=True, required=False, help_text="The URL of the last hand's audit.")
    hands = serializers.CharField(required=False, help_text="The URL of the table's hands.")


class PayoutTrailSerializer(PayoutRecordSerializer):
    """A payout as a review shows it: its record and the trail of its pending account."""

    table_id = serializers.UUIDField()
    ledger_trail = TrailLineSerializer(many=True)


class PayoutSerializer(PayoutTrailSerializer):
    table = PayoutTableSerializer(help_text="The table's game, status and result.")


class PayoutsPageSerializer(serializers.Serializer):
    results = PayoutSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()
