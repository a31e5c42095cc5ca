"""Guerra Chevichona benchmark (issue 6): full matches per second in the pure engine, and replay.

Run: ``python tests/benchmarks/bench_guerra.py [--matches N]``. Plays N seeded 4-player matches
with the English deck through ``decide`` and ``evolve`` as the service would (the state folded
after every command), two ways: ``auto_play`` (one ``play_round`` command per round) and every
player sending ``throw`` (four commands per round). Then replays the recorded events: folded with
``evolve`` alone, and from stored JSON (``encode_event`` -> JSON -> ``decode_event`` -> ``evolve``).
Each timing is the best of a few rounds because the machine is shared. The last line is the
RESULT line.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import msgspec  # noqa: E402

from games.engine.codec import decode_event, encode_event  # noqa: E402
from games.engine.decider import Context, event_types_by_name  # noqa: E402
from games.rules.guerra import DECIDER  # noqa: E402
from games.rules.guerra.events import RoundTaken  # noqa: E402

SEATS = 4
ROUNDS = 5


def play(i: int, auto_play: bool) -> list[Any]:
    """One seeded match to its end; its events."""
    config = DECIDER.configure(SEATS, {"auto_play": auto_play})
    ctx = Context(
        table_id=f"00000000-0000-0000-0000-{i:012d}",
        hand_no=1,
        server_seed=hashlib.sha256(f"bench{i}".encode()).digest(),
        client_seed="|" * (SEATS - 1),
        next_commitment="next",
    )
    state = DECIDER.initial_state(config)
    history: list[Any] = []
    command: dict[str, Any] = {"type": "start"}
    while True:
        events = DECIDER.decide(state, command, ctx)
        for event in events:
            state = DECIDER.evolve(state, event)
        history += events
        if state.finished:
            return history
        command = {"type": "play_round"} if auto_play else {"type": "throw", "seat": DECIDER.to_act(state)[0]}


def best(fn: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest of ROUNDS runs, and the last result."""
    times = []
    result = None
    for _ in range(ROUNDS):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    n = parser.parse_args().matches

    auto_time, auto_matches = best(lambda: [play(i, True) for i in range(n)])
    throw_time, throw_matches = best(lambda: [play(i, False) for i in range(n)])
    auto_events = sum(len(m) for m in auto_matches)
    throw_events = sum(len(m) for m in throw_matches)
    rounds = sum(isinstance(event, RoundTaken) for events in auto_matches for event in events)
    print(f"{n} matches, 4 players, English deck: {rounds / n:.0f} rounds and {auto_events / n:.0f} events a match")
    print(f"simulate, auto_play:        {n / auto_time:8.1f} matches/s  ({auto_events / auto_time:9.0f} events/s)")
    print(f"simulate, a throw per seat: {n / throw_time:8.1f} matches/s  ({throw_events / throw_time:9.0f} events/s)")

    config = DECIDER.configure(SEATS, {})

    def fold() -> int:
        for events in throw_matches:
            state = DECIDER.initial_state(config)
            for event in events:
                state = DECIDER.evolve(state, event)
        return 0

    stored = [msgspec.json.encode([encode_event(event) for event in events]) for events in throw_matches]
    types = event_types_by_name(DECIDER)

    def from_json() -> int:
        for blob in stored:
            state = DECIDER.initial_state(config)
            for name, data, secret in msgspec.json.decode(blob):
                state = DECIDER.evolve(state, decode_event(types, name, data, secret))
        return 0

    fold_time, _ = best(fold)
    json_time, _ = best(from_json)
    print(f"replay, evolve only:        {throw_events / fold_time:9.0f} events/s")
    print(f"replay, from stored JSON:   {throw_events / json_time:9.0f} events/s")
    print(
        f"RESULT guerra matches_per_s={n / auto_time:.1f} matches_per_s_throws={n / throw_time:.1f} "
        f"replay_events_per_s={throw_events / fold_time:.0f} replay_json_events_per_s={throw_events / json_time:.0f}"
    )


if __name__ == "__main__":
    main()
