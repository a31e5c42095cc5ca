"""Disputed hands over the API: a player files and follows their disputes; auditors see the queue,
review a dispute with the player's own views of the hand, take and decide it; staff approve a
compensation above the two-person limit and read the report. Parse, call one service, serialise."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api import audit_serializers as a
from api import pagination
from api import serializers as s
from api.ledger_serializers import DecimalStringField
from api.payout_views import MAX_AGE, OLDER_THAN
from api.serializers import StrictSerializer, WholeNumberField, no_body
from api.views import IDEMPOTENCY_KEY, once
from games.disputes import selectors as disputes
from games.disputes import services as dispute_services
from games.disputes.models import Dispute, DisputeStep
from ledger import replica

ERRORS = {400: s.ErrorSerializer, 403: s.ErrorSerializer, 404: s.ErrorSerializer, 409: s.ErrorSerializer}
# Deciding and approving a compensation: refused over its bound or past the house's budget.
COMPENSATION_REFUSED = {
    422: OpenApiResponse(
        s.ErrorSerializer,
        description="`compensation_over_bound` (more than the player lost on the hand, or at the table, less "
        "what was upheld for it already: `bound`, `lost`, `compensated`, `currency`; refer the dispute instead), "
        "`compensation_budget_exceeded` (past "
        "`DISPUTE_COMPENSATION_BUDGET`: `budget`, `left`, `currency`), or `idempotency_key_reused`.",
    )
}


# --- requests -----------------------------------------------------------------------------------


class FileSerializer(StrictSerializer):
    table_id = serializers.CharField(max_length=64)
    hand_no = serializers.IntegerField(min_value=1, max_value=1_000_000)
    category = serializers.ChoiceField(choices=Dispute.Category.values)
    words = serializers.CharField(max_length=2000, help_text="What was wrong, in the player's words.")
    payout_id = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1)


class DecideSerializer(StrictSerializer):
    outcome = serializers.ChoiceField(choices=Dispute.Outcome.values)
    reasons = serializers.CharField(max_length=2000, help_text="The reasons the player reads.")
    compensation = DecimalStringField(
        required=False, default=None, help_text='Upheld: a decimal string in the table\'s currency, "12.50".'
    )
    referral = serializers.ChoiceField(
        choices=list(dispute_services.REFERRALS), required=False, allow_null=True, default=None
    )
    referral_note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class CompensationApprovalSerializer(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


class DeclineSerializer(StrictSerializer):
    # Blank is refused by the service with its own sentence; the document says so with minLength.
    reason = serializers.CharField(allow_blank=True, max_length=500, min_length=1)


# --- answers ------------------------------------------------------------------------------------


class StepDataSerializer(serializers.Serializer):
    """A step's facts (``games.disputes.services._step``), each present for the kinds that record it."""

    category = serializers.CharField(required=False, help_text="filed")
    payout = serializers.IntegerField(required=False, allow_null=True, help_text="filed: the payout disputed")
    payouts = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="payouts held or released"
    )
    outcome = serializers.CharField(required=False, help_text="decided")
    compensation = serializers.CharField(required=False, allow_null=True, help_text="Decimal string.")
    compensation_minor = serializers.IntegerField(required=False)
    currency = serializers.CharField(required=False, allow_null=True)
    referral = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    approval = serializers.IntegerField(required=False, help_text="compensation approved: which approval")
    transaction = serializers.IntegerField(required=False, help_text="compensation paid")
    amount = serializers.CharField(required=False, help_text="Decimal string.")
    amount_minor = serializers.IntegerField(required=False)


class StepSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DisputeStep.Kind.values)
    by = serializers.CharField(allow_null=True, help_text="Who; null for the service itself.")
    at = serializers.DateTimeField()
    reason = serializers.CharField(allow_blank=True)
    data = StepDataSerializer()


class DisputeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table_id = serializers.UUIDField()
    game = serializers.CharField()
    hand_no = serializers.IntegerField()
    payout_id = serializers.IntegerField(allow_null=True)
    player = serializers.CharField()
    seat = serializers.IntegerField()
    category = serializers.ChoiceField(choices=Dispute.Category.values)
    words = serializers.CharField()
    filed_at = serializers.DateTimeField()
    state = serializers.ChoiceField(choices=Dispute.State.values)
    state_text = serializers.CharField(help_text="Where the dispute stands, in a sentence for its player.")
    outcome = serializers.ChoiceField(choices=Dispute.Outcome.values, allow_null=True)
    reasons = serializers.CharField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    taken_by = serializers.CharField(allow_null=True)
    compensation = serializers.CharField(allow_null=True, help_text="Decimal string; null without one.")
    compensation_minor = serializers.IntegerField()
    currency = serializers.CharField(allow_null=True)
    approvals_needed = serializers.IntegerField()
    transaction_id = serializers.IntegerField(allow_null=True)
    referral = serializers.CharField(allow_null=True)
    referral_note = serializers.CharField(allow_null=True)
    steps = StepSerializer(many=True)
    links = serializers.DictField(child=serializers.CharField())
    you_played = serializers.BooleanField(
        required=False, help_text="Auditors: whether you played at the table (then you cannot review it)."
    )


