"""The only writers of the books (with ``ledger.batch``, built on the same steps). Each public
function is one database transaction.

``post`` is the single door: it checks balance, locks, refuses overdrafts, and makes a repeated
idempotency key return the transaction it already made.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection
from django.db import transaction as db_transaction

from games.engine.words import T
from ledger import keys, per_currency
from ledger.errors import (
    AlreadyReversed,
    BadAmount,
    DepositDecided,
    Forbidden,
    IdempotencyMismatch,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    SecondApproverNeeded,
    ServiceError,
    UnbalancedTransaction,
    UnknownAccount,
)
from ledger.models import Account, Posting, Transaction
from ledger.reconcile import Problem, Report, reconcile, register_checker
from ledger.rows import lock_clause, placeholders, select_rows
from ledger.units import MAX_MINOR, exponent, format_amount
from ledger.units import currency as currency_code

if TYPE_CHECKING:
    # The project's AUTH_USER_MODEL is Django's own User; django-stubs types the foreign keys with it.
    from django.contrib.auth.models import User

__all__ = [
    "PostingLine",
    "Problem",
    "Report",
    "account",
    "approve_deposit",
    "deposit",
    "post",
    "reconcile",
    "register_checker",
    "reject_deposit",
    "reverse",
    "wallet",
    "withdraw",
]

# (account or its key, unit, signed amount in minor units)
PostingLine = tuple[Account | str, str, int]
_Normal = tuple[tuple[str, str, int], ...]
# (account key, account object if given, unit, amount), as _checked returns them
_Lines = list[tuple[str, Account | None, str, int]]

MAX_CLIENT_KEY = 100
PENDING_DEPOSIT = "deposit_pending"


def account(*, key: str) -> Account:
    """The account ``key`` names, created from the key grammar (``ledger.keys``) if it is new.

    Race-safe: two callers creating the same account meet at the unique key; the loser's insert
    fails inside a savepoint and it reads the winner's row.
    """
    return _get_or_create(key)[0]


def wallet(*, user: User, currency: str) -> Account:
    """``user``'s wallet in ``currency`` (created empty on first use)."""
    return account(key=keys.wallet_key(user.pk, currency))


def post(
    *,
    key: str,
    postings: Sequence[PostingLine],
    kind: str,
    memo: str = "",
    reference: str = "",
    table_id: uuid.UUID | None = None,
    hand_no: int | None = None,
    created_by: User | None = None,
) -> Transaction:
    """Record one balanced transaction under idempotency ``key`` and return it.

    Refuses fewer than two postings, a zero or non-integer amount, a unit that does not match its
    account, and units that do not sum to zero (``UnbalancedTransaction``); refuses taking an account
    that may not go negative below zero (``InsufficientFunds``). The same key with the same kind and
    postings returns the transaction already recorded; with anything else, ``IdempotencyMismatch``.
    Safe to call inside a caller's ``transaction.atomic`` (an event and its postings commit together).
    """
    return _post(
        key=key,
        postings=postings,
        kind=kind,
        memo=memo,
        reference=reference,
        table_id=table_id,
        hand_no=hand_no,
        created_by=created_by,
    )


def reverse(*, transaction: Transaction, reason: str, by: User | None) -> Transaction:
    """Post the mirror image of ``transaction``, once; ``AlreadyReversed`` the second time.

    A correction is always a new transaction: the original stays as it was. It can be refused for
    ``InsufficientFunds`` when the money has moved on (a wallet spent what is being taken back).
    """
    if not reason.strip():
        raise InvalidRequest(T("Say why the transaction is reversed."))
    if transaction.reverses_id is not None:
        raise InvalidRequest(
            T(
                "Transaction {transaction} is itself a reversal; post a new transaction instead.",
                transaction=transaction.pk,
            ),
            transaction_id=transaction.pk,
        )
    already = AlreadyReversed(
        T("Transaction {transaction} has already been reversed.", transaction=transaction.pk),
        transaction_id=transaction.pk,
    )
    if Transaction.objects.filter(reverses=transaction).exists():
        raise already
    lines = [(p.account, p.unit, -p.amount) for p in transaction.postings.select_related("account").order_by("id")]
    return _post(
        key=f"reversal:{transaction.pk}",
        postings=lines,
        kind="reversal",
        memo=reason.strip()[:500],
        reference=f"transaction:{transaction.pk}",
        table_id=transaction.table_id,
        hand_no=transaction.hand_no,
        created_by=by,
        reverses=transaction,
        on_repeat=already,
    )


