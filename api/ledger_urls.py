from __future__ import annotations

from django.urls import path

from api import ledger_views

urlpatterns = [
    path("wallets/me/", ledger_views.MyWalletsView.as_view(), name="wallets-me"),
    path("wallets/me/transactions/", ledger_views.MyWalletLinesView.as_view(), name="wallets-me-lines"),
    path("me/payouts/", ledger_views.MyPayoutsView.as_view(), name="my-payouts"),
    path("wallets/<str:username>/deposits/", ledger_views.DepositView.as_view(), name="wallet-deposits"),
    path("deposits/", ledger_views.DepositsView.as_view(), name="deposits"),
    path("deposits/<str:deposit_id>/approve/", ledger_views.ApproveDepositView.as_view(), name="deposit-approve"),
    path("deposits/<str:deposit_id>/reject/", ledger_views.RejectDepositView.as_view(), name="deposit-reject"),
    path("ledger/transactions/", ledger_views.MyTransactionsView.as_view(), name="ledger-transactions"),
]
