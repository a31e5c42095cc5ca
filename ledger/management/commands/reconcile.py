"""``manage.py reconcile``: prove the books, print what does not add up, exit 1 if anything.

Every proof reads one snapshot of the database (``ledger.snapshot``), so a command committing
while it runs never shows as a difference."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ledger import replica
from ledger.services import reconcile


class Command(BaseCommand):
    help = "Check that every transaction balances per unit and every account equals the sum of its postings."

    def handle(self, *args: Any, **options: Any) -> None:
        with replica.checking():
            report = reconcile()
        head, *problems = report.lines()
        for line in problems:
            self.stdout.write(line)
        if not report.ok:
            raise CommandError(head)
        self.stdout.write(self.style.SUCCESS(head))
