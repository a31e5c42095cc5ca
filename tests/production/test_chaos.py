"""The production shape under faults. Two web processes, two Celery workers and beat play tables of
every game with people and bots while the test, round after round, kills -9 a worker, a web process
and beat (restarting each, as a supervisor would) and cuts the broker and the database for 10 s
each, through TCP proxies of its own (the processes reach PostgreSQL and Redis only through them;
the test's own checks go direct).

People send random legal actions, each with an Idempotency-Key, alternating between the web
processes; a request that gets no answer, a 5xx or a 429 is sent again with the same key and body
(to the other web process), as a client should. Every answer's status and content type is kept.

Afterwards every table has finished, every accepted key's action is among the events exactly once
and no event of a person lacks its key, no request answered an error that is not JSON, no process
died of the faults it was not meant to, the longest wait for a bot (or server) move after each
recovery stays within bounds (the target is 5 s; the figure is printed), and ``reconcile``,
``check_replay`` and ``verify_hands --all``, run during play and after, report nothing.

Alone: ``DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… CI=1 python -m pytest
tests/production/test_chaos.py -s``; ``CHAOS_ROUNDS`` sets the number of rounds (default 2).
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import random
import shutil
import signal
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.production.players import PASSWORD, TableSpec, moves, tables_of_every_game
from tests.production.proxy import Proxy
from tests.production.shape import Shape
from tests.production.test_production_shape import _services

pytestmark = [pytest.mark.production, pytest.mark.timeout(600)]

ROUNDS = int(os.environ.get("CHAOS_ROUNDS", "2"))
OUTAGE_SECONDS = 10
# Between faults: long enough for the shape to show whether it recovered, short enough that a
# round stays under a minute.
SETTLE_SECONDS = 3
# After the last fault, tables get this long to finish (turn timers are 60 s: a table rescued only
# by its timer still finishes, and shows as a stall).
DRAIN_SECONDS = 90
# A request is sent again (same key, same body) until this long after its first attempt.
RETRY_SECONDS = 60
REQUEST_TIMEOUT = 20
TARGET_RECOVERY = 5.0
# Generous: two shared cores, and several sessions on them.
MAX_RECOVERY = 30.0

# A little longer than the shape test's tables, so that each spans a few faults; a finished one is
# replaced between faults until the last round.
SPECS = tables_of_every_game(3)
CHECKS = (("reconcile",), ("check_replay",), ("verify_hands", "--all"))
WEBS = ("web1", "web2")


# --- every answer, recorded --------------------------------------------------------------------


@dataclass
class Answer:
    method: str
    path: str
    web: str
    status: int | None  # None: no answer (refused, reset, timed out)
    content_type: str
    text: str
    at: float


class Answers:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.all: list[Answer] = []

    def add(self, answer: Answer) -> None:
        with self.lock:
            self.all.append(answer)

    def non_json_errors(self) -> list[Answer]:
        return [a for a in self.all if a.status is not None and a.status >= 400 and not _is_json(a.content_type)]


def _is_json(content_type: str) -> bool:
    kind = content_type.split(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


def _route(path: str) -> str:
    """The path with ids folded, so the summary groups answers by endpoint."""
    return "/".join("{id}" if len(part) >= 32 or part.isdigit() else part for part in path.split("?")[0].split("/"))


# --- people ------------------------------------------------------------------------------------


@dataclass
class Sent:
    """One action: its key and body, the final answer, and how many times it was sent."""

    key: str
    table_id: str
    body: dict[str, Any]
    status: int | None
    answer: Any
    attempts: int


@dataclass
class Player:
    username: str
    token: str
    shape: Shape
    answers: Answers
    pk: int = 0
    sent: list[Sent] = field(default_factory=list)
    _turn: Iterator[int] = field(default_factory=itertools.count)

    def once(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None):
        """One attempt at the next web process: (status, parsed answer), or OSError."""
        name = WEBS[next(self._turn) % len(WEBS)]
        port = self.shape.processes[name].port
        sent = {"Authorization": f"Token {self.token}"} if self.token else {}
        sent.update(headers or {})
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
        try:
            try:
                conn.request(method, path, body=payload, headers=sent)
                response = conn.getresponse()
                raw = response.read()
            except OSError as exc:
                self.answers.add(Answer(method, _route(path), name, None, "", repr(exc), time.time()))
                raise
        finally:
            conn.close()
        content_type = response.getheader("Content-Type", "")
        text = raw.decode(errors="replace")
        self.answers.add(Answer(method, _route(path), name, response.status, content_type, text[:300], time.time()))
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, text

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None):
        """As a client should: an attempt without an answer, a 5xx or a 429 is sent again, the
        same request, to the other web process. Returns (status or None, answer, attempts)."""
        deadline = time.monotonic() + RETRY_SECONDS
        status, answer = None, None
        for attempt in itertools.count(1):
            try:
                status, answer = self.once(method, path, body, headers)
                if status < 500 and status != 429:
                    return status, answer, attempt
            except OSError as exc:
                status, answer = None, repr(exc)
            if time.monotonic() > deadline:
                return status, answer, attempt
            time.sleep(min(0.25 * attempt, 2.0))
        raise AssertionError("unreachable")

    def act(self, table_id: str, action: dict[str, Any], version: int) -> Sent:
        key = uuid.uuid4().hex
        body = {"action": action, "expected_version": version}
        status, answer, attempts = self.call(
            "POST", f"/api/v1/tables/{table_id}/actions/", body, {"Idempotency-Key": key}
        )
        sent = Sent(key, table_id, body, status, answer, attempts)
        self.sent.append(sent)
        return sent


@dataclass
class Table:
    id: str
    spec: TableSpec
    people: dict[int, Player]
    start_version: int
    finished: bool = False
    error: str | None = None
    thread: threading.Thread | None = None


class SetUpError(AssertionError):
    pass


def _expect(what: str, result: tuple, *statuses: int) -> Any:
    status, answer, _ = result
    if status not in statuses:
        raise SetUpError(f"{what}: {status} {str(answer)[:300]}")
    return answer


def register(shape: Shape, answers: Answers, username: str) -> Player:
    anonymous = Player(username, "", shape, answers)
    result = anonymous.call("POST", "/api/v1/auth/register/", {"username": username, "password": PASSWORD})
    if result[0] != 201:
        # A retried registration whose first attempt took: the name is taken, by us.
        result = anonymous.call("POST", "/api/v1/auth/token/", {"username": username, "password": PASSWORD})
    body = _expect(f"registering {username}", result, 200, 201)
    return Player(username, body["token"], shape, answers)


def fund(staff: Player, person: Player, currency: str) -> None:
    key = {"Idempotency-Key": uuid.uuid4().hex}
    body = {"currency": currency, "amount": "500.00"}
    _expect("deposit", staff.call("POST", f"/api/v1/wallets/{person.username}/deposits/", body, key), 201)


def set_up_table(spec: TableSpec, people: list[Player]) -> Table:
    owner = people[0]
    body = {"game": spec.game, "seats": spec.seats, "options": spec.options, "stake": spec.stake}
    table_id = _expect(f"creating {spec.game}", owner.call("POST", "/api/v1/tables/", body), 201)["id"]
    path = f"/api/v1/tables/{table_id}"
    for seat in range(spec.seats):
        if seat < len(people):
            result = people[seat].call("POST", f"{path}/join/", {"seat": seat})
        else:
            result = owner.call("POST", f"{path}/bots/", {"seat": seat})
        if result[0] not in (200, 201):
            # A retried join whose first attempt took is refused; the table says whether it did.
            seats = _expect("reading seats", owner.call("GET", f"{path}/"), 200)["seats"]
            if not seats[seat]["taken"]:
                _expect(f"seat {seat} at {spec.game}", result, 200, 201)
    # The owner's start is an event of theirs too: the checks count the events after it.
    view = _expect(f"starting {spec.game}", owner.call("POST", f"{path}/start/"), 200)
    return Table(table_id, spec, dict(enumerate(people)), view["version"])


def play(table: Table, rng: random.Random, until: list[float]) -> None:
    """Random legal actions by whichever person the table awaits, until it finishes or the clock
    passes ``until[0]`` (a list: the driver moves the deadline)."""
    watcher = table.people[0]
    path = f"/api/v1/tables/{table.id}/"
    try:
        while time.monotonic() < until[0]:
            status, view, _ = watcher.call("GET", path)
            if status != 200:
                continue
            if view["status"] == "finished":
                table.finished = True
                return
            awaited = [seat for seat in view["to_act"] if seat in table.people]
            if not awaited:
                time.sleep(0.15)
                continue
            person = table.people[rng.choice(awaited)]
            status, mine, _ = person.call("GET", path)
            if status != 200 or not moves(mine["legal_actions"]):
                continue
            sent = person.act(table.id, rng.choice(moves(mine["legal_actions"])), mine["version"])
            if sent.status not in (200, 409):
                # Kept for the checks; the person carries on, as a person would.
                time.sleep(0.5)
    except Exception as exc:  # reported with the table that did not finish
        table.error = f"{type(exc).__name__}: {exc}"


# --- faults ------------------------------------------------------------------------------------


@dataclass
class Fault:
    name: str
    started: float
    recovered: float = 0.0


class Chaos:
    """The shape, its proxies, its tables, and the record of what was done to it."""

    def __init__(self, shape: Shape, database: Proxy, broker: Proxy) -> None:
        self.shape = shape
        self.database = database
        self.broker = broker
        self.answers = Answers()
        self.tables: list[Table] = []
        self.faults: list[Fault] = []
        self.deaths: list[str] = []
        self.checks: list[tuple[str, str, int, str]] = []
        self.until = [time.monotonic() + 3600]
        self.rng = random.Random(12)
        self.staff: Player | None = None
        self.people: dict[int, list[Player]] = {}
        self.began = time.monotonic()

    # tables

    def replenish(self) -> None:
        """A running table of every game: a finished one is replaced, by the same people (each
        registered and funded once: logins cost CPU the faults' recoveries need)."""
        for n, spec in enumerate(SPECS):
            if any(t.spec is spec and not t.finished and t.error is None for t in self.tables):
                continue
            if n not in self.people:
                self.people[n] = [register(self.shape, self.answers, f"g{n}-{seat}") for seat in range(spec.people)]
                for person in self.people[n]:
                    if spec.stake:
                        fund(self.staff, person, spec.stake["currency"])
            table = set_up_table(spec, self.people[n])
            table.thread = threading.Thread(
                target=play, args=(table, random.Random(self.rng.random()), self.until), daemon=True
            )
            table.thread.start()
            self.tables.append(table)

    # processes

    def supervise(self) -> None:
        """Restart whatever died of its own accord, as a supervisor would, and remember it."""
        for name in self.shape.dead():
            process = self.shape.processes[name]
            last = [line for line in process.tail(3000).splitlines() if line.strip()][-3:]
            self.say(f"{name} died unbidden; restarting it")
            self.deaths.append(f"{name} (exit {process.popen.returncode}): " + " | ".join(last)[-600:])
            self._restart(name)

    def _restart(self, name: str) -> None:
        process = self.shape.processes[name]
        ready = process.env.get("WORKER_READY_FILE")
        if ready:
            Path(ready).unlink(missing_ok=True)
        process = self.shape.restart(name)
        if ready:
            self.shape.wait_until(process, Path(ready).exists, what="consume from the broker", timeout=120)

    def say(self, what: str) -> None:
        # Progress as it happens (with -s): a run that hangs shows where.
        print(f"[chaos {time.monotonic() - self.began:6.1f} s] {what}", flush=True)

    def kill(self, name: str) -> None:
        fault = Fault(f"kill -9 {name}", time.time())
        self.say(fault.name)
        self.faults.append(fault)
        self.shape.kill(name, signal.SIGKILL)
        time.sleep(1)
        self._restart(name)
        fault.recovered = time.time()

    def outage(self, proxy: Proxy, service: str, mode: str) -> None:
        fault = Fault(f"{service} {mode} {OUTAGE_SECONDS}s", time.time())
        self.say(fault.name)
        self.faults.append(fault)
        proxy.cut(mode)
        time.sleep(OUTAGE_SECONDS)
        proxy.restore()
        fault.recovered = time.time()

    def check(self, phase: str) -> None:
        for command in CHECKS:
            self.say(f"manage.py {' '.join(command)} ({phase})")
            result = self.shape.manage(*command, timeout=180)
            output = (result.stdout + result.stderr).strip()
            self.checks.append((phase, " ".join(command), result.returncode, output[-1500:]))

    def round(self, n: int) -> None:
        mode = ("reset", "hang")[n % 2]
        steps = [
            lambda: self.kill(f"worker{n % 2 + 1}"),
            lambda: self.kill(WEBS[n % 2]),
            lambda: self.kill("beat"),
            lambda: self.outage(self.broker, "broker", mode),
            lambda: self.outage(self.database, "database", mode),
        ]
        for step in steps:
            self.supervise()
            self.replenish()
            step()
            time.sleep(SETTLE_SECONDS)
        self.supervise()


@pytest.fixture
def chaos() -> Iterator[Chaos]:
    database_url, broker_url = _services()
    db, redis = urlparse(database_url), urlparse(broker_url)
    with (
        Proxy(db.hostname or "127.0.0.1", db.port or 5432) as database,
        Proxy(redis.hostname or "127.0.0.1", redis.port or 6379) as broker,
        Shape.create(
            database_url, broker_url, prefix="test_chaos", database_via=database.address, redis_via=broker.address
        ) as shape,
    ):
        for name in WEBS:
            shape.start_web(name)
        shape.start_worker("worker1", concurrency=2)
        shape.start_worker("worker2", concurrency=2)
        shape.start_beat(sweep_seconds=0.5)
        yield Chaos(shape, database, broker)


def test_the_shape_loses_nothing_and_recovers_in_seconds_under_kills_and_outages(chaos):
    shape = chaos.shape
    started = time.monotonic()
    shape.manage(
        "createsuperuser",
        "--noinput",
        "--username=staff",
        "--email=staff@example.com",
        check=True,
        env={"DJANGO_SUPERUSER_PASSWORD": PASSWORD},
    )
    anonymous = Player("staff", "", shape, chaos.answers)
    login = anonymous.call("POST", "/api/v1/auth/token/", {"username": "staff", "password": PASSWORD})
    chaos.staff = Player("staff", _expect("staff token", login, 200)["token"], shape, chaos.answers)
    chaos.replenish()

    # The checks run beside the second round's faults (their own connections go direct): an
    # operator's check must hold on a live, troubled system.
    during = threading.Thread(target=chaos.check, args=("during play",), daemon=True)
    for n in range(ROUNDS):
        if n == min(1, ROUNDS - 1):
            during.start()
        chaos.round(n)
    during.join()
    chaos.until[0] = time.monotonic() + DRAIN_SECONDS
    chaos.say("faults over; waiting for the tables to finish")
    for table in chaos.tables:
        table.thread.join()
    chaos.supervise()
    chaos.check("after")
    report = analyse(chaos, time.monotonic() - started)
    if report.problems:
        # The shape's folder goes with it; its processes' logs are the evidence.
        kept = Path(tempfile.mkdtemp(prefix="chaos-logs-"))
        shutil.copytree(shape.folder / "logs", kept, dirs_exist_ok=True)
        report.text += f"\nthe processes' logs: {kept}"
    print(report.text)
    assert not report.problems, "\n".join(report.problems)


# --- afterwards --------------------------------------------------------------------------------


@dataclass
class Report:
    text: str
    problems: list[str]


def analyse(chaos: Chaos, seconds: float) -> Report:
    shape = chaos.shape
    problems: list[str] = []
    lines = [f"\n=== chaos: {ROUNDS} round(s), {seconds:.0f} s, {len(chaos.tables)} tables"]

    # Tables, and the people's actions exactly once.
    events: dict[str, list[tuple[int, str, float, str]]] = {}
    for table in chaos.tables:
        events[table.id] = [
            (seq, actor, created.timestamp(), kind)
            for seq, actor, created, kind in shape.sql(
                "SELECT seq, actor, created_at, type FROM games_event WHERE table_id = %s ORDER BY seq", [table.id]
            )
        ]
    unfinished = [t for t in chaos.tables if not t.finished]
    for table in unfinished:
        last = events[table.id][-1]
        status, view, _ = table.people[0].call("GET", f"/api/v1/tables/{table.id}/")
        readable = status == 200 and isinstance(view, dict)
        awaiting = view["to_act"] if readable else f"unknown ({status})"
        bots = [s["seat"] for s in view["seats"] if s["bot"]] if readable else "unknown"
        problems.append(
            f"table {table.spec.game} {table.id} did not finish: {table.error or 'still running'}; "
            f"awaiting seats {awaiting} (bots {bots}), last event #{last[0]} {last[3]} by {last[1]} "
            f"{time.time() - last[2]:.0f} s ago"
        )
    sent = [s for t in chaos.tables for p in t.people.values() for s in p.sent]
    lines.append(
        f"actions: {len(sent)} sent, {sum(s.status == 200 for s in sent)} accepted, "
        f"{sum(s.status == 409 for s in sent)} refused (409), {sum(s.attempts > 1 for s in sent)} sent again, "
        f"{sum(s.status not in (200, 409) for s in sent)} unresolved after {RETRY_SECONDS} s"
    )
    problems += exactly_once(chaos, events)

    # Answers.
    answers = chaos.answers.all
    statuses = Counter(a.status for a in answers)
    non_json = chaos.answers.non_json_errors()
    fives = [a for a in answers if a.status is not None and a.status >= 500]
    lines.append(
        f"requests: {len(answers)} attempts, {statuses[None]} without an answer, {len(fives)} 5xx "
        f"{dict(Counter(a.status for a in fives))}, {len(non_json)} non-JSON errors"
    )
    for (method, route, status, kind), count in Counter(
        (a.method, a.path, a.status, a.content_type.split(";")[0]) for a in non_json
    ).most_common(8):
        lines.append(f"  non-JSON {status} {kind or '-'} x{count}: {method} {route}")
    if non_json:
        problems.append(
            f"{len(non_json)} error answers were not JSON, e.g. {non_json[0].status}: {non_json[0].text[:200]!r}"
        )

    # Waits for a bot (or the server) to move: from the table's previous event.
    moves = [
        (table_id, rows[i][2] - rows[i - 1][2], rows[i - 1][2], rows[i][2], rows[i][1])
        for table_id, rows in events.items()
        for i in range(1, len(rows))
        if not rows[i][1].startswith("user:")
    ]
    stalls = [m for m in moves if m[1] > TARGET_RECOVERY]
    timer_moves = [m for m in moves if m[4] == "system" and m[1] > 30]
    lines.append(
        f"bot/server moves: {len(moves)}, stalls over {TARGET_RECOVERY:.0f} s: {len(stalls)}, "
        f"longest {max((m[1] for m in moves), default=0):.1f} s, moves made by a turn timer after 30 s or more: "
        f"{len(timer_moves)}"
    )
    lines.append("faults (wait for the first bot/server move of each table after recovery, the longest):")
    worst = recoveries(chaos, events, unfinished, lines)
    lines.append(f"max recovery: {worst:.1f} s (target < {TARGET_RECOVERY:.0f} s, bound {MAX_RECOVERY:.0f} s)")
    if worst >= MAX_RECOVERY:
        problems.append(f"a bot or the server waited {worst:.1f} s after a recovery (bound {MAX_RECOVERY:.0f} s)")

    # Processes that died of a fault they were not meant to.
    lines.append(f"processes that died unbidden (restarted): {len(chaos.deaths)}")
    lines += [f"  {death}" for death in chaos.deaths]
    if chaos.deaths:
        problems.append(f"{len(chaos.deaths)} process(es) died unbidden: " + "; ".join(chaos.deaths))

    # Integrity checks.
    for phase, command, code, output in chaos.checks:
        lines.append(f"{phase:<12} manage.py {command}: exit {code}")
        if code != 0:
            lines.append("    " + output[-600:].replace("\n", "\n    "))
            problems.append(f"manage.py {command} ({phase}) exited {code}: {output[-300:]}")

    lines.append(f"problems: {len(problems)}")
    return Report("\n".join(lines), problems)


def recoveries(chaos: Chaos, events: dict[str, list[tuple[int, str, float, str]]], unfinished, lines) -> float:
    """For each fault, the longest any table then waited for its first bot (or server) move after
    the recovery (tables that existed then), counted from the recovery or from the table's previous
    event, whichever is later;
    a table still waiting at the end counts until now. Adds a line per fault; returns the longest."""
    worst = 0.0
    for fault in chaos.faults:
        waits = []
        for table in chaos.tables:
            rows = events[table.id]
            if not rows or rows[0][2] > fault.recovered:
                # Set up after this recovery: later faults and the stall count cover it.
                continue
            after = [
                (created - max(fault.recovered, rows[i - 1][2]), table)
                for i, (_, actor, created, _) in enumerate(rows)
                if i and created > fault.recovered and not actor.startswith("user:")
            ]
            if after:
                waits.append(after[0])
            elif table in unfinished and rows[-1][2] < time.time():
                waits.append((time.time() - max(fault.recovered, rows[-1][2]), table))
        longest = max(waits, key=lambda w: w[0], default=(0.0, None))
        worst = max(worst, longest[0])
        where = f" ({longest[1].spec.game})" if longest[1] else ""
        lines.append(
            f"  {fault.name:<24} recovered in {fault.recovered - fault.started:5.1f} s; "
            f"longest wait after: {longest[0]:6.1f} s{where}"
        )
    return worst


def exactly_once(chaos: Chaos, events: dict[str, list[tuple[int, str, float, str]]]) -> list[str]:
    """Each accepted key's events are its person's events at the table, each exactly once; every
    event of a person after the start is some key's; a key's idempotency record exists once if it
    was accepted and not at all if it was refused."""
    problems = []
    shape = chaos.shape
    for table in chaos.tables:
        for person in table.people.values():
            ((person.pk,),) = shape.sql("SELECT id FROM auth_user WHERE username = %s", [person.username])
            actor = f"user:{person.pk}"
            sent = [s for s in person.sent if s.table_id == table.id]
            claimed: Counter[int] = Counter()
            for s in sent:
                if s.status == 200:
                    seqs = [e["seq"] for e in s.answer["events"] if e["actor"] == person.username]
                    if not seqs:
                        problems.append(f"{table.spec.game}: accepted key {s.key} appended no event of {actor}")
                    claimed.update(seqs)
            recorded = Counter(seq for seq, who, _, _ in events[table.id] if who == actor and seq > table.start_version)
            if twice := [seq for seq, n in claimed.items() if n > 1]:
                problems.append(f"{table.spec.game}: events {twice} of {actor} claimed by two keys")
            if lost := sorted(set(claimed) - set(recorded)):
                problems.append(f"{table.spec.game}: accepted events {lost} of {actor} are not recorded")
            if unclaimed := sorted(set(recorded) - set(claimed)):
                problems.append(
                    f"{table.spec.game}: events {unclaimed} of {actor} answer to no accepted key "
                    "(an action done twice, or done while its answer said otherwise)"
                )
            records = dict(
                shape.sql("SELECT key, count(*) FROM games_commandrecord WHERE user_id = %s GROUP BY key", [person.pk])
            )
            for s in sent:
                expected = 1 if s.status == 200 else 0
                if records.get(s.key, 0) != expected and s.status in (200, 409):
                    problems.append(
                        f"{table.spec.game}: key {s.key} answered {s.status} but has {records.get(s.key, 0)} record(s)"
                    )
                elif s.status not in (200, 409):
                    problems.append(
                        f"{table.spec.game}: key {s.key} still unresolved after {s.attempts} attempts "
                        f"({s.status}: {str(s.answer)[:120]}), {records.get(s.key, 0)} record(s)"
                    )
    return problems
