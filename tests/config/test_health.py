"""The probes: /healthz asks nothing, /readyz names each check and the one that fails."""

from __future__ import annotations

import socket
import time
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ready():
    return Client().get("/readyz")


def test_healthz_answers_without_the_database():
    with mock.patch.object(connection, "ensure_connection", side_effect=OperationalError("down")):
        response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "up"}


def test_ready_on_the_test_database():
    response = ready()
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ready"
    assert body["failing"] == []
    assert {name: check["status"] for name, check in body["checks"].items()} == {
        "database": "ok",
        "migrations": "ok",
        "broker": "ok",
    }


def test_not_ready_when_the_broker_port_is_closed(settings):
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    started = time.monotonic()
    response = ready()
    assert time.monotonic() - started < 10
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["broker"]
    assert body["checks"]["broker"]["status"] == "failed"
    assert "refused" in body["checks"]["broker"]["error"].lower()
    assert body["checks"]["database"]["status"] == "ok"


def test_not_ready_when_the_local_broker_folder_is_not_writable(settings, tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the queue folder should be")
    settings.CELERY_BROKER_URL = "localfs://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {
        **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        "data_folder_out": str(blocked),
    }
    response = ready()
    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]


def test_not_ready_when_the_database_is_unreachable():
    with mock.patch.object(connection, "ensure_connection", side_effect=OperationalError("connection refused")):
        response = ready()
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["database"]
    assert body["checks"]["database"]["error"] == "OperationalError: connection refused"
    # Migrations cannot be read without the database: not checked rather than failed twice.
    assert body["checks"]["migrations"]["status"] == "skipped"


def test_not_ready_when_a_migration_is_unapplied():
    migration = MigrationExecutor(connection).loader.graph.nodes[("games", "0001_initial")]
    with mock.patch.object(MigrationExecutor, "migration_plan", return_value=[(migration, False)]):
        response = ready()
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["migrations"]
    assert "games.0001_initial" in body["checks"]["migrations"]["error"]


def test_probes_need_no_token_and_are_not_throttled(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1/minute", "user": "1/minute"},
    }
    client = Client()
    assert [client.get("/healthz").status_code for _ in range(3)] == [200, 200, 200]
    assert [client.get("/readyz").status_code for _ in range(3)] == [200, 200, 200]


def test_probes_answer_over_plain_http_when_every_other_path_redirects_to_https(settings):
    """Behind a load balancer the probes come over plain HTTP; production redirects everything else."""
    from config import settings as production

    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = production.SECURE_REDIRECT_EXEMPT
    client = Client()
    assert client.get("/api/v1/games/").status_code == 301
    for path in ("/healthz", "/readyz", "/metrics"):
        assert client.get(path).status_code == 200, path
