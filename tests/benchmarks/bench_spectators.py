"""Spectators on the production shape: what 500 live streams of one table cost one web process,
and what a stream opened with no position costs on a table of 100,000 events.

The shape (tests/production/shape.py): one gunicorn master with one uvicorn worker, on a PostgreSQL
database and a Redis db of its own (dropped at the end); no Celery worker (the tables have people
only).

(a) Two people play 2-seat Whiskey Poker. A third person opens ``--spectators`` streams of that
    table with no position (each starts from the spectator's view, then gets every event), read
    all the time on one asyncio loop. Measured: the time each new stream takes to get its status
    line and headers, while they are opened 50 at a time and then one at a time once all are
    held; the action POST's round trip (median, p99) and how long its first event takes to reach a
    spectator's stream, while every stream gets every event; the web worker's RSS before, with and
    after the streams (closed, then ``--settle`` seconds).
(b) A table of 100,000 events (a real game, its events appended in bulk in this process: a seat
    sitting out and in, valid for the game's fold), with a snapshot at its end as commands leave
    one. A stream opened there with no position: the bytes it sends and the web worker's CPU until
    the view has arrived, then while it waits for the next event; and ``after=0`` answered.

    python tests/benchmarks/bench_spectators.py [--spectators 500] [--actions 200] [--events 100000]

Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres; a database of
the benchmark's own is created beside it), BENCH_REDIS_URL (default redis://127.0.0.1:6379/0; an
empty db number is claimed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_sse import (  # noqa: E402
    StreamReader,
    cpu_seconds,
    ms,
    new_table,
    proc_status,
    quantile,
    worker_pids,
)
from tests.production.players import Person, register  # noqa: E402
from tests.production.shape import Process, Shape  # noqa: E402


def rss_mb(pid: int) -> float:
    return int(proc_status(pid)["VmRSS"].split()[0]) / 1024


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Spectators:
    """Streams of one table opened on an asyncio loop of its own (a thread), each read to its end
    all the time (as a browser reads it), with the time each took to get its headers."""

    def __init__(self, web: Process, token: str, table_id: str) -> None:
        self.web, self.token, self.table_id = web, token, table_id
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.writers: list[asyncio.StreamWriter] = []
        self.readers: list[asyncio.Task[None]] = []
        self.headers: list[float] = []
        self.refused: list[str] = []
        self.bytes = 0

    async def _open(self) -> None:
        started = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", self.web.port, limit=1 << 20)
        writer.write(
            (
                f"GET /api/v1/tables/{self.table_id}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Token {self.token}\r\nAccept: text/event-stream\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        status = await reader.readline()
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        if b" 200 " not in status:
            self.refused.append(status.decode().strip())
            writer.close()
            return
        self.headers.append(time.perf_counter() - started)
        self.writers.append(writer)
        self.readers.append(asyncio.ensure_future(self._drain(reader)))

    async def _drain(self, reader: asyncio.StreamReader) -> None:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            self.bytes += len(chunk)

    def open(self, count: int, batch: int) -> None:
        async def open_all() -> None:
            for start in range(0, count, batch):
                await asyncio.gather(*(self._open() for _ in range(min(batch, count - start))))

        asyncio.run_coroutine_threadsafe(open_all(), self.loop).result(timeout=600)

    def close(self) -> None:
        async def close_all() -> None:
            for task in self.readers:
                task.cancel()
            for writer in self.writers:
                writer.close()

        asyncio.run_coroutine_threadsafe(close_all(), self.loop).result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def play_actions(people: list[Person], table_id: str, actions: int, rng: random.Random, probe: StreamReader):
    """``actions`` actions by whichever seat is awaited: each POST's round trip, and the time from
    just before it to its first event on the probe spectator stream."""
    from games.engine import presence

    posts: list[float] = []
    reached: list[float] = []
    while len(posts) < actions:
        status, view = people[0].request("GET", f"/api/v1/tables/{table_id}/")
        assert status == 200, view
        if view["status"] != "running":
            break
        seat = view["to_act"][0]
        _, mine = people[seat].request("GET", f"/api/v1/tables/{table_id}/")
        action = rng.choice([a for a in mine["legal_actions"] if not presence.is_presence_action(a)])
        started = time.perf_counter()
        sent = people[seat].act(table_id, action, mine["version"])
        assert sent.status == 200, sent.answer
        posts.append(sent.seconds)
        arrived = probe.wait_for(sent.answer["events"][0]["seq"])
        assert arrived is not None, "the event never reached the probe spectator's stream"
        reached.append(arrived - started)
    return posts, reached


def spectators(shape: Shape, web: Process, pid: int, args: argparse.Namespace) -> None:
    people = [register([web], f"play{n}") for n in range(2)]
    watcher = register([web], "watcher")
    rng = random.Random(37)
    # "Before" is read once the process has served the same kinds of requests as the measured part,
    # minus its 500 streams: sign-ups, a table made, joined and started, 20 actions with their table
    # GETs, and one spectator stream of that table that got each event (left open, as it is for the
    # "with" and "after" readings), then 3 s quiet. Its code paths, caches and pools are then warm,
    # and what remains after the streams close is what they leave, not the first use of the code.
    table_id, version = new_table(people[0], people[1])
    play_actions(people, table_id, 20, rng, _probe(web, watcher, table_id, version))
    time.sleep(3)
    before = rss_mb(pid)
    table_id, version = new_table(people[0], people[1])
    held = Spectators(web, watcher.token, table_id)
    started = time.perf_counter()
    held.open(args.spectators, 50)
    took = time.perf_counter() - started
    opening = list(held.headers)
    late = Spectators(web, watcher.token, table_id)
    for _ in range(args.late):
        late.open(1, 1)
    print(
        f"(a) {len(held.writers)} spectator streams of one table opened in {took:.1f}s, 50 at a time "
        f"({len(held.refused)} refused {held.refused[:1]}): headers median {ms(statistics.median(opening))}, "
        f"p99 {ms(quantile(opening, 0.99))}, max {ms(max(opening))}; "
        f"{len(late.headers)} more opened one at a time with them held ({len(late.refused)} refused): median "
        f"{ms(statistics.median(late.headers))}, max {ms(max(late.headers))}"
    )
    with_streams = rss_mb(pid)
    probe = _probe(web, watcher, table_id, version)
    cpu_before = cpu_seconds(pid)
    clock = time.perf_counter()
    posts, reached = play_actions(people, table_id, args.actions, rng, probe)
    cpu = cpu_seconds(pid) - cpu_before
    elapsed = time.perf_counter() - clock
    print(
        f"    {len(posts)} actions with them live: POST round trip median {ms(statistics.median(posts))}, "
        f"p99 {ms(quantile(posts, 0.99))}, max {ms(max(posts))}; POST sent -> its event on a spectator's "
        f"stream median {ms(statistics.median(reached))}, p99 {ms(quantile(reached, 0.99))}; the streams "
        f"read {held.bytes / 1e6:.1f} MB; web worker CPU {cpu:.1f}s over {elapsed:.1f}s "
        f"({cpu / max(len(posts), 1) * 1000:.1f} ms an action)"
    )
    probe.close()
    held.close()
    late.close()
    time.sleep(args.settle)
    after = rss_mb(pid)
    print(
        f"    web worker RSS: before {before:.0f} MB, with the streams {with_streams:.0f} MB, "
        f"{args.settle:.0f}s after they closed {after:.0f} MB ({(after - before) / before:+.1%} of before)"
    )


def _probe(web: Process, watcher: Person, table_id: str, version: int) -> StreamReader:
    reader = StreamReader(web, watcher.token, table_id, version)
    reader.start()
    return reader


def big_table(shape: Shape, web: Process, pid: int, args: argparse.Namespace) -> None:
    people = [register([web], f"big{n}") for n in range(2)]
    table_id, version = new_table(people[0], people[1])
    built = time.perf_counter()
    version = _append_in_bulk(shape, table_id, version, args.events)
    print(f"(b) a table of {version:,} events built in {time.perf_counter() - built:.1f}s (bulk append)")
    for label in ("first stream", "second stream"):
        before = cpu_seconds(pid)
        started = time.perf_counter()
        sent, first_message = _until_view(web, people[1].token, table_id)
        cpu = cpu_seconds(pid) - before
        print(
            f"    {label} with no position: {sent:,} bytes until its view had arrived "
            f"({first_message}), in {ms(time.perf_counter() - started)}, web worker CPU {cpu * 1000:.0f} ms"
        )
    status, body = people[1].request("GET", f"/api/v1/tables/{table_id}/stream/?after=0")
    print(f"    after=0 answered {status} {body.get('code')} catch_up={body.get('catch_up')}")


def _until_view(web: Process, token: str, table_id: str) -> tuple[int, str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=120)
    try:
        conn.request(
            "GET",
            f"/api/v1/tables/{table_id}/stream/",
            headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"},
        )
        response = conn.getresponse()
        assert response.status == 200, response.read()
        sent, head = 0, ""
        while True:
            line = response.fp.readline()
            sent += len(line)
            if line.startswith((b"id: ", b"event: ")):
                head += line.decode().strip() + " "
            if line.startswith(b"data: "):
                return sent, head.strip()
    finally:
        conn.close()


def _append_in_bulk(shape: Shape, table_id: str, version: int, events: int) -> int:
    """``events`` events appended to the running table in this process, 1,000 a statement through
    the store (a hash chain as any command's): seat 1 sitting out and back in, which every game's
    fold takes at any moment. Then the state is loaded once, leaving the snapshot a command would."""
    for name, value in {**shape.base_env, "DATABASE_URL": shape.database_url}.items():
        os.environ[name] = value
    import django

    django.setup()
    from django.db import transaction

    from games import store
    from games.engine import presence, registry
    from games.models import Table

    records = [
        store.NewEvent.of(kind(seat=1), actor="system", hand_no=1) for kind in (presence.SatOut, presence.SatIn)
    ] * 500
    while version < events:
        with transaction.atomic():
            table = Table.objects.get(pk=table_id)
            store.append(table=table, expected_version=table.version, records=records)
            version = table.version
    table = Table.objects.get(pk=table_id)
    # Past SNAPSHOT_EVERY events from the last snapshot, a load writes one.
    store.load(table=table, decider=registry.get(table.game), cache=False)
    return version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--late", type=int, default=20, help="streams opened one at a time once all are held")
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--settle", type=float, default=10.0, help="seconds after the streams closed")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.spectators + 1024)), hard))
    postgres = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    env = {
        # One person holds every spectator stream; throttles would count the benchmark's own pace.
        "STREAMS_MAX_PER_USER": str(args.spectators + args.late + 20),
        # The late streams are spectators too: held with the others, not refused by the cap.
        "STREAM_SPECTATORS_PER_TABLE": str(args.spectators + args.late + 20),
        "THROTTLE_USER": "1000000/minute",
        "THROTTLE_ANON": "1000000/minute",
    }
    with Shape.create(postgres, redis, prefix="bench_spectators", env=env) as shape:
        web = shape.start_web("web1", workers=1)
        (pid,) = worker_pids(web)
        print(
            f"production shape: gunicorn + 1 uvicorn worker (pid {pid}), PostgreSQL, Redis; "
            f"{os.cpu_count()} cores, load average {load_average()} at the start"
        )
        spectators(shape, web, pid, args)
        big_table(shape, web, pid, args)
        print(f"load average at the end: {load_average()}")
        problems = shape.dead()
        if problems:
            print(f"processes died: {problems}\n{shape.logs()}")
            sys.exit(1)


if __name__ == "__main__":
    main()
