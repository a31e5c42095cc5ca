"""A PostgreSQL cluster and a Redis server of a benchmark's own, so that everything they do in a run
is the run's: their CPU (tests/benchmarks/cpu.py counts a server's whole process tree, the backends
its postmaster reaped included), their statements (pg_stat_statements, loaded at start), their
connections (logged, each with its role).

Each process of the shape connects as a role of its own (``role_url``): pg_stat_statements keeps
its counts by role, database and statement, so the role says which process sent a statement
(application_name is set too, for pg_stat_activity, but the statistics do not keep it).

    with benchmark_services(roles=["web", "worker", "beat"]) as services:
        with Shape.create(services.postgres_url, services.redis_url) as shape:
            shape.start_web("web", env={"DATABASE_URL": role_url(shape.database_url, "web")})
            meter = services.meter(shape)

``BENCH_POSTGRES_URL`` and ``BENCH_REDIS_URL`` point a benchmark at servers that are already there
instead; then the PostgreSQL CPU is only what the shape's backends alive at each reading had spent
(those born and reaped in between, most of them, are missed), Redis's is left out (shared), and the
statement and connection counts are not available.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlparse

from tests.benchmarks.cpu import Meter
from tests.production.shape import Shape, free_port

# The shape's processes as the accounting names them.
PROCESSES = ("web", "worker", "beat")
CONNECTED = re.compile(r"connection authorized: user=(\S+) database=(\S+)")


def role_url(url: str, role: str) -> str:
    """``url`` connecting as ``role``, with the role as application_name too."""
    parsed = urlparse(url)
    host = parsed.netloc.rpartition("@")[2]
    return parsed._replace(netloc=f"{role}@{host}", query=urlencode({"application_name": role})).geturl()


def postgres_bindir() -> Path:
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        found = Path(
            subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
        )
        if (found / "initdb").exists():
            return found
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if not candidates:
        raise RuntimeError("no PostgreSQL server binaries (initdb): apt-get install postgresql")
    return candidates[-1].parent


@dataclass
class OwnPostgres:
    """A fresh cluster in a temporary folder on a free loopback port, run by the ``postgres`` OS user
    when we are root (PostgreSQL refuses to run as root), by ourselves otherwise."""

    roles: list[str] = field(default_factory=list)
    # Server settings of a benchmark's own, over and above the ones ``start`` sets.
    settings: dict[str, str] = field(default_factory=dict)
    folder: Path = field(init=False)
    port: int = field(init=False)
    popen: subprocess.Popen | None = field(init=False, default=None)
    postmaster_pid: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-pg-"))
        self.port = free_port()

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def url(self, database: str = "postgres", role: str = "postgres") -> str:
        return f"postgres://{role}@127.0.0.1:{self.port}/{database}"

    def _as_owner(self, args: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return args
        return ["runuser", "-u", "postgres", "--", *args]

    def start(self) -> OwnPostgres:
        bindir = self._own_folder()
        initdb = [str(bindir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
        initdb += ["-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]
        subprocess.run(self._as_owner(initdb), check=True, capture_output=True)
        self._run(bindir)
        self.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        for role in self.roles:
            self.execute(f'CREATE ROLE "{role}" LOGIN SUPERUSER')
        return self

    def start_standby_of(self, primary: OwnPostgres) -> OwnPostgres:
        """This cluster as a streaming standby of ``primary``, read-only: a base backup of it
        (``pg_basebackup -R`` writes standby.signal and the connection to the primary), started on
        this cluster's own port. The roles and the extension come with the backup."""
        bindir = self._own_folder()
        backup = [str(bindir / "pg_basebackup"), "-D", str(self.data), "-h", "127.0.0.1", "-p", str(primary.port)]
        backup += ["-U", "postgres", "-X", "stream", "-R", "--no-sync"]
        subprocess.run(self._as_owner(backup), check=True, capture_output=True)
        self._run(bindir)
        return self

    def _own_folder(self) -> Path:
        """The server binaries' folder, once the cluster's folder belongs to the user that runs it."""
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "PostgreSQL will not run as root and there is no postgres user to run it: "
                    "create one, or set BENCH_POSTGRES_URL to a server already running"
                ) from None
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        return postgres_bindir()

    def _run(self, bindir: Path) -> None:
        settings = {
            "port": str(self.port),
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(self.folder),
            "shared_preload_libraries": "pg_stat_statements",
            "pg_stat_statements.max": "10000",
            "pg_stat_statements.track_planning": "on",
            "track_io_timing": "on",
            "log_connections": "on",
            "logging_collector": "off",
            "log_line_prefix": "%m [%p] ",
            **self.settings,
        }
        args = [str(bindir / "postgres"), "-D", str(self.data)]
        for name, value in settings.items():
            args += ["-c", f"{name}={value}"]
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self._as_owner(args), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self._wait_ready()
        self.postmaster_pid = int((self.data / "postmaster.pid").read_text().split()[0])

    def _wait_ready(self, timeout: float = 60.0) -> None:
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            assert self.popen is not None
            if self.popen.poll() is not None:
                raise RuntimeError(f"PostgreSQL exited at start:\n{self.log.read_text(errors='replace')[-3000:]}")
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def execute(self, query: str, params: tuple | list = (), database: str = "postgres") -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            cursor = conn.execute(query, params)
            return cursor.fetchall() if cursor.description else []

    # --- what the run did ----------------------------------------------------------------------

    def reset_statements(self) -> None:
        self.execute("SELECT pg_stat_statements_reset()")

    def statements(self, database: str) -> list[Statement]:
        """Every statement sent to ``database`` since the last reset, by the role that sent it."""
        rows = self.execute(
            """
            SELECT r.rolname, s.query, s.calls, s.rows, s.total_exec_time, s.total_plan_time,
                s.wal_records, s.wal_fpi, s.wal_bytes
            FROM pg_stat_statements s
            JOIN pg_roles r ON r.oid = s.userid
            JOIN pg_database d ON d.oid = s.dbid
            WHERE d.datname = %s
            """,
            [database],
        )
        return [Statement(*row[:6], wal_records=row[6], wal_fpi=row[7], wal_bytes=int(row[8])) for row in rows]

    def database_counters(self, database: str) -> dict[str, int]:
        """pg_stat_database's cumulative counters for ``database``: commits, rollbacks, sessions."""
        (row,) = self.execute(
            "SELECT xact_commit, xact_rollback, sessions FROM pg_stat_database WHERE datname = %s", [database]
        )
        return {"commits": row[0], "rollbacks": row[1], "sessions": row[2]}

    def log_offset(self) -> int:
        return self.log.stat().st_size

    def connections(self, since: int, database: str) -> Counter[str]:
        """Connections opened to ``database`` after the log was at ``since``, by role."""
        with self.log.open("rb") as log:
            log.seek(since)
            text = log.read().decode(errors="replace")
        return Counter(role for role, name in CONNECTED.findall(text) if name == database)

    def close(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            if self.postmaster_pid:
                # SIGINT: the fast shutdown (clients cut off, a clean checkpoint).
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.postmaster_pid, signal.SIGINT)
            try:
                self.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.postmaster_pid, signal.SIGQUIT)
                self.popen.wait(timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)


