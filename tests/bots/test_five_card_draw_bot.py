"""The Five-Card Draw bot: sensible draws per variant, betting by strength and pot odds, and always
a legal action from its own view (FD-4, FD-6, FD-7, FD-14, FD-15, FD-17, FD-19, FD-21)."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from games.rules.five_card_draw import DECIDER, bot, bot_draws
from games.rules.five_card_draw.cards import pack, wild_cards
from games.rules.five_card_draw.state import State
from tests.rules.playout_draw import apply, new_table, play, random_action

TAG = "bot"


def deal(seats: int, hands: list[str], options: dict[str, Any] | None = None, stock: str = "") -> State:
    """Hand 1 of a fresh table, ``hands[i]`` held by the i-th player from the button's left (the
    first to act with antes); the stock starts with ``stock``."""
    config, state = new_table(seats, options)
    state, _ = apply(state, {"type": "start"}, TAG, buy_ins=dict.fromkeys(range(seats), 200))
    hand = state.hand
    assert hand is not None
    held: list[tuple[str, ...]] = [()] * seats
    for seat, text in zip(hand.players, hands, strict=True):
        held[seat] = tuple(text.split())
    used = {card for cards in held for card in cards}
    top = stock.split()
    rest = [card for card in pack(config["wild"]) if card not in used and card not in top]
    return dataclasses.replace(state, hand=dataclasses.replace(hand, cards=tuple(held), stock=(*top, *rest)))


def act(state: State, *commands: dict[str, Any]) -> State:
    """Each command by the seat to act."""
    for command in commands:
        state, _ = apply(state, {**command, "seat": DECIDER.to_act(state)[0]}, TAG)
    return state


def bot_action(state: State, seed: int = 1) -> dict[str, Any]:
    seat = DECIDER.to_act(state)[0]
    legal = DECIDER.legal_actions(state, seat)
    action = bot.choose(DECIDER.view(state, seat), legal, random.Random(seed))
    assert bot.is_legal(action, legal), (action, legal)
    return action


def discards(hand: str, mode: str = bot_draws.HIGH, wild: str = "none", draws_left: int = 1, most: int = 3) -> set[str]:
    options = [{"type": "draw", "min": 0, "max": most}]
    return set(bot_draws.plan(hand.split(), mode, wild_cards(wild), draws_left, options)["discard"])


# --- draws (FD-7, FD-14, FD-15, FD-17) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "thrown"),
    [
        ("Kh Kd 7c 4s 2h", "7c 4s 2h"),  # a pair: draw three
        ("Kh Kd 7c 7s 2h", "2h"),  # two pair: draw one
        ("9h 9d 9c 4s 2h", "4s 2h"),  # trips: draw two
        ("Ah 9h 6h 3h Kc", "Kc"),  # a four-flush
        ("5c 6d 7h 8s Kd", "Kd"),  # an open-ended straight draw
        ("4h 4d 9h 6h 2h", "4d"),  # a small pair breaks for a four-flush...
        ("Jh Jd 9h 6h 2h", "9h 6h 2h"),  # ...a pair of jacks does not
        ("9c Td Jh Qs Ks", ""),  # a straight stands pat
        ("2h 7h 9h Jh Kh", ""),  # a flush stands pat
        ("Ac Kd 9h 6s 2c", "9h 6s 2c"),  # no pair: keep ace-king
        ("Jc 9d 7h 4s 2c", "7h 4s 2c"),  # nothing at all: keep the two highest
        ("Ac Kd Qh Js 3c", "Qh Js 3c"),  # no inside straight draws: keep ace-king
    ],
)
def test_fd_7_the_bot_keeps_made_hands_and_draws_to_flushes_and_open_straights(hand, thrown):
    """FD-7: stand pat on a straight or better, keep pairs, two pair and trips, draw to four-flushes
    and open-ended straights, else keep the high cards."""
    assert discards(hand) == set(thrown.split())


def test_fd_7_the_bot_shows_an_ace_to_draw_four_only_when_the_ace_is_all_it_has():
    """FD-7: with an ace rule, a lone ace is shown and four cards drawn; a pair is still kept."""
    state = deal(2, ["Ah 9c 6d 3s 2h", "Kc Kd 7h 5s 4c"], {"ace_rule": "four_with_ace", "opening": "anything_opens"})
    state = act(state, {"type": "check"}, {"type": "check"})
    assert bot_action(state) == {"type": "draw", "discard": ["9c", "6d", "3s", "2h"], "show": "Ah"}
    state = act(state, {"type": "draw", "discard": ["9c", "6d", "3s", "2h"], "show": "Ah"})
    assert bot_action(state) == {"type": "draw", "discard": ["7h", "5s", "4c"]}
    # Without the ace rule the ace keeps its best kicker.
    assert discards("Ah 9c 6d 3s 2h") == {"6d", "3s", "2h"}


def test_fd_14_deuce_to_seven_keeps_the_lowest_distinct_cards_and_breaks_pairs():
    """FD-14 (CM-16): keep 7-5-3-2 and throw the king; a pair loses one card; a made 8-low stands
    pat with draws to come, a 9-low only at the last draw; aces are high."""
    low = bot_draws.LOW27
    assert discards("7c 5d 3h 2s Kd", low, draws_left=3, most=5) == {"Kd"}
    assert discards("7c 5d 5h 3s 2d", low, draws_left=3, most=5) == {"5h"}
    assert discards("8c 6d 4h 3s 2d", low, draws_left=3, most=5) == set()
    assert discards("9c 6d 4h 3s 2d", low, draws_left=3, most=5) == {"9c"}
    assert discards("9c 6d 4h 3s 2d", low, draws_left=1, most=5) == set()
    assert discards("Ac Kd 7h 4s 2d", low, draws_left=2, most=5) == {"Ac", "Kd"}
    assert discards("8c 9d Th 4s 2d", low, draws_left=2, most=5) == {"8c", "9d", "Th"}
    assert discards("3c 4d 5h 6s 7d", low, draws_left=2, most=5) == {"7d"}  # a straight counts against


def test_fd_14_the_bot_draws_in_triple_draw_from_its_view():
    """FD-14: heads-up with blinds, the button calls and the big blind checks; the big blind draws
    first and, holding 7-5-3-2-K, throws the king."""
    state = deal(2, ["7c 5d 3h 2s Kd", "Qc Qd Jh Ts 9c"], {"variant": "triple_draw_27", "betting": "fixed_limit"})
    state = act(state, {"type": "call"}, {"type": "check"})
    assert bot_action(state) == {"type": "draw", "discard": ["Kd"]}


def test_fd_15_wild_cards_are_kept_with_what_they_make():
    """FD-15: a joker with a pair is trips (draw two); with three to a flush, a four-flush; a lone
    wild card keeps the highest card it pairs; four of a kind stands pat."""
    assert discards("X1 Kh Kd 7c 2s", wild="joker") == {"7c", "2s"}
    assert discards("X1 Kh 9h 4h 2s", wild="joker") == {"2s"}
    assert discards("X1 X2 9c 5d 2s", wild="jokers") == {"5d", "2s"}
    assert discards("2c Ah Kd 8c 5s", wild="deuces") == {"Kd", "8c", "5s"}  # a deuce pairs the ace
    assert discards("X1 Kh Kd Ks 2s", wild="joker") == set()  # four kings stand pat


def test_fd_17_high_low_aims_at_the_half_the_hand_can_win():
    """FD-17 (CM-17): four cards to a 5-low draw one; a wheel and a made 8-low stand pat; two pair
    and a pair of jacks play for high."""
    high_low = bot_draws.HIGH_LOW
    assert discards("Ac 2d 3h 5s Kc", high_low) == {"Kc"}
    assert discards("Ac 2d 3h 4s 5c", high_low) == set()
    assert discards("8c 6d 4h 3s 2c", high_low) == set()
    assert discards("Kc Kd 7h 7s 2c", high_low) == {"2c"}
    assert discards("Jc Jd 9h 6s Kc", high_low) == {"9h", "6s", "Kc"}


# --- betting (FD-4, FD-6) ------------------------------------------------------------------------------


def test_fd_4_the_bot_folds_junk_facing_a_big_bet_and_calls_or_raises_with_strength():
    """FD-4: heads-up, facing a bet of 150 chips into a pot of 2: junk folds, aces up calls, a
    full house goes all-in (no full raise is possible)."""
    for held, expected in (("7c 5d 3h 9s Qd", "fold"), ("Ac Ad 3h 3s Qd", "call"), ("As Ad Ac Kd Kh", "all_in")):
        state = act(deal(2, ["Kc Kd Ks 2c 2d", held]), {"type": "bet", "amount": 150})
        assert bot_action(state)["type"] == expected, held


def test_fd_4_the_bot_raises_a_strong_hand_within_the_legal_range():
    """FD-4: facing a small bet, a full house raises, by a "to" amount within the legal range."""
    state = act(deal(2, ["Kc Kd 5s 2c 2d", "As Ad Ac Kh Qh"]), {"type": "bet", "amount": 2})
    action = bot_action(state)
    raise_option = next(o for o in DECIDER.legal_actions(state, DECIDER.to_act(state)[0]) if o["type"] == "raise")
    assert action["type"] == "raise" and raise_option["min"] <= action["amount"] <= raise_option["max"]


def test_fd_4_after_the_draw_the_bot_calls_with_pot_odds_and_folds_without_them():
    """FD-4: after the draw, against a player who drew three, a pair of fives calls a bet of 1
    into 2 (it needs to win a quarter of the time) but folds to an all-in (half); queens call both;
    jack-high folds even to the small bet."""

    def after_draw(held: str, bet: int) -> str:
        state = deal(2, ["9c 9d 6h 4s 3c", held], {"opening": "anything_opens"}, stock="Tc 8d 2h")
        state = act(state, {"type": "check"}, {"type": "check"})
        state = act(state, {"type": "draw", "discard": ["6h", "4s", "3c"]}, {"type": "draw", "discard": []})
        return str(bot_action(act(state, {"type": "bet", "amount": bet}))["type"])

    assert after_draw("5c 5d 7h 9s 2c", 1) == "call"
    assert after_draw("5c 5d 7h 9s 2c", 199) == "fold"
    assert after_draw("Qc Qd 7h 5s 2c", 1) == "call"
    assert after_draw("Qc Qd 7h 5s 2c", 199) == "call"
    assert after_draw("Jc 9s 7h 5s 2c", 1) == "fold"


def test_fd_6_the_bot_opens_only_with_openers_and_never_folds_when_it_may_check():
    """FD-6: without openers the bet is not legal and the bot checks (it never folds for free);
    with a strong hand it opens, within the legal range."""
    junk = ["8c 8d 3h 9s Qd", "2c 3d 4h 6s 8h", "2d 3c 4s 6h 8s", "2h 3s 4c 6d Th", "2s 3h 4d 6c Ts", "Tc 9d 7h 5s Kd"]
    state = deal(6, junk)
    assert bot_action(state) == {"type": "check"}
    state = deal(6, ["Ac Ad 3h 3s Qd", *junk[1:]])
    action = bot_action(state)
    assert action["type"] == "bet" and 1 <= action["amount"] <= 199


def test_fd_4_fixed_limit_bets_the_one_amount():
    """FD-4: in fixed limit the bot's bet is the round's bet size."""
    state = deal(2, ["Ac Ad Ah 3s Qd", "Kc Kd 5s 2c 2d"], {"betting": "fixed_limit"})
    assert bot_action(state) == {"type": "bet", "amount": 1}


# --- the view alone, always legal (FD-19, FD-21) -----------------------------------------------------


def test_fd_19_the_same_view_and_rng_give_the_same_action_and_the_view_is_untouched():
    """FD-19: the bot decides from its own view; the same view and rng seed give the same action."""
    state = act(deal(3, ["Kc Kd 5s 2c 2d", "Qc Qh 9d 4s 3c", "Ah Jd 8c 7s 6h"]), {"type": "bet", "amount": 3})
    seat = DECIDER.to_act(state)[0]
    view = DECIDER.view(state, seat)
    frozen = copy.deepcopy(view)
    legal = DECIDER.legal_actions(state, seat)
    first = bot.choose(view, legal, random.Random(5))
    assert view == frozen
    assert all(bot.choose(copy.deepcopy(view), legal, random.Random(5)) == first for _ in range(3))


def test_fd_21_an_unreadable_view_gets_the_turn_timers_action():
    """FD-21: when the bot cannot read its view it does what the turn timer does: check, else
    fold; stand pat in the draw."""
    rng = random.Random(1)
    assert bot.choose({}, [{"type": "fold"}, {"type": "check"}], rng) == {"type": "check"}
    assert bot.choose({"hand": None}, [{"type": "fold"}, {"type": "call", "amount": 3}], rng) == {"type": "fold"}
    assert bot.choose({"hand": {"your_cards": ["Zz"]}}, [{"type": "draw", "min": 0, "max": 3}], rng) == {
        "type": "draw",
        "discard": [],
    }
    assert bot.timeout_action([]) == {"type": "fold"}


TABLES = [
    (6, {}, None),
    (2, {}, None),
    (3, {"betting": "pot_limit", "ace_rule": "four_with_ace"}, None),
    (4, {"betting": "fixed_limit", "ace_rule": "five_with_ace", "shotgun": True}, None),
    (5, {"wild": "joker"}, None),
    (4, {"wild": "jokers", "opening": "anything_opens"}, None),
    (3, {"wild": "deuces", "betting": "pot_limit"}, None),
    (4, {"wild": "one_eyed_jacks", "forced_bets": "blinds"}, None),
    (6, {"variant": "triple_draw_27"}, None),
    (3, {"variant": "triple_draw_27", "betting": "no_limit", "forced_bets": "ante"}, None),
    (4, {"high_low": True, "ace_rule": "five_with_ace"}, None),
    (3, {"format": "tournament", "starting_stack": 6}, None),  # all-ins and skipped rounds (FD-20)
    (8, {"min_buy_in": 1, "ante_amount": 1}, [1, 2, 3, 5, 8, 40, 200, 2]),  # short stacks
    (5, {"variant": "triple_draw_27", "format": "tournament", "starting_stack": 12}, None),
]


@pytest.mark.parametrize(("seats", "options", "buy_ins"), TABLES)
def test_fd_21_the_bots_choice_is_always_accepted_by_the_engine(seats, options, buy_ins):
    """Over random playouts (the bot in every seat half the time, random legal players otherwise),
    every action the bot chooses is in its legal actions and accepted by ``decide``, and it never
    needs the turn timer's fallback."""
    chosen: set[str] = set()

    def player(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
        if rng.random() < 0.5:
            return random_action(state, seat, rng)
        legal = DECIDER.legal_actions(state, seat)
        action = bot.decide(DECIDER.view(state, seat), legal, rng)
        assert bot.is_legal(action, legal), (action, legal)
        chosen.add(action["type"])
        return {**action, "seat": seat}

    for seed in range(2):
        state, _ = play(seats, options, seed=seed, buy_ins=buy_ins, player=player, max_hands=12)
        assert state.finished
    assert "draw" in chosen and chosen & {"check", "call"}
