"""Between the games and the ledger: a table's money terms, and the ledger accounts that a game's
movements name (``("seat", 2)``, ``("pot",)``, ``("wallet", 0)``, …)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import registry
from games.engine.decider import Movement
from games.engine.words import T
from games.errors import InsufficientFunds, InvalidRequest, ServiceError
from games.models import Event, Seat, Table
from ledger import batch, keys, selectors, units
from ledger import services as ledger

CHIP = "CHIP"
MONEY_KEYS = frozenset({"chip_value", "currency", "stake", "amount"})


@dataclass(frozen=True, slots=True)
class Stake:
    currency: str = ""
    chip_value: int = 0
    stake: int = 0

    def as_config(self) -> dict[str, Any]:
        return {"currency": self.currency or None, "chip_value": self.chip_value, "stake": self.stake}

    def as_options(self) -> dict[str, Any]:
        """The terms of a chip game as its ``configure`` takes them."""
        return {"chip_value": self.chip_value, "currency": self.currency}


def parse_stake(body: Mapping[str, Any] | None, decider, options: Mapping[str, Any] | None = None) -> Stake:
    """The money terms of a new table: chip games take ``chip_value``, the others an ``amount``
    per player (a game may say which by its ``options``); both as decimal strings in ``currency``."""
    if not body:
        return Stake()
    if not isinstance(body, Mapping):
        raise InvalidRequest(
            T("'stake' must be an object like {example}.", example='{"currency": "MXN", "chip_value": "5.00"}'),
            field="stake",
        )
    kind = decider.money_of(options)
    wanted = "chip_value" if kind == "chips" else "amount"
    unknown = sorted(set(body) - {"currency", wanted})
    if unknown:
        raise InvalidRequest(
            T(
                "{game} takes a stake of 'currency' and '{wanted}'; unexpected: {unknown}.",
                game=decider.name,
                wanted=wanted,
                unknown=unknown,
            ),
            field="stake",
        )
    given = body.get(wanted, "")
    if not isinstance(given, str):
        # A JSON number would pass through a float on some client's way here; only text is exact.
        raise InvalidRequest(
            T(
                "'stake.{wanted}' must be a decimal string such as \"5.00\", not a JSON {kind}.",
                wanted=wanted,
                kind=_json_kind(given),
            ),
            field="stake",
        )
    try:
        currency = units.currency(str(body.get("currency", "")))
    except ServiceError as exc:
        raise InvalidRequest(T("'stake.currency': {problem}", problem=exc.detail), field="stake") from None
    try:
        amount = units.parse_amount(given, currency)
    except ServiceError as exc:
        raise InvalidRequest(
            T("'stake.{wanted}': {problem}", wanted=wanted, problem=exc.detail), field="stake"
        ) from None
    if amount <= 0:
        raise InvalidRequest(T("'{wanted}' must be more than zero.", wanted=wanted), field="stake")
    return Stake(currency=currency, chip_value=amount if kind == "chips" else 0, stake=amount if kind != "chips" else 0)


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {dict: "object", list: "array", type(None): "null"}.get(type(value), type(value).__name__)


def chosen_chips(table: Table, chips: Any) -> int | None:
    """The chips a person buys when they join, at a game where they choose (between the game's
    fewest and most; the most when not given); ``None`` at the other games, which refuse a choice."""
    span = registry.get(table.game).buy_in_range(table.config)
    if span is None:
        if chips is not None:
            raise InvalidRequest(
                T("At this table everyone gets the same chips; 'chips' cannot be chosen."), field="chips"
            )
        return None
    fewest, most = span
    if chips is None:
        return most
    if isinstance(chips, bool) or not isinstance(chips, int) or not fewest <= chips <= most:
        raise InvalidRequest(
            T(
                "'chips' must be a whole number from {fewest} to {most}, not {chips}.",
                fewest=fewest,
                most=most,
                chips=repr(chips),
            ),
            field="chips",
        )
    return chips


def buy_in(table: Table, chips: int | None = None) -> int:
    """What a seat pays at the start, in minor units: its chosen ``chips`` at ``chip_value``, what
    the game says, or its chips' worth plus the stake."""
    if chips is not None:
        return chips * table.chip_value
    decider = registry.get(table.game)
    own = decider.buy_in(table.config)
    if own is not None:
        return int(own)
    return table.chip_value * int(table.config.get("chips_per_player", 0)) + table.stake


