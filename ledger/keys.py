"""Account keys: one string names each account, and the key alone says what the account is.

wallet:<user_id>:<CUR>             a user's money
table:<uuid>:escrow:<CUR>          money a table holds for its players
table:<uuid>:reserved:<user>:<CUR> a buy-in reserved at join, until the start or leaving
table:<uuid>:seat:<n>:CHIP         a seat's chips
table:<uuid>:pot:CHIP              chips in the pot
table:<uuid>:bank:CHIP             the table's chip issuer (goes negative as chips are bought)
house:cash:<CUR>                   money in and out of the service (goes negative with deposits)
house:bots:<CUR>                   the house's stake for bots (goes negative)
house:compensation:<CUR>           what the house paid players whose disputes were upheld (goes negative)
payout:<id>:<CUR>                  a payout awaiting review
deposit:<uuid>:<user_id>:<CUR>     a large deposit awaiting a second member of staff
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from games.engine.words import T
from ledger.errors import ServiceError, UnknownAccount
from ledger.units import CHIP, currency


class Kind:
    WALLET = "wallet"
    ESCROW = "escrow"
    SEAT = "seat"
    POT = "pot"
    BANK = "bank"
    HOUSE_CASH = "house_cash"
    HOUSE_BOTS = "house_bots"
    HOUSE_COMPENSATION = "compensation"
    PAYOUT = "payout"
    PENDING_DEPOSIT = "pending_deposit"
    RESERVED = "reserved"

    CHOICES = [
        (WALLET, "wallet"),
        (ESCROW, "table escrow"),
        (SEAT, "seat chips"),
        (POT, "pot chips"),
        (BANK, "chip bank"),
        (HOUSE_CASH, "house cash"),
        (HOUSE_BOTS, "house stake for bots"),
        (HOUSE_COMPENSATION, "house compensation for disputes"),
        (PAYOUT, "pending payout"),
        (PENDING_DEPOSIT, "deposit awaiting approval"),
        (RESERVED, "buy-in reserved"),
    ]


@dataclass(frozen=True, slots=True)
class AccountSpec:
    """What a key says about its account: the columns of a new ``Account`` row."""

    key: str
    kind: str
    unit: str
    user_id: int | None = None
    table_id: uuid.UUID | None = None
    seat: int | None = None
    allow_negative: bool = False
    payout_id: str | None = None  # what a payout key names; no column of its own


def wallet_key(user_id: int, unit: str) -> str:
    return f"wallet:{user_id}:{currency(unit)}"


def escrow_key(table_id: uuid.UUID | str, unit: str) -> str:
    return f"table:{uuid.UUID(str(table_id))}:escrow:{currency(unit)}"


def reserved_key(table_id: uuid.UUID | str, user_id: int, unit: str) -> str:
    return f"table:{uuid.UUID(str(table_id))}:reserved:{int(user_id)}:{currency(unit)}"


def seat_key(table_id: uuid.UUID | str, seat: int) -> str:
    return f"table:{uuid.UUID(str(table_id))}:seat:{int(seat)}:{CHIP}"


def pot_key(table_id: uuid.UUID | str) -> str:
    return f"table:{uuid.UUID(str(table_id))}:pot:{CHIP}"


def bank_key(table_id: uuid.UUID | str) -> str:
    return f"table:{uuid.UUID(str(table_id))}:bank:{CHIP}"


def house_cash_key(unit: str) -> str:
    return f"house:cash:{currency(unit)}"


def house_bots_key(unit: str) -> str:
    return f"house:bots:{currency(unit)}"


def house_compensation_key(unit: str) -> str:
    return f"house:compensation:{currency(unit)}"


def payout_key(payout_id: int | str, unit: str) -> str:
    return f"payout:{payout_id}:{currency(unit)}"


def pending_deposit_key(deposit_id: uuid.UUID | str, user_id: int, unit: str) -> str:
    return f"deposit:{uuid.UUID(str(deposit_id))}:{int(user_id)}:{currency(unit)}"


def parse_key(key: str) -> AccountSpec:
    """The account a key names; refuses a key outside the grammar above."""
    try:
        return _parse(key)
    except (ValueError, ServiceError):  # a malformed uuid or an unknown currency inside the key
        raise UnknownAccount(T("{key} is not a ledger account key.", key=repr(key)), key=key) from None


def _parse(key: str) -> AccountSpec:
    parts = key.split(":")
    match parts:
        case ["wallet", user_id, unit] if user_id.isdigit():
            return AccountSpec(key, Kind.WALLET, currency(unit), user_id=int(user_id))
        case ["table", table, "escrow", unit]:
            return AccountSpec(key, Kind.ESCROW, currency(unit), table_id=_uuid(table))
        case ["table", table, "reserved", user_id, unit] if user_id.isdigit():
            return AccountSpec(key, Kind.RESERVED, currency(unit), user_id=int(user_id), table_id=_uuid(table))
        case ["table", table, "seat", seat, "CHIP"] if seat.isdigit():
            return AccountSpec(key, Kind.SEAT, CHIP, table_id=_uuid(table), seat=int(seat))
        case ["table", table, "pot", "CHIP"]:
            return AccountSpec(key, Kind.POT, CHIP, table_id=_uuid(table))
        case ["table", table, "bank", "CHIP"]:
            return AccountSpec(key, Kind.BANK, CHIP, table_id=_uuid(table), allow_negative=True)
        case ["house", "cash", unit]:
            return AccountSpec(key, Kind.HOUSE_CASH, currency(unit), allow_negative=True)
        case ["house", "bots", unit]:
            return AccountSpec(key, Kind.HOUSE_BOTS, currency(unit), allow_negative=True)
        case ["house", "compensation", unit]:
            return AccountSpec(key, Kind.HOUSE_COMPENSATION, currency(unit), allow_negative=True)
        case ["deposit", deposit_id, user_id, unit] if user_id.isdigit():
            # Not the user's account (no user_id): it is not their money until approved.
            _uuid(deposit_id)
            return AccountSpec(key, Kind.PENDING_DEPOSIT, currency(unit))
        case ["payout", payout_id, unit] if payout_id:
            return AccountSpec(key, Kind.PAYOUT, currency(unit), payout_id=payout_id)
    raise UnknownAccount(T("{key} is not a ledger account key.", key=repr(key)), key=key)


def _uuid(text: str) -> uuid.UUID:
    value = uuid.UUID(text)
    if str(value) != text:  # one spelling per table, or two keys would name one account
        raise ValueError(text)
    return value
