"""The benchmarks' CPU accounting (tests/benchmarks/cpu.py): a tree's CPU counts its reaped
processes once, through their reaper, so the difference of two readings is what was spent between."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.benchmarks.cpu import TICK, Meter, Reading, Stat, members, parse_stat, pids_ticks, snapshot, tree_ticks
from tests.benchmarks.servers import OwnPostgres, Statement, postgres_bindir, role_url
from tests.conftest import require


def stat_line(pid: int, comm: str, ppid: int, pgrp: int, utime: int, stime: int, cutime: int, cstime: int) -> str:
    # pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
    return f"{pid} ({comm}) S {ppid} {pgrp} {pgrp} 0 -1 4194560 10 0 0 0 {utime} {stime} {cutime} {cstime} 20 0 1 0"


def test_the_command_may_hold_spaces_and_parentheses():
    stat = parse_stat(stat_line(42, "postgres: web db 127.0.0.1(5) idle", 7, 7, 11, 2, 30, 4))
    assert stat == Stat(pid=42, ppid=7, pgrp=7, utime=11, stime=2, cutime=30, cstime=4)
    assert (stat.own, stat.total) == (13, 47)


def stats(*rows: tuple[int, int, int, int, int, int, int]) -> dict[int, Stat]:
    return {row[0]: Stat(*row) for row in rows}


def test_a_tree_is_its_root_its_descendants_and_its_process_group():
    table = stats(
        (1, 0, 1, 0, 0, 0, 0),
        (10, 1, 10, 5, 0, 0, 0),  # the root
        (11, 10, 11, 5, 0, 0, 0),  # a child in a session of its own (a PostgreSQL backend)
        (12, 11, 11, 5, 0, 0, 0),  # a grandchild
        (13, 1, 10, 5, 0, 0, 0),  # an orphan still in the root's group
        (20, 1, 20, 5, 0, 0, 0),  # a stranger
    )
    assert members(table, [10]) == {10, 11, 12, 13}
    assert members(table, [99]) == set()


def test_a_reaped_child_is_counted_once_through_its_reaper():
    # Before: the postmaster (10, 3 ticks so far, 40 reaped) and a live backend (11, 6 ticks).
    before = stats((10, 1, 10, 2, 1, 30, 10), (11, 10, 11, 4, 2, 0, 0))
    # After: backend 11 spent 5 more ticks and was reaped; backend 12 was born, spent 9 and was
    # reaped in between; backend 13 is alive with 1 tick.
    after = stats((10, 1, 10, 2, 1, 30 + 9 + 9, 10 + 2), (13, 10, 13, 1, 0, 0, 0))
    assert tree_ticks(after, [10]) - tree_ticks(before, [10]) == 5 + 9 + 1
    # Sampling the live backends sees only the newcomer's tick and loses what 11 had spent.
    assert pids_ticks(after, [13]) - pids_ticks(before, [11]) == 1 - 6


def test_readings_subtract_by_name_and_share_per_action():
    spent = Reading({"web": 3.0, "postgres": 5.0}, at=12.0) - Reading({"web": 1.0, "postgres": 1.0}, at=2.0)
    assert spent.seconds == {"web": 2.0, "postgres": 4.0}
    assert spent.wall == 10.0
    assert spent.cores() == pytest.approx(0.6)
    assert spent.cores("web") == pytest.approx(0.2)
    assert spent.per(4) == {"web": 500.0, "postgres": 1000.0, "total": 1500.0}
    assert spent.per(0) == {}


def test_a_fake_proc_is_read_like_the_real_one(tmp_path: Path):
    for pid, line in {
        5: stat_line(5, "gunicorn", 1, 5, 100, 20, 7, 3),
        6: stat_line(6, "gunicorn (worker)", 5, 5, 50, 5, 0, 0),
    }.items():
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "stat").write_text(line + "\n")
    (tmp_path / "self").mkdir()
    assert set(snapshot(tmp_path)) == {5, 6}
    meter = Meter(proc=tmp_path)
    meter.add_tree("web", [5])
    meter.add_pids("sampled", lambda: [6, 7])
    reading = meter.read()
    assert reading.seconds["web"] == pytest.approx((100 + 20 + 7 + 3 + 50 + 5) * TICK)
    # Only the sampled process's own time, and nothing for one that is not there.
    assert reading.seconds["sampled"] == pytest.approx((50 + 5) * TICK)


BURN = "import time\nstart = time.process_time()\nwhile time.process_time() - start < 0.3: pass\n"


def test_the_cpu_of_children_already_gone_is_counted(tmp_path: Path):
    """A real tree: a shell runs two short CPU-bound children one after the other, then waits; a
    reading taken while it waits holds both children's CPU, though neither is alive."""
    done = tmp_path / "done"
    script = f'"{sys.executable}" -c "$BURN"; "{sys.executable}" -c "$BURN"; touch "{done}"; sleep 30'
    shell = subprocess.Popen(["sh", "-c", script], env={"BURN": BURN, "PATH": "/usr/bin:/bin"}, start_new_session=True)
    try:
        meter = Meter()
        meter.add_tree("shell", [shell.pid])
        meter.add_pids("sampled", lambda: [shell.pid])
        before = meter.read()
        deadline = time.monotonic() + 30
        while not done.exists():
            assert time.monotonic() < deadline, "the children did not finish"
            time.sleep(0.05)
        spent = meter.read() - before
    finally:
        shell.kill()
        shell.wait()
    assert spent.seconds["shell"] >= 0.5
    assert spent.seconds["sampled"] < 0.1


