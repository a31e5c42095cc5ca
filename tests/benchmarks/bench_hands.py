"""Hand-evaluation benchmark (issue 3): ``high_value`` against treys and PokerKit on the same hands.

Run: ``python tests/benchmarks/bench_hands.py [--hands N]``. Times, in one process and on the same
1,000,000 random 5-card hands (fixed seed): ``high_value`` without wilds, treys' ``evaluate``,
PokerKit's ``StandardHighHand`` (on the first 100,000 hands only, scaled: it is much slower),
``high_value`` on 54-card hands with both jokers and a wild rank (sevens), and the numpy bulk path.
Each timing is the best of a few rounds, taken in turn, because the machine is shared. The module's
import time and memory are measured in a fresh interpreter. The last line is the RESULT line.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
from pokerkit import Card as PkCard  # noqa: E402
from pokerkit import StandardHighHand  # noqa: E402
from treys import Card as TreysCard  # noqa: E402
from treys import Evaluator  # noqa: E402

from games.engine.cards import INDEX, LA_VIUDA_DECK, STANDARD_DECK  # noqa: E402
from games.engine.hands import high_value, high_values, wild_set  # noqa: E402

SEED = 20261129
POKERKIT_HANDS = 100_000
ROUNDS = 5
BULK_REPEATS = 5  # bulk calls are short; more tries per round find the same quiet moments the loops get

TIME_PROBE = """
import os, time
def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
before = resident()
start = time.perf_counter()
import games.engine.hands as hands
loaded = time.perf_counter() - start
after = resident()
start = time.perf_counter()
hands._STANDARD.arrays()
hands._bulk_maps(frozenset())
bulk = time.perf_counter() - start
print(loaded, after - before, bulk)
"""
MEMORY_PROBE = """
import tracemalloc
tracemalloc.start()
import games.engine.hands as hands
_, peak = tracemalloc.get_traced_memory()
hands._STANDARD.arrays()
hands._bulk_maps(frozenset())
_, peak_bulk = tracemalloc.get_traced_memory()
print(peak, peak_bulk)
"""


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def run_ours(hands):
    for hand in hands:
        high_value(hand)


def run_ours_wild(hands, wild):
    for hand in hands:
        high_value(hand, wild)


def run_treys(hands, evaluate):
    board: list[int] = []
    for hand in hands:
        evaluate(hand, board)


def run_pokerkit(hands):
    for hand in hands:
        StandardHighHand(hand)


def probe(code: str) -> list[float]:
    """Run ``code`` in a fresh interpreter at the project root; the numbers it prints."""
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return [float(word) for word in result.stdout.split()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1_000_000)
    count = parser.parse_args().hands
    rng = random.Random(SEED)
    hands = [tuple(rng.sample(STANDARD_DECK, 5)) for _ in range(count)]
    wild_hands = [tuple(rng.sample(LA_VIUDA_DECK, 5)) for _ in range(count)]
    wild = wild_set("7")  # X1, X2 and the four sevens
    treys_hands = [[TreysCard.new(card) for card in hand] for hand in hands]
    pokerkit_count = min(POKERKIT_HANDS, count)
    pokerkit_hands = [list(PkCard.parse("".join(hand))) for hand in hands[:pokerkit_count]]
    bulk = np.array([[INDEX[card] for card in hand] for hand in hands], dtype=np.int64)
    bulk_wild = np.array([[INDEX[card] for card in hand] for hand in wild_hands], dtype=np.int64)
    evaluate = Evaluator().evaluate

    # Same answers first: treys ranks 1 (best) .. 7462, so its order must be ours reversed.
    sample = range(0, count, max(1, count // 20_000))
    ours_sample = [high_value(hands[i]) for i in sample]
    treys_sample = [evaluate(treys_hands[i], []) for i in sample]
    disagreements = sum(
        (a > b) != (c < d) or (a == b) != (c == d)
        for a, b, c, d in zip(ours_sample, ours_sample[1:], treys_sample, treys_sample[1:])
    )
    bulk_check = np.array_equal(high_values(bulk[: len(hands) // 10]), [high_value(h) for h in hands[: count // 10]])
    print(f"hands: {count:,} random 5-card hands, seed {SEED}; order disagreements with treys: {disagreements}")
    print(f"bulk path equals high_value on {count // 10:,} hands: {bulk_check}")

    best: dict[str, float] = {}
    jobs = {
        "high_value": (run_ours, hands),
        "treys": (run_treys, treys_hands, evaluate),
        "high_value wild": (run_ours_wild, wild_hands, wild),
        "bulk": (high_values, bulk),
        "bulk wild": (high_values, bulk_wild, wild),
        "pokerkit": (run_pokerkit, pokerkit_hands),
    }
    for round_no in range(ROUNDS):
        for name, (function, *args) in jobs.items():
            if name == "pokerkit" and round_no:
                continue  # one round is enough for the slow peer
            repeats = BULK_REPEATS if name.startswith("bulk") else 1
            for _ in range(repeats):
                best[name] = min(best.get(name, float("inf")), timed(function, *args))

    rates = {name: (pokerkit_count if name == "pokerkit" else count) / seconds for name, seconds in best.items()}
    treys_rate = rates["treys"]
    notes = {
        "pokerkit": f"(timed on {pokerkit_count:,} hands, rate scaled)",
        "high_value wild": "(54 cards, X1 X2 and sevens wild; ratio to treys without wilds)",
        "bulk wild": "(54 cards, X1 X2 and sevens wild)",
    }
    print(f"{'evaluator':<18}{'hands/s':>14}{'vs treys':>10}")
    for name, rate in rates.items():
        print(f"{name:<18}{rate:>14,.0f}{rate / treys_rate:>9.2f}x {notes.get(name, '')}")

    timing = probe(TIME_PROBE)
    memory = probe(MEMORY_PROBE)
    print(
        f"import games.engine.hands: {timing[0] * 1000:.0f} ms, resident memory +{timing[1] / 2**20:.1f} MB, "
        f"{memory[0] / 2**20:.1f} MB allocated (tracemalloc peak)"
    )
    print(f"bulk tables on first use: {timing[2] * 1000:.0f} ms, {memory[1] / 2**20:.1f} MB allocated in all")
    print(
        f"RESULT high_vs_treys={rates['high_value'] / treys_rate:.2f} "
        f"wild_vs_treys={rates['high_value wild'] / treys_rate:.2f} bulk_vs_treys={rates['bulk'] / treys_rate:.2f}"
    )


if __name__ == "__main__":
    main()
