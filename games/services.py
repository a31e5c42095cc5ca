"""Every write to a table goes through here: create, join, leave, add a bot, start, act, expire.

Each command runs in one database transaction that locks the table row, replays its state, asks
the game's Decider for the events, appends them, posts the ledger movements they imply and
stores the next deadline. Follow-up work (a bot's turn, a deadline) is scheduled only after the
transaction commits.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import payouts, scheduling, settlement, store
from games.engine import fairness, registry
from games.engine.codec import encode_event
from games.engine.decider import Context
from games.engine.errors import IllegalAction, InvalidOptions
from games.errors import Conflict, Forbidden, IdempotencyMismatch, Illegal, InvalidRequest, NotFound
from games.models import CommandRecord, HandSeed, Seat, Table
from games.selectors import seat_rows, table_uuid
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


# --- creating and seating ---------------------------------------------------------------------


def _decider(slug: str):
    try:
        return registry.get(slug)
    except KeyError:
        known = ", ".join(d.slug for d in registry.all_games()) or "none"
        raise InvalidRequest(f"Unknown game '{slug}'. Known games: {known}.", field="game") from None


def create_table(
    *,
    user: AbstractBaseUser,
    game: str,
    seats: int,
    options: Mapping[str, Any] | None = None,
    stake: Mapping[str, Any] | None = None,
) -> Table:
    """A new open table owned by ``user``, with its first two hands' seeds committed (CM-5)."""
    decider = _decider(game)
    if not decider.min_players <= seats <= decider.max_players:
        raise InvalidRequest(
            f"{decider.name} takes {decider.min_players} to {decider.max_players} players, not {seats}.", field="seats"
        )
    money = settlement.parse_stake(stake, decider)
    options = dict(options or {})
    reserved = sorted(set(options) & settlement.MONEY_KEYS)
    if reserved:
        raise InvalidRequest(f"Money goes in 'stake', not in options: {', '.join(reserved)}.", field="options")
    try:
        # A chip game checks its money terms with its other options (money only with pot scoring).
        config = decider.configure(seats, {**options, **money.as_options()} if money.chip_value else options)
    except InvalidOptions as exc:
        raise InvalidRequest(str(exc), field="options") from None
    config = {**config, **money.as_config()}
    with transaction.atomic():
        table = Table.objects.create(
            game=decider.slug,
            seats=seats,
            config=config,
            owner=user,
            currency=money.currency,
            chip_value=money.chip_value,
            stake=money.stake,
        )
        _ensure_seeds(table, upto=2)
    return table


def _ensure_seeds(table: Table, *, upto: int) -> None:
    """Make and commit the seeds of every hand up to ``upto`` that has none yet."""
    have = set(HandSeed.objects.filter(table=table, hand_no__lte=upto).values_list("hand_no", flat=True))
    for hand_no in range(1, upto + 1):
        if hand_no not in have:
            seed = secrets.token_bytes(fairness.SEED_BYTES)
            HandSeed.objects.create(
                table=table, hand_no=hand_no, server_seed=seed, commitment=fairness.commitment(seed)
            )


def _locked_table(table_id) -> Table:
    # The row lock serialises every writer of this table: two commands never decide on the same
    # version, and a seat cannot be taken twice.
    # The owner comes along for the response's view; only the table's row is locked.
    key = Table._meta.pk.get_db_prep_value(table_uuid(table_id), connection)
    found = select_rows(Table, f"a.id = %s{lock_clause()}", [key], related="owner")
    if not found:
        raise NotFound(f"There is no table {table_id}.")
    return found[0]


def join_table(*, table_id, user: AbstractBaseUser, seat: int | None = None) -> Seat:
    """Seat ``user`` at an open table, at ``seat`` or the first free one."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.OPEN:
            raise Conflict(
                "This table has already started; you can no longer join.",
                code="table_not_open",
                current_version=table.version,
            )
        if Seat.objects.filter(table=table, user=user).exists():
            raise Conflict(
                "You already have a seat at this table.", code="already_seated", current_version=table.version
            )
        number = _free_seat(table, seat)
        settlement.check_can_buy_in(table, user)
        return Seat.objects.create(table=table, number=number, user=user)


def _free_seat(table: Table, wanted: int | None) -> int:
    taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
    if wanted is not None:
        if not 0 <= wanted < table.seats:
            raise InvalidRequest(f"Seat must be between 0 and {table.seats - 1}, not {wanted}.", field="seat")
        if wanted in taken:
            raise Conflict(f"Seat {wanted} is taken.", code="seat_taken", current_version=table.version)
        return wanted
    free = [n for n in range(table.seats) if n not in taken]
    if not free:
        raise Conflict("Every seat at this table is taken.", code="table_full", current_version=table.version)
    return free[0]


def add_bot(*, table_id, user: AbstractBaseUser, seat: int | None = None) -> Seat:
    """Seat a bot; only the table's owner may, and only before the start."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.owner_id != user.pk:
            raise Forbidden("Only the table's owner can add bots.")
        if table.status != Table.Status.OPEN:
            raise Conflict("This table has already started.", code="table_not_open", current_version=table.version)
        number = _free_seat(table, seat)
        return Seat.objects.create(table=table, number=number, bot=table.game)


