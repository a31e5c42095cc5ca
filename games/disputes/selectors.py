"""The reads of disputes: a dispute as its player and the auditors see it, the auditors' queue, a
dispute's review (the hand's audit and the disputing player's own views of it) and the staff report.

Hidden information: the review serves the disputing seat's views only (``table_view`` and
``events_view`` for that seat, at every version of the hand), and the audit only of a finished hand
(``hand_audit`` refuses one in progress), to auditors and staff who did not play at the table.
Those who played there (other than the dispute's own player) see none of its disputes: the queue
leaves them out and a dispute answers as if it did not exist."""

from __future__ import annotations

import statistics
from datetime import timedelta
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet, Sum
from django.urls import reverse
from django.utils import timezone

from games import audit, selectors, store
from games.disputes import bounds
from games.disputes.models import Dispute, DisputeStep
from games.disputes.services import check_reviewer, is_auditor, played_at
from games.engine import registry
from games.engine.decider import offered_actions
from games.engine.words import Amount, T, Text
from games.errors import Forbidden, NotFound
from games.models import Seat
from ledger.models import Payout, Posting
from ledger.times import rfc3339
from ledger.units import format_amount

State = Dispute.State
QUEUE_STATES = (State.OPEN, State.UNDER_REVIEW, State.AWAITING_APPROVAL)


def state_text(dispute: Dispute) -> Text:
    """Where the dispute stands, in a sentence for its player."""
    if dispute.state == State.OPEN:
        return T("Your dispute is filed and waits for an auditor.")
    if dispute.state == State.UNDER_REVIEW:
        return T("An auditor is reviewing your dispute.")
    if dispute.state == State.AWAITING_APPROVAL:
        return T(
            "Your dispute was upheld; the compensation of {amount} waits for a second approval.",
            amount=Amount(format_amount(dispute.compensation, dispute.currency), dispute.currency),
        )
    if dispute.state == State.REJECTED:
        return T("Your dispute was rejected; the reasons are below.")
    if dispute.compensation:
        return T(
            "Your dispute was upheld and {amount} was paid into your wallet.",
            amount=Amount(format_amount(dispute.compensation, dispute.currency), dispute.currency),
        )
    return T("Your dispute was upheld; the reasons and the remedy are below.")


def get(dispute_id: int, user: Any) -> Dispute:
    """The dispute, for its player, and for auditors and staff who did not play at its table (404
    for anyone else: no sign it exists)."""
    dispute = _found(dispute_id, user)
    if dispute.user_id != user.pk and played_at(user, dispute.table_id):
        raise _not_found(dispute_id)
    return dispute


def _found(dispute_id: int, user: Any) -> Dispute:
    """The dispute, for its player, auditors and staff; 404 for anyone else."""
    dispute = Dispute.objects.select_related("table", "user", "taken_by").filter(pk=dispute_id).first()
    if dispute is None or (dispute.user_id != user.pk and not is_auditor(user)):
        raise _not_found(dispute_id)
    return dispute


def _not_found(dispute_id: int) -> NotFound:
    return NotFound(T("There is no dispute {dispute}.", dispute=dispute_id), code="not_found")


def not_played_at(rows: QuerySet[Dispute], user: Any) -> QuerySet[Dispute]:
    """``rows`` without the disputes of tables ``user`` played at (``played_at``: sat there, or
    moved money there): an auditor who played there reads none of them."""
    sat = Seat.objects.filter(table_id=OuterRef("table_id"), user=user)
    moved = Posting.objects.filter(transaction__table_id=OuterRef("table_id"), account__user=user)
    return rows.exclude(Exists(sat)).exclude(Exists(moved))


def mine(user: Any) -> list[Dispute]:
    """The user's disputes, newest first."""
    return list(Dispute.objects.filter(user=user).select_related("table", "user", "taken_by").order_by("-pk"))


def queue(
    user: Any,
    *,
    state: str | None = None,
    category: str | None = None,
    table_id: Any = None,
    game: str | None = None,
    older_than: int | None = None,
) -> list[Dispute]:
    """Auditors and staff: the disputes not yet settled, oldest first; only those of one state,
    category, table or game, or filed more than ``older_than`` seconds ago, for each one named.
    Never those of a table the auditor played at."""
    if not is_auditor(user):
        raise Forbidden(T("Only auditors and staff see the disputes queue."), code="not_auditor")
    states = (state,) if state else QUEUE_STATES
    rows = not_played_at(Dispute.objects.filter(state__in=states), user).select_related("table", "user", "taken_by")
    named = {"category": category, "table_id": table_id, "table__game": game}
    rows = rows.filter(**{field: value for field, value in named.items() if value is not None})
    if older_than is not None:
        rows = rows.filter(filed_at__lte=timezone.now() - timedelta(seconds=older_than))
    return list(rows.order_by("filed_at", "pk"))


