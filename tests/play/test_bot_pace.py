"""The bots of a table nobody plays at move at a paced rate (``BOT_PACE_SECONDS``): each bot turn
is due that long after the move before, held by the broker rather than by a sleeping worker, and
neither the chain of bots' turns nor beat's stalled-bot sweep plays it sooner. A table where a
person plays keeps its bots as fast as ever.

Time is a fake clock here: a queued task runs once the clock reaches its due time (its countdown
when it was published), as a broker would deliver it, so the spacing of the moves is asserted
exactly, with no sleeping."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from games import outbox, tasks
from games.models import Event, OutboxMessage, Table
from tests.api.play import Game, game_moves, person, set_up

pytestmark = pytest.mark.django_db(transaction=True)

PLAY_BOT = "games.tasks.play_bot"
# A person (seat 0) and two bots at a pot-scoring match, each hand standing alone.
POT = Game("whiskey-poker", 3, people=(0,), options={"scoring": "pot", "chips_per_player": 30})
# A person and two bots at a match: two bots' turns in a row after each of the person's moves.
GUERRA = Game("guerra", 3, people=(0,), options={"max_rounds": 30})


class Clock:
    """``timezone.now`` for the test: it moves only when a task's due time is reached."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture(autouse=True)
def _pace(settings):
    """The pace and the chain as set here, so that the tests do not depend on the defaults."""
    settings.BOT_PACE_SECONDS = 2.0
    settings.BOT_MOVES_IN_A_ROW = 20


def _deliver(task_queue, clock: Clock, *, most: int) -> list[int]:
    """Run the queued bot turns as a broker delivers them, each once the clock reaches its due time
    (the timers are left: nobody's time runs out here); how many turns each task played."""
    played = []
    while task_queue.published and len(played) < most:
        name, args, countdown, _ = task_queue.published.pop(0)
        if name != PLAY_BOT:
            continue
        clock.now += timedelta(seconds=countdown or 0)
        before = Table.objects.get(pk=args[0]).version
        tasks.play_bot(*args)
        played.append(len(_bot_commands(args[0], before)))
    return played


def _bot_commands(table_id: str, after: int) -> list[tuple]:
    """The bots' commands after version ``after``: (actor, time) of each, in order (a command's
    events share its actor and time; the system's events it causes follow it)."""
    rows = Event.objects.filter(table_id=table_id, seq__gt=after).order_by("seq").values_list("actor", "created_at")
    commands: list[tuple] = []
    for actor, at in rows:
        if actor.startswith("bot:") and (not commands or commands[-1] != (actor, at)):
            commands.append((actor, at))
    return commands


def _sit_out(client, table_id: str) -> int:
    view = client.get(f"/api/v1/tables/{table_id}/").json()
    body = {"action": {"type": "sit_out"}, "expected_version": view["version"]}
    response = client.post(f"/api/v1/tables/{table_id}/actions/", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["version"]


def test_the_bots_of_a_pot_match_whose_person_sat_out_move_at_the_pace(task_queue, clock, settings):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(POT, owner, staff)
    task_queue.published.clear()
    started_at = clock.now
    sat_out = _sit_out(clients[0], table_id)
    played = _deliver(task_queue, clock, most=12)
    # Each task played one turn: the chain stops at a turn due later, which is the broker's to hold.
    assert played and set(played) == {1}, played
    commands = _bot_commands(table_id, sat_out)
    assert len(commands) == len(played)
    # Every bot turn since was due BOT_PACE_SECONDS after the move before it, so no two bot moves
    # are closer than that, and the window holds no more moves than the pace allows.
    times = [started_at, *(at for _, at in commands)]
    assert all(later - earlier >= timedelta(seconds=2) for earlier, later in itertools.pairwise(times)), times
    window = (times[-1] - started_at).total_seconds()
    assert len(commands) <= window / settings.BOT_PACE_SECONDS
    rows = OutboxMessage.objects.filter(task=PLAY_BOT, args__0=table_id, args__1__gte=sat_out)
    assert rows and all(row.due_at - row.created_at == timedelta(seconds=2) for row in rows)


def test_the_pace_is_the_setting_and_zero_plays_at_once(task_queue, clock, settings):
    settings.BOT_PACE_SECONDS = 0
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(POT, owner, staff)
    task_queue.published.clear()
    sat_out = _sit_out(clients[0], table_id)
    (name, args, countdown, _) = task_queue.published[0]
    assert name == PLAY_BOT and countdown is None
    (row,) = OutboxMessage.objects.filter(task=PLAY_BOT, args=list(args))
    assert row.due_at == row.created_at
    # Each turn due at once, as before the pace: the clock never moves while the bots play.
    at = clock.now
    assert sum(_deliver(task_queue, clock, most=6)) >= 3
    assert {when for _, when in _bot_commands(table_id, sat_out)} == {at}


def test_a_table_where_a_person_plays_is_not_paced(task_queue, clock):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(GUERRA, owner, staff)
    for _ in range(50):
        task_queue.run_until_idle()
        view = clients[0].get(f"/api/v1/tables/{table_id}/").json()
        if 0 in view["to_act"] and game_moves(view):
            break
    else:
        pytest.fail("the person was never awaited")
    body = {"action": game_moves(view)[0], "expected_version": view["version"]}
    assert clients[0].post(f"/api/v1/tables/{table_id}/actions/", body, format="json").status_code == 200
    (bot_turn,) = [entry for entry in task_queue.published if entry[0] == PLAY_BOT]
    assert bot_turn[2] is None
    (row,) = OutboxMessage.objects.filter(task=PLAY_BOT, args=list(bot_turn[1]))
    assert row.due_at == row.created_at
    task_queue.published.clear()
    # Both bots play in the one task, at the same moment: no pace while a person plays.
    assert _deliver_now(bot_turn) >= 2


def _deliver_now(entry) -> int:
    before = Table.objects.get(pk=entry[1][0]).version
    tasks.play_bot(*entry[1])
    return len(_bot_commands(entry[1][0], before))


def test_the_stalled_bot_sweep_leaves_a_paced_turn_until_it_is_due(task_queue, clock, settings):
    settings.BOT_PACE_SECONDS = 4.0
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(POT, owner, staff)
    task_queue.published.clear()
    version = _sit_out(clients[0], table_id)
    assert Table.objects.get(pk=table_id).awaits_bot
    task_queue.published.clear()
    settings.STALLED_BOT_SECONDS = 1
    # Published at once, due in 4 s: 3 s on, the table has not moved for longer than
    # STALLED_BOT_SECONDS, yet its turn is not stalled, only not due.
    clock.now += timedelta(seconds=3)
    assert outbox.redrive_stalled_bots() == 0
    assert task_queue.published == []
    # Due, and not played for STALLED_BOT_SECONDS after that: stalled, sent again.
    clock.now += timedelta(seconds=2.5)
    assert outbox.redrive_stalled_bots() == 1
    assert [(name, tuple(args)) for name, args, _, _ in task_queue.published] == [(PLAY_BOT, (table_id, version))]
