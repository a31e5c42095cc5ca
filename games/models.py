"""Tables, seats, their events and snapshots.

A table's state is never stored as such: it is the fold of its events. ``Table.version`` is the
``seq`` of its last event, kept on the row so that one row lock serialises the writers of a table.
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.engine.words import T
from games.errors import NotFound


def table_uuid(table_id) -> uuid.UUID:
    """The table id as a UUID; a malformed id names no table."""
    try:
        return table_id if isinstance(table_id, uuid.UUID) else uuid.UUID(str(table_id))
    except ValueError:
        raise NotFound(T("There is no table {table}.", table=str(table_id))) from None


class ImmutableRow(Exception):
    """An attempt to change or delete a recorded event."""


def era_of(moment) -> int:
    """The era of a moment: its UTC year and month as one number (``202612``)."""
    moment = moment.astimezone(dt.UTC)
    return moment.year * 100 + moment.month


def current_era() -> int:
    """The era a table made now belongs to."""
    return era_of(timezone.now())


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        RUNNING = "running"
        FINISHED = "finished"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=40)
    seats = models.PositiveSmallIntegerField()
    config = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_tables")
    # Money: an ISO currency, and either a chip value (chip games) or a stake per player, in minor units.
    currency = models.CharField(max_length=3, blank=True, default="")
    chip_value = models.BigIntegerField(default=0)
    stake = models.BigIntegerField(default=0)
    # The one timed command the table waits for, valid only while the table is at deadline_version.
    deadline_at = models.DateTimeField(null=True, blank=True)
    deadline_version = models.PositiveIntegerField(null=True, blank=True)
    deadline_command = models.JSONField(null=True, blank=True)
    # A bot is to act at ``version``: written with the version's compare-and-set, so the sweep can
    # find a bot turn that stalled (its message lost) without replaying any table.
    awaits_bot = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The month the table was made in; its events carry it too, and on PostgreSQL the events are
    # partitioned by it (games.partitions), so a table's whole history sits in one partition.
    era = models.PositiveIntegerField(default=current_era, editable=False)

    class Meta:
        indexes = [models.Index(fields=["status", "deadline_at"]), models.Index(fields=["game", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(chip_value__gte=0) & models.Q(stake__gte=0), name="table_money_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.id}"

    def save(self, *args, **kwargs):
        # The version belongs to the event store, which moves it with a compare-and-set
        # (games.store.append); saving a stale instance must not move it back.
        if not self._state.adding and not args and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                field.name for field in self._meta.concrete_fields if not field.primary_key and field.name != "version"
            ]
        super().save(*args, **kwargs)


class Seat(models.Model):
    """A place at a table, held by a person or a bot (``bot`` names the policy)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot = models.CharField(max_length=40, blank=True, default="")
    client_seed = models.CharField(max_length=64, blank=True, default="")
    # The chips a person chose to buy at a game where they choose (``None`` elsewhere, and for bots).
    chips = models.PositiveIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=False) & models.Q(bot=""))
                | (models.Q(user__isnull=True) & ~models.Q(bot="")),
                name="seat_person_or_bot",
            ),
        ]
        ordering = ["table", "number"]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)


class HandSeed(models.Model):
    """The server seed of one hand (CM-5). Made and committed before the hand is dealt, revealed
    (``revealed_at``) when the hand ends; never served before that."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hand_seeds")
    hand_no = models.PositiveIntegerField()
    server_seed = models.BinaryField(max_length=32)
    commitment = models.CharField(max_length=64)
    client_seed = models.CharField(max_length=700, blank=True, default="")
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "hand_no"], name="hand_seed_unique")]


class Event(models.Model):
    """One immutable event. ``hash`` chains it to the table's previous event."""

    # No index of its own: the unique (table, seq) index serves every lookup by table, and one
    # index fewer to maintain makes appending cheaper.
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=60)
    data = models.JSONField(default=dict)
    secret = models.JSONField(default=dict)
    actor = models.CharField(max_length=60)
    hand_no = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # What the hash covers (games.store.HASH_VERSION): 1 for events recorded before created_at was
    # hashed, 2 since. The store sets it; the default is the version older rows were recorded under.
    hash_version = models.PositiveSmallIntegerField(default=1)
    # The table's era, copied from it (the store writes it from the table row it locks): the key
    # of the events' partitions on PostgreSQL. Not hashed: it is a function of the table.
    era = models.PositiveIntegerField()

    class Meta:
        # (table, seq) with the era, which a partitioned table's unique keys must hold; the same
        # constraint, as the era is a function of the table.
        constraints = [models.UniqueConstraint(fields=["table", "seq", "era"], name="event_seq_unique")]
        indexes = [models.Index(fields=["table", "hand_no"])]
        ordering = ["table", "seq"]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableRow("Events are immutable; record a new event instead.")
        if self.era is None:
            self.era = Table.objects.values_list("era", flat=True).get(pk=self.table_id)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableRow("Events are immutable and cannot be deleted.")


class Snapshot(models.Model):
    """The folded state of a table at ``version``, so loading replays only what follows it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="snapshot_version_unique")]


class DetachedEra(models.Model):
    """An era whose events' partition was detached from the events table (``manage.py
    partition_history --detach``): its tables were all finished, and their history now lives in
    the partition's own table, ``partition``, to be archived. The checks pass over these tables."""

    era = models.PositiveIntegerField(primary_key=True)
    partition = models.CharField(max_length=63)
    tables = models.PositiveIntegerField()
    events = models.BigIntegerField()
    detached_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"era {self.era} ({self.partition})"


class CommandRecord(models.Model):
    """The first response to a command sent with an idempotency key, replayed for repeats."""

    key = models.CharField(max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    # Indexed for the purge of records past IDEMPOTENCY_TTL_SECONDS.
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="command_key_unique_per_user")]


class OutboxMessage(models.Model):
    """A task for the worker, stored in the transaction that made it due and published after the
    commit (``games.scheduling``); beat's sweep publishes any the commit could not (``games.outbox``).

    ``key`` names the task and its arguments, so the sweep can find the message of a bot turn that
    stalled and send it again.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    headers = models.JSONField(default=dict)
    key = models.CharField(max_length=200, db_index=True)
    due_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            # The relay reads only the pending rows, oldest first; the purge only the published ones.
            models.Index(
                fields=["created_at"], condition=models.Q(published_at__isnull=True), name="outbox_pending_idx"
            ),
            models.Index(fields=["published_at"], name="outbox_published_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({'published' if self.published_at else 'pending'})"
