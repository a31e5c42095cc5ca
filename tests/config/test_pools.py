"""Pooled connections (issue 24): one PostgreSQL pool and one Redis client per process, shared by
its threads, instead of a new connection for every request and every task.

Requests go through ``config.asgi`` itself, which serves each on a thread of its own, as the web
process does; a thread-per-request server without the pool opened a PostgreSQL connection per
request (a new backend pid each time) and a Redis connection per thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config.cache import RedisCache, shared_client
from config.postgresql.base import Pool
from games import notify
from tests.conftest import require
from tests.fixtures_tasks import wait_until

POOL_MAX = 3


@contextlib.contextmanager
def _remade_pool(**changes: Any) -> Iterator[ConnectionPool]:
    """The default database's pool made anew with ``changes`` to its options (put back after)."""
    options = connection.settings_dict["OPTIONS"]
    configured = options.get("pool")
    require(bool(configured), "the connection pool (DATABASE_POOL on, PostgreSQL)")
    connection.close()
    connection.close_pool()
    options["pool"] = {**configured, **changes}
    try:
        yield connection.pool
    finally:
        connection.close()
        connection.close_pool()
        options["pool"] = configured


@pytest.fixture
def small_pool(postgres_tx):
    """At most ``POOL_MAX`` connections."""
    with _remade_pool(min_size=1, max_size=POOL_MAX, timeout=3) as pool:
        yield pool


def _get_api(path: str) -> tuple[int, bytes]:
    """``GET path`` with a token that is no one's: authenticating it reads the database."""
    return _get(path, [(b"authorization", b"Token " + b"0" * 64)])


def _get(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, bytes]:
    """``GET path`` through config.asgi (a thread of its own for the request's synchronous part)."""
    from config.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), *(headers or [])],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }

    async def serve() -> tuple[int, bytes]:
        sent: list[dict] = []
        asked = False
        never = asyncio.Event()

        async def receive() -> dict:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await never.wait()  # the client stays: Django stops listening once it has answered
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        await asyncio.wait_for(application(scope, receive, send), 30)
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])

    return asyncio.run(serve())


def _backend() -> dict:
    status, body = _get("/test-backend/")
    assert status == 200, body[:500]
    return json.loads(body)


def _all_given_back(pool: ConnectionPool) -> bool:
    stats = pool.get_stats()
    return stats["pool_available"] == stats["pool_size"]


@pytest.mark.postgres
def test_the_pool_reaches_the_test_database_and_checks_what_it_lends(postgres):
    pool = connection.pool
    require(pool is not None, "the connection pool (DATABASE_POOL on, PostgreSQL)")
    name = connection.settings_dict["NAME"]
    assert name.startswith("test_")
    assert pool.kwargs["dbname"] == name
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone()[0] == name
    # Django refuses a pool with persistent connections; a connection is checked before it is lent.
    assert connection.settings_dict["CONN_MAX_AGE"] == 0
    assert isinstance(pool, Pool)
    assert pool._check == pool._check_or_sweep


@pytest.mark.postgres
def test_sequential_requests_each_on_its_thread_share_the_pools_connections(small_pool, settings):
    """Thirty requests, each on a new thread: a connection per request would be thirty backends
    (and, were a request to keep its connection, the fourth would wait for the pool in vain)."""
    settings.ROOT_URLCONF = "tests.config.pool_urls"
    answers = [_backend() for _ in range(30)]
    assert {a["database"] for a in answers} == {connection.settings_dict["NAME"]}
    assert 1 <= len({a["pid"] for a in answers}) <= POOL_MAX
    assert small_pool.get_stats()["requests_num"] >= 30
    wait_until(lambda: _all_given_back(small_pool), timeout=5, what="every connection back in the pool")


