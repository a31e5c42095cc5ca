"""How fast the event store appends and loads, against two references measured in the same run.

Run with the project's Python: ``python tests/benchmarks/bench_store.py``. Needs PostgreSQL:
``DATABASE_URL`` if set (must be ``postgres://``), else ``postgres://postgres@127.0.0.1:5432/bench_store``,
created and migrated if missing. Prints:

- our appends per second: 1 client, and 8 clients (threads, each appending to its own table); one
  event per append, each in its own transaction, with the row lock, version check and hash chain;
- the time to load a table (latest snapshot + the events after it, no cache) at 100 and at 10,000
  events, and their ratio (must stay under 2);
- replay speed from the first event, in events per second;
- references on the same database: a bare psycopg INSERT of one row per transaction, and the
  ``eventsourcing`` library (PostgreSQL persistence) saving one event per aggregate save; and the
  ratios of our append rate to each (targets: at least 0.5 of the bare insert, at least 2x the library).

Per event, on the wire: ours is BEGIN, one statement (version compare-and-set, chain head, hash,
insert), COMMIT; the bare insert is BEGIN, INSERT, COMMIT (or the INSERT alone in autocommit);
the library pipelines BEGIN, ``LOCK TABLE ... IN EXCLUSIVE MODE`` and its INSERT, then commits, and
that table lock serialises every writer of every aggregate (see the 8-client figures).

The machine may be shared, so the 1-client contenders run in interleaved chunks (the same
background load hits each alike) and the 8-client figure is the median of three rounds. Runs with
``DEBUG=0`` unless set, as in production.
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_store"
CHUNKS = 12  # interleaved chunks per contender, 1 client
CHUNK = 150  # appends per chunk
ROUNDS = 3  # of the 8-client run
APPENDS_EACH = 300  # per thread per round, 8 clients
CLIENTS = 8


def prepare_database() -> str:
    url = os.environ.setdefault("DATABASE_URL", DEFAULT_URL)
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit(f"bench_store needs PostgreSQL; DATABASE_URL is {url!r}")
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # As in production: with DEBUG on, Django also records every query it runs.
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only-key-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return url


# --- our store ------------------------------------------------------------------------------


def new_table(game, seats: int = 2, target: int = 10**9):
    from django.contrib.auth import get_user_model

    from games.models import Table

    owner, _ = get_user_model().objects.get_or_create(username="bench")
    # Configured directly: a target no hand reaches, so the table can grow to any length.
    config = {"turn_seconds": 60, "target": target, "hands": 1, "start_chips": 10**12, "seats": seats}
    return Table.objects.create(game=game.slug, seats=seats, config=config, owner=owner)


def start(table, game):
    from django.db import transaction

    from games import store
    from tests.games.play import context_for

    state = game.initial_state(table.config)
    with transaction.atomic():
        records = []
        for event in game.decide(state, {"type": "start"}, context_for(table, state)):
            state = game.evolve(state, event)
            records.append(store.NewEvent.of(event, actor="system", hand_no=state.hand_no))
        store.append(table=table, expected_version=table.version, records=records)


def added(seq: int):
    from games import store

    return store.NewEvent(
        type="Added",
        data={"seat": seq % 2, "amount": 1, "total": seq, "by_timeout": False},
        actor="bot:counter",
        hand_no=1,
    )


def our_appends(table, count: int) -> float:
    """Appends per second: one event per command, each command its own transaction."""
    from django.db import transaction

    from games import store

    version = table.version
    began = time.perf_counter()
    for _ in range(count):
        with transaction.atomic():
            store.append(table=table, expected_version=version, records=[added(version - 1)])
        version += 1
    return count / (time.perf_counter() - began)


def in_parallel(workers: list) -> float:
    """Run each worker (a callable returning how many events it wrote) in its own thread, all
    released at once; the combined rate in events per second."""
    from django.db import connections

    barrier = threading.Barrier(len(workers) + 1)
    written: list[int] = []
    errors: list[BaseException] = []

    def run(worker) -> None:
        try:
            barrier.wait()
            written.append(worker())
        except BaseException as error:  # reported after the run
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(worker,)) for worker in workers]
    for thread in threads:
        thread.start()
    barrier.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if errors:
        raise errors[0]
    return sum(written) / elapsed


def our_workers(game, clients: int, each: int) -> list:
    def worker(table) -> int:
        our_appends(table, each)
        return each

    workers = []
    for _ in range(clients):
        table = new_table(game)
        start(table, game)
        workers.append(functools.partial(worker, table))
    return workers


def bare_workers(url: str, clients: int, each: int) -> list:
    import psycopg

    def worker() -> int:
        with psycopg.connect(url, autocommit=True) as conn:
            bare_inserts(url, uuid.uuid4(), each, conn=conn)
        return each

    return [worker] * clients


def library_workers(url: str, clients: int, each: int) -> list:
    # Made one after another: the library creates its tables on start, which must not race.
    def worker(client: EventsourcingClient) -> int:
        try:
            client.saves(each)
        finally:
            client.close()
        return each

    return [functools.partial(worker, EventsourcingClient(url)) for _ in range(clients)]


def grow(table, game, events: int, snapshot_every: int) -> None:
    """Append events in commands of 100, loading after each as the service would (which writes
    the snapshots), but not after the last, so the table ends with a full tail to replay."""
    from django.db import transaction

    from games import store

    while table.version < events:
        batch = min(100, events - table.version)
        with transaction.atomic():
            base = table.version
            records = [added(base - 1 + i) for i in range(batch)]
            store.append(table=table, expected_version=base, records=records)
        if table.version + snapshot_every <= events:
            store.load(table=table, decider=game, cache=False)


def load_seconds(table, game, repeat: int = 30) -> float:
    """Median time of a cold load (snapshot + tail, no cache) of the table's current state."""
    from games import store

    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        store.load(table=table, decider=game, at=table.version, cache=False)
        samples.append(time.perf_counter() - began)
    return statistics.median(samples)


