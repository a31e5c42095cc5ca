"""What a streaming replica takes off the primary: hand audits a second served from the replica
against from the primary, and the primary's person actions under the same audit load read from the
one or the other.

A PostgreSQL primary and a streaming standby of the benchmark's own (tests/benchmarks/servers.py,
``pg_basebackup -R``), a Redis server of its own, and the production shape on the primary
(tests/production/shape.py): "web" takes the person actions (commands read and write the primary
whatever the setting); two web processes serve the audits, "audits-primary" without
``DATABASE_REPLICA_URL`` and "audits-replica" with it, alike in all else; a Celery worker and beat
play the audited tables. Each process connects as a role of its own ("web", "auditor", "worker"),
so that pg_stat_statements on each server says whose statements it ran.

First, tables of bots only (La Viuda for money, whose audits hold postings too) are played to their
end; their finished hands are what is audited, by a member of staff, round robin.

1. Audits a second: ``--clients`` clients each ask for one audit after another for ``--seconds``,
   of "audits-primary", then of "audits-replica", and so on for ``--rounds`` rounds (each process
   having served a few audits before, unmeasured).
2. The primary's actions: Whiskey Poker tables of three people and no bot (``--tables``; nothing
   but the benchmark moves them), one person action (a table GET to see whose turn, the person's
   GET, the action POST) at a fixed rate (``--action-rate`` a second over all the tables) for
   ``--seconds``, three windows a round: without audits, with a fixed audit load (``--audit-rate``
   a second, each audit sent on time whether the previous has answered or not) to
   "audits-primary", and with the same load to "audits-replica". The POST's latency (p50, p99) and
   the actions answered.

For each window: the CPU of each process group counted whole (tests/benchmarks/cpu.py: the web
processes, the primary cluster and the standby cluster with every backend they forked), and the
statements each server ran for the auditor role (calls and execution time, pg_stat_statements).
The machine may be shared and both servers share its cores: the load average is printed beside each
window; the CPU and statement figures per audit say what moves off the primary, the rates what this
machine did.

    python tests/benchmarks/bench_replica.py [--seconds 20] [--clients 4] [--tables 6]
        [--action-rate 4] [--audit-rate 3] [--rounds 2] [--audited-tables 2]

Needs the PostgreSQL server binaries (pg_basebackup among them) and redis-server.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.cpu import Meter, Spent, machine_busy  # noqa: E402
from tests.benchmarks.servers import OwnPostgres, OwnRedis, role_url  # noqa: E402
from tests.production.players import Person, TableSpec, moves, register, staff_member  # noqa: E402
from tests.production.shape import Process, Shape  # noqa: E402

ROLES = ["web", "auditor", "worker"]
AUDITED = TableSpec(
    "la-viuda", 4, people=0, options={"chips_per_player": 3}, stake={"currency": "MXN", "chip_value": "1.00"}
)
ACTED = TableSpec(
    "whiskey-poker", 3, people=3, options={"scoring": "points", "target_points": 50, "turn_seconds": 3600}
)
# Audits each audit web process serves before the first window.
WARMUP = 10
# People and staff send far more than a person would; the throttles must not be what is measured.
ENV = {"THROTTLE_ANON": "100000/minute", "THROTTLE_USER": "1000000/minute", "THROTTLE_LOGIN_ADDRESS": "100000/minute"}


@dataclass
class Window:
    """One measured window: what was sent, how long each took, the CPU and the auditor's statements."""

    name: str
    seconds: float
    audits: list[float] = field(default_factory=list)
    actions: list[float] = field(default_factory=list)
    failed: Counter[str] = field(default_factory=Counter)
    spent: Spent | None = None
    # The auditor role's (calls, execution ms) on each server over the window.
    auditor: dict[str, tuple[int, float]] = field(default_factory=dict)
    load: float = 0.0
    machine_cores: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, status: int, took: float) -> None:
        with self.lock:
            if status != 200:
                self.failed[f"{kind} {status}"] += 1
            else:
                (self.audits if kind == "audit" else self.actions).append(took)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds measured per window")
    parser.add_argument("--clients", type=int, default=4, help="clients asking for audits one after another (1.)")
    parser.add_argument("--tables", type=int, default=6, help="tables the person actions are spread over (2.)")
    parser.add_argument("--action-rate", type=float, default=4.0, help="person actions a second (2.)")
    parser.add_argument("--audit-rate", type=float, default=3.0, help="audits a second beside the actions (2.)")
    parser.add_argument("--audited-tables", type=int, default=2, help="tables of bots played for their audits")
    parser.add_argument("--rounds", type=int, default=2, help="windows of audits from each, alternating (1.)")
    args = parser.parse_args()

    started = time.monotonic()
    print(f"{os.cpu_count()} cores; load average at the start {_load()}")
    with contextlib.ExitStack() as stack:
        primary = OwnPostgres(list(ROLES))
        stack.callback(primary.close)
        primary.start()
        standby = OwnPostgres()
        stack.callback(standby.close)
        standby.start_standby_of(primary)
        redis = OwnRedis()
        stack.callback(redis.close)
        redis.start()
        shape = stack.enter_context(Shape.create(primary.url(), redis.url, prefix="bench_replica", env=ENV))
        database = shape.database_name
        replica = role_url(standby.url(database), "auditor")
        web = shape.start_web("web", env={"DATABASE_URL": role_url(shape.database_url, "web")})
        auditor = {"DATABASE_URL": role_url(shape.database_url, "auditor")}
        audit_webs = {
            "primary": shape.start_web("audits-primary", env=auditor),
            "replica": shape.start_web("audits-replica", env={**auditor, "DATABASE_REPLICA_URL": replica}),
        }
        worker_env = {"DATABASE_URL": role_url(shape.database_url, "worker")}
        shape.start_worker("worker", concurrency=2, env=worker_env)
        shape.start_beat(sweep_seconds=0.5, env=worker_env)
        print(
            f"primary and standby of its own (ports {primary.port}, {standby.port}), Redis of its own; "
            "web, audits-primary, audits-replica: gunicorn + 1 uvicorn worker each; 1 Celery worker (2 threads), beat"
        )

        staff = staff_member(shape, [web])
        hands = audited_hands(shape, web, staff, args.audited_tables)
        _wait_replayed(primary, standby)
        print(
            f"audited: {len(hands)} finished hands of {args.audited_tables} La Viuda tables of 4 bots ({_since(started)})"
        )
        meter = Meter()
        for name, process in shape.processes.items():
            meter.add_tree(name, [process.pid])
        meter.add_tree("primary", [primary.postmaster_pid])
        meter.add_tree("standby", [standby.postmaster_pid])
        servers = {"primary": primary, "standby": standby}

        # Each audit web process's first requests (imports, its pools opened) are not measured.
        for process in audit_webs.values():
            for path in hands[:WARMUP]:
                status, body = process.request("GET", path, token=staff.token)
                assert status == 200, body
        audits_per_second = []
        for source in ("primary", "replica") * args.rounds:
            window = Window(f"audits from the {source}", args.seconds)
            with measuring(window, meter, servers, database):
                closed_loop_audits(audit_webs[source], staff, hands, args.clients, window)
            audits_per_second.append(window)
            print_window(window)

        people = [Person(p.username, p.token, [web]) for p in (register([web], f"act{n}") for n in range(3))]
        tables = [new_table(people) for _ in range(args.tables)]
        acting = []
        for source in (None, "primary", "replica") * args.rounds:
            name = (
                "actions, no audits" if source is None else f"actions, {args.audit_rate:g} audits/s from the {source}"
            )
            window = Window(name, args.seconds)
            audits = None if source is None else (audit_webs[source], staff, hands, args.audit_rate)
            _wait_replayed(primary, standby)
            with measuring(window, meter, servers, database):
                fixed_rate(tables, people, args.action_rate, audits, window)
            acting.append(window)
            print_window(window)
            if shape.dead():
                raise RuntimeError("a process exited:\n" + shape.logs())

    print(f"\nwhole run {_since(started)}; load average at the end {_load()}")
    print(result_line(audits_per_second, acting))


