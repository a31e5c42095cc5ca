"""A person's action at a running table: open the unit, the gate, execute, answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import idempotency, selectors
from games.play import gate, unit
from games.play.execute import execute


def act(
    *,
    table_id,
    user: AbstractBaseUser,
    action: Mapping[str, Any],
    expected_version: int,
    idempotency_key: str | None = None,
) -> tuple[int, dict[str, Any], bool]:
    """A player's action at their seat. Returns ``(status, response, replayed)``: the new version,
    the caller's view of the events appended and of the table. With an idempotency key, the same
    key and body return the first response (``games.idempotency``, stored in the same
    transaction; ``replayed`` is then true), looked up under the table's lock so two twins at one
    table are served one after the other; a different body is refused. The record is read in the
    lock's own statement: a twin that committed while this one waited for the lock moved the
    table past the request's version, and then the record is looked up again (``Keyed.replay``)."""
    record = idempotency.record_read(user, idempotency_key)
    with transaction.atomic():
        # The key's record is read with the table's lock, in its statement.
        locked = unit.open_table(table_id, reads=() if record is None else (record,))
        request = {"action": dict(action), "expected_version": expected_version, "table": str(locked.table.pk)}
        keyed = idempotency.keyed(user=user, key=idempotency_key, request=request)
        read = locked.read_with[0] if locked.read_with else idempotency.NOT_READ
        replay = keyed.replay(read, moved=locked.table.version != expected_version)
        if replay is not None:
            return replay
        seat, command, offered = gate.command_of(locked, user, action, expected_version)
        if gate.at_any_version(locked, action):
            expected_version = locked.table.version
        actor = f"user:{user.pk}"
        outcome = execute(locked, command, expected_version=expected_version, actor=actor, offered=offered)
        response = selectors.action_result(outcome, seat, viewer=user)
        keyed.keep(200, response, locked.table)
        return 200, response, False
