"""Capacity of one machine in the production shape: how many tables, each with one person acting
every 5 s and bots in the other seats, it holds while the person's action p99 stays under 250 ms.

The shape (tests/production/shape.py) on PostgreSQL and Redis: gunicorn with uvicorn workers, one
Celery worker (threads) and beat, on a fresh database and Redis db of its own, dropped at the end.
Tables are 4-seat Whiskey Poker to 50 points (one person, three bots), long enough not to end within
the run. The number of tables ramps (10, 20, 30, 40, 60, ... by default); after each step's warm-up, every
person's POST action is timed over the step's window. The ramp stops after the first step over the
target, at the last step, or when the total time would pass ``--budget``.

    python tests/benchmarks/bench_capacity.py [--steps 10,20,30,40,60,80] [--window 40] [--warmup 5]
        [--budget 480] [--web-workers 3] [--worker-concurrency 4] [--period 5]

The load generator runs on the same machine and takes its share of the cores; the figures are what
the machine holds with its own clients, a lower bound for a server with clients elsewhere.

Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres; a database of
the benchmark's own is created beside it), BENCH_REDIS_URL (default redis://127.0.0.1:6379/0; an
empty db number is claimed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.engine import presence  # noqa: E402
from tests.production.players import Person, PlayedTable, TableSpec, register, set_up_table  # noqa: E402
from tests.production.shape import Process, Shape  # noqa: E402

TARGET_P99 = 0.250
# turn_seconds at its maximum: a person who waits for their period is never timed out.
SPEC = TableSpec("whiskey-poker", 4, people=1, options={"scoring": "points", "target_points": 50, "turn_seconds": 3600})


@dataclass
class Step:
    tables: int
    latencies: list[float] = field(default_factory=list)
    conflicts: int = 0
    errors: int = 0
    # Ticks when the person was not awaited: the bots (the worker) had not answered within a period.
    waiting: int = 0
    ticks: int = 0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # Cores the shape's own processes and database backends kept busy over the window.
    cores: float = 0.0

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


class Load:
    """Each table's person wakes every ``period`` seconds (offsets spread at random), reads the
    table and, if awaited, sends one random legal action; the action's time goes to the step
    being measured."""

    def __init__(self, period: float):
        self.period = period
        self.stopping = threading.Event()
        self.step: Step | None = None
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def add(self, table: PlayedTable) -> None:
        thread = threading.Thread(target=self._person, args=(table, random.Random(len(self.threads))), daemon=True)
        self.threads.append(thread)
        thread.start()

    def _person(self, table: PlayedTable, rng: random.Random) -> None:
        person = table.people[0]
        path = f"/api/v1/tables/{table.id}/"
        next_tick = time.monotonic() + rng.uniform(0, self.period)
        while not self.stopping.wait(max(0.0, next_tick - time.monotonic())):
            next_tick += self.period
            step = self.step
            try:
                self._tick(person, table, path, rng, step)
            except OSError:
                if step is not None:
                    with self.lock:
                        step.errors += 1

    def _tick(self, person: Person, table: PlayedTable, path: str, rng: random.Random, step: Step | None) -> None:
        status, view = person.request("GET", path)
        if status != 200:
            raise OSError(f"GET {status}")
        if view["status"] != "running":
            return
        awaited = 0 in view["to_act"] and view["legal_actions"]
        moves = [a for a in view["legal_actions"] if not presence.is_presence_action(a)]  # never leave (CM-20)
        sent = person.act(table.id, rng.choice(moves), view["version"]) if awaited else None
        if step is None:
            return
        with self.lock:
            step.ticks += 1
            if sent is None:
                step.waiting += 1
            elif sent.status == 200:
                step.latencies.append(sent.seconds)
            elif sent.status == 409:
                step.conflicts += 1
            else:
                step.errors += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="10,20,30,40,60,80,120,160")
    parser.add_argument("--window", type=float, default=40.0, help="seconds measured per step")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds after adding tables, not measured")
    parser.add_argument("--budget", type=float, default=480.0, help="seconds for the whole ramp, setup included")
    parser.add_argument("--period", type=float, default=5.0, help="seconds between a person's actions")
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--worker-concurrency", type=int, default=4)
    args = parser.parse_args()
    steps = [int(n) for n in args.steps.split(",")]

    postgres = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    started = time.monotonic()
    # Registration is anonymous and throttled per address; the benchmark registers hundreds at once.
    with Shape.create(postgres, redis_url, prefix="bench_capacity", env={"THROTTLE_ANON": "100000/minute"}) as shape:
        web = shape.start_web("web", workers=args.web_workers)
        shape.start_worker("worker", concurrency=args.worker_concurrency)
        shape.start_beat(sweep_seconds=1.0)
        print(
            f"gunicorn + {args.web_workers} uvicorn workers, 1 Celery worker ({args.worker_concurrency} threads), beat; "
            f"{os.cpu_count()} cores; load average before: {_load()}"
        )
        results = ramp(shape, web, args, steps, started)
    report(results)


def ramp(shape: Shape, web: Process, args, steps: list[int], started: float) -> list[Step]:
    load = Load(args.period)
    tables: list[PlayedTable] = []
    results: list[Step] = []
    try:
        for count in steps:
            spent = time.monotonic() - started
            # Setting up is about 0.1 s a table on this kind of machine; stop before a step would overrun.
            if spent + 0.1 * (count - len(tables)) + args.warmup + args.window > args.budget:
                print(f"stopping before {count} tables: the budget of {args.budget:.0f} s would be passed")
                break
            while len(tables) < count:
                person = register([web], f"cap{len(tables)}")
                table = set_up_table(SPEC, [person])
                tables.append(table)
                load.add(table)
            time.sleep(args.warmup)
            step = Step(count, load=_load())
            cpu = shape.cpu_seconds()
            load.step = step
            time.sleep(args.window)
            load.step = None
            step.cores = (shape.cpu_seconds() - cpu) / args.window
            results.append(step)
            print(_line(step), flush=True)
            if shape.dead():
                raise RuntimeError("a process exited:\n" + shape.logs())
            if step.quantile(0.99) >= TARGET_P99:
                break
    finally:
        load.stopping.set()
        for thread in load.threads:
            thread.join(timeout=10)
    return results


def _load() -> tuple[float, float, float]:
    return os.getloadavg()


def _line(step: Step) -> str:
    if not step.latencies:
        return f"{step.tables:>5} tables: no action measured ({step.errors} errors)"
    return (
        f"{step.tables:>5} tables: n={len(step.latencies):>5}  p50 {step.quantile(0.5) * 1000:6.1f} ms  "
        f"p95 {step.quantile(0.95) * 1000:6.1f} ms  p99 {step.quantile(0.99) * 1000:6.1f} ms  "
        f"mean {statistics.mean(step.latencies) * 1000:6.1f} ms  "
        f"bots behind {step.waiting}/{step.ticks}  409 {step.conflicts}  errors {step.errors}  "
        f"shape {step.cores:.2f} cores  load {step.load[0]:.1f}"
    )


def report(results: list[Step]) -> None:
    held = [step.tables for step in results if step.latencies and step.quantile(0.99) < TARGET_P99]
    print()
    print(f"{'tables':>6} {'actions':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'cores':>6}  under 250 ms")
    for step in results:
        p99 = step.quantile(0.99)
        print(
            f"{step.tables:>6} {len(step.latencies):>8} {step.quantile(0.5) * 1000:>8.1f} "
            f"{step.quantile(0.95) * 1000:>8.1f} {p99 * 1000:>8.1f} {step.cores:>6.2f}  "
            f"{'yes' if p99 < TARGET_P99 else 'NO'}"
        )
    largest = max(held) if held else 0
    print(f"largest step with the person's action p99 under 250 ms: {largest} tables")
    # The machine is often shared: what the shape itself burns per table says what two cores of
    # its own would hold, as a ceiling (latency grows before the cores are full).
    busiest = max(results, key=lambda step: step.tables, default=None)
    per_table = busiest.cores / busiest.tables if busiest and busiest.cores else 0.0
    if per_table:
        print(
            f"the shape used {per_table * 1000:.1f} ms of CPU per second per table at {busiest.tables} tables: "
            f"two cores of its own would be full at about {2 / per_table:.0f} tables"
        )
    print(f"RESULT capacity_tables={largest} cpu_per_table_ms_per_s={per_table * 1000:.1f}")


if __name__ == "__main__":
    main()
