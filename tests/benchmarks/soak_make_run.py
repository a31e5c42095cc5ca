"""`make run` under play, for as long as a person would try it: does it stay up?

Starts `make run` itself (SQLite, the local broker, a fresh DATA_DIR), keeps TABLES_PER_GAME tables
of every game running at once with two people each (random legal actions with Idempotency-Keys)
and bots, starts a new table whenever one finishes, and every 20 s drops an empty message file
into the broker's queue folder (the reproduction of the crash that used to stop `make run`). At
the end it checks that the three processes are still running (none died and was restarted), that no request answered 5xx and
that `manage.py reconcile` proves the books, and prints the figures.

    python tests/benchmarks/soak_make_run.py [--minutes 10] [--tables-per-game 6] [--port 8765]

Not a test: it takes minutes. The issue's "ten minutes under make run" figure comes from here.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.production.players import (  # noqa: E402
    PASSWORD,
    Person,
    PlayedTable,
    TableSpec,
    deposit,
    play,
    register,
    set_up_table,
    tables_of_every_game,
)
from tests.production.shape import Process  # noqa: E402

PYTHON = Path(sys.executable)
SPECS = tables_of_every_game(1)


def start_make_run(data_dir: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATA_DIR": str(data_dir), "PORT": str(port), "LOG_LEVEL": "WARNING"}
    # Every person here comes from one address: the per-address limits on sign-ups and logins are
    # for strangers, not for a soak that registers dozens of players in its first minute.
    env.update(THROTTLE_ANON="10000/minute", THROTTLE_LOGIN_ADDRESS="10000/minute")
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DEBUG", "SECRET_KEY"):
        env.pop(name, None)
    log = open(data_dir.parent / f"{data_dir.name}.log", "wb")  # noqa: SIM115 - lives as long as make run
    return subprocess.Popen(
        ["make", "--no-print-directory", "run"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def manage(data_dir: Path, *args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATA_DIR": str(data_dir), "DEBUG": "true", **(extra or {})}
    env["SECRET_KEY"] = (data_dir / "secret_key").read_text().strip()
    for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
        env.pop(name, None)
    return subprocess.run([str(PYTHON), "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def wait_until_up(web: Process, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if web.request("GET", "/healthz", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"make run did not answer within {seconds:.0f} s; see its log")


class Soak:
    def __init__(self, web: Process, staff: Person, data_dir: Path, until: float) -> None:
        self.web, self.staff, self.data_dir, self.until = web, staff, data_dir, until
        self.people: list[Person] = []
        self.tables: list[PlayedTable] = []
        self.lock = threading.Lock()
        self.failures: list[str] = []

    def person(self, n: int) -> Person:
        person = register([self.web], f"p{n}x{random.randrange(10**9)}")
        deposit(self.staff, person, "MXN", "1000.00")
        with self.lock:
            self.people.append(person)
        return person

    def lane(self, spec: TableSpec, lane: int) -> None:
        """One table of ``spec`` after another until the time is up."""
        rng = random.Random(lane)
        players = [self.person(lane * 10 + i) for i in range(spec.people)]
        while time.monotonic() < self.until:
            try:
                table = set_up_table(spec, players)
            except AssertionError as exc:
                with self.lock:
                    self.failures.append(str(exc))
                time.sleep(1)
                continue
            with self.lock:
                self.tables.append(table)
            play(table, rng, until=self.until, poll=0.5)
            if table.error:
                with self.lock:
                    self.failures.append(f"{spec.game} {table.id}: {table.error}")

    def torn_messages(self) -> int:
        """The crash's reproduction, every 20 s: an empty file where the worker looks for messages."""
        dropped = 0
        out = self.data_dir / "broker" / "out"
        while time.monotonic() < self.until:
            (out / f"0_{dropped}.celery.msg").touch()
            dropped += 1
            time.sleep(20)
        return dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--tables-per-game", type=int, default=6)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()

    data_dir = ROOT / "var" / "soak"
    shutil.rmtree(data_dir, ignore_errors=True)
    data_dir.mkdir(parents=True)
    make_run = start_make_run(data_dir, args.port)
    web = Process("web", [], {}, data_dir.parent / "soak.log", make_run, port=args.port)
    try:
        wait_until_up(web)
        created = manage(
            data_dir,
            "createsuperuser",
            "--noinput",
            "--username=staff",
            "--email=staff@example.com",
            extra={"DJANGO_SUPERUSER_PASSWORD": PASSWORD},
        )
        assert created.returncode == 0, created.stderr
        status, body = web.request("POST", "/api/v1/auth/token/", {"username": "staff", "password": PASSWORD})
        assert status == 200, body
        staff = Person("staff", body["token"], [web])

        started = time.monotonic()
        soak = Soak(web, staff, data_dir, started + args.minutes * 60)
        lanes = [
            threading.Thread(target=soak.lane, args=(spec, n * 100 + i), daemon=True)
            for n, spec in enumerate(SPECS)
            for i in range(args.tables_per_game)
        ]
        for lane in lanes:
            lane.start()
        dropped = soak.torn_messages()
        for lane in lanes:
            lane.join(timeout=60)
        # supervisord restarts a process that dies, so make run staying up is not enough: its log
        # must show no exit it did not ask for.
        log = (data_dir / "supervisord.log").read_text(errors="replace")
        alive = make_run.poll() is None and "not expected" not in log
        reconcile = manage(data_dir, "reconcile")
        report(soak, dropped, alive, reconcile, time.monotonic() - started)
    finally:
        if make_run.poll() is None:
            os.killpg(make_run.pid, signal.SIGINT)
            try:
                make_run.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(make_run.pid, signal.SIGKILL)


def report(soak: Soak, dropped: int, alive: bool, reconcile: subprocess.CompletedProcess, seconds: float) -> None:
    sent = [s for person in soak.people for s in person.sent]
    statuses = Counter(s.status for s in sent)
    by_game = Counter(t.spec.game for t in soak.tables if t.finished)
    latencies = sorted(s.seconds for s in sent if s.status == 200)
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan")
    server_errors = sum(n for status, n in statuses.items() if status >= 500)
    print(f"soak of make run: {seconds / 60:.1f} min, {len(soak.tables)} tables started")
    print(f"  finished by game: {dict(by_game)}")
    print(f"  actions sent: {len(sent)}, answers by status: {dict(sorted(statuses.items()))}, p99 {p99:.0f} ms")
    print(f"  empty broker messages dropped in: {dropped}")
    print(f"  failures: {len(soak.failures)}" + "".join(f"\n    {f}" for f in soak.failures[:10]))
    print(f"  make run still running, no process died: {alive}")
    said = (reconcile.stdout + reconcile.stderr).strip().splitlines()
    print(
        f"  reconcile exit {reconcile.returncode}: " + ("\n    ".join(said[-8:]) if reconcile.returncode else said[-1])
    )
    ok = alive and server_errors == 0 and not soak.failures and reconcile.returncode == 0
    print("RESULT", "ok" if ok else "FAILED")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
