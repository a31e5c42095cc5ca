"""What one person action costs in the production shape: CPU by process, and statements by request.

The shape of bench_capacity.py (gunicorn with uvicorn workers, a Celery threads worker, beat) on a
PostgreSQL cluster and a Redis server of the benchmark's own (tests/benchmarks/servers.py), each
process connecting as a PostgreSQL role of its own. Tables of one person and three bots: 4-seat
Whiskey Poker to 50 points as in bench_capacity.py, and La Viuda (money, 10 chips). Two parts:

1. CPU per person action. Each table's person wakes every ``--period`` seconds, reads the table and,
   if awaited, sends one random legal action. Over ``--window`` seconds every process's CPU is
   counted whole (tests/benchmarks/cpu.py: the web server's master and workers, the worker, beat,
   the PostgreSQL cluster with every backend it forked and reaped, Redis) and divided by the person
   actions answered 200. An action's cycle is thus the person's table GET and action POST, the bot
   turns that follow, and its share of beat's sweep and of whatever else ran. The statements each
   role sent (pg_stat_statements), the commits and the connections opened (pg_stat_database, the
   server's connection log) are divided the same way.
2. Statements and CPU per request kind, one request at a time on a quiet shape: a table GET, an
   events GET (a page of the last 10 events), an action POST with the bot turns after it (the
   benchmark watches the table row for the bots to be done, and the one GET per action that fetches
   the person's legal actions goes to a second web server, "probe", with a role of its own, so that
   its statements are not counted and its PostgreSQL and Redis CPU is taken off at a table GET's
   cost), and a bot turn (the worker's statements and CPU while those POSTs were answered, divided
   by the bot commands recorded, counted from the events: one command's events share their actor and
   time). The idle shape's CPU (beat's sweeps, mostly), measured for 3 s first, is taken off each.
   Connections opened per request come from the server's log.

    python tests/benchmarks/bench_action_cost.py [--games whiskey-poker,la-viuda] [--tables 10]
        [--period 5] [--warmup 5] [--window 30] [--requests 20] [--web-workers 3] [--statements 6]

The load generator runs on the same machine; its own CPU is printed, not counted. The machine may
be shared: the load average and the machine's busy cores during the window are printed with it.

Environment: BENCH_POSTGRES_URL and BENCH_REDIS_URL point at servers already running instead (then
PostgreSQL's CPU is under-counted, the backends born and reaped between two readings being missed,
Redis's is left out, and there are no statement or connection counts).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_capacity import SPEC, Load, Step  # noqa: E402
from tests.benchmarks.cpu import Meter, Spent, machine_busy, reference_seconds, self_seconds  # noqa: E402
from tests.benchmarks.servers import OWNER, PROCESSES, Services, Statement, benchmark_services, live_backends  # noqa: E402
from tests.production.players import (  # noqa: E402
    Person,
    PlayedTable,
    TableSpec,
    deposit,
    moves,
    register,
    set_up_table,
    staff_member,
)
from tests.production.shape import Process, Shape  # noqa: E402

SPECS = {
    "whiskey-poker": SPEC,
    "la-viuda": TableSpec(
        "la-viuda",
        4,
        people=1,
        options={"chips_per_player": 10, "max_orbits": 50, "turn_seconds": 3600, "widow_offer_seconds": 3600},
        stake={"currency": "MXN", "chip_value": "1.00"},
    ),
}
SWEEP_SECONDS = 1.0
ROLES = [*PROCESSES, "probe"]
COLUMNS = ["web", "worker", "beat", "postgres", "redis"]


@dataclass
class Window:
    """What the shape did over the measured window of one game."""

    game: str
    step: Step
    spent: Spent
    generator: float
    machine_cores: float
    load: tuple[float, float, float]
    # Person actions answered when the window closed (a tick under way may still add one after).
    actions: int
    # PostgreSQL's CPU as sampling the shape's backends at the window's two ends saw it (the old
    # accounting), to compare with the whole.
    sampled_postgres: float | None = None
    statements: list[Statement] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    connections: Counter[str] = field(default_factory=Counter)
    commands: Counter[str] = field(default_factory=Counter)


@dataclass
class Kind:
    """Statements per request of one kind, by role."""

    name: str
    requests: int
    statements: list[Statement]
    connections: Counter[str]
    role: str
    # Milliseconds of CPU per request by process (see ``cpu_of``).
    cpu: dict[str, float] = field(default_factory=dict)

    def exec_ms(self, plan: bool = False) -> float:
        """Milliseconds PostgreSQL spent executing (or planning) the role's statements, per request."""
        spent = sum(s.plan_ms if plan else s.exec_ms for s in self.statements if s.sender == self.role)
        return spent / self.requests if self.requests else float("nan")

    def per_request(self, sender: str | None = None, kind: str | None = None) -> float:
        sender = sender or self.role
        calls = sum(s.calls for s in self.statements if s.sender == sender and (kind is None or s.kind == kind))
        return calls / self.requests if self.requests else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="whiskey-poker,la-viuda")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--period", type=float, default=5.0, help="seconds between a person's actions")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--window", type=float, default=30.0, help="seconds measured per game")
    parser.add_argument("--requests", type=int, default=20, help="requests of each kind in part 2")
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--worker-concurrency", type=int, default=4)
    parser.add_argument("--statements", type=int, default=6, help="statements listed per request kind")
    args = parser.parse_args()
    games = games_asked(parser, args.games, SPECS)

    # How fast this machine runs Python, before anything else loads it (figures scale with it).
    reference = reference_seconds()
    print(f"machine reference: {reference * 1000:.0f} ms of CPU for a fixed piece of Python (tests/benchmarks/cpu.py)")
    started = time.monotonic()
    with benchmark_services(ROLES) as services:
        env = {"THROTTLE_ANON": "100000/minute", "THROTTLE_LOGIN_ADDRESS": "100000/minute"}
        with Shape.create(services.postgres_url, services.redis_url, prefix="bench_cost", env=env) as shape:
            web = shape.start_web("web", workers=args.web_workers, env=services.env(shape, "web"))
            shape.start_worker("worker", concurrency=args.worker_concurrency, env=services.env(shape, "worker"))
            shape.start_beat(sweep_seconds=SWEEP_SECONDS, env=services.env(shape, "beat"))
            probe = shape.start_web("probe", workers=1, env=services.env(shape, "probe")) if services.own else None
            print(
                f"gunicorn + {args.web_workers} uvicorn workers, 1 Celery worker ({args.worker_concurrency} threads), "
                f"beat sweeping every {SWEEP_SECONDS:g} s; {services.describe()}; {os.cpu_count()} cores; "
                f"load average before: {_load_text(os.getloadavg())}",
                flush=True,
            )
            staff = staff_member(shape, [web]) if any(SPECS[game].stake for game in games) else None
            windows, kinds = [], {}
            for game in games:
                tables = _tables(SPECS[game], args.tables, web, staff, game)
                window = measure_window(services, shape, tables, game, args)
                windows.append(window)
                print_window(window)
                if probe is not None:
                    time.sleep(2)  # the bots' last turns and their relays, before the quiet part
                    kinds[game] = measure_kinds(services, shape, web, probe, tables[0], args.requests)
                    print_kinds(game, kinds[game], args.statements)
                if shape.dead():
                    raise RuntimeError("a process exited:\n" + shape.logs())
    print(f"\nwhole run {time.monotonic() - started:.0f} s; load average after: {_load_text(os.getloadavg())}")
    print(result_line(windows, kinds) + f" reference_ms={reference * 1000:.0f}")


