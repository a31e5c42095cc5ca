from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ledger import per_currency

        # A limit or budget that does not parse stops the process here, not at the first payout.
        per_currency.check_all()
        # Importing the modules registers their reconcile checkers (every payout is backed, every
        # large deposit decided once).
        import ledger.payouts
        import ledger.records  # noqa: F401
