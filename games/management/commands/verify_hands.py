"""``manage.py verify_hands [--table ID] [--all]``: verify finished hands, check by check.

``--table ID`` verifies every finished hand of one table (``--hand N`` just one); ``--all`` every
finished hand of every table. Prints each check with pass / fail / skip and what differs; exits
non-zero if any check fails.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games import audit
from games.models import Table
from games.selectors import get_table


class Command(BaseCommand):
    help = "Verify finished hands: commitment, deck, deal, replay, hash chain and ledger, check by check."

    def add_arguments(self, parser):
        parser.add_argument("--table", help="A table id.")
        parser.add_argument("--hand", type=int, help="One hand of --table.")
        parser.add_argument("--all", action="store_true", help="Every finished hand of every table.")
        parser.add_argument("--quiet", action="store_true", help="Print only failures and the summary.")

    def handle(self, *args, **options):
        if bool(options["table"]) == bool(options["all"]):
            raise CommandError("Give --table ID or --all.")
        if options["hand"] is not None and not options["table"]:
            raise CommandError("--hand needs --table.")
        tables = [get_table(options["table"])] if options["table"] else Table.objects.order_by("created_at", "id")
        hands = failed = 0
        for table in tables:
            numbers = [options["hand"]] if options["hand"] is not None else audit.finished_hand_numbers(table)[::-1]
            for hand_no in numbers:
                result = audit.verify_hand(table, hand_no)
                hands += 1
                failed += not result.ok
                self.report(table, result, quiet=options["quiet"])
        summary = f"{hands} hand(s) verified, {failed} failed."
        if failed:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))

    def report(self, table, result: audit.Verification, *, quiet: bool) -> None:
        if quiet and result.ok:
            return
        head = f"{'ok' if result.ok else 'FAILED'} table {table.pk} ({table.game}) hand {result.hand_no}"
        self.stdout.write(head if result.ok else self.style.ERROR(head))
        for check in result.checks:
            if quiet and check.status != audit.FAIL:
                continue
            self.stdout.write(f"  {check.status:4} {check.name}: {check.detail}")
            for difference in check.differences:
                self.stdout.write(f"       - {difference}")
