"""Five-Card Draw bot against random legal players and against always-call players.

Plays independent hands in the pure engine: each is a fresh cash table (every seat buys in for
BUY_IN chips) played until a hand ends that was not passed (FD-6: a passed deal re-antes into the next, which counts as
part of the same hand). One seat, rotating with the hand's number, is the bot; the others are
either

- random legal players (``tests/rules/playout_draw.random_action``: any legal action, a random
  amount, a random discard), or
- always-call players: they check when they may, else call, and stand pat in the draw (they keep
  what they are dealt, as FD-21's timeout does).

The bot's result of a hand is its chips at the end minus its buy-in. Prints, per table and
opponent, the chips it won per 100 hands with a 95% confidence interval (mean +- 1.96 standard
errors of the per-hand results), the same in forced bets. The main tables (no-limit, ante 1,
anything opens: every deal is a hand) are played six-handed (HANDS per opponent) and heads-up (a
quarter as many); jacks or better (passed deals make a hand long) and triple draw (fixed limit,
blinds) fewer. Hands are played in ``--workers`` processes (default 2); the bot's decision time
(p50, p95, ``time.perf_counter`` around ``bot.choose``) is then measured in this process alone, so
that the other worker does not skew it. The last line is the RESULT line: PASS when every main
table's interval lies above 0.

    python tests/benchmarks/bench_draw_bot.py [HANDS] [--workers N]   # HANDS default 20,000
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.rules.five_card_draw import DECIDER, bot, bot_strength
from games.rules.five_card_draw.events import HandEnded
from games.rules.five_card_draw.state import PASSED, State
from tests.rules.playout_draw import apply, context, new_table, random_action

BUY_IN = 200
MAX_DEALS = 60
CHUNK = 1000

Opponent = Callable[[State, int, random.Random], dict[str, Any]]


def always_call(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """Check, else call; stand pat in the draw."""
    kinds = {option["type"] for option in DECIDER.legal_actions(state, seat)}
    if "draw" in kinds:
        return {"type": "draw", "discard": [], "seat": seat}
    return {"type": "check" if "check" in kinds else "call", "seat": seat}


def one_hand(
    number: int, seats: int, options: dict[str, Any], opponent: Opponent, times: list[float]
) -> tuple[int, int]:
    """One hand from fresh stacks: the bot's chips won (or lost) and the deals it took."""
    rng = random.Random(number)
    tag = f"bench-{seats}-{number}"
    _, state = new_table(seats, options)
    me = number % seats
    buy_ins = dict.fromkeys(range(seats), BUY_IN)
    state, _ = apply(state, {"type": "start"}, tag, buy_ins=buy_ins)
    if state.settings.opening != "jacks_or_better":
        # The table ends with its first hand (no next deal to make); a passed hand (FD-6) would
        # end it too, so jacks or better plays on until a hand is not passed.
        state, _ = apply(state, {"type": "end_table"}, tag)
    deals = 0
    command = _next(state, me, opponent, rng, times)
    while True:
        events = DECIDER.decide(state, command, context(state, tag, buy_ins))
        for event in events:
            state = DECIDER.evolve(state, event)
            if type(event) is HandEnded:
                deals += 1
                assert state.last_hand is not None
                # A hand still passed after MAX_DEALS deals leaves the bot's antes in the pot: lost.
                if state.last_hand.phase != PASSED or deals >= MAX_DEALS:
                    return state.stacks[me] - BUY_IN, deals
        command = _next(state, me, opponent, rng, times)


def _next(state: State, me: int, opponent: Opponent, rng: random.Random, times: list[float]) -> dict[str, Any]:
    """The command of the seat to act: the bot's (timed) or an opponent's."""
    seat = DECIDER.to_act(state)[0]
    if seat != me:
        return opponent(state, seat, rng)
    view = DECIDER.view(state, seat)
    legal = DECIDER.legal_actions(state, seat)
    started = time.perf_counter()
    action = bot.choose(view, legal, rng)
    times.append(time.perf_counter() - started)
    return {**action, "seat": seat}


@dataclasses.dataclass(frozen=True)
class Table:
    """One benchmark table: its seats and options, and the hands played against each opponent."""

    title: str
    seats: int
    options: dict[str, Any]
    hands: int
    unit: int  # the forced bet the win rate is also given in (the ante, or the big blind)
    unit_name: str
    gate: bool  # its intervals' low ends must be above 0


OPPONENTS: dict[str, Opponent] = {"random": random_action, "always-call": always_call}


