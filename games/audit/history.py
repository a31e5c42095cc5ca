"""Readable records of finished play: a hand's history as plain text (one line per event, like the
hand histories poker players know), its PHH export where a game provides one, and the public state
of a table at any version."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games import actors, store
from games.audit.hand import Hand, finished_hand
from games.engine import registry
from games.engine.words import T
from games.errors import Forbidden, InvalidRequest, NotFound
from games.models import Event, Seat, Table
from games.selectors import player_names, seat_words
from games.words import name_seats, say
from ledger.units import money_shown


def actor_names(table: Table) -> dict[str, str]:
    """What each actor string of the table's events stands for, in words."""
    names: dict[str, str] = {"system": T("dealer")}
    seats = Seat.objects.filter(table=table).select_related("user")
    for seat in seats:
        if seat.user_id is not None:
            names[f"user:{seat.user_id}"] = seat.user.get_username()
        else:
            names[f"bot:{seat.number}"] = T("bot (seat {seat})", seat=seat.number)
    return names


def _actor(names: dict[str, str], actor: str) -> str:
    if actor in names:
        return names[actor]
    if actor.startswith("user:") and actor[5:].isdigit():
        user = get_user_model().objects.filter(pk=int(actor[5:])).first()
        if user is not None:
            return user.get_username()
    return actor


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + " ".join(_value(item) for item in value) + "]"
    return str(value)


def generic_line(row: Event, actor: str) -> str:
    """``Type by actor: field=value …`` with every field, secret ones included (the hand is over)."""
    fields = {**row.data, **row.secret}
    body = " ".join(f"{key}={_value(value)}" for key, value in fields.items())
    # The event's type and fields are its data, as recorded: only the frame is words.
    return (
        T("{event} by {actor}: {fields}", event=row.type, actor=actor, fields=body)
        if body
        else T("{event} by {actor}", event=row.type, actor=actor)
    )


def history_text(hand: Hand) -> str:
    """The plain-text history of a finished hand."""
    table = hand.table
    decider = hand.decider
    names = actor_names(table)
    lines: list[str] = [
        T("{game} - table {table} - hand {hand}", game=decider.name, table=str(table.pk), hand=hand.hand_no),
        T("Commitment: {commitment}", commitment=hand.seed.commitment),
        T("Server seed: {seed}", seed=hand.server_seed.hex()),
        T("Client seed: {seed}", seed=repr(hand.seed.client_seed)),
    ]
    seat_names = seat_words(table)
    for number, who in sorted(player_names(table).items()):
        lines.append(T("Seat {seat}: {player}", seat=number, player=who))
    lines.append("")
    for row, event in zip(hand.rows, hand.events):
        actor = _actor(names, row.actor)
        text = (
            hand.hooks.history_line(event, actor, seat_names, table.config)
            if hand.hooks is not None and event is not None
            else None
        )
        lines.append(T("#{seq} {line}", seq=row.seq, line=text or generic_line(row, actor)))
    # Said here, in the reader's language: the history is one text, its lines no longer Text.
    return "\n".join(str(say(line)) for line in lines) + "\n"


def hand_history(table: Table, hand_no: int) -> str:
    """The plain-text history of hand ``hand_no`` (404 if never dealt, 409 while in progress)."""
    return history_text(finished_hand(table, hand_no))


def hand_phh(table: Table, hand_no: int) -> str:
    """The hand in PHH, for games that provide it (poker games); 404 otherwise."""
    hand = finished_hand(table, hand_no)
    text = None if hand.hooks is None else hand.hooks.phh(table.config, hand.decoded, _players(table))
    if not text:
        # Said of the hand, not the game: Five-Card Draw exports its triple draw hands, not the others.
        raise NotFound(
            T("{game} has no PHH export for this hand; use history.txt.", game=hand.decider.name), code="no_phh"
        )
    return text


def _players(table: Table) -> list[str]:
    by_number = {s.number: s for s in Seat.objects.filter(table=table).select_related("user")}
    return [
        (by_number[n].user.get_username() if by_number[n].user else f"bot{n}") if n in by_number else f"seat{n}"
        for n in range(table.seats)
    ]


# --- replay -----------------------------------------------------------------------------------------


def replay_view(table: Table, user, version: int | None) -> dict[str, Any]:
    """The spectator's view of ``table`` just after event ``version`` (default: the last). Anyone may
    replay a finished table; staff any table. Hidden cards stay hidden either way: this is the view
    a spectator was served, never the state itself."""
    if table.status != Table.Status.FINISHED and not getattr(user, "is_staff", False):
        raise Forbidden(
            T("Only a finished table can be replayed (staff can replay any table)."), code="table_not_finished"
        )
    latest = table.version
    version = latest if version is None else version
    if not 0 <= version <= latest:
        raise InvalidRequest(
            T("The version must be between 0 and {latest}, not {version}.", latest=latest, version=version),
            field="version",
        )
    decider = registry.get(table.game)
    # The one step: the event at ``version``, and the state just after it.
    steps = list(store.walk(table, decider, after=version - 1, upto=version, snapshot=True)) if version else []
    step = steps[-1] if steps else None
    event = None
    if step is not None:
        event = {
            "seq": step.row.seq,
            "type": step.row.type,
            "hand_no": step.row.hand_no,
            **actors.describe(table, [step.row.actor])[step.row.actor],
            "data": money_shown(decider.view_event(step.event, None), table.currency or None),
        }
    return {
        "table_id": str(table.pk),
        "game": registry.slug_of(table.game),
        "status": table.status,
        "version": version,
        "latest_version": latest,
        "event": event,
        "state": money_shown(name_seats(decider.view(step.after, None), player_names(table)), table.currency or None)
        if step is not None
        else None,
    }
