"""Disputes in the admin, read-only for staff (the admin serves staff only): the queue oldest
first with each dispute's steps. Decisions are made through the API, where every rule applies."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.disputes.models import Dispute, DisputeStep
from ledger.admin import ReadOnly


class StaffOnly(ReadOnly):
    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)


class StepInline(StaffOnly, admin.TabularInline):
    model = DisputeStep
    fields = ("n", "kind", "by", "at", "reason", "data")
    readonly_fields = fields
    extra = 0


@admin.register(Dispute)
class DisputeAdmin(StaffOnly, admin.ModelAdmin):
    list_display = ("id", "filed_at", "state", "category", "user", "table", "hand_no", "outcome", "compensation")
    list_filter = ("state", "category", "outcome")
    ordering = ("filed_at", "pk")
    readonly_fields = (
        "table",
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
        "compensation",
        "currency",
        "approvals_needed",
        "transaction",
    )
    inlines = [StepInline]


@admin.register(DisputeStep)
class DisputeStepAdmin(StaffOnly, admin.ModelAdmin):
    list_display = ("dispute", "n", "kind", "by", "at")
    list_filter = ("kind",)
    readonly_fields = ("dispute", "n", "kind", "by", "at", "reason", "data")
