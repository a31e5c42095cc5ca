"""Payout review from the games side: each payout with its table's game, players, final result and
the link to its last hand's audit (the ledger knows a table by its id only)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.audit.hand import last_hand_no, seat_names
from games.audit.record import hand_results
from games.engine import registry
from games.models import Table
from ledger.models import Payout
from ledger.records import ledger_trail, payout_record


def table_summary(table_id) -> dict[str, Any]:
    """The table's game, players and final result, and a link to its last hand's audit."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return {"id": str(table_id), "missing": True}
    last = last_hand_no(table)
    return {
        "id": str(table.pk),
        "game": registry.slug_of(table.game),
        "status": table.status,
        "players": seat_names(table),
        "result": hand_results(table, [last])[last] if last else [],
        "audit": reverse("hand-audit", args=[table.pk, last]) if last else None,
        "hands": reverse("table-hands", args=[table.pk]),
    }


def payout_json(payout: Payout, *, with_table: bool = True) -> dict[str, Any]:
    """One payout as the review shows it: its record, its ledger trail and (unless told not to) its table."""
    data = {**payout_record(payout), "table_id": str(payout.table_id), "ledger_trail": ledger_trail(payout)}
    if with_table:
        data["table"] = table_summary(payout.table_id)
    return data
