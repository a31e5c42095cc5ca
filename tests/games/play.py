"""A minimal command loop over the store for tests: load, decide, append, in one transaction."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games import store
from games.engine import registry
from games.engine.decider import Context
from games.engine.fairness import commitment
from games.models import Event, Table


def seed_for(table_id: Any, hand_no: int) -> bytes:
    """A fixed server seed per table and hand, so test games are reproducible."""
    return hashlib.sha256(f"{table_id}:{hand_no}".encode()).digest()


def context_for(table: Table, state: Any) -> Context:
    """The context the service would pass: the next hand's seed and the commitment of the one after."""
    next_hand = state.hand_no + 1
    return Context(
        table_id=str(table.pk),
        hand_no=next_hand,
        server_seed=seed_for(table.pk, next_hand),
        next_commitment=commitment(seed_for(table.pk, next_hand + 1)),
    )


def make_table(game: str = "counter", seats: int = 2, owner_name: str = "owner", **options: Any) -> Table:
    """A table of ``game`` with ``seats`` seats, configured by the game."""
    owner, _ = get_user_model().objects.get_or_create(username=owner_name)
    config = registry.get(game).configure(seats, options)
    return Table.objects.create(game=game, seats=seats, config=config, owner=owner)


def play(table: Table, command: dict[str, Any], actor: str = "system") -> list[Event]:
    """Run one command against the stored table and record its events."""
    decider = registry.get(table.game)
    with transaction.atomic():
        state, version = store.load(table=table, decider=decider)
        records = []
        for event in decider.decide(state, command, context_for(table, state)):
            state = decider.evolve(state, event)
            records.append(store.NewEvent.of(event, actor=actor, hand_no=state.hand_no))
        return store.append(table=table, expected_version=version, records=records)
