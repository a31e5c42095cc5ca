"""``manage.py partition_history``: the events table's partitions, by era (``games.partitions``).

Without options, lists every era: its tables, how many still play, where its events are, and
whether its partition can be detached. ``--ahead N`` makes the partitions of the current era and
the next N (beat does it daily). ``--detach ERA`` detaches an era's partition once every table of
it has finished, and says how to archive it; it refuses, with the reason, otherwise.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games import partitions


class Command(BaseCommand):
    help = "List the events' partitions by era, make the coming eras' partitions, or detach a finished era."

    def add_arguments(self, parser):
        parser.add_argument("--ahead", type=int, metavar="N", help="Make the partitions of this era and the next N.")
        parser.add_argument("--detach", type=int, metavar="ERA", help="Detach the partition of ERA (YYYYMM).")

    def handle(self, *args, **options):
        try:
            if options["ahead"] is not None:
                made = partitions.prepare(options["ahead"])
                self.stdout.write(f"made: {', '.join(map(partitions.partition_name, made)) or 'nothing'}")
            if options["detach"] is not None:
                self.detach(options["detach"])
        except partitions.PartitionError as error:
            raise CommandError(str(error)) from error
        if options["ahead"] is None and options["detach"] is None:
            self.list()

    def list(self) -> None:
        for era in partitions.eras():
            note = "  detachable" if era.detachable else ""
            self.stdout.write(
                f"{era.era}  {era.where:<22} {era.tables} table(s), {era.unfinished} open or running{note}"
            )

    def detach(self, era: int) -> None:
        detached = partitions.detach(era)
        name = detached.partition
        self.stdout.write(
            self.style.SUCCESS(f"Detached {name}: {detached.events} event(s) of {detached.tables} finished table(s).")
        )
        self.stdout.write(
            f'Archive it, then drop it: pg_dump --table={name} --format=custom --file={name}.dump "$DATABASE_URL" '
            f"&& psql \"$DATABASE_URL\" -c 'DROP TABLE {name}'"
        )