def games_asked(parser: argparse.ArgumentParser, text: str, known: Mapping[str, object]) -> list[str]:
    """The games of ``--games`` (comma-separated), refused unless each is one of ``known``."""
    games = [game.strip() for game in text.split(",") if game.strip()]
    unknown = set(games) - set(known)
    if unknown:
        parser.error(f"unknown games {sorted(unknown)}; known: {sorted(known)}")
    return games


def _tables(spec: TableSpec, count: int, web: Process, staff: Person | None, game: str) -> list[PlayedTable]:
    tables = []
    for n in range(count):
        person = register([web], f"{game[:6]}{n}{uuid.uuid4().hex[:6]}")
        if spec.stake and staff is not None:
            deposit(staff, person, spec.stake["currency"], "100.00")
        tables.append(set_up_table(spec, [person]))
    return tables


def measure_window(services: Services, shape: Shape, tables: list[PlayedTable], game: str, args) -> Window:
    load = Load(args.period)
    for table in tables:
        load.add(table)
    try:
        time.sleep(args.warmup)
        meter = services.meter(shape)
        own = services.postgres
        if own is not None:
            own.reset_statements()
            counters = own.database_counters(shape.database_name)
            log_at = own.log_offset()
        (first_event,) = shape.sql("SELECT coalesce(max(id), 0) FROM games_event")[0]
        step = Step(len(tables), load=os.getloadavg())
        sampling = sampled_postgres(shape) if own is not None else None
        # The sampler's own query (a connection) goes before the window opens, not in it.
        sampled = sampling.read() if sampling else None
        generator, busy = self_seconds(), machine_busy()
        before = meter.read()
        load.step = step
        time.sleep(args.window)
        load.step = None
        spent = meter.read() - before
        actions = len(step.latencies)
        sampled_spent = (sampling.read() - sampled).seconds["postgres"] if sampling and sampled else None
        generator = self_seconds() - generator
        busy_after = machine_busy()
        machine_cores = (busy_after[0] - busy[0]) / spent.wall
        (last_event,) = shape.sql("SELECT coalesce(max(id), 0) FROM games_event")[0]
        window = Window(game, step, spent, generator, machine_cores, os.getloadavg(), actions, sampled_spent)
        window.commands = commands_between(shape, first_event, last_event)
        if own is not None:
            window.statements = own.statements(shape.database_name)
            after = own.database_counters(shape.database_name)
            window.counters = {name: after[name] - counters[name] for name in after}
            window.connections = own.connections(log_at, shape.database_name)
        return window
    finally:
        load.stopping.set()
        for thread in load.threads:
            thread.join(timeout=15)


