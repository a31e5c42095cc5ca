"""La Viuda (LV-1..LV-13), given / when / then in events.

Most tests deal four seats by hand: dealer seat 3, so the turn order (counterclockwise) is
2, 1, 0, 3. Seats 0 and 3 hold very strong hands, so the showdown is between seats 2 and 1.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import fairness
from games.engine.cards import deck
from games.engine.errors import IllegalAction, InvalidOptions
from games.rules.la_viuda.cards import wild_rank
from games.rules.la_viuda.events import (
    GameEnded,
    GameStarted,
    ShowdownHeld,
    WidowBought,
    WidowDeclined,
    WidowOffered,
    WorstHandPaid,
)
from games.rules.la_viuda.game import (
    DECIDER as LV,
)
from games.rules.widow import exchange as widow
from games.rules.widow.events import FirstDealerDrawn, HandEnded, HandStarted, PlayerEliminated
from tests.rules.widow_helpers import PRESENT, TABLE, act, ctx, dealt, expected_first_dealer, fold

STRONG = {0: "X1 Ac Ad Ah As", 3: "X2 Tc Td Th Ts"}
WIDOW = "2c 2d 2h 2s 3c"


def table(
    seat2: str, seat1: str, *, chips: int = 3, chip_value: int = 0, pot: int = 1, before=(), strong=STRONG, **options
):
    """Given: four seats, dealer 3, seats 2 and 1 holding the hands under test."""
    stake = {"chip_value": chip_value, "currency": "MXN"} if chip_value else {}
    config = LV.configure(4, {"chips_per_player": chips, **stake, **options})
    hands = {**strong, 2: seat2, 1: seat1}
    used = widow.cards_in(hand.split() for hand in hands.values()) + WIDOW.split()
    assert len(set(used)) == 25, "a card dealt twice"
    stock = " ".join(card for card in deck(jokers=True) if card not in used)
    given = [
        GameStarted((0, 1, 2, 3), chips, chip_value, "MXN" if chip_value else None),
        FirstDealerDrawn(((0, "Kc"), (1, "Qc"), (2, "Jc"), (3, "2s")), 3),
        *before,
        dealt(3, (2, 1, 0, 3), hands, WIDOW, 4, pot=pot, wild_rank=wild_rank(pot), stock=stock),
    ]
    return config, fold(LV, LV.initial_state(config), given)


def showdown(state, **extra):
    """When: everybody knocks; the knock of seat 2 comes first, the showdown follows seat 3's."""
    events = []
    for seat in (2, 1, 0):
        step, state = act(LV, state, seat, "knock", hand_no=state.hand_no + 1)
        events += step
    step = LV.decide(state, {"type": "knock", "seat": 3}, ctx(state.hand_no + 1, 4, **extra))
    return events + step, fold(LV, state, step)


def held(events) -> ShowdownHeld:
    return next(event for event in events if type(event) is ShowdownHeld)


def test_lv_1_four_to_seven_players_and_a_pack_with_two_jokers():
    """LV-1: 4 to 7 players; 52 cards and two jokers."""
    for seats in (3, 8):
        with pytest.raises(InvalidOptions, match="is for 4 to 7 players"):
            LV.configure(seats, {})
    config = LV.configure(7, {})
    events = LV.decide(LV.initial_state(config), {"type": "start"}, ctx(1, 7))
    deal = next(event for event in events if type(event) is HandStarted)
    everything = Counter(widow.cards_in(deal.hands)) + Counter(deal.widow_cards) + Counter(deal.stock)
    assert everything == Counter(deck(jokers=True)) and len(everything) == 54


