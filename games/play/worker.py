"""The worker's commands: a system command, a bot's turn, a deadline, the sweep. Each is idempotent
by the table's version: a late or repeated task finds the table moved on and does nothing."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import telemetry
from games.engine import presence
from games.errors import NotFound
from games.models import Table
from games.play import unit
from games.play.execute import SYSTEM, Outcome, execute


def _running_at(table_id, expected_version: int) -> unit.Locked | None:
    """The table under its lock, loaded, if it still runs at ``expected_version``."""
    try:
        locked = unit.open_table(table_id)
    except NotFound:
        return None
    table = locked.table
    if table.version != expected_version or table.status != Table.Status.RUNNING:
        return None
    return locked


def run_system_command(
    *, table_id, command: Mapping[str, Any], expected_version: int, actor: str = SYSTEM
) -> Outcome | None:
    """A command from the worker (a bot's move, a timeout). ``None`` when the table has moved on
    since the task was scheduled."""
    with transaction.atomic():
        locked = _running_at(table_id, expected_version)
        if locked is None:
            return None
        return execute(locked, dict(command), expected_version=expected_version, actor=actor)


def play_bot_turn(*, table_id, expected_version: int) -> Outcome | None:
    """Let the first bot the game waits for choose from its own view and act, under the table's
    lock: the table is read once, at the version the turn was scheduled for, and the bot's choice
    and its command both start from that one read."""
    with transaction.atomic():
        seen = _running_at(table_id, expected_version)
        if seen is None or seen.version != expected_version:
            return None
        waiting = [seat for seat in seen.decider.to_act(seen.state) if seat in seen.bots]
        if not waiting:
            return None
        seat = waiting[0]
        action = choose_for(seen, seat)
        return execute(seen, {**action, "seat": seat}, expected_version=expected_version, actor=f"bot:{seat}")


def choose_for(seen: unit.Locked, seat: int) -> dict[str, Any]:
    """The bot's choice for ``seat`` at the table ``seen``, from that seat's view only; the rng is
    derived from the table and version so a retried task chooses the same."""
    table, decider, state = seen.table, seen.decider, seen.state
    # Sitting out, sitting in and leaving are the player's to choose, never the bot's (CM-20).
    legal = [action for action in decider.legal_actions(state, seat) if not presence.is_presence_action(action)]
    rng = random.Random(f"{table.pk}:{table.version}:{seat}")
    with telemetry.timing_bot(table.game):
        action = decider.bot(decider.view(state, seat), legal, rng)
    action = dict(action)
    action.pop("seat", None)
    return action


def expire_deadline(*, table_id, expected_version: int) -> Outcome | None:
    """Run the timed command a table was waiting for, once: only while the table is still at the
    version the deadline belongs to and the deadline has passed."""
    with transaction.atomic():
        try:
            locked = unit.open_table(table_id)
        except NotFound:
            return None
        table = locked.table
        if (
            table.deadline_version != expected_version
            or table.version != expected_version
            or table.deadline_at is None
            or table.deadline_at > timezone.now()
        ):
            return None
        command = dict(table.deadline_command)
        return execute(locked, command, expected_version=expected_version, actor=SYSTEM)


def sweep_deadlines(*, limit: int = 100) -> int:
    """Expire every table whose deadline has passed. Beat runs this; the countdown task is only a
    fast path, so a lost message delays a timeout by one sweep at most."""
    due = list(
        Table.objects.filter(status=Table.Status.RUNNING, deadline_at__lte=timezone.now())
        .order_by("deadline_at")
        .values_list("pk", "deadline_version")[:limit]
    )
    done = 0
    for table_id, version in due:
        if expire_deadline(table_id=table_id, expected_version=version) is not None:
            done += 1
    return done
