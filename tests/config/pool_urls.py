"""The service's URLs plus one that says which PostgreSQL backend served the request (the pool's
tests, tests/config/test_pools.py)."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.urls import include, path


def backend(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid(), current_database()")
        pid, database = cursor.fetchone()
    return JsonResponse({"pid": pid, "database": database})


urlpatterns = [path("test-backend/", backend), path("", include("config.urls"))]
