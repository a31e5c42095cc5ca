"""``manage.py publish_checkpoint [FILE]``: write a checkpoint of every table's chain head as JSON
(to FILE, or standard output), for publishing where the database's insiders cannot rewrite it
(docs/operations.md, "Checkpoints"). ``verify_checkpoint FILE`` compares the database with it."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from games import checkpoint
from ledger.snapshot import one_snapshot


class Command(BaseCommand):
    help = "Write a checkpoint of every table's chain head (last seq and hash) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="Where to write it (default: standard output).")

    def handle(self, *args, **options):
        with one_snapshot():
            taken = checkpoint.take()
        text = json.dumps(taken, indent=1, sort_keys=True) + "\n"
        if options["file"]:
            Path(options["file"]).write_text(text, encoding="utf-8")
            self.stderr.write(f"{len(taken['tables'])} table(s), digest {taken['digest']}")
        else:
            self.stdout.write(text, ending="")
