"""The web client's page and its words: `/` and `/jsi18n/`, outside the API.

The page is the one HTML document of the client (api/static/web/); everything after it is the
public API. Its language is chosen as the API chooses one (api/languages.py), with one more
source first: `?lang=`, which a visitor who is not signed in carries from the language select
(kept in localStorage, which the server cannot read).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from api.languages import RIGHT_TO_LEFT, codes, preference_of, supported
from games.engine import registry


def _language(request: HttpRequest) -> str:
    asked = supported(request.GET.get("lang", "")) if request.GET.get("lang") else None
    if asked:
        return asked
    chosen = preference_of(request.user)
    if chosen and chosen in codes():
        return chosen
    return translation.get_language() or "en"


def _event_types() -> list[str]:
    return sorted({kind.__name__ for game in registry.all_games() for kind in getattr(game, "event_types", ())})


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    language = _language(request)
    translation.activate(language)
    context = {
        "language": language,
        "direction": "rtl" if language in RIGHT_TO_LEFT else "ltr",
        # A table's stream names each event by its type, and EventSource hears only the names it
        # listens for: the page is told every game's event types.
        "event_types": _event_types(),
    }
    response = render(request, "web/index.html", context)
    response["Content-Language"] = language
    return response


class Catalogue(JavaScriptCatalog):
    """Django's JavaScript catalogue of the `api` app's djangojs words, in `?lang=` when given."""

    domain = "djangojs"
    packages = ["api"]

    def get(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        translation.activate(_language(request))
        response = super().get(request, *args, **kwargs)
        response["Content-Language"] = translation.get_language()
        return response


catalogue = Catalogue.as_view()
