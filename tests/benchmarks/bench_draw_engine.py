"""Five-Card Draw engine benchmark: our engine's hands per second against PokerKit's state machine.

Run: ``python tests/benchmarks/bench_draw_engine.py [--hands N]``. N seeded six-handed no-limit
hands of standard five-card draw (random antes or blinds, stacks and actions, as in
``tests/rules/test_draw_pokerkit.py``) are played once through our engine and recorded, untimed:
the commands with their contexts, and the PokerKit operations that replay the same hand (same
forced bets, stacks, cards and actions; ``tests/rules/pokerkit_draw.py``). Then, in one process,
each engine replays every hand:

- ours: ``decide`` and ``evolve`` of the recorded commands from a fresh table, the ``start``
  (buy-ins, first button, the deal) to the action that ends the hand (whose command also settles
  the pots and, as the service would, deals the next hand);
- PokerKit: a fresh ``State`` (forced bets posted), the deal, every action and draw, and its own
  showdown and chips pushing.

Each timing is the best of a few rounds of CPU time, the two engines taken in turn, because the
machine is shared. The last line is the RESULT line.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from games.engine.decider import Context  # noqa: E402
from games.rules.five_card_draw import DECIDER  # noqa: E402
from games.rules.five_card_draw.events import PotsAwarded  # noqa: E402
from games.rules.five_card_draw.state import State  # noqa: E402
from tests.rules.playout_draw import context  # noqa: E402
from tests.rules.pokerkit_draw import Hand, Op, random_table, record, replay, run_pokerkit  # noqa: E402

SEATS = 6
ROUNDS = 5


def prepare(n: int) -> tuple[list[tuple[Hand, dict[str, Any], list[tuple[dict[str, Any], Context]]]], list[list[Op]]]:
    """The recorded hands: each one's table config and commands with contexts (checked to replay
    the same hand), and PokerKit's operations for it."""
    ours = []
    theirs = []
    for seed in range(n):
        hand = record(random_table(random.Random(f"bench-{seed}"), "no_limit", seats=SEATS), seed)
        config = DECIDER.configure(SEATS, hand.table.options)
        buy_ins = dict(enumerate(hand.table.stacks))
        start = context(DECIDER.initial_state(config), hand.tag, buy_ins)
        # Every command after the start has the context of the hand after it (the same throughout).
        later = context(_started(config, start), hand.tag, buy_ins)
        commands = [({"type": "start"}, start)] + [(step.command, later) for step in hand.steps]
        ours.append((hand, config, commands))
        theirs.append(replay(hand).ops)
        state, awarded = DECIDER.initial_state(config), []
        for command, ctx in commands:
            events = DECIDER.decide(state, command, ctx)
            for event in events:
                state = DECIDER.evolve(state, event)
            awarded += [event for event in events if isinstance(event, PotsAwarded)]
        assert awarded == [hand.awarded], f"hand {seed} does not replay as recorded"
    return ours, theirs


def _started(config: dict[str, Any], ctx: Context) -> State:
    state = DECIDER.initial_state(config)
    for event in DECIDER.decide(state, {"type": "start"}, ctx):
        state = DECIDER.evolve(state, event)
    return state


def best(*runs: Callable[[], Any]) -> list[float]:
    """The shortest of ROUNDS timings of each run, the runs taken in turn within each round. The
    time is the process's CPU time: the machine is shared, and a neighbour's load would otherwise
    land on whichever engine happened to be running."""
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(ROUNDS):
        for run, spent in zip(runs, times, strict=True):
            start = time.process_time()
            run()
            spent.append(time.process_time() - start)
    return [min(spent) for spent in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    n = parser.parse_args().hands
    # PokerKit warns about a fold with nothing to call (its cash-game mode allows it) and about a
    # card it would not have dealt itself (a reshuffled one, FD-8): neither is of interest here.
    warnings.simplefilter("ignore")
    ours, theirs = prepare(n)
    hands = [hand for hand, _, _ in ours]

    def run_ours() -> None:
        for _, config, commands in ours:
            state = DECIDER.initial_state(config)
            for command, ctx in commands:
                for event in DECIDER.decide(state, command, ctx):
                    state = DECIDER.evolve(state, event)

    def run_theirs() -> None:
        for hand, ops in zip(hands, theirs, strict=True):
            run_pokerkit(hand, ops)

    our_time, their_time = best(run_ours, run_theirs)
    decisions = sum(sum(step.offer is not None for step in hand.steps) for hand in hands)
    draws = sum(len(hand.steps) for hand in hands) - decisions
    print(f"{n} six-handed no-limit hands: {decisions / n:.1f} betting actions and {draws / n:.1f} draws a hand")
    print(f"ours:     {n / our_time:8.0f} hands/s")
    print(f"PokerKit: {n / their_time:8.0f} hands/s")
    print(f"ratio:    {their_time / our_time:8.2f} (ours / PokerKit's hands per second)")
    print(
        f"RESULT draw_engine ours_hands_per_s={n / our_time:.0f} pokerkit_hands_per_s={n / their_time:.0f} "
        f"ratio={their_time / our_time:.2f}"
    )


if __name__ == "__main__":
    main()
