from __future__ import annotations

from django.urls import path, register_converter

from api import audit_views, payout_views
from api.converters import SmallNumber

register_converter(SmallNumber, "number")

urlpatterns = [
    path("tables/<str:table_id>/hands/", audit_views.HandsView.as_view(), name="table-hands"),
    path("tables/<str:table_id>/hands/<number:hand_no>/audit/", audit_views.HandAuditView.as_view(), name="hand-audit"),
    path(
        "tables/<str:table_id>/hands/<number:hand_no>/verify/", audit_views.HandVerifyView.as_view(), name="hand-verify"
    ),
    path(
        "tables/<str:table_id>/hands/<number:hand_no>/history.txt",
        audit_views.HandHistoryView.as_view(),
        name="hand-history",
    ),
    path(
        "tables/<str:table_id>/hands/<number:hand_no>/history.phh", audit_views.HandPhhView.as_view(), name="hand-phh"
    ),
    path("tables/<str:table_id>/replay/", audit_views.ReplayView.as_view(), name="table-replay"),
    path("payouts/", payout_views.PayoutsView.as_view(), name="payouts"),
    path("payouts/report/", payout_views.PayoutsReportView.as_view(), name="payouts-report"),
    path("payouts/<number:payout_id>/approve/", payout_views.ApproveView.as_view(), name="payout-approve"),
    path("payouts/<number:payout_id>/reject/", payout_views.RejectView.as_view(), name="payout-reject"),
]
