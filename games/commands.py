"""The one write path: lock a table, decide a command and the system commands it makes due,
append the events, post the ledger movements they imply and store the next deadline, all in the
caller's transaction, with the bot's turn and the deadline as outbox rows that are published
after the commit (``games.scheduling``).

``games.services`` checks who may send what and calls :func:`execute`.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import notify, payouts, scheduling, settlement, store, telemetry
from games.engine import fairness, registry
from games.engine.codec import encode_event
from games.engine.decider import Context
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.errors import Conflict, Illegal, NotFound
from games.models import HandSeed, Table
from games.selectors import bot_seats, seat_rows, table_uuid
from ledger.rows import lock_clause, select_rows

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


def ensure_seeds(table: Table, *, upto: int) -> None:
    """Make and commit the seeds of every hand up to ``upto`` that has none yet."""
    have = set(HandSeed.objects.filter(table=table, hand_no__lte=upto).values_list("hand_no", flat=True))
    for hand_no in range(1, upto + 1):
        if hand_no not in have:
            seed = secrets.token_bytes(fairness.SEED_BYTES)
            HandSeed.objects.create(
                table=table, hand_no=hand_no, server_seed=seed, commitment=fairness.commitment(seed)
            )


def locked_table(table_id) -> Table:
    # The row lock serialises every writer of this table: two commands never decide on the same
    # version, and a seat cannot be taken twice.
    # The owner comes along for the response's view; only the table's row is locked.
    key = Table._meta.pk.get_db_prep_value(table_uuid(table_id), connection)
    found = select_rows(Table, f"a.id = %s{lock_clause()}", [key], related="owner")
    if not found:
        raise NotFound(T("There is no table {table}.", table=str(table_id)))
    return found[0]


# --- the one write path --------------------------------------------------------------------------


def _context(table: Table, decider, state) -> Context:
    """The seeds of the next hand to be dealt and the commitment of the one after (CM-5, CM-6)."""
    next_hand = decider.hand_no(state) + 1
    seeds = _hand_seeds(table, next_hand, next_hand + 1)
    seat_seeds = {s.number: s.client_seed for s in seat_rows(table)}
    return Context(
        table_id=str(table.pk),
        now=timezone.now().timestamp(),
        hand_no=next_hand,
        server_seed=seeds[next_hand][0],
        client_seed=fairness.hand_client_seed([seat_seeds.get(n) for n in range(table.seats)]),
        next_commitment=seeds[next_hand + 1][1],
        extra=settlement.context_extra(table),
    )


# A hand's server seed and commitment never change once made (only its client seed and reveal time
# are filled in later, and commands do not read those), so each process keeps the committed ones:
# most commands then need no seed query. Keyed by (table id, hand number).
_SEED_CACHE_SIZE = 4096
_seed_cache: dict[tuple[Any, int], tuple[bytes, str]] = {}
_seed_cache_lock = threading.Lock()


def forget_seeds() -> None:
    """Drop the process's remembered seeds (after a database is restored or recreated)."""
    with _seed_cache_lock:
        _seed_cache.clear()


def _hand_seeds(table: Table, *hands: int) -> dict[int, tuple[bytes, str]]:
    """``{hand_no: (server_seed, commitment)}`` of ``hands``, made if missing."""
    with _seed_cache_lock:
        seeds = {n: _seed_cache[(table.pk, n)] for n in hands if (table.pk, n) in _seed_cache}
    if len(seeds) == len(hands):
        return seeds
    # Every earlier hand got its seeds when it was next; only these can be missing.
    wanted = [n for n in hands if n not in seeds]
    read = HandSeed.objects.filter(table=table, hand_no__in=wanted).values_list("hand_no", "server_seed", "commitment")
    found = {n: (bytes(seed), commitment) for n, seed, commitment in read}
    if len(found) < len(wanted):
        ensure_seeds(table, upto=max(hands))
        found = {n: (bytes(seed), commitment) for n, seed, commitment in read.all()}
    seeds.update(found)

    def keep() -> None:
        # Only once committed: a rolled-back command's new seeds never existed.
        with _seed_cache_lock:
            if len(_seed_cache) + len(found) > _SEED_CACHE_SIZE:
                _seed_cache.clear()
            _seed_cache.update({(table.pk, n): seed for n, seed in found.items()})

    transaction.on_commit(keep)
    return seeds