def sampled_postgres(shape: Shape) -> Meter:
    """The old accounting of PostgreSQL: the own CPU of the shape's backends alive at a reading."""
    meter = Meter()
    meter.add_pids("postgres", lambda: live_backends(shape))
    return meter


def commands_between(shape: Shape, first: int, last: int) -> Counter[str]:
    """Commands recorded with event ids in (first, last], by kind of actor (bot, user, system): one
    command's events share their table, actor and time (games.store.append stamps them once)."""
    rows = shape.sql(
        """
        SELECT split_part(actor, ':', 1), count(DISTINCT (table_id, actor, created_at))
        FROM games_event WHERE id > %s AND id <= %s GROUP BY 1
        """,
        [first, last],
    )
    return Counter({kind: count for kind, count in rows})


class Requests:
    """One person's requests of each kind at ``table``, one at a time; each returns how many it sent.
    The person's turn is watched in the table row (the version, whether a bot is awaited) on a
    connection of the benchmark's own, so that the probe's GETs are one per action."""

    def __init__(
        self,
        shape: Shape,
        web: Process,
        probe: Process,
        table: PlayedTable,
        count: int,
        choose: Callable[[dict, random.Random], dict] | None = None,
    ):
        import psycopg

        person = table.people[0]
        self.web, self.probe, self.table, self.count = web, probe, table, count
        self.token = person.token
        self.reader = Person(person.username, person.token, [probe])
        self.writer = Person(person.username, person.token, [web])
        self.path = f"/api/v1/tables/{table.id}/"
        self.probes = Counter[str]()
        self.rng = random.Random(7)
        # The person's move given their view: by default any of the game's moves at random.
        self.choose = choose or (lambda view, rng: rng.choice(moves(view["legal_actions"])))
        self.watch = psycopg.connect(shape.database_url, autocommit=True)

    def close(self) -> None:
        self.watch.close()

    def table_get(self) -> int:
        for _ in range(self.count):
            _ok(self.web.request("GET", self.path, token=self.token), "table GET")
        return self.count

    def events_get(self) -> int:
        _, view = self.probe.request("GET", self.path, token=self.token)
        after = max(0, view["version"] - 10)
        for _ in range(self.count):
            _ok(self.web.request("GET", f"{self.path}events/?after={after}", token=self.token), "events GET")
        return self.count

    def action_post(self) -> int:
        sent = 0
        for _ in range(self.count):
            view = _awaited(self.reader, self.path, self.probes)
            if view is None:
                break
            answer = self.writer.act(self.table.id, self.choose(view, self.rng), view["version"])
            if answer.status != 200:
                raise RuntimeError(f"action POST: {answer.status} {answer.answer}")
            sent += 1
            self.bots_done(view["version"])
        return sent

    def bots_done(self, after_version: int) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            row = self.watch.execute(
                "SELECT version, awaits_bot FROM games_table WHERE id = %s", [self.table.id]
            ).fetchone()
            if row is not None and row[0] > after_version and not row[1]:
                return
            time.sleep(0.01)
        raise RuntimeError("the bots did not answer within 30 s")


