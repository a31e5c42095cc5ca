"""Euchre bots against two kinds of opponents, and how long a bot takes to decide.

    python tests/benchmarks/bench_bots_euchre.py [--matches 2000] [--opponents random,rules]

A team of two bots (seats 0 and 2, or 1 and 3 on odd matches) plays whole matches to 10 points
against two random legal players, then against two rule-based players (highest legal card when
leading or when it can win, lowest when it cannot; bid with three trumps or more). Targets (issue
7): more than 95% of matches won against random, more than 60% against rule-based, a decision
under 100 ms at the 95th percentile (printed over every bot decision, and over the play
decisions with more than one legal card, where the sampling runs). 2,000 matches against each
opponent took 9-12 minutes on the shared 2-core development machine.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from games.engine import presence
from games.rules.euchre import DECIDER, bot
from games.rules.euchre.cards import effective_suit, low_key, trick_power
from tests.rules.playout_euchre import next_context


def random_player(view, legal, rng):
    return rng.choice(legal)


def _trumps(hand, suit):
    return sum(1 for card in hand if effective_suit(card, suit) == suit)


def rules_player(view, legal, rng):
    """Highest legal card when leading or able to win, lowest when it cannot; bids with 3 trumps."""
    hand = view["hand"]
    kinds = {action["type"] for action in legal}
    if view["phase"] == "claims":
        return {"type": "keep_hand"}
    if view["phase"] == "bidding":
        bids = [a for a in legal if a["type"] in ("order_up", "pick_up", "name_trump") and not a.get("alone")]
        scored = [(_trumps(hand, a.get("suit") or view["turned_card"][1]), a) for a in bids]
        if scored:
            count, best = max(scored, key=lambda item: item[0])
            if count >= 3 or "pass" not in kinds:
                return best
        return {"type": "pass"} if "pass" in kinds else legal[0]
    trump = view["trump"]
    cards = [action["card"] for action in legal]
    if view["phase"] == "discard":
        return {"type": "discard", "card": min(cards, key=lambda c: low_key(c, trump))}
    highest = max(cards, key=lambda c: low_key(c, trump))
    trick = view["trick"]
    if not trick:
        return {"type": "play", "card": highest}
    led = effective_suit(trick[0]["card"], trump)
    best = max(trick_power(p["card"], trump, led) for p in trick)
    if trick_power(highest, trump, led) > best:
        return {"type": "play", "card": highest}
    return {"type": "play", "card": min(cards, key=lambda c: low_key(c, trump))}


def play(match_no, opponent, config, timings):
    rng = random.Random(f"bench:{opponent.__name__}:{match_no}")
    tag = f"bench:{opponent.__name__}:{match_no}"
    bots = (0, 2) if match_no % 2 == 0 else (1, 3)
    state = DECIDER.initial_state(config)
    for event in DECIDER.decide(state, {"type": "start"}, next_context(state, tag)):
        state = DECIDER.evolve(state, event)
    while not DECIDER.is_finished(state):
        (seat,) = DECIDER.to_act(state)
        # The seat's moves; sitting out, sitting in and leaving are no player's strategy (CM-20).
        legal = [a for a in DECIDER.legal_actions(state, seat) if not presence.is_presence_action(a)]
        if seat in bots:
            started = time.perf_counter()
            action = bot.choose(DECIDER.view(state, seat), legal, rng)
            elapsed = time.perf_counter() - started
            timings["all"].append(elapsed)
            if state.phase == "play" and len(legal) > 1:
                timings["card choices"].append(elapsed)
        else:
            action = opponent(DECIDER.view(state, seat), legal, rng)
        for event in DECIDER.decide(state, {**action, "seat": seat}, next_context(state, tag)):
            state = DECIDER.evolve(state, event)
    return bots[0] in state.winners, state.hand_no


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--opponents", default="random,rules")
    args = parser.parse_args()
    config = DECIDER.configure(4, {})
    opponents = {"random": random_player, "rules": rules_player}
    timings: dict[str, list[float]] = {"all": [], "card choices": []}
    for name in args.opponents.split(","):
        opponent = opponents[name]
        started = time.perf_counter()
        wins = hands = 0
        for match_no in range(args.matches):
            won, hand_count = play(match_no, opponent, config, timings)
            wins += won
            hands += hand_count
        elapsed = time.perf_counter() - started
        rate = wins / args.matches
        margin = 1.96 * math.sqrt(rate * (1 - rate) / args.matches)
        print(
            f"bots vs {name}: won {wins}/{args.matches} matches = {100 * rate:.1f}% (±{100 * margin:.1f}), "
            f"{hands / args.matches:.1f} hands a match, {elapsed:.0f} s"
        )
    for kind, seconds in timings.items():
        ms = [t * 1000 for t in seconds]
        print(
            f"bot decision ({kind}): {len(ms)} decisions, p50 {statistics.median(ms):.2f} ms, "
            f"p95 {percentile(ms, 0.95):.2f} ms, max {max(ms):.1f} ms"
        )


if __name__ == "__main__":
    main()
