"""Game endpoints: parse, call one service or selector, serialise."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils import translation
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api import limits, pagination, sentences
from api import serializers as s
from games import idempotency, play, results, selectors
from games.engine import registry
from games.engine.words import T
from games.errors import InvalidRequest
from ledger import replica

ERRORS = {
    400: s.ErrorSerializer,
    403: s.ErrorSerializer,
    404: s.ErrorSerializer,
    409: s.ErrorSerializer,
    422: s.ErrorSerializer,
}


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Up to 200 characters. A repeat with the same key and body within IDEMPOTENCY_TTL_SECONDS "
    "gets the first answer again, with `Idempotent-Replayed: true`; another body under the key is refused (422).",
)


def idempotency_key(request) -> str | None:
    """The request's ``Idempotency-Key``, if it sent one (at most 200 characters)."""
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 200:
        raise InvalidRequest(T("An Idempotency-Key is at most 200 characters."))
    return key


def replayed_response(body, code: int, replayed: bool) -> Response:
    """The answer, saying so when it is the replay of an earlier one."""
    return Response(body, status=code, headers={"Idempotent-Replayed": "true"} if replayed else None)


def once(
    request,
    operation: Mapping[str, Any],
    run: Callable[[], Any],
    shown: Callable[[Any], dict[str, Any]],
    *,
    status_code: int = 200,
    of_table: bool = False,
) -> Response:
    """``run()`` at most once per the request's ``Idempotency-Key`` (``games.idempotency``), answered
    as ``shown(result)``: a repeat gets the first answer again. ``operation`` is the request as the
    key is kept for (its kind and body); ``of_table``: the result is the table the record is of."""

    def command():
        done = run()
        return status_code, shown(done), done if of_table else None

    code, body, replayed = idempotency.once(
        user=request.user, key=idempotency_key(request), request=operation, run=command
    )
    return replayed_response(body, code, replayed)


def parsed(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class GamesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: inline_serializer(
                "Game",
                {
                    "slug": serializers.CharField(),
                    "name": serializers.CharField(),
                    "players": inline_serializer(
                        "PlayerRange", {"min": serializers.IntegerField(), "max": serializers.IntegerField()}
                    ),
                    "money": serializers.ChoiceField(choices=["chips", "stake"]),
                    "options": inline_serializer(
                        "GameOption",
                        {
                            "name": serializers.CharField(),
                            "label": serializers.CharField(),
                            "type": serializers.ChoiceField(choices=["int", "bool", "choice", "str"]),
                            "default": serializers.JSONField(),
                            "min": serializers.IntegerField(required=False),
                            "max": serializers.IntegerField(required=False),
                            "choices": serializers.ListField(child=serializers.CharField(), required=False),
                            "choice_labels": serializers.DictField(child=serializers.CharField(), required=False),
                            "help": serializers.CharField(required=False),
                            "rules": serializers.ListField(child=serializers.CharField(), required=False),
                        },
                        many=True,
                    ),
                    "refused_combinations": serializers.ListField(child=serializers.CharField()),
                },
                many=True,
            )
        }
    )
    def get(self, request):
        return Response(
            [
                {
                    "slug": game.slug,
                    "name": game.name,
                    "players": {"min": game.min_players, "max": game.max_players},
                    "money": game.money,
                    "options": [option.to_json() for option in game.options],
                    "refused_combinations": list(game.refused_combinations),
                }
                for game in registry.all_games()
            ]
        )


class TablesView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, required=False),
            OpenApiParameter("game", str, required=False),
            *pagination.PARAMETERS,
        ],
        responses={200: s.TableSummaryPageSerializer, 400: s.ErrorSerializer},
        operation_id="v1_tables_list",
    )
    def get(self, request):
        """Open tables and the caller's own, newest first, a page at a time."""
        paginator = pagination.Cursor()
        tables = selectors.tables_for(
            request.user, status=request.query_params.get("status"), game=request.query_params.get("game")
        )
        page = paginator.paginate_queryset(tables, request, view=self)
        return paginator.get_paginated_response([selectors.table_summary(table) for table in page])

    @extend_schema(
        request=s.CreateTableSerializer, parameters=[IDEMPOTENCY_KEY], responses={201: s.TableSerializer, **ERRORS}
    )
    def post(self, request):
        """A new open table. With an ``Idempotency-Key``, a repeat answers the first table again
        (``Idempotent-Replayed: true``) instead of opening a second one."""
        data = parsed(s.CreateTableSerializer, request.data)
        return once(
            request,
            {"operation": "create_table", **data},
            lambda: play.create_table(
                user=request.user, game=data["game"], seats=data["seats"], options=data["options"], stake=data["stake"]
            ),
            lambda table: selectors.table_view(table, None),
            status_code=status.HTTP_201_CREATED,
            of_table=True,
        )


class TableView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False)],
        responses={200: s.TableSerializer, 304: None, 404: s.ErrorSerializer},
    )
    def get(self, request, table_id):
        """The table as the caller sees it, with an ``ETag`` of its version (and of the seating and
        the caller's seat, which change without a version before the start): ``If-None-Match``
        with it answers 304 without a body, before the state is loaded."""
        table = selectors.table_to_view(table_id)
        seat = selectors.seat_among_rows(table, request.user)
        tag = _table_etag(table, table.version, seat)
        if _matches(request.headers.get("If-None-Match"), tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=_cache_headers(tag))
        view = selectors.table_view(table, seat, viewer=request.user)
        # The state may have moved past the row read above: the tag names the version answered.
        return Response(view, headers=_cache_headers(_table_etag(table, view["version"], seat)))