@dataclass(slots=True)
class _Decided:
    """What a command and the system commands it made due decided, before anything is written."""

    state: Any
    # The context of the last command decided; every chain decides at least one.
    ctx: Context | None = None
    events: list[Any] = field(default_factory=list)
    records: list[store.NewEvent] = field(default_factory=list)
    movements: list[list[Any]] = field(default_factory=list)


def _decide_chain(table: Table, decider, state, command: dict[str, Any], actor: str) -> _Decided:
    """Decide ``command``, then each system command the game makes due (``pending_system``), folding
    every event into the state; a refusal of any of them refuses the whole command."""
    decided = _Decided(state=state)
    pending = [(command, actor)]
    for _ in range(MAX_CHAINED_SYSTEM_COMMANDS):
        if not pending:
            break
        current, who = pending.pop()
        decided.ctx = _context(table, decider, decided.state)
        try:
            events = decider.decide(decided.state, current, decided.ctx)
        except IllegalAction as exc:
            raise Illegal(exc.message, code=exc.code, legal_actions=exc.legal, current_version=table.version) from None
        for event in events:
            decided.movements.append(decider.settlements(decided.state, event))
            decided.state = decider.evolve(decided.state, event)
            type_name, data, secret = encode_event(event)
            decided.records.append(
                store.NewEvent(
                    type=type_name, data=data, secret=secret, actor=who, hand_no=decider.hand_no(decided.state)
                )
            )
            decided.events.append(event)
        follow = decider.pending_system(decided.state)
        if follow is not None:
            pending.append((follow, SYSTEM))
    return decided


def refuse_if_illegal(table: Table, decider, state, command: dict[str, Any]) -> None:
    """Raise the game's own refusal of ``command`` (``Illegal``), if it has one; the events a
    non-refused command would cause are thrown away."""
    try:
        decider.decide(state, command, _context(table, decider, state))
    except IllegalAction as exc:
        raise Illegal(exc.message, code=exc.code, legal_actions=exc.legal, current_version=table.version) from None


def execute(
    table: Table,
    command: dict[str, Any],
    *,
    expected_version: int,
    actor: str,
    loaded: tuple[Any, int] | None = None,
) -> Outcome:
    """Decide, append and settle one command (and the system commands it makes due) in the
    caller's transaction, with the table row already locked; ``loaded`` is the table's
    ``(state, version)`` if the caller has loaded it under that lock already."""
    if table.version != expected_version:
        raise Conflict(
            T(
                "The table is at version {version}, not {expected}; reload and try again.",
                version=table.version,
                expected=expected_version,
            ),
            current_version=table.version,
        )
    decider = registry.get(table.game)
    state, version = loaded if loaded is not None else store.load(table=table, decider=decider)
    decided = _decide_chain(table, decider, state, command, actor)
    state, records, movements, ctx = decided.state, decided.records, decided.movements, decided.ctx
    all_events = decided.events
    assert ctx is not None
    try:
        # The next deadline and status ride along with the version's compare-and-set.
        changes, due = _next_row(table, decider, state, version + len(records))
        rows = store.append(table=table, expected_version=version, records=records, also=changes)
    except IntegrityError:
        raise Conflict(
            T("Another action reached the table first; reload and try again."), current_version=table.version
        ) from None
    settlement.post_movements(table, rows, movements)
    payouts.open_for_departures(table, movements)
    _record_hands(table, rows)
    # The next command at this table, in this process, starts from here without reading these back.
    store.remember(table, decider, table.version, state)
    # Loads served from the cache never replay enough to write a snapshot themselves: without this,
    # a process starting cold would replay the table's whole history.
    if version // settings.SNAPSHOT_EVERY != table.version // settings.SNAPSHOT_EVERY:
        store.save_snapshot(table, table.version, state)
    _after(table, decider, state, due)
    _announce(table, decider, state, started=command.get("type") == "start")
    # Counted once committed: a command rolled back (a refused chain, a lost race) never happened.
    game, appended = table.game, len(records)
    transaction.on_commit(lambda: telemetry.count_command(game, actor, appended))
    # The context held the seed of the hand that was next before the command; if the command dealt
    # it, the next one is the hand after it, whose commitment the context also held.
    dealt = decider.hand_no(state) >= ctx.hand_no
    upcoming = ctx.next_commitment if dealt else fairness.commitment(ctx.server_seed)
    return Outcome(
        table=table,
        state=state,
        events=all_events,
        seqs=[row.seq for row in rows],
        rows=rows,
        next_commitment=upcoming,
    )


