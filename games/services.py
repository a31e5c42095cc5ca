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
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import commands, gate, selectors, settlement, store, telemetry
from games.engine import fairness, presence, registry
from games.engine.errors import InvalidOptions
from games.engine.words import T, Text
from games.errors import (
    Conflict,
    Forbidden,
    IdempotencyMismatch,
    InvalidRequest,
    NotFound,
    ServiceError,
)
from games.models import CommandRecord, Seat, Table

# --- creating and seating ---------------------------------------------------------------------


def _decider(slug: str):
    try:
        return registry.get(slug)
    except KeyError:
        known = [d.slug for d in registry.all_games()]
        raise InvalidRequest(
            T("Unknown game '{game}'. Known games: {known}.", game=slug, known=known), field="game"
        ) from None


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
            T(
                "{game} takes {fewest} to {most} players, not {seats}.",
                game=decider.name,
                fewest=decider.min_players,
                most=decider.max_players,
                seats=seats,
            ),
            field="seats",
        )
    options = dict(options or {})
    money = settlement.parse_stake(stake, decider, options)
    reserved = sorted(set(options) & settlement.MONEY_KEYS)
    if reserved:
        raise InvalidRequest(T("Money goes in 'stake', not in options: {options}.", options=reserved), field="options")
    try:
        # A chip game checks its money terms with its other options (money only with pot scoring).
        config = decider.configure(seats, {**options, **money.as_options()} if money.chip_value else options)
    except InvalidOptions as exc:
        raise InvalidRequest(exc.args[0] if exc.args else str(exc), field="options") from None
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
        commands.ensure_seeds(table, upto=2)
    return table


def join_table(*, table_id, user: AbstractBaseUser, seat: int | None = None, chips: int | None = None) -> Seat:
    """Seat ``user`` at an open table, at ``seat`` or the first free one; at a game where people
    choose their buy-in, with ``chips`` (the most allowed when not given)."""
    with transaction.atomic():
        table = commands.locked_table(table_id)
        if table.status != Table.Status.OPEN:
            raise Conflict(
                T("This table has already started; you can no longer join."),
                code="table_not_open",
                current_version=table.version,
            )
        if Seat.objects.filter(table=table, user=user).exists():
            raise Conflict(
                T("You already have a seat at this table."), code="already_seated", current_version=table.version
            )
        number = _free_seat(table, seat)
        chips = settlement.chosen_chips(table, chips)
        settlement.reserve_buy_in(table, user, chips)
        return Seat.objects.create(table=table, number=number, user=user, chips=chips)


def _free_seat(table: Table, wanted: int | None) -> int:
    taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
    if wanted is not None:
        if not 0 <= wanted < table.seats:
            raise InvalidRequest(
                T("Seat must be between 0 and {last}, not {seat}.", last=table.seats - 1, seat=wanted), field="seat"
            )
        if wanted in taken:
            raise Conflict(T("Seat {seat} is taken.", seat=wanted), code="seat_taken", current_version=table.version)
        return wanted
    free = [n for n in range(table.seats) if n not in taken]
    if not free:
        raise Conflict(T("Every seat at this table is taken."), code="table_full", current_version=table.version)
    return free[0]


def add_bot(*, table_id, user: AbstractBaseUser, seat: int | None = None) -> Seat:
    """Seat a bot; only the table's owner may, and only before the start."""
    with transaction.atomic():
        table = commands.locked_table(table_id)
        if table.owner_id != user.pk:
            raise Forbidden(T("Only the table's owner can add bots."))
        if table.status != Table.Status.OPEN:
            raise Conflict(T("This table has already started."), code="table_not_open", current_version=table.version)
        number = _free_seat(table, seat)
        return Seat.objects.create(table=table, number=number, bot=table.game)


