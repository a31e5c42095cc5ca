"""The API's urls plus the benchmark's bare reference endpoint (``ROOT_URLCONF=tests.benchmarks.urls``)."""

from __future__ import annotations

from django.urls import path

from config.urls import urlpatterns as api_urlpatterns
from tests.benchmarks.bare_endpoint import BareView

urlpatterns = [
    *api_urlpatterns,
    path("bench/bare/", BareView.as_view(), name="bench-bare"),
]
