"""Staff payout review over the API. Parse, call one service, serialise."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api import audit_serializers as a
from api import pagination
from api import serializers as s
from api.serializers import StrictSerializer
from api.views import IDEMPOTENCY_KEY, once
from games import audit
from ledger import payouts, records

ERRORS = {400: s.ErrorSerializer, 403: s.ErrorSerializer, 404: s.ErrorSerializer, 409: s.ErrorSerializer}


class ApproveSerializer(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


class RejectSerializer(StrictSerializer):
    # Blank is refused by the service with its own sentence; the document says so with minLength.
    reason = serializers.CharField(allow_blank=True, max_length=500, min_length=1)


class PayoutsView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=list(records.STATUSES), required=False),
            *pagination.PARAMETERS,
        ],
        responses={200: a.PayoutsPageSerializer, **ERRORS},
        tags=["payouts"],
    )
    def get(self, request):
        """Staff: payouts newest first, with the table's result, players, audit link and ledger trail."""
        paginator = pagination.Cursor()
        rows = paginator.paginate_queryset(
            records.payouts(status=request.query_params.get("status")), request, view=self
        )
        return paginator.get_paginated_response([audit.payout_json(p) for p in rows])


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
