"""The production shape as real processes: web servers (gunicorn with uvicorn workers, each its own
process group on its own loopback port), Celery workers and one beat, against a PostgreSQL database
and a Redis db number that belong to this shape alone.

Used by the production test and the capacity benchmark; a later fault-injection test kills, stops
and restarts the same processes (``kill``, ``restart``) and routes a process's connections through
a proxy (``env`` overrides when starting it).

    with Shape.create(postgres_url, redis_url) as shape:
        web = shape.start_web("web1")
        shape.start_worker("worker1")
        shape.start_beat(sweep_seconds=0.5)
        status, body = web.request("GET", "/api/v1/games/")
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Redis's default number of databases; the shape claims one of them.
REDIS_DATABASES = 16
CLAIM_KEY = "production-shape:claimed"


class ShapeError(RuntimeError):
    """A process of the shape did not start, or exited; the message carries the end of its log."""


# What production's web unit sets in the web process's environment (docs/operations.md).
WEB_ENV = {"PYTHONMALLOC": "malloc"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _with_path(url: str, path: str) -> str:
    return urlparse(url)._replace(path=path).geturl()


def _at(url: str, address: str | None) -> str:
    """``url`` with its host and port replaced by ``address`` ("host:port"), credentials kept."""
    if address is None:
        return url
    parsed = urlparse(url)
    credentials = parsed.netloc.rpartition("@")[0]
    return parsed._replace(netloc=f"{credentials}@{address}" if credentials else address).geturl()


@dataclass
class Process:
    """One started process (and its children: gunicorn's workers are in its process group)."""

    name: str
    args: list[str]
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen
    port: int | None = None

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def tail(self, chars: int = 4000) -> str:
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the whole process group (SIGKILL there is the fault injection's kill -9)."""
        if self.alive():
            os.killpg(self.pid, sig)

    def stop(self, timeout: float = 15.0) -> None:
        if not self.alive():
            return
        self.signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.popen.wait()
        # Children that outlived their parent (a killed gunicorn leaves its workers) go too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 30.0,
    ) -> tuple[int, Any]:
        """One HTTP request to this web process on a fresh connection: (status, parsed JSON or None)."""
        assert self.port is not None, f"{self.name} serves no port"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Token {token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=payload, headers=sent)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, raw.decode(errors="replace")


@dataclass
class Shape:
    """The database, the Redis db and the processes of one production shape."""

    database_url: str
    broker_url: str
    admin_url: str
    redis_admin_url: str
    folder: Path
    base_env: dict[str, str]
    processes: dict[str, Process] = field(default_factory=dict)
    # Settings only the started processes get: the addresses they reach the services through (a
    # fault test's proxies), while ``manage`` and ``sql`` keep to the services themselves.
    routes: dict[str, str] = field(default_factory=dict)

    # --- life cycle ----------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        postgres_url: str,
        redis_url: str,
        *,
        prefix: str = "shape",
        env: Mapping[str, str] | None = None,
        database_via: str | None = None,
        redis_via: str | None = None,
    ) -> Shape:
        """A fresh, migrated database named after ``prefix`` on ``postgres_url``'s server, and an
        unused Redis db number on ``redis_url``'s server. ``env`` adds to the processes' settings.
        ``database_via`` and ``redis_via`` ("host:port") are where the processes reach PostgreSQL
        and Redis instead (a proxy that forwards to them)."""
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        admin_url = _with_path(postgres_url, "/postgres")
        database_url = _with_path(postgres_url, f"/{name}")
        folder = Path(tempfile.mkdtemp(prefix=f"{prefix}-"))
        number = claim_redis_db(redis_url)
        broker_url = _with_path(redis_url, f"/{number}")
        base_env = {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            # Throttles count across web processes, as docs/operations.md asks of production.
            "CACHE_URL": broker_url,
            "DATA_DIR": str(folder / "data"),
            # Production settings, given explicitly: settings may require SECRET_KEY once DEBUG is off.
            "DEBUG": "false",
            "SECRET_KEY": f"production-shape-{uuid.uuid4().hex}",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "LOG_LEVEL": "WARNING",
            **(env or {}),
        }
        routes = {}
        if database_via:
            routes["DATABASE_URL"] = _at(database_url, database_via)
        if redis_via:
            routes["CELERY_BROKER_URL"] = routes["CACHE_URL"] = _at(broker_url, redis_via)
        shape = cls(database_url, broker_url, admin_url, redis_url, folder, base_env, routes=routes)
        try:
            shape._create_database(name)
            shape.manage("migrate", "--noinput", check=True)
        except BaseException:
            shape.close()
            raise
        return shape

    def _create_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    @property
    def database_name(self) -> str:
        return urlparse(self.database_url).path.lstrip("/")

    def close(self) -> None:
        """Stop every process, drop the database, empty and free the Redis db, remove the folder."""
        for process in reversed(list(self.processes.values())):
            process.stop()
        try:
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.database_name}" WITH (FORCE)')
        finally:
            release_redis_db(self.broker_url)
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Shape:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- processes -----------------------------------------------------------------------------

    def start(self, name: str, args: list[str], *, env: Mapping[str, str] | None = None, port: int | None = None):
        if name in self.processes and self.processes[name].alive():
            raise ShapeError(f"{name} is already running")
        log = self.folder / "logs" / f"{name}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        full_env = {**os.environ, **self.base_env, **self.routes, **(env or {})}
        with log.open("a") as out:
            popen = subprocess.Popen(
                args, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        process = Process(name, args, dict(env or {}), log, popen, port)
        self.processes[name] = process
        return process

    def start_web(
        self, name: str, *, workers: int = 1, port: int | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        """``gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker``, answering HTTP
        before this returns."""
        port = port or free_port()
        args = [
            str(BIN / "gunicorn"),
            "config.asgi:application",
            "-k",
            "uvicorn_worker.UvicornWorker",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ]
        # Connections come from each process's pool (config/settings.py), as in production; the C
        # allocator does Python's allocations, so that memory streams freed goes back (as production's
        # unit sets it, docs/operations.md).
        process = self.start(name, args, env={**WEB_ENV, **(env or {})}, port=port)
        self.wait_until(process, lambda: _answers(process), what="answer HTTP")
        return process

    def start_worker(
        self, name: str, *, pool: str = "threads", concurrency: int = 4, env: Mapping[str, str] | None = None
    ) -> Process:
        """``celery -A config worker``, consuming before this returns (it touches a file on
        ``worker_ready``: the app module below is config's app plus that signal)."""
        ready = self.folder / f"{name}.ready"
        ready.unlink(missing_ok=True)
        args = [
            str(BIN / "celery"),
            "-A",
            "tests.production.celery_app",
            "worker",
            f"--pool={pool}",
            f"--concurrency={concurrency}",
            f"--hostname={name}@%h",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
        ]
        env = {"WORKER_READY_FILE": str(ready), **(env or {})}
        process = self.start(name, args, env=env)
        self.wait_until(process, ready.exists, what="consume from the broker")
        return process

    def start_beat(self, name: str = "beat", *, sweep_seconds: float = 1.0, env: Mapping[str, str] | None = None):
        """``celery -A config beat`` sweeping deadlines every ``sweep_seconds``."""
        args = [
            str(BIN / "celery"),
            "-A",
            "config",
            "beat",
            "--loglevel=WARNING",
            f"--schedule={self.folder / (name + '-schedule')}",
        ]
        process = self.start(name, args, env={"SWEEP_SECONDS": str(sweep_seconds), **(env or {})})
        time.sleep(0.5)
        if not process.alive():
            raise ShapeError(f"{name} exited at start:\n{process.tail()}")
        return process

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        self.processes[name].signal(sig)
        if sig in (signal.SIGKILL, signal.SIGTERM):
            self.processes[name].popen.wait(timeout=30)

    def restart(self, name: str) -> Process:
        """Start ``name`` again with the arguments, port and environment it first had."""
        old = self.processes[name]
        old.stop()
        process = self.start(name, old.args, env=old.env, port=old.port)
        if old.port is not None:
            self.wait_until(process, lambda: _answers(process), what="answer HTTP")
        return process

    def wait_until(self, process: Process, condition, *, what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if not process.alive():
                raise ShapeError(f"{process.name} exited before it could {what}:\n{process.tail()}")
            if time.monotonic() > deadline:
                raise ShapeError(f"{process.name} did not {what} within {timeout:.0f}s:\n{process.tail()}")
            time.sleep(0.1)

    def dead(self) -> list[str]:
        """The names of processes that exited without being stopped."""
        return [name for name, process in self.processes.items() if not process.alive()]

    def logs(self, chars: int = 2000) -> str:
        return "\n".join(f"--- {name}\n{process.tail(chars)}" for name, process in self.processes.items())

    # --- manage.py and the database ------------------------------------------------------------

    def manage(
        self, *args: str, check: bool = False, timeout: float = 300.0, env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess:
        """``manage.py ARGS`` against this shape's database, its output captured."""
        result = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env={**os.environ, **self.base_env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and result.returncode != 0:
            raise ShapeError(f"manage.py {' '.join(args)} exited {result.returncode}:\n{result.stdout}{result.stderr}")
        return result

    def cpu_seconds(self) -> float:
        """CPU time used so far by the shape: its process groups (gunicorn's workers included) and
        the PostgreSQL backends connected to its database; Redis, shared and light, is left out.
        Backends born and reaped between two calls (most of PostgreSQL's CPU, a connection living
        for one request) are missed: tests/benchmarks/cpu.py counts a server of a run's own whole."""
        groups = {process.pid for process in self.processes.values()}
        backends = {
            pid for (pid,) in self.sql("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database_name])
        }
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # After the command: state, ppid, pgrp (index 2), ... utime (11), stime (12).
            if int(fields[2]) in groups or int(stat.parent.name) in backends:
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def sql(self, query: str, params: list | tuple = ()) -> list[tuple]:
        """Rows of one query on this shape's database (a connection of its own, closed after)."""
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as conn:
            return conn.execute(query, params).fetchall()


def _answers(process: Process) -> bool:
    try:
        process.request("GET", "/api/v1/games/", timeout=2)
    except OSError:
        return False
    return True


def redis_answers(url: str) -> bool:
    """Whether ``url`` is a Redis server that answers a PING."""
    if not url.startswith("redis"):
        return False
    import redis

    with contextlib.suppress(redis.RedisError):
        return bool(redis.Redis.from_url(url, socket_connect_timeout=3).ping())
    return False


def claim_redis_db(redis_url: str) -> int:
    """An empty Redis db number, claimed with a key (so two shapes on one server pick different
    numbers); the highest free number first, away from the low numbers people use by hand."""
    import redis

    for number in range(REDIS_DATABASES - 1, 0, -1):
        client = redis.Redis.from_url(_with_path(redis_url, f"/{number}"))
        try:
            if client.dbsize() == 0 and client.set(CLAIM_KEY, os.getpid(), nx=True, ex=24 * 3600):
                if client.dbsize() == 1:
                    return number
                client.delete(CLAIM_KEY)
        finally:
            client.close()
    raise ShapeError(f"no empty Redis database on {redis_url}")


def release_redis_db(broker_url: str) -> None:
    import redis

    client = redis.Redis.from_url(broker_url)
    try:
        client.flushdb()
    finally:
        client.close()