def test_lv_2_chips_are_bought_and_la_viudas_chip_starts_in_the_pot():
    """LV-2: each player buys ``chips_per_player`` chips at ``chip_value``; one extra chip, La
    Viuda, is in the pot when the first hand is dealt."""
    config = LV.configure(5, {"chips_per_player": 4, "chip_value": 250, "currency": "MXN"})
    state = LV.initial_state(config)
    events = LV.decide(state, {"type": "start"}, ctx(1, 5))
    assert events[0] == GameStarted((0, 1, 2, 3, 4), 4, 250, "MXN")
    deal = next(event for event in events if type(event) is HandStarted)
    assert deal.pot == 1 and deal.wild_rank == "A"
    moves = LV.settlements(state, events[0])
    assert sum(m.amount for m in moves if m.unit == "MONEY" and m.destination == ("escrow",)) == 5 * 4 * 250
    assert sum(m.amount for m in moves if m.unit == "CHIP" and m.destination[0] == "seat") == 20
    assert next(m for m in moves if m.destination == ("pot",)).amount == 1
    for bad in ({"chips_per_player": 11}, {"chips_per_player": 0}, {"chip_value": 100}):
        with pytest.raises(InvalidOptions):
            LV.configure(5, bad)


def test_lv_3_first_dealer_by_cm_19_and_the_deal_passes_to_the_right():
    """LV-3 (CM-19): the first dealer is drawn (lowest card, aces low) from hand 1's stream; then
    the deal passes to the dealer's right, skipping players who are out."""
    config = LV.configure(5, {})
    events = LV.decide(LV.initial_state(config), {"type": "start"}, ctx(1, 5))
    drawn = events[1]
    assert type(drawn) is FirstDealerDrawn
    cards = fairness.shuffled(deck(), ctx(1, 5).server_seed, TABLE, 1, "||||", "first-dealer")
    assert drawn.draws[:5] == tuple(enumerate(cards[:5]))
    assert drawn.dealer == expected_first_dealer(cards, 5)
    assert widow.next_dealer(3, 5, [False] * 5, -1) == 2
    assert widow.next_dealer(3, 5, [False, False, True, False, False], -1) == 1
    assert widow.next_dealer(0, 5, [False] * 5, -1) == 4


def test_lv_4_deal_one_at_a_time_counterclockwise_widow_before_the_dealer():
    """LV-4: cards one at a time from the dealer's right, counterclockwise, the widow receiving its
    card just before the dealer in each round; play begins at the dealer's right."""
    config = LV.configure(4, {})
    events = LV.decide(LV.initial_state(config), {"type": "start"}, ctx(1, 4))
    deal = next(event for event in events if type(event) is HandStarted)
    pack = fairness.shuffled(deck(jokers=True), ctx(1, 4).server_seed, TABLE, 1, "|||", "deck")
    d = deal.dealer
    order = [(d - 1) % 4, (d - 2) % 4, (d - 3) % 4]
    assert deal.order == (*order, d)
    for rnd in range(5):
        row = pack[rnd * 5 : rnd * 5 + 5]
        assert [deal.hands[seat][rnd] for seat in order] == row[:3]
        assert deal.widow_cards[rnd] == row[3] and deal.hands[d][rnd] == row[4]
    assert deal.stock == tuple(pack[25:])
    assert LV.to_act(fold(LV, LV.initial_state(config), events)) == (order[0],)


def test_lv_5_wild_rank_follows_the_pot():
    """LV-5: pot mod 13 sets the wild rank: 1 aces, 2 twos, ..., 12 queens, 0 kings; jokers always."""
    assert [wild_rank(p) for p in (1, 2, 10, 11, 12, 13, 14, 15)] == ["A", "2", "T", "J", "Q", "K", "A", "2"]
    _, state = table("8s 8h 9h 5c 4d", "8c 8d 9s 5s 4s", pot=2)
    assert state.wild_rank == "2" and LV.view(state, 0)["wild_rank"] == "2"


def test_lv_6_the_worst_hand_pays_one_chip_into_the_pot():
    """LV-6: the worst hand pays a chip; with 2 chips in the pot, twos are wild next hand."""
    _, state = table("4c 5d 7h 9s Jc", "Kd Kh Ks Qd Qh", pot=1)
    events, after = showdown(state)
    assert held(events).loser == 2 and held(events).tied == (2,) and held(events).steps == ()
    assert WorstHandPaid(2, 2, 2) in events
    assert after.chips == (3, 3, 2, 3) and after.pot == 2
    assert next(e for e in events if type(e) is HandStarted).wild_rank == "2"


