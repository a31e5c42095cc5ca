"""Reads for auditing finished hands: who may, the hand's audit JSON, and the list of finished hands.

A hand is finished when its server seed is revealed (``HandSeed.revealed_at``) or its table has
finished; until then nobody, staff included, gets its audit. Players who sat at the table, staff
and members of the ``auditors`` group may read a table's finished hands. Hand 1's audit also holds
the table's opening events (``hand_no`` 0)."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch

from games.engine import registry
from games.engine.cards import DECKS, named_deck
from games.engine.codec import decode_event
from games.engine.decider import event_types_by_name
from games.engine.fairness import shuffled
from games.errors import Conflict, Forbidden, NotFound
from games.models import Event, HandSeed, Seat, Table
from ledger import payouts as ledger_payouts
from ledger.models import FollowUp, Payout, PayoutDecision, Posting, Transaction
from ledger.units import format_amount

AUDITORS = "auditors"


def may_audit(user, table: Table) -> bool:
    """Staff, auditors, and whoever sat at the table."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.groups.filter(name=AUDITORS).exists():
        return True
    return Seat.objects.filter(table=table, user=user).exists()


def check_may_audit(user, table: Table) -> None:
    if not may_audit(user, table):
        raise Forbidden(
            "Only the players who sat at this table, staff and auditors can read its hands.", code="not_your_hand"
        )


@dataclasses.dataclass(frozen=True, slots=True)
class Hand:
    """One hand of a table as recorded: its seed row and its event rows, decoded too."""

    table: Table
    hand_no: int
    seed: HandSeed
    rows: list[Event]
    events: list[Any]  # None where a row does not decode

    @property
    def decoded(self) -> list[Any]:
        """The events that decode, for the game's hooks."""
        return [event for event in self.events if event is not None]

    @property
    def server_seed(self) -> bytes:
        return bytes(self.seed.server_seed)

    @property
    def decider(self):
        return registry.get(self.table.game)


def finished_hand(table: Table, hand_no: int) -> Hand:
    """The finished hand ``hand_no``: 404 if it was never dealt, 409 while it is in progress."""
    seed = HandSeed.objects.filter(table=table, hand_no=hand_no).first()
    # The table's opening events (buy-ins, the first-dealer draw from hand 1's stream, CM-19) come
    # before any hand: they belong to hand 1's audit.
    hands = [0, 1] if hand_no == 1 else [hand_no]
    rows = list(Event.objects.filter(table=table, hand_no__in=hands).order_by("seq")) if hand_no > 0 else []
    if not any(row.hand_no == hand_no for row in rows):
        rows = []
    if seed is None or not rows:
        raise NotFound(f"Table {table.pk} has no hand {hand_no}.", code="no_such_hand")
    # A finished table has no hand in progress, even one its last events never revealed (CM-10).
    if seed.revealed_at is None and table.status != Table.Status.FINISHED:
        raise Conflict(
            f"Hand {hand_no} is still in progress; its audit opens when the hand is over and its seed is revealed.",
            code="hand_in_progress",
        )
    types = event_types_by_name(registry.get(table.game))
    return Hand(table=table, hand_no=hand_no, seed=seed, rows=rows, events=[_decoded(types, row) for row in rows])


def _decoded(types: dict[str, type], row: Event) -> Any:
    # A row changed behind the store's back may no longer decode; verification names it.
    try:
        return decode_event(types, row.type, row.data, row.secret)
    except Exception:
        return None


def recorded_deck(hand: Hand) -> tuple[Event, list[str]] | None:
    """The fallback for a game without the deck hooks: the first event of the hand whose secret
    part holds the shuffled deck as ``deck`` (a list of card codes, top first), and that deck."""
    for row in hand.rows:
        deck = row.secret.get("deck")
        if isinstance(deck, list) and deck and all(isinstance(card, str) for card in deck):
            return row, deck
    return None


def deck_named_by_cards(cards: Sequence[str]) -> str | None:
    """The named deck (``games.engine.cards.DECKS``) holding exactly ``cards``."""
    wanted = sorted(cards)
    return next((name for name, pack in DECKS.items() if sorted(pack) == wanted), None)