def deposit(
    *, user: User, currency: str, amount_minor: int, by: User, idempotency_key: str | None = None
) -> Transaction:
    """Staff record money that came in from outside: house cash -> ``user``'s wallet.

    ``idempotency_key`` is the client's key (e.g. the ``Idempotency-Key`` header), scoped to ``by``;
    without one, every call is a new deposit.
    """
    _staff_only(by, T("Only staff can record deposits."))
    if user.pk == by.pk:
        raise Forbidden(T("Staff cannot record a deposit into their own wallet; ask another member of staff."))
    unit = currency_code(currency)
    _positive(amount_minor, unit)
    if amount_minor > deposit_two_person_limit(unit):
        return _pending_deposit(user=user, unit=unit, amount_minor=amount_minor, by=by, idempotency_key=idempotency_key)
    return post(
        key=_client_key("deposit", by, idempotency_key),
        postings=[
            (keys.house_cash_key(unit), unit, -amount_minor),
            (keys.wallet_key(user.pk, unit), unit, amount_minor),
        ],
        kind="deposit",
        memo=f"Deposit of {format_amount(amount_minor, unit)} {unit} recorded by {by.get_username()}",
        reference=f"user:{user.pk}",
        created_by=by,
    )


def deposit_two_person_limit(currency: str) -> int:
    """Deposits above this many minor units of ``currency`` wait for a second member of staff
    (``DEPOSIT_TWO_PERSON_LIMIT``, set per currency)."""
    return per_currency.amount("DEPOSIT_TWO_PERSON_LIMIT", currency)


def _pending_deposit(*, user: User, unit: str, amount_minor: int, by: User, idempotency_key: str | None) -> Transaction:
    """House cash -> a pending account of its own; ``approve_deposit`` by another member of staff
    moves it on to the wallet. The id is derived from the idempotency key, so a retry finds the
    same pending deposit instead of opening a second one."""
    key = _client_key("deposit", by, idempotency_key)
    deposit_id = uuid.uuid5(uuid.NAMESPACE_URL, key)
    return post(
        key=key,
        postings=[
            (keys.house_cash_key(unit), unit, -amount_minor),
            (keys.pending_deposit_key(deposit_id, user.pk, unit), unit, amount_minor),
        ],
        kind=PENDING_DEPOSIT,
        memo=f"Deposit of {format_amount(amount_minor, unit)} {unit} recorded by {by.get_username()}, "
        "awaiting a second member of staff",
        reference=f"deposit:{deposit_id}",
        created_by=by,
    )


def approve_deposit(*, deposit_id: str, by: User) -> Transaction:
    """A second member of staff approves a pending deposit: its money moves to the wallet, once.
    Not the member who recorded it, nor the person it is for. The same member approving it again (a
    retry) answers the same transaction; anyone else deciding it again is refused
    (``DepositDecided``), as is approving a rejected one."""
    _staff_only(by, T("Only staff can approve deposits."))
    with db_transaction.atomic():
        line, user_id, settled = _deciding_deposit(deposit_id, by, APPROVED, reason="")
        if settled is not None:
            return settled
        memo = f"Deposit of {format_amount(line.amount, line.unit)} {line.unit} approved by {by.get_username()}"
        wallet = keys.wallet_key(user_id, line.unit)
        return _empty_pending(line, APPROVED, wallet, kind="deposit", memo=memo, reference=f"user:{user_id}", by=by)


