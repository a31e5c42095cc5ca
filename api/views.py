"""Game endpoints: parse, call one service or selector, serialise."""

from __future__ import annotations

import hashlib
import json

from django.contrib.auth import authenticate, get_user_model
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api import limits
from api import serializers as s
from games import selectors, services
from games.engine import registry
from games.errors import InvalidRequest, ServiceError

ERRORS = {
    400: s.ErrorSerializer,
    403: s.ErrorSerializer,
    404: s.ErrorSerializer,
    409: s.ErrorSerializer,
    422: s.ErrorSerializer,
}


def parsed(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class RegisterView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = limits.LOGIN_THROTTLES

    @extend_schema(request=s.RegisterSerializer, responses={201: s.TokenSerializer, 400: s.ErrorSerializer})
    def post(self, request):
        data = parsed(s.RegisterSerializer, request.data)
        user = get_user_model().objects.create_user(
            username=data["username"], password=data["password"], email=data.get("email", "")
        )
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"username": user.username, "token": token.key}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = limits.LOGIN_THROTTLES

    @extend_schema(request=s.TokenRequestSerializer, responses={200: s.TokenSerializer, 400: s.ErrorSerializer})
    def post(self, request):
        data = parsed(s.TokenRequestSerializer, request.data)
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None:
            raise ServiceError("Wrong username or password.", code="authentication_failed")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"username": user.username, "token": token.key})


class GamesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: inline_serializer(
                "Game", {"slug": serializers.CharField(), "name": serializers.CharField()}, many=True
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
        parameters=[OpenApiParameter("status", str, required=False), OpenApiParameter("game", str, required=False)],
        responses={200: s.TableSerializer(many=True)},
    )
    def get(self, request):
        tables = selectors.tables_for(
            request.user, status=request.query_params.get("status"), game=request.query_params.get("game")
        )[:100]
        return Response([_summary(table) for table in tables])

    @extend_schema(request=s.CreateTableSerializer, responses={201: s.TableSerializer, **ERRORS})
    def post(self, request):
        data = parsed(s.CreateTableSerializer, request.data)
        table = services.create_table(
            user=request.user, game=data["game"], seats=data["seats"], options=data["options"], stake=data["stake"]
        )
        return Response(selectors.table_view(table, None), status=status.HTTP_201_CREATED)


def _summary(table) -> dict:
    return {
        "id": str(table.pk),
        "game": table.game,
        "status": table.status,
        "seats": table.seats,
        "version": table.version,
        "owner": table.owner.username,
        "currency": table.currency or None,
        "created_at": table.created_at.isoformat(),
    }


class TableView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False)],
        responses={200: s.TableSerializer, 304: None, 404: s.ErrorSerializer},
    )
    def get(self, request, table_id):
        """The table as the caller sees it, with an ``ETag`` of its version (and of the seating and
        the caller's seat, which change without a version before the start): ``If-None-Match``
        with it answers 304 without a body, before the state is loaded."""
        table = selectors.get_table(table_id)
        seat = selectors.seat_of(table, request.user)
        tag = _table_etag(table, table.version, seat)
        if _matches(request.headers.get("If-None-Match"), tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=_cache_headers(tag))
        view = selectors.table_view(table, seat)
        # The state may have moved past the row read above: the tag names the version answered.
        return Response(view, headers=_cache_headers(_table_etag(table, view["version"], seat)))


def _table_etag(table, version: int, seat: int | None) -> str:
    seating = hashlib.sha256(json.dumps(selectors.seats(table), sort_keys=True).encode()).hexdigest()[:12]
    return f'W/"{version}.{"-" if seat is None else seat}.{seating}"'


def _matches(header: str | None, tag: str) -> bool:
    if not header:
        return False
    if header.strip() == "*":
        return True
    # Weak comparison (RFC 9110 13.1.2), as If-None-Match asks.
    return tag.removeprefix("W/") in {etag.removeprefix("W/") for etag in parse_etags(header)}


def _cache_headers(tag: str) -> dict[str, str]:
    # Each person's view differs: a shared cache keeps none, a browser asks again every time.
    return {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": "Authorization, Cookie"}


class JoinView(APIView):
    @extend_schema(request=s.JoinSerializer, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        data = parsed(s.JoinSerializer, request.data or {})
        seat = services.join_table(table_id=table_id, user=request.user, seat=data["seat"], chips=data["chips"])
        return Response(selectors.table_view(seat.table, seat.number))


class LeaveView(APIView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        services.leave_table(table_id=table_id, user=request.user)
        table = selectors.get_table(table_id)
        return Response(selectors.table_view(table, selectors.seat_of(table, request.user)))


class SeatView(APIView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def delete(self, request, table_id, seat):
        """The owner frees a seat before the start; a player's reserved buy-in goes back to them."""
        table = services.remove_seat(table_id=table_id, user=request.user, seat=seat)
        return Response(selectors.table_view(table, selectors.seat_of(table, request.user)))


class BotsView(APIView):
    @extend_schema(request=s.JoinSerializer, responses={201: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        data = parsed(s.JoinSerializer, request.data or {})
        seat = services.add_bot(table_id=table_id, user=request.user, seat=data["seat"])
        return Response(
            selectors.table_view(seat.table, selectors.seat_of(seat.table, request.user)),
            status=status.HTTP_201_CREATED,
        )


class StartView(APIView):
    @extend_schema(request=None, responses={200: s.TableSerializer, **ERRORS})
    def post(self, request, table_id):
        outcome = services.start_table(table_id=table_id, user=request.user)
        return Response(
            selectors.table_view(
                outcome.table,
                selectors.seat_of(outcome.table, request.user),
                state=outcome.state,
                next_commitment=outcome.next_commitment,
            )
        )


class ClientSeedView(APIView):
    @extend_schema(request=s.ClientSeedSerializer, responses={200: s.ClientSeedSerializer, **ERRORS})
    def put(self, request, table_id):
        data = parsed(s.ClientSeedSerializer, request.data)
        seat = services.set_client_seed(table_id=table_id, user=request.user, client_seed=data["client_seed"])
        return Response({"client_seed": seat.client_seed})


class ActionsView(APIView):
    @extend_schema(
        request=s.ActionSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
        responses={200: s.ActionResultSerializer, **ERRORS},
    )
    def post(self, request, table_id):
        data = parsed(s.ActionSerializer, request.data)
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > 200:
            raise InvalidRequest("An Idempotency-Key is at most 200 characters.")
        code, body, replayed = services.act(
            table_id=table_id,
            user=request.user,
            action=data["action"],
            expected_version=data["expected_version"],
            idempotency_key=key,
        )
        return Response(body, status=code, headers={"Idempotent-Replayed": "true"} if replayed else None)


class EventsView(APIView):
    @extend_schema(
        parameters=[s.EventsQuerySerializer], responses={200: s.EventSerializer(many=True), 404: s.ErrorSerializer}
    )
    def get(self, request, table_id):
        query = parsed(s.EventsQuerySerializer, request.query_params)
        table = selectors.get_table(table_id)
        if query["wait"] and table.version <= query["after"]:
            with limits.waiting_slot(request.user.pk):
                table = selectors.wait_for_events(table, query["after"], query["wait"])
        events = selectors.events_view(table, selectors.seat_of(table, request.user), after=query["after"])
        return Response({"version": table.version, "events": events})