def deck_of(hand: Hand) -> tuple[str | None, list[str]]:
    """The deck name the game says the hand shuffled (its ``audit_deck`` hook, else the deck a
    ``deck`` secret field holds), and the shuffle recomputed from the revealed seed (CM-7..CM-9),
    top card first; ``(None, [])`` when neither tells."""
    audit_deck = hand.decider.audit.audit_deck if hand.decider.audit else None
    if audit_deck:
        name = audit_deck(hand.table.config, hand.decoded)
    else:
        found = recorded_deck(hand)
        name = deck_named_by_cards(found[1]) if found else None
    if not name:
        return None, []
    cards = shuffled(
        named_deck(name), hand.server_seed, str(hand.table.pk), hand.hand_no, hand.seed.client_seed, "deck"
    )
    return name, cards


def event_json(row: Event) -> dict[str, Any]:
    return {
        "seq": row.seq,
        "type": row.type,
        "hand_no": row.hand_no,
        "actor": row.actor,
        "created_at": row.created_at.isoformat(),
        "data": row.data,
        "secret": row.secret,
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }


def _transactions(queryset) -> list[dict[str, Any]]:
    postings = Prefetch("postings", queryset=Posting.objects.select_related("account").order_by("pk"))
    return [
        {
            "id": txn.pk,
            "kind": txn.kind,
            "reference": txn.reference,
            "memo": txn.memo,
            "created_at": txn.created_at.isoformat(),
            "postings": [
                {
                    "account": p.account.key,
                    "unit": p.unit,
                    "amount": p.amount,
                    "display": format_amount(p.amount, p.unit),
                }
                for p in txn.postings.all()
            ],
        }
        for txn in queryset.prefetch_related(postings).order_by("pk")
    ]


def hand_transactions(hand: Hand) -> list[dict[str, Any]]:
    """The ledger transactions the hand's events caused, with their postings."""
    references = [f"event:{hand.table.pk}:{row.seq}" for row in hand.rows]
    return _transactions(Transaction.objects.filter(reference__in=references))


def table_payouts(table: Table) -> list[dict[str, Any]]:
    """The table's payouts with every decision (who, when, why) and the transaction that settled each."""
    decisions = Prefetch("decisions", queryset=PayoutDecision.objects.select_related("by").order_by("at", "pk"))
    rows = Payout.objects.filter(table_id=table.pk).select_related("user").prefetch_related(decisions)
    return sorted((payout_record(payout) for payout in rows), key=lambda item: item["seat"])


def payout_record(payout: Payout) -> dict[str, Any]:
    """One payout as the audit and the review show it: amount, status, and every decision."""
    return {
        "id": payout.pk,
        "seat": payout.seat,
        "player": payout.user.get_username() if payout.user else None,
        "currency": payout.currency,
        "amount": format_amount(payout.amount, payout.currency),
        "status": payout.status,
        "automatic": payout.automatic,
        "approvals_needed": payout.approvals_needed,
        "pending_account": payout.pending_key,
        "created_at": payout.created_at.isoformat(),
        "decided_at": payout.decided_at.isoformat() if payout.decided_at else None,
        "transaction_id": payout.transaction_id,
        "follow_up": _follow_up(payout),
        "decisions": [
            {
                "decision": d.decision,
                "by": d.by.get_username() if d.by else None,
                "automatic": d.by is None,
                "reason": d.reason,
                "at": d.at.isoformat(),
            }
            for d in payout.decisions.all()
        ],
    }


def _follow_up(payout: Payout) -> dict[str, Any] | None:
    follow_up = FollowUp.objects.filter(payout=payout).first()
    if follow_up is None:
        return None
    return {
        "reason": follow_up.reason,
        "at": follow_up.created_at.isoformat(),
        "resolved": follow_up.resolved_at is not None,
    }


def last_hand_no(table: Table) -> int:
    return Event.objects.filter(table=table).order_by("-seq").values_list("hand_no", flat=True).first() or 0


def hand_audit(table: Table, hand_no: int) -> dict[str, Any]:
    """Everything about one finished hand, unredacted, with its verification."""
    from games import verify  # verify reads this module's Hand

    hand = finished_hand(table, hand_no)
    deck_name, deck = deck_of(hand)
    showdown = hand.decider.audit.showdown if hand.decider.audit else None
    money_closed = table.status == Table.Status.FINISHED and hand_no == last_hand_no(table)
    decided = Transaction.objects.filter(table_id=table.pk, kind__in=ledger_payouts.KINDS)
    return {
        "table_id": str(table.pk),
        "hand_no": hand_no,
        "game": table.game,
        "deck_name": deck_name,
        "purpose": "deck",
        "commitment": hand.seed.commitment,
        "server_seed": hand.server_seed.hex(),
        "client_seed": hand.seed.client_seed,
        "revealed_at": hand.seed.revealed_at.isoformat() if hand.seed.revealed_at else None,
        "deck": deck,
        "seats": seat_names(table),
        "events": [event_json(row) for row in hand.rows],
        "showdown": showdown(table.config, hand.decoded) if showdown else [],
        "result": hand_results(table, [hand_no])[hand_no],
        "transactions": hand_transactions(hand),
        # The table's payouts settle after its last hand: they and their decisions belong to it.
        "payouts": table_payouts(table) if money_closed else [],
        "payout_transactions": _transactions(decided) if money_closed else [],
        "verification": verify.verify(hand).as_json(),
    }


