"""La Viuda's tie-break for the worst hand (LV-7): the worked examples of the rules page and the draws."""

from __future__ import annotations

import random

import pytest

from games.engine import fairness
from games.engine.card_names import card_name
from games.engine.cards import LA_VIUDA_DECK, parse_hand
from games.engine.hands import high_value, wild_set
from games.rules.la_viuda.tiebreak import COLOUR, COLOUR_CARD, MANOTAZO, RUN, explain, la_viuda_tie_break

ACES_WILD = wild_set("A")  # the first hand's wild rank, as the rules' examples assume
NAMES = ["Ana", "Bruno", "Carla", "Dora", "Elena", "Fede"]
SEED = bytes(range(32))
TABLE = "00000000-0000-0000-0000-000000000001"


def first_hand(text: str) -> tuple[str, ...]:
    return parse_hand(text)


def _settle(better: str, worse: str, **kwargs):
    first, second = parse_hand(better), parse_hand(worse)
    assert high_value(first, ACES_WILD) == high_value(second, ACES_WILD), "the example must be a tie"
    return la_viuda_tie_break([(0, first), (1, second)], ACES_WILD, [0, 1], **kwargs)


@pytest.mark.parametrize(
    ("better", "worse", "deciding"),
    [
        ("8s 8h 9h 5c 4d", "8c 8d 9s 5s 4s", RUN),  # run 8-9 beats 4-5
        ("8c 7h 6d 5d 4d", "8s 7s 6c 5s 4c", RUN),  # run of three beats run of two
        ("Qh Qd 7c 4s 3s", "Qs Qc 7s 4c 3h", RUN),  # a run beats none
        ("Js Jh 7d 7h 5d", "Jc Jd 7s 7c 5h", COLOUR),  # four red beat three black
    ],
)
def test_lv_7_worked_examples(better, worse, deciding):
    result = _settle(better, worse)
    assert result.losers == (1,)
    assert result.steps[-1].rule == deciding
    said = explain(result.steps, {0: first_hand(better), 1: first_hand(worse)}, ACES_WILD, NAMES)
    assert said[-1].endswith(": Bruno has the worst hand.")
    # the same hands in the other seats give the mirror answer
    mirrored = la_viuda_tie_break([(3, parse_hand(worse)), (5, parse_hand(better))], ACES_WILD, [5, 3])
    assert mirrored.losers == (3,)


def test_lv_7_example_going_to_the_colour_card():
    """K K 8 6 5 three black against three red: the colour card (step 4) saves one of them."""
    stock = [card for card in LA_VIUDA_DECK if card not in parse_hand("Ks Kh 8s 6s 5d Kd Kc 8h 6c 5h")]
    saved_by = {}
    for client_seed in ("alice|bob", "a", "b", "c", "d", "e"):
        streams = fairness.streams(SEED, TABLE, 1, client_seed)
        result = _settle("Ks Kh 8s 6s 5d", "Kd Kc 8h 6c 5h", stock=stock, streams=streams)
        step = result.steps[-1]
        assert step.rule == COLOUR_CARD and step.step == 4 and step.purpose == "colour-card"
        assert [s.rule for s in result.steps[:3]] == ["wild_cards", "run", "colour"]
        assert step.card in stock and step.card not in ("X1", "X2")
        expected_loser = 1 if step.card[1] in "cs" else 0  # black saves the first, red the second
        assert result.losers == (expected_loser,)
        said = explain(
            result.steps, {0: parse_hand("Ks Kh 8s 6s 5d"), 1: parse_hand("Kd Kc 8h 6c 5h")}, ACES_WILD, NAMES
        )
        assert card_name(step.card) in said[-1]
        saved_by[step.card[1] in "cs"] = True
    assert len(saved_by) == 2, "both colours should turn up over these seeds"


def test_lv_7_step_1_more_wild_cards_loses():
    result = la_viuda_tie_break(
        [(0, parse_hand("X1 Kd 9c 7h 3s")), (1, parse_hand("2c 2d 9h 7s 3d"))], wild_set("5"), [1, 0]
    )
    # X1 Kd 9c 7h 3s is a pair of kings, 2c 2d 9h 7s 3d a pair of twos: not a tie by value, but the
    # function settles whatever ties it is given; the wild count decides first.
    assert result.losers == (0,)
    assert result.steps[0].facts == ((1, "0"), (0, "1"))  # each seat's number of wild cards


