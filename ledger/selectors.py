"""Reads of the books."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Prefetch, QuerySet

from ledger.keys import Kind
from ledger.models import Account, Posting, Transaction
from ledger.units import format_amount

if TYPE_CHECKING:
    # The project's AUTH_USER_MODEL is Django's own User; django-stubs types the foreign keys with it.
    from django.contrib.auth.models import User


@dataclass(frozen=True, slots=True)
class Balance:
    currency: str
    minor: int

    @property
    def amount(self) -> str:
        return format_amount(self.minor, self.currency)


def balances(*, user: User) -> list[Balance]:
    """``user``'s wallets, one per currency they have ever held, by currency code."""
    rows = Account.objects.filter(user=user, kind=Kind.WALLET).order_by("unit").values_list("unit", "balance")
    return [Balance(unit, balance) for unit, balance in rows]


def balance_of(*, key: str) -> int:
    """The balance of the account ``key`` names, 0 if it was never used."""
    return Account.objects.filter(key=key).values_list("balance", flat=True).first() or 0


def balances_of(*, keys: list[str]) -> dict[str, int]:
    """The balances of the accounts ``keys`` name, in one query; 0 for an account never used."""
    found = dict(Account.objects.filter(key__in=keys).values_list("key", "balance"))
    return {key: found.get(key, 0) for key in keys}


def transactions_for(*, user: User) -> QuerySet[Transaction]:
    """Every transaction that touched one of ``user``'s accounts, newest first, postings attached."""
    touched = Posting.objects.filter(account__user=user).values("transaction_id")
    return (
        Transaction.objects.filter(pk__in=touched)
        .order_by("-created_at", "-pk")
        .prefetch_related(Prefetch("postings", queryset=Posting.objects.select_related("account").order_by("pk")))
    )
