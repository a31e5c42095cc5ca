"""``manage.py verify_checkpoint FILE``: compare the database with a published checkpoint of chain
heads; name every table whose checkpointed head is gone or changed, exit non-zero if any."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import checkpoint
from ledger.snapshot import one_snapshot


class Command(BaseCommand):
    help = "Compare the tables' hash chains with a checkpoint taken earlier (publish_checkpoint)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="A checkpoint written by publish_checkpoint.")

    def handle(self, *args, **options):
        try:
            taken = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read the checkpoint: {error}") from error
        with one_snapshot():
            problems = list(checkpoint.differences(taken))
        for line in problems:
            self.stdout.write(self.style.ERROR(line))
        tables = len(taken.get("tables") or []) if isinstance(taken, dict) else 0
        if problems:
            raise CommandError(f"{len(problems)} difference(s) from the checkpoint of {tables} table(s).")
        self.stdout.write(self.style.SUCCESS(f"{tables} table(s) match the checkpoint {taken.get('digest')}."))
