"""The gate: what a caller may send to a running table now, and all they may send.

``games.offers.offered`` (the engine's ``offered_actions``, a purchase's range narrowed to the
wallet) makes the one list a table view offers; ``check`` accepts a command of a type it holds and
refuses every other, so what is offered is what is accepted (CM-20: a seat the bot plays is offered
only sitting in and leaving, a seat whose player left nothing; the owner also the owner's
commands). Every refusal lists the same offer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.engine import presence
from games.engine.words import T
from games.errors import Conflict, Forbidden, Illegal, InvalidRequest
from games.models import Table
from games.offers import offered as offered_to
from games.play.execute import refuse_if_illegal
from games.play.unit import Locked


def _status_word(status: str):
    """A table's status in words (the ``status`` field itself stays the code)."""
    return {"open": T("open"), "running": T("running"), "finished": T("finished")}.get(status, status)


def command_of(
    locked: Locked, user: AbstractBaseUser, action: Mapping[str, Any], expected_version: int
) -> tuple[int | None, dict[str, Any], list[dict[str, Any]]]:
    """Who sends ``action`` (the caller's seat, or ``None`` at no seat), the command for the
    Decider and what the caller is offered now; or the refusal. Only a running table takes
    actions."""
    table = locked.table
    if table.status != Table.Status.RUNNING:
        raise Conflict(
            T("The table is {status}, not running.", status=_status_word(table.status)),
            code="table_not_running",
            current_version=table.version,
        )
    seat = locked.seat_of(user)
    number = seat.number if seat else None
    owner = table.owner_id == user.pk
    owners_command = action.get("type") in locked.decider.owner_commands
    _refuse_sender(action, seat, owner=owner, owners_command=owners_command)
    if expected_version != table.version and not at_any_version(locked, action):
        # A stale version answers 409 whatever else is wrong with the action: the sender has to
        # reload first, and the action's fields are judged against the state they then see.
        raise Conflict(
            T("Another move reached the table before yours; see the table as it is now and choose again."),
            current_version=table.version,
        )
    if owners_command:
        command: dict[str, Any] = {"type": action["type"]}
    else:
        _check_action_fields(locked, action)
        command = {**action, "seat": number}
    offered = check(locked, number, command, owner=owner, owners_command=owners_command)
    return number, command, offered


def at_any_version(locked: Locked, action: Mapping[str, Any]) -> bool:
    """Whether ``action`` means the same at any version of the table: sitting out or in, leaving
    and the owner's commands. These are taken at the version the table is at when they arrive, so
    a person's "Sit in" never loses a race with the bots' moves, however fast those come; whether
    they are offered now is still judged (``check``). A seat's moves are chosen from the state shown
    and keep the compare-and-set."""
    kind = action.get("type")
    return kind in presence.COMMANDS or kind in locked.decider.owner_commands


def _refuse_sender(action: Mapping[str, Any], seat, *, owner: bool, owners_command: bool) -> None:
    """The owner's commands come from the owner; a seat's moves from that seat's player."""
    if owners_command:
        # Commands of the table's owner rather than of a seat (ending a Whiskey Poker match).
        if not owner:
            raise Forbidden(T("Only the table's owner can send '{action}'.", action=action["type"]))
        return
    if seat is None:
        raise Forbidden(T("You have no seat at this table."))
    if "seat" in action and action["seat"] != seat.number:
        raise Forbidden(T("You can act only for your own seat."))


def check(
    locked: Locked, seat: int | None, command: dict[str, Any], *, owner: bool, owners_command: bool
) -> list[dict[str, Any]]:
    """What the caller is offered (``games.offers.offered``, the very list their table view shows),
    if the command is of a type among it; else the refusal. A caller may send only what they are
    offered now: the system's commands (``timeout``, ``play_round``, ``start_hand``), a move
    of a seat the table's bot plays (CM-20) and any type not offered are refused. A game's
    ``decide`` accepts system commands from anyone, since the worker sends them through it; so
    this gate has to be here. For a type some seat may send (another seat's turn), for presence and
    the owner's commands and for anything the awaited seat sends (a bet without openers), the
    game's own refusal says more than ours, so it is asked first; what the game would accept is
    still refused here."""
    table, decider, state = locked.table, locked.decider, locked.state
    offered = offered_to(table, locked.seats, decider, state, seat, owner=owner)
    if any(option.get("type") == command["type"] for option in offered):
        return offered
    asks_presence = presence.is_presence_action(command)
    if seat is not None and not owners_command:
        _refuse_if_away(locked, seat, asks_presence, offered)
    others = {option.get("type") for number in range(table.seats) for option in decider.legal_actions(state, number)}
    # Sitting out, sitting in and leaving: the game says why not (a player who left cannot sit in, CM-20).
    if asks_presence or owners_command or command["type"] in others or seat in decider.to_act(state):
        refuse_if_illegal(locked, command, offered)
    kinds = sorted({str(option.get("type")) for option in offered})
    raise Illegal(
        T(
            "'{action}' is not an action of your seat now; you may send: {offered}.",
            action=command["type"],
            offered=kinds or T("nothing"),
        ),
        legal_actions=offered,
        current_version=table.version,
    )


def _refuse_if_away(locked: Locked, seat: int, asks_presence: bool, offered: list[dict[str, Any]]) -> None:
    """A player who left may send nothing more, and the bot plays the seat of one who sits out
    (CM-20): their own moves wait until they sit in. The refusal lists what they are offered."""
    table, decider, state = locked.table, locked.decider, locked.state
    if seat in decider.departed(state):
        raise Illegal(
            T("You have left this table."), code="seat_left", legal_actions=offered, current_version=table.version
        )
    if asks_presence or seat not in decider.played_by_bot(state):
        return
    raise Illegal(
        T("The table's bot plays your seat while you sit out; sit in to play your own turns."),
        code="sitting_out",
        legal_actions=offered,
        current_version=table.version,
    )


def _check_action_fields(locked: Locked, action: Mapping[str, Any]) -> None:
    """Refuse fields no legal action of any seat has, so a typo ("amout") is an error and not a
    silent default."""
    decider = locked.decider
    known = {"type", "seat", *decider.action_fields}
    for number in range(locked.table.seats):
        for legal in decider.legal_actions(locked.state, number):
            known.update(legal)
    unknown = sorted(set(action) - known)
    if unknown and len(known) > 2:
        raise InvalidRequest(
            T("Unknown field(s) in action: {unknown}. Known: {known}.", unknown=unknown, known=sorted(known)),
            field="action",
        )