class DisputesPageSerializer(serializers.Serializer):
    results = DisputeSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()


class PlayerViewSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    event = s.EventSerializer()
    table = s.TableSerializer()


class CompensationLimitsSerializer(serializers.Serializer):
    currency = serializers.CharField()
    bound = serializers.CharField(
        help_text="The most this dispute can be compensated: what is left of `lost` after `compensated`."
    )
    bound_minor = serializers.IntegerField()
    lost = serializers.CharField(
        help_text="What the player lost on the hand (at the table, for a table-level claim); 0 for a winner."
    )
    lost_minor = serializers.IntegerField()
    compensated = serializers.CharField(
        help_text="The player's other compensations on the hand (or table), decided or paid, already counted."
    )
    compensated_minor = serializers.IntegerField()
    budget_left = serializers.CharField(help_text="What the house compensation budget can still pay.")
    budget_left_minor = serializers.IntegerField()
    two_person_limit = serializers.CharField(
        help_text="Above this, `compensated` and the new compensation together wait for a second approver."
    )
    two_person_limit_minor = serializers.IntegerField()


class TimersSerializer(serializers.Serializer):
    turn_seconds = serializers.IntegerField(allow_null=True, help_text="The table's turn timer; null without one.")


class ReviewSerializer(serializers.Serializer):
    dispute = DisputeSerializer()
    audit = a.HandAuditSerializer()
    player_views = PlayerViewSerializer(many=True)
    timers = TimersSerializer()
    payouts = a.PayoutTrailSerializer(many=True)
    compensation_limits = CompensationLimitsSerializer(
        allow_null=True, help_text="Above the bound, only a referral; null at a table without money."
    )


class CompensatedSerializer(serializers.Serializer):
    currency = serializers.CharField()
    amount = serializers.CharField()
    amount_minor = serializers.IntegerField()
    disputes = serializers.IntegerField()


class DecisionTimesSerializer(serializers.Serializer):
    median = serializers.FloatField(allow_null=True)
    mean = serializers.FloatField(allow_null=True)


class ReportSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    by_category = serializers.DictField(child=serializers.IntegerField())
    by_state = serializers.DictField(child=serializers.IntegerField())
    decided = serializers.IntegerField()
    upheld = serializers.IntegerField()
    rejected = serializers.IntegerField()
    share_upheld = serializers.FloatField(allow_null=True)
    time_to_decision_seconds = DecisionTimesSerializer()
    compensated = CompensatedSerializer(many=True)


# --- views --------------------------------------------------------------------------------------


def _page(request, rows):
    page, next_cursor = pagination.list_page(rows, request.query_params, position=lambda d: str(d.pk))
    return Response(pagination.envelope([disputes.dispute_json(d, viewer=request.user) for d in page], next_cursor))


def _shown(request):
    """A dispute as the caller sees it."""
    return lambda dispute: disputes.dispute_json(dispute, viewer=request.user)


class DisputesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=pagination.PARAMETERS,
        responses={200: DisputesPageSerializer, 400: s.ErrorSerializer},
        tags=["disputes"],
    )
    @replica.from_replica
    def get(self, request):
        """Your disputes, newest first, each with its state, the decision's reasons and every step."""
        return _page(request, disputes.mine(request.user))

    @extend_schema(
        request=FileSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: DisputeSerializer, **ERRORS},
        tags=["disputes"],
    )
    def post(self, request):
        """Dispute a finished hand you played (or your payout of the table) within the window."""
        body = FileSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = body.validated_data

        return once(
            request,
            {"operation": "file_dispute", **fields},
            lambda: dispute_services.file(user=request.user, **fields),
            _shown(request),
            status_code=201,
        )


class QueueQuerySerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=list(disputes.QUEUE_STATES), required=False)
    category = serializers.ChoiceField(choices=Dispute.Category.values, required=False)
    table = serializers.UUIDField(required=False)
    game = serializers.CharField(max_length=40, required=False)
    older_than = WholeNumberField(min_value=0, max_value=MAX_AGE, required=False)


