"""Tables served for real: PostgreSQL, a Celery worker on Redis, the API under the production server
(gunicorn with 2 uvicorn workers, config.asgi; ``--sync``: gunicorn's 2 sync workers, config.wsgi).

Prints, with the targets of issue 4:

1. POST action -> response, median and p95, at tables of ~50 events and one of ~5,000 events
   (9-seat Whiskey Poker, points to 50, one person and eight bots; the person's own actions, timed
   interleaved between the two sizes; bots answer through the worker). Target: ratio < 1.5.
2. Actions per second with 8 client threads on 8 tables of people only (4-seat Whiskey Poker, pot
   scoring, so antes and pots go through the ledger; each thread drives every seat of its table) against a bare DRF endpoint that validates a small body and inserts one row,
   served by the same gunicorn with the same settings, in alternating rounds. Target: >= 40%.
3. Replay speed of La Viuda event streams in the pure engine (decode + evolve, as the store loads;
   evolve alone via ``bench_bots_viuda.replay_speed``). Target: >= 100,000 events/s.
4. A person's action -> the next bot's event recorded (by polling the database) and served (by
   the events endpoint's long-poll). Target: median < 150 ms.

    python tests/benchmarks/bench_tables.py [--quick] [--sync] [1 2 3 4]   (sections; all by default)

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_tables; created
and migrated if missing), BENCH_BROKER_URL (default redis://127.0.0.1:6379/13).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

BIN = Path(sys.executable).parent
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_tables")
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/13")
# One environment for this process, the worker and gunicorn: what differs between the API and the
# bare endpoint is only the view.
ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": DATABASE_URL,
    "CELERY_BROKER_URL": BROKER_URL,
    "ROOT_URLCONF": "tests.benchmarks.urls",
    # Production settings, explicitly: with DEBUG off, settings may require SECRET_KEY.
    "DEBUG": "0",
    # Production settings need a key; the benchmark speaks plain HTTP to 127.0.0.1.
    "SECRET_KEY": "bench-only-key-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",
    "LOG_LEVEL": "WARNING",
    "THROTTLE_USER": "100000000/minute",
    "THROTTLE_ANON": "100000000/minute",
    "DATA_DIR": str(ROOT / "var" / "bench_tables"),
}
os.environ.update(ENV)

QUICK = "--quick" in sys.argv
SYNC = "--sync" in sys.argv
SERVER = "gunicorn, 2 sync workers (WSGI)" if SYNC else "gunicorn, 2 uvicorn workers (ASGI)"
GAME = "whiskey-poker"
# turn_seconds at its maximum: no turn timer fires while the benchmark waits, and its countdown is
# beyond MAX_TASK_COUNTDOWN, so no timer task is even queued.
LONG_OPTIONS = {"scoring": "points", "target_points": 50, "turn_seconds": 3600}
LONG_SEATS = 9
PERSON = 0
BIG_VERSION = 600 if QUICK else 5000  # --quick is a smoke run, not the figure
SMALL_VERSION = 50
SMALL_TABLES = 4 if QUICK else 10
LATENCY_SAMPLES = 20 if QUICK else 60
THREADS = 8
ROUNDS = 2 if QUICK else 3
ROUND_SECONDS = 4.0 if QUICK else 6.0
BOT_SAMPLES = 20 if QUICK else 60


# --- setting up -------------------------------------------------------------------------------


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    import django

    ensure_database(DATABASE_URL)
    django.setup()
    from bare_endpoint import CREATE_TABLE
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    with connection.cursor() as cursor:
        cursor.execute(CREATE_TABLE)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(args: list[str], log: Path, extra: dict[str, str] | None = None) -> subprocess.Popen:
    log.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        args,
        cwd=ROOT,
        env={**os.environ, **ENV, **(extra or {})},
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def start_worker() -> subprocess.Popen:
    from config.celery import app

    app.control.purge()  # messages left by an earlier run would only find moved-on tables
    worker = start(
        [str(BIN / "celery"), "-A", "config", "worker", "--pool=threads", "--concurrency=4", "--loglevel=WARNING"],
        ROOT / "var" / "bench_tables" / "worker.log",
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise RuntimeError("the Celery worker exited; see var/bench_tables/worker.log")
        if app.control.ping(timeout=0.5):
            return worker
    raise RuntimeError("the Celery worker did not answer a ping within 60 s")


def start_gunicorn(port: int) -> subprocess.Popen:
    server = start(
        [
            str(BIN / "gunicorn"),
            *(["config.wsgi"] if SYNC else ["config.asgi:application", "-k", "uvicorn_worker.UvicornWorker"]),
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        ROOT / "var" / "bench_tables" / "gunicorn.log",
        # Under ASGI a persistent connection is left open by each request's thread.
        None if SYNC else {"CONN_MAX_AGE": "0"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited; see var/bench_tables/gunicorn.log")
        try:
            if Client(port, "").request("GET", "/api/v1/games/")[0] == 200:
                return server
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer within 60 s")


class Client:
    """One person's HTTP client: a fresh connection per request (gunicorn's sync workers close them;
    the ASGI server is measured the same way so that the two compare)."""

    def __init__(self, port: int, token: str):
        self.port = port
        self.headers = {"Authorization": f"Token {token}"} if token else {}

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = dict(self.headers)
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        return response.status, json.loads(raw) if raw else None


def make_people(prefix: str, count: int) -> list[tuple[Any, str]]:
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    tag = f"{prefix}{int(time.time() * 1000) % 10**9}x{random.randrange(10**6)}"
    people = []
    for n in range(count):
        user = get_user_model().objects.create_user(username=f"{tag}-{n}")
        people.append((user, AuthToken.objects.create(user)[1]))
    return people


# --- building tables in-process ------------------------------------------------------------------


def build_table(owner, *, seats: int, options: dict, people: dict[int, Any], bots: bool, target: int):
    """A running table, played through the services in this process until its version reaches
    ``target`` at a moment when the person at seat PERSON is awaited (bots' turns played here too)."""
    from games import play
    from games.engine import registry
    from games.models import Table
    from games.play import unit

    decider = registry.get(GAME)
    table = play.create_table(user=owner, game=GAME, seats=seats, options=options)
    for seat in range(seats):
        if seat in people:
            play.join_table(table_id=table.pk, user=people[seat], seat=seat)
        elif bots:
            play.add_bot(table_id=table.pk, user=owner, seat=seat)
    play.start_table(table_id=table.pk, user=owner)
    while True:
        table = Table.objects.get(pk=table.pk)
        if table.status != Table.Status.RUNNING:
            raise RuntimeError(f"table {table.pk} finished at version {table.version} before reaching {target}")
        state, version = play.table_state(table)
        (seat,) = decider.to_act(state)
        if version >= target and seat == PERSON:
            return table
        if seat in people:
            action = play.choose_for(unit.load(table), seat)
            play.act(table_id=table.pk, user=people[seat], action=action, expected_version=version)
        else:
            play.play_bot_turn(table_id=table.pk, expected_version=version)


# --- 1. action latency at 50 and 5,000 events -----------------------------------------------------


def await_turn(client: Client, table_id: str, seat: int) -> dict | None:
    """The table as ``seat`` sees it once it is that seat's turn (bots answer through the worker)."""
    while True:
        status, view = client.request("GET", f"/api/v1/tables/{table_id}/")
        assert status == 200, view
        if view["status"] != "running":
            return None
        if seat in view["to_act"] and view["legal_actions"]:
            return view
        client.request("GET", f"/api/v1/tables/{table_id}/events/?after={view['version']}&wait=10")


def person_action(view: dict, rng: random.Random) -> dict:
    from games.rules.whiskey_poker import bot as bot

    return bot.choose(view["state"], view["legal_actions"], rng)


def timed_action(client: Client, table_id: str, rng: random.Random) -> tuple[float, int, str] | None:
    view = await_turn(client, table_id, PERSON)
    if view is None:
        return None
    action = person_action(view, rng)
    started = time.perf_counter()
    status, body = client.request(
        "POST", f"/api/v1/tables/{table_id}/actions/", {"action": action, "expected_version": view["version"]}
    )
    elapsed = time.perf_counter() - started
    assert status == 200, body
    return elapsed, view["version"], action["type"]


def cold_loads(table) -> tuple[float, float, int]:
    """Loading the big table in a process with no cached state (from its latest snapshot), and
    replaying it from its first event for comparison."""
    from games import store
    from games.engine import registry

    decider = registry.get(GAME)
    store.forget()
    started = time.perf_counter()
    _, version = store.load(table=table, decider=decider)
    cold = time.perf_counter() - started
    started = time.perf_counter()
    store.replay_from_scratch(table, decider)
    return time.perf_counter() - started, cold, version


def measure_action_latency(port: int) -> dict:
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user(username=f"owner{time.time_ns()}")
    rng = random.Random(4)
    started = time.perf_counter()
    people = make_people("big", 1 + SMALL_TABLES)
    big = build_table(
        owner,
        seats=LONG_SEATS,
        options=LONG_OPTIONS,
        people={PERSON: people[0][0]},
        bots=True,
        target=BIG_VERSION,
    )
    print(f"  built a {LONG_SEATS}-seat table to version {big.version} in {time.perf_counter() - started:.0f} s")
    smalls = [
        build_table(
            owner,
            seats=LONG_SEATS,
            options=LONG_OPTIONS,
            people={PERSON: person},
            bots=True,
            target=SMALL_VERSION,
        )
        for person, _ in people[1:]
    ]
    no_snapshot, from_snapshot, version = cold_loads(big)
    big_client = Client(port, people[0][1])
    small_clients = [Client(port, token) for _, token in people[1:]]
    # Untimed warm-up: each gunicorn worker's first load of a table starts from its snapshot.
    for _ in range(2):
        timed_action(big_client, str(big.pk), rng)
        for table, client in zip(smalls, small_clients, strict=True):
            timed_action(client, str(table.pk), rng)
    samples: dict[str, list[tuple[float, int, str]]] = {"small": [], "big": []}
    for n in range(LATENCY_SAMPLES):
        k = n % SMALL_TABLES
        for size, client, table in (("small", small_clients[k], smalls[k]), ("big", big_client, big)):
            sample = timed_action(client, str(table.pk), rng)
            if sample is not None:
                samples[size].append(sample)
    return {"samples": samples, "cold_no_snapshot": no_snapshot, "cold_from_snapshot": from_snapshot, "at": version}


# --- 2. throughput against the bare endpoint ------------------------------------------------------


def people_table(port: int, seats: int = 4) -> dict:
    """A running table of people only, every seat's client held by the one thread that drives it."""
    from games import play

    people = make_people("tp", seats)
    owner = people[0][0]
    table = play.create_table(
        user=owner, game=GAME, seats=seats, options={"scoring": "pot", "chips_per_player": 100, "turn_seconds": 3600}
    )
    for seat, (user, _) in enumerate(people):
        play.join_table(table_id=table.pk, user=user, seat=seat)
    play.start_table(table_id=table.pk, user=owner)
    clients = [Client(port, token) for _, token in people]
    status, view = clients[0].request("GET", f"/api/v1/tables/{table.pk}/")
    assert status == 200, view
    return {"id": str(table.pk), "clients": clients, "view": view}


def drive_table(table: dict, rng: random.Random) -> bool:
    """One action by whoever the table awaits, chosen from the public view alone (pass, take the
    widow or knock; an exchange of one card would need that seat's hand). False when it failed."""
    view = table["view"]
    if not view["to_act"]:
        return False
    seat = view["to_act"][0]
    state = view["state"]
    if not state["widow_face_up"]:
        kind = rng.choices(["pass", "exchange_all", "knock"], weights=[5, 3, 2])[0]
    elif state["turns_before_forced_knock"] == 0:
        kind = "knock"
    else:
        kind = rng.choices(["exchange_all", "knock"], weights=[3, 2])[0]
    status, body = table["clients"][seat].request(
        "POST",
        f"/api/v1/tables/{table['id']}/actions/",
        {"action": {"type": kind}, "expected_version": view["version"]},
    )
    if status != 200:
        _, table["view"] = table["clients"][seat].request("GET", f"/api/v1/tables/{table['id']}/")
        return False
    table["view"] = body["table"]
    return True


def bare_call(client: Client, rng: random.Random) -> bool:
    status, _ = client.request("POST", "/bench/bare/", {"name": "chips", "value": rng.randrange(1000)})
    return status == 201


def run_threads(calls: list[Callable[[], bool]], seconds: float) -> tuple[int, int, float]:
    """Each call in its own thread, repeated for ``seconds``; (successes, failures, elapsed)."""
    done = [0] * len(calls)
    failed = [0] * len(calls)
    stop_at = time.perf_counter() + seconds
    barrier = threading.Barrier(len(calls) + 1)

    def loop(i: int) -> None:
        barrier.wait()
        while time.perf_counter() < stop_at:
            if calls[i]():
                done[i] += 1
            else:
                failed[i] += 1

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    started = time.perf_counter()
    barrier.wait()
    for thread in threads:
        thread.join()
    return sum(done), sum(failed), time.perf_counter() - started


def measure_throughput(port: int) -> dict:
    tables = [people_table(port) for _ in range(THREADS)]
    bare_people = make_people("bare", THREADS)
    bare_clients = [Client(port, token) for _, token in bare_people]
    rngs = [random.Random(i) for i in range(THREADS)]
    ours = [lambda t=t, r=r: drive_table(t, r) for t, r in zip(tables, rngs, strict=True)]
    bare = [lambda c=c, r=r: bare_call(c, r) for c, r in zip(bare_clients, rngs, strict=True)]
    run_threads(ours, 1.0)  # warm-up: first loads of each table in each gunicorn worker
    run_threads(bare, 1.0)
    rounds = []
    for n in range(ROUNDS):
        # Alternate which goes first, so neither always meets the machine in the same mood.
        order = (("ours", ours), ("bare", bare)) if n % 2 == 0 else (("bare", bare), ("ours", ours))
        result = {}
        for name, calls in order:
            result[name] = run_threads(calls, ROUND_SECONDS)
        rounds.append(result)
    return {"rounds": rounds}


# --- 3. replay speed --------------------------------------------------------------------------


def measure_replay(games: int) -> dict:
    """Decode + evolve over La Viuda streams stored as the store keeps them (JSON of each event's
    public and secret parts), and evolve alone by ``bench_bots_viuda.replay_speed``."""
    import bench_bots_viuda

    from games.engine.codec import decode_event, encode_event
    from games.engine.decider import event_types_by_name
    from games.rules.la_viuda.game import DECIDER as LV
    from games.rules.widow.bot import random_legal
    from tests.rules.playout_widow import play

    config = LV.configure(5, {})
    streams = []
    for number in range(games):
        rng = random.Random(number)

        def choose(state, seat, rng=rng):
            return random_legal(LV.legal_actions(state, seat), rng)

        _, events = play(LV, config, choose, f"00000000-0000-4000-8000-{number:012d}")
        streams.append(events)
    stored = [[json.loads(json.dumps(encode_event(event))) for event in events] for events in streams]
    types = event_types_by_name(LV)
    initial = LV.initial_state(config)
    evolve = LV.evolve
    total = sum(len(events) for events in stored)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for events in stored:
            state = initial
            for type_name, data, secret in events:
                state = evolve(state, decode_event(types, type_name, data, secret))
        best = min(best, time.perf_counter() - started)
    _, evolve_only = bench_bots_viuda.replay_speed(streams)
    return {"events": total, "streams": len(streams), "decode_evolve": total / best, "evolve_only": evolve_only}


# --- 4. from a person's action to the bot's event ------------------------------------------------


def measure_bot_latency(port: int) -> dict:
    """Two seats: the person, then a bot. Even samples poll the database for the bot's event; odd
    ones ask the events endpoint with a long-poll, as a client would."""
    from django.contrib.auth import get_user_model

    from games.models import Event, Table

    owner = get_user_model().objects.create_user(username=f"botowner{time.time_ns()}")
    ((person, token),) = make_people("bl", 1)
    rng = random.Random(7)
    table = build_table(owner, seats=2, options=LONG_OPTIONS, people={PERSON: person}, bots=True, target=2)
    client = Client(port, token)
    table_id = str(table.pk)
    samples: dict[str, list[float]] = {"db": [], "long_poll": []}
    for n in range(BOT_SAMPLES + 4):
        view = await_turn(client, table_id, PERSON)
        if view is None:
            break
        action = person_action(view, rng)
        started = time.perf_counter()
        status, body = client.request(
            "POST", f"/api/v1/tables/{table_id}/actions/", {"action": action, "expected_version": view["version"]}
        )
        assert status == 200, body
        if 1 not in body["table"]["to_act"]:
            continue  # the hand ended and the person deals again: no bot is next
        version = body["version"]
        if n % 2 == 0:
            while not Table.objects.filter(pk=table_id, version__gt=version).exists():
                time.sleep(0.002)
            elapsed = time.perf_counter() - started
            kind = "db"
        else:
            status, events = client.request("GET", f"/api/v1/tables/{table_id}/events/?after={version}&wait=10")
            elapsed = time.perf_counter() - started
            assert status == 200 and events["results"], events
            kind = "long_poll"
        actor = Event.objects.filter(table_id=table_id, seq=version + 1).values_list("actor", flat=True).first()
        assert actor == "bot:1", actor
        if n >= 4:  # the first few warm the worker's and gunicorn's caches
            samples[kind].append(elapsed)
    return samples


# --- report -----------------------------------------------------------------------------------


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def report_latency(port: int, rows: list, result: dict) -> None:
    print("1. POST action -> response")
    latency = measure_action_latency(port)
    small = [s[0] for s in latency["samples"]["small"]]
    big = [s[0] for s in latency["samples"]["big"]]
    for size, values in (("small", small), ("big", big)):
        versions = [s[1] for s in latency["samples"][size]]
        kinds: dict[str, int] = {}
        for s in latency["samples"][size]:
            kinds[s[2]] = kinds.get(s[2], 0) + 1
        print(
            f"  {size:>5} table, versions {min(versions)}..{max(versions)}: n={len(values)} "
            f"median {ms(statistics.median(values))}, p95 {ms(p95(values))}; actions {kinds}"
        )
    print(
        f"  the big table (version {latency['at']}) loaded without a cached state: "
        f"{ms(latency['cold_from_snapshot'])} from its latest snapshot; {ms(latency['cold_no_snapshot'])} "
        "replayed from its first event"
    )
    median_ratio = statistics.median(big) / statistics.median(small)
    p95_ratio = p95(big) / p95(small)
    rows.append(("action median, 5,000 / 50 events", f"{median_ratio:.2f}", "< 1.5", _met(median_ratio < 1.5)))
    rows.append(("action p95, 5,000 / 50 events", f"{p95_ratio:.2f}", "< 1.5", _met(p95_ratio < 1.5)))
    result.update(
        action_p50_small_ms=f"{statistics.median(small) * 1000:.1f}",
        action_p50_big_ms=f"{statistics.median(big) * 1000:.1f}",
        median_ratio=f"{median_ratio:.2f}",
        p95_ratio=f"{p95_ratio:.2f}",
    )


def report_throughput(port: int, rows: list, result: dict) -> None:
    print(f"2. throughput, {THREADS} threads, {ROUNDS} alternating rounds of {ROUND_SECONDS:.0f} s")
    throughput = measure_throughput(port)
    totals = {"ours": [0, 0, 0.0], "bare": [0, 0, 0.0]}
    for n, outcome in enumerate(throughput["rounds"], 1):
        line = []
        for name in ("ours", "bare"):
            done, failed, elapsed = outcome[name]
            totals[name][0] += done
            totals[name][1] += failed
            totals[name][2] += elapsed
            line.append(f"{name} {done / elapsed:.0f}/s ({failed} failed)")
        print(f"  round {n}: " + ", ".join(line))
    ours_rate = totals["ours"][0] / totals["ours"][2]
    bare_rate = totals["bare"][0] / totals["bare"][2]
    share = ours_rate / bare_rate
    print(f"  actions {ours_rate:.0f}/s, bare endpoint {bare_rate:.0f}/s")
    rows.append(("actions/s vs bare endpoint", f"{share:.0%}", ">= 40%", _met(share >= 0.4)))
    result.update(ours_rps=f"{ours_rate:.0f}", bare_rps=f"{bare_rate:.0f}", share=f"{share:.2f}")


def report_replay(port: int, rows: list, result: dict) -> None:
    print("3. replay, La Viuda, 5 seats")
    replay = measure_replay(40 if QUICK else 200)
    print(
        f"  {replay['events']} events in {replay['streams']} streams: decode + evolve "
        f"{replay['decode_evolve']:,.0f} events/s; evolve alone {replay['evolve_only']:,.0f} events/s"
    )
    speed = replay["decode_evolve"]
    rows.append(("replay, decode + evolve", f"{speed:,.0f}/s", ">= 100,000/s", _met(speed >= 100_000)))
    result.update(replay_eps=f"{speed:.0f}")


def report_bot_latency(port: int, rows: list, result: dict) -> None:
    print("4. person's action -> bot's event")
    bot = measure_bot_latency(port)
    for kind, values in bot.items():
        print(f"  {kind:>9}: n={len(values)} median {ms(statistics.median(values))}, p95 {ms(p95(values))}")
    recorded = statistics.median(bot["db"])
    served = statistics.median(bot["long_poll"])
    rows.append(("bot's event recorded, median", ms(recorded), "< 150 ms", _met(recorded < 0.150)))
    rows.append(("bot's event served (long-poll), median", ms(served), "< 150 ms", _met(served < 0.150)))
    result.update(bot_recorded_p50_ms=f"{recorded * 1000:.1f}", bot_served_p50_ms=f"{served * 1000:.1f}")


SECTIONS = {"1": report_latency, "2": report_throughput, "3": report_replay, "4": report_bot_latency}


def main() -> None:
    chosen = [arg for arg in sys.argv[1:] if arg in SECTIONS] or list(SECTIONS)
    setup_django()
    from games import scheduling

    # This process builds tables itself and plays their bots in place; only gunicorn's requests
    # hand work to the worker.
    scheduling.set_publisher(lambda *args: None)
    port = free_port()
    worker = start_worker()
    server = None
    rows: list[tuple[str, str, str, str]] = []
    result: dict[str, str] = {}
    try:
        server = start_gunicorn(port)
        print(f"PostgreSQL {DATABASE_URL}, broker {BROKER_URL}, {SERVER} on 127.0.0.1:{port}")
        for section in chosen:
            SECTIONS[section](port, rows, result)
    finally:
        if server is not None:
            stop(server)
        stop(worker)

    print()
    print(f"{'figure':<40} {'measured':>12} {'target':>14}  met")
    for name, value, target, met in rows:
        print(f"{name:<40} {value:>12} {target:>14}  {met}")
    print("RESULT " + " ".join(f"{key}={value}" for key, value in result.items()))


def _met(ok: bool) -> str:
    return "yes" if ok else "NO"


if __name__ == "__main__":
    main()
