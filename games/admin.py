"""The games side of the admin: a read-only page per table for staff (find a table by its id, a
player or its game; its seats, status, version, timer, whether it is stalled, its hands with the
audits of the finished ones, and its money), and payout review's description of a table
(``games.audit.table_summary``), which the ledger cannot import."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import admin
from django.db.models import BooleanField, ExpressionWrapper, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games import audit, selectors
from games.models import Event, Table
from ledger.admin import LINE_BREAK, StaffOnly, describe_tables_with
from ledger.models import Account, Payout
from ledger.units import format_amount

describe_tables_with(audit.table_summary)


class StalledFilter(admin.SimpleListFilter):
    title = "stalled"
    parameter_name = "stalled"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "stalled"), ("no", "not stalled")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Table]) -> QuerySet[Table]:
        if self.value() == "yes":
            return queryset.filter(selectors.stalled())
        if self.value() == "no":
            return queryset.exclude(selectors.stalled())
        return queryset


@admin.register(Table)
class TableAdmin(StaffOnly, admin.ModelAdmin):
    """Tables for staff, read-only: every change to a table is an event its players' commands make."""

    list_display = ("id", "game", "status", "version", "players", "deadline_at", "is_stalled", "created_at")
    list_filter = ("status", "game", StalledFilter)
    search_fields = ("game", "seat_set__user__username", "owner__username")
    ordering = ("-created_at",)
    readonly_fields = (
        "id",
        "game",
        "status",
        "version",
        "owner",
        "created_at",
        "updated_at",
        "seat_list",
        "timer",
        "is_stalled",
        "hands",
        "money",
        "accounts",
        "payouts",
        "config",
    )
    fields = readonly_fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        # The list's players and stalled columns from one query each, not one per row.
        stalled = ExpressionWrapper(selectors.stalled(), output_field=BooleanField())
        return super().get_queryset(request).annotate(stalled=stalled).prefetch_related("seat_set__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Table], search_term: str) -> Any:
        # A table's id is found whole and exactly (SQLite keeps UUIDs without dashes, so a text
        # search on the id would miss it); any other term searches players and games.
        try:
            table_id = uuid.UUID(search_term.strip())
        except ValueError:
            return super().get_search_results(request, queryset, search_term)
        return queryset.filter(pk=table_id), False

    @admin.display(description="players")
    def players(self, table: Table) -> str:
        return ", ".join(seat.user.get_username() if seat.user else "bot" for seat in table.seat_set.all())

    @admin.display(description="stalled", boolean=True)
    def is_stalled(self, table: Table) -> bool:
        return bool(getattr(table, "stalled", False))

    @admin.display(description="seats")
    def seat_list(self, table: Table) -> str:
        rows = table.seat_set.select_related("user").order_by("number")
        return format_html_join(
            LINE_BREAK,
            "seat {}: {}{}",
            (
                (
                    s.number,
                    s.user.get_username() if s.user else f"bot ({s.bot})",
                    f", {s.chips} chips" if s.chips else "",
                )
                for s in rows
            ),
        )

    @admin.display(description="timer")
    def timer(self, table: Table) -> str:
        command = (table.deadline_command or {}).get("type", "none")
        return format_html(
            "turn {} s; deadline {} (at version {}, plays {}); bot to act: {}",
            table.config.get("turn_seconds", "-"),
            table.deadline_at or "none",
            table.deadline_version if table.deadline_version is not None else "-",
            command,
            "yes" if table.awaits_bot else "no",
        )

    @admin.display(description="hands")
    def hands(self, table: Table) -> str:
        """Every hand dealt; the finished ones link to their audit (one in progress has none yet)."""
        dealt = Event.objects.filter(table=table, hand_no__gt=0).values_list("hand_no", flat=True).distinct()
        finished = set(audit.finished_hand_numbers(table))
        return format_html_join(
            LINE_BREAK,
            "{}",
            (
                (
                    format_html('hand {}: <a href="{}">audit</a>', n, reverse("hand-audit", args=[table.pk, n]))
                    if n in finished
                    else format_html("hand {}: in progress", n),
                )
                for n in sorted(set(dealt))
            ),
        )

    @admin.display(description="money")
    def money(self, table: Table) -> str:
        if not table.currency:
            return "no money: a free table"
        if table.chip_value:
            return f"{format_amount(table.chip_value, table.currency)} {table.currency} a chip"
        return f"{format_amount(table.stake, table.currency)} {table.currency} a player"

    @admin.display(description="accounts")
    def accounts(self, table: Table) -> str:
        rows = Account.objects.filter(table_id=table.pk).order_by("key")
        return format_html_join(
            LINE_BREAK, "{}: {} {}", ((a.key, format_amount(a.balance, a.unit), a.unit) for a in rows)
        )

    @admin.display(description="payouts")
    def payouts(self, table: Table) -> str:
        rows = Payout.objects.filter(table_id=table.pk).select_related("user").order_by("seat")
        return format_html_join(
            LINE_BREAK,
            '<a href="{}">payout {}</a>: seat {}, {}, {} {}, {}',
            (
                (
                    reverse("admin:ledger_payout_change", args=[p.pk]),
                    p.pk,
                    p.seat,
                    p.user.get_username() if p.user else "bot",
                    format_amount(p.amount, p.currency),
                    p.currency,
                    p.status,
                )
                for p in rows
            ),
        )
