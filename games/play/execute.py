"""The one write path: decide a command and the system commands it makes due, append the events,
post the ledger movements they imply and store the next deadline, all in the caller's transaction
on a locked table (``unit.Locked``), with the bot's turn and the deadline as outbox rows that are
published after the commit (``games.scheduling``).

Who may send what is checked before (``gate``, ``worker``); this module takes the command as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import notify, payouts, scheduling, settlement, store, telemetry
from games.engine import fairness
from games.engine.decider import Context
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.errors import Conflict, Illegal
from games.models import Table
from games.play.seeds import hand_seeds, recorded_with, stored_with
from games.play.unit import Locked

SYSTEM = "system"
MAX_CHAINED_SYSTEM_COMMANDS = 50


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command did: the table after it and the events it appended."""

    table: Table
    state: Any
    events: list[Any]
    seqs: list[int]
    rows: list[Any] = field(default_factory=list)
    # The commitment of the next hand to be dealt after this command, for the view that answers it.
    next_commitment: str | None = None


@dataclass(slots=True)
class _Decided:
    """What a command and the system commands it made due decided, before anything is written."""

    state: Any
    # The context of the last command decided; every chain decides at least one.
    ctx: Context | None = None
    events: list[Any] = field(default_factory=list)
    records: list[store.NewEvent] = field(default_factory=list)
    movements: list[list[Any]] = field(default_factory=list)


def execute(
    locked: Locked,
    command: dict[str, Any],
    *,
    expected_version: int,
    actor: str,
    offered: list[dict[str, Any]] | None = None,
    riders: Sequence[store.Rider] = (),
) -> Outcome:
    """Decide, append and settle one command (and the system commands it makes due) in the
    caller's transaction, on the table ``locked`` holds under its lock. ``offered``: what the
    caller is offered (``gate``), which a refusal lists instead of the game's own list (that is of
    the seat's moves alone: it knows neither the owner's commands nor that the bot plays a seat).
    ``riders``: the caller's own rows to write with the events (``store.Rider``)."""
    table = locked.table
    if table.version != expected_version:
        raise _stale(table, expected_version)
    decided = _decide_chain(locked, command, actor, offered)
    after = locked.moved(decided.state, locked.version + len(decided.records))
    rows = _append(locked, after, decided, started=command.get("type") == "start", riders=riders)
    # Counted once committed: a command rolled back (a refused chain, a lost race) never happened.
    game, appended = table.game, len(rows)
    transaction.on_commit(lambda: telemetry.count_command(game, actor, appended))
    assert decided.ctx is not None
    return Outcome(
        table=table,
        state=after.state,
        events=decided.events,
        seqs=[row.seq for row in rows],
        rows=rows,
        next_commitment=_upcoming(after, decided.ctx),
    )


def refuse_if_illegal(locked: Locked, command: dict[str, Any], offered: list[dict[str, Any]]) -> None:
    """Raise the game's own refusal of ``command`` (``Illegal``, listing ``offered``), if it has
    one: its judge's (``Decider.refusal``) where it has one; else ``decide``'s, the events a
    non-refused command would cause thrown away."""
    judge = locked.decider.refusal
    if judge is not None:
        refused = judge(locked.state, command.get("seat"), command, locked.extra())
        if refused is not None:
            raise _illegal(locked.table, refused, offered)
        return
    try:
        locked.decider.decide(locked.state, command, _context(locked, locked.state))
    except IllegalAction as exc:
        raise _illegal(locked.table, exc, offered) from None


def _stale(table: Table, expected_version: int) -> Conflict:
    return Conflict(
        T("Another move reached the table before yours; see the table as it is now and choose again."),
        current_version=table.version,
    )


def _illegal(table: Table, exc: IllegalAction, offered: list[dict[str, Any]] | None) -> Illegal:
    legal = exc.legal if offered is None else offered
    return Illegal(exc.message, code=exc.code, legal_actions=legal, current_version=table.version)


def _context(locked: Locked, state) -> Context:
    """The seeds of the next hand to be dealt and the commitment of the one after (CM-5, CM-6)."""
    table = locked.table
    next_hand = locked.decider.hand_no(state) + 1
    seeds = hand_seeds(table, next_hand, next_hand + 1, newest=locked.newest_seeds)
    seat_seeds = {s.number: s.client_seed for s in locked.seats}
    return Context(
        table_id=str(table.pk),
        now=timezone.now().timestamp(),
        hand_no=next_hand,
        server_seed=seeds[next_hand][0],
        client_seed=fairness.hand_client_seed([seat_seeds.get(n) for n in range(table.seats)]),
        next_commitment=seeds[next_hand + 1][1],
        extra=locked.extra(),
    )


def _decide_chain(
    locked: Locked, command: dict[str, Any], actor: str, offered: list[dict[str, Any]] | None
) -> _Decided:
    """Decide ``command``, then each system command the game makes due (``pending_system``), folding
    every event into the state; a refusal of any of them refuses the whole command."""
    decider = locked.decider
    decided = _Decided(state=locked.state)
    pending = [(command, actor)]
    for _ in range(MAX_CHAINED_SYSTEM_COMMANDS):
        if not pending:
            break
        current, who = pending.pop()
        decided.ctx = _context(locked, decided.state)
        try:
            events = decider.decide(decided.state, current, decided.ctx)
        except IllegalAction as exc:
            raise _illegal(locked.table, exc, offered) from None
        for event in events:
            decided.movements.append(decider.settlements(decided.state, event))
            decided.state = decider.evolve(decided.state, event)
            decided.records.append(store.NewEvent.of(event, actor=who, hand_no=decider.hand_no(decided.state)))
            decided.events.append(event)
        follow = decider.pending_system(decided.state)
        if follow is not None:
            pending.append((follow, SYSTEM))
    return decided


