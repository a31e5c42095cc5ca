"""A small pure loop that plays a game from its start command, for tests and benchmarks.

The caller chooses each move (``choose(state, seat) -> action``); the loop adds the seat, builds the
context the service would pass (the next hand's seed, derived here from the table id and hand
number so a playout is repeatable) and folds the events.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from games.engine import fairness
from games.engine.decider import Context, Decider


def hand_seed(table_id: str, hand_no: int) -> bytes:
    """A repeatable stand-in for the service's secret seed of a hand."""
    return hashlib.sha256(f"{table_id}:{hand_no}".encode()).digest()


def context(table_id: str, hand_no: int, seats: int, extra: Mapping[str, Any] | None = None) -> Context:
    """The context the service passes for a command when the next hand to deal is ``hand_no``."""
    return Context(
        table_id=table_id,
        hand_no=hand_no,
        server_seed=hand_seed(table_id, hand_no),
        client_seed="|" * (seats - 1),
        next_commitment=fairness.commitment(hand_seed(table_id, hand_no + 1)),
        extra=dict(extra or {}),
    )


def play(
    decider: Decider,
    config: Mapping[str, Any],
    choose: Callable[[Any, int], dict[str, Any]],
    table_id: str,
    *,
    max_commands: int = 100_000,
    extra: Callable[[Any], Mapping[str, Any]] | None = None,
    on_event: Callable[[Any, Any, Any], None] | None = None,
) -> tuple[Any, list[Any]]:
    """Play from the start command until the game ends; return the final state and every event.

    ``on_event(state_before, event, state_after)`` sees each event as it is folded.
    """
    state = decider.initial_state(config)
    history: list[Any] = []
    command: dict[str, Any] = {"type": "start"}
    for _ in range(max_commands):
        ctx = context(table_id, state.hand_no + 1, config["seats"], extra(state) if extra else None)
        for event in decider.decide(state, command, ctx):
            after = decider.evolve(state, event)
            if on_event is not None:
                on_event(state, event, after)
            history.append(event)
            state = after
        if decider.is_finished(state):
            return state, history
        waiting = decider.to_act(state)
        if not waiting:
            raise RuntimeError("the game waits for nobody but has not finished")
        seat = waiting[0]
        command = {**choose(state, seat), "seat": seat}
    raise RuntimeError(f"no end after {max_commands} commands")
