"""Read-only views of the books: nothing here can change a balance, a transaction or a posting."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ledger.models import Account, Posting, Transaction


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PostingInline(ReadOnly, admin.TabularInline):
    model = Posting
    fields = ("account", "unit", "amount")
    readonly_fields = fields
    extra = 0


@admin.register(Account)
class AccountAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("key", "kind", "unit", "balance", "user", "table_id", "seat", "allow_negative")
    list_filter = ("kind", "unit")
    search_fields = ("key", "user__username")
    readonly_fields = list_display


@admin.register(Transaction)
class TransactionAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("pk", "kind", "reference", "memo", "created_at", "created_by", "reverses")
    list_filter = ("kind",)
    search_fields = ("idempotency_key", "reference", "memo")
    date_hierarchy = "created_at"
    readonly_fields = (
        "idempotency_key",
        "kind",
        "memo",
        "reference",
        "table_id",
        "hand_no",
        "reverses",
        "created_at",
        "created_by",
    )
    inlines = [PostingInline]
