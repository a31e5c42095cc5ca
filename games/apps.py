from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Importing the rules package registers every game with the engine's registry.
        import games.rules  # noqa: F401
        from games import notify
        from games.payouts import finished_tables, payouts_match_seats
        from games.reconcile import all_tables
        from ledger.payouts import payout_decided
        from ledger.services import register_checker

        register_checker(all_tables)
        register_checker(finished_tables)
        register_checker(payouts_match_seats)
        payout_decided.connect(notify.on_payout_decided, dispatch_uid="games.notify.payout_decided")
