"""The Euchre bot: always legal, bids by strength, samples consistently with what it has seen."""

from __future__ import annotations

import copy
import random

from games.rules.euchre import DECIDER, bot
from games.rules.euchre.cards import effective_suit
from tests.rules.playout_euchre import play_match


def _bot_everywhere(rng):
    def choose(state, seat, legal):
        view = DECIDER.view(state, seat)
        frozen = copy.deepcopy(view)
        action = bot.choose(view, legal, rng)
        assert view == frozen, "the bot must not change its view"
        assert action in legal, (action, legal)
        return action

    return choose


def test_bot_plays_whole_matches_legally_in_every_variant():
    """Four bots finish matches with house rules and cutthroat (EU-15..EU-19), always legally."""
    variants = [
        (4, {}),
        (4, {"stick_the_dealer": True, "no_trump": True, "farmers_hand": True, "ace_no_face": True}),
        (3, {"cutthroat": True, "stick_the_dealer": True}),
        (4, {"cutthroat": True}),
    ]
    for i, (seats, options) in enumerate(variants):
        config = DECIDER.configure(seats, {"target_points": 5, **options})
        state, _ = play_match(DECIDER, config, _bot_everywhere(random.Random(i)), f"bot{i}")
        assert DECIDER.is_finished(state) and state.winners


def _bidding_view(hand, turned="9h", dealer=3, seat=0):
    return {
        "phase": "bidding",
        "seat": seat,
        "seats": 4,
        "dealer": dealer,
        "cutthroat": False,
        "turned_card": turned,
        "hand": hand,
        "bidding_round": 1,
    }


def test_bot_orders_a_strong_trump_hand_and_passes_a_weak_one():
    """Bidding follows the hand's strength in the proposed trump: bowers, trumps, off-suit aces."""
    legal = [{"type": "pass"}, {"type": "order_up", "alone": False}, {"type": "order_up", "alone": True}]
    strong = bot.choose(_bidding_view(["Jh", "Jd", "Ah", "Ac", "9s"]), legal, random.Random(0))
    assert strong["type"] == "order_up"
    weak = bot.choose(_bidding_view(["9c", "Tc", "Qs", "9d", "Td"]), legal, random.Random(0))
    assert weak == {"type": "pass"}
    lone = bot.choose(_bidding_view(["Jh", "Jd", "Ah", "Kh", "Qh"]), legal, random.Random(0))
    assert lone == {"type": "order_up", "alone": True}
    assert bot.hand_strength(["Jh", "Jd", "Ah", "Ac", "9s"], "h") > bot.hand_strength(
        ["9c", "Tc", "Qs", "9d", "Td"], "h"
    )


def test_bot_samples_respect_shown_voids_and_hand_sizes():
    """EU-10: a seat that failed to follow hearts is never dealt a heart (nor the left bower) in
    a sample; samples fill each hand to its size and never hold a seen card."""
    view = {
        "seat": 0,
        "seats": 4,
        "dealer": 3,
        "sitting_out": -1,
        "picked_up": False,
        "turned_card": "Ks",
        "hand": ["Jh", "Ah", "9c", "Tc"],
        "hand_sizes": [4, 4, 4, 4],
        "tricks": [
            {
                "plays": [
                    {"seat": 0, "card": "Kh"},
                    {"seat": 1, "card": "9s"},
                    {"seat": 2, "card": "9h"},
                    {"seat": 3, "card": "Th"},
                ],
                "winner": 0,
            }
        ],
        "trick": [],
    }
    voids = bot._voids(view, "h")
    assert voids == {1: {"h"}}
    seen = {"Jh", "Ah", "9c", "Tc", "Kh", "9s", "9h", "Th", "Ks"}
    rng = random.Random(3)
    for _ in range(200):
        hands = bot._sample_hands(view, "h", voids, rng)
        assert hands is not None and sorted(hands) == [1, 2, 3]
        assert all(len(hands[s]) == 4 for s in (1, 2, 3))
        assert not any(effective_suit(card, "h") == "h" for card in hands[1])
        dealt = [card for s in (1, 2, 3) for card in hands[s]]
        assert len(set(dealt)) == 12 and not set(dealt) & seen


def test_bot_trumps_in_when_its_side_needs_both_last_tricks():
    """Makers with one trick facing an opponent's ace in trick four: only trumping it keeps the
    contract alive, so the bot plays the right bower rather than its low heart."""
    view = {
        "phase": "play",
        "seat": 1,
        "seats": 4,
        "dealer": 3,
        "cutthroat": False,
        "sitting_out": -1,
        "picked_up": False,
        "turned_card": "9d",
        "trump": "s",
        "makers": [1, 3],
        "alone": False,
        "hand": ["Js", "9h"],
        "hand_sizes": [1, 2, 2, 2],
        "tricks_won": [1, 1, 1, 0],
        "tricks": [],
        "trick": [{"seat": 0, "card": "Ac"}],
    }
    legal = [{"type": "play", "card": "Js"}, {"type": "play", "card": "9h"}]
    assert bot.choose(view, legal, random.Random(1)) == {"type": "play", "card": "Js"}
