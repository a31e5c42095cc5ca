"""Opening a table and seating it, before the start: open, seat a person or a bot, free a seat,
a client seed, leave, start. Each takes the table's row lock first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import settlement
from games.engine import fairness, registry
from games.engine.errors import InvalidOptions
from games.engine.words import N, T
from games.errors import Conflict, Forbidden, InvalidRequest, NotFound
from games.models import Seat, Table
from games.play import gate, unit
from games.play.execute import Outcome, execute
from games.play.seeds import make_seeds


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
    config = {**_configured(decider, seats, options, money), **money.as_config()}
    with transaction.atomic():
        _refuse_past_the_cap(user)
        table = Table.objects.create(
            game=decider.slug,
            seats=seats,
            config=config,
            owner=user,
            currency=money.currency,
            chip_value=money.chip_value,
            stake=money.stake,
        )
        make_seeds(table, [1, 2])  # CM-5: the first hand's and the next one's, with the table
    return table


def _refuse_past_the_cap(user: AbstractBaseUser) -> None:
    """Refuse a table beyond the ``MAX_RUNNING_TABLES_PER_PERSON`` its owner may hold open or
    running at once (a finished one no longer counts), in the caller's transaction."""
    # The owner's row is locked so that two creations by one person are counted one after the
    # other: without it both could count one below the cap and both open a table. On SQLite the
    # transaction's write lock (taken at BEGIN) serialises them alike.
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    most = settings.MAX_RUNNING_TABLES_PER_PERSON
    running = Table.objects.filter(owner=user, status__in=(Table.Status.OPEN, Table.Status.RUNNING)).count()
    if running >= most:
        raise Conflict(
            N(
                "You already have {count} table open or running, the most one person may; "
                "finish or end one before opening another.",
                "You already have {count} tables open or running, the most one person may; "
                "finish or end one before opening another.",
                running,
            ),
            code="too_many_tables",
            limit=most,
        )


def _configured(decider, seats: int, options: dict[str, Any], money: settlement.Stake) -> dict[str, Any]:
    """The game's configuration of ``options``; money terms belong in the stake."""
    reserved = sorted(set(options) & settlement.MONEY_KEYS)
    if reserved:
        raise InvalidRequest(T("Money goes in 'stake', not in options: {options}.", options=reserved), field="options")
    try:
        # A chip game checks its money terms with its other options (money only with pot scoring).
        return decider.configure(seats, {**options, **money.as_options()} if money.chip_value else options)
    except InvalidOptions as exc:
        raise InvalidRequest(exc.args[0] if exc.args else str(exc), field="options") from None


def _refuse_unless_open(table: Table, message, code: str = "table_not_open") -> None:
    if table.status != Table.Status.OPEN:
        raise Conflict(message, code=code, current_version=table.version)


def _refuse_unless_owner(table: Table, user: AbstractBaseUser, message) -> None:
    if table.owner_id != user.pk:
        raise Forbidden(message)


def join_table(*, table_id, user: AbstractBaseUser, seat: int | None = None, chips: int | None = None) -> Seat:
    """Seat ``user`` at an open table, at ``seat`` or the first free one; at a game where people
    choose their buy-in, with ``chips`` (the most allowed when not given)."""
    with transaction.atomic():
        table = unit.lock(table_id)
        _refuse_unless_open(table, T("This table has already started; you can no longer join."))
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
        table = unit.lock(table_id)
        _refuse_unless_owner(table, user, T("Only the table's owner can add bots."))
        _refuse_unless_open(table, T("This table has already started."))
        number = _free_seat(table, seat)
        return Seat.objects.create(table=table, number=number, bot=table.game)


def remove_seat(*, table_id, user: AbstractBaseUser, seat: int) -> Table:
    """The owner frees a seat before the start (a player who will not come, a bot), releasing
    the player's reservation."""
    with transaction.atomic():
        table = unit.lock(table_id)
        _refuse_unless_owner(table, user, T("Only the table's owner can remove a seat."))
        _refuse_unless_open(table, T("This table has already started; seats can be removed only before the start."))
        taken = Seat.objects.filter(table=table, number=seat).first()
        if taken is None:
            raise NotFound(T("Seat {seat} of this table is free.", seat=seat))
        if taken.user_id is not None:
            settlement.release_buy_in(table, taken.user_id)
        taken.delete()
        return table


def leave_table(*, table_id, user: AbstractBaseUser) -> Outcome | None:
    """Give up a seat: before the start the seat is freed; during a game that lets players leave,
    the game decides what leaving means (and the seat stays in the record)."""
    with transaction.atomic():
        table = unit.lock(table_id)
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
        locked = unit.load(table)
        command = {"type": "leave", "seat": seat.number}
        offered = gate.check(locked, seat.number, command, owner=table.owner_id == user.pk, owners_command=False)
        return execute(locked, command, expected_version=table.version, actor=f"user:{user.pk}", offered=offered)


def set_client_seed(*, table_id, user: AbstractBaseUser, client_seed: str) -> Seat:
    """Set the seat's client seed for the hands that start from now on (CM-6); at a finished table
    none will, so it is refused (``table_finished``) rather than taken for nothing."""
    if not fairness.valid_client_seed(client_seed):
        raise InvalidRequest(T("A client seed is 0 to 64 printable ASCII characters without '|'."), field="client_seed")
    with transaction.atomic():
        table = unit.lock(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise Forbidden(T("You have no seat at this table."))
        if table.status == Table.Status.FINISHED:
            raise Conflict(T("This table has finished."), code="table_finished", current_version=table.version)
        seat.client_seed = client_seed
        seat.save(update_fields=["client_seed"])
        return seat


def start_table(*, table_id, user: AbstractBaseUser) -> Outcome:
    """Start a full table: buy in every seat and deal the first hand."""
    with transaction.atomic():
        table = unit.lock(table_id)
        _refuse_unless_owner(table, user, T("Only the table's owner can start it."))
        _refuse_unless_open(table, T("This table has already started."), code="already_started")
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
        return execute(unit.load(table), {"type": "start"}, expected_version=table.version, actor=f"user:{user.pk}")