def check_can_buy_in(table: Table, user, chips: int | None = None) -> None:
    """A person without the buy-in in their wallet cannot take a seat at a money table."""
    needed = buy_in(table, chips)
    if not needed:
        return
    have = selectors.balance_of(key=keys.wallet_key(user.pk, table.currency))
    if have < needed:
        raise InsufficientFunds(
            T(
                "This table needs {needed} {currency} to sit down; your wallet holds {balance}.",
                needed=units.format_amount(needed, table.currency),
                currency=table.currency,
                balance=units.format_amount(have, table.currency),
            ),
            needed=units.format_amount(needed, table.currency),
            balance=units.format_amount(have, table.currency),
        )


def reserve_buy_in(table: Table, user, chips: int | None = None) -> None:
    """Move the buy-in from ``user``'s wallet to their reservation at this table, at join: the
    money cannot be spent elsewhere while the seat waits for the start (checked first, so the
    refusal speaks of the table's price, in the joining person's own terms)."""
    check_can_buy_in(table, user, chips)
    needed = buy_in(table, chips)
    if not needed:
        return
    ledger.post(
        key=f"buy_in_reserved:{table.pk}:{user.pk}:{uuid.uuid4().hex}",
        postings=[
            (keys.wallet_key(user.pk, table.currency), table.currency, -needed),
            (keys.reserved_key(table.pk, user.pk, table.currency), table.currency, needed),
        ],
        kind="buy_in_reserved",
        memo=f"Buy-in reserved at table {table.pk}",
        reference=f"table:{table.pk}",
        table_id=table.pk,
    )


def release_buy_in(table: Table, user_id: int) -> None:
    """Give back what this person's reservation at this table holds (leaving or removed before
    the start, and at the start itself, where the game's own buy-in takes it at once, in the same
    transaction, so it is never free in between)."""
    if not table.currency:
        return
    key = keys.reserved_key(table.pk, user_id, table.currency)
    held = selectors.balance_of(key=key)
    if held <= 0:
        return
    ledger.post(
        key=f"buy_in_released:{table.pk}:{user_id}:{uuid.uuid4().hex}",
        postings=[(key, table.currency, -held), (keys.wallet_key(user_id, table.currency), table.currency, held)],
        kind="buy_in_released",
        memo=f"Buy-in reservation released at table {table.pk}",
        reference=f"table:{table.pk}",
        table_id=table.pk,
    )