def leave_table(*, table_id, user: AbstractBaseUser) -> commands.Outcome | None:
    """Give up a seat: before the start the seat is freed; during a game that lets players leave,
    the game decides what leaving means (and the seat stays in the record)."""
    with transaction.atomic():
        table = commands.locked_table(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise Forbidden(T("You have no seat at this table."))
        if table.status == Table.Status.OPEN:
            settlement.release_buy_in(table, user.pk)
            seat.delete()
            return None
        if table.status == Table.Status.FINISHED:
            raise Conflict(T("This table has finished."), code="table_finished", current_version=table.version)
        # The same gate as an action's: leaving here is accepted exactly when ``leave`` is offered.
        decider = registry.get(table.game)
        loaded = store.load(table=table, decider=decider)
        command = {"type": "leave", "seat": seat.number}
        offered = gate.check(
            table, decider, loaded[0], seat.number, command, owner=table.owner_id == user.pk, owners_command=False
        )
        with gate.offering(offered):
            return commands.execute(
                table, command, expected_version=table.version, actor=f"user:{user.pk}", loaded=loaded
            )


def set_client_seed(*, table_id, user: AbstractBaseUser, client_seed: str) -> Seat:
    """Set the seat's client seed for the hands that start from now on (CM-6)."""
    if not fairness.valid_client_seed(client_seed):
        raise InvalidRequest(T("A client seed is 0 to 64 printable ASCII characters without '|'."), field="client_seed")
    with transaction.atomic():
        table = commands.locked_table(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise Forbidden(T("You have no seat at this table."))
        seat.client_seed = client_seed
        seat.save(update_fields=["client_seed"])
        return seat


def start_table(*, table_id, user: AbstractBaseUser) -> commands.Outcome:
    """Start a full table: buy in every seat and deal the first hand."""
    with transaction.atomic():
        table = commands.locked_table(table_id)
        if table.owner_id != user.pk:
            raise Forbidden(T("Only the table's owner can start it."))
        if table.status != Table.Status.OPEN:
            raise Conflict(T("This table has already started."), code="already_started", current_version=table.version)
        taken = Seat.objects.filter(table=table).count()
        if taken != table.seats:
            raise Conflict(
                T(
                    "The table has {taken} of {seats} seats taken; fill them (add bots) before starting.",
                    taken=taken,
                    seats=table.seats,
                ),
                code="table_not_full",
                current_version=table.version,
            )
        # Each reservation becomes the buy-in: released here, taken by the game's own buy-in in
        # the same transaction, so the money is never free in between and the start's events and
        # their postings are what they were before reservations.
        for person in Seat.objects.filter(table=table, user__isnull=False).values_list("user_id", flat=True):
            settlement.release_buy_in(table, person)
        table.status = Table.Status.RUNNING
        table.save(update_fields=["status", "updated_at"])
        return commands.execute(table, {"type": "start"}, expected_version=table.version, actor=f"user:{user.pk}")


def remove_seat(*, table_id, user: AbstractBaseUser, seat: int) -> Table:
    """The owner frees a seat before the start (a player who will not come, a bot), releasing
    the player's reservation."""
    with transaction.atomic():
        table = commands.locked_table(table_id)
        if table.owner_id != user.pk:
            raise Forbidden(T("Only the table's owner can remove a seat."))
        if table.status != Table.Status.OPEN:
            raise Conflict(
                T("This table has already started; seats can be removed only before the start."),
                code="table_not_open",
                current_version=table.version,
            )
        taken = Seat.objects.filter(table=table, number=seat).first()
        if taken is None:
            raise NotFound(T("Seat {seat} of this table is free.", seat=seat))
        if taken.user_id is not None:
            settlement.release_buy_in(table, taken.user_id)
        taken.delete()
        return table


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
) -> tuple[int, dict[str, Any], bool]:
    """A player's action at their seat. Returns ``(status, response, replayed)``: the new version,
    the caller's view of the events appended and of the table. With an idempotency key, the same
    key and body within ``IDEMPOTENCY_TTL_SECONDS`` return the first response (stored in the same
    transaction; ``replayed`` is then true) and a different body is refused."""
    with transaction.atomic():
        table = commands.locked_table(table_id)
        request_hash = _request_hash(
            {"action": dict(action), "expected_version": expected_version, "table": str(table.pk)}
        )
        if idempotency_key:
            replay = _replay(user, idempotency_key, request_hash)
            if replay is not None:
                return replay
        seat, command, loaded, offered = gate.command_of(table, user, action, expected_version)
        with gate.offering(offered):
            outcome = commands.execute(
                table, command, expected_version=expected_version, actor=f"user:{user.pk}", loaded=loaded
            )
        response = selectors.action_result(outcome, seat, viewer=user)
        if idempotency_key:
            _store_command_record(user, idempotency_key, table, request_hash, response)
        return 200, response, False


def once(
    *,
    user: AbstractBaseUser,
    key: str | None,
    request: Mapping[str, Any],
    run: Callable[[], tuple[int, dict[str, Any], Table | None]],
) -> tuple[int, dict[str, Any], bool]:
    """``run()`` (a command answering ``(status, response, table or None)``) at most once per
    idempotency key, as ``act`` does for actions: the same key and ``request`` within
    ``IDEMPOTENCY_TTL_SECONDS`` return the first answer (``replayed`` true) without running it
    again, another ``request`` under the key is refused. ``request`` names the operation too, so a
    key used for one kind of command is refused for another. The record is stored in the command's
    own transaction: a refused command leaves no record, a recorded answer is one that happened.

    Commands that lock no row of their own before the record is looked up (creating a table) or
    lock it only inside ``run`` (a payout decision) may race a twin request with the same key: the
    twin that loses meets the record's unique key, or the first decision, and gets the winner's
    answer replayed once it has committed."""
    if not key:
        status, response, _table = run()
        return status, response, False
    request_hash = _request_hash(request)
    with transaction.atomic():
        replay = _replay(user, key, request_hash)
        if replay is not None:
            return replay
        try:
            with transaction.atomic():
                status, response, table = run()
                stored = _store_command_record(user, key, table, request_hash, response, status_code=status)
        except ServiceError:
            replay = _replay(user, key, request_hash)
            if replay is not None:
                return replay
            raise
        return status, _with_words(response, stored), False


def _replay(user: AbstractBaseUser, key: str, request_hash: str) -> tuple[int, dict[str, Any], bool] | None:
    """The first answer under ``key``, if it is live and was for this same request."""
    previous = _live_command_record(user, key)
    if previous is None:
        return None
    if previous.request_hash != request_hash:
        raise IdempotencyMismatch(
            T("This Idempotency-Key was already used with a different request; use a new key for a new request.")
        )
    return previous.status_code, previous.response, True


def _with_words(answer: Any, stored: Any) -> Any:
    """The stored answer with the words of the first answer put back: the record keeps their English,
    and the answer given now is said in the reader's language. A replay (later, maybe to another
    reader) answers the stored English."""
    if isinstance(answer, Text) and stored == answer:
        return answer
    if isinstance(answer, dict) and isinstance(stored, dict):
        return {key: _with_words(answer.get(key), value) for key, value in stored.items()}
    if isinstance(answer, list | tuple) and isinstance(stored, list) and len(answer) == len(stored):
        return [_with_words(item, value) for item, value in zip(answer, stored)]
    return stored


def _store_command_record(
    user, key: str, table: Table | None, request_hash: str, response: dict[str, Any], *, status_code: int = 200
) -> dict[str, Any]:
    """Keep the answer under its key, and return it as it will be replayed. Each command locks only
    its own table, so the same key sent to two tables at once is not serialised by that lock: both
    miss the record, and the second insert meets the unique key. It is refused then, and its whole
    command with it."""
    stored = json.loads(json.dumps(response, default=str))
    try:
        with transaction.atomic():
            CommandRecord.objects.create(
                key=key,
                user=user,
                table=table,
                request_hash=request_hash,
                status_code=status_code,
                response=stored,
            )
    except IntegrityError:
        raise Conflict(
            T("This Idempotency-Key is being used by another request right now; use a new key for a new request."),
            code="idempotency_key_in_use",
        ) from None
    return stored


def _idempotency_cutoff() -> datetime:
    """Records made before this are past their TTL."""
    return timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_TTL_SECONDS)


