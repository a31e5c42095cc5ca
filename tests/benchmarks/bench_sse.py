"""Live updates in the production shape: how fast an action reaches another seat's event stream, what
1,000 idle streams cost one web process, and whether other requests notice them.

The shape (tests/production/shape.py): one gunicorn master with one uvicorn worker, on a PostgreSQL
database and a Redis db of its own (dropped at the end); no Celery worker is needed, the tables
have people only.

(a) Two people play 2-seat Whiskey Poker; the second seat holds the table's stream open. Each
    action's latency is from just before its POST is sent to the moment the first event it appended
    arrives on the other seat's stream (the POST's own time included): median and p99.
(b) 1,000 idle table streams held by the one web process: its memory (RSS), threads and CPU
    while it holds them.
(c) GET /api/v1/games/ latency, sequentially, without and with the 1,000 streams held; and (a)
    again while they are held.
(d) the same with 100 long polls waiting (each on a thread of the web process), and how long
    after one action they have all answered.

    python tests/benchmarks/bench_sse.py [--actions 300] [--idle 1000] [--gets 300] [--polls 100]

Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres; a database of
the benchmark's own is created beside it), BENCH_REDIS_URL (default redis://127.0.0.1:6379/0; an
empty db number is claimed).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import resource
import statistics
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.engine import presence  # noqa: E402
from tests.production.players import Person, register  # noqa: E402
from tests.production.shape import Process, Shape  # noqa: E402

SPEC = {
    "game": "whiskey-poker",
    "seats": 2,
    "options": {"scoring": "points", "target_points": 50, "turn_seconds": 3600},
}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


class StreamReader(threading.Thread):
    """One table stream read on a thread: the arrival time of each event id."""

    def __init__(self, web: Process, token: str, table_id: str, after: int):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=120)
        self.conn.request(
            "GET",
            f"/api/v1/tables/{table_id}/stream/?after={after}",
            headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"},
        )
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()
        self.arrived: dict[int, float] = {}
        # Seconds from the event's created_at (the server's clock, this machine's) to its arrival.
        self.since_recorded: dict[int, float] = {}
        self.cond = threading.Condition()

    def run(self) -> None:
        try:
            while True:
                line = self.response.fp.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    now, wall = time.perf_counter(), time.time()
                    seq = int(line[4:])
                elif line.startswith(b"data: "):
                    recorded = datetime.fromisoformat(json.loads(line[6:])["created_at"]).timestamp()
                    with self.cond:
                        self.arrived[seq] = now
                        self.since_recorded[seq] = wall - recorded
                        self.cond.notify_all()
        except (OSError, ValueError, AttributeError):  # closed by close()
            return

    def wait_for(self, seq: int, timeout: float = 10.0) -> float | None:
        with self.cond:
            self.cond.wait_for(lambda: seq in self.arrived, timeout)
            return self.arrived.get(seq)

    def close(self) -> None:
        self.conn.close()


def new_table(owner: Person, other: Person) -> tuple[str, int]:
    status, body = owner.request("POST", "/api/v1/tables/", SPEC)
    assert status == 201, body
    table_id = body["id"]
    for seat, who in enumerate((owner, other)):
        status, body = who.request("POST", f"/api/v1/tables/{table_id}/join/", {"seat": seat})
        assert status == 200, body
    status, body = owner.request("POST", f"/api/v1/tables/{table_id}/start/")
    assert status == 200, body
    return table_id, body["version"]


def action_latencies(
    web: Process,
    people: list[Person],
    actions: int,
    rng: random.Random,
    posts: list[float] | None = None,
    recorded: list[float] | None = None,
    after_answer: list[float] | None = None,
) -> list[float]:
    """``actions`` actions by whichever person is awaited, each timed to the other seat's stream
    (and the POST's own round trip to ``posts``)."""
    latencies: list[float] = []
    posts = [] if posts is None else posts
    recorded = [] if recorded is None else recorded
    after_answer = [] if after_answer is None else after_answer
    while len(latencies) < actions:
        table_id, version = new_table(people[0], people[1])
        readers = {seat: StreamReader(web, people[seat].token, table_id, version) for seat in (0, 1)}
        for reader in readers.values():
            reader.start()
        try:
            while len(latencies) < actions:
                status, view = people[0].request("GET", f"/api/v1/tables/{table_id}/")
                assert status == 200, view
                if view["status"] == "finished":
                    break
                seat = view["to_act"][0]
                status, mine = people[seat].request("GET", f"/api/v1/tables/{table_id}/")
                action = rng.choice([a for a in mine["legal_actions"] if not presence.is_presence_action(a)])
                started = time.perf_counter()
                sent = people[seat].act(table_id, action, mine["version"])
                assert sent.status == 200, sent.answer
                first = sent.answer["events"][0]["seq"]
                arrived = readers[1 - seat].wait_for(first)
                assert arrived is not None, f"event {first} never reached seat {1 - seat}'s stream"
                latencies.append(arrived - started)
                posts.append(sent.seconds)
                # Negative when the stream had it before the POST's own answer arrived.
                after_answer.append(arrived - (started + sent.seconds))
                recorded.append(readers[1 - seat].since_recorded[first])
        finally:
            for reader in readers.values():
                reader.close()
    return latencies


def get_latencies(web: Process, count: int) -> list[float]:
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    times = []
    try:
        for _ in range(count):
            started = time.perf_counter()
            conn.request("GET", "/api/v1/games/")
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            times.append(time.perf_counter() - started)
    finally:
        conn.close()
    return times


class IdleStreams:
    """``count`` table streams opened on one asyncio loop of their own (a thread), held until closed."""

    def __init__(self, web: Process, token: str, table_id: str, after: int, count: int):
        self.web, self.token, self.table_id, self.after, self.count = web, token, table_id, after, count
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.writers: list[asyncio.StreamWriter] = []
        self.refused = 0

    async def _open(self) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.web.port)
        writer.write(
            (
                f"GET /api/v1/tables/{self.table_id}/stream/?after={self.after} HTTP/1.1\r\n"
                f"Host: 127.0.0.1\r\nAuthorization: Token {self.token}\r\nAccept: text/event-stream\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            self.refused += 1
            writer.close()
            return
        # Headers, then the retry line: the stream is open and waiting.
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        await reader.readuntil(b"\n\n")
        self.writers.append(writer)

    async def _open_all(self) -> None:
        batch = 50
        for start in range(0, self.count, batch):
            await asyncio.gather(*(self._open() for _ in range(min(batch, self.count - start))))

    def open(self) -> None:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open_all(), self.loop).result(timeout=300)

    def close(self) -> None:
        async def close_all() -> None:
            for writer in self.writers:
                writer.close()

        asyncio.run_coroutine_threadsafe(close_all(), self.loop).result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def long_polls(web: Process, people: list[Person], count: int, gets: int) -> tuple[list[float], float, int]:
    """``count`` long polls waiting on a fresh table (threads of this process), GET latency while
    they wait, then one action: how long until every poll has answered, and how many had its event."""
    table_id, version = new_table(people[0], people[1])
    answered: list[float] = []
    got_event = []
    failures: list[tuple[int, str]] = []
    lock = threading.Lock()

    def poll() -> None:
        status, body = people[0].request("GET", f"/api/v1/tables/{table_id}/events/?after={version}&wait=25")
        with lock:
            answered.append(time.perf_counter())
            got_event.append(status == 200 and bool(body.get("results")))
            if not got_event[-1]:
                failures.append((status, str(body)[:200]))

    threads = [threading.Thread(target=poll, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(6)  # a benchmark, not a test: time for every poll to be waiting
    busy = get_latencies(web, gets)
    _, view = people[0].request("GET", f"/api/v1/tables/{table_id}/")
    seat = view["to_act"][0]
    _, mine = people[seat].request("GET", f"/api/v1/tables/{table_id}/")
    acted = time.perf_counter()
    sent = people[seat].act(table_id, mine["legal_actions"][0], mine["version"])
    assert sent.status == 200, sent.answer
    for thread in threads:
        thread.join(timeout=30)
    for failure in failures[:3]:
        print(f"    a long poll answered without the event: {failure}")
    return busy, max(answered) - acted if answered else float("nan"), sum(got_event)


def worker_pids(web: Process) -> list[int]:
    """gunicorn's workers: the master's children."""
    children = Path(f"/proc/{web.pid}/task/{web.pid}/children")
    return [int(pid) for pid in children.read_text().split()]


def proc_status(pid: int) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":\t" in line)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def describe(pid: int, seconds: float) -> str:
    before = cpu_seconds(pid)
    time.sleep(seconds)
    cpu = (cpu_seconds(pid) - before) / seconds * 100
    status = proc_status(pid)
    return f"RSS {status['VmRSS'].strip()}, {status['Threads'].strip()} threads, CPU {cpu:.1f}% over {seconds:.0f}s"


def ms(value: float) -> str:
    return f"{value * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--gets", type=int, default=300)
    parser.add_argument("--polls", type=int, default=100, help="long polls waiting at once in (d)")
    parser.add_argument("--hold", type=float, default=20.0, help="seconds the idle streams' CPU is measured over")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.idle + 1024)), hard))

    postgres = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    env = {
        # One person holds every idle stream here; throttles would count the benchmark's own pace.
        "STREAMS_MAX_PER_USER": str(args.idle + 100),
        "LONG_POLL_MAX_PER_USER": str(args.polls + 10),
        "THROTTLE_USER": "1000000/minute",
        "THROTTLE_ANON": "1000000/minute",
    }
    rng = random.Random(14)
    with Shape.create(postgres, redis, prefix="bench_sse", env=env) as shape:
        web = shape.start_web("web1", workers=1)
        (pid,) = worker_pids(web)
        people = [register([web], f"sse{n}") for n in range(2)]
        print(f"production shape: gunicorn + 1 uvicorn worker (pid {pid}), PostgreSQL, Redis")

        get_latencies(web, 50)  # warm-up
        quiet = get_latencies(web, args.gets)
        posts: list[float] = []
        recorded: list[float] = []
        after_answer: list[float] = []
        latencies = action_latencies(web, people, args.actions, rng, posts, recorded, after_answer)
        print(
            f"(a) action POST -> event on the other seat's stream, {len(latencies)} actions: "
            f"median {ms(statistics.median(latencies))}, p99 {ms(quantile(latencies, 0.99))}, "
            f"max {ms(max(latencies))}; the POST's own round trip: median {ms(statistics.median(posts))}, "
            f"p99 {ms(quantile(posts, 0.99))}"
        )
        print(
            f"    from the event's created_at (inside the command's transaction) to its arrival: "
            f"median {ms(statistics.median(recorded))}, p99 {ms(quantile(recorded, 0.99))}; "
            f"after the POST's own answer arrived: median {ms(statistics.median(after_answer))}, "
            f"p99 {ms(quantile(after_answer, 0.99))}"
        )
        print(f"    web worker after (a), before the idle streams: {describe(pid, 5)}")

        table_id, version = new_table(people[0], people[1])
        idle = IdleStreams(web, people[0].token, table_id, version, args.idle)
        started = time.perf_counter()
        idle.open()
        print(
            f"(b) {len(idle.writers)} idle streams opened in {time.perf_counter() - started:.1f}s "
            f"({idle.refused} refused); web worker holding them: {describe(pid, args.hold)}"
        )
        busy = get_latencies(web, args.gets)
        print(
            f"(c) GET /api/v1/games/, {args.gets} sequential: without streams median {ms(statistics.median(quiet))}, "
            f"p99 {ms(quantile(quiet, 0.99))}; with {len(idle.writers)} streams held median "
            f"{ms(statistics.median(busy))}, p99 {ms(quantile(busy, 0.99))}"
        )
        loaded = action_latencies(web, people, max(50, args.actions // 3), rng)
        print(
            f"    (a) again with the streams held, {len(loaded)} actions: median {ms(statistics.median(loaded))}, "
            f"p99 {ms(quantile(loaded, 0.99))}"
        )
        idle.close()
        polled, woke, with_event = long_polls(web, people, args.polls, args.gets)
        print(
            f"(d) GET /api/v1/games/ with {args.polls} long polls waiting: median {ms(statistics.median(polled))}, "
            f"p99 {ms(quantile(polled, 0.99))}; after one action every poll answered within {ms(woke)} "
            f"({with_event} of {args.polls} with its event)"
        )
        problems = shape.dead()
        if problems:
            print(f"processes died: {problems}\n{shape.logs()}")
            sys.exit(1)
        print(json.dumps({"a_median_ms": round(statistics.median(latencies) * 1000, 1)}))


if __name__ == "__main__":
    main()