def measure_kinds(
    services: Services, shape: Shape, web: Process, probe: Process, table: PlayedTable, count: int
) -> dict[str, Kind]:
    """Statements and CPU per request of each kind, one request at a time on ``table``."""
    requests = Requests(shape, web, probe, table, count)
    runs: list[tuple[str, Callable[[], int]]] = [
        ("table GET", requests.table_get),
        ("events GET", requests.events_get),
        ("action POST", requests.action_post),
    ]
    own = services.postgres
    assert own is not None
    meter = services.meter(shape)
    kinds: dict[str, Kind] = {}
    try:
        # What the shape spends doing nothing (beat's sweeps, mostly), taken off each part.
        quiet = meter.read()
        time.sleep(3)
        idle = meter.read() - quiet
        get_cost: dict[str, float] = {}
        for name, run in runs:
            (first_event,) = shape.sql("SELECT coalesce(max(id), 0) FROM games_event")[0]
            own.reset_statements()
            log_at = own.log_offset()
            requests.probes.clear()
            before = meter.read()
            done = run()
            spent = meter.read() - before
            time.sleep(0.3)  # the last connections' log lines
            statements = own.statements(shape.database_name)
            connections = own.connections(log_at, shape.database_name)
            cpu = cpu_of(spent, idle, done, requests.probes["GET"], get_cost)
            get_cost = get_cost or cpu
            kinds[name] = Kind(name, done, statements, connections, "web", cpu)
        (last_event,) = shape.sql("SELECT coalesce(max(id), 0) FROM games_event")[0]
    finally:
        requests.close()
    # The bot turns are those the last part's POSTs were followed by.
    bots = commands_between(shape, first_event, last_event)["bot"]
    per_bot = {"worker": spent_net(spent, idle, "worker") * 1000 / bots} if bots else {}
    kinds["bot turn"] = Kind("bot turn", bots, statements, connections, "worker", per_bot)
    return kinds


def spent_net(spent: Spent, idle: Spent, name: str) -> float:
    """CPU seconds ``name`` spent, less what it spends idle over as long."""
    return max(0.0, spent.seconds.get(name, 0.0) - idle.cores(name) * spent.wall)


