"""A forgotten password over the API: ask for a link by mail, then set a new password with it
(``api.password_reset``)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api import limits, password_reset
from api import serializers as s
from games.engine.words import T

DETAIL = inline_serializer("PasswordResetAsked", {"detail": serializers.CharField()})


class PasswordResetView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = limits.RESET_THROTTLES

    @extend_schema(
        request=s.PasswordResetSerializer,
        responses={202: DETAIL, 400: s.ErrorSerializer, 429: s.ErrorSerializer},
        tags=["auth"],
    )
    def post(self, request):
        """Mail a link to set a new password to the account with this address, if there is one.
        The answer is the same whether there is or not."""
        data = s.PasswordResetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        page = settings.PUBLIC_URL or request.build_absolute_uri("/")
        password_reset.ask_for_link(
            email=data.validated_data["email"], page=page, language=translation.get_language() or "en"
        )
        detail = T("If an account has this address, a mail with a link to choose a new password is on its way.")
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = limits.RESET_THROTTLES

    @extend_schema(
        request=s.PasswordResetConfirmSerializer,
        responses={204: None, 400: s.ErrorSerializer, 429: s.ErrorSerializer},
        tags=["auth"],
    )
    def post(self, request):
        """Set a new password with the ``uid`` and ``token`` of a mailed link. Every token of the
        account is revoked (their streams end) and every browser session of it ends."""
        data = s.PasswordResetConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        password_reset.reset(**data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)
