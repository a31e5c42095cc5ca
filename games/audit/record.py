"""The audit JSON of a finished hand, each hand's result per seat, and the list of finished hands
for game recall (with the links to each hand's audit, verification and history)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.urls import reverse

from games import actors, settlement
from games.audit.checks import verify
from games.audit.hand import deck_of, finished_hand, last_hand_no, seat_names
from games.engine import registry
from games.engine.audit import PLAYER_NAMES
from games.models import Event, HandSeed, Seat, Table
from games.selectors import seat_words
from ledger import keys
from ledger import payouts as ledger_payouts
from ledger.models import Posting, Transaction
from ledger.records import table_payouts, transactions_json
from ledger.times import rfc3339
from ledger.units import format_amount

PerSeat = dict[int, dict[int, int]]


def event_json(row: Event, who: dict[str, Any]) -> dict[str, Any]:
    """One stored event with everything recorded, its secret part and hashes included. ``who`` is
    the actor as clients see it (``games.actors``); ``recorded_actor``, ``data`` and ``secret`` are
    the recorded values the hash covers, so money in ``data`` stays in minor units here."""
    return {
        "seq": row.seq,
        "type": row.type,
        "hand_no": row.hand_no,
        **who,
        "recorded_actor": row.actor,
        "created_at": rfc3339(row.created_at),
        "data": row.data,
        "secret": row.secret,
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }


def hand_audit(table: Table, hand_no: int) -> dict[str, Any]:
    """Everything about one finished hand, unredacted, with its verification."""
    hand = finished_hand(table, hand_no)
    deck = deck_of(hand)
    money_closed = table.status == Table.Status.FINISHED and hand_no == last_hand_no(table)
    decided = Transaction.objects.filter(table_id=table.pk, kind__in=ledger_payouts.KINDS)
    references = [f"event:{table.pk}:{row.seq}" for row in hand.rows]
    who = actors.describe(table, {row.actor for row in hand.rows})
    return {
        "table_id": str(table.pk),
        "hand_no": hand_no,
        "game": registry.slug_of(table.game),
        "deck_name": deck.name,
        "purpose": "deck",
        "commitment": hand.seed.commitment,
        "server_seed": hand.server_seed.hex(),
        "client_seed": hand.seed.client_seed,
        "revealed_at": rfc3339(hand.seed.revealed_at),
        "deck": deck.cards,
        "seats": seat_names(table),
        "events": [event_json(row, who[row.actor]) for row in hand.rows],
        "showdown": [] if hand.hooks is None else hand.hooks.showdown(named_config(table), hand.decoded),
        "result": hand_results(table, [hand_no])[hand_no],
        # The ledger transactions the hand's events caused, with their postings.
        "transactions": transactions_json(Transaction.objects.filter(reference__in=references)),
        # The table's payouts settle after its last hand: they and their decisions belong to it.
        "payouts": table_payouts(table.pk) if money_closed else [],
        "payout_transactions": transactions_json(decided) if money_closed else [],
        "verification": verify(hand, deck).as_json(),
    }


def named_config(table: Table) -> dict[str, Any]:
    """The table's config with each seat's player's name (``PLAYER_NAMES``), so the game's showdown
    names players: a username, or "bot (seat 2)" as the history names a bot."""
    return {**table.config, PLAYER_NAMES: seat_words(table)}


def finished_hand_numbers(table: Table) -> list[int]:
    """Numbers of the table's finished hands, newest first."""
    dealt = Event.objects.filter(table=table, era=table.era, hand_no__gt=0).values("hand_no")
    seeds = HandSeed.objects.filter(table=table, hand_no__in=dealt)
    if table.status != Table.Status.FINISHED:
        seeds = seeds.filter(revealed_at__isnull=False)
    return list(seeds.order_by("-hand_no").values_list("hand_no", flat=True))