def _table_etag(table, version: int, seat: int | None) -> str:
    seating = hashlib.sha256(json.dumps(selectors.seats(table), sort_keys=True).encode()).hexdigest()[:12]
    # The view's words are in the reader's language: one language's tag never matches another's answer.
    language = translation.get_language() or "en"
    tag = f"{version}.{'-' if seat is None else seat}.{seating}.{language}"
    # A finished table's result says where each prize is: a payout decided changes the view.
    payouts = results.payouts_mark(table)
    return f'W/"{tag}.{payouts}"' if payouts else f'W/"{tag}"'


def _matches(header: str | None, tag: str) -> bool:
    if not header:
        return False
    if header.strip() == "*":
        return True
    # Weak comparison (RFC 9110 13.1.2), as If-None-Match asks.
    return tag.removeprefix("W/") in {etag.removeprefix("W/") for etag in parse_etags(header)}


def _cache_headers(tag: str) -> dict[str, str]:
    # Each person's view differs: a shared cache keeps none, a browser asks again every time.
    return {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": "Authorization, Cookie, Accept-Language"}


class JoinView(APIView):
    @extend_schema(request=s.JoinSerializer, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        data = parsed(s.JoinSerializer, request.data)
        seat = play.join_table(table_id=table_id, user=request.user, seat=data["seat"], chips=data["chips"])
        return Response(selectors.table_view(seat.table, seat.number, viewer=request.user))


class LeaveView(APIView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        s.no_body(request)
        play.leave_table(table_id=table_id, user=request.user)
        table = selectors.get_table(table_id)
        return Response(selectors.table_view(table, selectors.seat_of(table, request.user), viewer=request.user))


class SeatView(APIView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def delete(self, request, table_id, seat):
        """The owner frees a seat before the start; a player's reserved buy-in goes back to them."""
        s.no_body(request)
        table = play.remove_seat(table_id=table_id, user=request.user, seat=seat)
        return Response(selectors.table_view(table, selectors.seat_of(table, request.user), viewer=request.user))


class BotsView(APIView):
    @extend_schema(request=s.JoinSerializer, responses={201: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        data = parsed(s.JoinSerializer, request.data)
        seat = play.add_bot(table_id=table_id, user=request.user, seat=data["seat"])
        return Response(
            selectors.table_view(seat.table, selectors.seat_of(seat.table, request.user), viewer=request.user),
            status=status.HTTP_201_CREATED,
        )


class StartView(APIView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        s.no_body(request)
        outcome = play.start_table(table_id=table_id, user=request.user)
        return Response(
            selectors.table_view(
                outcome.table,
                selectors.seat_of(outcome.table, request.user),
                state=outcome.state,
                next_commitment=outcome.next_commitment,
                viewer=request.user,
            )
        )


class ClientSeedView(APIView):
    @extend_schema(request=s.ClientSeedSerializer, responses={200: s.ClientSeedSerializer, **ERRORS})
    def put(self, request, table_id):
        data = parsed(s.ClientSeedSerializer, request.data)
        seat = play.set_client_seed(table_id=table_id, user=request.user, client_seed=data["client_seed"])
        return Response({"client_seed": seat.client_seed})


class ActionsView(APIView):
    @extend_schema(
        request=s.ActionSerializer, parameters=[IDEMPOTENCY_KEY], responses={200: s.ActionResultSerializer, **ERRORS}
    )
    def post(self, request, table_id):
        data = parsed(s.ActionSerializer, request.data)
        code, body, replayed = play.act(
            table_id=table_id,
            user=request.user,
            action=data["action"],
            expected_version=data["expected_version"],
            idempotency_key=idempotency_key(request),
        )
        return replayed_response(body, code, replayed)


class EventsView(APIView):
    @extend_schema(
        parameters=[s.EventsQuerySerializer], responses={200: s.EventsPageSerializer, 404: s.ErrorSerializer}
    )
    def get(self, request, table_id):
        """The caller's view of the events after ``after`` (or ``cursor``), at most ``limit``;
        ``version`` is never behind the events carried."""
        query = parsed(s.EventsQuerySerializer, request.query_params)
        after = query["cursor"] if query.get("cursor") is not None else query["after"]
        limit = query["limit"]
        # From the replica, but for a long poll: woken by the primary's notice, it reads the primary.
        with replica.reads(request.user, primary=bool(query["wait"])):
            # One statement: the table and its events after the cursor, with its version.
            table, rows = selectors.table_and_events(table_id, after=after, limit=limit + 1)
            if query["wait"] and table.version <= after:
                with limits.waiting_slot(request.user.pk):
                    table = selectors.wait_for_events(table, after, query["wait"])
                table, rows = selectors.table_and_events(table.pk, after=after, limit=limit + 1)
            seat = selectors.seat_among_rows(table, request.user)
            page = selectors.events_page(table, seat, after=after, limit=limit, read=(table, rows))
            if query["sentences"]:
                page["results"] = sentences.with_sentences(table, page["results"])
        return Response(page)