def seat_names(table: Table) -> list[dict[str, Any]]:
    return [
        {"seat": seat.number, "player": seat.user.get_username() if seat.user else None, "bot": seat.is_bot}
        for seat in Seat.objects.filter(table=table).select_related("user").order_by("number")
    ]


# --- game recall ----------------------------------------------------------------------------------


def finished_hand_numbers(table: Table) -> list[int]:
    """Numbers of the table's finished hands, newest first."""
    dealt = Event.objects.filter(table=table, hand_no__gt=0).values("hand_no")
    seeds = HandSeed.objects.filter(table=table, hand_no__in=dealt)
    if table.status != Table.Status.FINISHED:
        seeds = seeds.filter(revealed_at__isnull=False)
    return list(seeds.order_by("-hand_no").values_list("hand_no", flat=True))


def hand_results(table: Table, hand_numbers: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Per hand, per seat: chips won or lost (the seat's chip account, leaving out buying and cashing
    chips with the bank) and money (what the hand's events moved into the seat's pending payout,
    less what they took from its wallet), from the ledger postings of the hand's events."""
    seats = {s.number: s for s in Seat.objects.filter(table=table).select_related("user")}
    wallet_of = {}
    for number, seat in seats.items():
        if table.currency:
            from ledger import keys

            wallet_of[number] = (
                keys.house_bots_key(table.currency)
                if seat.user_id is None
                else keys.wallet_key(seat.user_id, table.currency)
            )
    prefix = f"table:{table.pk}:"
    chips: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    money: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    rows = Posting.objects.filter(transaction__table_id=table.pk, transaction__hand_no__in=list(hand_numbers)).exclude(
        transaction__kind__in=ledger_payouts.KINDS
    )
    by_txn: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for txn_id, hand_no, key, amount in rows.values_list(
        "transaction_id", "transaction__hand_no", "account__key", "amount"
    ):
        by_txn[txn_id].append((hand_no, key, amount))
    bank = f"{prefix}bank:CHIP"
    for lines in by_txn.values():
        with_bank = any(key == bank for _, key, _ in lines)
        for hand_no, key, amount in lines:
            if key.startswith(f"{prefix}seat:") and not with_bank:
                chips[hand_no][int(key.split(":")[3])] += amount
            elif key.startswith(f"payout:{table.pk}."):
                money[hand_no][int(key.split(":")[1].rsplit(".", 1)[1])] += amount
            else:
                for number, wallet in wallet_of.items():
                    if key == wallet:
                        money[hand_no][number] += amount
    result = {}
    for hand_no in hand_numbers:
        result[hand_no] = [
            {
                "seat": number,
                "player": seat.user.get_username() if seat.user else None,
                "bot": seat.is_bot,
                "chips": chips[hand_no][number],
                "money": format_amount(money[hand_no][number], table.currency) if table.currency else None,
            }
            for number, seat in sorted(seats.items())
        ]
    return result


def _outcomes(table: Table, hand_no: int) -> dict[int, str]:
    """Each shown seat's outcome (``wins``, ``pays``, …) by the game's ``showdown`` hook, if it has one."""
    showdown = registry.get(table.game).audit.showdown if registry.get(table.game).audit else None
    if showdown is None:
        return {}
    try:
        hand = finished_hand(table, hand_no)
        return {entry["seat"]: entry["outcome"] for entry in showdown(table.config, hand.decoded)}
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
    base = f"/api/v1/tables/{table.pk}/hands"
    return [
        {
            "hand_no": hand_no,
            "ended_at": seeds[hand_no].isoformat() if seeds.get(hand_no) else None,
            "result": results[hand_no],
            "winners": _winners(results[hand_no]),
            "audit": f"{base}/{hand_no}/audit/",
            "verify": f"{base}/{hand_no}/verify/",
            "history": f"{base}/{hand_no}/history.txt",
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
