"""``manage.py check_replay [table_id …]``: prove that loading a table gives what its events say.

For each table (default: every table), fold its events from the very first one and compare with the
state loaded from its latest snapshot plus the events after it, as canonical JSON; and check the
hash chain. One line per table; a table that cannot be read is reported and the others are still
checked; exits non-zero if any table disagrees. The whole run reads one snapshot of the database
(``ledger.snapshot``), so tables moving while it runs are never reported.
"""

from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError

from games import chain, partitions, store
from games.engine import registry
from games.engine.codec import encode_state
from games.models import Table
from ledger import replica


class Command(BaseCommand):
    help = "Replay tables from their first event and compare with snapshot + tail; verify hash chains."

    def add_arguments(self, parser):
        parser.add_argument("tables", nargs="*", help="Table ids (default: every table).")

    def handle(self, *args, **options):
        with replica.checking():
            failures, checked = self.check_all(options["tables"])
        if failures:
            raise CommandError(f"{failures} of {checked} table(s) failed the replay check.")
        self.stdout.write(self.style.SUCCESS(f"{checked} table(s) replay exactly."))

    def check_all(self, wanted: list[str]) -> tuple[int, int]:
        # A detached era's events are archived, out of the events table: nothing left to replay.
        tables = partitions.with_history(Table.objects.order_by("created_at", "id"))
        failures = checked = 0
        if wanted:
            ids = {value: _as_id(value) for value in wanted}
            found = {
                str(pk)
                for pk in Table.objects.filter(pk__in=[i for i in ids.values() if i]).values_list("pk", flat=True)
            }
            for missing in sorted(value for value, pk in ids.items() if pk not in found):
                failures += 1
                checked += 1
                self.stdout.write(self.style.ERROR(f"MISSING {missing}: no such table"))
            tables = tables.filter(pk__in=found)
        for table in tables.iterator():
            checked += 1
            try:
                problems = self.check_table(table)
            except Exception as error:  # whatever the data, the other tables are still checked
                problems = [f"check failed: {type(error).__name__}: {error}"]
            if problems:
                failures += 1
                self.stdout.write(self.style.ERROR(f"MISMATCH {table.id} ({table.game}): " + "; ".join(problems)))
            else:
                self.stdout.write(f"ok {table.id} ({table.game}) at version {table.version}")
        return failures, checked

    # Not ``check``: that is BaseCommand's system-check hook, which manage.py calls before handle.
    def check_table(self, table: Table) -> list[str]:
        try:
            decider = registry.get(table.game)
        except KeyError:
            return [f"no registered game {table.game!r}"]
        problems = [str(problem) for problem in chain.verify_chain(table)]
        try:
            scratch, scratch_version = store.replay_from_scratch(table, decider)
        except store.ReplayFailed as error:
            return [*problems, str(error)]
        try:
            # With ``at`` no snapshot is written (the run is read-only); it reaches past the events
            # so that a snapshot ahead of them is still compared.
            newest = table.snapshots.order_by("-version").values_list("version", flat=True).first() or 0
            at = max(scratch_version, table.version, newest)
            loaded, loaded_version = store.load(table=table, decider=decider, at=at, cache=False)
        except Exception as error:  # a corrupt snapshot must be reported, not crash the audit
            return [*problems, f"loading from the snapshot failed: {type(error).__name__}: {error}"]
        if scratch_version != loaded_version:
            problems.append(f"replay reaches version {scratch_version}, snapshot + tail reaches {loaded_version}")
        elif store.canonical_json(encode_state(scratch)) != store.canonical_json(encode_state(loaded)):
            problems.append(f"state at version {scratch_version} differs between replay and snapshot + tail")
        return problems


def _as_id(value: str) -> str | None:
    """The table id an argument names, ``None`` if it is none at all (reported as missing, not a crash)."""
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None
