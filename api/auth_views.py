"""Accounts and the ways to prove who one is: per-device tokens (django-rest-knox) that expire and
can be revoked one by one or all at once, and a Django session for a same-origin browser app."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, login, logout
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import transaction
from django.db.models import Q
from django.middleware.csrf import get_token
from django.utils import timezone
from drf_spectacular.utils import extend_schema, inline_serializer
from knox.models import AuthToken
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api import limits, pagination
from api import serializers as s
from api.authentication import SESSION_BACKEND, SessionAuthentication
from api.models import TokenDevice
from games import notify
from games.disputes.services import is_auditor
from games.engine.words import T
from games.errors import InvalidRequest, NotFound, ServiceError

# A token's public id: the start of the hash knox stores (never the token, nor any part of it).
ID_LENGTH = 16
_ID = re.compile(rf"^[0-9a-f]{{{ID_LENGTH}}}$")


def rfc3339(moment: datetime | None) -> str | None:
    """``2026-12-01T10:00:00Z``: UTC, whole seconds."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


def token_id(token: AuthToken) -> str:
    return token.digest[:ID_LENGTH]


def _device_name(token: AuthToken) -> str:
    device = getattr(token, "device", None)
    return device.name if device else ""


def max_tokens() -> int:
    """The most tokens one person holds (``MAX_TOKENS_PER_PERSON``); a new one revokes the oldest."""
    return max(1, int(settings.MAX_TOKENS_PER_PERSON))


def issue_token(request, user, device: str) -> dict:
    """A new token for one device of ``user``, with its expiry (``TOKEN_TTL_HOURS`` from now). At
    ``MAX_TOKENS_PER_PERSON`` the person's oldest tokens are revoked first (their streams end)."""
    with transaction.atomic():
        # The person's row lock serialises their logins: of two at once at the cap, the second
        # counts the first one's token and revokes one more, so the count never passes the cap.
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
        held = AuthToken.objects.filter(user=user).order_by("-created", "-digest").values_list("digest", flat=True)
        oldest = list(held[max_tokens() - 1 :])
        if oldest:
            AuthToken.objects.filter(digest__in=oldest).delete()
            notify.rights_changed(user.pk)
        instance, key = AuthToken.objects.create(user=user)
        TokenDevice.objects.create(token=instance, name=device.strip())
    return {
        "username": user.get_username(),
        "token": key,
        "id": token_id(instance),
        "device": device.strip(),
        "expiry": rfc3339(instance.expiry),
    }


def _check_password(request, username: str, password: str):
    user = authenticate(request._request, username=username, password=password)
    if user is None:
        raise ServiceError(T("Wrong username or password."), code="authentication_failed")
    return user


class RegisterView(APIView):
    # No authentication: a stale token still sent by habit must not stand in the way of a new one.
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = limits.LOGIN_THROTTLES

    @extend_schema(
        request=s.RegisterSerializer, responses={201: s.TokenSerializer, 400: s.ErrorSerializer}, tags=["auth"]
    )
    def post(self, request):
        """A new account, and a token for the device that registered it."""
        data = s.RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=fields["username"], password=fields["password"], email=fields.get("email", "")
            )
            body = issue_token(request, user, fields["device"])
        return Response(body, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    # No authentication: a client whose token expired logs in again with the old header still set.
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = limits.LOGIN_THROTTLES

    @extend_schema(
        request=s.TokenRequestSerializer, responses={200: s.TokenSerializer, 400: s.ErrorSerializer}, tags=["auth"]
    )
    def post(self, request):
        """A new token for one device (``device`` names it), expiring after ``TOKEN_TTL_HOURS``.
        Every call makes another token; the others stay valid until they expire or are revoked."""
        data = s.TokenRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        user = _check_password(request, fields["username"], fields["password"])
        body = issue_token(request, user, fields["device"])
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        return Response(body)


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None, 400: s.ErrorSerializer, 401: s.ErrorSerializer}, tags=["auth"])
    def post(self, request):
        """Revoke the token this request was made with; the device's other tokens stay valid. Its
        open streams end within a second."""
        s.no_body(request)
        if not isinstance(request.auth, AuthToken):
            raise InvalidRequest(
                T("This request was not made with a token; a browser session ends with DELETE auth/session/.")
            )
        request.auth.delete()
        notify.rights_changed(request.user.pk)
        user_logged_out.send(sender=request.user.__class__, request=request._request, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(APIView):
    @extend_schema(
        request=None,
        responses={200: inline_serializer("Revoked", {"revoked": serializers.IntegerField()}), 401: s.ErrorSerializer},
        tags=["auth"],
    )
    def post(self, request):
        """Revoke every token of the caller, on every device, this one included, and end their
        open streams within a second."""
        s.no_body(request)
        revoked = AuthToken.objects.filter(user=request.user).count()
        AuthToken.objects.filter(user=request.user).delete()
        notify.rights_changed(request.user.pk)
        user_logged_out.send(sender=request.user.__class__, request=request._request, user=request.user)
        return Response({"revoked": revoked})


class TokensView(APIView):
    @extend_schema(
        parameters=pagination.PARAMETERS,
        responses={200: s.DevicePageSerializer, 400: s.ErrorSerializer, 401: s.ErrorSerializer},
        tags=["auth"],
    )
    def get(self, request):
        """The caller's tokens that have not expired, newest first, a page at a time: which device,
        when made, when they expire. Never the token itself."""
        tokens = (
            AuthToken.objects.filter(user=request.user)
            .filter(Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()))
            .select_related("device")
        )
        paginator = pagination.Cursor()
        paginator.ordering = ("-created", "-digest")
        page = paginator.paginate_queryset(tokens, request, view=self)
        current = request.auth.digest if isinstance(request.auth, AuthToken) else None
        return paginator.get_paginated_response(
            [
                {
                    "id": token_id(token),
                    "device": _device_name(token),
                    "created": rfc3339(token.created),
                    "expiry": rfc3339(token.expiry),
                    "current": token.digest == current,
                }
                for token in page
            ]
        )