# --- references -----------------------------------------------------------------------------


def bare_inserts(url: str, stream: uuid.UUID, count: int, autocommit: bool = False, conn=None) -> float:
    """One row per transaction over a bare psycopg connection: BEGIN, INSERT, COMMIT (or the
    INSERT alone in autocommit mode, its own implicit transaction)."""
    import psycopg
    from psycopg.types.json import Jsonb

    conn = conn or _bare_connection(url)
    insert = "INSERT INTO bench_bare_insert (stream, seq, data) VALUES (%s, %s, %s)"
    began = time.perf_counter()
    for i in range(count):
        params = [stream, i, Jsonb({"seat": i % 2, "amount": 1, "total": i})]
        if autocommit:
            conn.execute(insert, params)
        else:
            with conn.transaction():
                conn.execute(insert, params)
    assert isinstance(conn, psycopg.Connection)
    return count / (time.perf_counter() - began)


@functools.cache
def _bare_connection(url: str):
    import psycopg

    conn = psycopg.connect(url, autocommit=True)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS bench_bare_insert (id bigserial PRIMARY KEY, stream uuid NOT NULL, "
        "seq integer NOT NULL, data jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
    )
    return conn


@functools.cache
def pile_class() -> type:
    """The library's aggregate, defined once (it registers each class under a topic)."""
    from eventsourcing.domain import Aggregate, event

    class Pile(Aggregate):
        def __init__(self) -> None:
            self.total = 0

        @event("Added")
        def add(self, seat: int, amount: int) -> None:
            self.total += amount

    return Pile


class EventsourcingClient:
    """The eventsourcing library on PostgreSQL: one aggregate, one event per save."""

    def __init__(self, url: str) -> None:
        parts = urlparse(url)
        os.environ.update(
            {
                "PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_DBNAME": parts.path.lstrip("/"),
                "POSTGRES_HOST": parts.hostname or "127.0.0.1",
                "POSTGRES_PORT": str(parts.port or 5432),
                "POSTGRES_USER": parts.username or "postgres",
                "POSTGRES_PASSWORD": parts.password or "",
            }
        )
        from eventsourcing.application import Application

        self.app = Application()
        self.pile = pile_class()()
        self.app.save(self.pile)
        self.saved = 0

    def saves(self, count: int) -> float:
        began = time.perf_counter()
        for i in range(count):
            self.pile.add(i % 2, 1)
            self.app.save(self.pile)
        rate = count / (time.perf_counter() - began)
        self.saved += count
        return rate

    def close(self) -> None:
        assert self.app.repository.get(self.pile.id).total == self.saved
        self.app.close()


# --- the run --------------------------------------------------------------------------------


