"""The widow games' audit hooks, pure: a La Viuda showdown with a tie re-decided from the seed
(LV-6, LV-7 steps 1-4, CM-8), and forged records caught."""

from __future__ import annotations

import dataclasses

from games.engine import fairness, hand_words
from games.engine import hands as poker
from games.engine.cards import LA_VIUDA_DECK
from games.rules.la_viuda import tiebreak
from games.rules.la_viuda.audit import outcome_differences, showdown
from games.rules.la_viuda.events import ShowdownHeld
from games.rules.widow import exchange as widow
from games.rules.widow.audit import deal_differences, deck_name
from games.rules.widow.events import HandStarted, ShownHand

SEED = bytes(range(32))
TABLE = "00000000-0000-0000-0000-000000000001"
CONFIG = {"seats": 3, "flush_by_suit": False}
WILD_RANK = "5"
# Seats 0 and 1 hold the same ranks, no wild, no run: a tie for worst that LV-7 must break. Seat 0
# is mostly black and seat 1 mostly red, three to two: the colour card (step 4, from the stock) decides.
HANDS = (("2c", "3s", "7h", "9d", "Jc"), ("2d", "3h", "7s", "9c", "Jd"), ("Ah", "Ad", "Kc", "Ks", "Qh"))
STOCK = ("4c", "4d", "6h", "8s", "Tc", "Th", "Qd", "Kd")
ORDER = (0, 1, 2)


def streams():
    return fairness.streams(SEED, TABLE, 1, "||")


def hand_events(*, loser: int | None = None) -> list:
    wild = poker.wild_set(WILD_RANK)
    shown = []
    for seat, cards in enumerate(HANDS):
        value = poker.high_value(cards, wild)
        shown.append(ShownHand(seat, cards, int(value), poker.category(value), hand_words.describe(value), 0))
    outcome = tiebreak.la_viuda_tie_break([(0, HANDS[0]), (1, HANDS[1])], wild, ORDER, stock=STOCK, streams=streams())
    steps = outcome.steps
    started = HandStarted(1, 2, ORDER, "c", None, "||", 1, WILD_RANK, SEED.hex(), HANDS, ("X1",) * 5, STOCK)
    held = ShowdownHeld(WILD_RANK, tuple(shown), (0, 1), steps, outcome.losers[0] if loser is None else loser)
    return [started, held]


def test_lv_7_a_tie_for_worst_is_re_broken_from_the_seed_and_agrees():
    events = hand_events()
    held = events[1]
    assert [step.rule for step in held.steps][-1] == tiebreak.COLOUR_CARD  # the draw was reached
    assert outcome_differences(CONFIG, events, streams()) == []
    shown = {entry["seat"]: entry for entry in showdown(CONFIG, events)}
    assert shown[held.loser]["outcome"] == "pays" and shown[2]["outcome"] == "safe"
    assert shown[held.loser]["tie_break"] and shown[2]["tie_break"] == []


def test_lv_6_a_forged_loser_is_named():
    events = hand_events()
    forged = hand_events(loser=1 - events[1].loser)
    differences = outcome_differences(CONFIG, forged, streams())
    assert differences == [
        f"ShowdownHeld: seat {1 - events[1].loser} recorded as paying, re-decided seat {events[1].loser}"
    ]


def test_cm_8_a_tie_break_recorded_under_another_seed_is_caught():
    events = hand_events()
    recorded = events[1].steps[-1].card
    wild = poker.wild_set(WILD_RANK)
    for n in range(1, 50):  # the first seed whose colour card differs from the recorded one
        other = fairness.streams(bytes([n]) * 32, TABLE, 1, "||")
        again = tiebreak.la_viuda_tie_break([(0, HANDS[0]), (1, HANDS[1])], wild, ORDER, stock=STOCK, streams=other)
        if again.steps[-1].card != recorded:
            break
    assert again.steps[-1].card != recorded
    assert any("tie-break steps" in line for line in outcome_differences(CONFIG, events, other))


def test_lv_4_the_deal_is_checked_card_by_card():
    deck = fairness.shuffled(LA_VIUDA_DECK, SEED, TABLE, 1, "||")
    hands, widow_cards, stock = widow.deal(deck, ORDER, 3)
    started = HandStarted(1, 2, ORDER, "c", None, "||", 1, WILD_RANK, SEED.hex(), hands, widow_cards, stock)
    assert deck_name([started]) == "english_54"
    assert deal_differences(deck, [started]) == []
    swapped = ((hands[1][0], *hands[0][1:]), (hands[0][0], *hands[1][1:]), hands[2])
    forged = dataclasses.replace(started, hands=swapped)
    assert [line.split(", the deck")[0] for line in deal_differences(deck, [forged])] == [
        f"HandStarted: seat 0 holds {list(swapped[0])}",
        f"HandStarted: seat 1 holds {list(swapped[1])}",
    ]


def test_lv_13_the_showdown_says_each_tie_break_step_naming_the_players():
    """LV-7, LV-13: the audit's showdown says every step in a sentence naming the players the audit
    passes (``player_names``), the steps that decided nothing included; categories keep their codes
    beside their names in words (CM-11)."""
    events = hand_events()
    held = events[1]
    config = {**CONFIG, "player_names": ["ana", "bruno", "carla"]}
    shown = {entry["seat"]: entry for entry in showdown(config, events)}
    steps = shown[held.loser]["tie_break"]
    assert [step["rule"] for step in steps] == ["wild_cards", "run", "colour", "colour_card"]
    assert steps[0]["sentence"] == "Step 1. ana and bruno both hold 0 wild cards: this step decides nothing."
    assert steps[-1]["sentence"].endswith(f"{['ana', 'bruno'][held.loser]} has the worst hand.")
    assert shown[2]["category"] == "two_pair" and shown[2]["category_name"] == "two pair"
    assert shown[2]["description"] == "two pair, aces and kings, queen kicker"
    # without names (the engine alone) seats are named by number
    assert showdown(CONFIG, events)[0]["tie_break"][0]["sentence"].startswith("Step 1. seat 0 and seat 1 both")


def test_cm_14_the_showdown_describes_what_the_wild_cards_stand_for():
    """CM-14: a shown hand with a wild card says what it stands for (fives are wild here)."""
    wild = poker.wild_set(WILD_RANK)
    cards = ("5h", "Kd", "Kh", "9c", "9s")
    value = poker.high_value(cards, wild)
    entry = ShownHand(0, cards, int(value), poker.category(value), "", 1)
    held = ShowdownHeld(WILD_RANK, (entry,), (0,), (), 0)
    (shown,) = showdown(CONFIG, [held])
    assert shown["description"] == "full house, kings full of nines: the five of hearts stands for the king of spades"
