"""``manage.py check_replay [table_id …]``: prove that loading a table gives what its events say.

For each table (default: every table), fold its events from the very first one and compare with the
state loaded from its latest snapshot plus the events after it, as canonical JSON; and check the
hash chain. One line per table; exits non-zero if any table disagrees.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games import store
from games.engine import registry
from games.engine.codec import encode_state
from games.models import Table


class Command(BaseCommand):
    help = "Replay tables from their first event and compare with snapshot + tail; verify hash chains."

    def add_arguments(self, parser):
        parser.add_argument("tables", nargs="*", help="Table ids (default: every table).")

    def handle(self, *args, **options):
        tables = Table.objects.order_by("created_at", "id")
        if options["tables"]:
            tables = tables.filter(pk__in=options["tables"])
            missing = set(options["tables"]) - {str(pk) for pk in tables.values_list("pk", flat=True)}
            if missing:
                raise CommandError(f"No such table(s): {', '.join(sorted(missing))}")
        failures = 0
        checked = 0
        for table in tables.iterator():
            checked += 1
            problems = self.check_table(table)
            if problems:
                failures += 1
                self.stdout.write(self.style.ERROR(f"MISMATCH {table.id} ({table.game}): " + "; ".join(problems)))
            else:
                self.stdout.write(f"ok {table.id} ({table.game}) at version {table.version}")
        if failures:
            raise CommandError(f"{failures} of {checked} table(s) failed the replay check.")
        self.stdout.write(self.style.SUCCESS(f"{checked} table(s) replay exactly."))

    # Not ``check``: that is BaseCommand's system-check hook, which manage.py calls before handle.
    def check_table(self, table: Table) -> list[str]:
        try:
            decider = registry.get(table.game)
        except KeyError:
            return [f"no registered game {table.game!r}"]
        problems = [str(problem) for problem in store.verify_chain(table)]
        try:
            scratch, scratch_version = store.replay_from_scratch(table, decider)
            loaded, loaded_version = store.load(table=table, decider=decider, cache=False)
        except Exception as error:  # a corrupt snapshot or event must be reported, not crash the audit
            return [*problems, f"replay failed: {type(error).__name__}: {error}"]
        if scratch_version != loaded_version:
            problems.append(f"replay reaches version {scratch_version}, snapshot + tail reaches {loaded_version}")
        elif store.canonical_json(encode_state(scratch)) != store.canonical_json(encode_state(loaded)):
            problems.append(f"state at version {scratch_version} differs between replay and snapshot + tail")
        return problems
