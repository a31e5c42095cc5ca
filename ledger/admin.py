"""Read-only views of the books, and payout review: nothing here changes a balance, a transaction or
a posting except through ``ledger.payouts`` (approve, reject)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join

from ledger import payouts
from ledger.errors import ServiceError
from ledger.models import Account, FollowUp, Payout, PayoutDecision, Posting, Transaction
from ledger.records import ledger_trail
from ledger.units import format_amount

# The ledger knows a table by its id only and imports nothing from games; the games app registers
# how to describe a table (game, players, result, audit link) from its own admin module.
TableSummary = Callable[[Any], dict[str, Any]]
_table_summary: TableSummary | None = None


def describe_tables_with(summary: TableSummary) -> None:
    """Let the payout review show each payout's table as ``summary(table_id)`` describes it."""
    global _table_summary
    _table_summary = summary


def _reviewer(request: HttpRequest) -> User:
    """The staff member deciding: the admin serves signed-in staff only."""
    user = request.user
    assert isinstance(user, User)
    return user


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PostingInline(ReadOnly, admin.TabularInline[Posting, Transaction]):
    model = Posting
    fields = ("account", "unit", "amount")
    readonly_fields = fields
    extra = 0


@admin.register(Account)
class AccountAdmin(ReadOnly, admin.ModelAdmin[Account]):
    list_display = ("key", "kind", "unit", "balance", "user", "table_id", "seat", "allow_negative")
    list_filter = ("kind", "unit")
    search_fields = ("key", "user__username")
    readonly_fields = list_display


@admin.register(Transaction)
class TransactionAdmin(ReadOnly, admin.ModelAdmin[Transaction]):
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


class RejectForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}), help_text="Required.")


class DecisionInline(ReadOnly, admin.TabularInline[PayoutDecision, Payout]):
    model = PayoutDecision
    fields = ("decision", "by", "reason", "at")
    readonly_fields = fields
    extra = 0


@admin.register(Payout)
class PayoutAdmin(ReadOnly, admin.ModelAdmin[Payout]):
    """Payout review: the list by status, each payout's table result, players, audit link and ledger
    trail; approve and reject (with a reason) as actions, through ``ledger.payouts`` only."""

    list_display = (
        "pk",
        "table_link",
        "seat",
        "user",
        "amount_display",
        "status",
        "automatic",
        "approvals",
        "created_at",
    )
    list_filter = ("status", "automatic", "currency")
    search_fields = ("user__username", "table_id")
    readonly_fields = (
        "table_link",
        "seat",
        "user",
        "amount_display",
        "status",
        "automatic",
        "approvals_needed",
        "pending_key",
        "created_at",
        "decided_at",
        "transaction",
        "table_result",
        "trail",
    )
    exclude = ("table_id", "currency", "amount")
    inlines = [DecisionInline]
    actions = ["approve_payouts", "reject_payouts"]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # Deciding is gated by ledger.payouts (staff, not a player), not by model change rights.
        actions = super().get_actions(request)
        for name in self.actions:
            action = self.get_action(name)
            if isinstance(name, str) and action is not None:
                actions.setdefault(name, action)
        return actions

    @admin.display(description="amount")
    def amount_display(self, payout: Payout) -> str:
        return f"{format_amount(payout.amount, payout.currency)} {payout.currency}"

    @admin.display(description="approvals")
    def approvals(self, payout: Payout) -> str:
        given = payout.decisions.filter(decision=PayoutDecision.Decision.APPROVE).count()
        return f"{given}/{payout.approvals_needed}"

    @admin.display(description="table")
    def table_link(self, payout: Payout) -> str:
        return format_html('<a href="/api/v1/tables/{}/hands/">{}</a>', payout.table_id, payout.table_id)

    @admin.display(description="table result and audit")
    def table_result(self, payout: Payout) -> str:
        summary = _table_summary(payout.table_id) if _table_summary else {}
        lines = [
            format_html("seat {}: {} chips {} money {}", r["seat"], r["player"] or "bot", r["chips"], r["money"])
            for r in summary.get("result", [])
        ]
        audit = format_html('<a href="{}">audit of the last hand</a>', summary["audit"]) if summary.get("audit") else ""
        return format_html(
            "{}<br>{} ({})", format_html_join("<br>", "{}", ((line,) for line in lines)), audit, summary.get("game")
        )

    @admin.display(description="ledger trail")
    def trail(self, payout: Payout) -> str:
        return format_html_join(
            "<br>",
            "transaction {}: {} {} ({})",
            ((t["transaction_id"], t["kind"], t["amount"], t["at"]) for t in ledger_trail(payout)),
        )

    def _decide(self, request: HttpRequest, queryset: Any, decide: Any, verb: str) -> None:
        for payout in queryset.order_by("pk"):
            try:
                decided = decide(payout)
            except ServiceError as error:
                self.message_user(request, f"Payout {payout.pk}: {error.detail}", level=messages.ERROR)
            else:
                self.message_user(request, f"Payout {payout.pk}: {verb}; now {decided.status}.", level=messages.SUCCESS)

    @admin.action(description="Approve selected payouts")
    def approve_payouts(self, request: HttpRequest, queryset: Any) -> None:
        self._decide(
            request, queryset, lambda p: payouts.approve(payout_id=p.pk, by=_reviewer(request)), "approval recorded"
        )

    @admin.action(description="Reject selected payouts (asks for a reason)")
    def reject_payouts(self, request: HttpRequest, queryset: Any) -> TemplateResponse | None:
        form = RejectForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            self._decide(
                request,
                queryset,
                lambda p: payouts.reject(payout_id=p.pk, by=_reviewer(request), reason=reason),
                "rejected",
            )
            return None
        return TemplateResponse(
            request,
            "admin/ledger/payout/reject.html",
            {
                **self.admin_site.each_context(request),
                "payouts": list(queryset),
                "form": form,
                "title": "Reject payouts",
            },
        )


@admin.register(FollowUp)
class FollowUpAdmin(ReadOnly, admin.ModelAdmin[FollowUp]):
    """Tables whose money waits for a person: a rejected payout's money is back in escrow."""

    list_display = ("pk", "table_id", "payout", "reason", "created_by", "created_at", "resolved_at")
    list_filter = ("resolved_at",)
    readonly_fields = list_display

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)