# --- what is audited ---------------------------------------------------------------------------


def audited_hands(shape: Shape, web: Process, staff: Person, count: int) -> list[str]:
    """The audit paths of every finished hand of ``count`` tables of bots, played to their end."""
    owner = register([web], f"owner{uuid.uuid4().hex[:6]}")
    ids = []
    for _ in range(count):
        status, body = owner.request(
            "POST",
            "/api/v1/tables/",
            {"game": AUDITED.game, "seats": AUDITED.seats, "options": AUDITED.options, "stake": AUDITED.stake},
        )
        assert status == 201, body
        table_id = body["id"]
        for seat in range(AUDITED.seats):
            status, body = owner.request("POST", f"/api/v1/tables/{table_id}/bots/", {"seat": seat})
            assert status == 201, body
        status, body = owner.request("POST", f"/api/v1/tables/{table_id}/start/")
        assert status == 200, body
        ids.append(table_id)
    deadline = time.monotonic() + 300
    while shape.sql("SELECT count(*) FROM games_table WHERE id = ANY(%s) AND status <> 'finished'", [ids])[0][0]:
        if time.monotonic() > deadline or shape.dead():
            raise RuntimeError("the audited tables did not finish:\n" + shape.logs())
        time.sleep(0.5)
    paths = []
    for table_id in ids:
        cursor = ""
        while True:
            status, page = staff.request("GET", f"/api/v1/tables/{table_id}/hands/?limit=100{cursor}")
            assert status == 200, page
            paths += [hand["audit"] for hand in page["results"]]
            if not page["has_more"]:
                break
            cursor = f"&cursor={page['next_cursor']}"
    return paths


