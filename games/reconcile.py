"""The games' part of ``manage.py reconcile``: every table's ledger accounts hold exactly what its
replayed events imply, and, for games that count chips, what the replayed state says."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator, Iterator, Sequence
from typing import Any

from django.db.models import Q

from games import partitions, settlement, store
from games.engine import registry
from games.engine.decider import Decider, Movement
from games.models import Seat, Table
from ledger.models import Account, Posting
from ledger.payouts import KINDS as PAYOUT_KINDS
from ledger.reconcile import Problem


def table_problems(table: Table) -> Iterator[Problem]:
    """Replay ``table`` and compare each ledger account it touches with the sum of the movements
    its events imply; then compare seat and pot chips with the game's own count, if it keeps one."""
    decider = registry.get(table.game)
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
    replayed = yield from _replay(table, decider, seats)
    if replayed is None:
        return
    expected, state = replayed
    # Decided payouts moved money out of the pending accounts (to a wallet, or back to the escrow).
    decided = Posting.objects.filter(transaction__table_id=table.pk, transaction__kind__in=PAYOUT_KINDS)
    for key, amount in decided.values_list("account__key", "amount"):
        expected[key] += amount
    # Wallets and house accounts are shared with other tables; this table alone owns the rest.
    own = {key for key in expected if not key.startswith(("wallet:", "house:"))}
    actual = dict(Account.objects.filter(Q(table_id=table.pk) | Q(key__in=own)).values_list("key", "balance"))
    for key in sorted(set(actual) | own):
        if actual.get(key, 0) != expected.get(key, 0):
            yield Problem(
                "table_account_mismatch",
                f"table:{table.pk}",
                f"{key} holds {actual.get(key, 0)}, the events imply {expected.get(key, 0)}",
            )
    yield from _chip_problems(table, decider, state, actual, seats)


def _replay(
    table: Table, decider: Decider, seats: dict[int, Seat]
) -> Generator[Problem, None, tuple[dict[str, int], Any] | None]:
    """Replay ``table``'s events, summing by account key the movements each implies: the sums and
    the last state; or, at the first event that does not decode, settle or apply, that problem
    (yielded) and ``None``."""
    expected: dict[str, int] = defaultdict(int)
    state = decider.initial_state(table.config)
    try:
        for step in store.walk(table, decider):
            state = step.after
            for move in _settlements(decider, step.row.seq, step.row.type, step.before, step.event):
                if move.unit == "MONEY" and not table.currency:
                    continue
                unit = table.currency if move.unit == "MONEY" else settlement.CHIP
                expected[settlement.account_key(table, move.source, unit, seats)] -= move.amount
                expected[settlement.account_key(table, move.destination, unit, seats)] += move.amount
    except (store.ReplayFailed, _Unsettled) as failure:  # a row changed behind the store's back: name it
        yield Problem("event_unreadable", f"table:{table.pk}", _unreadable(decider, failure))
        return None
    return expected, state


class _Unsettled(Exception):
    """An event whose settlements the game cannot tell."""


def _settlements(decider: Decider, seq: int, type_name: str, before: Any, event: Any) -> Sequence[Movement]:
    try:
        return decider.settlements(before, event)
    except Exception as error:
        raise _Unsettled(
            f"event {seq} ({type_name}) does not decode or settle: {type(error).__name__}: {error}"
        ) from error


def _unreadable(decider: Decider, failure: store.ReplayFailed | _Unsettled) -> str:
    """What is wrong with the event the walk stopped at. Each event is settled before it applies,
    so one that does neither is named for its settlement."""
    text = str(failure)
    if isinstance(failure, store.ReplayFailed):
        what = "does not apply" if failure.applies else "does not decode or settle"
        text = f"event {failure.seq} ({failure.type_name}) {what}: {type(failure.error).__name__}: {failure.error}"
        if failure.applies:
            try:
                _settlements(decider, failure.seq, failure.type_name, failure.before, failure.event)
            except _Unsettled as unsettled:
                text = str(unsettled)
    return f"{text}; the table's accounts were not checked"


def _chip_problems(
    table: Table, decider: Decider, state: Any, actual: dict[str, int], seats: dict[int, Seat]
) -> Iterator[Problem]:
    """Seat and pot chips that differ from the game's own count of the replayed ``state``, if it
    keeps one."""
    counts = decider.chip_counts(state)
    if counts is not None:
        for name, chips in counts.items():
            key = settlement.account_key(table, name, settlement.CHIP, seats)
            if actual.get(key, 0) != chips:
                yield Problem(
                    "table_chips_mismatch",
                    f"table:{table.pk}",
                    f"{key} holds {actual.get(key, 0)} chips, the state says {chips}",
                )


def all_tables() -> Iterator[Problem]:
    """The reconcile checker: every table that has events. A table that cannot be checked is a
    finding of its own, and the other tables are still checked."""
    # A detached era's events are archived, out of the events table: its tables' accounts were
    # checked while it was attached, and their postings are still checked with the whole ledger.
    for table in partitions.with_history(Table.objects.exclude(version=0)).order_by("created_at", "id").iterator():
        if registry.slug_of(table.game) not in {game.slug for game in registry.all_games()}:
            yield Problem("unknown_game", f"table:{table.pk}", f"game {table.game!r} is not installed")
            continue
        try:
            # Materialised here so that a failure half-way is caught with the table it belongs to.
            found = list(table_problems(table))
        except Exception as error:
            found = [Problem("table_unreadable", f"table:{table.pk}", f"{type(error).__name__}: {error}")]
        yield from found