@pytest.mark.postgres
def test_concurrent_requests_wait_for_a_pooled_connection(small_pool, settings):
    """More requests at once than the pool has connections: each waits its turn, none fails."""
    settings.ROOT_URLCONF = "tests.config.pool_urls"
    answers: list[dict] = []
    errors: list[BaseException] = []

    def one() -> None:
        try:
            answers.append(_backend())
        except BaseException as exc:  # reported below, with the others
            errors.append(exc)

    threads = [threading.Thread(target=one) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    assert len(answers) == 10
    assert len({a["pid"] for a in answers}) <= POOL_MAX
    wait_until(lambda: _all_given_back(small_pool), timeout=5, what="every connection back in the pool")


@pytest.mark.postgres
def test_connections_the_database_dropped_are_not_lent(postgres_tx, settings):
    """A restarted database leaves every idle connection of the pool dead. The pool's check finds
    the one it was about to lend dead and has the others checked at once, so the next request
    gets a live connection within a second or so, rather than trying the dead ones in turn, each
    after a longer wait, until its timeout (a 500 with psycopg_pool's own pool)."""
    settings.ROOT_URLCONF = "tests.config.pool_urls"
    with _remade_pool(min_size=6, max_size=6, timeout=5) as pool:
        _backend()
        connection.close()
        wait_until(lambda: pool.get_stats()["pool_available"] == 6, timeout=10, what="six idle connections")
        # The pool's own six backends (the database may have other sessions: a listener, a worker).
        held = [pool.getconn() for _ in range(6)]
        killed = [conn.info.backend_pid for conn in held]
        for conn in held:
            pool.putconn(conn)
        assert len(set(killed)) == 6
        with psycopg.connect(**notify._postgres_params(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [killed])

            def gone() -> bool:
                row = admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s::int[])", [killed]
                ).fetchone()
                return row is not None and row[0] == 0

            wait_until(gone, timeout=10, what="the terminated backends to exit")
        started = time.monotonic()
        first = _backend()
        assert time.monotonic() - started < 3
        after = {first["pid"], *(_backend()["pid"] for _ in range(8))}
        assert after.isdisjoint(killed)


@pytest.mark.postgres
def test_a_pool_reconnects_within_seconds_of_the_databases_return(postgres):
    """The database unreachable for 8 s (its connections reset, new ones refused, through a proxy)
    while requests keep asking for connections: once it is back, one is had within 4 s (one retry
    step of 2 s, and a loaded machine).
    psycopg_pool's own retries, doubling for minutes (reconnect_timeout 300 s), made the next try
    seconds after the return."""
    from tests.production.proxy import Proxy

    configured = connection.settings_dict["OPTIONS"].get("pool")
    require(bool(configured), "the connection pool (DATABASE_POOL on, PostgreSQL)")
    params = notify._postgres_params()
    with Proxy(params.get("host") or "127.0.0.1", int(params.get("port") or 5432)) as proxy:
        pool = Pool(
            kwargs={**params, "host": proxy.host, "port": proxy.port, "autocommit": True},
            min_size=2,
            max_size=2,
            timeout=5,
            reconnect_timeout=configured["reconnect_timeout"],
            check=ConnectionPool.check_connection,
            open=True,
        )
        try:
            pool.wait(10)
            proxy.cut("reset")
            outage_ends = time.monotonic() + 8
            while time.monotonic() < outage_ends:
                # Requests keep coming meanwhile, and fail: the pool tries to reconnect for them.
                wait = min(1.0, max(0.1, outage_ends - time.monotonic()))
                with pytest.raises(psycopg.OperationalError), pool.connection(timeout=wait) as conn:
                    conn.execute("SELECT 1")
            proxy.restore()
            started = time.monotonic()
            with pool.connection(timeout=5) as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)
            assert time.monotonic() - started < 4
        finally:
            pool.close()


@pytest.mark.postgres
def test_a_request_that_finds_no_free_connection_is_answered_503(postgres_tx):
    """Every connection taken: the request waits DATABASE_POOL_TIMEOUT, then is told the database
    could not be reached, as when it is down; it never hangs."""
    with _remade_pool(min_size=1, max_size=1, timeout=0.5):
        connection.ensure_connection()  # this thread holds the pool's only connection
        status, body = _get_api("/api/v1/auth/tokens/")
        connection.close()
        assert status == 503, body[:500]
        assert json.loads(body)["code"] == "service_unavailable"
        assert _get_api("/api/v1/auth/tokens/")[0] == 401  # given back, the next request gets it