def _wait_replayed(primary: OwnPostgres, standby: OwnPostgres) -> None:
    ((written,),) = primary.execute("SELECT pg_current_wal_lsn()::text")
    deadline = time.monotonic() + 60
    while not standby.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [written])[0][0]:
        if time.monotonic() > deadline:
            raise RuntimeError("the standby did not catch up within 60 s")
        time.sleep(0.1)


# --- the loads -----------------------------------------------------------------------------------


def closed_loop_audits(web: Process, staff: Person, hands: list[str], clients: int, window: Window) -> None:
    """``clients`` threads, each asking for the next audit as soon as the last has answered."""
    paths = itertools.cycle(hands)
    lock = threading.Lock()
    until = time.monotonic() + window.seconds

    def client() -> None:
        while time.monotonic() < until:
            with lock:
                path = next(paths)
            started = time.perf_counter()
            status, _ = web.request("GET", path, token=staff.token)
            window.record("audit", status, time.perf_counter() - started)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def new_table(people: list[Person]) -> str:
    """A Whiskey Poker table of the three people, started (the owner's request as in players.set_up_table)."""
    owner = people[0]
    status, body = owner.request(
        "POST", "/api/v1/tables/", {"game": ACTED.game, "seats": ACTED.seats, "options": ACTED.options}
    )
    assert status == 201, body
    table_id = body["id"]
    for seat, person in enumerate(people):
        status, body = person.request("POST", f"/api/v1/tables/{table_id}/join/", {"seat": seat})
        assert status == 200, body
    status, body = owner.request("POST", f"/api/v1/tables/{table_id}/start/")
    assert status == 200, body
    return table_id


def fixed_rate(
    tables: list[str],
    people: list[Person],
    rate: float,
    audits: tuple[Process, Person, list[str], float] | None,
    window: Window,
) -> None:
    """Person actions at ``rate`` a second, each table in turn (a table finished is replaced), and
    beside them, if given, audits at their own rate, each sent on time by a pool of its own."""
    until = time.monotonic() + window.seconds
    rng = random.Random(28)
    stop = threading.Event()
    auditing = None
    if audits is not None:
        auditing = threading.Thread(target=_audits_at_rate, args=(*audits, window, stop), daemon=True)
        auditing.start()
    turn = itertools.count()
    due = time.monotonic()
    while due < until:
        time.sleep(max(0.0, due - time.monotonic()))
        index = next(turn) % len(tables)
        tables[index] = act_once(tables[index], people, rng, window)
        due += 1 / rate
    stop.set()
    if auditing is not None:
        auditing.join()


def act_once(table_id: str, people: list[Person], rng: random.Random, window: Window) -> str:
    """One person action at the table (whoever it awaits): the table, or a new one if it finished."""
    status, view = people[0].request("GET", f"/api/v1/tables/{table_id}/")
    assert status == 200, view
    if view["status"] == "finished":
        return new_table(people)
    person = people[view["to_act"][0]]
    status, mine = person.request("GET", f"/api/v1/tables/{table_id}/")
    assert status == 200, mine
    sent = person.act(table_id, rng.choice(moves(mine["legal_actions"])), mine["version"])
    window.record("action", sent.status, sent.seconds)
    return table_id


def _audits_at_rate(
    web: Process, staff: Person, hands: list[str], rate: float, window: Window, stop: threading.Event
) -> None:
    paths = itertools.cycle(hands)

    def audit(path: str) -> None:
        started = time.perf_counter()
        status, _ = web.request("GET", path, token=staff.token)
        window.record("audit", status, time.perf_counter() - started)

    with ThreadPoolExecutor(max_workers=16) as pool:
        due = time.monotonic()
        while not stop.wait(max(0.0, due - time.monotonic())):
            pool.submit(audit, next(paths))
            due += 1 / rate