def cpu_of(spent: Spent, idle: Spent, requests: int, probe_gets: int, get_cost: dict[str, float]) -> dict[str, float]:
    """Milliseconds of CPU per request by process, less the idle rate and less the probe's table
    GETs at what a table GET costs PostgreSQL and Redis (the probe's own process is not counted)."""
    if not requests:
        return {}
    cpu = {}
    for name in COLUMNS:
        if name not in spent.seconds:
            continue
        net = spent_net(spent, idle, name) * 1000
        if name in ("postgres", "redis"):
            net = max(0.0, net - probe_gets * get_cost.get(name, 0.0))
        cpu[name] = net / requests
    cpu["total"] = sum(cpu.values())
    return cpu


def _ok(answer: tuple[int, object], what: str) -> None:
    if answer[0] != 200:
        raise RuntimeError(f"{what}: {answer[0]} {answer[1]}")


def _awaited(reader: Person, path: str, probes: Counter[str], timeout: float = 30.0) -> dict | None:
    """The person's view once the table awaits them (None if the table stopped running)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        probes["GET"] += 1
        status, view = reader.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {view}")
        if view["status"] != "running":
            return None
        if 0 in view["to_act"] and moves(view["legal_actions"]):
            return view
        time.sleep(0.02)
    raise RuntimeError("the bots did not answer within 30 s")


# --- printing ----------------------------------------------------------------------------------


def _load_text(load: tuple[float, float, float]) -> str:
    return " ".join(f"{value:.2f}" for value in load)


def by_sender(statements: list[Statement], count: int) -> dict[str, float]:
    """Statements per ``count`` by who sent them, the benchmark's own left out."""
    calls: dict[str, float] = defaultdict(float)
    for statement in statements:
        if statement.sender != "benchmark":
            calls[statement.sender] += statement.calls
    return {sender: value / count for sender, value in calls.items()} if count else {}


def print_window(window: Window) -> None:
    step, spent, actions = window.step, window.spent, window.actions
    print(f"\n== {window.game}: {step.tables} tables, {spent.wall:.1f} s measured")
    print(
        f"person actions {actions} ({actions / spent.wall:.2f}/s), table GETs {step.ticks}, not awaited {step.waiting}, "
        f"409 {step.conflicts}, errors {step.errors}; commands recorded: "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(window.commands.items()))
    )
    if step.latencies:
        print(f"action POST p50 {step.quantile(0.5) * 1000:.1f} ms, p99 {step.quantile(0.99) * 1000:.1f} ms")
    print(
        f"load average {_load_text(step.load)} -> {_load_text(window.load)}; machine busy {window.machine_cores:.2f} "
        f"cores, the shape {spent.cores():.2f}, the load generator {window.generator / spent.wall:.2f}"
    )
    if not actions:
        print("no person action measured")
        return
    per = spent.per(actions)
    names = [name for name in COLUMNS if name in spent.seconds] + ["total"]
    print("CPU per person action (ms): " + "  ".join(f"{name} {per[name]:.1f}" for name in names))
    if window.sampled_postgres is not None and spent.seconds.get("postgres"):
        print(
            f"PostgreSQL as sampling its live backends saw it (the old accounting): "
            f"{window.sampled_postgres * 1000 / actions:.1f} ms per person action, "
            f"{window.sampled_postgres / spent.seconds['postgres']:.0%} of the whole"
        )
    if window.statements:
        senders = by_sender(window.statements, actions)
        print(
            f"statements per person action {sum(senders.values()):.1f}: "
            + "  ".join(f"{sender} {senders[sender]:.1f}" for sender in sorted(senders))
            + "  (fk-check: the foreign-key checks run at commit, whoever committed)"
        )
        own = sum(s.calls for s in window.statements if s.sender == "benchmark")
        connections = {role: n for role, n in window.connections.items() if role != OWNER}
        print(
            f"transactions committed per person action {(window.counters['commits'] - own) / actions:.1f} "
            f"(a statement outside a transaction is one), rolled back {window.counters['rollbacks'] / actions:.2f}; "
            "connections opened per person action "
            + ", ".join(f"{role} {n / actions:.2f}" for role, n in sorted(connections.items()))
            + f", in all {sum(connections.values()) / actions:.2f}"
        )
        beat = sum(s.calls for s in window.statements if s.role == "beat")
        print(f"beat: {beat / (spent.wall / SWEEP_SECONDS):.1f} statements per sweep")


