"""``manage.py verify_hands [--table ID] [--all]``: verify finished hands, check by check.

``--table ID`` verifies every finished hand of one table (``--hand N`` just one); ``--all`` every
finished hand of every table. Prints each check with pass / fail / skip and what differs; a hand
or table that cannot be read at all is reported as failed and the others are still verified; exits
non-zero if any check fails. The run reads one snapshot of the database (``ledger.snapshot``), and
replays each table once, verifying its hands in order (``audit.TableWalk``).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games import audit, partitions
from games.models import Table
from games.selectors import get_table
from ledger import replica


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
        with replica.checking():
            if options["table"]:
                try:
                    tables = [get_table(options["table"])]
                except Exception as error:
                    raise CommandError(getattr(error, "detail", None) or str(error)) from error
            else:
                # A detached era's hands are archived with its events, out of the events table.
                tables = partitions.with_history(Table.objects.order_by("created_at", "id")).iterator()
            hands = failed = 0
            for table in tables:
                verified, failures = self.verify_table(table, options["hand"], quiet=options["quiet"])
                hands += verified
                failed += failures
        summary = f"{hands} hand(s) verified, {failed} failed."
        if failed:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))

    def verify_table(self, table: Table, hand_no: int | None, *, quiet: bool) -> tuple[int, int]:
        """The hands verified and failed; a table or hand that cannot be read counts as one failure."""
        try:
            numbers = [hand_no] if hand_no is not None else sorted(audit.finished_hand_numbers(table))
            walk = audit.TableWalk(table)
        except Exception as error:  # an unknown game, unreadable rows: report, go on with the others
            self.unreadable(table, "its hands", error)
            return 1, 1
        verified = failed = 0
        for number in numbers:
            verified += 1
            try:
                result = audit.verify_hand(table, number, walk)
            except Exception as error:
                self.unreadable(table, f"hand {number}", error)
                failed += 1
                continue
            failed += not result.ok
            self.report(table, result, quiet=quiet)
        return verified, failed

    def unreadable(self, table: Table, what: str, error: Exception) -> None:
        detail = getattr(error, "detail", None) or str(error)
        self.stdout.write(
            self.style.ERROR(f"FAILED table {table.pk} ({table.game}) {what}: {type(error).__name__}: {detail}")
        )

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