def reject_deposit(*, deposit_id: str, by: User, reason: str) -> Transaction:
    """A second member of staff refuses a pending deposit: its money goes back to the house's cash,
    once, and the reason is the rejecting transaction's memo (transactions are never changed, so it
    stays on record). The same people are refused as for ``approve_deposit``; the same member
    rejecting it again for the same reason (a retry) answers the same transaction; any other second
    decision is refused (``DepositDecided``): of two staff rejecting it at once, the second learns
    that the first did, rather than seeing its reason dropped."""
    _staff_only(by, T("Only staff can reject deposits."))
    reason = (reason or "").strip()
    if not reason:
        raise InvalidRequest(T("Say why the deposit is rejected (a reason is required)."), field="reason")
    with db_transaction.atomic():
        line, _, settled = _deciding_deposit(deposit_id, by, REJECTED, reason=reason)
        if settled is not None:
            return settled
        cash = keys.house_cash_key(line.unit)
        return _empty_pending(
            line, REJECTED, cash, kind=REJECTED_DEPOSIT, memo=reason, reference=line.transaction.reference, by=by
        )


APPROVED, REJECTED = "approved", "rejected"
REJECTED_DEPOSIT = "deposit_rejected"


def deposit_settlement_key(pending_key: str, decision: str) -> str:
    """The idempotency key of the one transaction that empties a pending deposit's account."""
    return f"deposit:{pending_key.split(':')[1]}:{decision}"


def _empty_pending(
    line: Posting, decision: str, destination: str, *, kind: str, memo: str, reference: str, by: User
) -> Transaction:
    """Move a pending deposit's money to ``destination`` in the one transaction its decision may make."""
    return post(
        key=deposit_settlement_key(line.account.key, decision),
        postings=[(line.account.key, line.unit, -line.amount), (destination, line.unit, line.amount)],
        kind=kind,
        memo=memo,
        reference=reference,
        created_by=by,
    )


def _deciding_deposit(
    deposit_id: str, by: User, decision: str, *, reason: str
) -> tuple[Posting, int, Transaction | None]:
    """The pending deposit's incoming line (its account locked), the user it is for, and the
    transaction already made by this same decision of the same member with the same reason (a
    retry; ``None`` if it is undecided). Refuses an unknown deposit, a second person who is the
    first or the receiver, and any other decision once one is made."""
    missing = NotFound(T("There is no pending deposit {deposit}.", deposit=str(deposit_id)))
    try:
        wanted = uuid.UUID(str(deposit_id))
    except ValueError:
        raise missing from None
    opened = Transaction.objects.filter(kind=PENDING_DEPOSIT, reference=f"deposit:{wanted}").first()
    if opened is None:
        raise missing
    line = next(p for p in opened.postings.select_related("account", "transaction") if p.amount > 0)
    # The lock serialises deciders: of an approval and a rejection at once, the second sees the first.
    _lock_accounts([line.account.key])
    user_id = int(line.account.key.split(":")[2])
    if by.pk in (opened.created_by_id, user_id):
        raise SecondApproverNeeded(
            T(
                "A large deposit needs a second member of staff: neither the one who recorded it "
                "nor the person it is for can approve or reject it."
            ),
            deposit_id=str(wanted),
        )
    other = REJECTED if decision == APPROVED else APPROVED
    decided = {
        t.idempotency_key.rsplit(":", 1)[1]: t
        for t in Transaction.objects.filter(
            idempotency_key__in=[deposit_settlement_key(line.account.key, d) for d in (APPROVED, REJECTED)]
        )
    }
    if other in decided:
        done = (
            T("Deposit {deposit} was already approved; it cannot be rejected.", deposit=str(wanted))
            if other == APPROVED
            else T("Deposit {deposit} was already rejected; it cannot be approved.", deposit=str(wanted))
        )
        raise DepositDecided(done, deposit_id=str(wanted), deposit_state=other)
    made = decided.get(decision)
    if made is not None and (made.created_by_id != by.pk or (decision == REJECTED and made.memo != reason)):
        who = made.created_by.get_username() if made.created_by else "?"
        again = (
            T("Deposit {deposit} was already approved by {who}; it is decided once.", deposit=str(wanted), who=who)
            if decision == APPROVED
            else T("Deposit {deposit} was already rejected by {who}; it is decided once.", deposit=str(wanted), who=who)
        )
        raise DepositDecided(again, deposit_id=str(wanted), deposit_state=decision)
    return line, user_id, made


