from django.apps import AppConfig


class DisputesConfig(AppConfig):
    name = "games.disputes"
    label = "disputes"
    verbose_name = "Disputed hands"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.disputes import books, services
        from ledger.payouts import register_hold
        from ledger.reconcile import register_checker

        # While a dispute on its table is open, a pending payout cannot be approved.
        register_hold(services.refuse_held_payout)
        register_checker(books.compensations_match)
        register_checker(books.compensations_bounded)