def test_lv_7_colour_card_comes_from_the_stream_over_canonical_stock():
    """Step 4 picks uniform(len) from purpose colour-card among the stock's non-jokers in CM-3 order."""
    stock = ["X2", "Qh", "3c", "X1", "9d"]
    streams = fairness.streams(SEED, TABLE, 4, "|")
    result = _settle("Ks Kh 8s 6s 5d", "Kd Kc 8h 6c 5h", stock=stock, streams=streams)
    expected = ["3c", "9d", "Qh"][fairness.pick(3, SEED, TABLE, 4, "|", "colour-card")]
    assert result.steps[-1].card == expected


def test_lv_7_manotazo_when_no_majority_colour():
    """Step 5: hands with equal colour counts skip step 4 and go to the manotazo (CM-18 shuffle)."""
    wild = wild_set("A")
    first, second = parse_hand("X1 Kd Ks 9h 7c"), parse_hand("X2 Kh Kc 9d 7s")
    hand_no, client = 2, "x|y"
    result = la_viuda_tie_break(
        [(4, first), (2, second)], wild, [2, 4], streams=fairness.streams(SEED, TABLE, 2, client)
    )
    manotazos = [step for step in result.steps if step.rule == MANOTAZO]
    assert manotazos and all(step.step == 5 for step in manotazos)
    assert not any(step.rule == COLOUR_CARD for step in result.steps)
    pile = sorted(first + second, key=LA_VIUDA_DECK.index)
    expected = fairness.shuffled(pile, SEED, TABLE, hand_no, client, "manotazo-1")
    assert manotazos[0].draws == ((2, expected[0]), (4, expected[1]))  # turn order: seat 2 first
    assert manotazos[0].purpose == "manotazo-1"
    assert len(result.losers) == 1


def test_lv_7_draw_needs_streams():
    with pytest.raises(ValueError, match="streams"):
        _settle("Ks Kh 8s 6s 5d", "Kd Kc 8h 6c 5h", stock=["2c"])


def test_lv_7_a_single_hand_loses_without_steps():
    assert la_viuda_tie_break([(3, parse_hand("2c 3d 5h 7s 9c"))], ACES_WILD, [3]).losers == (3,)


def test_lv_7_three_way_tie_keeps_only_the_worst_at_each_step():
    """Three high-card hands K Q 9 6 3: seat 0's run Q-K saves it at step 2; at step 3 seat 1's
    three black lose to seat 2's four red."""
    hands = [
        (0, parse_hand("Kh Qh 9c 6s 3s")),
        (1, parse_hand("Kc Qd 9h 6c 3c")),
        (2, parse_hand("Kd Qs 9d 6d 3h")),
    ]
    assert len({high_value(cards, ACES_WILD) for _, cards in hands}) == 1
    result = la_viuda_tie_break(hands, ACES_WILD, [0, 1, 2])
    assert [step.still_tied for step in result.steps] == [(0, 1, 2), (1, 2), (1,)]
    assert result.losers == (1,)
    said = explain(result.steps, dict(hands), ACES_WILD, NAMES)
    assert "Ana is saved and Bruno and Carla are still tied" in said[1]


def test_lv_7_random_ties_always_end_with_losers_among_the_tied():
    """LV-7 on random deals: each step keeps a non-empty subset; a draw always ends with one loser."""
    rng = random.Random(7)
    for number in range(300):
        deck = list(LA_VIUDA_DECK)
        rng.shuffle(deck)
        players = rng.randint(2, 4)
        hands = [(seat, tuple(deck[5 * seat : 5 * seat + 5])) for seat in range(players)]
        order = rng.sample(range(players), players)
        streams = fairness.streams(SEED, TABLE, number + 1, "|")
        result = la_viuda_tie_break(hands, ACES_WILD, order, stock=deck[5 * players :], streams=streams)
        assert len(result.losers) == 1
        previous = {seat for seat, _ in hands}
        said = explain(result.steps, dict(hands), ACES_WILD, NAMES)
        assert len(said) == len(result.steps)
        for step, sentence in zip(result.steps, said):
            assert step.still_tied and set(step.still_tied) <= previous
            assert sentence.startswith(f"Step {step.step}. ") and "seat" not in sentence
            previous = set(step.still_tied)
        assert set(result.losers) == previous
        again = la_viuda_tie_break(hands, ACES_WILD, order, stock=deck[5 * players :], streams=streams)
        assert again == result  # the same stream gives the same answer


