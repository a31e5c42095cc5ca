"""Staff payout review over the API: the list (by status and age), the report of what waits, and the
decisions. Parse, call one service, serialise."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api import audit_serializers as a
from api import pagination
from api import serializers as s
from api.serializers import StrictSerializer, WholeNumberField
from api.views import IDEMPOTENCY_KEY, once
from games import audit
from ledger import payouts, records

ERRORS = {400: s.ErrorSerializer, 403: s.ErrorSerializer, 404: s.ErrorSerializer, 409: s.ErrorSerializer}


class ApproveSerializer(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


class RejectSerializer(StrictSerializer):
    # Blank is refused by the service with its own sentence; the document says so with minLength.
    reason = serializers.CharField(allow_blank=True, max_length=500, min_length=1)


# The longest wait a query names, in seconds (ten years): larger is no date the service can hold.
MAX_AGE = 10 * 365 * 86400
OLDER_THAN = OpenApiParameter(
    "older_than",
    {"type": "integer", "minimum": 0, "maximum": MAX_AGE},
    required=False,
    description="Only those that have waited at least this many seconds.",
)


class PayoutsQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=list(records.STATUSES), required=False)
    older_than = WholeNumberField(min_value=0, max_value=MAX_AGE, required=False)
    order = serializers.ChoiceField(choices=["newest", "oldest"], required=False, default="newest")


class PendingAmountSerializer(serializers.Serializer):
    currency = serializers.CharField()
    amount = serializers.CharField(help_text="Decimal string.")
    amount_minor = serializers.IntegerField()


class AgeGroupSerializer(serializers.Serializer):
    age = serializers.ChoiceField(choices=[name for name, _, _ in records.AGES])
    from_seconds = serializers.IntegerField()
    to_seconds = serializers.IntegerField(allow_null=True, help_text="Null: no upper end.")
    payouts = serializers.IntegerField()
    amounts = PendingAmountSerializer(many=True, help_text="What they add up to, per currency.")


class PayoutsReportSerializer(serializers.Serializer):
    pending = serializers.IntegerField(help_text="Payouts waiting for a decision.")
    oldest_at = serializers.DateTimeField(allow_null=True)
    oldest_age_seconds = serializers.FloatField(allow_null=True)
    awaiting_second_approval = serializers.IntegerField(help_text="Approved once, waiting for a second person.")
    by_age = AgeGroupSerializer(many=True)


class PayoutsView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=list(records.STATUSES), required=False),
            OLDER_THAN,
            OpenApiParameter(
                "order", str, enum=["newest", "oldest"], required=False, description="`oldest`: longest waiting first."
            ),
            *pagination.PARAMETERS,
        ],
        responses={200: a.PayoutsPageSerializer, **ERRORS},
        tags=["payouts"],
    )
    def get(self, request):
        """Staff: payouts newest first (or oldest first), with the table's result, players, audit
        link, every decision so far and the ledger trail."""
        # A plain dict: from a QueryDict, DRF would take an empty value (`?status=`) as no value at all.
        query = PayoutsQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        oldest_first = query.validated_data["order"] == "oldest"
        rows = records.payouts(
            status=query.validated_data.get("status"),
            older_than=query.validated_data.get("older_than"),
            oldest_first=oldest_first,
        )
        paginator = pagination.Cursor()
        if oldest_first:
            paginator.ordering = ("created_at", "pk")
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response([audit.payout_json(p) for p in page])


class PayoutsReportView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(responses={200: PayoutsReportSerializer, 403: s.ErrorSerializer}, tags=["payouts"])
    def get(self, request):
        """Staff: the payouts waiting for a decision, by how long they have waited."""
        return Response(records.pending_payouts_by_age())


class ApproveView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        request=ApproveSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: a.PayoutSerializer, **ERRORS},
        tags=["payouts"],
    )
    def post(self, request, payout_id: int):
        """Staff: approve; the money moves to the wallet once the payout has every approval it needs.
        With an ``Idempotency-Key`` a repeat answers the first decision again instead of a 409."""
        body = ApproveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reason = body.validated_data["reason"]
        return _decided(request, "approve_payout", payout_id, reason, payouts.approve)


class RejectView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        request=RejectSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: a.PayoutSerializer, **ERRORS},
        tags=["payouts"],
    )
    def post(self, request, payout_id: int):
        """Staff: reject with a reason; the money goes back to the table's escrow for follow-up.
        With an ``Idempotency-Key`` a repeat answers the first decision again instead of a 409."""
        body = RejectSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reason = body.validated_data["reason"]
        return _decided(request, "reject_payout", payout_id, reason, payouts.reject)


def _decided(request, operation: str, payout_id: int, reason: str, decide) -> Response:
    """One staff decision on a payout, at most once per idempotency key."""

    return once(
        request,
        {"operation": operation, "payout": payout_id, "reason": reason},
        lambda: decide(payout_id=payout_id, by=request.user, reason=reason),
        audit.payout_json,
    )