def withdraw(
    *, user: User, currency: str, amount_minor: int, by: User, idempotency_key: str | None = None
) -> Transaction:
    """Staff record money paid out to ``user`` outside the service: wallet -> house cash.
    ``InsufficientFunds`` if the wallet holds less, however many withdrawals race."""
    _staff_only(by, T("Only staff can record withdrawals."))
    unit = currency_code(currency)
    _positive(amount_minor, unit)
    return post(
        key=_client_key("withdrawal", by, idempotency_key),
        postings=[
            (keys.wallet_key(user.pk, unit), unit, -amount_minor),
            (keys.house_cash_key(unit), unit, amount_minor),
        ],
        kind="withdrawal",
        memo=f"Withdrawal of {format_amount(amount_minor, unit)} {unit} recorded by {by.get_username()}",
        reference=f"user:{user.pk}",
        created_by=by,
    )


def _post(
    *,
    key: str,
    postings: Sequence[PostingLine],
    kind: str,
    memo: str,
    reference: str,
    table_id: uuid.UUID | None,
    hand_no: int | None,
    created_by: User | None,
    reverses: Transaction | None = None,
    on_repeat: ServiceError | None = None,
) -> Transaction:
    if not key or len(key) > 200:
        raise InvalidRequest(T("An idempotency key of 1 to 200 characters is required."))
    if not kind or len(kind) > 32:
        raise InvalidRequest(T("A transaction kind of 1 to 32 characters is required."))
    lines = _checked(postings)
    normal: _Normal = tuple(sorted((account_key, unit, amount) for account_key, _, unit, amount in lines))

    # A retry is found under the locks below (and the unique key backs that up): no look before
    # them, which would cost every first post a query to spare a rare retry its locks.
    with db_transaction.atomic():
        by_key, locked = _locked_accounts(lines)

        # A retry, or a twin with the same key that committed while we waited for the locks.
        existing = _posted(key)
        if existing is not None:
            return _repeat(existing, kind, normal, on_repeat)
        _refuse_other_units(lines, by_key)
        deltas = _deltas(lines, by_key)
        _refuse_overdrafts(deltas, locked)

        try:
            txn = _insert(key, kind, memo, reference, table_id, hand_no, reverses, created_by)
        except IntegrityError:
            existing = Transaction.objects.filter(idempotency_key=key).first()
            if existing is None:
                raise
            return _repeat(existing, kind, normal, on_repeat)

        Posting.objects.bulk_create(
            Posting(transaction=txn, account=by_key[account_key], unit=unit, amount=amount)
            for account_key, _, unit, amount in lines
        )
        changed = {pk: delta for pk, delta in deltas.items() if delta}
        if changed:
            _move_balances(changed)
        return txn


def _insert(
    key: str,
    kind: str,
    memo: str,
    reference: str,
    table_id: uuid.UUID | None,
    hand_no: int | None,
    reverses: Transaction | None,
    created_by: User | None,
) -> Transaction:
    """The transaction's row, in a savepoint of its own so that a collision leaves the outer one usable."""
    # The unique key is the last guard: a twin whose accounts differ (so it never waited on
    # our locks) collides here, and its row is visible once its insert has settled.
    with db_transaction.atomic():
        return Transaction.objects.create(
            idempotency_key=key,
            kind=kind,
            memo=memo[:500],
            reference=reference[:200],
            table_id=table_id,
            hand_no=hand_no,
            reverses=reverses,
            created_by=created_by,
        )


