"""The hash chain of a table's stored events, checked: every way the stored history differs from
what was recorded (``verify_chain``), and the check of a run of rows that the hand audit shares
(``chain_breaks``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from uuid import UUID

from django.db.models import Max

from games.models import Table
from games.store import GENESIS, HASH_VERSION, _events_of, _table_id, event_hash


@dataclasses.dataclass(frozen=True, slots=True)
class ChainProblem:
    """One way a table's stored history differs from what was recorded."""

    seq: int
    what: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.what}"


# What ``chain_breaks`` reads of each stored event, in this order.
CHAIN_FIELDS = ("seq", "type", "hand_no", "actor", "data", "secret", "created_at", "hash_version", "prev_hash", "hash")


def _stored_chain(table: Table | UUID | str) -> Iterator[tuple[Any, ...]]:
    return _events_of(table).order_by("seq").values_list(*CHAIN_FIELDS).iterator(chunk_size=2000)


def verify_chain(table: Table | UUID | str) -> list[ChainProblem]:
    """Every way the table's stored events differ from an intact chain (empty when intact):
    gaps in ``seq``, a ``prev_hash`` that is not the previous event's hash, a ``hash`` that does
    not match the event's contents, and a table version that is not the last ``seq``."""
    table_id = _table_id(table)
    problems = list(chain_breaks(table_id, _stored_chain(table), GENESIS, expect_seq=1))
    last_seq = _events_of(table).aggregate(last=Max("seq"))["last"] or 0
    version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
    if version != last_seq:
        problems.append(ChainProblem(last_seq, f"the table is at version {version} but its last event is {last_seq}"))
    return problems


def chain_breaks(
    table_id: Any, rows: Iterable[Sequence[Any]], previous: str | None, *, expect_seq: int | None = None
) -> Iterator[ChainProblem]:
    """How stored event rows break the hash chain: each row holds ``CHAIN_FIELDS``, in ``seq``
    order; ``previous`` is the hash of the event before the first row (``None`` when that event is
    missing). With ``expect_seq`` (the first row's ``seq``), a row out of sequence is named too. The
    table's check and the hand audit's both use this. An event's hash version never goes down
    along a table: a later event recorded under an earlier version was re-hashed without its time."""
    highest = 1
    for seq, type_name, hand_no, actor, data, secret, created_at, version, stored_prev, stored_hash in rows:
        if expect_seq is not None and seq != expect_seq:
            yield ChainProblem(seq, f"expected seq {expect_seq} here: events are missing or reordered")
        if previous is None:
            yield ChainProblem(seq, "the event before it is missing")
        elif stored_prev != previous:
            yield ChainProblem(seq, "prev_hash is not the hash of the event before it")
        if version not in (1, HASH_VERSION):
            yield ChainProblem(seq, f"hash version {version} is unknown")
        elif version < highest:
            yield ChainProblem(seq, f"hash version {version} after an event of version {highest}")
        highest = max(highest, version)
        hashed_time = created_at if version >= 2 else None
        if event_hash(stored_prev, table_id, seq, type_name, hand_no, actor, data, secret, hashed_time) != stored_hash:
            yield ChainProblem(seq, "hash does not match the event's contents (changed after recording)")
        previous = stored_hash
        if expect_seq is not None:
            expect_seq = seq + 1
