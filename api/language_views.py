"""The languages the API speaks, and the one a person reads it in (``me/language/``)."""

from __future__ import annotations

from django.utils import translation
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.languages import codes, from_header, listing, preference_of
from api.models import LanguagePreference
from api.serializers import StrictSerializer
from api.views import parsed
from games.engine.words import T
from games.errors import InvalidRequest

Language = inline_serializer(
    "Language",
    {
        "code": serializers.CharField(),
        "name": serializers.CharField(),
        "direction": serializers.ChoiceField(choices=["ltr", "rtl"]),
    },
    many=True,
)


class LanguagesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: Language})
    def get(self, request):  # type: ignore[no-untyped-def]
        """The languages the API speaks: each one's code, its name in itself, and its direction
        (``rtl``: lay its text out right to left)."""
        return Response(listing())


class LanguagePreferenceSerializer(StrictSerializer):
    language = serializers.CharField(allow_null=True, help_text="A code of `languages/`, or null for none.")


# The document names the codes, so that a generated client offers exactly those; the view parses a
# free string (LanguagePreferenceSerializer) to refuse any other code in its own words.
class LanguageChoiceSerializer(StrictSerializer):
    """The language you read the API in: a code of `languages/`, or null for each request's
    `Accept-Language`."""

    language = serializers.ChoiceField(
        choices=codes(), allow_null=True, help_text="A code of `languages/`, or null for none."
    )


class MyLanguageView(APIView):
    def _answer(self, request):  # type: ignore[no-untyped-def]
        return Response({"language": preference_of(request.user)})

    @extend_schema(responses={200: LanguageChoiceSerializer})
    def get(self, request):  # type: ignore[no-untyped-def]
        """The language you chose to read the API in (null: each request's ``Accept-Language``)."""
        return self._answer(request)

    @extend_schema(request=LanguageChoiceSerializer, responses={200: LanguageChoiceSerializer})
    def put(self, request):  # type: ignore[no-untyped-def]
        """Choose the language you read the API in, whatever your client's ``Accept-Language``
        (null: back to the header). This answer already comes in it."""
        data = parsed(LanguagePreferenceSerializer, request.data)
        language = data["language"]
        if language is None:
            LanguagePreference.objects.filter(user=request.user).delete()
            translation.activate(from_header(request.headers.get("Accept-Language", "")))
            return self._answer(request)
        if language not in codes():
            raise InvalidRequest(
                T(
                    "There is no language '{language}'; choose one of {languages}.",
                    language=language,
                    languages=codes(),
                ),
                code="unknown_language",
                field="language",
            )
        LanguagePreference.objects.update_or_create(user=request.user, defaults={"language": language})
        translation.activate(language)
        return self._answer(request)
