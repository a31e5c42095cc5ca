from __future__ import annotations

from django.urls import path

from api import dispute_views as d

urlpatterns = [
    path("disputes/", d.DisputesView.as_view(), name="disputes"),
    path("disputes/queue/", d.QueueView.as_view(), name="disputes-queue"),
    path("disputes/report/", d.ReportView.as_view(), name="disputes-report"),
    path("disputes/<number:dispute_id>/", d.DisputeView.as_view(), name="dispute"),
    path("disputes/<number:dispute_id>/review/", d.ReviewView.as_view(), name="dispute-review"),
    path("disputes/<number:dispute_id>/take/", d.TakeView.as_view(), name="dispute-take"),
    path("disputes/<number:dispute_id>/decide/", d.DecideView.as_view(), name="dispute-decide"),
    path("disputes/<number:dispute_id>/approve/", d.ApproveView.as_view(), name="dispute-approve"),
    path("disputes/<number:dispute_id>/decline/", d.DeclineView.as_view(), name="dispute-decline"),
]