def _locked_accounts(lines: _Lines) -> tuple[dict[str, Account], dict[int, Account]]:
    """Every account the lines touch, by key (made if new), and the same accounts locked, by id."""
    by_key = _lock_accounts(sorted({line[0] for line in lines}))
    return by_key, {acc.pk: acc for acc in by_key.values()}


def _lock_accounts(wanted: list[str]) -> dict[str, Account]:
    """The accounts of the keys ``wanted`` (sorted), locked, by key; those that are new are made.

    The ones that exist are read and locked in one statement, always in id order: two transactions
    moving money between the same accounts in opposite directions would otherwise each hold one lock
    and wait for the other (deadlock). Under the lock, the balance we check is the balance we
    update, so concurrent withdrawals cannot both spend the same money. New accounts are made after
    that, in key order (two posts inserting the same new keys in opposite orders would each wait on
    the other's uncommitted insert); a new row is this transaction's own until it commits. One that
    another transaction made meanwhile is locked once found."""
    by_key = {acc.key: acc for acc in _accounts("key", wanted, f" ORDER BY a.id{lock_clause()}")}
    raced = []
    for account_key in wanted:
        if account_key in by_key:
            continue
        made, created = _get_or_create(account_key)
        if created:
            by_key[account_key] = made
        else:
            raced.append(made.pk)
    if raced:
        by_key.update((acc.key, acc) for acc in _accounts("id", sorted(raced), f" ORDER BY a.id{lock_clause()}"))
    return by_key


def _get_or_create(key: str) -> tuple[Account, bool]:
    spec = keys.parse_key(key)
    return Account.objects.get_or_create(
        key=spec.key,
        defaults={
            "kind": spec.kind,
            "unit": spec.unit,
            "user_id": spec.user_id,
            "table_id": spec.table_id,
            "seat": spec.seat,
            "allow_negative": spec.allow_negative,
        },
    )


def _refuse_other_units(lines: _Lines, by_key: dict[str, Account]) -> None:
    """Refuse a line whose unit is not the unit its account holds."""
    for account_key, _, unit, _ in lines:
        if by_key[account_key].unit != unit:
            raise UnbalancedTransaction(
                T(
                    "Account {account} holds {held}, not {unit}.",
                    account=account_key,
                    held=by_key[account_key].unit,
                    unit=unit,
                )
            )


def _deltas(lines: _Lines, by_key: dict[str, Account]) -> dict[int, int]:
    """How much each account moves, by account id."""
    deltas: dict[int, int] = defaultdict(int)
    for account_key, _, _, amount in lines:
        deltas[by_key[account_key].pk] += amount
    return deltas


def _refuse_overdrafts(deltas: dict[int, int], locked: dict[int, Account]) -> None:
    """Refuse a move that takes a locked account below zero, unless it may go negative."""
    for pk, delta in deltas.items():
        acc = locked[pk]
        if not acc.allow_negative and acc.balance + delta < 0:
            raise InsufficientFunds(
                T(
                    "{account} holds {balance} {unit}; this needs {needed} {unit}.",
                    account=_name(acc),
                    balance=format_amount(acc.balance, acc.unit),
                    needed=format_amount(-delta, acc.unit),
                    unit=acc.unit,
                ),
                account=acc.key,
                unit=acc.unit,
                balance=format_amount(acc.balance, acc.unit),
                needed=format_amount(-delta, acc.unit),
            )