def print_kinds(game: str, kinds: dict[str, Kind], listed: int) -> None:
    print(f"-- {game}: statements and CPU per request, one request at a time")
    cpu_names = ["web", "worker", "postgres", "redis", "total"]
    print(
        f"{'request':<12} {'n':>4} {'stmts':>6} {'reads':>6} {'locks':>6} {'writes':>6} {'tx':>5} {'plan':>5} {'exec':>5} "
        f"{'conns':>6} {'fk':>5}  " + " ".join(f"{name:>8}" for name in cpu_names)
    )
    for kind in kinds.values():
        conns = kind.connections[kind.role] / kind.requests if kind.requests else float("nan")
        fk = f"{kind.per_request('fk-check'):.1f}" if kind.name == "action POST" else "-"
        cpu = " ".join(f"{kind.cpu[name]:>8.1f}" if name in kind.cpu else f"{'-':>8}" for name in cpu_names)
        print(
            f"{kind.name:<12} {kind.requests:>4} {kind.per_request():>6.1f} {kind.per_request(kind='read'):>6.1f} "
            f"{kind.per_request(kind='lock'):>6.1f} {kind.per_request(kind='write'):>6.1f} "
            f"{kind.per_request(kind='begin/commit'):>5.1f} {kind.exec_ms(plan=True):>5.2f} {kind.exec_ms():>5.2f} {conns:>6.2f} {fk:>5}  {cpu}"
        )
    print(
        "   (stmts: the role's statements per request; tx: BEGIN, COMMIT, savepoints; plan, exec: their planning and "
        "execution time in PostgreSQL, ms; conns: connections the "
        "role opened; fk: foreign-key checks at commit; CPU in ms per request, less the idle shape's: the "
        "action POST's with its bot turns, the bot turn's the worker's alone)"
    )
    for kind in kinds.values():
        if not kind.requests or listed <= 0:
            continue
        mine = sorted((s for s in kind.statements if s.sender == kind.role), key=lambda s: -s.exec_ms)
        print(f"   {kind.name}: the longest of its {len(mine)} statements (calls and ms of execution per request)")
        for statement in mine[:listed]:
            text = " ".join(statement.query.split())
            print(f"     {statement.calls / kind.requests:5.2f} {statement.exec_ms / kind.requests:6.2f}  {text[:100]}")


def result_line(windows: list[Window], kinds: dict[str, dict[str, Kind]]) -> str:
    fields = []
    for n, window in enumerate(windows):
        prefix = "" if n == 0 else window.game.replace("-", "_") + "_"
        per = window.spent.per(window.actions)
        if n == 0:
            fields += [f"game={window.game}"]
            fields += [f"{name}_ms={per[name]:.1f}" for name in [*COLUMNS, "total"] if name in per]
        else:
            fields.append(f"{prefix}total_ms={per.get('total', float('nan')):.1f}")
        if window.statements and window.actions:
            senders = by_sender(window.statements, window.actions)
            fields.append(f"{prefix}statements_per_action={sum(senders.values()):.1f}")
        if n == 0 and window.game in kinds:
            for name, kind in kinds[window.game].items():
                key = name.replace(" ", "_").lower()
                fields.append(f"{key}_statements={kind.per_request():.1f}")
                if "total" in kind.cpu:
                    fields.append(f"{key}_cpu_ms={kind.cpu['total']:.1f}")
        if n == 0:
            fields.append(f"load1={window.load[0]:.2f}")
    return "RESULT action_cost " + " ".join(fields)


if __name__ == "__main__":
    main()
