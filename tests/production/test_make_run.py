"""`make run` supervises its processes (config/supervisord.conf): the real `make run` on a free port,
SQLite and the local broker under a DATA_DIR of its own. A worker killed with kill -9 is started
again and says so in the log, the web answers every request meanwhile, and a table with bots plays
on once the worker is back; SIGTERM to make (what a terminal's Ctrl-C or a service manager sends)
stops every process it started.

A long test (CI, or LONG_TESTS=1): `make run` migrates a fresh database first, about 30 s here.
"""

from __future__ import annotations

import calendar
import contextlib
import os
import random
import re
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.production.players import Person, TableSpec, play, register, set_up_table
from tests.production.shape import ROOT, Process, free_port

pytestmark = [pytest.mark.long, pytest.mark.production, pytest.mark.timeout(300)]

# A table of one person and two bots, long enough to outlast the kill; no money, no staff needed.
SPEC = TableSpec("guerra", 3, people=1, options={"max_rounds": 200})


@dataclass
class MakeRun:
    popen: subprocess.Popen
    web: Process
    data_dir: Path
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def processes(self) -> dict[int, str]:
        """Every process of make's session (make, supervisord and what it started): pid -> command."""
        found = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            # After the command: state (0), ppid, pgrp, session (3).
            if int(fields[3]) == self.popen.pid and fields[0] != "Z":
                found[int(stat.parent.name)] = command
        return found

    def pid_of(self, program: str) -> int | None:
        for pid, command in self.processes().items():
            if f"celery -A config {program}" in command:
                return pid
        return None


def _wait(condition, *, timeout: float, what: str, run: MakeRun):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {timeout:.0f} s; make run's log ends:\n{run.text()[-3000:]}")
        time.sleep(0.1)
    return value


@pytest.fixture
def make_run(tmp_path) -> Iterator[MakeRun]:
    data_dir, log = tmp_path / "data", tmp_path / "make-run.log"
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        # A test worker's name would give the processes a DATA_DIR below the one asked for.
        if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL") and not key.startswith("PYTEST_XDIST")
    }
    env.update(DATA_DIR=str(data_dir), PORT=str(port), LOG_LEVEL="WARNING", THROTTLE_ANON="10000/minute")
    # The suite runs inside the installed virtualenv: `-o` keeps make from installing it again
    # (the recipe itself is the real one). Appended to, since supervisord and its programs each
    # open the file on their own.
    with log.open("ab") as out:
        popen = subprocess.Popen(
            ["make", "--no-print-directory", "-o", ".venv/.installed", "run"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    run = MakeRun(popen, Process("web", [], {}, log, popen, port=port), data_dir, log)
    try:
        _wait(lambda: _answers(run.web) or popen.poll() is not None, timeout=180, what="make run answered", run=run)
        assert popen.poll() is None, run.text()[-3000:]
        yield run
    finally:
        if popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(popen.pid, signal.SIGKILL)
        for pid in run.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        popen.wait(timeout=30)


def _answers(web: Process) -> bool:
    try:
        return web.request("GET", "/healthz", timeout=2)[0] == 200
    except OSError:
        return False


def _bot_moves_since(run: MakeRun, table_id: str, since: float) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{run.data_dir / 'db.sqlite3'}?mode=ro", uri=True, timeout=20)) as db:
        rows = db.execute(
            "SELECT created_at FROM games_event WHERE table_id = ? AND actor LIKE 'bot:%'", [table_id.replace("-", "")]
        ).fetchall()
    # Django keeps SQLite's datetimes as UTC text.
    stamps = [calendar.timegm(time.strptime(r[0][:19], "%Y-%m-%d %H:%M:%S")) for r in rows]
    return sum(stamp >= since for stamp in stamps)


def test_make_run_restarts_a_killed_worker_while_the_web_answers_and_stops_everything_on_sigterm(make_run):
    run = make_run
    worker = _wait(lambda: run.pid_of("worker"), timeout=60, what="a worker was running", run=run)
    _wait(lambda: run.pid_of("beat"), timeout=60, what="beat was running", run=run)
    person: Person = register([run.web], f"solo{random.randrange(10**6)}")
    table = set_up_table(SPEC, [person])
    player = threading.Thread(
        target=play, args=(table, random.Random(3)), kwargs={"until": time.monotonic() + 120}, daemon=True
    )
    player.start()
    _wait(lambda: _bot_moves_since(run, table.id, 0) > 0, timeout=60, what="the bots played", run=run)

    os.kill(worker, signal.SIGKILL)
    killed_at = time.time()
    # The web answers throughout, and supervisord says what happened and starts a new worker.
    answers = []
    while (restarted := run.pid_of("worker")) in (None, worker) and time.time() < killed_at + 60:
        answers.append(run.web.request("GET", "/healthz", timeout=5)[0])
        time.sleep(0.2)
    assert restarted not in (None, worker), f"no new worker within 60 s:\n{run.text()[-3000:]}"
    assert answers and set(answers) == {200}, answers
    log = run.text()
    assert re.search(r"exited: worker \(terminated by SIGKILL; not expected\)", log), log[-3000:]
    assert log.count("spawned: 'worker'") == 2, log[-3000:]
    assert run.popen.poll() is None

    # The table plays on: its bots move again, through the new worker.
    returned_at = time.time()
    _wait(
        lambda: _bot_moves_since(run, table.id, returned_at) > 0 or table.finished,
        timeout=60,
        what="a bot moved after the worker came back",
        run=run,
    )
    assert table.error is None, table.error

    # SIGTERM to make alone: make hands it to supervisord, which stops all three, then exits.
    before = run.processes()
    assert len(before) >= 5, before  # make, supervisord, web, worker, beat
    os.kill(run.popen.pid, signal.SIGTERM)
    run.popen.wait(timeout=60)
    _wait(lambda: not run.processes(), timeout=30, what="every process stopped", run=run)
    assert not _answers(run.web)
    log = run.text()
    for program in ("web", "worker", "beat"):
        assert re.search(rf"stopped: {program} ", log), log[-3000:]