def wallet_chips(table: Table, seats: Sequence[Seat]) -> dict[int, int]:
    """The chips each person's wallet pays for at this table's ``chip_value``, by seat, for a game's
    purchases during play (a cash top-up, FD-13); empty at a table without money. A bot's seat is
    not named: the house's bot bankroll always pays."""
    if not table.chip_value or not table.currency:
        return {}
    people = {seat.number: keys.wallet_key(seat.user_id, table.currency) for seat in seats if seat.user_id}
    held = selectors.balances_of(keys=list(people.values()))
    return {number: held[key] // table.chip_value for number, key in people.items()}


class Extra(Mapping[str, Any]):
    """``context_extra``'s facts, where those read from the wallets are read only when a rule first
    asks for them: most commands (a plain move, a bot's turn) never do, and so cost no read."""

    def __init__(self, known: dict[str, Any], later: dict[str, Callable[[], Any]]) -> None:
        self._known = known
        self._later = later

    def __getitem__(self, key: str) -> Any:
        if key not in self._known and key in self._later:
            self._known[key] = self._later.pop(key)()
        return self._known[key]

    def __iter__(self) -> Iterator[str]:
        return iter([*self._known, *self._later])

    def __len__(self) -> int:
        return len(self._known) + len(self._later)


def context_extra(table: Table, seats: Sequence[Seat]) -> Mapping[str, Any]:
    """Facts from outside the game that its rules depend on: the seats people hold (a table whose
    people have all left ends, CM-20), the chips each seat chose to buy (bots the most) and, once
    it runs, the chips each person's wallet pays for (a top-up, FD-13), and which seats can afford
    La Viuda (LV-8: offered only if the wallet holds twice the chip value; the bot
    bankroll always can). The wallets are read when a rule first asks (``Extra``)."""
    span = registry.get(table.game).buy_in_range(table.config)
    if span is not None:
        known: dict[str, Any] = {
            "buy_ins": {seat.number: seat.chips or span[1] for seat in seats},
            "people": [seat.number for seat in seats if seat.user_id],
        }
        if table.status == Table.Status.RUNNING and registry.get(table.game).chip_purchases:
            # What each wallet pays for, so the game refuses a top-up it cannot pay (FD-13).
            return Extra(known, {"wallet_chips": lambda: wallet_chips(table, seats)})
        return known
    persons = [seat.number for seat in seats if seat.user_id]
    if not table.chip_value:
        return {"people": persons}
    return Extra({"people": persons}, {"can_afford_widow": lambda: _can_afford_widow(table, seats)})


def _can_afford_widow(table: Table, seats: Sequence[Seat]) -> dict[int, bool]:
    price = 2 * table.chip_value
    people = {seat.number: keys.wallet_key(seat.user_id, table.currency) for seat in seats if seat.user_id}
    held = selectors.balances_of(keys=list(people.values()))
    return {seat.number: seat.user_id is None or held[people[seat.number]] >= price for seat in seats}


def pending_payout_id(table_id, seat: int) -> str:
    """The id of the pending payout account holding a seat's prize until it is reviewed."""
    return f"{table_id}.{seat}"


def account_key(table: Table, name: Sequence[Any], unit: str, seats: Mapping[int, Seat]) -> str:
    """The ledger account a game's account name stands for at this table. Bots buy in from, and
    win back into, the house's bot bankroll, so the books stay complete."""
    kind = name[0]
    if kind == "wallet":
        seat = seats[int(name[1])]
        return keys.house_bots_key(unit) if seat.user_id is None else keys.wallet_key(seat.user_id, unit)
    if kind == "escrow":
        return keys.escrow_key(table.pk, unit)
    if kind == "payout":
        return keys.payout_key(pending_payout_id(table.pk, int(name[1])), unit)
    if kind == "bank":
        return keys.bank_key(table.pk)
    if kind == "seat":
        return keys.seat_key(table.pk, int(name[1]))
    if kind == "pot":
        return keys.pot_key(table.pk)
    raise ValueError(f"unknown account name {name!r}")


def postings_of(table: Table, moves: Sequence[Movement], seats: Mapping[int, Seat]) -> list[tuple[str, str, int]]:
    """The ledger postings ``(account key, unit, amount)`` that a game's movements stand for at this
    table: each takes its amount from its source and gives it to its destination. Money moves only
    at a table with a currency; a zero movement posts nothing. Posting and the hand audit's ledger
    check both read movements through here."""
    postings = []
    for move in moves:
        if move.amount == 0 or (move.unit == "MONEY" and not table.currency):
            continue
        unit = table.currency if move.unit == "MONEY" else CHIP
        postings.append((account_key(table, move.source, unit, seats), unit, -move.amount))
        postings.append((account_key(table, move.destination, unit, seats), unit, move.amount))
    return postings


def pending_payout_seat(table_id: Any, payout_id: str) -> int | None:
    """The seat whose prize a pending payout id (``pending_payout_id``) of this table holds, else ``None``."""
    prefix = pending_payout_id(table_id, "")
    return int(payout_id[len(prefix) :]) if payout_id.startswith(prefix) else None


def post_movements(
    table: Table, seats: Sequence[Seat], rows: Sequence[Event], movements: Sequence[Sequence[Movement]]
) -> None:
    """Post each event's movements as one balanced ledger transaction keyed by the event, in the
    command's transaction, so an event and its money are written together or not at all; the
    command's transactions together (``ledger.batch.post_many``)."""
    by_number = {seat.number: seat for seat in seats}
    entries = []
    for row, moves in zip(rows, movements, strict=True):
        if not moves:
            continue
        postings = postings_of(table, moves, by_number)
        if not postings:
            continue
        entries.append(
            batch.Entry(
                key=f"event:{table.pk}:{row.seq}",
                postings=postings,
                kind=row.type,
                memo="; ".join(m.memo for m in moves if m.memo)[:200],
                reference=f"event:{table.pk}:{row.seq}",
                table_id=table.pk,
                hand_no=row.hand_no or None,
            )
        )
    batch.post_many(entries)