LV_7_EXAMPLES = [
    ("8s 8h 9h 5c 4d", "8c 8d 9s 5s 4s", "run", "run 8-9 beats run 4-5"),
    ("8c 7h 6d 5d 4d", "8s 7s 6c 5s 4c", "run", "run of three beats run of two"),
    ("Qh Qd 7c 4s 3s", "Qs Qc 7s 4c 3h", "run", "a run beats none"),
    ("Js Jh 7d 7h 5d", "Jc Jd 7s 7c 5h", "colour", "four red beat three black"),
]


@pytest.mark.parametrize(("winner", "loser", "rule", "why"), LV_7_EXAMPLES)
def test_lv_7_worked_examples_end_to_end_in_a_showdown(winner, loser, rule, why):
    """LV-7: the Persian source's examples, aces wild, settled in a real showdown: the second hand
    of each pair pays, and the showdown records the steps taken (LV-13)."""
    _, state = table(winner, loser)
    events, _after = showdown(state)
    shown = held(events)
    assert shown.tied == (2, 1), why
    assert shown.loser == 1 and WorstHandPaid(1, 2, 2) in events
    assert [step.step for step in shown.steps][-1] in (2, 3)
    assert shown.steps[-1].rule == rule and shown.steps[-1].still_tied == (1,)
    assert shown.steps[0].rule == "wild_cards" and not shown.steps[0].sentence  # words are made when shown


def test_lv_7_step_4_colour_card_decides_three_black_against_three_red():
    """LV-7 step 4: `Ks Kh 8s 6s 5d` against `Kd Kc 8h 6c 5h` goes to the colour card drawn from
    the stock (purpose colour-card): black saves the first, red the second."""
    _, state = table("Ks Kh 8s 6s 5d", "Kd Kc 8h 6c 5h")
    events, _ = showdown(state)
    shown = held(events)
    step = shown.steps[-1]
    assert [s.step for s in shown.steps] == [1, 2, 3, 4]
    assert step.card in state.stock and step.purpose == "colour-card"
    colour = "black" if step.card[1] in "cs" else "red"
    assert shown.loser == (1 if colour == "black" else 2)
    view = LV.view_event(shown, 0)
    assert view["steps"][-1]["card"] == step.card


def test_lv_7_step_5_manotazo_when_no_hand_has_a_majority_colour():
    """LV-7 step 5: equal hands with no run and no majority colour (a joker each) go to the
    manotazo: a fair shuffle of the tied cards, one each in turn order, the lowest card loses."""
    _, state = table("X1 Kh 9s 6c 4d", "X2 Ks 9h 6d 4c", strong={0: "Ac Ad Ah As Qs", 3: "Tc Td Th Ts Qc"})
    events, _ = showdown(state)
    shown = held(events)
    assert shown.tied == (2, 1)
    last = shown.steps[-1]
    assert last.rule == "manotazo" and last.purpose.startswith("manotazo-")
    drawn = dict(last.draws)
    assert set(drawn) == {2, 1} and shown.loser in drawn


def broke_table(chip_value=0, before=()):
    """Seat 1 holds its last chip and the worst hand."""
    return table("Kd Kh Ks Qd Qh", "4c 5d 7h 9s Jc", chips=1, chip_value=chip_value, before=before)


def test_lv_8_the_broke_player_is_offered_la_viuda_and_buying_keeps_the_pot_and_wild_rank():
    """LV-8: paying the last chip brings the offer; buying costs twice chip_value (to the prize),
    takes the chip back from the pot, so the pot and the next wild rank stay as before the hand."""
    _config, state = broke_table(chip_value=500)
    events, state = showdown(state)
    assert events[-1] == WidowOffered(1, 1000) and LV.to_act(state) == (1,)
    assert LV.legal_actions(state, 1) == [{"type": "buy_widow"}, {"type": "decline_widow"}, *PRESENT]
    with pytest.raises(IllegalAction, match="answer the offer"):
        act(LV, state, 2, "knock")
    events, after = act(LV, state, 1, "buy_widow")
    assert events[0] == WidowBought(1, 1000)
    assert after.pot == 1 and after.chips[1] == 1 and after.widow_bought_by == 1
    assert next(e for e in events if type(e) is HandStarted).wild_rank == "A"
    moves = LV.settlements(state, events[0])
    assert {(m.source, m.destination, m.amount, m.unit) for m in moves} == {
        (("wallet", 1), ("escrow",), 1000, "MONEY"),
        (("pot",), ("seat", 1), 1, "CHIP"),
    }


