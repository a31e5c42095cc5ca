"""Probes: ``/healthz`` (the process answers) and ``/readyz`` (it can do its work).

Plain Django views: no authentication, no throttling, so a load balancer can ask as often as it
likes without a token.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse

from config import broker

# Long enough for a broker across a network, short enough that a probe does not time out first.
BROKER_TIMEOUT_SECONDS = 2.0


def healthz(request: HttpRequest) -> JsonResponse:
    """The process is up; nothing else is asked, so a slow database never restarts the web."""
    return JsonResponse({"status": "up"})


def _database() -> str:
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return f"{connection.vendor} reachable"


def _migrations() -> str:
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan)
        raise RuntimeError(f"{len(plan)} migration(s) not applied: {names}")
    return "all applied"


def _local_broker_folders(options: dict[str, Any]) -> str:
    """The filesystem broker is reachable when the folders it publishes through and reads from
    take a new file."""
    for key in ("data_folder_out", "data_folder_in", "staging_folder"):
        folder = Path(options[key])
        folder.mkdir(parents=True, exist_ok=True)
        # A dot name that never ends in ".msg": no worker takes the probe for a message.
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".ready-", suffix=".probe"):
            pass
    return "local folders writable"


def _broker() -> str:
    from config.celery import app

    url = settings.CELERY_BROKER_URL
    options = dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS)
    if url.startswith(f"{broker.ALIAS}://"):
        return _local_broker_folders(options)
    # Read from the settings rather than the app's cached configuration, so an override is honoured.
    with app.connection_for_write(url, transport_options=options, connect_timeout=BROKER_TIMEOUT_SECONDS) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_SECONDS)
        return f"{conn.transport_cls} reachable"


# Each check returns what it found or raises; a check whose prerequisite failed is not run.
CHECKS: tuple[tuple[str, Callable[[], str], str | None], ...] = (
    ("database", _database, None),
    ("migrations", _migrations, "database"),
    ("broker", _broker, None),
)


def readyz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, every migration is applied and the broker takes a
    connection; otherwise 503 naming each failing check and its error."""
    checks: dict[str, dict[str, str]] = {}
    for name, check, needs in CHECKS:
        if needs and checks[needs]["status"] != "ok":
            checks[name] = {"status": "skipped", "detail": f"needs the {needs}"}
            continue
        try:
            checks[name] = {"status": "ok", "detail": check()}
        except Exception as exc:  # any failure is an answer, in words, not a 500
            checks[name] = {"status": "failed", "error": f"{type(exc).__name__}: {exc}"}
    failing = [name for name, result in checks.items() if result["status"] == "failed"]
    body = {"status": "unavailable" if failing else "ready", "failing": failing, "checks": checks}
    return JsonResponse(body, status=503 if failing else 200)