class TokenItemView(APIView):
    @extend_schema(request=None, responses={204: None, 401: s.ErrorSerializer, 404: s.ErrorSerializer}, tags=["auth"])
    def delete(self, request, token_id: str):
        """Revoke one of the caller's tokens (a lost phone): the next request made with it gets 401,
        and its open streams end within a second."""
        s.no_body(request)
        found = (
            list(AuthToken.objects.filter(user=request.user, digest__startswith=token_id)[:2])
            if _ID.match(token_id)
            else []
        )
        if len(found) != 1:
            raise NotFound(T("You have no token {token}; auth/tokens/ lists yours.", token=token_id))
        found[0].delete()
        notify.rights_changed(request.user.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionView(APIView):
    """A Django session for a browser app served from the API's own origin. Every write made with
    the session, this login included, carries the CSRF token in the ``X-CSRFToken`` header."""

    authentication_classes = [SessionAuthentication]
    permission_classes = [AllowAny]
    # A login hashes a password: the login limits, per address and per username. Asking who one
    # is and logging out hash nothing, and count only against the usual rates.
    throttle_classes = limits.LOGIN_THROTTLES

    def get_throttles(self):
        throttles = super().get_throttles()
        if self.request.method == "POST":
            return throttles
        return [t for t in throttles if not isinstance(t, limits.LoginAddressThrottle | limits.LoginAccountThrottle)]

    def _answer(self, request, user) -> Response:
        return Response(
            {
                "username": user.get_username() if user.is_authenticated else None,
                # Which desks the client offers; every desk's API still checks for itself.
                "is_staff": bool(user.is_authenticated and user.is_staff),
                "is_auditor": is_auditor(user),
                "csrf_token": get_token(request._request),
            }
        )

    @extend_schema(responses={200: s.SessionSerializer}, tags=["auth"])
    def get(self, request):
        """Who this session is (``username`` null when nobody), and the CSRF token (also set as the
        ``csrftoken`` cookie) to send as ``X-CSRFToken``: ask this first, before logging in."""
        return self._answer(request, request.user)

    @extend_schema(
        request=s.SessionLoginSerializer,
        responses={200: s.SessionSerializer, 400: s.ErrorSerializer, 403: s.ErrorSerializer},
        tags=["auth"],
    )
    def post(self, request):
        """Log in: the answer sets the ``sessionid`` cookie and a new CSRF token (the old one is
        rotated out); use the new one from then on."""
        # A login is a write too: without this, another site could log a visitor in as someone else.
        SessionAuthentication().enforce_csrf(request)
        data = s.SessionLoginSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = _check_password(request, data.validated_data["username"], data.validated_data["password"])
        # The session loads its person through SessionBackend: with their language, one statement.
        login(request._request, user, backend=SESSION_BACKEND)
        return self._answer(request, user)

    @extend_schema(request=None, responses={204: None, 403: s.ErrorSerializer}, tags=["auth"])
    def delete(self, request):
        """Log out: the session ends (its cookie no longer authenticates anything, and the streams
        it opened end within a second)."""
        s.no_body(request)
        user = request.user
        logout(request._request)
        if user.is_authenticated:
            notify.rights_changed(user.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