def test_lv_7_step_3_counts_wild_rank_cards_by_their_printed_suit():
    """LV-7 step 3 (amended): `Ah Kd Qd 7c 3s` against `As Kh Qh 7d 3c`, aces wild, are both 3 red
    and 2 black once the wild aces count by their printed suit, so step 3 decides nothing (it used to
    read 2 red, 2 black against 3 red, 1 black and make the first hand pay). Both are mostly red, so
    no colour card can tell them apart (step 4 draws only when majorities differ): the manotazo does."""
    first, second = parse_hand("Ah Kd Qd 7c 3s"), parse_hand("As Kh Qh 7d 3c")
    assert high_value(first, ACES_WILD) == high_value(second, ACES_WILD)
    stock = [card for card in LA_VIUDA_DECK if card not in first + second]
    result = la_viuda_tie_break(
        [(0, first), (1, second)], ACES_WILD, [0, 1], stock=stock, streams=fairness.streams(SEED, TABLE, 1, "|")
    )
    colour_step = next(step for step in result.steps if step.rule == COLOUR)
    assert colour_step.still_tied == (0, 1), "3 red and 2 black each: step 3 decides nothing"
    assert not any(step.rule == COLOUR_CARD for step in result.steps)
    assert result.steps[-1].rule == MANOTAZO and len(result.losers) == 1


def test_lv_7_step_3_a_joker_has_no_colour_and_can_leave_equal_counts():
    """LV-7 step 3: jokers are not counted, so `X1 Kd Qd 7c 3s` is 2 red and 2 black (no majority
    colour) against `X2 Kh Qh 7d 3c`'s 3 red, 1 black: the joker hand's larger count (2) is smaller
    and it loses at step 3."""
    first, second = parse_hand("X1 Kd Qd 7c 3s"), parse_hand("X2 Kh Qh 7d 3c")
    result = la_viuda_tie_break([(0, first), (1, second)], ACES_WILD, [0, 1])
    assert [step.rule for step in result.steps] == ["wild_cards", "run", COLOUR]
    assert result.losers == (0,)


def test_lv_7_every_step_is_said_naming_the_players_a_step_that_decides_nothing_included():
    """LV-7, LV-13: each step a sentence with the players' names and counts; the colour card named."""
    first, second = parse_hand("Ks Kh 8s 6s 5d"), parse_hand("Kd Kc 8h 6c 5h")
    stock = [card for card in LA_VIUDA_DECK if card not in first + second]
    streams = fairness.streams(SEED, TABLE, 1, "|")
    result = la_viuda_tie_break([(0, first), (1, second)], ACES_WILD, [0, 1], stock=stock, streams=streams)
    said = explain(result.steps, {0: first, 1: second}, ACES_WILD, NAMES)
    assert said[0] == "Step 1. Ana and Bruno both hold 0 wild cards: this step decides nothing."
    assert said[1] == (
        "Step 2. Ana and Bruno both have no run of two or more cards of one suit: this step decides nothing."
    )
    assert said[2].startswith("Step 3. Ana has 2 red and 3 black and Bruno has 3 red and 2 black")
    assert said[2].endswith(": this step decides nothing.")
    card = result.steps[3].card
    assert "Ana's hand is mostly black and Bruno's hand is mostly red" in said[3]
    assert f"the colour card drawn from the stock is {card_name(card)}" in said[3]
    assert said[3].endswith(f": {NAMES[result.losers[0]]} has the worst hand.")
    assert said[3].msgid == "Step {number}. {facts}: {outcome}." and said[3].values["number"] == 4


def test_lv_7_step_3_sentence_counts_the_wild_aces_by_their_suit():
    """LV-7 step 3 as amended, in words: both hands 3 red and 2 black, so the step decides nothing
    and, both being mostly red, no colour card is drawn."""
    first, second = parse_hand("Ah Kd Qd 7c 3s"), parse_hand("As Kh Qh 7d 3c")
    stock = [card for card in LA_VIUDA_DECK if card not in first + second]
    result = la_viuda_tie_break(
        [(0, first), (1, second)], ACES_WILD, [0, 1], stock=stock, streams=fairness.streams(SEED, TABLE, 1, "|")
    )
    said = explain(result.steps, {0: first, 1: second}, ACES_WILD, NAMES)
    assert said[0] == "Step 1. Ana and Bruno both hold 1 wild card: this step decides nothing."
    assert said[1].startswith("Step 2. Ana's best run is Q-K of diamonds and Bruno's best run is Q-K of hearts")
    assert said[2].startswith("Step 3. Ana and Bruno both have 3 red and 2 black cards")
    assert "every hand is mostly red, so no colour card can tell them apart" in said[2]
    assert said[3].startswith("Step 5. Manotazo 1: ")