# The role that owns the shape's tables (it migrated them) and that the benchmark itself queries as.
OWNER = "postgres"
FK_CHECK = "FOR KEY SHARE OF"


@dataclass(frozen=True)
class Statement:
    role: str
    query: str
    calls: int
    rows: int
    exec_ms: float
    plan_ms: float = 0.0
    # The WAL its executions wrote: records, full-page images, bytes.
    wal_records: int = 0
    wal_fpi: int = 0
    wal_bytes: int = 0

    @property
    def sender(self) -> str:
        """Who made the server run it: the role, but for the owner's statements, which are either
        the foreign-key checks that run at the commit of whichever role wrote ("fk-check": Django's
        constraints are deferred, and PostgreSQL runs the checks as the tables' owner), or the
        benchmark's own queries ("benchmark")."""
        if self.role != OWNER:
            return self.role
        return "fk-check" if FK_CHECK in self.query else "benchmark"

    @property
    def kind(self) -> str:
        """ "begin/commit" for the transaction's own statements, "write" for changes (a WITH that
        inserts counts as one), "read" for the rest."""
        words = self.query.lstrip("( ").split(None, 1)
        first = words[0].upper() if words else ""
        if first in {"BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "START"}:
            return "begin/commit"
        upper = self.query.upper()
        if first in {"INSERT", "UPDATE", "DELETE"} or (
            first == "WITH" and any(word in upper for word in ("INSERT ", "UPDATE ", "DELETE "))
        ):
            return "write"
        if first == "SELECT" and " FOR UPDATE" in upper:
            return "lock"
        return "read" if first in {"SELECT", "WITH", "VALUES"} else "other"


@dataclass
class OwnRedis:
    port: int = field(default_factory=free_port)
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-redis-")))
    popen: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        import redis

        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        args += ["--dir", str(self.folder)]
        with (self.folder / "server.log").open("ab") as out:
            self.popen = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while True:
            if self.popen.poll() is not None:
                raise RuntimeError(f"redis-server exited at start: {(self.folder / 'server.log').read_text()[-2000:]}")
            with contextlib.suppress(redis.RedisError):
                if redis.Redis.from_url(self.url, socket_connect_timeout=1).ping():
                    return self
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer within 30 s")
            time.sleep(0.1)

    def close(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class Services:
    postgres_url: str
    redis_url: str
    postgres: OwnPostgres | None
    redis: OwnRedis | None

    @property
    def own(self) -> bool:
        return self.postgres is not None

    def describe(self) -> str:
        database = (
            f"PostgreSQL of its own (port {self.postgres.port}, all its CPU counted)"
            if self.postgres
            else "a shared PostgreSQL (BENCH_POSTGRES_URL: only the backends alive at each reading counted)"
        )
        broker = (
            f"Redis of its own (port {self.redis.port})"
            if self.redis
            else "a shared Redis (BENCH_REDIS_URL: not counted)"
        )
        return f"{database}, {broker}"

    def env(self, shape: Shape, name: str) -> dict[str, str]:
        """Settings for the shape's process ``name``: on our own cluster, its own role."""
        return {"DATABASE_URL": role_url(shape.database_url, name)} if self.postgres is not None else {}

    def meter(self, shape: Shape, names: tuple[str, ...] = PROCESSES) -> Meter:
        """The shape's processes by name (each a process group and what it reaped), PostgreSQL and
        Redis: whole when they are ours, else as described in the module's doc."""
        meter = Meter()
        for name in names:
            meter.add_tree(name, lambda name=name: [shape.processes[name].pid] if name in shape.processes else [])
        if self.postgres is not None:
            meter.add_tree("postgres", [self.postgres.postmaster_pid])
        else:
            meter.add_pids("postgres", lambda: live_backends(shape))
        if self.redis is not None and self.redis.popen is not None:
            meter.add_tree("redis", [self.redis.popen.pid])
        return meter


@contextlib.contextmanager
def benchmark_services(roles: list[str] | None = None, settings: dict[str, str] | None = None) -> Iterator[Services]:
    """Servers of the benchmark's own, unless BENCH_POSTGRES_URL / BENCH_REDIS_URL name others;
    ``settings`` are PostgreSQL settings of our own cluster's."""
    postgres_url = os.environ.get("BENCH_POSTGRES_URL")
    redis_url = os.environ.get("BENCH_REDIS_URL")
    with contextlib.ExitStack() as stack:
        postgres = redis = None
        if not postgres_url:
            postgres = OwnPostgres(list(roles or []), dict(settings or {}))
            stack.callback(postgres.close)
            postgres.start()
            postgres_url = postgres.url()
        if not redis_url:
            redis = OwnRedis()
            stack.callback(redis.close)
            redis.start()
            redis_url = redis.url
        yield Services(postgres_url, redis_url, postgres, redis)


def live_backends(shape: Shape) -> list[int]:
    """The pids of the PostgreSQL backends connected to the shape's database now (this query's own
    left out): all that sampling can see of PostgreSQL without the server's own accounting."""
    return [
        pid
        for (pid,) in shape.sql(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [shape.database_name],
        )
    ]
