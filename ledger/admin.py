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

from ledger import payouts, records, services
from ledger.errors import ServiceError
from ledger.models import Account, FollowUp, Payout, PayoutDecision, PendingDeposit, Posting, Transaction
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


class DecidesOnItsPage(StaffOnly, admin.ModelAdmin[Any]):
    """Approve, and reject with a reason, on an item's own page and as list actions. Each decision is
    one call of the same service the API calls (``approve_one``, ``reject_one``), so every refusal
    of the API applies here, shown in the service's own words. Deciding is gated by the service
    (staff, four eyes, not a player), not by model change rights, which nobody has."""

    change_form_template = "admin/ledger/decide_change_form.html"
    noun = "item"
    reject_note = ""  # what a rejection does with the money

    def approve_one(self, request: HttpRequest, obj: Any) -> str:
        """Approve ``obj`` through its service; the words of what happened."""
        raise NotImplementedError

    def reject_one(self, request: HttpRequest, obj: Any, reason: str) -> str:
        """Reject ``obj`` with ``reason`` through its service; the words of what happened."""
        raise NotImplementedError

    def is_pending(self, obj: Any) -> bool:
        raise NotImplementedError

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        for name in self.actions or ():
            action = self.get_action(name)
            if isinstance(name, str) and action is not None:
                actions.setdefault(name, action)
        return actions

    def get_urls(self) -> list[URLPattern]:
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        view = self.admin_site.admin_view
        decide = [
            path("<int:pk>/approve/", view(self.approve_view), name=f"{name}_approve"),
            path("<int:pk>/reject/", view(self.reject_view), name=f"{name}_reject"),
        ]
        return decide + super().get_urls()

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        obj = kwargs.get("obj")
        if obj is not None and self.is_pending(obj):
            name = f"admin:{self.opts.app_label}_{self.opts.model_name}"
            context["decision"] = {
                "noun": self.noun,
                "approve": reverse(f"{name}_approve", args=[obj.pk]),
                "reject": reverse(f"{name}_reject", args=[obj.pk]),
                "form": RejectForm(),
                "note": self.reject_note,
            }
        return super().render_change_form(request, context, *args, **kwargs)

    def _decide(self, request: HttpRequest, pk: int, decide: Callable[[Any], str]) -> None:
        label = f"{self.noun.capitalize()} {pk}"
        obj = self.get_object(request, str(pk))
        if obj is None:
            self.message_user(request, f"{label}: not found.", level=messages.ERROR)
            return
        try:
            words = decide(obj)
        except ServiceError as error:
            self.message_user(request, f"{label}: {error.detail}", level=messages.ERROR)
        else:
            self.message_user(request, f"{label}: {words}", level=messages.SUCCESS)

    def _back(self, pk: int) -> HttpResponse:
        return HttpResponseRedirect(reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[pk]))

    def approve_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The approve button of an item's own page."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        self._decide(request, pk, lambda obj: self.approve_one(request, obj))
        return self._back(pk)

    def reject_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The reject form of an item's own page: nothing happens without a reason."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        form = RejectForm(request.POST)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            self._decide(request, pk, lambda obj: self.reject_one(request, obj, reason))
        else:
            self.message_user(request, f"Say why the {self.noun} is rejected (a reason is required).", messages.ERROR)
        return self._back(pk)

    @admin.action(description="Approve selected %(verbose_name_plural)s")
    def approve_selected(self, request: HttpRequest, queryset: Any) -> None:
        for pk in queryset.order_by("pk").values_list("pk", flat=True):
            self._decide(request, pk, lambda obj: self.approve_one(request, obj))

    @admin.action(description="Reject selected %(verbose_name_plural)s (asks for a reason)")
    def reject_selected(self, request: HttpRequest, queryset: Any) -> TemplateResponse | None:
        form = RejectForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            for pk in queryset.order_by("pk").values_list("pk", flat=True):
                self._decide(request, pk, lambda obj: self.reject_one(request, obj, reason))
            return None
        return TemplateResponse(
            request,
            "admin/ledger/reject.html",
            {
                **self.admin_site.each_context(request),
                "items": list(queryset),
                "noun": self.noun,
                "note": self.reject_note,
                "action": request.POST.get("action", ""),
                "form": form,
                "title": f"Reject {self.noun}s",
            },
        )