def test_lv_8_a_player_who_cannot_afford_la_viuda_is_declined_at_once():
    """LV-8: the offer is made only if the wallet holds the price; otherwise declined at once."""
    _, state = broke_table(chip_value=500)
    events, after = showdown(state, can_afford_widow={"1": False})
    assert WidowDeclined(1, "cannot_afford") in events and PlayerEliminated(1, "broke") in events
    assert not any(type(e) is WidowOffered for e in events) and after.out[1]


def test_lv_9_once_bought_later_broke_players_are_out_at_once():
    """LV-9: La Viuda is bought once per game; after that a broke player is out without an offer."""
    _, state = broke_table(before=[WidowBought(0, 0)])
    events, after = showdown(state)
    assert PlayerEliminated(1, "broke") in events and not any(type(e) is WidowOffered for e in events)
    assert after.out[1] and type(events[-1]) is HandStarted


def test_lv_9_a_declined_offer_passes_to_the_next_player_who_goes_broke():
    """LV-9: if the first broke player declines, the offer goes to the next one who goes broke."""
    _, state = broke_table()
    events, state = showdown(state)
    events, state = act(LV, state, 1, "decline_widow", hand_no=state.hand_no + 1)
    assert events[:2] == [WidowDeclined(1, "declined"), PlayerEliminated(1, "broke")]
    assert state.widow_bought_by == -1 and state.out[1]
    order = state.exchange.order
    assert 1 not in order and state.dealer == 2


def test_lv_10_the_offer_expires_into_a_decline():
    """LV-10: the offer is timed by widow_offer_seconds; no answer is a decline."""
    config, state = broke_table()
    config = {**config, "widow_offer_seconds": 45}
    _, state = showdown(state)
    assert LV.deadline(state, config) == (45.0, {"type": "offer_expired", "seat": 1})
    events, state = act(LV, state, 1, "offer_expired", hand_no=state.hand_no + 1)
    assert events[:2] == [WidowDeclined(1, "expired"), PlayerEliminated(1, "broke")]
    with pytest.raises(IllegalAction, match="Nobody has been offered"):
        act(LV, state, 1, "buy_widow")


def test_lv_11_the_last_player_with_chips_wins_every_chip_bought_and_la_viudas_price():
    """LV-11: when one player still has chips the game ends; the prize is all the money paid for
    chips, plus La Viuda's price, from escrow to the winner's pending payout."""
    out = [PlayerEliminated(0, "broke"), PlayerEliminated(3, "broke"), WidowBought(2, 600)]
    config = LV.configure(4, {"chips_per_player": 1, "chip_value": 300, "currency": "MXN"})
    given = [
        GameStarted((0, 1, 2, 3), 1, 300, "MXN"),
        FirstDealerDrawn(((0, "Kc"), (1, "Qc"), (2, "2s"), (3, "Jc")), 2),
        *out,
        dealt(2, (1, 2), {1: "4c 5d 7h 9s Jc", 2: "Kd Kh Ks Qd Qh"}, WIDOW, 4, wild_rank="A"),
    ]
    state = fold(LV, LV.initial_state(config), given)
    _, state = act(LV, state, 1, "knock")
    events, state = act(LV, state, 2, "knock")
    assert events[-1] == GameEnded(2, 4 * 1 * 300 + 600) and state.finished and LV.to_act(state) == ()
    (move,) = LV.settlements(state, events[-1])
    assert (move.source, move.destination, move.amount, move.unit) == (("escrow",), ("payout", 2), 1800, "MONEY")
    with pytest.raises(IllegalAction, match="over"):
        act(LV, state, 2, "knock")