class QueueView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("state", str, enum=list(disputes.QUEUE_STATES), required=False),
            OpenApiParameter("category", str, enum=Dispute.Category.values, required=False),
            OpenApiParameter(
                "table", {"type": "string", "format": "uuid"}, required=False, description="A table's id."
            ),
            OpenApiParameter("game", str, required=False, description="A game's slug, e.g. `euchre`."),
            OLDER_THAN,
            *pagination.PARAMETERS,
        ],
        responses={200: DisputesPageSerializer, 400: s.ErrorSerializer, 403: s.ErrorSerializer},
        tags=["disputes"],
    )
    @replica.from_replica
    def get(self, request):
        """Auditors and staff: the disputes not yet settled, oldest first, filtered by each of state,
        category, table, game and age that is named; never those of a table you played at."""
        # A plain dict: from a QueryDict, DRF would take an empty value (`?table=`) as no value at all.
        query = QueueQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        found = query.validated_data
        rows = disputes.queue(
            request.user,
            state=found.get("state"),
            category=found.get("category"),
            table_id=found.get("table"),
            game=found.get("game"),
            older_than=found.get("older_than"),
        )
        return _page(request, rows)


class ReportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ReportSerializer, 403: s.ErrorSerializer}, tags=["disputes"])
    @replica.from_replica
    def get(self, request):
        """Staff: disputes by category and state, time to decision, share upheld, money compensated."""
        return Response(disputes.report(request.user))


class DisputeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: DisputeSerializer, 404: s.ErrorSerializer}, tags=["disputes"])
    @replica.from_replica
    def get(self, request, dispute_id: int):
        """One dispute, for its player, and auditors and staff who did not play at its table (404 for
        anyone else): its state, the decision and every step."""
        return Response(disputes.dispute_json(disputes.get(dispute_id, request.user), viewer=request.user))


class ReviewView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ReviewSerializer, **ERRORS}, tags=["disputes"])
    @replica.from_replica
    def get(self, request, dispute_id: int):
        """Auditors who did not play at the table: the dispute, the hand's audit and verification, the
        disputing player's own view after every event of the hand, the timer and the table's payouts."""
        return Response(disputes.review(dispute_id, request.user))


class TakeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, parameters=[IDEMPOTENCY_KEY], responses={200: DisputeSerializer, **ERRORS}, tags=["disputes"]
    )
    def post(self, request, dispute_id: int):
        """Auditors who did not play at the table: take an open dispute for review."""
        no_body(request)
        return once(
            request,
            {"operation": "take_dispute", "dispute": dispute_id},
            lambda: dispute_services.take(dispute_id=dispute_id, by=request.user),
            _shown(request),
        )


class DecideView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=DecideSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: DisputeSerializer, **ERRORS, **COMPENSATION_REFUSED},
        tags=["disputes"],
    )
    def post(self, request, dispute_id: int):
        """Auditors: uphold (with a compensation, a referral or both) or reject, with reasons. A
        compensation above the two-person limit waits for a second member of staff."""
        body = DecideSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = body.validated_data
        return once(
            request,
            {"operation": "decide_dispute", "dispute": dispute_id, **fields},
            lambda: dispute_services.decide(dispute_id=dispute_id, by=request.user, **fields),
            _shown(request),
        )


class ApproveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=CompensationApprovalSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: DisputeSerializer, **ERRORS, **COMPENSATION_REFUSED},
        tags=["disputes"],
    )
    def post(self, request, dispute_id: int):
        """Staff, a second person: approve an upheld dispute's compensation; it is paid once approved."""
        body = CompensationApprovalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reason = body.validated_data["reason"]
        return once(
            request,
            {"operation": "approve_compensation", "dispute": dispute_id, "reason": reason},
            lambda: dispute_services.approve_compensation(dispute_id=dispute_id, by=request.user, reason=reason),
            _shown(request),
        )


class DeclineView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=DeclineSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: DisputeSerializer, **ERRORS},
        tags=["disputes"],
    )
    def post(self, request, dispute_id: int):
        """Staff, a second person: decline an upheld dispute's compensation, with a reason; the dispute
        goes back to its auditor to be decided again."""
        body = DeclineSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reason = body.validated_data["reason"]
        return once(
            request,
            {"operation": "decline_compensation", "dispute": dispute_id, "reason": reason},
            lambda: dispute_services.decline_compensation(dispute_id=dispute_id, by=request.user, reason=reason),
            _shown(request),
        )
