from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api import errors, web
from config import health, observability

urlpatterns = [
    # For load balancers and Prometheus: outside the API, without authentication or throttling.
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", observability.metrics, name="metrics"),
    # The web client: its page and its words (api/web.py); the rest is the public API.
    path("", web.index, name="web"),
    path("jsi18n/", web.catalogue, name="jsi18n"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    # Any other /api/ URL answers the JSON 404 even with DEBUG on, where Django would otherwise
    # serve its HTML page; one without its trailing slash is redirected only where the URL with it
    # exists (api/errors.py, without_slash), so APPEND_SLASH never turns a write into a 500.
    re_path(r"^api/.*/$", errors.not_found, name="api-not-found"),
    re_path(r"^api/.*[^/]$", errors.without_slash, name="api-without-slash"),
]

# Every error in the API's JSON shape, including Django's own pages (api/errors.py).
handler400 = "api.errors.bad_request"
handler403 = "api.errors.permission_denied"
handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
