"""The widow games' bots: legal moves from the view alone, sensible choices, the offer answered."""

from __future__ import annotations

import random

import pytest

from games.rules.la_viuda import bot as lv_bot
from games.rules.la_viuda.cards import wild_rank
from games.rules.la_viuda.events import GameStarted as LVStarted
from games.rules.la_viuda.events import WidowBought
from games.rules.la_viuda.game import DECIDER as LV
from games.rules.whiskey_poker import bot as wp_bot
from games.rules.whiskey_poker.events import GameStarted as WPStarted
from games.rules.whiskey_poker.game import DECIDER as WP
from games.rules.widow.events import FirstDealerDrawn
from tests.rules.playout_widow import play
from tests.rules.widow_helpers import dealt, fold, seeded_tables


def lv_hand(seat2: str, *, chips: int = 3, before=()):
    """Four seats, dealer 3; seat 2 acts first with the hand under test."""
    config = LV.configure(4, {"chips_per_player": chips})
    hands = {0: "Kc Kd 9h 9s 4c", 1: "Qc Qd 8h 8s 5c", 2: seat2, 3: "Jc Jd 7h 7s 6c"}
    given = [
        LVStarted((0, 1, 2, 3), chips, 0, None),
        FirstDealerDrawn(((0, "Kc"), (1, "Qc"), (2, "Jc"), (3, "2s")), 3),
        *before,
        dealt(3, (2, 1, 0, 3), hands, "Th Td 3s 3d 2d", 4, wild_rank=wild_rank(1)),
    ]
    return fold(LV, LV.initial_state(config), given)


def test_lv_6_bot_knocks_on_a_hand_that_is_surely_not_the_worst():
    """LV-6: with five aces (jokers and wild aces) the bot knocks at once."""
    state = lv_hand("X1 X2 Ac Ad Ah")
    action = lv_bot.choose(LV.view(state, 2), LV.legal_actions(state, 2), random.Random(1))
    assert action == {"type": "knock"}


def test_lv_6_bot_takes_the_widow_with_a_hand_likely_the_worst():
    """LV-6: with a hand likely the worst (no pair, no wilds, low) the bot takes the widow unseen."""
    state = lv_hand("2c 4d 6h 8c 9c")
    action = lv_bot.choose(LV.view(state, 2), LV.legal_actions(state, 2), random.Random(1))
    assert action == {"type": "exchange_all"}


def test_lv_8_bot_answers_the_offer_at_once_by_the_prize_against_the_price():
    """LV-8, LV-10: bots decide the offer at once: free La Viuda is always bought; at a price, the
    bot buys only when the prize share on one chip is worth it."""
    view = {"seat": 1, "chips": [3, 0, 3, 3], "out": [False] * 4, "seats": 4, "chips_per_player": 3}
    legal = [{"type": "buy_widow"}, {"type": "decline_widow"}]
    assert lv_bot.choose({**view, "widow_price": 0, "chip_value": 0}, legal, random.Random(1)) == {"type": "buy_widow"}
    priced = {**view, "widow_price": 200, "chip_value": 100}
    assert lv_bot.choose(priced, legal, random.Random(1)) == {"type": "decline_widow"}
    late = {**priced, "chips": [0, 0, 1, 0], "out": [True, False, False, True]}
    assert lv_bot.choose(late, legal, random.Random(1)) == {"type": "buy_widow"}


def test_wx_5_bot_swaps_towards_a_better_hand_in_phase_2():
    """WX-5: with the widow face up the bot swaps a card that improves its hand."""
    state = lv_hand("2c 4d 6h 8c 9c")
    for seat in (2, 1, 0, 3):
        state = fold(LV, state, LV.decide(state, {"type": "pass", "seat": seat}, None))
    assert state.exchange.face_up and state.exchange.widow == ("Th", "Td", "3s", "3d", "2d")
    action = lv_bot.choose(LV.view(state, 2), LV.legal_actions(state, 2), random.Random(1))
    assert action["type"] in ("exchange_one", "exchange_all")


@pytest.mark.parametrize(
    ("seats", "options"),
    [(4, {"chips_per_player": 2}), (3, {"scoring": "loser_pays", "lives": 2}), (5, {"reduced_pack": True})],
)
def test_wp_5_wp_7_wp_8_bots_play_whole_matches_with_legal_moves_only(seats, options):
    """WP-5, WP-7, WP-8: bots alone finish matches in every scoring, choosing only legal moves."""
    config = WP.configure(seats, options)
    rng = random.Random(7)

    def choose(state, seat):
        legal = WP.legal_actions(state, seat)
        action = wp_bot.choose(WP.view(state, seat), legal, rng)
        assert action in legal
        return action

    for table in seeded_tables(3, f"wp-bots-{seats}"):
        state, _ = play(WP, config, choose, table)
        assert state.finished


def test_lv_11_bots_play_la_viuda_to_the_end_with_legal_moves_only():
    """LV-11: five bots finish La Viuda games choosing only legal moves, the offer included."""
    config = LV.configure(5, {"chip_value": 100, "currency": "MXN"})
    rng = random.Random(5)

    def choose(state, seat):
        legal = LV.legal_actions(state, seat)
        action = lv_bot.choose(LV.view(state, seat), legal, rng)
        assert action in legal
        return action

    for table in seeded_tables(3, "lv-bots"):
        state, events = play(LV, config, choose, table)
        assert state.finished and sum(1 for e in events if type(e) is WidowBought) <= 1


def test_wp_9_a_bot_needs_nothing_but_the_view():
    """WP-9: the bot's choice depends only on the view (the same view gives the same move)."""
    config = WP.configure(3, {"scoring": "points"})
    given = [
        WPStarted((0, 1, 2), "points", 0, 0, None),
        FirstDealerDrawn(((0, "2c"),), 2),
        dealt(2, (0, 1, 2), {0: "2c 5d 7h 9s Jc", 1: "Ah Kh Qh Jh 9h", 2: "8s 8h 8d Ks Kd"}, "3c 3d 4h 4s 6c", 3),
    ]
    state = fold(WP, WP.initial_state(config), given)
    view = WP.view(state, 0)
    first = wp_bot.choose(view, WP.legal_actions(state, 0), random.Random(3))
    again = wp_bot.choose(dict(view), WP.legal_actions(state, 0), random.Random(3))
    assert first == again and first in WP.legal_actions(state, 0)
