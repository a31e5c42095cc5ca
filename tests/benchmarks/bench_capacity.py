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

At each step the CPU of every process of the shape is counted whole (tests/benchmarks/cpu.py): the
web server's master and workers, the worker, beat, the PostgreSQL cluster with every backend it
forked and reaped, and Redis; divided by the person actions answered, it is the CPU one action's
cycle costs (the GET and POST, the bot turns after, a share of the sweep), by process. The machine
may be shared: the load average, the machine's busy cores and the load generator's own CPU are
printed beside it. The knee is the largest step whose p99 is under the target.

Environment: by default the benchmark runs a PostgreSQL cluster and a Redis server of its own
(tests/benchmarks/servers.py), so that all their CPU is the run's. BENCH_POSTGRES_URL (such as
postgres://postgres@127.0.0.1:5432/postgres; a database of the benchmark's own is created beside it)
and BENCH_REDIS_URL (such as redis://127.0.0.1:6379/0; an empty db number is claimed) use servers
already running instead: then PostgreSQL's CPU is only what the backends alive at the two readings
of a step had spent, which misses nearly all of it (a backend lives for one request, between two
readings), and Redis's is not counted.
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
from tests.benchmarks.cpu import Spent, machine_busy, reference_seconds, self_seconds  # noqa: E402
from tests.benchmarks.servers import PROCESSES, Services, benchmark_services  # noqa: E402
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
    # Cores the shape's processes, PostgreSQL and Redis kept busy over the window.
    cores: float = 0.0
    # CPU seconds spent over the window, by process.
    spent: Spent | None = None
    # Cores the whole machine and the load generator kept busy over the window.
    machine_cores: float = 0.0
    generator_cores: float = 0.0
    # Person actions answered when the window closed (a tick under way may still add one after).
    counted: int = 0

    def cpu_per_action(self) -> dict[str, float]:
        """Milliseconds of CPU per person action answered in the window, by process and in total."""
        return self.spent.per(self.counted) if self.spent else {}

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

    # How fast this machine runs Python, before anything else loads it (figures scale with it).
    reference = reference_seconds()
    print(f"machine reference: {reference * 1000:.0f} ms of CPU for a fixed piece of Python (tests/benchmarks/cpu.py)")
    started = time.monotonic()
    load_before, busy_before = _load(), machine_busy()
    # Registration is anonymous and throttled per address; the benchmark registers hundreds at once.
    env = {"THROTTLE_ANON": "100000/minute", "THROTTLE_LOGIN_ADDRESS": "100000/minute"}
    with (
        benchmark_services(list(PROCESSES)) as services,
        Shape.create(services.postgres_url, services.redis_url, prefix="bench_capacity", env=env) as shape,
    ):
        web = shape.start_web("web", workers=args.web_workers, env=services.env(shape, "web"))
        shape.start_worker("worker", concurrency=args.worker_concurrency, env=services.env(shape, "worker"))
        shape.start_beat(sweep_seconds=1.0, env=services.env(shape, "beat"))
        print(
            f"gunicorn + {args.web_workers} uvicorn workers, 1 Celery worker ({args.worker_concurrency} threads), beat; "
            f"{services.describe()}; {os.cpu_count()} cores; load average before: {_load_text(load_before)}"
        )
        results = ramp(shape, services, web, args, steps, started)
    busy_after = machine_busy()
    wall = busy_after[1] - busy_before[1]
    run = Run(
        seconds=time.monotonic() - started,
        load_before=load_before,
        load_after=_load(),
        machine_cores=(busy_after[0] - busy_before[0]) / wall * (os.cpu_count() or 1) if wall else 0.0,
    )
    report(results, run, reference)


@dataclass
class Run:
    """The whole run, setup included: how long, and how busy the machine was."""

    seconds: float
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    machine_cores: float


def ramp(shape: Shape, services: Services, web: Process, args, steps: list[int], started: float) -> list[Step]:
    load = Load(args.period)
    meter = services.meter(shape)
    tables: list[PlayedTable] = []
    results: list[Step] = []
    try:
        for count in steps:
            spent = time.monotonic() - started
            # Setting up is about 0.1 s a table on this kind of machine; stop before a step would overrun.
            if spent + 0.1 * (count - len(tables)) + args.warmup + args.window > args.budget:
                print(f"stopping before {count} tables: the budget of {args.budget:.0f} s would be passed")
                break
            try:
                while len(tables) < count:
                    table = _set_up(web, len(tables))
                    tables.append(table)
                    load.add(table)
            except Overloaded as error:
                print(f"{count} tables: the shape could not take them ({error}); past its capacity", flush=True)
                break
            time.sleep(args.warmup)
            step = Step(count, load=_load())
            before, generator, busy = meter.read(), self_seconds(), machine_busy()
            load.step = step
            time.sleep(args.window)
            load.step = None
            step.spent = meter.read() - before
            step.counted = len(step.latencies)
            step.generator_cores = (self_seconds() - generator) / step.spent.wall
            step.machine_cores = (machine_busy()[0] - busy[0]) / step.spent.wall
            step.cores = step.spent.cores()
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


class Overloaded(Exception):
    """Tables could not be set up: the shape kept answering 503 while they were added."""


# A 503 while tables are added (the pool's wait for a connection ran out: the shape is overloaded)
# is tried again after its Retry-After, as a client would, this many times in all.
SETUP_ATTEMPTS = 4


def _set_up(web: Process, number: int) -> PlayedTable:
    """A table of the step's, its person registered; ``Overloaded`` if the shape keeps refusing."""
    for attempt in range(SETUP_ATTEMPTS):
        try:
            person = register([web], f"cap{number}-{attempt}")
            return set_up_table(SPEC, [person])
        except AssertionError as error:
            if " 503 " not in str(error):
                raise
            if attempt == SETUP_ATTEMPTS - 1:
                raise Overloaded(str(error)[:160]) from error
            time.sleep(5)
    raise AssertionError("unreachable")


def _load() -> tuple[float, float, float]:
    return os.getloadavg()


def _load_text(load: tuple[float, float, float]) -> str:
    return " ".join(f"{value:.2f}" for value in load)


CPU_COLUMNS = ("web", "worker", "beat", "postgres", "redis", "total")


def _cpu_text(step: Step) -> str:
    per = step.cpu_per_action()
    return " ".join(f"{name} {per[name]:.1f}" for name in CPU_COLUMNS if name in per)


def _line(step: Step) -> str:
    if not step.latencies:
        return f"{step.tables:>5} tables: no action measured ({step.errors} errors)"
    return (
        f"{step.tables:>5} tables: n={len(step.latencies):>5}  p50 {step.quantile(0.5) * 1000:6.1f} ms  "
        f"p95 {step.quantile(0.95) * 1000:6.1f} ms  p99 {step.quantile(0.99) * 1000:6.1f} ms  "
        f"mean {statistics.mean(step.latencies) * 1000:6.1f} ms  "
        f"bots behind {step.waiting}/{step.ticks}  409 {step.conflicts}  errors {step.errors}  "
        f"shape {step.cores:.2f} cores (machine {step.machine_cores:.2f}, load generator {step.generator_cores:.2f})  "
        f"load {step.load[0]:.1f}\n"
        f"{'':>13}CPU ms per person action: {_cpu_text(step)}"
    )


def report(results: list[Step], run: Run, reference: float) -> None:
    held = [step.tables for step in results if step.latencies and step.quantile(0.99) < TARGET_P99]
    print()
    names = [name for name in CPU_COLUMNS if any(name in step.cpu_per_action() for step in results)]
    print(
        f"{'tables':>6} {'actions':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'cores':>6} {'machine':>7}  "
        + " ".join(f"{name:>8}" for name in names)
        + "  under 250 ms   (CPU ms per person action by process)"
    )
    for step in results:
        p99 = step.quantile(0.99)
        per = step.cpu_per_action()
        print(
            f"{step.tables:>6} {len(step.latencies):>8} {step.quantile(0.5) * 1000:>8.1f} "
            f"{step.quantile(0.95) * 1000:>8.1f} {p99 * 1000:>8.1f} {step.cores:>6.2f} {step.machine_cores:>7.2f}  "
            + " ".join(f"{per.get(name, float('nan')):>8.1f}" for name in names)
            + f"  {'yes' if p99 < TARGET_P99 else 'NO'}"
        )
    knee = max(held) if held else 0
    print(f"the knee: {knee} tables, the largest step with the person's action p99 under 250 ms")
    print(
        f"the run: {run.seconds:.0f} s; load average {_load_text(run.load_before)} before, "
        f"{_load_text(run.load_after)} after; the machine's cores busy {run.machine_cores:.2f} on average"
    )
    # The machine is often shared: what the shape itself burns per table says what two cores of
    # its own would hold, as a ceiling (latency grows before the cores are full).
    busiest = max(results, key=lambda step: step.tables, default=None)
    per_table = busiest.cores / busiest.tables if busiest and busiest.cores else 0.0
    if per_table:
        print(
            f"the shape used {per_table * 1000:.1f} ms of CPU per second per table at {busiest.tables} tables: "
            f"two cores of its own would be full at about {2 / per_table:.0f} tables"
        )
    per_action = busiest.cpu_per_action() if busiest else {}
    fields = [f"capacity_tables={knee}", f"knee_tables={knee}", f"cpu_per_table_ms_per_s={per_table * 1000:.1f}"]
    fields += [f"{name}_ms_per_action={per_action[name]:.1f}" for name in names if name in per_action]
    fields += [f"load1_after={run.load_after[0]:.2f}", f"machine_cores={run.machine_cores:.2f}"]
    fields += [f"reference_ms={reference * 1000:.0f}"]
    print("RESULT " + " ".join(fields))


if __name__ == "__main__":
    main()
