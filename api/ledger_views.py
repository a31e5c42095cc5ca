"""Wallets, the caller's transactions, and staff deposits (large ones listed, approved and rejected
by a second member of staff). Parse, call one service, serialise."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.ledger_serializers import (
    DepositResultSerializer,
    DepositSerializer,
    ErrorSerializer,
    MyPayoutsPageSerializer,
    PendingDepositsPageSerializer,
    TransactionSerializer,
    WalletLinesPageSerializer,
    WalletsSerializer,
)
from api.pagination import PARAMETERS, Cursor, envelope, list_page
from api.payout_views import RejectSerializer
from api.serializers import no_body
from games import wallet
from games.engine.words import T
from ledger import records, selectors, services
from ledger.errors import NotFound
from ledger.keys import wallet_key
from ledger.selectors import Balance

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="Repeat a request with the same key to get the first result instead of acting twice.",
)


# A second member of staff's decision on a large deposit: the transaction that moved its money.
DEPOSIT_DECIDED = {
    201: TransactionSerializer,
    403: OpenApiResponse(ErrorSerializer, description="Not staff."),
    404: OpenApiResponse(ErrorSerializer, description="No such pending deposit."),
    409: OpenApiResponse(
        ErrorSerializer, description="The decider recorded it or receives it, or someone already decided it."
    ),
}


class MyWalletsView(APIView):
    @extend_schema(operation_id="wallets_me", responses={200: WalletsSerializer}, tags=["ledger"])
    def get(self, request: Request) -> Response:
        """The caller's balance in each currency."""
        return Response(WalletsSerializer({"wallets": selectors.balances(user=request.user)}).data)


@extend_schema(tags=["ledger"], parameters=PARAMETERS)
class MyTransactionsView(generics.ListAPIView):
    """The caller's transactions, newest first, each with all its postings."""

    serializer_class = TransactionSerializer
    pagination_class = Cursor

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.transactions_for(user=self.request.user)


class MyWalletLinesView(APIView):
    @extend_schema(
        parameters=PARAMETERS,
        responses={200: WalletLinesPageSerializer, 400: ErrorSerializer},
        tags=["ledger"],
    )
    def get(self, request: Request) -> Response:
        """Every movement of your wallets, newest first, in words: what moved and why, the balance
        after it and the table it was for."""
        paginator = Cursor()
        paginator.ordering = ("-pk",)
        page = paginator.paginate_queryset(wallet.lines(request.user), request, view=self)
        return paginator.get_paginated_response(wallet.lines_json(page))


class MyPayoutsView(APIView):
    @extend_schema(
        parameters=PARAMETERS,
        responses={200: MyPayoutsPageSerializer, 400: ErrorSerializer},
        tags=["payouts"],
    )
    def get(self, request: Request) -> Response:
        """Your payouts, newest first: each table's prize for your seat, whether it waits for staff
        review, was paid into your wallet or was rejected, and the decision's reason."""
        paginator = Cursor()
        page = paginator.paginate_queryset(wallet.payouts(request.user), request, view=self)
        return paginator.get_paginated_response(wallet.payouts_json(page))


class DepositView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        operation_id="wallets_deposit",
        request=DepositSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: DepositResultSerializer,
            202: OpenApiResponse(description="Above DEPOSIT_TWO_PERSON_LIMIT: pending a second member of staff."),
            400: OpenApiResponse(ErrorSerializer, description="Bad currency or amount."),
            403: OpenApiResponse(ErrorSerializer, description="Not staff, or into one's own wallet."),
            404: OpenApiResponse(ErrorSerializer, description="No such user."),
            422: OpenApiResponse(ErrorSerializer, description="Idempotency key reused with another body."),
        },
        tags=["ledger"],
    )
    def post(self, request: Request, username: str) -> Response:
        """Staff: record money that came in from outside into a user's wallet."""
        body = DepositSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise NotFound(T("No user named {username}.", username=repr(username)))
        currency, minor = body.validated_data["currency"], body.validated_data["amount_minor"]
        txn = services.deposit(
            user=user,
            currency=currency,
            amount_minor=minor,
            by=request.user,
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        if txn.kind == services.PENDING_DEPOSIT:
            # Above DEPOSIT_TWO_PERSON_LIMIT: recorded, not yet in the wallet.
            pending = {"transaction": TransactionSerializer(txn).data, "pending_deposit": txn.reference.split(":")[1]}
            return Response(pending, status=status.HTTP_202_ACCEPTED)
        wallet = Balance(currency, selectors.balance_of(key=wallet_key(user.pk, currency)))
        result = DepositResultSerializer({"transaction": txn, "wallet": wallet})
        return Response(result.data, status=status.HTTP_201_CREATED)


class ApproveDepositView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        operation_id="deposits_approve",
        request=None,
        responses=DEPOSIT_DECIDED,
        tags=["ledger"],
    )
    def post(self, request: Request, deposit_id: str) -> Response:
        """Staff: a second member of staff approves a large deposit; the money reaches the wallet."""
        no_body(request)
        txn = services.approve_deposit(deposit_id=deposit_id, by=request.user)
        return Response(TransactionSerializer(txn).data, status=status.HTTP_201_CREATED)


class DepositsView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        operation_id="deposits_list",
        parameters=[
            OpenApiParameter("state", str, enum=list(records.DEPOSIT_STATES), required=False),
            *PARAMETERS,
        ],
        responses={
            200: PendingDepositsPageSerializer,
            400: OpenApiResponse(ErrorSerializer, description="An unknown state, limit or cursor."),
            403: OpenApiResponse(ErrorSerializer, description="Not staff."),
        },
        tags=["ledger"],
    )
    def get(self, request: Request) -> Response:
        """Staff: deposits above DEPOSIT_TWO_PERSON_LIMIT, oldest first; ``state=pending`` for those
        waiting for a second member of staff."""
        rows = records.deposit_records(state=request.query_params.get("state"))
        page, next_cursor = list_page(rows, request.query_params, position=lambda row: row["id"])
        return Response(envelope(page, next_cursor))


class RejectDepositView(APIView):
    permission_classes = [IsAuthenticated, IsAdminUser]

    @extend_schema(
        operation_id="deposits_reject",
        request=RejectSerializer,
        responses={**DEPOSIT_DECIDED, 400: OpenApiResponse(ErrorSerializer, description="No reason given.")},
        tags=["ledger"],
    )
    def post(self, request: Request, deposit_id: str) -> Response:
        """Staff: a second member of staff rejects a large deposit with a reason; its money goes back
        to house cash (a ``deposit_rejected`` transaction whose memo is the reason)."""
        body = RejectSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        reason = body.validated_data["reason"]
        txn = services.reject_deposit(deposit_id=deposit_id, by=request.user, reason=reason)
        return Response(TransactionSerializer(txn).data, status=status.HTTP_201_CREATED)
