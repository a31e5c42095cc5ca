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
    # Any other /api/ URL (ending in '/': without it, APPEND_SLASH redirects here first) answers the
    # JSON 404 even with DEBUG on, where Django would otherwise serve its HTML page.
    re_path(r"^api/.*/$", errors.not_found, name="api-not-found"),
]

# Every error in the API's JSON shape, including Django's own pages (api/errors.py).
handler400 = "api.errors.bad_request"
handler403 = "api.errors.permission_denied"
handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
