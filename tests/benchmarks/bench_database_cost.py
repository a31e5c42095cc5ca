"""What one action costs the database, in counts: transactions, rows written, WAL and statements,
per person action and per bot turn, for every game.

The production shape (tests/production/shape.py: gunicorn with uvicorn workers, a Celery threads
worker; no beat, so that nothing but the actions writes) on a PostgreSQL cluster and a Redis server
of the benchmark's own (tests/benchmarks/servers.py), each process connecting as a role of its own.
For each game one table of one person (seat 0) and bots, at human pace: each of ``--actions``
person actions is a table GET by a second web server, "probe" (whose statements are not counted),
then the action POST to "web", then a wait, on the benchmark's own connection, for the bots to be
done (the table row's version moved on and no bot awaited). ``--warmup`` actions come first, after
a CHECKPOINT, so that the pages every action touches have had their full-page image written.

Counted over the measured actions, with nothing else running on the cluster:

- by role (web: the person's actions; worker: the bot turns and whatever else the worker does for
  them, the outbox marked published among it), from the server's statement log (log_statement=all,
  each line with the role, the transaction's virtual id and its xid): transactions, and those that
  wrote (a transaction that ran an INSERT, UPDATE, DELETE or a row lock, or got an xid); from
  pg_stat_statements: statements, the rows the writing statements reported (a statement whose WITH
  also writes, as the command's append does, reports the rows of its last part only: the cycle's
  rows are the whole count), WAL records, full-page images and bytes the statements wrote;
- for the whole cycle (the person's action and the bot turns after it): transactions that wrote
  (xids the cluster handed out), WAL bytes (pg_current_wal_lsn's advance: the commit records and the
  foreign-key checks' row locks included), WAL records and full-page images (pg_stat_wal), rows
  inserted, updated and deleted (pg_stat_database) and by table (pg_stat_user_tables).

The cumulative statistics are flushed by the backends at most once a second and when idle, so the
benchmark waits ``--flush`` seconds before each reading. Bot turns are counted from the events (one
command's events share their table, actor and time).

    python tests/benchmarks/bench_database_cost.py [--games whiskey-poker,la-viuda,euchre,five-card-draw,guerra]
        [--actions 20] [--warmup 5] [--flush 11]

Needs the PostgreSQL server binaries and redis-server (BENCH_POSTGRES_URL is not supported: the
counts need a cluster of the benchmark's own).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_action_cost import SPECS as COST_SPECS  # noqa: E402
from tests.benchmarks.bench_action_cost import Requests, commands_between, games_asked  # noqa: E402
from tests.benchmarks.servers import OwnPostgres, Statement, benchmark_services, postgres_bindir  # noqa: E402
from tests.production.players import Person, TableSpec, deposit, moves, register, set_up_table, staff_member  # noqa: E402
from tests.production.shape import Process, Shape  # noqa: E402

STAKE = {"currency": "MXN", "amount": "10.00"}
# Long tables of one person and bots, no turn timer firing within the run.
SPECS = {
    "whiskey-poker": COST_SPECS["whiskey-poker"],
    "la-viuda": COST_SPECS["la-viuda"],
    "euchre": TableSpec("euchre", 4, people=1, options={"target_points": 100, "turn_seconds": 3600}, stake=STAKE),
    "five-card-draw": TableSpec(
        "five-card-draw",
        4,
        people=1,
        options={"format": "tournament", "starting_stack": 5000, "turn_seconds": 3600},
        stake=STAKE,
    ),
    # Two seats (a person and a bot): a match ends when one player holds every card (GC-12), which
    # can be within the run; the benchmark then goes on at a new table.
    "guerra": TableSpec("guerra", 2, people=1, options={"max_rounds": 100_000, "turn_seconds": 3600}, stake=STAKE),
}
ROLES = ["web", "worker", "probe"]
COUNTED = ("web", "worker")
SETTINGS = {
    # Nothing writes but the shape: no autovacuum, no checkpoint within the run.
    "autovacuum": "off",
    "checkpoint_timeout": "1h",
    "max_wal_size": "10GB",
    # Every statement logged with its role, its transaction (virtual id) and the xid it got.
    "log_statement": "all",
    "log_parameter_max_length": "0",
    "log_line_prefix": "%m [%p] %u %v %x ",
}
LINE = re.compile(r"^\d{4}-\d\d-\d\d \S+ \S+ \[(\d+)\] (\S*) (\S*) (\d+) (\w+):  (.*)$")
LOGGED = re.compile(r"^(?:statement|execute [^:]*): (.*)$", re.DOTALL)
WRITES = re.compile(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\b|\bFOR\s+(NO\s+KEY\s+)?UPDATE\b|\bFOR\s+SHARE\b", re.I)


def cautious(view: dict, rng: random.Random) -> dict:
    """A Five-Card Draw player who never bets: stands pat, checks, calls mostly, else folds (so the
    tournament lasts, and no bet needs an amount)."""
    legal = {action["type"] for action in moves(view["legal_actions"])}
    if "draw" in legal:
        return {"type": "draw", "discard": []}
    if "check" in legal:
        return {"type": "check"}
    if "call" in legal and (rng.random() < 0.7 or "fold" not in legal):
        return {"type": "call"}
    return {"type": "fold"}


def wal_kinds(own: OwnPostgres, start: int, end: int) -> dict[str, tuple[int, int, int]]:
    """The WAL written between two positions by record type (pg_waldump's statistics): count,
    bytes of the records, bytes of their full-page images."""
    args = [str(postgres_bindir() / "pg_waldump"), f"--path={own.data / 'pg_wal'}", "--stats=record"]
    args += [f"--start={_lsn(start)}", f"--end={_lsn(end)}"]
    found = subprocess.run(own._as_owner(args), capture_output=True, text=True, check=False).stdout
    kinds = {}
    for match in WALDUMP.finditer(found):
        name, count, size, fpi = match.groups()
        kinds[name] = (int(count), int(size), int(fpi))
    return kinds


def _lsn(position: int) -> str:
    return f"{position >> 32:X}/{position & 0xFFFFFFFF:X}"


WALDUMP = re.compile(r"^(\S+/\S+)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)", re.M)

CHOOSERS: dict[str, Callable[[dict, random.Random], dict]] = {"five-card-draw": cautious}


@dataclass
class Transactions:
    """Transactions by role, from the statement log."""

    all: Counter[str] = field(default_factory=Counter)
    wrote: Counter[str] = field(default_factory=Counter)


def transactions(log: str) -> Transactions:
    """Each logged transaction (backend pid and virtual transaction id) by role, and whether it
    wrote: a statement that changes rows or locks them, or an xid on one of its lines."""
    roles: dict[tuple[str, str], str] = {}
    wrote: dict[tuple[str, str], bool] = defaultdict(bool)
    key: tuple[str, str] | None = None
    text: list[str] = []

    def close() -> None:
        if key is not None and LOGGED.match(" ".join(text)) and WRITES.search(" ".join(text)):
            wrote[key] = True

    for line in log.splitlines():
        match = LINE.match(line)
        if match is None:
            text.append(line)  # a statement's next line
            continue
        close()
        pid, role, vxid, xid, level, message = match.groups()
        key, text = None, []
        if level != "LOG" or not vxid or vxid.endswith("/0") or not LOGGED.match(message):
            continue
        key, text = (pid, vxid), [message]
        roles[key] = role
        wrote[key] = wrote[key] or xid != "0"
    close()
    counted = Transactions()
    for key, role in roles.items():
        counted.all[role] += 1
        counted.wrote[role] += wrote[key]
    return counted


@dataclass
class Reading:
    """The cluster's counters at one instant."""

    xid: int
    lsn: int
    database: dict[str, int]
    wal: dict[str, int]
    tables: dict[str, tuple[int, int, int, int]]

    @classmethod
    def take(cls, own: OwnPostgres, database: str) -> Reading:
        ((xid, lsn),) = own.execute(
            "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint, "
            "(pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint",
            database=database,
        )
        ((commits, rollbacks, inserted, updated, deleted),) = own.execute(
            "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted "
            "FROM pg_stat_database WHERE datname = %s",
            [database],
        )
        ((records, fpi, wal_bytes),) = own.execute("SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal")
        tables = own.execute(
            # A partition's rows are counted as its table's (the events are partitioned by era).
            "SELECT coalesce(i.inhparent::regclass::text, s.relname), sum(n_tup_ins)::bigint, "
            "sum(n_tup_upd)::bigint, sum(n_tup_hot_upd)::bigint, sum(n_tup_del)::bigint "
            "FROM pg_stat_user_tables s LEFT JOIN pg_inherits i ON i.inhrelid = s.relid GROUP BY 1",
            database=database,
        )
        return cls(
            xid,
            lsn,
            {
                "commits": commits,
                "rollbacks": rollbacks,
                "inserted": inserted,
                "updated": updated,
                "deleted": deleted,
            },
            {"records": records, "fpi": fpi, "bytes": int(wal_bytes)},
            {name: (ins, upd, hot, dele) for name, ins, upd, hot, dele in tables},
        )

    def minus(self, before: Reading) -> tuple[Counter[str], dict[str, tuple[int, int, int, int]]]:
        """The cluster's counts since ``before``, and the rows changed in each table."""
        changed = Counter({name: self.database[name] - before.database[name] for name in before.database})
        changed.update(
            wrote=self.xid - before.xid,
            wal_bytes=self.lsn - before.lsn,
            wal_records=self.wal["records"] - before.wal["records"],
            wal_fpi=self.wal["fpi"] - before.wal["fpi"],
        )
        rows = {}
        for name, now in self.tables.items():
            delta = _sum(now, tuple(-n for n in before.tables.get(name, (0, 0, 0, 0))))
            if any(delta):
                rows[name] = delta
        return changed, rows


@dataclass
class Cost:
    """What ``actions`` person actions and the ``bot_turns`` after them cost the database, over
    ``tables`` tables (a table that ends within the run is followed by a new one)."""

    game: str
    actions: int
    bot_turns: int
    commands: Counter[str]
    statements: list[Statement]
    transactions: Transactions
    # The whole cluster's counts (``Reading.minus``), the rows changed by table, the WAL by kind.
    changed: Counter[str]
    table_rows: dict[str, tuple[int, int, int, int]]
    wal: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    tables: int = 1

    def __add__(self, other: Cost) -> Cost:
        rows = dict(self.table_rows)
        for name, delta in other.table_rows.items():
            rows[name] = _sum(rows.get(name, (0, 0, 0, 0)), delta)
        wal = dict(self.wal)
        for name, kind in other.wal.items():
            wal[name] = _sum(wal.get(name, (0, 0, 0)), kind)
        return Cost(
            self.game,
            self.actions + other.actions,
            self.bot_turns + other.bot_turns,
            self.commands + other.commands,
            self.statements + other.statements,
            Transactions(
                self.transactions.all + other.transactions.all, self.transactions.wrote + other.transactions.wrote
            ),
            self.changed + other.changed,
            rows,
            wal,
            self.tables + other.tables,
        )

    def of(self, role: str) -> dict[str, float]:
        """The role's totals: statements, rows written, WAL records, full-page images, WAL bytes,
        transactions and those that wrote."""
        mine = [s for s in self.statements if s.sender == role]
        writes = [s for s in mine if s.kind == "write"]
        return {
            "transactions": self.transactions.all[role],
            "wrote": self.transactions.wrote[role],
            "statements": sum(s.calls for s in mine),
            "rows": sum(s.rows for s in writes),
            "wal_records": sum(s.wal_records for s in mine),
            "wal_fpi": sum(s.wal_fpi for s in mine),
            "wal_bytes": sum(s.wal_bytes for s in mine),
        }

    def cycle(self) -> Counter[str]:
        """The whole cluster's counts over the measured actions."""
        # A Counter: a count that summed to nothing (no row deleted) reads as 0, not missing.
        changed = Counter(self.changed)
        changed["rows"] = changed["inserted"] + changed["updated"] + changed["deleted"]
        return changed


def _sum(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(SPECS))
    parser.add_argument("--actions", type=int, default=20, help="person actions measured per game")
    parser.add_argument("--warmup", type=int, default=5, help="person actions before the measure")
    parser.add_argument("--flush", type=float, default=11.0, help="seconds for the statistics to be flushed")
    parser.add_argument("--writes", type=int, default=10, help="write statements listed per role and game")
    args = parser.parse_args()
    games = games_asked(parser, args.games, SPECS)
    if os.environ.get("BENCH_POSTGRES_URL"):
        parser.error("the counts need a PostgreSQL cluster of the benchmark's own: unset BENCH_POSTGRES_URL")

    started = time.monotonic()
    costs = []
    with benchmark_services(ROLES, SETTINGS) as services:
        env = {"THROTTLE_ANON": "100000/minute", "THROTTLE_LOGIN_ADDRESS": "100000/minute"}
        with Shape.create(services.postgres_url, services.redis_url, prefix="bench_db", env=env) as shape:
            web = shape.start_web("web", workers=1, env=services.env(shape, "web"))
            shape.start_worker("worker", concurrency=2, env=services.env(shape, "worker"))
            probe = shape.start_web("probe", workers=1, env=services.env(shape, "probe"))
            print(
                f"web, probe: gunicorn + 1 uvicorn worker each; 1 Celery worker (2 threads); no beat; {services.describe()}"
            )
            staff = staff_member(shape, [web])
            for game in games:
                cost = measure(services.postgres, shape, web, probe, staff, game, args)
                costs.append(cost)
                print_cost(cost, args.writes)
                if shape.dead():
                    raise RuntimeError("a process exited:\n" + shape.logs())
    print(f"\nwhole run {time.monotonic() - started:.0f} s")
    print_summary(costs)
    print(result_line(costs))


def measure(
    own: OwnPostgres | None, shape: Shape, web: Process, probe: Process, staff: Person, game: str, args
) -> Cost:
    """``args.actions`` person actions at tables of ``game``, a new table whenever one ends."""
    cost = None
    while cost is None or cost.actions < args.actions:
        part = measure_table(own, shape, web, probe, staff, game, args, args.actions - (cost.actions if cost else 0))
        cost = part if cost is None else cost + part
        if not part.actions:
            break  # a table that ended in its warm-up: the game's tables are too short for it
    assert cost is not None
    return cost


def measure_table(
    own: OwnPostgres | None, shape: Shape, web: Process, probe: Process, staff: Person, game: str, args, wanted: int
) -> Cost:
    """Up to ``wanted`` person actions at a new table of ``game``, after its warm-up."""
    assert own is not None
    spec = SPECS[game]
    person = register([web], f"{game[:6]}{uuid.uuid4().hex[:6]}")
    if spec.stake:
        deposit(staff, person, spec.stake["currency"], "1000.00")
    table = set_up_table(spec, [person])
    requests = Requests(shape, web, probe, table, args.warmup, choose=CHOOSERS.get(game))
    try:
        own.execute("CHECKPOINT")
        requests.action_post()
        time.sleep(args.flush)
        database = shape.database_name
        before = Reading.take(own, database)
        (first_event,) = shape.sql("SELECT coalesce(max(id), 0) FROM games_event")[0]
        own.reset_statements()
        log_at = own.log_offset()
        requests.count = wanted
        done = requests.action_post()
        (last_event,) = shape.sql("SELECT coalesce(max(id), 0) FROM games_event")[0]
        time.sleep(args.flush)
        statements = own.statements(database)
        with own.log.open("rb") as log:
            log.seek(log_at)
            logged = log.read().decode(errors="replace")
        after = Reading.take(own, database)
    finally:
        requests.close()
    commands = commands_between(shape, first_event, last_event)
    changed, rows = after.minus(before)
    wal = wal_kinds(own, before.lsn, after.lsn)
    return Cost(game, done, commands["bot"], commands, statements, transactions(logged), changed, rows, wal)


# --- printing ----------------------------------------------------------------------------------

ROWS = [
    ("transactions", "transactions"),
    ("wrote", "  of which wrote"),
    ("statements", "statements"),
    ("rows", "rows (statements)"),
    ("wal_records", "WAL records"),
    ("wal_fpi", "full-page images"),
    ("wal_bytes", "WAL bytes"),
]


def _per(value: float, count: int) -> str:
    return f"{value / count:.1f}" if count else "-"


def print_cost(cost: Cost, listed: int) -> None:
    n, bots = cost.actions, cost.bot_turns
    print(
        f"\n== {cost.game}: {n} person actions at {cost.tables} table(s), {bots} bot turns ({_per(bots, n)} per "
        "action); commands: " + ", ".join(f"{kind} {count}" for kind, count in sorted(cost.commands.items()))
    )
    web, worker, fk, cycle = cost.of("web"), cost.of("worker"), cost.of("fk-check"), cost.cycle()
    print(f"{'':<18} {'person action':>14} {'bot turn':>9} {'FK checks':>10} {'action cycle':>13}")
    print(f"{'':<18} {'(web)':>14} {'(worker)':>9} {'per action':>10} {'(all) / action':>13}")
    whole = {
        "transactions": None,
        "wrote": cycle["wrote"],
        "statements": None,
        "rows": cycle["rows"],
        "wal_records": cycle["wal_records"],
        "wal_fpi": cycle["wal_fpi"],
        "wal_bytes": cycle["wal_bytes"],
    }
    for key, label in ROWS:
        total = whole[key]
        print(
            f"{label:<18} {_per(web[key], n):>14} {_per(worker[key], bots):>9} {_per(fk[key], n):>10} "
            f"{_per(total, n) if total is not None else '':>13}"
        )
    readers = cost.of("probe")["wal_bytes"] + cost.of("benchmark")["wal_bytes"]
    stated = web["wal_bytes"] + worker["wal_bytes"] + fk["wal_bytes"] + readers
    print(
        f"   cycle: rows inserted {_per(cycle['inserted'], n)}, updated {_per(cycle['updated'], n)}, "
        f"deleted {_per(cycle['deleted'], n)} per action (pg_stat_database); writing transactions by the log "
        f"{_per(cost.transactions.wrote['web'] + cost.transactions.wrote['worker'], n)} vs xids handed out "
        f"{_per(cycle['wrote'], n)}; WAL bytes per action: web, worker and FK checks' statements "
        f"{_per(stated - readers, n)}, the readers' (the probe's GETs, the benchmark's watch: pages pruned) "
        f"{_per(readers, n)}, the rest (commit records, and WAL no counted statement shows: see by record type) {_per(cycle['wal_bytes'] - stated, n)}"
    )
    tables = sorted(cost.table_rows.items(), key=lambda item: -sum(item[1]))
    print(
        "   rows by table per action cycle (inserted/updated (HOT)/deleted): "
        + "; ".join(
            f"{name} {_per(ins, n)}/{_per(upd, n)} ({_per(hot, n)})/{_per(dele, n)}"
            for name, (ins, upd, hot, dele) in tables
        )
    )
    kinds = sorted(cost.wal.items(), key=lambda item: -(item[1][1] + item[1][2]))
    if kinds and n:
        print(
            "   WAL by record type per action cycle (records, bytes, of which full-page images; pg_waldump): "
            + "; ".join(
                f"{name} {count / n:.1f} {(size + fpi) / n:.0f} ({fpi / n:.0f})"
                for name, (count, size, fpi) in kinds[:10]
            )
        )
    for role, count in (("web", n), ("worker", bots)):
        writes = sorted((s for s in cost.statements if s.sender == role and s.kind == "write"), key=lambda s: -s.calls)
        if not writes or not count or listed <= 0:
            continue
        print(
            f"   {role}'s writes (calls and rows per {'person action' if role == 'web' else 'bot turn'}, WAL bytes per call):"
        )
        for statement in writes[:listed]:
            text = " ".join(statement.query.split())
            print(
                f"     {statement.calls / count:5.2f} {statement.rows / count:5.2f} "
                f"{statement.wal_bytes / max(statement.calls, 1):7.0f}  {text[:110]}"
            )


def print_summary(costs: list[Cost]) -> None:
    print("\nper person action (web) | per bot turn (worker) | per action cycle (all, bot turns included)")
    print(
        f"{'game':<15} {'tx':>4} {'w-tx':>5} {'stmts':>6} {'rows':>5} {'WAL B':>7} | {'tx':>4} {'w-tx':>5} "
        f"{'stmts':>6} {'rows':>5} {'WAL B':>7} | {'bots':>5} {'w-tx':>5} {'rows':>5} {'WAL B':>7} {'FPI':>5}"
    )
    for cost in costs:
        n, bots = cost.actions, cost.bot_turns
        web, worker, cycle = cost.of("web"), cost.of("worker"), cost.cycle()
        print(
            f"{cost.game:<15} {_per(web['transactions'], n):>4} {_per(web['wrote'], n):>5} {_per(web['statements'], n):>6} "
            f"{_per(web['rows'], n):>5} {_per(web['wal_bytes'], n):>7} | {_per(worker['transactions'], bots):>4} "
            f"{_per(worker['wrote'], bots):>5} {_per(worker['statements'], bots):>6} {_per(worker['rows'], bots):>5} "
            f"{_per(worker['wal_bytes'], bots):>7} | {_per(bots, n):>5} {_per(cycle['wrote'], n):>5} "
            f"{_per(cycle['rows'], n):>5} {_per(cycle['wal_bytes'], n):>7} {_per(cycle['wal_fpi'], n):>5}"
        )
    print(
        "   (tx: transactions; w-tx: of which wrote; rows: for a role the rows its writing statements reported (a "
        "WITH's other writes not included), for the cycle every row inserted, updated or deleted; WAL B: WAL bytes, "
        "the statements' for a role, the cluster's whole advance for the cycle; FPI: full-page images)"
    )


def result_line(costs: list[Cost]) -> str:
    fields = []
    for cost in costs:
        n, bots = cost.actions, cost.bot_turns
        prefix = cost.game.replace("-", "_")
        web, worker, cycle = cost.of("web"), cost.of("worker"), cost.cycle()
        fields += [
            f"{prefix}_action_tx={_per(web['transactions'], n)}",
            f"{prefix}_action_rows={_per(web['rows'], n)}",
            f"{prefix}_action_wal={_per(web['wal_bytes'], n)}",
            f"{prefix}_bot_rows={_per(worker['rows'], bots)}",
            f"{prefix}_bot_wal={_per(worker['wal_bytes'], bots)}",
            f"{prefix}_cycle_wal={_per(cycle['wal_bytes'], n)}",
        ]
    return "RESULT database_cost " + " ".join(fields)


if __name__ == "__main__":
    main()
