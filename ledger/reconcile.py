"""Proving the books: every transaction balances, every account's balance is the sum of its postings.

Other parts of the service add their own proofs (a table's chips against its replayed state) with
``register_checker``; ``reconcile`` runs them all and gathers what they find.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, F, Sum, Value
from django.db.models.functions import Coalesce

from ledger.models import Account, Posting, Transaction


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing that does not add up. ``subject`` names the row, e.g. ``transaction:12``."""

    code: str
    subject: str
    detail: str


@dataclass(frozen=True, slots=True)
class Report:
    transactions: int
    accounts: int
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        head = f"{self.transactions} transactions, {self.accounts} accounts checked: "
        head += "the books balance." if self.ok else f"{len(self.problems)} problem(s)."
        return [head, *(f"{p.code} {p.subject}: {p.detail}" for p in self.problems)]


Checker = Callable[[], Iterable[Problem]]
CHECKERS: list[Checker] = []


def register_checker(checker: Checker) -> Checker:
    """Add a proof that ``reconcile`` runs; usable as a decorator. Registering twice is harmless."""
    if checker not in CHECKERS:
        CHECKERS.append(checker)
    return checker


def reconcile() -> Report:
    """Run every checker and report what does not add up (an empty report proves the books)."""
    problems: list[Problem] = []
    for checker in CHECKERS:
        problems.extend(_run(checker))
    return Report(
        transactions=Transaction.objects.count(),
        accounts=Account.objects.count(),
        problems=tuple(problems),
    )


def _run(checker: Checker) -> list[Problem]:
    """What one checker finds; a checker that fails on bad data is itself a finding, and the
    others still run (its savepoint keeps PostgreSQL's transaction usable after a database error)."""
    found: list[Problem] = []
    try:
        with transaction.atomic():
            found.extend(checker())
    except Exception as error:  # any failure is reported, never a traceback
        name = getattr(checker, "__name__", repr(checker))
        found.append(Problem("check_failed", f"checker:{name}", f"{type(error).__name__}: {error}"))
    return found


@register_checker
def unbalanced_transactions() -> Iterable[Problem]:
    rows = (
        Posting.objects.values("transaction_id", "unit")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .order_by("transaction_id", "unit")
    )
    for row in rows:
        yield Problem(
            "unbalanced",
            f"transaction:{row['transaction_id']}",
            f"{row['unit']} postings sum to {row['total']:+d}, not 0",
        )


@register_checker
def lonely_transactions() -> Iterable[Problem]:
    rows = Transaction.objects.annotate(n=Count("postings")).filter(n__lt=2).values_list("pk", "n").order_by("pk")
    for pk, n in rows:
        yield Problem("too_few_postings", f"transaction:{pk}", f"{n} posting(s); a transaction needs at least two")


@register_checker
def unit_mismatches() -> Iterable[Problem]:
    rows = Posting.objects.exclude(unit=F("account__unit")).values_list("pk", "unit", "account__key").order_by("pk")
    for pk, unit, key in rows:
        yield Problem("unit_mismatch", f"posting:{pk}", f"posted in {unit} to {key}")


@register_checker
def balances_match_postings() -> Iterable[Problem]:
    rows = (
        Account.objects.annotate(total=Coalesce(Sum("postings__amount"), Value(0)))
        .exclude(balance=F("total"))
        .values_list("key", "balance", "total")
        .order_by("pk")
    )
    for key, balance, total in rows:
        yield Problem("balance_mismatch", f"account:{key}", f"balance says {balance}, postings sum to {total}")
    negative = (
        Account.objects.filter(allow_negative=False)
        .annotate(total=Coalesce(Sum("postings__amount"), Value(0)))
        .filter(total__lt=0)
        .values_list("key", "total")
        .order_by("pk")
    )
    for key, total in negative:
        yield Problem("overdrawn", f"account:{key}", f"postings sum to {total}, below zero")
