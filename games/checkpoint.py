"""Checkpoints of the chain heads: the hash chain anchored outside the database.

The hash chain proves a table's events unchanged only against someone who cannot rewrite the whole
chain: an insider with the table owner's rights can change an event and recompute every hash after
it, and every internal check passes. A checkpoint (each table's last ``seq`` and its ``hash``, and a
digest over all of them) published somewhere that insider cannot write pins the chains as they were:
a table whose event at the checkpointed ``seq`` no longer has the checkpointed hash was rewritten.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from django.db.models import F
from django.utils import timezone

from games import chain, partitions, store
from games.models import Event
from ledger.times import rfc3339

FORMAT = "gameledger-checkpoint/1"


def digest(heads: list[dict[str, Any]]) -> str:
    """sha256 of the canonical JSON of the heads, as hex (the file's own integrity)."""
    return hashlib.sha256(store.canonical_json(heads).encode()).hexdigest()


def take() -> dict[str, Any]:
    """The checkpoint now: every table with events, by id, with its last seq and hash."""
    rows = Event.objects.filter(seq=F("table__version")).order_by("table_id").values_list("table_id", "seq", "hash")
    heads = [{"table": str(table_id), "seq": seq, "hash": digest_} for table_id, seq, digest_ in rows]
    return {"format": FORMAT, "taken_at": rfc3339(timezone.now()), "tables": heads, "digest": digest(heads)}


def differences(checkpoint: Any) -> Iterator[str]:
    """Every way the database differs from ``checkpoint``, one line each naming the table; none
    when every checkpointed head is still in place and its table's chain leads to it intact."""
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        yield f"not a checkpoint of format {FORMAT}"
        return
    heads = checkpoint.get("tables")
    if not isinstance(heads, list) or digest(heads) != checkpoint.get("digest"):
        yield "the checkpoint's digest does not match its tables: the file itself was changed"
        return
    # A detached era's events are no longer in the events table: its heads are checked once the
    # partition is attached again (docs/operations.md, "The events' partitions").
    archived = partitions.archived_table_ids()
    for head in heads:
        if head.get("table") not in archived:
            yield from _head_differences(head)


def _head_differences(head: dict[str, Any]) -> Iterator[str]:
    table_id, seq, expected = head.get("table"), head.get("seq"), head.get("hash")
    found = Event.objects.filter(table_id=table_id, seq=seq).values_list("hash", flat=True).first()
    if found is None:
        yield f"table {table_id}: event {seq} of the checkpoint is missing"
    elif found != expected:
        yield f"table {table_id}: event {seq} hashes to {found}, the checkpoint recorded {expected} (history rewritten)"
    for problem in chain.verify_chain(table_id):
        if problem.seq <= seq:
            yield f"table {table_id}: {problem}"