def chunk(table: Table, label: str, first: int, last: int) -> tuple[list[int], list[float], int]:
    """Hands ``first`` to ``last - 1`` of one table against one opponent: results, bot times, deals."""
    times: list[float] = []
    results: list[int] = []
    deals = 0
    for number in range(first, last):
        won, dealt = one_hand(number, table.seats, table.options, OPPONENTS[label], times)
        results.append(won)
        deals += dealt
    return results, times, deals


def report(label: str, table: Table, results: list[int], times: list[float], deals: int) -> float:
    """Print the bot's win rate with its 95% interval; the interval's low end."""
    mean = statistics.fmean(results)
    error = statistics.stdev(results) / math.sqrt(len(results))
    low, high = 100 * (mean - 1.96 * error), 100 * (mean + 1.96 * error)
    print(
        f"  vs {label:<12} {100 * mean:+8.1f} chips/100 hands, 95% CI [{low:+.1f}, {high:+.1f}]"
        f" ({100 * mean / table.unit:+.1f} {table.unit_name}/100); {len(results)} hands in {deals} deals,"
        f" {len(times)} bot decisions"
    )
    return low


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("hands", nargs="?", type=int, default=20_000, help="hands per opponent at the main table")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()
    hands = args.hands
    stacks = {"min_buy_in": BUY_IN, "max_buy_in": BUY_IN}
    anything = {**stacks, "opening": "anything_opens"}
    triple = {**stacks, "variant": "triple_draw_27", "betting": "fixed_limit"}
    tables = [
        Table("6-handed no-limit, ante 1, anything opens", 6, anything, hands, 1, "antes", True),
        Table("heads-up no-limit, ante 1, anything opens", 2, anything, max(2, hands // 4), 1, "antes", True),
        Table("6-handed no-limit, ante 1, jacks or better", 6, stacks, max(2, hands // 40), 1, "antes", False),
        Table("6-handed triple draw, fixed limit 2/4", 6, triple, max(2, hands // 20), 2, "big blinds", False),
    ]
    jobs = [
        (k, label, first, min(first + CHUNK, table.hands))
        for k, table in enumerate(tables)
        for label in OPPONENTS
        for first in range(0, table.hands, CHUNK)
    ]
    print(
        f"Five-Card Draw bot: one seat (rotating) against 5 or 1 opponents of a kind; independent hands, "
        f"{BUY_IN}-chip stacks each hand; {args.workers} worker process(es)"
    )
    started = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(chunk, tables[k], label, first, last) for k, label, first, last in jobs]
        done = [future.result() for future in futures]
    gathered: dict[tuple[int, str], tuple[list[int], list[float], int]] = {}
    for (k, label, _, _), (results, times, deals) in zip(jobs, done, strict=True):
        total = gathered.setdefault((k, label), ([], [], 0))
        total[0].extend(results)
        total[1].extend(times)
        gathered[(k, label)] = (total[0], total[1], total[2] + deals)
    lows = {}
    for k, table in enumerate(tables):
        print(f"{table.title}: {table.hands} hands per opponent")
        for label in OPPONENTS:
            low = report(label, table, *gathered[(k, label)])
            if table.gate:
                lows[f"{table.seats}max_{label}"] = low
    # Decision times from the pool are skewed by two busy processes sharing the machine; they are
    # measured again here, in this process alone, after the reference tables are built.
    built = time.perf_counter()
    for mode, wild, draws in (("high", "none", 1), ("low27", "none", 3)):
        bot_strength.reference(mode, wild, draws)
    built = time.perf_counter() - built
    times: list[float] = []
    timed = max(2, hands // 40)
    for table in (tables[0], tables[3]):
        for opponent in OPPONENTS.values():
            for number in range(timed):
                one_hand(number, table.seats, table.options, opponent, times)
    times.sort()
    p50 = times[len(times) // 2] * 1000
    p95 = times[int(0.95 * (len(times) - 1))] * 1000
    print(
        f"Bot decision time, alone in this process ({timed} hands per opponent, 6-handed no-limit and triple draw):"
        f" {len(times)} decisions, p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {times[-1] * 1000:.2f} ms;"
        f" reference tables built once in {built:.2f} s; all tables {time.perf_counter() - started:.0f} s"
    )
    verdict = "PASS" if all(low > 0 for low in lows.values()) else "FAIL"
    print(
        "RESULT "
        + " ".join(f"{key}_ci_low={value:+.1f}" for key, value in lows.items())
        + f" bot_p50_ms={p50:.2f} bot_p95_ms={p95:.2f} {verdict}"
    )


if __name__ == "__main__":
    main()
