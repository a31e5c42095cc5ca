"""The widow games' hand histories in players' words (LV-13, WP-5..WP-8): every event of whole
played games has its own line, naming the players and the cards, and no line looks like data."""

from __future__ import annotations

import random

import pytest

from games.engine import hands
from games.engine.cards import parse_hand
from games.engine.words import Text
from games.rules.la_viuda import tiebreak
from games.rules.la_viuda.events import ShowdownHeld
from games.rules.la_viuda.game import DECIDER as LV
from games.rules.whiskey_poker.game import DECIDER as WP
from games.rules.widow.events import ShownHand
from tests.rules.playout_widow import play

NAMES = ["ana", "bruno", "carla", "dora", "elena"]
TABLE = "00000000-0000-0000-0000-0000000000h1"


def _random_player(decider, seed):
    rng = random.Random(seed)

    def choose(state, seat):
        return rng.choice(decider.legal_actions(state, seat))

    return choose


def _lines(decider, config, seed):
    _, events = play(decider, config, _random_player(decider, seed), TABLE)
    return events, [decider.audit.history_line(event, "dealer", NAMES[: config["seats"]]) for event in events]


def _looks_like_data(line: str) -> bool:
    return "=" in line or "{'" in line or "[" in line or "_" in line


@pytest.mark.parametrize("seed", [1, 2])
def test_lv_13_a_whole_game_of_la_viuda_reads_in_words(seed):
    """LV-13: every event of a played La Viuda game (deals, exchanges, knocks, showdowns with their
    tie-breaks, payments, the widow's offer, the end) is a line in words naming the players."""
    config = LV.configure(4, {"chips_per_player": 2})
    events, lines = _lines(LV, config, seed)
    for event, line in zip(events, lines):
        assert isinstance(line, Text), f"{type(event).__name__} has no line of its own"
        assert not _looks_like_data(line), line
    text = "\n".join(lines)
    assert all(name in text for name in NAMES[:4])
    assert "Showdown: " in text and "the worst hand" in text and " of " in text
    assert "seat " not in text


@pytest.mark.parametrize("scoring", ["pot", "loser_pays", "points"])
def test_wp_7_a_whole_match_of_whiskey_poker_reads_in_words(scoring):
    """WP-5, WP-7, WP-8: every event of a played match, in each scoring, is a line in words."""
    config = WP.configure(3, {"scoring": scoring, **({"chips_per_player": 2} if scoring == "pot" else {})})
    events, lines = _lines(WP, config, 3)
    for event, line in zip(events, lines):
        assert isinstance(line, Text), f"{type(event).__name__} has no line of its own"
        assert not _looks_like_data(line), line
    text = "\n".join(lines)
    assert all(name in text for name in NAMES[:3])
    assert "Showdown: " in text and "The match is over" in text
    assert "seat " not in text


def test_lv_7_the_showdown_line_says_each_tie_break_step():
    """LV-7: a showdown with a tie for worst says the tie and every step taken, in order, naming
    the players; what the wild card stands for is said with its hand (CM-14)."""
    wild = hands.wild_set("A")
    cards = {0: parse_hand("Kh Qh 9c 6s 3s"), 1: parse_hand("Kc Qd 9h 6c 3c"), 2: parse_hand("X1 Kd Ks 9d 7h")}
    shown = []
    for seat, held in cards.items():
        value = hands.high_value(held, wild)
        shown.append(ShownHand(seat, held, value, hands.category(value), "", tiebreak.wild_count(held, wild)))
    result = tiebreak.la_viuda_tie_break([(0, cards[0]), (1, cards[1])], wild, [0, 1, 2])
    event = ShowdownHeld("A", tuple(shown), (0, 1), result.steps, result.losers[0])
    line = LV.audit.history_line(event, "dealer", NAMES[:3])
    assert line.startswith("Showdown: ana shows the king of hearts, the queen of hearts, ")
    assert "carla shows the joker, " in line and "the joker stands for the king of " in line
    assert (
        "ana and bruno tie for the worst hand, and the tie-break settles it step by step. Step 1. ana and bruno both hold"
        in line
    )
    assert line.endswith(
        "Step 2. ana's best run is Q-K of hearts and bruno has no run, and the shorter or lower run, or none, makes the worse hand: bruno has the worst hand."
    )
