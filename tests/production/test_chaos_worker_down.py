"""The production shape with its only worker killed (kill -9) and held down for 30 s: one web
process, one Celery worker, beat, on PostgreSQL and Redis of the test's own.

Beat sweeps the deadlines in its own process (config/beat.py), so the turn timers that fall due
while no worker is alive fire on time; no sweep waits in the broker for the worker's return (so
none runs in a burst then); what the dead worker had taken comes back within seconds (Redis's
short visibility timeout); and once the worker is back, every table waiting for a bot moves within
seconds. The figures are printed (run with -s): the latest timer, the longest wait after the
worker's return (the target is 5 s) and how long the dead worker's messages stayed unacknowledged.

Alone: ``DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… CI=1 python -m pytest
tests/production/test_chaos_worker_down.py -s``.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.production.players import PlayedTable, TableSpec, play, register, set_up_table
from tests.production.shape import Shape
from tests.production.test_production_shape import _services

pytestmark = [pytest.mark.production, pytest.mark.timeout(420)]

DOWN_SECONDS = 30
SWEEP_SECONDS = 1.0
TARGET = 5.0
# Bounds the assertions hold to: two shared cores, several sessions on them.
MAX_TIMER_LATENESS = 10.0
MAX_WAIT_AFTER_RETURN = 15.0
MAX_UNACKED_SECONDS = 30.0

# Tables whose people never act: only their turn timers move them, and a timer falls due every few
# seconds. A 5 s timer also goes out as a countdown task (the worker holds it, and dies with it); a
# 7 s one is longer than MAX_TASK_COUNTDOWN and only the sweep fires it.
ABSENT = [
    TableSpec("guerra", 3, people=3, options={"turn_seconds": 5, "max_rounds": 100_000}),
    TableSpec("guerra", 3, people=3, options={"turn_seconds": 7, "max_rounds": 100_000}),
    TableSpec("euchre", 4, people=2, options={"turn_seconds": 5, "target_points": 100}),
]
# Tables with bots and a person who plays: they wait for the worker while it is down.
PLAYED = [
    TableSpec("guerra", 3, people=1, options={"turn_seconds": 60, "max_rounds": 100_000}),
    TableSpec("euchre", 4, people=2, options={"turn_seconds": 60, "target_points": 100}),
]


@pytest.fixture
def shape() -> Iterator[Shape]:
    database_url, broker_url = _services()
    with Shape.create(database_url, broker_url, prefix="test_worker_down") as running:
        running.start_web("web1")
        running.start_worker("worker1", concurrency=2)
        running.start_beat(sweep_seconds=SWEEP_SECONDS)
        yield running


def _redis(shape: Shape):
    import redis

    return redis.Redis.from_url(shape.broker_url)


def _queued_tasks(shape: Shape) -> Counter[str]:
    """The task names of the messages waiting in the default queue."""
    client = _redis(shape)
    try:
        return Counter(json.loads(raw)["headers"]["task"] for raw in client.lrange("celery", 0, -1))
    finally:
        client.close()


def _unacked_before(shape: Shape, moment: float) -> int:
    """Messages delivered before ``moment`` (epoch seconds) and still not acknowledged."""
    client = _redis(shape)
    try:
        return int(client.zcount("unacked_index", "-inf", moment))
    finally:
        client.close()


class Deadlines:
    """Samples every running table's deadline while the worker is down: (table, version) -> due."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.seen: dict[tuple[str, int], float] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for table_id, version, due in self.shape.sql(
                "SELECT id, deadline_version, deadline_at FROM games_table "
                "WHERE status = 'running' AND deadline_at IS NOT NULL"
            ):
                self.seen.setdefault((str(table_id), version), due.timestamp())
            time.sleep(0.2)


def _events(shape: Shape, table_id: str) -> list[tuple[int, str, float]]:
    return [
        (seq, actor, created.timestamp())
        for seq, actor, created in shape.sql(
            "SELECT seq, actor, created_at FROM games_event WHERE table_id = %s ORDER BY seq", [table_id]
        )
    ]


def _timer_lateness(
    seen: dict[tuple[str, int], float],
    tables: list[PlayedTable],
    events: dict[str, list[tuple[int, str, float]]],
    window: tuple[float, float],
    problems: list[str],
) -> list[tuple[float, str]]:
    """For every timer that fell due in ``window`` (the worker down), how long after due its table
    moved on: (seconds, game). A timer that never fired is a problem."""
    by_id = {table.id: table for table in tables}
    lateness = []
    for (table_id, version), due in seen.items():
        if table_id not in by_id or not window[0] <= due <= window[1]:
            continue
        moved = [created for seq, _, created in events[table_id] if seq > version]
        if not moved:
            problems.append(f"{by_id[table_id].spec.game} {table_id}: the timer due at version {version} never fired")
            continue
        lateness.append((moved[0] - due, by_id[table_id].spec.game))
    return lateness


def _awaits_bot(table: PlayedTable) -> bool:
    """True when the running table waits for a seat no person of the test plays (a bot's)."""
    status, view = table.people[min(table.people)].request("GET", f"/api/v1/tables/{table.id}/")
    assert status == 200, view
    return view["status"] == "running" and any(seat not in table.people for seat in view["to_act"])