class DecisionInline(ReadOnly, admin.TabularInline[PayoutDecision, Payout]):
    model = PayoutDecision
    fields = ("decision", "by", "reason", "at")
    readonly_fields = fields
    extra = 0


@admin.register(Payout)
class PayoutAdmin(DecidesOnItsPage):
    """Payout review: the list by status, each payout's table result, players, audit link and ledger
    trail; approve and reject (with a reason) as list actions and on the payout's own page, through
    ``ledger.payouts`` only, so every refusal of the API (four eyes, a reviewer who played, a
    dispute's hold) applies here too."""

    noun = "payout"
    reject_note = "Rejecting returns the money to the table's escrow and marks the table for follow-up."
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

    # The list actions' names, kept for the links and habits that use them.
    approve_payouts = DecidesOnItsPage.approve_selected
    reject_payouts = DecidesOnItsPage.reject_selected

    def is_pending(self, obj: Any) -> bool:
        return bool(obj.status == Payout.Status.PENDING)

    def approve_one(self, request: HttpRequest, obj: Any) -> str:
        decided = payouts.approve(payout_id=obj.pk, by=_reviewer(request))
        return f"approval recorded; now {decided.status}."

    def reject_one(self, request: HttpRequest, obj: Any, reason: str) -> str:
        decided = payouts.reject(payout_id=obj.pk, by=_reviewer(request), reason=reason)
        return f"rejected; now {decided.status}."

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


@admin.register(FollowUp)
class FollowUpAdmin(StaffOnly, admin.ModelAdmin[FollowUp]):
    """Tables whose money waits for a person: a rejected payout's money is back in escrow."""

    list_display = ("pk", "table_id", "payout", "reason", "created_by", "created_at", "resolved_at")
    list_filter = ("resolved_at",)
    readonly_fields = list_display


class DepositStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("pending", "waiting for a second member of staff"), ("decided", "approved or rejected")]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        # Undecided while its pending account still holds the money: a decision empties it, once.
        waiting = {"postings__amount__gt": 0, "postings__account__balance__gt": 0}
        if self.value() == "pending":
            return queryset.filter(**waiting)
        if self.value() == "decided":
            return queryset.exclude(**waiting)
        return queryset


@admin.register(PendingDeposit)
class PendingDepositAdmin(DecidesOnItsPage):
    """Deposits above ``DEPOSIT_TWO_PERSON_LIMIT``: who recorded each, for whom, and its decision;
    approved or rejected by a second member of staff through ``ledger.services``, as the API does."""

    noun = "deposit"
    reject_note = "Rejecting returns the money to the house's cash."
    list_display = ("pk", "receiver", "amount", "created_by", "created_at", "state")
    list_filter = (DepositStateFilter,)
    fields = ("deposit_id", "receiver", "amount", "created_by", "created_at", "state", "decision")
    readonly_fields = fields
    actions = ["approve_selected", "reject_selected"]

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).filter(kind=services.PENDING_DEPOSIT).select_related("created_by")

    def _record(self, obj: Transaction) -> dict[str, Any]:
        return records.deposits_as_records([obj])[0]

    def is_pending(self, obj: Any) -> bool:
        return bool(self._record(obj)["state"] == "pending")

    def approve_one(self, request: HttpRequest, obj: Any) -> str:
        services.approve_deposit(deposit_id=self._record(obj)["id"], by=_reviewer(request))
        return "approved; the money is in the wallet."

    def reject_one(self, request: HttpRequest, obj: Any, reason: str) -> str:
        services.reject_deposit(deposit_id=self._record(obj)["id"], by=_reviewer(request), reason=reason)
        return "rejected; the money is back in the house's cash."

    @admin.display(description="deposit")
    def deposit_id(self, obj: Transaction) -> str:
        return str(self._record(obj)["id"])

    @admin.display(description="for")
    def receiver(self, obj: Transaction) -> str:
        return str(self._record(obj)["user"])

    @admin.display(description="amount")
    def amount(self, obj: Transaction) -> str:
        record = self._record(obj)
        return f"{record['amount']} {record['currency']}"

    @admin.display(description="state")
    def state(self, obj: Transaction) -> str:
        return str(self._record(obj)["state"])

    @admin.display(description="decision")
    def decision(self, obj: Transaction) -> str:
        record = self._record(obj)
        if record["state"] == "pending":
            return "none yet"
        why = f": {record['reason']}" if record["reason"] else ""
        return f"{record['state']} by {record['decided_by']} at {record['decided_at']}{why}"
