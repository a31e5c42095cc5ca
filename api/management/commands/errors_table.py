"""``manage.py errors_table``: write the errors table of docs/api.md from ``api.problems``, between
its markers; ``--check`` writes nothing and exits non-zero when the docs differ."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from api import problems


class Command(BaseCommand):
    help = "Write the errors table of docs/api.md from api/problems.py (--check: only compare)."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Exit non-zero if docs/api.md differs.")

    def handle(self, *args, **options):
        docs = Path(settings.BASE_DIR) / "docs" / "api.md"
        text = docs.read_text()
        made = problems.with_table(text)
        if made == text:
            return
        if options["check"]:
            raise CommandError("docs/api.md's errors table differs from api/problems.py: run manage.py errors_table")
        docs.write_text(made)
        self.stdout.write("docs/api.md: errors table written")