# --- measuring -----------------------------------------------------------------------------------


@contextlib.contextmanager
def measuring(window: Window, meter: Meter, servers: dict[str, OwnPostgres], database: str):
    calls = {name: auditor_statements(server, database) for name, server in servers.items()}
    before, busy = meter.read(), machine_busy()
    yield
    window.spent = meter.read() - before
    after_busy = machine_busy()
    window.machine_cores = (after_busy[0] - busy[0]) / (after_busy[1] - busy[1]) * (os.cpu_count() or 1)
    for name, server in servers.items():
        now = auditor_statements(server, database)
        window.auditor[name] = (now[0] - calls[name][0], now[1] - calls[name][1])
    window.load = os.getloadavg()[0]


def auditor_statements(server: OwnPostgres, database: str) -> tuple[int, float]:
    """Calls and execution milliseconds of the auditor role's statements on ``server`` so far."""
    ((calls, ms),) = server.execute(
        """
        SELECT coalesce(sum(s.calls), 0), coalesce(sum(s.total_exec_time), 0) FROM pg_stat_statements s
        JOIN pg_database d ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid
        WHERE d.datname = %s AND r.rolname = 'auditor'
        """,
        [database],
    )
    return int(calls), float(ms)


# --- printing ------------------------------------------------------------------------------------


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def _since(started: float) -> str:
    return f"{time.monotonic() - started:.0f} s"


def _ms(values: list[float], q: float) -> str:
    return f"{quantile(values, q) * 1000:.0f}" if values else "-"


def print_window(window: Window) -> None:
    assert window.spent is not None
    audits, actions = len(window.audits), len(window.actions)
    cpu = window.spent.seconds
    line = f"\n== {window.name}: {window.seconds:.0f} s, load average {window.load:.1f}, machine {window.machine_cores:.2f} cores busy"
    print(line)
    if audits:
        print(
            f"   audits: {audits} ({audits / window.seconds:.1f}/s), p50 {_ms(window.audits, 0.5)} ms, "
            f"p99 {_ms(window.audits, 0.99)} ms"
        )
    if actions:
        print(
            f"   person actions: {actions} ({actions / window.seconds:.2f}/s), POST p50 {_ms(window.actions, 0.5)} ms, "
            f"p99 {_ms(window.actions, 0.99)} ms, mean {statistics.mean(window.actions) * 1000:.0f} ms"
        )
    if window.failed:
        print("   failed: " + ", ".join(f"{kind} x{count}" for kind, count in sorted(window.failed.items())))
    print(
        "   CPU s: "
        + ", ".join(f"{name} {seconds:.1f}" for name, seconds in sorted(cpu.items()) if seconds >= 0.05)
        + f" (primary cluster {window.spent.cores('primary'):.2f} cores, standby {window.spent.cores('standby'):.2f})"
    )
    for server, (calls, ms) in window.auditor.items():
        per = f", {ms / audits:.1f} ms and {calls / audits:.1f} statements per audit" if audits else ""
        print(f"   auditor's statements on the {server}: {calls} calls, {ms:.0f} ms executing{per}")
    if audits:
        print(
            f"   primary cluster CPU per audit: {cpu.get('primary', 0.0) * 1000 / audits:.1f} ms (all its work in the window)"
        )


def result_line(audits: list[Window], acting: list[Window]) -> str:
    """Each figure once a round, in the order measured."""
    figures: dict[str, list[str]] = {}
    for window in audits:
        source = window.name.rsplit(" ", 1)[1]
        figures.setdefault(f"audits_per_s_{source}", []).append(f"{len(window.audits) / window.seconds:.1f}")
    for window in acting:
        source = window.name.rsplit(" ", 1)[1] if "from the" in window.name else "none"
        figures.setdefault(f"actions_per_s_{source}", []).append(f"{len(window.actions) / window.seconds:.2f}")
        figures.setdefault(f"action_p50_ms_{source}", []).append(_ms(window.actions, 0.5))
        figures.setdefault(f"action_p99_ms_{source}", []).append(_ms(window.actions, 0.99))
    return "RESULT replica " + " ".join(f"{name}={'/'.join(values)}" for name, values in figures.items())


if __name__ == "__main__":
    main()