def _record_hands(table: Table, rows) -> None:
    """Remember each dealt hand's client seed, and mark a seed revealed when an event shows it."""
    for row in rows:
        if "client_seed" in row.data and "commitment" in row.data and row.hand_no:
            HandSeed.objects.filter(table=table, hand_no=row.hand_no).update(client_seed=row.data["client_seed"])
        if row.data.get("server_seed"):
            HandSeed.objects.filter(table=table, hand_no=row.hand_no, revealed_at__isnull=True).update(
                revealed_at=timezone.now()
            )


def _next_row(table: Table, decider, state, version: int) -> tuple[dict[str, Any], tuple[float, Any] | None]:
    """The table row's next deadline and status once the command's events are in (``version``),
    and the game's ``(seconds, timed command)`` deadline, if any."""
    changes: dict[str, Any] = {"updated_at": timezone.now()}
    if decider.is_finished(state):
        changes["status"] = Table.Status.FINISHED
    finished = changes.get("status", table.status) == Table.Status.FINISHED
    # Written with the version, so beat's sweep sees which tables wait for a bot (games.outbox).
    bots = bot_seats(table, decider, state)
    changes["awaits_bot"] = not finished and bool(bots.intersection(decider.to_act(state)))
    due = None if finished else decider.deadline(state, table.config)
    if due is None:
        changes.update(deadline_at=None, deadline_version=None, deadline_command=None)
    else:
        seconds, timed = due
        changes.update(
            deadline_at=changes["updated_at"] + timedelta(seconds=seconds),
            deadline_version=version,
            deadline_command=timed,
        )
    return changes, due


def _after(table: Table, decider, state, due: tuple[float, Any] | None) -> None:
    """Store the bot's turn and the deadline in the outbox, published after commit (the row already
    holds them), or open the payouts of a finished table."""
    if table.status == Table.Status.FINISHED:
        payouts.open_for_finished_table(table)
        return
    if table.awaits_bot:
        scheduling.schedule("games.tasks.play_bot", table.pk, table.version)
    if due is not None:
        scheduling.schedule("games.tasks.expire_deadline", table.pk, table.version, countdown=due[0])


def _announce(table: Table, decider, state, *, started: bool) -> None:
    """Tell the live streams the table moved (delivered at commit, games.notify): whose seat it
    now waits for and who sits there, for the people's own streams."""
    people = {s.number: s.user_id for s in seat_rows(table) if s.user_id is not None}
    running = table.status == Table.Status.RUNNING
    # A seat the table's bot plays (its player sat out or left, CM-20) is not the person's turn.
    away = decider.played_by_bot(state)
    to_act = [people[n] for n in decider.to_act(state) if n in people and n not in away] if running else []
    notify.table_moved(table, to_act_users=to_act, seated_users=list(people.values()), started=started)