def _live_command_record(user: AbstractBaseUser, key: str) -> CommandRecord | None:
    """The record of ``key`` if it is within its TTL. An expired one is deleted here so the key can
    be stored again; if the new command is refused, the transaction brings the old row back,
    still expired, for the purge to take."""
    previous = CommandRecord.objects.filter(user=user, key=key).first()
    if previous is not None and previous.created_at < _idempotency_cutoff():
        previous.delete()
        return None
    return previous


def purge_command_records(*, batch: int = 1000, max_batches: int = 100) -> int:
    """Delete the idempotency records past their TTL, ``batch`` rows per statement so no purge
    holds a long lock; at most ``max_batches`` per call, the next run takes the rest."""
    cutoff = _idempotency_cutoff()
    purged = 0
    for _ in range(max_batches):
        ids = list(CommandRecord.objects.filter(created_at__lt=cutoff).values_list("pk", flat=True)[:batch])
        if not ids:
            break
        purged += CommandRecord.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            break
    return purged


def run_system_command(
    *, table_id, command: Mapping[str, Any], expected_version: int, actor: str = commands.SYSTEM
) -> commands.Outcome | None:
    """A command from the worker (a bot's move, a timeout). ``None`` when the table has moved on
    since the task was scheduled: a late or repeated task does nothing."""
    with transaction.atomic():
        try:
            table = commands.locked_table(table_id)
        except NotFound:
            return None
        if table.version != expected_version or table.status != Table.Status.RUNNING:
            return None
        return commands.execute(table, dict(command), expected_version=expected_version, actor=actor)


def play_bot_turn(*, table_id, expected_version: int) -> commands.Outcome | None:
    """Let the first bot the game waits for choose from its own view and act."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.version != expected_version or table.status != Table.Status.RUNNING:
        return None
    decider = registry.get(table.game)
    state, version = store.load(table=table, decider=decider)
    if version != expected_version:
        return None
    bots = selectors.bot_seats(table, decider, state)
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
    # Sitting out, sitting in and leaving are the player's to choose, never the bot's (CM-20).
    legal = [action for action in decider.legal_actions(state, seat) if not presence.is_presence_action(action)]
    rng = random.Random(f"{table.pk}:{table.version}:{seat}")
    with telemetry.timing_bot(table.game):
        action = decider.bot(decider.view(state, seat), legal, rng)
    action = dict(action)
    action.pop("seat", None)
    return action


def expire_deadline(*, table_id, expected_version: int) -> commands.Outcome | None:
    """Run the timed command a table was waiting for, once: only while the table is still at the
    version the deadline belongs to and the deadline has passed."""
    with transaction.atomic():
        try:
            table = commands.locked_table(table_id)
        except NotFound:
            return None
        if (
            table.deadline_version != expected_version
            or table.version != expected_version
            or table.deadline_at is None
            or table.deadline_at > timezone.now()
        ):
            return None
        return commands.execute(
            table, dict(table.deadline_command), expected_version=expected_version, actor=commands.SYSTEM
        )


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


def table_state(table: Table, *, at: int | None = None):
    """The replayed state of a table (now, or at an earlier version)."""
    return store.load(table=table, decider=registry.get(table.game), at=at)
