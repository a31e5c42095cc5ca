"""The reader's language: chosen once per request, said in every answer.

``LanguageMiddleware`` activates the language ``Accept-Language`` asks for (English when it names
none of ``settings.LANGUAGES``); DRF's authentication classes (api/authentication.py) then apply a
signed-in person's preference, which wins over the header. The language stays active while the view
runs (so Django's and DRF's own messages come in it) and while the answer is rendered, and every
answer says ``Content-Language`` with ``Vary: Accept-Language``. ``JSONRenderer`` says every
``Text`` of a JSON body in it (``games.words``); machine fields are plain strings and pass as they are.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import trans_real
from rest_framework import renderers

from games.words import say_all

# Each language in its own words, and which way its text runs.
NAMES = {"en": "English", "es-mx": "Español (México)", "fa": "فارسی"}
RIGHT_TO_LEFT = {"fa"}


def codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def supported(code: str) -> str | None:
    """The language of ``settings.LANGUAGES`` that serves ``code`` (``es`` and ``es-ES`` get
    ``es-mx``), or ``None``."""
    try:
        return trans_real.get_supported_language_variant(code.strip().lower())
    except LookupError:
        return None


def from_header(header: str) -> str:
    """The first language of ``Accept-Language`` (by weight) that we speak, else the default."""
    for code, _weight in trans_real.parse_accept_lang_header(header or ""):
        if code == "*":
            break
        found = supported(code)
        if found:
            return found
    return settings.LANGUAGE_CODE


def preference_of(user: Any) -> str | None:
    """The language a person chose to read in, if they chose one."""
    from api.models import LanguagePreference

    if not getattr(user, "is_authenticated", False):
        return None
    return LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()


def known_preference_of(user: Any) -> str | None:
    """``preference_of``, from the person's ``language_preference`` when it was read with them
    (``select_related``, as the authentication classes read the person): no statement of its own."""
    # ``__class__``, not ``type()``: a session's person comes wrapped in Django's lazy object.
    relation = getattr(user.__class__, "language_preference", None)
    if relation is not None and relation.is_cached(user):
        chosen = getattr(user, "language_preference", None)  # None: read, and there is none
        return chosen.language if chosen is not None else None
    return preference_of(user)


def prefer(authenticated: tuple[Any, Any] | None) -> tuple[Any, Any] | None:
    """An authentication's result, passed on, with the person's preference made the language."""
    if authenticated is not None:
        language = known_preference_of(authenticated[0])
        if language and language in codes():
            translation.activate(language)
    return authenticated


class LanguageMiddleware:
    """``Accept-Language`` made the request's language; ``Content-Language`` and ``Vary`` on the answer."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        # ``?lang=`` before the header: a browser's EventSource cannot set Accept-Language, so a
        # page read in a language other than the browser's asks its streams in it this way.
        asked = supported(request.GET.get("lang", "")) if request.GET.get("lang") else None
        translation.activate(asked or from_header(request.headers.get("Accept-Language", "")))
        try:
            response = self.get_response(request)
            language = translation.get_language() or settings.LANGUAGE_CODE
            request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
            response.headers.setdefault("Content-Language", language)
            patch_vary_headers(response, ("Accept-Language",))
            return response
        finally:
            translation.deactivate()


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON, every ``Text`` in the body said in the request's language."""

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> Any:
        return super().render(say_all(data), accepted_media_type, renderer_context)


def listing() -> list[dict[str, str]]:
    return [
        {"code": code, "name": NAMES.get(code, name), "direction": "rtl" if code in RIGHT_TO_LEFT else "ltr"}
        for code, name in settings.LANGUAGES
    ]
