"""The operator's integrity checks (``reconcile``, ``check_replay``, ``verify_hands``): every
problem reported with its table and event, a corrupt table never hiding the others or crashing the
run, a non-zero exit when anything is found, and all three as real ``manage.py`` processes."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Table
from tests.api.play import Game, person, play_to_the_end, set_up
from tests.games.play import make_table, play
from tests.games.tamper import tamper_event

ROOT = Path(__file__).resolve().parents[2]
GUERRA = Game("guerra", 2, people=(0,), options={"max_rounds": 10}, stake={"currency": "MXN", "amount": "10.00"})


@pytest.fixture
def two_tables(db, counter_game):
    tables = []
    for name in ("first", "second"):
        table = make_table("counter", seats=2, owner_name=name)
        play(table, {"type": "start"})
        play(table, {"type": "add", "seat": 0, "amount": 2})
        tables.append(table)
    return tables


def run(command: str, *args: str) -> tuple[bool, str]:
    """Run a command as the tests do; whether it passed, and what it printed."""
    from io import StringIO

    out = StringIO()
    try:
        call_command(command, *args, stdout=out)
    except CommandError as error:
        return False, out.getvalue() + str(error)
    return True, out.getvalue()


def test_reconcile_names_an_undecodable_event_and_still_checks_the_other_tables(two_tables):
    """Fails on the code before: the event that no longer decodes raised out of ``reconcile`` (a
    traceback) and hid every other finding."""
    broken, other = two_tables
    tamper_event(broken.pk, 3, data={"no such field": 1})
    Table.objects.filter(pk=other.pk).update(game="withdrawn")
    ok, out = run("reconcile")
    assert not ok
    assert f"event_unreadable table:{broken.pk}: event 3 (Added)" in out
    assert f"unknown_game table:{other.pk}" in out


def test_a_failing_reconcile_checker_is_a_finding_and_the_rest_still_run(db, monkeypatch):
    """Fails on the code before: a checker raising ended ``reconcile`` with a traceback."""
    from ledger import reconcile

    def broken_checker():
        raise ValueError("cannot read this")
        yield  # pragma: no cover

    monkeypatch.setattr(reconcile, "CHECKERS", [broken_checker, *reconcile.CHECKERS])
    report = reconcile.reconcile()
    assert [(p.code, p.subject) for p in report.problems] == [("check_failed", "checker:broken_checker")]


def test_check_replay_names_the_event_that_does_not_decode_and_a_missing_table(two_tables):
    """Fails on the code before: an unknown table id stopped the run before any table was checked,
    and a failed replay did not say which event."""
    broken, other = two_tables
    tamper_event(broken.pk, 3, data={"no such field": 1})
    ok, out = run("check_replay", str(broken.pk), str(other.pk), "not-a-table")
    assert not ok
    assert "MISSING not-a-table" in out
    assert f"MISMATCH {broken.pk}" in out and "event 3 (Added) does not replay" in out
    assert f"ok {other.pk}" in out
    assert "2 of 3 table(s) failed" in out


def test_verify_hands_reports_an_unreadable_table_and_verifies_the_others(transactional_db, task_queue):
    """Fails on the code before: a table of a game no longer installed raised ``KeyError`` out of
    ``verify_hands --all`` before the other tables were verified."""
    staff = person("staff", staff=True)
    first, clients = set_up(GUERRA, person("alice"), staff)
    play_to_the_end(first, clients, task_queue, random.Random(1))
    second, clients = set_up(GUERRA, person("bob"), staff)
    play_to_the_end(second, clients, task_queue, random.Random(2))
    Table.objects.filter(pk=first).update(game="withdrawn")
    ok, out = run("verify_hands", "--all", "--quiet")
    assert not ok
    assert f"FAILED table {first} (withdrawn) its hands: KeyError" in out
    assert "hand(s) verified, 1 failed" in out
    assert f"table {second}" not in out  # its hands all passed (quiet prints failures only)


def manage(*args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DJANGO_DB_NAME": str(connection.settings_dict["NAME"]),
        "DATA_DIR": str(settings.DATA_DIR),
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300
    )


# Each check as a real process, and what it says of the tampered table.
CHECKS = (
    (("reconcile",), "event_unreadable table:{table}: event 5"),
    (("check_replay",), "MISMATCH {table}"),
    (("verify_hands", "--all", "--quiet"), "event 5"),
)


@pytest.mark.parametrize(("args", "finding"), CHECKS, ids=[args[0] for args, _ in CHECKS])
def test_the_three_checks_run_as_manage_py_processes_and_exit_non_zero_on_a_finding(
    args, finding, transactional_db, task_queue
):
    """``manage.py check_replay`` crashed on every run from the command line before the fix just
    made (its ``check`` overrode Django's system check); the tests used ``call_command``, which
    skips that hook. Here each of the three runs as a real process, on clean data and on tampered
    data (one test each, so that the suite's workers share their start-up)."""
    staff = person("staff", staff=True)
    table_id, clients = set_up(GUERRA, person("alice"), staff)
    play_to_the_end(table_id, clients, task_queue, random.Random(3))
    done = manage(*args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    tamper_event(table_id, 5, data={"no such field": 1})
    done = manage(*args)
    assert done.returncode == 1, (args, done.stdout, done.stderr)
    assert finding.format(table=table_id) in done.stdout, (args, done.stdout)
    assert "Traceback" not in done.stderr, done.stderr


def test_a_check_reads_one_snapshot_while_others_commit(transactional_db):
    """Fails on the code before (there was no snapshot: each query saw the latest commits, which is
    how a live system showed false problems). A row committed by another connection during the
    block is not seen; on PostgreSQL the block is REPEATABLE READ and read only."""
    import threading

    from django.contrib.auth import get_user_model
    from django.db import connections

    from ledger.snapshot import one_snapshot

    users = get_user_model().objects
    with one_snapshot():
        before = users.count()

        def commit_elsewhere() -> None:
            users.create_user(username="meanwhile")
            connections.close_all()

        writer = threading.Thread(target=commit_elsewhere)
        writer.start()
        writer.join()
        assert users.count() == before
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SHOW transaction_isolation")
                assert cursor.fetchone()[0] == "repeatable read"
                cursor.execute("SHOW transaction_read_only")
                assert cursor.fetchone()[0] == "on"
    assert users.count() == before + 1
