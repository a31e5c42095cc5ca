"""La Viuda bots against random legal players, and replay speed of La Viuda event streams.

Plays GAMES simulated La Viuda games at 5 seats in the pure engine: two seats (rotating) are
bots, three pick uniformly among their legal actions. Prints the chips each kind of player pays
per hand played (the bot should pay clearly less), games won, the bots' decision time (p50, p95;
target p95 < 50 ms), and how fast the recorded event streams replay (target >= 100,000 events/s).

    python tests/benchmarks/bench_bots_viuda.py [GAMES]
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.rules.la_viuda import bot as bot
from games.rules.la_viuda.events import WorstHandPaid
from games.rules.la_viuda.game import DECIDER as LV
from games.rules.whiskey_poker import bot as wp_bot
from games.rules.whiskey_poker.events import GameEnded as WPEnded
from games.rules.whiskey_poker.game import DECIDER as WP
from games.rules.widow.bot import random_legal
from games.rules.widow.events import HandStarted
from tests.rules.playout_widow import play

SEATS = 5


def simulate(games: int) -> tuple[dict[str, list[int]], list[float], list[list]]:
    """Play the games; per kind of player: chips paid, hands played, games won; bot times; streams."""
    config = LV.configure(SEATS, {})
    tally = {"bot": [0, 0, 0], "random": [0, 0, 0]}
    times: list[float] = []
    streams = []
    for number in range(games):
        bots = {number % SEATS, (number + 2) % SEATS}
        rng = random.Random(number)

        def choose(state, seat, bots=bots, rng=rng):
            legal = LV.legal_actions(state, seat)
            if seat not in bots:
                return random_legal(legal, rng)
            view = LV.view(state, seat)
            started = time.perf_counter()
            action = bot.choose(view, legal, rng)
            times.append(time.perf_counter() - started)
            return action

        def watch(before, event, after, bots=bots):
            if type(event) is HandStarted:
                for seat in event.order:
                    tally["bot" if seat in bots else "random"][1] += 1
            elif type(event) is WorstHandPaid:
                tally["bot" if event.seat in bots else "random"][0] += 1

        table = f"00000000-0000-4000-8000-{number:012d}"
        state, events = play(LV, config, choose, table, on_event=watch)
        tally["bot" if state.winner in bots else "random"][2] += 1
        streams.append(events)
    return tally, times, streams


def replay_speed(streams: list[list]) -> tuple[int, float]:
    """Events replayed per second by the pure engine (``evolve`` folded over each stream)."""
    config = LV.configure(SEATS, {})
    initial = LV.initial_state(config)
    total = sum(len(events) for events in streams)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for events in streams:
            functools.reduce(LV.evolve, events, initial)
        best = min(best, time.perf_counter() - started)
    return total, total / best


def whiskey_poker(games: int, seats: int = 4) -> dict[str, list[int]]:
    """Whiskey Poker, pot scoring, 3 chips each: two bots against two random legal players.
    Per kind of player: chips held at the end (cashed out), chips bought, matches won."""
    config = WP.configure(seats, {"chips_per_player": 3})
    tally = {"bot": [0, 0, 0], "random": [0, 0, 0]}
    for number in range(games):
        bots = {number % seats, (number + 1) % seats}
        rng = random.Random(number)

        def choose(state, seat, bots=bots, rng=rng):
            legal = WP.legal_actions(state, seat)
            if seat not in bots:
                return random_legal(legal, rng)
            return wp_bot.choose(WP.view(state, seat), legal, rng)

        _, events = play(WP, config, choose, f"00000000-0000-4000-9000-{number:012d}")
        ended = events[-1]
        assert type(ended) is WPEnded
        for seat in range(seats):
            kind = "bot" if seat in bots else "random"
            tally[kind][0] += ended.cash_out[seat]
            tally[kind][1] += 3
            tally[kind][2] += seat in ended.winners
    return tally


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    started = time.perf_counter()
    tally, times, streams = simulate(games)
    elapsed = time.perf_counter() - started
    print(f"La Viuda, {games} games at {SEATS} seats (2 bots, 3 random legal players per game), {elapsed:.1f} s")
    for kind, (paid, hands_played, won) in tally.items():
        seats = 2 if kind == "bot" else 3
        print(
            f"  {kind:>6}: chips lost per hand played {paid / hands_played:.3f} "
            f"({paid} chips in {hands_played} seat-hands); games won {won} ({won / games / seats:.1%} per seat)"
        )
    times.sort()
    p50 = statistics.median(times) * 1000
    p95 = times[int(0.95 * (len(times) - 1))] * 1000
    print(f"  bot decisions: {len(times)}, p50 {p50:.2f} ms, p95 {p95:.2f} ms (target p95 < 50 ms)")
    total, speed = replay_speed(streams)
    print(f"  replay: {total} events in {len(streams)} streams, {speed:,.0f} events/s (target >= 100,000)")
    matches = max(1, games // 10)
    wp = whiskey_poker(matches)
    print(f"Whiskey Poker (pot scoring, 3 chips each), {matches} matches at 4 seats, 2 bots and 2 random players")
    for kind, (cashed, bought, won) in wp.items():
        print(f"  {kind:>6}: cashed out {cashed} of {bought} chips bought ({cashed / bought:.2f} per chip); won {won}")
    bot_rate = tally["bot"][0] / tally["bot"][1]
    random_rate = tally["random"][0] / tally["random"][1]
    print(
        f"RESULT bot_loss_rate={bot_rate:.3f} random_loss_rate={random_rate:.3f} "
        f"bot_p95_ms={p95:.2f} replay_events_per_s={speed:.0f}"
    )


if __name__ == "__main__":
    main()