def _accounts(column: str, values: list[Any], tail: str) -> list[Account]:
    """The accounts whose ``column`` (``key`` or ``id``) is one of ``values``, then ``tail``."""
    quoted = connection.ops.quote_name(column)
    return select_rows(Account, f"a.{quoted} IN ({placeholders(len(values))}){tail}", list(values))


def _posted(key: str) -> Transaction | None:
    """The transaction recorded under idempotency ``key``, if any."""
    found = select_rows(Transaction, f"a.{connection.ops.quote_name('idempotency_key')} = %s", [key])
    return found[0] if found else None


def _move_balances(changed: dict[int, int]) -> None:
    """One statement for every touched account, each moved relative to its locked balance. Written
    out rather than built from F/Case/When, whose compiling cost more than the statement."""
    qn = connection.ops.quote_name
    pk, balance = qn(Account._meta.pk.column), qn(Account._meta.get_field("balance").column)
    cases = " ".join(["WHEN %s THEN %s"] * len(changed))
    listed = ", ".join(["%s"] * len(changed))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(Account._meta.db_table)} SET {balance} = {balance} + CASE {pk} {cases} END "
            f"WHERE {pk} IN ({listed})",
            [value for item in changed.items() for value in item] + list(changed),
        )


def _checked(postings: Sequence[PostingLine]) -> _Lines:
    """(account key, account object if given, unit, amount) per line, after the shape checks."""
    if len(postings) < 2:
        raise UnbalancedTransaction(T("A transaction needs at least two postings."))
    lines = []
    totals: dict[str, int] = defaultdict(int)
    for target, unit, amount in postings:
        if isinstance(target, Account):
            account_key, given = target.key, target
        elif isinstance(target, str):
            account_key, given = target, None
            keys.parse_key(target)
        else:
            raise UnknownAccount(T("{target} is neither an account nor an account key.", target=repr(target)))
        exponent(unit)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or abs(amount) > MAX_MINOR:
            raise BadAmount(
                T("Posting amounts are non-zero integers of minor units, not {amount}.", amount=repr(amount))
            )
        totals[unit] += amount
        lines.append((account_key, given, unit, amount))
    off = {unit: total for unit, total in totals.items() if total}
    if off:
        detail = [T("{unit} by {total}", unit=unit, total=format(total, "+d")) for unit, total in sorted(off.items())]
        raise UnbalancedTransaction(T("Postings must sum to zero in each unit; off in {units}.", units=detail), off=off)
    return lines


def _repeat(existing: Transaction, kind: str, normal: _Normal, on_repeat: ServiceError | None) -> Transaction:
    if on_repeat is not None:
        raise on_repeat
    recorded = tuple(sorted((p.account.key, p.unit, p.amount) for p in existing.postings.select_related("account")))
    if existing.kind != kind or recorded != normal:
        raise IdempotencyMismatch(
            T(
                "Idempotency key {key} was already used for a different transaction.",
                key=repr(existing.idempotency_key),
            ),
            transaction_id=existing.pk,
        )
    return existing


def _client_key(action: str, by: User, client_key: str | None) -> str:
    if client_key is None:
        return f"{action}:{uuid.uuid4()}"
    if not client_key or len(client_key) > MAX_CLIENT_KEY:
        raise InvalidRequest(T("An idempotency key has 1 to {most} characters.", most=MAX_CLIENT_KEY))
    return f"{action}:{by.pk}:{client_key}"


def _staff_only(by: User, refusal: str) -> None:
    if not getattr(by, "is_staff", False):
        raise Forbidden(refusal)


def _positive(amount_minor: int, unit: str) -> None:
    if isinstance(amount_minor, bool) or not isinstance(amount_minor, int) or not 0 < amount_minor <= MAX_MINOR:
        raise BadAmount(T("The amount must be more than 0 {unit}.", unit=unit))


def _name(acc: Account) -> str:
    if acc.kind == keys.Kind.WALLET:
        return T("The {unit} wallet", unit=acc.unit)
    return T("Account {account}", account=acc.key)