def dispute_json(dispute: Dispute, *, viewer: Any = None) -> dict[str, Any]:
    steps = list(dispute.steps.select_related("by").order_by("n"))
    decided = next((s for s in steps if s.kind == DisputeStep.Kind.DECIDED), None)
    referred = next((s for s in steps if s.kind == DisputeStep.Kind.REFERRED), None)
    currency = dispute.currency or None
    data = {
        "id": dispute.pk,
        "table_id": str(dispute.table_id),
        "game": registry.slug_of(dispute.table.game),
        "hand_no": dispute.hand_no,
        "payout_id": dispute.payout_id,
        "player": dispute.user.get_username(),
        "seat": dispute.seat,
        "category": dispute.category,
        "words": dispute.words,
        "filed_at": rfc3339(dispute.filed_at),
        "state": dispute.state,
        "state_text": state_text(dispute),
        "outcome": dispute.outcome or None,
        "reasons": decided.reason if decided else None,
        "decided_at": rfc3339(dispute.decided_at),
        "taken_by": dispute.taken_by.get_username() if dispute.taken_by else None,
        "compensation": format_amount(dispute.compensation, currency) if currency else None,
        "compensation_minor": dispute.compensation,
        "currency": currency,
        "approvals_needed": dispute.approvals_needed,
        "transaction_id": dispute.transaction_id,
        "referral": referred.data.get("referral") if referred else None,
        "referral_note": referred.reason if referred else None,
        "steps": [_step_json(step) for step in steps],
        "links": {
            "self": reverse("dispute", args=[dispute.pk]),
            "audit": reverse("hand-audit", args=[dispute.table_id, dispute.hand_no]),
        },
    }
    if viewer is not None and viewer.pk != dispute.user_id:
        # For auditors and staff: their review, which a player's link would only refuse.
        data["links"]["review"] = reverse("dispute-review", args=[dispute.pk])
        data["you_played"] = played_at(viewer, dispute.table_id)
    return data


def _step_json(step: DisputeStep) -> dict[str, Any]:
    return {
        "n": step.n,
        "kind": step.kind,
        "by": step.by.get_username() if step.by else None,
        "at": rfc3339(step.at),
        "reason": step.reason,
        "data": step.data,
    }


# --- the review ---------------------------------------------------------------------------------


def review(dispute_id: int, user: Any) -> dict[str, Any]:
    """Everything an auditor decides from: the dispute; the hand's audit with its verification;
    the disputing player's own view of the table after every event of the hand, with the event as
    that seat saw it (who acted and when); the table's timer; the table's payouts; and the most a
    compensation can be (``compensation_limits``)."""
    # An auditor who played at the table learns no more than that they may not review it.
    dispute = _found(dispute_id, user)
    check_reviewer(dispute, user)
    table = dispute.table
    record = audit.hand_audit(table, dispute.hand_no)  # refuses a hand in progress (409)
    seqs = [event["seq"] for event in record["events"]]
    first, last = min(seqs), max(seqs)
    return {
        "dispute": dispute_json(dispute, viewer=user),
        "audit": record,
        "player_views": player_views(table, dispute.seat, first, last),
        "timers": {"turn_seconds": table.config.get("turn_seconds")},
        "payouts": [
            audit.payout_json(p, with_table=False) for p in Payout.objects.filter(table_id=table.pk).order_by("pk")
        ],
        "compensation_limits": bounds.limits(dispute),
    }


def player_views(table: Any, seat: int, first: int, last: int) -> list[dict[str, Any]]:
    """Seat ``seat``'s own view of the table just after each event ``first``..``last``, with that
    event as the seat saw it. Never another seat's view."""
    decider = registry.get(table.game)
    events = {item["seq"]: item for item in selectors.events_view(table, seat, after=first - 1, limit=last - first + 1)}
    out = []
    for step in store.walk(table, decider, after=first - 1, upto=last, snapshot=True):
        view = selectors.table_view(table, seat, state=step.after)
        view["version"] = step.row.seq
        # What the seat was offered then; the deadline of a past version is not kept.
        view["legal_actions"] = offered_actions(decider, step.after, seat)
        view["deadline"] = None
        out.append({"version": step.row.seq, "event": events[step.row.seq], "table": view})
    return out


# --- the staff report ---------------------------------------------------------------------------


def report(user: Any) -> dict[str, Any]:
    """Staff: disputes by category and state, time to decision, share upheld, money compensated."""
    if not getattr(user, "is_staff", False):
        raise Forbidden(T("Only staff read the disputes report."), code="not_staff")
    by_category = dict(Dispute.objects.values_list("category").annotate(n=Count("pk")).values_list("category", "n"))
    by_state = dict(Dispute.objects.values_list("state").annotate(n=Count("pk")).values_list("state", "n"))
    decided = list(Dispute.objects.exclude(decided_at=None).values_list("outcome", "filed_at", "decided_at"))
    seconds = [(at - filed).total_seconds() for _, filed, at in decided]
    upheld = sum(1 for outcome, _, _ in decided if outcome == Dispute.Outcome.UPHELD)
    paid = (
        Dispute.objects.exclude(transaction=None)
        .values("currency")
        .annotate(total=Sum("compensation"), n=Count("pk"))
        .order_by("currency")
    )
    return {
        "total": sum(by_category.values()),
        "by_category": {category: by_category.get(category, 0) for category in Dispute.Category.values},
        "by_state": {state: by_state.get(state, 0) for state in State.values},
        "decided": len(decided),
        "upheld": upheld,
        "rejected": len(decided) - upheld,
        "share_upheld": round(upheld / len(decided), 4) if decided else None,
        "time_to_decision_seconds": {
            "median": statistics.median(seconds) if seconds else None,
            "mean": round(statistics.fmean(seconds), 3) if seconds else None,
        },
        "compensated": [
            {
                "currency": row["currency"],
                "amount": format_amount(row["total"], row["currency"]),
                "amount_minor": row["total"],
                "disputes": row["n"],
            }
            for row in paid
        ],
    }