def _waits_after(
    returned: float,
    tables: list[PlayedTable],
    events: dict[str, list[tuple[int, str, float]]],
    awaiting_bot: set[str],
) -> list[tuple[float, str]]:
    """The first bot move of each table after the worker's return, counted from the return or the
    table's previous event, whichever is later; a table that has not moved since and still waits
    for its bot counts until now (one waiting for its person or a timer is not a bot's wait)."""
    waits = []
    for table in tables:
        rows = events[table.id]
        after = [
            (created - max(returned, rows[i - 1][2]), table.spec.game)
            for i, (_, actor, created) in enumerate(rows)
            if i and created > returned and actor.startswith("bot:")
        ]
        if after:
            waits.append(after[0])
        elif table.id in awaiting_bot and rows[-1][2] < returned:
            waits.append((time.time() - max(returned, rows[-1][2]), table.spec.game))
    return waits


def test_timers_fire_and_bots_resume_in_seconds_with_the_only_worker_killed_for_30_s(shape):
    web = shape.processes["web1"]
    tables: list[PlayedTable] = []
    for n, spec in enumerate(ABSENT + PLAYED):
        people = [register([web], f"t{n}-{seat}-{random.randrange(10**6)}") for seat in range(spec.people)]
        tables.append(set_up_table(spec, people))
    # The people play on until the test has looked after the worker's return, however long the
    # worker takes to come back on a busy machine (a fixed deadline could pass before it does, and
    # a table awaiting its person would then look like one awaiting its bot).
    stop = threading.Event()
    until = time.monotonic() + 400
    players = [
        threading.Thread(
            target=play, args=(table, random.Random(n)), kwargs={"until": until, "stop": stop}, daemon=True
        )
        for n, table in enumerate(tables[len(ABSENT) :])
    ]
    for thread in players:
        thread.start()
    time.sleep(5)  # play a little: timers due, bot turns held by the worker

    deadlines = Deadlines(shape)
    sampler = threading.Thread(target=deadlines.run, daemon=True)
    sampler.start()
    killed = time.time()
    shape.kill("worker1", signal.SIGKILL)
    unacked_at_kill = _unacked_before(shape, killed)
    time.sleep(DOWN_SECONDS)
    queued = _queued_tasks(shape)
    ready = Path(shape.processes["worker1"].env["WORKER_READY_FILE"])
    ready.unlink(missing_ok=True)
    process = shape.restart("worker1")
    shape.wait_until(process, ready.exists, what="consume from the broker", timeout=120)
    returned = time.time()
    deadlines.stop.set()
    sampler.join()

    # What the dead worker had taken is queued again, in seconds rather than after an hour.
    limit = time.monotonic() + MAX_UNACKED_SECONDS
    while _unacked_before(shape, killed) and time.monotonic() < limit:
        time.sleep(0.2)
    unacked_seconds = time.time() - returned
    unacked_left = _unacked_before(shape, killed)

    time.sleep(15)  # the tables play on
    events = {table.id: _events(shape, table.id) for table in tables}
    awaiting_bot = {table.id for table in tables if _awaits_bot(table)}
    stop.set()
    for thread in players:
        thread.join(timeout=10)
    problems: list[str] = []

    lateness = _timer_lateness(deadlines.seen, tables, events, (killed, returned), problems)
    latest = max(lateness, default=(0.0, "-"))
    waits = _waits_after(returned, tables, events, awaiting_bot)
    longest = max(waits, default=(0.0, "-"))

    print(
        f"\n=== the only worker killed for {DOWN_SECONDS} s: {len(tables)} tables\n"
        f"timers due while it was down: {len(lateness)}, the latest fired {latest[0]:.1f} s after due "
        f"({latest[1]}; sweep every {SWEEP_SECONDS:.1f} s)\n"
        f"queued in the broker at its return: {dict(queued) or 'nothing'}\n"
        f"unacknowledged messages of the dead worker: {unacked_at_kill} at the kill, "
        f"{unacked_left} left {unacked_seconds:.1f} s after its return\n"
        f"longest wait for a bot after the worker's return: {longest[0]:.1f} s ({longest[1]}; target < {TARGET:.0f} s)"
    )
    if not lateness:
        problems.append("no timer fell due while the worker was down: the test proves nothing")
    if latest[0] >= MAX_TIMER_LATENESS:
        problems.append(f"a timer fired {latest[0]:.1f} s after due with the worker down (bound {MAX_TIMER_LATENESS})")
    if queued["games.tasks.sweep_deadlines"] > 1:
        problems.append(f"{queued['games.tasks.sweep_deadlines']} sweeps queued for the worker's return (a burst)")
    if unacked_left:
        problems.append(
            f"{unacked_left} message(s) of the dead worker still unacknowledged {unacked_seconds:.0f} s after its return"
        )
    if not waits:
        problems.append("no table with bots moved after the worker's return")
    if longest[0] >= MAX_WAIT_AFTER_RETURN:
        problems.append(f"a bot waited {longest[0]:.1f} s after the worker's return (bound {MAX_WAIT_AFTER_RETURN})")
    errors = [f"{table.spec.game}: {table.error}" for table in tables if table.error]
    problems += errors
    if shape.dead():
        problems.append(f"died unbidden: {shape.dead()}\n{shape.logs()}")
    assert not problems, "\n".join(problems)
