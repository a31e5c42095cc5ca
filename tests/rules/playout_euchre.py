"""A small pure loop that drives a Decider the way the service does, for tests and benchmarks.

Seeds are derived from a tag (``sha256(f"{tag}:{hand_no}")``), so a playout is reproducible; the
context always carries the seed of the next hand to be dealt, as the service's does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from games.engine import presence
from games.engine.decider import Context, Decider
from games.engine.fairness import commitment

FAKE_TABLE_ID = "00000000-0000-0000-0000-0000000000e7"

Chooser = Callable[[Any, int, list[dict[str, Any]]], dict[str, Any]]


def hand_seed(tag: str, hand_no: int) -> bytes:
    """The server seed of hand ``hand_no`` in the playout named ``tag``."""
    return hashlib.sha256(f"{tag}:{hand_no}".encode()).digest()


def next_context(state: Any, tag: str, client_seed: str = "", table_id: str = FAKE_TABLE_ID) -> Context:
    """The context for the next command: the seed and commitments of the next hand to be dealt."""
    hand_no = state.hand_no + 1
    return Context(
        table_id=table_id,
        hand_no=hand_no,
        server_seed=hand_seed(tag, hand_no),
        client_seed=client_seed,
        next_commitment=commitment(hand_seed(tag, hand_no + 1)),
    )


def step(decider: Decider, state: Any, command: dict[str, Any], tag: str) -> tuple[Any, list[Any]]:
    """Decide ``command`` and fold its events: the new state and the events."""
    events = decider.decide(state, command, next_context(state, tag))
    for event in events:
        state = decider.evolve(state, event)
    return state, events


def play_match(
    decider: Decider, config: dict[str, Any], choose: Chooser, tag: str, max_commands: int = 100_000
) -> tuple[Any, list[Any]]:
    """Start a table and let ``choose(state, seat, legal)`` act for whoever is awaited until the
    game ends; the final state and every event in order. ``legal`` holds the seat's moves, not
    sitting out, sitting in or leaving (CM-20), which a playout never means to choose."""
    state, log = step(decider, decider.initial_state(config), {"type": "start"}, tag)
    for _ in range(max_commands):
        if decider.is_finished(state):
            return state, log
        (seat,) = decider.to_act(state)
        moves = [action for action in decider.legal_actions(state, seat) if not presence.is_presence_action(action)]
        action = choose(state, seat, moves)
        state, events = step(decider, state, {**action, "seat": seat}, tag)
        log += events
    raise RuntimeError(f"Playout {tag} did not finish in {max_commands} commands.")