def hand_results(table: Table, hand_numbers: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Per hand, per seat: chips won or lost (the seat's chip account, leaving out buying and cashing
    chips with the bank) and money (what the hand's events moved into the seat's pending payout,
    less what they took from its wallet), from the ledger postings of the hand's events. Bots share
    the house's bot bankroll, which the books do not split by seat: with more than one bot at the
    table, a bot's money is ``None`` rather than every bot's movements counted for each."""
    seats = {s.number: s for s in Seat.objects.filter(table=table).select_related("user")}
    chips, money = _moved_per_seat(table, hand_numbers, seats)
    shared = sum(seat.user_id is None for seat in seats.values()) > 1
    unknown = {number for number, seat in seats.items() if shared and seat.user_id is None}
    return {
        hand_no: [
            {
                "seat": number,
                "player": seat.user.get_username() if seat.user else None,
                "bot": seat.is_bot,
                "chips": chips[hand_no][number],
                "money": format_amount(money[hand_no][number], table.currency)
                if table.currency and number not in unknown
                else None,
                "money_minor": money[hand_no][number] if table.currency and number not in unknown else None,
            }
            for number, seat in sorted(seats.items())
        ]
        for hand_no in hand_numbers
    }


def _moved_per_seat(table: Table, hand_numbers: Sequence[int], seats: dict[int, Seat]) -> tuple[PerSeat, PerSeat]:
    """Chips and money each seat won or lost per hand, in minor units (see ``hand_results``)."""
    wallet_seat = {}
    if table.currency:
        # Bots play from the house's bot bankroll: their money moves there.
        for number, seat in seats.items():
            wallet = (
                keys.house_bots_key(table.currency)
                if seat.user_id is None
                else keys.wallet_key(seat.user_id, table.currency)
            )
            wallet_seat.setdefault(wallet, []).append(number)
    chips: PerSeat = defaultdict(lambda: defaultdict(int))
    money: PerSeat = defaultdict(lambda: defaultdict(int))
    rows = Posting.objects.filter(transaction__table_id=table.pk, transaction__hand_no__in=list(hand_numbers)).exclude(
        transaction__kind__in=ledger_payouts.KINDS
    )
    by_txn: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for txn_id, hand_no, key, amount in rows.values_list(
        "transaction_id", "transaction__hand_no", "account__key", "amount"
    ):
        by_txn[txn_id].append((hand_no, key, amount))
    bank = keys.bank_key(table.pk)
    for lines in by_txn.values():
        # Chips bought from or cashed with the bank are no win or loss.
        with_bank = any(key == bank for _, key, _ in lines)
        for hand_no, key, amount in lines:
            account = keys.parse_key(key)
            if account.kind == keys.Kind.SEAT and account.table_id == table.pk:
                if not with_bank:
                    chips[hand_no][account.seat] += amount
            elif (seat := _pending_seat(table, account)) is not None:
                money[hand_no][seat] += amount
            else:
                for number in wallet_seat.get(key, ()):
                    money[hand_no][number] += amount
    return chips, money


def _pending_seat(table: Table, account: keys.AccountSpec) -> int | None:
    """The seat whose prize the account holds, if it is one of this table's pending payouts."""
    if account.kind != keys.Kind.PAYOUT or account.payout_id is None:
        return None
    return settlement.pending_payout_seat(table.pk, account.payout_id)


def _outcomes(table: Table, hand_no: int) -> dict[int, str]:
    """Each shown seat's outcome (``wins``, ``pays``, …) by the game's ``showdown`` hook, if it has one."""
    try:
        hand = finished_hand(table, hand_no)
        if hand.hooks is None:
            return {}
        return {entry["seat"]: entry["outcome"] for entry in hand.hooks.showdown(table.config, hand.decoded)}
    except Exception:  # a damaged hand still gets its line in the list; its audit says what is wrong
        return {}


def hand_summaries(table: Table, hand_numbers: Sequence[int]) -> list[dict[str, Any]]:
    """One line per finished hand for the recall list: when, the result per seat (with the showdown's
    outcome where the game shows hands), and the links."""
    results = hand_results(table, hand_numbers)
    for hand_no in hand_numbers:
        outcomes = _outcomes(table, hand_no)
        for line in results[hand_no]:
            line["outcome"] = outcomes.get(line["seat"])
    seeds = dict(HandSeed.objects.filter(table=table, hand_no__in=hand_numbers).values_list("hand_no", "revealed_at"))
    return [
        {
            "hand_no": hand_no,
            "ended_at": rfc3339(seeds.get(hand_no)),
            "result": results[hand_no],
            "winners": _winners(results[hand_no]),
            "audit": reverse("hand-audit", args=[table.pk, hand_no]),
            "verify": reverse("hand-verify", args=[table.pk, hand_no]),
            "history": reverse("hand-history", args=[table.pk, hand_no]),
        }
        for hand_no in hand_numbers
    ]


def _winners(lines: list[dict[str, Any]]) -> list[int]:
    """Seats the showdown says won; without a showdown, seats that came out ahead."""
    if any(line["outcome"] for line in lines):
        return [line["seat"] for line in lines if line["outcome"] in ("wins", "splits")]
    return [line["seat"] for line in lines if line["chips"] > 0 or _positive(line["money"])]


def _positive(amount: str | None) -> bool:
    return bool(amount) and not amount.startswith("-") and amount.strip("0.") != ""