def test_statements_are_told_apart_by_kind():
    kinds = {
        "BEGIN": "begin/commit",
        "COMMIT": "begin/commit",
        'SELECT "games_table"."id" FROM "games_table" WHERE id = $1': "read",
        'SELECT "x" FROM "games_table" WHERE id = $1 FOR UPDATE': "lock",
        'INSERT INTO "games_event" VALUES ($1)': "write",
        "WITH moved AS (UPDATE games_table SET version = $1 RETURNING id) SELECT 1": "write",
        "WITH x AS (SELECT 1) SELECT * FROM x": "read",
        "SET TIME ZONE 'UTC'": "other",
    }
    assert {query: Statement("web", query, 1, 0, 0.0).kind for query in kinds} == kinds


def test_the_owners_statements_are_foreign_key_checks_or_the_benchmarks():
    check = 'SELECT $2 FROM ONLY "public"."games_table" x WHERE "id" OPERATOR(pg_catalog.=) $1 FOR KEY SHARE OF x'
    assert Statement("postgres", check, 4, 4, 0.1).sender == "fk-check"
    assert Statement("postgres", "SELECT max(id) FROM games_event", 1, 1, 0.1).sender == "benchmark"
    assert Statement("worker", check, 4, 4, 0.1).sender == "worker"


def test_a_role_url_names_the_role_twice():
    url = role_url("postgres://postgres:secret@127.0.0.1:5433/bench_1", "worker")
    assert url == "postgres://worker@127.0.0.1:5433/bench_1?application_name=worker"


@pytest.mark.postgres
def test_a_cluster_of_our_own_counts_its_reaped_backends_and_each_roles_work():
    """Backends that connect, query and go between two readings are in the cluster's CPU; their
    statements and connections are told apart by role."""
    try:
        postgres_bindir()
        found = True
    except RuntimeError:
        found = False
    require(found, "PostgreSQL's server binaries (initdb)")
    import psycopg

    cluster = OwnPostgres(["web"])
    try:
        cluster.start()
        meter = Meter()
        meter.add_tree("postgres", [cluster.postmaster_pid])
        before = meter.read()
        cluster.reset_statements()
        log_at = cluster.log_offset()
        for n in range(30):
            with psycopg.connect(cluster.url(role="web"), autocommit=True) as conn:
                conn.execute("SELECT count(*) FROM pg_class WHERE relpages >= %s", [n]).fetchone()
        spent = meter.read() - before
        time.sleep(0.2)  # the last connection's log line
        connections = cluster.connections(log_at, "postgres")
        statements = cluster.statements("postgres")
    finally:
        cluster.close()
    # Thirty backends forked, each loading its caches: well over a tick's worth, all of it reaped.
    assert spent.seconds["postgres"] > 0.02
    assert connections["web"] == 30
    calls = {s.query: s.calls for s in statements if s.role == "web"}
    assert calls == {"SELECT count(*) FROM pg_class WHERE relpages >= $1": 30}
    assert not cluster.folder.exists()
