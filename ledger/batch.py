"""Several transactions posted together, as ``services.post`` would post them one after the other:
the same rows, balances and refusals, in a few statements for all of them (a command's events and
their money, ``games.settlement.post_movements``)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction as db_transaction

from games.engine.words import T
from ledger.errors import InvalidRequest, ServiceError
from ledger.models import Account, Posting, Transaction
from ledger.services import (
    PostingLine,
    _checked,
    _deltas,
    _Lines,
    _lock_accounts,
    _move_balances,
    _refuse_other_units,
    _refuse_overdrafts,
    post,
)


@dataclass(frozen=True, slots=True)
class Entry:
    """One transaction of ``post_many``: ``post``'s arguments."""

    key: str
    postings: Sequence[PostingLine]
    kind: str
    memo: str = ""
    reference: str = ""
    table_id: uuid.UUID | None = None
    hand_no: int | None = None


def post_many(entries: Sequence[Entry]) -> None:
    """Record several balanced transactions, in order, as ``post`` would one after the other, in
    the caller's transaction (a command's events and their money commit together): the same rows,
    the same refusals, in a few statements for all of them: the accounts locked, the keys looked
    up, the transactions, their postings, the balances. A key already used is left to ``post``
    (all of them then go one by one)."""
    checked = _checked_entries(entries)
    if not entries:
        return
    with db_transaction.atomic(savepoint=False):
        by_key = _lock_accounts(sorted({line[0] for lines in checked for line in lines}))
        keys_used = [entry.key for entry in entries]
        if Transaction.objects.filter(idempotency_key__in=keys_used).exists() or len(set(keys_used)) < len(keys_used):
            _post_one_by_one(entries)
            return
        balances, changed = _balances_after(checked, by_key)
        _insert(entries, checked, by_key)
        moved = {pk: delta for pk, delta in changed.items() if delta}
        if moved:
            _move_balances(moved)
        for acc in by_key.values():
            acc.balance = balances[acc.pk]


def _checked_entries(entries: Sequence[Entry]) -> list[_Lines]:
    """Each entry's postings, checked; at the first refused one, what ``post`` one by one would
    have recorded before it is recorded, and the refusal raised."""
    checked: list[_Lines] = []
    for entry in entries:
        try:
            _entry_shape(entry)
            checked.append(_checked(entry.postings))
        except ServiceError:
            if checked:
                post_many(entries[: len(checked)])
            raise
    return checked


def _post_one_by_one(entries: Sequence[Entry]) -> None:
    for entry in entries:
        post(
            key=entry.key,
            postings=entry.postings,
            kind=entry.kind,
            memo=entry.memo,
            reference=entry.reference,
            table_id=entry.table_id,
            hand_no=entry.hand_no,
        )


def _balances_after(checked: Sequence[_Lines], by_key: dict[str, Account]) -> tuple[dict[int, int], dict[int, int]]:
    """Every locked account's balance after all the entries, and each one's change, refusing an
    entry in another unit than its account's or one that overdraws, as ``post`` would in turn."""
    by_id = {acc.pk: acc for acc in by_key.values()}
    balances = {pk: acc.balance for pk, acc in by_id.items()}
    changed: dict[int, int] = defaultdict(int)
    for lines in checked:
        _refuse_other_units(lines, by_key)
        deltas = _deltas(lines, by_key)
        _refuse_overdrafts(deltas, {pk: _at(by_id[pk], balances[pk]) for pk in deltas})
        for pk, delta in deltas.items():
            balances[pk] += delta
            changed[pk] += delta
    return balances, changed


def _insert(entries: Sequence[Entry], checked: Sequence[_Lines], by_key: dict[str, Account]) -> None:
    """The transactions in one INSERT, then their postings in another."""
    made = Transaction.objects.bulk_create(
        Transaction(
            idempotency_key=entry.key,
            kind=entry.kind,
            memo=entry.memo[:500],
            reference=entry.reference[:200],
            table_id=entry.table_id,
            hand_no=entry.hand_no,
        )
        for entry in entries
    )
    Posting.objects.bulk_create(
        Posting(transaction=txn, account=by_key[account_key], unit=unit, amount=amount)
        for txn, lines in zip(made, checked, strict=True)
        for account_key, _, unit, amount in lines
    )


def _entry_shape(entry: Entry) -> None:
    if not entry.key or len(entry.key) > 200:
        raise InvalidRequest(T("An idempotency key of 1 to 200 characters is required."))
    if not entry.kind or len(entry.kind) > 32:
        raise InvalidRequest(T("A transaction kind of 1 to 32 characters is required."))


def _at(acc: Account, balance: int) -> Account:
    """The locked account as it stands after the transactions before this one (for a refusal)."""
    return Account(
        pk=acc.pk, key=acc.key, kind=acc.kind, unit=acc.unit, allow_negative=acc.allow_negative, balance=balance
    )
