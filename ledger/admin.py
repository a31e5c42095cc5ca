"""Read-only views of the books, and payout review: nothing here changes a balance, a transaction or
a posting except through ``ledger.payouts`` (approve, reject)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

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


# The separator of lines in one cell: format_html_join escapes a plain "<br>" into visible text.
LINE_BREAK = mark_safe("<br>")


def table_admin_link(table_id: Any) -> str:
    """A link to the table's page in the admin (games registers it), else just its id."""
    try:
        url = reverse("admin:games_table_change", args=[table_id])
    except NoReverseMatch:
        return str(table_id)
    return format_html('<a href="{}">{}</a>', url, table_id)


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


class StaffOnly(ReadOnly):
    """Read by signed-in staff, changed by nobody: decisions go through the services."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)


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
class PayoutAdmin(StaffOnly, admin.ModelAdmin[Payout]):
    """Payout review: the list by status, each payout's table result, players, audit link and ledger
    trail; approve and reject (with a reason) as list actions and on the payout's own page, through
    ``ledger.payouts`` only, so every refusal of the API (four eyes, a reviewer who played, a
    dispute's hold) applies here too."""

    change_form_template = "admin/ledger/payout/change_form.html"
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
        "approvals",
        "pending_key",
        "created_at",
        "decided_at",
        "transaction",
        "table_result",
        "trail",
    )
    exclude = ("table_id", "currency", "amount", "approvals_needed")
    inlines = [DecisionInline]
    actions = ["approve_payouts", "reject_payouts"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # Deciding is gated by ledger.payouts (staff, not a player), not by model change rights.
        actions = super().get_actions(request)
        for name in self.actions:
            action = self.get_action(name)
            if isinstance(name, str) and action is not None:
                actions.setdefault(name, action)
        return actions

    def get_urls(self) -> list[URLPattern]:
        decide = [
            path(
                "<int:payout_id>/approve/", self.admin_site.admin_view(self.approve_view), name="ledger_payout_approve"
            ),
            path("<int:payout_id>/reject/", self.admin_site.admin_view(self.reject_view), name="ledger_payout_reject"),
        ]
        return decide + super().get_urls()

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        context["reject_form"] = RejectForm()
        return super().render_change_form(request, context, *args, **kwargs)

    @admin.display(description="amount")
    def amount_display(self, payout: Payout) -> str:
        return f"{format_amount(payout.amount, payout.currency)} {payout.currency}"

    @admin.display(description="approvals")
    def approvals(self, payout: Payout) -> str:
        given = payout.decisions.filter(decision=PayoutDecision.Decision.APPROVE).count()
        return f"{given}/{payout.approvals_needed}"

    @admin.display(description="table")
    def table_link(self, payout: Payout) -> str:
        return table_admin_link(payout.table_id)

    @admin.display(description="table result and audit")
    def table_result(self, payout: Payout) -> str:
        summary = _table_summary(payout.table_id) if _table_summary else {}
        lines = [
            format_html(
                "seat {}: {}, chips {}, money {} {}",
                r["seat"],
                r["player"] or "bot",
                r["chips"],
                r["money"],
                payout.currency,
            )
            for r in summary.get("result", [])
        ]
        audit = format_html('<a href="{}">audit of the last hand</a>', summary["audit"]) if summary.get("audit") else ""
        return format_html(
            "{}<br>{} ({})", format_html_join(LINE_BREAK, "{}", ((line,) for line in lines)), audit, summary.get("game")
        )

    @admin.display(description="ledger trail")
    def trail(self, payout: Payout) -> str:
        return format_html_join(
            LINE_BREAK,
            "transaction {}: {} {} {} ({})",
            ((t["transaction_id"], t["kind"], t["amount"], payout.currency, t["at"]) for t in ledger_trail(payout)),
        )

    def _decide(self, request: HttpRequest, payout_id: int, decide: Callable[[int], Payout], verb: str) -> None:
        """One decision through ``ledger.payouts``; its refusal, in the service's words, as a message."""
        try:
            decided = decide(payout_id)
        except ServiceError as error:
            self.message_user(request, f"Payout {payout_id}: {error.detail}", level=messages.ERROR)
        else:
            self.message_user(request, f"Payout {payout_id}: {verb}; now {decided.status}.", level=messages.SUCCESS)

    def _approve(self, request: HttpRequest) -> Callable[[int], Payout]:
        return lambda payout_id: payouts.approve(payout_id=payout_id, by=_reviewer(request))

    def _reject(self, request: HttpRequest, reason: str) -> Callable[[int], Payout]:
        return lambda payout_id: payouts.reject(payout_id=payout_id, by=_reviewer(request), reason=reason)

    def approve_view(self, request: HttpRequest, payout_id: int) -> HttpResponse:
        """The approve button of a payout's own page."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        self._decide(request, payout_id, self._approve(request), "approval recorded")
        return HttpResponseRedirect(reverse("admin:ledger_payout_change", args=[payout_id]))

    def reject_view(self, request: HttpRequest, payout_id: int) -> HttpResponse:
        """The reject form of a payout's own page: nothing happens without a reason."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        form = RejectForm(request.POST)
        if form.is_valid():
            self._decide(request, payout_id, self._reject(request, form.cleaned_data["reason"]), "rejected")
        else:
            self.message_user(request, "Say why the payout is rejected (a reason is required).", messages.ERROR)
        return HttpResponseRedirect(reverse("admin:ledger_payout_change", args=[payout_id]))

    @admin.action(description="Approve selected payouts")
    def approve_payouts(self, request: HttpRequest, queryset: Any) -> None:
        for payout_id in queryset.order_by("pk").values_list("pk", flat=True):
            self._decide(request, payout_id, self._approve(request), "approval recorded")

    @admin.action(description="Reject selected payouts (asks for a reason)")
    def reject_payouts(self, request: HttpRequest, queryset: Any) -> TemplateResponse | None:
        form = RejectForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            decide = self._reject(request, form.cleaned_data["reason"])
            for payout_id in queryset.order_by("pk").values_list("pk", flat=True):
                self._decide(request, payout_id, decide, "rejected")
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
class FollowUpAdmin(StaffOnly, admin.ModelAdmin[FollowUp]):
    """Tables whose money waits for a person: a rejected payout's money is back in escrow."""

    list_display = ("pk", "table_id", "payout", "reason", "created_by", "created_at", "resolved_at")
    list_filter = ("resolved_at",)
    readonly_fields = list_display
