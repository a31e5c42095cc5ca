"""Reads for payout review: each payout with its table's result, players, audit link and ledger trail."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games import audit
from games.errors import InvalidRequest
from games.models import Table
from ledger.models import Payout, Posting
from ledger.units import format_amount

STATUSES = tuple(Payout.Status.values)


def payouts(*, status: str | None = None) -> QuerySet[Payout]:
    """Payouts newest first, of one status if given."""
    rows = Payout.objects.select_related("user").prefetch_related("decisions__by").order_by("-created_at", "-pk")
    if status:
        if status not in STATUSES:
            raise InvalidRequest(f"status must be one of {', '.join(STATUSES)}, not {status!r}.", field="status")
        rows = rows.filter(status=status)
    return rows


def ledger_trail(payout: Payout) -> list[dict[str, Any]]:
    """Every posting on the payout's pending account: the prize coming in, and the decision taking it out."""
    rows = (
        Posting.objects.filter(account__key=payout.pending_key)
        .select_related("transaction")
        .order_by("transaction__created_at", "pk")
    )
    return [
        {
            "transaction_id": p.transaction_id,
            "kind": p.transaction.kind,
            "reference": p.transaction.reference,
            "amount": format_amount(p.amount, p.unit),
            "at": p.transaction.created_at.isoformat(),
        }
        for p in rows
    ]


def table_summary(table_id) -> dict[str, Any]:
    """The table's game, players and final result, and a link to its last hand's audit."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return {"id": str(table_id), "missing": True}
    last = audit.last_hand_no(table)
    return {
        "id": str(table.pk),
        "game": table.game,
        "status": table.status,
        "players": audit.seat_names(table),
        "result": audit.hand_results(table, [last])[last] if last else [],
        "audit": f"/api/v1/tables/{table.pk}/hands/{last}/audit/" if last else None,
        "hands": f"/api/v1/tables/{table.pk}/hands/",
    }


def payout_json(payout: Payout, *, with_table: bool = True) -> dict[str, Any]:
    data = {**audit.payout_record(payout), "table_id": str(payout.table_id), "ledger_trail": ledger_trail(payout)}
    if with_table:
        data["table"] = table_summary(payout.table_id)
    return data