def main() -> None:
    url = prepare_database()
    from django.conf import settings
    from django.db import connection

    from games import chain, store
    from games.engine import registry
    from tests.games.counter import DECIDER as game

    registry.register(game)
    print(
        f"PostgreSQL {connection.cursor().connection.info.server_version} at {urlparse(url).hostname}; "
        f"SNAPSHOT_EVERY={settings.SNAPSHOT_EVERY}"
    )

    # Interleaved chunks, so that load from other processes on the machine hits every contender alike.
    table = new_table(game)
    start(table, game)
    stream = uuid.uuid4()
    library = EventsourcingClient(url)
    contenders = {
        "ours": lambda: our_appends(table, CHUNK),
        "bare": lambda: bare_inserts(url, stream, CHUNK),
        "bare_autocommit": lambda: bare_inserts(url, stream, CHUNK, autocommit=True),
        "eventsourcing": lambda: library.saves(CHUNK),
    }
    seconds = dict.fromkeys(contenders, 0.0)
    cpu = dict.fromkeys(contenders, 0.0)
    for _ in range(CHUNKS):
        for name, run in contenders.items():
            cpu_began = time.process_time()
            seconds[name] += CHUNK / run()
            cpu[name] += time.process_time() - cpu_began
    library.close()
    done = CHUNK * CHUNKS
    rate = {name: done / spent for name, spent in seconds.items()}
    _bare_connection(url)  # the shared table exists before the threads start
    parallel = {"ours": [], "bare": [], "eventsourcing": []}
    for _ in range(ROUNDS):
        parallel["ours"].append(in_parallel(our_workers(game, CLIENTS, APPENDS_EACH)))
        parallel["bare"].append(in_parallel(bare_workers(url, CLIENTS, APPENDS_EACH)))
        parallel["eventsourcing"].append(in_parallel(library_workers(url, CLIENTS, APPENDS_EACH // 2)))
    many = {name: statistics.median(rates) for name, rates in parallel.items()}
    print(f"append, 1 client:                 {rate['ours']:10,.0f} events/s")
    print(f"bare psycopg insert:              {rate['bare']:10,.0f} rows/s (BEGIN, INSERT, COMMIT)")
    print(f"bare psycopg insert, autocommit:  {rate['bare_autocommit']:10,.0f} rows/s (one statement, no BEGIN)")
    print(f"eventsourcing 9.5:                {rate['eventsourcing']:10,.0f} events/s (one event per aggregate save)")
    print(
        "client CPU per event (µs):        "
        + ", ".join(f"{name} {cpu[name] / done * 1e6:,.0f}" for name in ("ours", "bare", "eventsourcing"))
    )
    print(f"ours / bare insert:               {rate['ours'] / rate['bare']:10.2f}  (target >= 0.50)")
    print(f"ours / bare insert, autocommit:   {rate['ours'] / rate['bare_autocommit']:10.2f}")
    print(f"ours / eventsourcing:             {rate['ours'] / rate['eventsourcing']:10.2f}  (target >= 2.00)")
    print(f"{CLIENTS} clients (threads, each its own table / stream / aggregate):")
    print(f"  append:                         {many['ours']:10,.0f} events/s")
    print(f"  bare psycopg insert:            {many['bare']:10,.0f} rows/s")
    print(f"  eventsourcing 9.5:              {many['eventsourcing']:10,.0f} events/s")
    print(f"  ours / bare insert:             {many['ours'] / many['bare']:10.2f}")
    print(f"  ours / eventsourcing:           {many['ours'] / many['eventsourcing']:10.2f}")

    small, large = new_table(game), new_table(game)
    grow(small, game, 100, settings.SNAPSHOT_EVERY)
    began = time.perf_counter()
    grow(large, game, 10_000, settings.SNAPSHOT_EVERY)
    print(f"grew a table to 10,000 events in {time.perf_counter() - began:.1f} s")
    small_s, large_s = load_seconds(small, game), load_seconds(large, game)
    print(f"load at 100 events:          {small_s * 1000:10.2f} ms (no snapshot: replays 100)")
    print(f"load at 10,000 events:       {large_s * 1000:10.2f} ms (snapshot at 9,900 + 100 events)")
    print(f"load ratio 10,000 / 100:     {large_s / small_s:10.2f}  (target < 2)")
    store.load(table=large, decider=game)  # warms the cache
    began = time.perf_counter()
    for _ in range(100):
        store.load(table=large, decider=game)
    print(f"load at 10,000, cached:      {(time.perf_counter() - began) * 10:10.2f} ms")

    began = time.perf_counter()
    _, version = store.replay_from_scratch(large, game)
    replay_s = time.perf_counter() - began
    print(f"replay from scratch:         {version / replay_s:10,.0f} events/s ({version:,} events incl. fetch)")
    from games.engine.codec import decode_event
    from games.engine.decider import event_types_by_name, replay

    rows = list(store.events_after(large, 0).values_list("type", "data", "secret"))
    types = event_types_by_name(game)
    began = time.perf_counter()
    replay(game, large.config, (decode_event(types, *row) for row in rows))
    fold_s = time.perf_counter() - began
    print(f"  of which decode + evolve:    {len(rows) / fold_s:10,.0f} events/s (rows already in memory)")
    problems = chain.verify_chain(large)
    print(f"hash chain of the 10,000-event table: {'intact' if not problems else problems[:3]}")


if __name__ == "__main__":
    main()
