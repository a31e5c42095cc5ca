"""The worker's commands: a system command, a bot's turn, a deadline, the sweep. Each is idempotent
by the table's version: a late or repeated task finds the table moved on and does nothing."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import scheduling, telemetry
from games.engine import presence, registry
from games.errors import Conflict, NotFound
from games.models import Table
from games.play import unit
from games.play.execute import SYSTEM, Outcome, execute

PLAY_BOT = "games.tasks.play_bot"


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
    return _bot_move(table_id, expected_version, chained=False)


def play_bot_turns(*, table_id, expected_version: int, most: int | None = None) -> int:
    """The bots' turns from ``expected_version`` on, while bots' seats are awaited one after another,
    at most ``most`` of them: how many were played. Each is its own command (``play_bot_turn``): its
    own transaction, events, outbox row and notice. The bot turn each one stores is kept back
    (``scheduling.holding``) and, if the next one is played here, never sent (its row is stored
    marked published); the table is read again under its lock for each, since a person may have
    acted in between. Once no bot is awaited, or the table moved on, or ``most`` were played, the
    last one kept is published as it would have been; if the process dies meanwhile, the table
    row still says it awaits a bot and beat's sweep sends the turn again
    (``games.outbox.redrive_stalled_bots``), so the table goes on as after a single turn."""
    # At most BOT_MOVES_IN_A_ROW turns a task; the next task goes on from there.
    most = settings.BOT_MOVES_IN_A_ROW if most is None else most
    played, version = 0, expected_version
    held: list[Any] = []
    try:
        while played < most:
            with scheduling.holding(PLAY_BOT) as kept:
                try:
                    outcome = _bot_move(table_id, version, chained=played > 0)
                except Conflict:
                    if not played:
                        raise
                    break
            if outcome is None:
                break
            played += 1
            # Committed: the turns held before are done; those this one stored are held now.
            held = kept
            # A turn due later (a table nobody plays at, ``execute.bot_pace``) is the broker's to
            # hold until its time: playing it here would undo the pace.
            if not held or _due_later(held) or not _a_bots_seat_next(outcome):
                break
            version = outcome.table.version
    finally:
        for row in held:
            scheduling.publish_after_commit(row)
    return played


def _due_later(rows: list[Any]) -> bool:
    """Whether any of the bot turns a command stored is due after now (a paced turn)."""
    now = timezone.now()
    return any(row.due_at > now for row in rows)


def _a_bots_seat_next(outcome: Outcome) -> bool:
    """Whether the first seat the table now waits for that the bot plays is a bot's own seat (as
    ``_bot_move`` will find it, read again under the lock), from what the command left."""
    seats = outcome.table.__dict__.get("_seat_rows") or []
    decider = registry.get(outcome.table.game)
    played = {s.number for s in seats if s.bot} | set(decider.played_by_bot(outcome.state))
    waiting = [seat for seat in decider.to_act(outcome.state) if seat in played]
    return bool(waiting) and any(s.number == waiting[0] and s.bot for s in seats)


def _bot_move(table_id, expected_version: int, *, chained: bool) -> Outcome | None:
    """A bot's turn (``play_bot_turn``). ``chained``: right after another bot's turn in the same task,
    played only at a bot's own seat: the seat of a person who sat out is the table's bot's to play
    too, but its person may sit in at any moment, so that turn goes through the outbox as ever."""
    with transaction.atomic():
        seen = _running_at(table_id, expected_version)
        if seen is None or seen.version != expected_version:
            return None
        waiting = [seat for seat in seen.decider.to_act(seen.state) if seat in seen.bots]
        if not waiting:
            return None
        seat = waiting[0]
        if chained and not next(s for s in seen.seats if s.number == seat).bot:
            return None
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
