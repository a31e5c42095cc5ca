"""Hand audits, verification, game recall, hand histories and replays. Parse, call one selector, serialise."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api import audit_serializers as a
from api import pagination
from api import serializers as s
from api.parsers import is_whole_number
from games import audit, selectors
from games.engine.words import T
from ledger import replica

HANDS_DEFAULT_LIMIT = 10

ERRORS = {403: s.ErrorSerializer, 404: s.ErrorSerializer, 409: s.ErrorSerializer}


def _table(request, table_id):
    table = selectors.get_table(table_id)
    audit.check_may_audit(request.user, table)
    return table


class HandsView(APIView):
    @extend_schema(
        parameters=pagination.PARAMETERS,
        responses={200: a.HandsPageSerializer, 400: s.ErrorSerializer, **ERRORS},
        tags=["audit"],
    )
    @replica.from_replica
    def get(self, request, table_id):
        """The table's finished hands, newest first, with the result per seat and links to each audit."""
        table = _table(request, table_id)
        page, next_cursor = pagination.list_page(
            audit.finished_hand_numbers(table), request.query_params, position=str, default=HANDS_DEFAULT_LIMIT
        )
        return Response(pagination.envelope(audit.hand_summaries(table, page), next_cursor))


class HandAuditView(APIView):
    @extend_schema(responses={200: a.HandAuditSerializer, **ERRORS}, tags=["audit"])
    @replica.from_replica
    def get(self, request, table_id, hand_no: int):
        """Everything about a finished hand, unredacted: seeds, deck, events, showdown, ledger, verification."""
        return Response(audit.hand_audit(_table(request, table_id), hand_no))


class HandVerifyView(APIView):
    @extend_schema(responses={200: a.VerificationSerializer, **ERRORS}, tags=["audit"])
    @replica.from_replica
    def get(self, request, table_id, hand_no: int):
        """Each check of a finished hand by name, pass / fail / skip, and what differs."""
        return Response(audit.verify_hand(_table(request, table_id), hand_no).as_json())


class HandHistoryView(APIView):
    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, **ERRORS}, tags=["audit"])
    @replica.from_replica
    def get(self, request, table_id, hand_no: int):
        """The hand's history in plain text, one line per action."""
        text = audit.hand_history(_table(request, table_id), hand_no)
        return HttpResponse(text, content_type="text/plain; charset=utf-8")


class HandPhhView(APIView):
    @extend_schema(responses={(200, "application/toml"): OpenApiTypes.STR, **ERRORS}, tags=["audit"])
    @replica.from_replica
    def get(self, request, table_id, hand_no: int):
        """The hand in the Poker Hand History format, for games that provide it."""
        text = audit.hand_phh(_table(request, table_id), hand_no)
        return HttpResponse(text, content_type="application/toml; charset=utf-8")


class ReplayView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("version", int, required=False)],
        responses={200: a.ReplaySerializer, 400: s.ErrorSerializer, **ERRORS},
        tags=["audit"],
    )
    @replica.from_replica
    def get(self, request, table_id):
        """The spectator's view of a finished table (staff: any table) just after event ``version``."""
        raw = request.query_params.get("version")
        if raw is not None and not is_whole_number(raw):
            from games.errors import InvalidRequest

            raise InvalidRequest(
                T("'version' must be a whole number, not {version}.", version=repr(raw)), field="version"
            )
        table = selectors.get_table(table_id)
        return Response(audit.replay_view(table, request.user, int(raw) if raw is not None else None))


__all__ = ["HandAuditView", "HandHistoryView", "HandPhhView", "HandVerifyView", "HandsView", "ReplayView"]