def leave_table(*, table_id, user: AbstractBaseUser) -> Outcome | None:
    """Give up a seat: before the start the seat is freed; during a game that lets players leave,
    the game decides what leaving means (and the seat stays in the record)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise Forbidden("You have no seat at this table.")
        if table.status == Table.Status.OPEN:
            seat.delete()
            return None
        if table.status == Table.Status.FINISHED:
            raise Conflict("This table has finished.", code="table_finished", current_version=table.version)
        return _execute(
            table, {"type": "leave", "seat": seat.number}, expected_version=table.version, actor=f"user:{user.pk}"
        )


def set_client_seed(*, table_id, user: AbstractBaseUser, client_seed: str) -> Seat:
    """Set the seat's client seed for the hands that start from now on (CM-6)."""
    if not fairness.valid_client_seed(client_seed):
        raise InvalidRequest("A client seed is 0 to 64 printable ASCII characters without '|'.", field="client_seed")
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise Forbidden("You have no seat at this table.")
        seat.client_seed = client_seed
        seat.save(update_fields=["client_seed"])
        return seat


def start_table(*, table_id, user: AbstractBaseUser) -> Outcome:
    """Start a full table: buy in every seat and deal the first hand."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.owner_id != user.pk:
            raise Forbidden("Only the table's owner can start it.")
        if table.status != Table.Status.OPEN:
            raise Conflict("This table has already started.", code="already_started", current_version=table.version)
        taken = Seat.objects.filter(table=table).count()
        if taken != table.seats:
            raise Conflict(
                f"The table has {taken} of {table.seats} seats taken; fill them (add bots) before starting.",
                code="table_not_full",
                current_version=table.version,
            )
        table.status = Table.Status.RUNNING
        table.save(update_fields=["status", "updated_at"])
        return _execute(table, {"type": "start"}, expected_version=table.version, actor=f"user:{user.pk}")


# --- acting -------------------------------------------------------------------------------------


def _request_hash(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(store.canonical_json(body).encode()).hexdigest()


def act(
    *,
    table_id,
    user: AbstractBaseUser,
    action: Mapping[str, Any],
    expected_version: int,
    idempotency_key: str | None = None,
    respond=None,
) -> tuple[int, dict[str, Any]]:
    """A player's action at their seat. Returns ``(status, response)``; with an idempotency key,
    the same key and body return the first response and a different body is refused.

    ``respond(outcome, seat)`` builds the response body (the API's serialiser), so that the
    stored first response is exactly what the client got.
    """
    body = {"action": dict(action), "expected_version": expected_version}
    with transaction.atomic():
        table = _locked_table(table_id)
        if idempotency_key:
            previous = CommandRecord.objects.filter(user=user, key=idempotency_key).first()
            if previous is not None:
                if previous.request_hash != _request_hash({**body, "table": str(table.pk)}):
                    raise IdempotencyMismatch(
                        "This Idempotency-Key was already used with a different request; use a new key for a new action."
                    )
                return previous.status_code, previous.response
        if table.status != Table.Status.RUNNING:
            raise Conflict(
                f"The table is {table.status}, not running.", code="table_not_running", current_version=table.version
            )
        seat = next((s for s in seat_rows(table) if s.user_id == user.pk), None)
        if action.get("type") in registry.get(table.game).owner_commands:
            # Commands of the table's owner rather than of a seat (ending a Whiskey Poker match).
            if table.owner_id != user.pk:
                raise Forbidden(f"Only the table's owner can send '{action['type']}'.")
            command = {"type": action["type"]}
            loaded = None
        else:
            if seat is None:
                raise Forbidden("You have no seat at this table.")
            if "seat" in action and action["seat"] != seat.number:
                raise Forbidden("You can act only for your own seat.")
            loaded = store.load(table=table, decider=registry.get(table.game))
            _check_action_fields(table, action, loaded[0])
            command = {**action, "seat": seat.number}
        outcome = _execute(table, command, expected_version=expected_version, actor=f"user:{user.pk}", loaded=loaded)
        number = seat.number if seat else None
        response = respond(outcome, number) if respond else {"version": outcome.table.version}
        if idempotency_key:
            CommandRecord.objects.create(
                key=idempotency_key,
                user=user,
                table=table,
                request_hash=_request_hash({**body, "table": str(table.pk)}),
                status_code=200,
                response=json.loads(json.dumps(response, default=str)),
            )
        return 200, response


def _check_action_fields(table: Table, action: Mapping[str, Any], state) -> None:
    """Refuse fields no legal action of any seat has, so a typo ("amout") is an error and not a
    silent default."""
    decider = registry.get(table.game)
    known = {"type", "seat"}
    for number in range(table.seats):
        for legal in decider.legal_actions(state, number):
            known.update(legal)
    unknown = sorted(set(action) - known)
    if unknown and len(known) > 2:
        raise InvalidRequest(
            f"Unknown field(s) in action: {', '.join(unknown)}. Known: {', '.join(sorted(known))}.", field="action"
        )


def run_system_command(
    *, table_id, command: Mapping[str, Any], expected_version: int, actor: str = SYSTEM
) -> Outcome | None:
    """A command from the worker (a bot's move, a timeout). ``None`` when the table has moved on
    since the task was scheduled: a late or repeated task does nothing."""
    with transaction.atomic():
        try:
            table = _locked_table(table_id)
        except NotFound:
            return None
        if table.version != expected_version or table.status != Table.Status.RUNNING:
            return None
        return _execute(table, dict(command), expected_version=expected_version, actor=actor)


def play_bot_turn(*, table_id, expected_version: int) -> Outcome | None:
    """Let the first bot the game waits for choose from its own view and act."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.version != expected_version or table.status != Table.Status.RUNNING:
        return None
    decider = registry.get(table.game)
    state, version = store.load(table=table, decider=decider)
    if version != expected_version:
        return None
    bots = set(Seat.objects.filter(table=table).exclude(bot="").values_list("number", flat=True))
    waiting = [seat for seat in decider.to_act(state) if seat in bots]
    if not waiting:
        return None
    seat = waiting[0]
    action = choose_for(table, decider, state, seat)
    return run_system_command(
        table_id=table_id, command={**action, "seat": seat}, expected_version=version, actor=f"bot:{seat}"
    )


def choose_for(table: Table, decider, state, seat: int) -> dict[str, Any]:
    """The bot's choice for ``seat``, from that seat's view only; the rng is derived from the table
    and version so a retried task chooses the same."""
    legal = decider.legal_actions(state, seat)
    rng = random.Random(f"{table.pk}:{table.version}:{seat}")
    action = decider.bot(decider.view(state, seat), legal, rng)
    action = dict(action)
    action.pop("seat", None)
    return action


def expire_deadline(*, table_id, expected_version: int) -> Outcome | None:
    """Run the timed command a table was waiting for, once: only while the table is still at the
    version the deadline belongs to and the deadline has passed."""
    with transaction.atomic():
        try:
            table = _locked_table(table_id)
        except NotFound:
            return None
        if (
            table.deadline_version != expected_version
            or table.version != expected_version
            or table.deadline_at is None
            or table.deadline_at > timezone.now()
        ):
            return None
        return _execute(table, dict(table.deadline_command), expected_version=expected_version, actor=SYSTEM)


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
        _ensure_seeds(table, upto=max(hands))
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


def _execute(
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
            f"The table is at version {table.version}, not {expected_version}; reload and try again.",
            current_version=table.version,
        )
    decider = registry.get(table.game)
    state, version = loaded if loaded is not None else store.load(table=table, decider=decider)
    all_events: list[Any] = []
    records: list[store.NewEvent] = []
    movements: list[list[Any]] = []
    commands = [(command, actor)]
    for _ in range(MAX_CHAINED_SYSTEM_COMMANDS):
        if not commands:
            break
        current, who = commands.pop()
        ctx = _context(table, decider, state)
        try:
            events = decider.decide(state, current, ctx)
        except IllegalAction as exc:
            raise Illegal(exc.message, legal_actions=exc.legal, current_version=table.version) from None
        for event in events:
            movements.append(decider.settlements(state, event))
            state = decider.evolve(state, event)
            type_name, data, secret = encode_event(event)
            records.append(
                store.NewEvent(type=type_name, data=data, secret=secret, actor=who, hand_no=decider.hand_no(state))
            )
            all_events.append(event)
        follow = decider.pending_system(state)
        if follow is not None:
            commands.append((follow, SYSTEM))
    try:
        # The next deadline and status ride along with the version's compare-and-set.
        changes, due = _next_row(table, decider, state, version + len(records))
        rows = store.append(table=table, expected_version=version, records=records, also=changes)
    except IntegrityError:
        raise Conflict(
            "Another action reached the table first; reload and try again.", current_version=table.version
        ) from None
    settlement.post_movements(table, rows, movements)
    _record_hands(table, rows)
    # The next command at this table, in this process, starts from here without reading these back.
    store.remember(table, decider, table.version, state)
    # Loads served from the cache never replay enough to write a snapshot themselves: without this,
    # a process starting cold would replay the table's whole history.
    if version // settings.SNAPSHOT_EVERY != table.version // settings.SNAPSHOT_EVERY:
        store.save_snapshot(table, table.version, state)
    _after(table, decider, state, due)
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
    """Schedule bots and the deadline after commit (the row already holds them), or open the
    payouts of a finished table."""
    if table.status == Table.Status.FINISHED:
        payouts.open_for_finished_table(table)
        return
    bots = {s.number for s in seat_rows(table) if s.bot}
    if bots.intersection(decider.to_act(state)):
        scheduling.schedule("games.tasks.play_bot", table.pk, table.version)
    if due is not None:
        scheduling.schedule("games.tasks.expire_deadline", table.pk, table.version, countdown=due[0])


def table_state(table: Table, *, at: int | None = None):
    """The replayed state of a table (now, or at an earlier version)."""
    return store.load(table=table, decider=registry.get(table.game), at=at)