def test_lv_12_flush_by_suit_ranks_a_heart_flush_above_a_diamond_flush():
    """LV-12: with flush_by_suit any heart flush beats any diamond flush; without it, ranks decide."""
    hearts, diamonds = "2h 5h 7h 9h Jh", "3d 6d 8d Td Qd"
    strong = {0: "X1 Ac Ad Ah As", 3: "X2 Kc Ks Kh Kd"}
    for by_suit, loser in ((False, 2), (True, 1)):
        config = LV.configure(4, {"flush_by_suit": by_suit})
        given = [
            GameStarted((0, 1, 2, 3), 3, 0, None),
            FirstDealerDrawn(((0, "Kc"), (1, "Qc"), (2, "Jc"), (3, "2s")), 3),
            dealt(3, (2, 1, 0, 3), {**strong, 2: hearts, 1: diamonds}, "2c 2d 2s 3c 3s", 4, wild_rank="A"),
        ]
        state = fold(LV, LV.initial_state(config), given)
        events, _ = showdown(state)
        assert held(events).loser == loser
        assert [h.category for h in held(events).hands if h.seat in (1, 2)] == ["flush", "flush"]


def test_lv_13_the_hand_records_wild_rank_exchanges_knocks_shown_hands_and_payment():
    """LV-13: wild rank in the deal; exchanges with the private part only for the taker; the knock
    order; each shown hand with category and wild count; who paid and the pot after; seed revealed."""
    _, state = table("8s 8h 9h 5c 4d", "8c 8d 9s 5s 4s")
    events, state = act(LV, state, 2, "exchange_all")
    assert "took" in LV.view_event(events[0], 2) and "took" not in LV.view_event(events[0], 1)
    events, state = act(LV, state, 1, "knock")
    _, state = act(LV, state, 0, "knock")
    _, state = act(LV, state, 3, "exchange_one", give="X2", take="8s")
    assert state.exchange.knocks == (1, 0)
    events, _ = act(LV, state, 2, "knock")
    shown = held(events)
    assert shown.wild_rank == "A"
    by_seat = {hand.seat: hand for hand in shown.hands}
    assert by_seat[0].wild_count == 5 and by_seat[0].category == "five_of_a_kind"
    assert by_seat[3].cards == ("8s", "Tc", "Td", "Th", "Ts") and by_seat[3].wild_count == 0
    paid = next(e for e in events if type(e) is WorstHandPaid)
    assert paid.pot == 2 and paid.seat == shown.loser
    ended = next(e for e in events if type(e) is HandEnded)
    assert LV.view_event(ended, None)["server_seed"] == bytes(range(32)).hex()


def test_lv_13_the_view_shows_the_showdown_in_words_with_who_pays_and_why():
    """LV-6, LV-7, LV-13: the hand page's showdown marks the worst hand `pays` and the rest `safe`,
    describes every hand with what its wild cards stand for, and says each LV-7 step; the engine
    does not know usernames, so the view names seats by number."""
    _, state = table("8s 8h 9h 5c 4d", "8c 8d 9s 5s 4s")
    events, _ = showdown(state)
    shown_event = held(events)
    before_next_hand = fold(LV, state, events[: events.index(shown_event) + 1])
    entries = {entry["seat"]: entry for entry in LV.view(before_next_hand, 2)["showdown"]}
    assert {seat: entry["outcome"] for seat, entry in entries.items()} == {0: "safe", 1: "pays", 2: "safe", 3: "safe"}
    assert entries[0]["description"] == (
        "five of a kind, aces: the ace of clubs, the ace of diamonds, the ace of hearts and the ace of spades"
        " stand for themselves and the joker stands for a second ace of spades"
    )
    assert entries[0]["category"] == "five_of_a_kind" and entries[0]["category_name"] == "five of a kind"
    steps = entries[1]["tie_break"]
    assert steps[0]["sentence"] == "Step 1. seat 2 and seat 1 both hold 0 wild cards: this step decides nothing."
    assert steps[-1]["rule"] == "run" and steps[-1]["sentence"].endswith(": seat 1 has the worst hand.")
    assert entries[0]["tie_break"] == []
