"""Connections opened by the production shape: PostgreSQL sessions and Redis connections per second
while a few tables play, with the code as it is checked out (issue 24: pooled connections).

The shape (tests/production/shape.py): gunicorn with uvicorn workers, one Celery worker (threads)
and beat, on a fresh PostgreSQL database of its own and on a Redis server this script starts for
itself on a free port, so that Redis's ``total_connections_received`` counts the shape's
connections alone. Each table is 4-seat Whiskey Poker with one person, who reads the table every
``--period`` seconds and acts when awaited, and three bots (the worker's tasks).

Over the ``--window``, after a warm-up, it reads ``pg_stat_database.sessions`` of the shape's
database (every session PostgreSQL started for it) and Redis's ``INFO stats``, through connections
of its own to other databases, and prints the deltas:

    python tests/benchmarks/bench_connections.py [--tables 6] [--window 40] [--warmup 5]
        [--period 2] [--web-workers 2] [--worker-concurrency 4]

Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres; a database of
the benchmark's own is created beside it and dropped at the end); REDIS_SERVER (default
redis-server on PATH). Anything else given to the shape's processes comes from the environment
(DATABASE_POOL=false, DATABASE_POOL_MAX_SIZE=…).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.production.players import Person, PlayedTable, TableSpec, moves, register, set_up_table  # noqa: E402
from tests.production.shape import Shape, free_port  # noqa: E402

# turn_seconds at its maximum: a person who waits for their period is never timed out.
SPEC = TableSpec("whiskey-poker", 4, people=1, options={"scoring": "points", "target_points": 50, "turn_seconds": 3600})


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis server of this run's own on a free loopback port, nothing saved; its URL."""
    binary = os.environ.get("REDIS_SERVER") or shutil.which("redis-server")
    if not binary:
        raise SystemExit("redis-server not found (set REDIS_SERVER)")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="bench-connections-redis-")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        import redis

        client = redis.Redis(port=port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


class Counters:
    """PostgreSQL's and Redis's counters, read on connections kept open for the run (to the
    ``postgres`` database and to Redis), so reading them opens nothing the deltas would count."""

    def __init__(self, shape: Shape, redis_url: str):
        import psycopg
        import redis

        self.database = shape.database_name
        self.pg = psycopg.connect(shape.admin_url, autocommit=True)
        self.redis = redis.Redis.from_url(redis_url)

    def read(self) -> dict[str, int]:
        self.pg.execute("SELECT pg_stat_clear_snapshot()")
        sessions, backends = self.pg.execute(
            "SELECT (SELECT sessions FROM pg_stat_database WHERE datname = %s),"
            " (SELECT count(*) FROM pg_stat_activity WHERE datname = %s)",
            [self.database, self.database],
        ).fetchone()
        stats = self.redis.info("stats")
        clients = self.redis.info("clients")
        return {
            "sessions": int(sessions or 0),
            "backends": int(backends),
            # Less this reader's own connection, made before the first reading.
            "redis_connections": int(stats["total_connections_received"]),
            "redis_clients": int(clients["connected_clients"]) - 1,
        }

    def close(self) -> None:
        self.pg.close()
        self.redis.close()


class Load:
    """Each table's person reads the table every ``period`` seconds and acts when awaited."""

    def __init__(self, period: float):
        self.period = period
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.requests = 0
        self.errors = 0
        self.threads: list[threading.Thread] = []

    def add(self, table: PlayedTable) -> None:
        thread = threading.Thread(target=self._person, args=(table, random.Random(len(self.threads))), daemon=True)
        self.threads.append(thread)
        thread.start()

    def _person(self, table: PlayedTable, rng: random.Random) -> None:
        person: Person = table.people[0]
        path = f"/api/v1/tables/{table.id}/"
        next_tick = time.monotonic() + rng.uniform(0, self.period)
        while not self.stopping.wait(max(0.0, next_tick - time.monotonic())):
            next_tick += self.period
            sent = 0
            try:
                status, view = person.request("GET", path)
                sent += 1
                if status != 200:
                    raise OSError(f"GET {status}")
                choices = moves(view["legal_actions"]) if 0 in view["to_act"] else []
                if view["status"] == "running" and choices:
                    answer = person.act(table.id, rng.choice(choices), view["version"])
                    sent += 1
                    if answer.status not in (200, 409):
                        raise OSError(f"POST {answer.status}")
            except OSError:
                with self.lock:
                    self.errors += 1
            with self.lock:
                self.requests += sent

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--window", type=float, default=40.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds after setting up, not measured")
    parser.add_argument("--period", type=float, default=2.0, help="seconds between a person's reads")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--worker-concurrency", type=int, default=4)
    args = parser.parse_args()

    postgres = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with (
        redis_server() as redis_url,
        Shape.create(postgres, redis_url, prefix="bench_connections", env={"THROTTLE_ANON": "100000/minute"}) as shape,
    ):
        web = shape.start_web("web", workers=args.web_workers)
        shape.start_worker("worker", concurrency=args.worker_concurrency)
        shape.start_beat(sweep_seconds=1.0)
        print(
            f"{ROOT}: gunicorn + {args.web_workers} uvicorn workers, 1 Celery worker "
            f"({args.worker_concurrency} threads), beat (sweep each 1 s); {args.tables} tables, a person's read "
            f"every {args.period:g} s"
        )
        load = Load(args.period)
        counters = Counters(shape, redis_url)
        try:
            for n in range(args.tables):
                load.add(set_up_table(SPEC, [register([web], f"conn{n}")]))
            time.sleep(args.warmup)
            before, requests_before, started = counters.read(), load.requests, time.monotonic()
            time.sleep(args.window)
            after, requests_after, elapsed = counters.read(), load.requests, time.monotonic() - started
            # Read after the window: this connection to the shape's database is not counted.
            bot_actions = shape.sql("SELECT count(*) FROM games_event WHERE actor LIKE 'bot:%%'")[0][0]
        finally:
            load.stop()
            counters.close()
        if shape.dead():
            raise SystemExit("a process exited:\n" + shape.logs())
    report(before, after, elapsed, requests_after - requests_before, load.errors, bot_actions)


def report(
    before: dict[str, int], after: dict[str, int], elapsed: float, requests: int, errors: int, bots: int
) -> None:
    sessions = after["sessions"] - before["sessions"]
    redis = after["redis_connections"] - before["redis_connections"]
    print(
        f"window {elapsed:.1f} s: {requests} HTTP requests ({requests / elapsed:.1f}/s), {errors} errors; bot events so far {bots}"
    )
    print(
        f"PostgreSQL sessions opened: {sessions} ({sessions / elapsed:.2f}/s, {sessions / max(requests, 1):.2f} per request)"
    )
    print(f"PostgreSQL backends connected at the end: {after['backends']}")
    print(f"Redis connections opened:   {redis} ({redis / elapsed:.2f}/s, {redis / max(requests, 1):.2f} per request)")
    print(f"Redis clients connected at the end: {after['redis_clients']}")
    print(
        f"RESULT pg_sessions_per_s={sessions / elapsed:.2f} redis_connections_per_s={redis / elapsed:.2f} "
        f"requests_per_s={requests / elapsed:.1f}"
    )


if __name__ == "__main__":
    main()