def _append(
    locked: Locked, after: Locked, decided: _Decided, *, started: bool, riders: Sequence[store.Rider] = ()
) -> list[Any]:
    """Write the events with the table's next row in one compare-and-set, with the command's tasks
    in the outbox and its notice riding along (``_riders``), post their movements and keep the new
    state for the next command."""
    table = locked.table
    try:
        # The next deadline and status ride along with the version's compare-and-set.
        changes, due = _next_row(after)
        riding = [*_riders(after, changes, due, started=started), *riders]
        made = stored_with(table, locked.newest_seeds, decided.records)
        seeds = recorded_with(table, decided.records)
        riding.extend(rider for rider in (made, seeds) if rider is not None)
        # Loads served from the cache never replay enough to write a snapshot themselves: without
        # this, a process starting cold would replay the table's whole history.
        if locked.version // settings.SNAPSHOT_EVERY != after.version // settings.SNAPSHOT_EVERY:
            riding.append(store.snapshot_with(table, after.version, after.state))
        rows = store.append(
            table=table, expected_version=locked.version, records=decided.records, also=changes, riders=riding
        )
    except IntegrityError:
        raise Conflict(
            T("Another move reached the table before yours; see the table as it is now and choose again."),
            current_version=table.version,
        ) from None
    settlement.post_movements(table, locked.seats, rows, decided.movements)
    payouts.open_for_departures(table, decided.movements)
    if table.status == Table.Status.FINISHED:
        payouts.open_for_finished_table(table)
    # The next command at this table, in this process, starts from here without reading these back.
    store.remember(table, locked.decider, table.version, after.state)
    return rows


def _upcoming(after: Locked, ctx: Context) -> str:
    """The commitment of the next hand to be dealt. The context held the seed of the hand that was
    next before the command; if the command dealt it, the next one is the hand after it, whose
    commitment the context also held."""
    dealt = after.decider.hand_no(after.state) >= ctx.hand_no
    return ctx.next_commitment if dealt else fairness.commitment(ctx.server_seed)


def _next_row(after: Locked) -> tuple[dict[str, Any], tuple[float, Any] | None]:
    """The table row's next deadline and status once the command's events are in (``after``), and
    the game's ``(seconds, timed command)`` deadline, if any."""
    decider, state = after.decider, after.state
    changes: dict[str, Any] = {"updated_at": timezone.now()}
    if decider.is_finished(state):
        changes["status"] = Table.Status.FINISHED
    finished = changes.get("status", after.table.status) == Table.Status.FINISHED
    # Written with the version, so beat's sweep sees which tables wait for a bot (games.outbox).
    changes["awaits_bot"] = not finished and bool(after.bots.intersection(decider.to_act(state)))
    due = None if finished else decider.deadline(state, after.table.config)
    if due is None:
        changes.update(deadline_at=None, deadline_version=None, deadline_command=None)
    else:
        seconds, timed = due
        changes.update(
            deadline_at=changes["updated_at"] + timedelta(seconds=seconds),
            deadline_version=after.version,
            deadline_command=timed,
        )
    return changes, due


def bot_pace(after: Locked) -> float | None:
    """The countdown of the bot's turn a command leaves due: none while a person plays at the
    table, so the bots answer them at once; ``BOT_PACE_SECONDS`` where nobody does (each person's
    seat sat out, left or played for by the table's bot, or no person seated), so that such a
    table's bots play at a paced rate rather than as fast as a worker can, each turn due that long
    after the move before. The worker never sleeps for it: the broker holds the task until it is
    due (``games.scheduling``), and a bot's turn due later is played by no chain
    (``worker.play_bot_turns``) and redriven by no sweep (``games.outbox.redrive_stalled_bots``)
    before its time."""
    decider, state = after.decider, after.state
    elsewhere = decider.played_by_bot(state) | decider.departed(state)
    if any(seat not in elsewhere for seat in after.people):
        return None
    return settings.BOT_PACE_SECONDS or None


def _riders(
    after: Locked, changes: dict[str, Any], due: tuple[float, Any] | None, *, started: bool
) -> list[store.Rider]:
    """What is written with the events (``store.Rider``): the bot's turn and the deadline in the
    outbox, published after the commit (the row already holds them), unless the table finishes;
    and the notice to the live streams (delivered at commit, games.notify): whose seat it now
    waits for and who sits there, for the people's own streams."""
    table = after.table
    status = changes.get("status", table.status)
    riders = []
    if status != Table.Status.FINISHED:
        tasks = [("games.tasks.play_bot", bot_pace(after))] if changes["awaits_bot"] else []
        if due is not None:
            tasks.append(("games.tasks.expire_deadline", due[0]))
        for task, countdown in tasks:
            row = scheduling.schedule_with(task, table.pk, after.version, countdown=countdown)
            if row is not None:
                riders.append(row)
    people = after.people
    running = status == Table.Status.RUNNING
    # A seat the table's bot plays (its player sat out or left, CM-20) is not the person's turn.
    away = after.decider.played_by_bot(after.state)
    to_act = [people[n] for n in after.decider.to_act(after.state) if n in people and n not in away] if running else []
    with notify.riding() as statements:
        notify.table_moved(
            table,
            to_act_users=to_act,
            seated_users=list(people.values()),
            started=started,
            version=after.version,
            status=status,
            deadline_at=changes["deadline_at"],
        )
    riders.extend(store.Rider(sql, params) for sql, params in statements)
    return riders
