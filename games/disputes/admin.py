"""Disputes in the admin, read-only for staff (the admin serves staff only): the queue oldest
first with each dispute's steps. Decisions are made through the API, where every rule applies."""

from __future__ import annotations

from django.contrib import admin

from games.disputes.models import Dispute, DisputeStep
from ledger.admin import StaffOnly, table_admin_link
from ledger.units import format_amount


class StepInline(StaffOnly, admin.TabularInline):
    model = DisputeStep
    fields = ("n", "kind", "by", "at", "reason", "data")
    readonly_fields = fields
    extra = 0


@admin.register(Dispute)
class DisputeAdmin(StaffOnly, admin.ModelAdmin):
    list_display = (
        "id",
        "filed_at",
        "state",
        "category",
        "user",
        "table_link",
        "hand_no",
        "outcome",
        "compensation_display",
    )
    list_filter = ("state", "category", "outcome")
    ordering = ("filed_at", "pk")
    readonly_fields = (
        "table_link",
        "hand_no",
        "payout",
        "user",
        "seat",
        "category",
        "words",
        "filed_at",
        "state",
        "taken_by",
        "outcome",
        "decided_at",
        "compensation_display",
        "approvals_needed",
        "transaction",
    )
    exclude = ("table", "compensation", "currency")
    inlines = [StepInline]

    @admin.display(description="compensation")
    def compensation_display(self, dispute: Dispute) -> str:
        """In the table's currency units, as the API's ``compensation`` says it; "none" without one."""
        if not dispute.compensation or not dispute.currency:
            return "none"
        return f"{format_amount(dispute.compensation, dispute.currency)} {dispute.currency}"

    @admin.display(description="table")
    def table_link(self, dispute: Dispute) -> str:
        return table_admin_link(dispute.table_id)


@admin.register(DisputeStep)
class DisputeStepAdmin(StaffOnly, admin.ModelAdmin):
    list_display = ("dispute", "n", "kind", "by", "at")
    list_filter = ("kind",)
    readonly_fields = ("dispute", "n", "kind", "by", "at", "reason", "data")