@pytest.fixture
def worker_pool_env(monkeypatch):
    """The worker started after this has a pool of at most two connections."""
    monkeypatch.setenv("DATABASE_POOL_MIN_SIZE", "1")
    monkeypatch.setenv("DATABASE_POOL_MAX_SIZE", "2")


@pytest.mark.postgres
@pytest.mark.worker
def test_a_worker_reuses_its_connections_across_tasks(postgres_tx, worker_pool_env, celery_worker_process, tmp_path):
    """Celery's Django fixup closes the connection before and after every task: with the pool that
    gives it back, so twenty tasks run on the worker's two pooled connections, not twenty."""
    require(bool(connection.settings_dict["OPTIONS"].get("pool")), "the connection pool (DATABASE_POOL on)")
    from config.celery import app

    out = tmp_path / "pids"
    for _ in range(20):
        app.send_task("tests.worker.backend_pid", args=[str(out)])

    def lines() -> list[str]:
        found = out.read_text().split() if out.exists() else []
        return found if len(found) >= 20 else []

    pids = wait_until(lines, timeout=60, what="twenty tasks to run")
    assert len(pids) == 20
    assert len(set(pids)) <= 2


# --- Redis ---------------------------------------------------------------------------------------


def _redis_url() -> str:
    url = os.environ.get("CACHE_URL") or os.environ.get("CELERY_BROKER_URL", "")
    require(url.startswith("redis"), "Redis (CACHE_URL or CELERY_BROKER_URL=redis://…)")
    return url


def _clients_named(url: str, name: str) -> int:
    import redis

    admin = redis.Redis.from_url(url)
    try:
        return sum(1 for client in admin.client_list() if client.get("name") == name)
    finally:
        admin.close()


def test_every_threads_cache_shares_one_client_and_one_connection():
    """Django makes a cache object per thread, and so per request; all of them in a process use
    one client, one pool and, used one after another, one connection that closing does not end."""
    url = _redis_url()
    name = f"pool-test-{uuid.uuid4().hex[:12]}"
    seen: list[tuple[RedisCache, object, object]] = []

    def request() -> None:
        cache = RedisCache(url, {"OPTIONS": {"client_name": name}})  # as Django makes one per thread
        cache.set(f"{name}:key", 1, 30)
        assert cache.get(f"{name}:key") == 1
        seen.append((cache, cache._cache, cache._cache._get_connection_pool(True)))
        cache.close()  # what Django does at the end of every request, Celery after every task

    for _ in range(10):
        thread = threading.Thread(target=request)
        thread.start()
        thread.join()
    assert len({id(cache) for cache, _, _ in seen}) == 10
    assert len({id(client) for _, client, _ in seen}) == 1
    assert len({id(pool) for _, _, pool in seen}) == 1
    assert _clients_named(url, name) == 1

    # Two at once share the client too; the pool opens a second connection only for the overlap.
    both = threading.Barrier(2)
    clients: list[object] = []

    def overlapping() -> None:
        cache = RedisCache(url, {"OPTIONS": {"client_name": name}})
        both.wait(5)
        cache.get(f"{name}:key")
        clients.append(cache._cache)

    pair = [threading.Thread(target=overlapping) for _ in range(2)]
    for thread in pair:
        thread.start()
    for thread in pair:
        thread.join(10)
    assert len(clients) == 2 and clients[0] is clients[1] is seen[0][1]
    assert _clients_named(url, name) <= 2
    seen[0][2].disconnect()


def test_a_forked_process_makes_its_own_client_and_pools():
    """After a fork the parent's sockets are not the child's: the child builds its own Redis client
    and its own database pools; the parent keeps its own."""
    url = _redis_url()
    options = {"client_name": f"pool-test-{uuid.uuid4().hex[:12]}"}
    parent = shared_client([url], options)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe and exits at once
        try:
            from django.db.backends.postgresql.base import DatabaseWrapper

            mine = shared_client([url], options)
            report = {"new_client": mine is not parent, "pools": len(DatabaseWrapper._connection_pools)}
            os.write(write, json.dumps(report).encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    with os.fdopen(read) as pipe:
        report = json.loads(pipe.read())
    assert report == {"new_client": True, "pools": 0}
    assert shared_client([url], options) is parent
