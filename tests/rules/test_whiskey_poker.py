"""Whiskey Poker (WP-1..WP-9), given / when / then in events. Hand-dealt tables use three seats,
dealer seat 2, so seats act 0, 1, 2 (clockwise from the dealer's left)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import fairness
from games.engine.cards import deck, reduced_pack
from games.engine.decider import Context
from games.engine.errors import IllegalAction, InvalidOptions
from games.rules.whiskey_poker.decide import split_pot
from games.rules.whiskey_poker.events import (
    AntesPaid,
    GameEnded,
    GameStarted,
    LosersPaid,
    MatchEndRequested,
    PointsScored,
    PotAwarded,
    ShowdownHeld,
)
from games.rules.whiskey_poker.game import (
    DECIDER as WP,
)
from games.rules.widow import exchange as widow
from games.rules.widow.events import FirstDealerDrawn, HandStarted, PlayerEliminated
from games.rules.widow.hand import draw_first_dealer
from tests.rules.widow_helpers import TABLE, act, ctx, dealt, expected_first_dealer, fold

WIDOW = "2c 2d 2h 3c 3d"
NAMES = ["Ana", "Bruno", "Carla"]
FULL_HOUSE_AT_2 = {0: "4c 5d 7h 9s Jc", 1: "Ah Kh Qh Jh 9h", 2: "8s 8h 8d Ks Kd"}


def table(hands: dict[int, str], *, options=None, chips=0, scoring="points", pot=0, before=(), seats=3):
    """Given: a table with its first hand dealt by the test, dealer the last seat."""
    config = WP.configure(seats, {"scoring": scoring, **(options or {})})
    dealer = seats - 1
    given = [
        GameStarted(tuple(range(seats)), scoring, chips, config["chip_value"], config["currency"]),
        FirstDealerDrawn(((dealer, "2c"),), dealer),
        *before,
        dealt(dealer, tuple(range(seats)), hands, WIDOW, seats, pot=pot),
    ]
    return config, fold(WP, WP.initial_state(config), given)


def pot_table(hands: dict[int, str], *, chips=5, options=None):
    """Given: a pot-scoring table of three whose players have each anted a chip (WP-5)."""
    return table(hands, scoring="pot", options=options, chips=chips, pot=3, before=[AntesPaid((0, 1, 2), 3)])


def knock_round(state, seats=3):
    """When: everybody knocks in turn; the showdown follows the dealer's knock."""
    events = []
    for seat in range(seats):
        step, state = act(WP, state, seat, "knock", hand_no=state.hand_no + 1)
        events += step
    return events, state


def of(events, kind):
    return next(event for event in events if type(event) is kind)


def test_wp_1_two_to_nine_players_52_cards_no_jokers_no_wilds():
    """WP-1: 2 to 9 players; 52 cards without jokers; no wild cards."""
    for seats in (1, 10):
        with pytest.raises(InvalidOptions, match="is for 2 to 9 players"):
            WP.configure(seats, {})
    config = WP.configure(9, {})
    events = WP.decide(WP.initial_state(config), {"type": "start"}, ctx(1, 9))
    deal = of(events, HandStarted)
    assert Counter(widow.cards_in(deal.hands)) + Counter(deal.widow_cards) + Counter(deal.stock) == Counter(deck())
    assert deal.wild_rank == ""
    _, state = table({0: "7s 3s 4s 5s 6s", 1: "Ah Kh Qh Jh 9s", 2: "8s 8h 8d 3h 4h"})
    events, _ = knock_round(state)
    assert all(hand.wild_count == 0 for hand in of(events, ShowdownHeld).hands)


def test_wp_2_first_dealer_by_lowest_card_then_the_deal_passes_left():
    """WP-2 (CM-19): the lowest card deals first (aces low, ties draw again); then the deal passes
    to the left, skipping players who are out."""
    config = WP.configure(6, {"scoring": "points"})
    events = WP.decide(WP.initial_state(config), {"type": "start"}, ctx(1, 6))
    drawn = of(events, FirstDealerDrawn)
    cards = fairness.shuffled(deck(), ctx(1, 6).server_seed, TABLE, 1, "|||||", "first-dealer")
    assert drawn.draws[:6] == tuple(enumerate(cards[:6]))
    assert drawn.dealer == expected_first_dealer(cards, 6)
    assert widow.next_dealer(2, 4, [False] * 4, 1) == 3
    assert widow.next_dealer(3, 4, [True, False, False, False], 1) == 1


def test_wp_2_cm_19_ties_for_lowest_draw_again():
    """WP-2 with CM-19: seats tied for lowest draw again, in seat order, until one is lowest."""
    found = 0
    for hand_seed in range(60):
        context = Context(table_id=TABLE, hand_no=1, server_seed=bytes([hand_seed]) * 32, client_seed="")
        drawn = draw_first_dealer(deck(), context, 9)
        cards = fairness.shuffled(deck(), context.server_seed, TABLE, 1, "", "first-dealer")
        assert drawn.dealer == expected_first_dealer(cards, 9)
        if len(drawn.draws) > 9:
            found += 1
            again = [seat for seat, _ in drawn.draws[9:]]
            assert (drawn.dealer in again and again == sorted(again)[: len(again)]) or drawn.dealer in again
    assert found > 0


def test_wp_3_deal_clockwise_from_the_dealers_left_widow_before_the_dealer():
    """WP-3: one card at a time clockwise from the dealer's left, the widow getting its card just
    before the dealer in every round; the fair shuffle with purpose deck replaces the cut."""
    config = WP.configure(5, {"scoring": "points"})
    events = WP.decide(WP.initial_state(config), {"type": "start"}, ctx(1, 5))
    deal = of(events, HandStarted)
    pack = fairness.shuffled(deck(), ctx(1, 5).server_seed, TABLE, 1, "||||", "deck")
    d = deal.dealer
    order = [(d + k) % 5 for k in range(1, 5)]
    assert deal.order == (*order, d)
    for rnd in range(5):
        row = pack[rnd * 6 : rnd * 6 + 6]
        assert [deal.hands[seat][rnd] for seat in order] == row[:4]
        assert deal.widow_cards[rnd] == row[4] and deal.hands[d][rnd] == row[5]
    assert deal.commitment == fairness.commitment(ctx(1, 5).server_seed)


def test_wp_4_play_begins_at_the_dealers_left_and_goes_clockwise():
    """WP-4: the first to act is the dealer's left; then clockwise."""
    config = WP.configure(4, {})
    state = fold(WP, WP.initial_state(config), WP.decide(WP.initial_state(config), {"type": "start"}, ctx(1, 4)))
    first = (state.dealer + 1) % 4
    assert WP.to_act(state) == (first,)
    _, state = act(WP, state, first, "pass")
    assert WP.to_act(state) == ((first + 1) % 4,)


def test_wp_5_pot_scoring_antes_and_the_best_hand_takes_the_pot():
    """WP-5: every player antes one chip before each deal; the best hand takes the pot."""
    config = WP.configure(4, {"chips_per_player": 5})
    events = WP.decide(WP.initial_state(config), {"type": "start"}, ctx(1, 4))
    antes = of(events, AntesPaid)
    assert sorted(antes.seats) == [0, 1, 2, 3] and antes.pot == 4 and of(events, HandStarted).pot == 4
    _, state = pot_table(FULL_HOUSE_AT_2)
    events, after = knock_round(state)
    assert of(events, PotAwarded).shares == ((2, 3),)
    assert of(events, ShowdownHeld).best == (2,)
    assert after.chips[2] == 4 + 3 - 1 and after.pot == 3


def test_wp_5_tied_best_hands_split_and_odd_chips_go_from_the_dealers_left():
    """WP-5: tied best hands split the pot; odd chips one at a time from the dealer's left."""
    assert split_pot(7, (0, 2)) == ((0, 4), (2, 3))
    assert split_pot(8, (1, 0, 2)) == ((1, 3), (0, 3), (2, 2))
    _, state = pot_table({0: "Ac Kc Qd Jd 9h", 1: "As Ks Qs Js 9d", 2: "4c 5c 7h 8d Tc"})
    events, _ = knock_round(state)
    assert of(events, PotAwarded).shares == ((0, 2), (1, 1))


def test_wp_6_a_player_who_cannot_ante_is_out_and_the_match_ends_when_one_holds_every_chip():
    """WP-6: a player without chips is out; when one player holds every chip the match ends and
    every player's chips are cashed out at chip_value through payouts."""
    _, state = pot_table(FULL_HOUSE_AT_2, chips=1, options={"chip_value": 200, "currency": "MXN"})
    events, after = knock_round(state)
    assert PlayerEliminated(0, "cannot_ante") in events and PlayerEliminated(1, "cannot_ante") in events
    ended = of(events, GameEnded)
    assert ended.winners == (2,) and ended.cash_out == (0, 0, 3) and after.finished
    moves = WP.settlements(fold(WP, state, events[:-1]), ended)
    assert {(m.source, m.destination, m.amount, m.unit) for m in moves} == {
        (("seat", 2), ("bank",), 3, "CHIP"),
        (("escrow",), ("payout", 2), 600, "MONEY"),
    }


def test_wp_6_the_owner_ends_the_match_between_hands_and_everyone_cashes_out():
    """WP-6: the table's owner ends the match: it ends when the hand being played is over, and
    each player's chips are cashed out."""
    _, state = pot_table(FULL_HOUSE_AT_2)
    events = WP.decide(state, {"type": "end_match"}, ctx(2, 3))
    assert events == [MatchEndRequested()]
    state = fold(WP, state, events)
    with pytest.raises(IllegalAction, match="already"):
        WP.decide(state, {"type": "end_match"}, ctx(2, 3))
    events, after = knock_round(state)
    assert of(events, GameEnded).cash_out == (4, 4, 7) and not any(type(e) is HandStarted for e in events)
    assert after.chips == (0, 0, 0)
    for bad in ({"chips_per_player": 0}, {"chips_per_player": 101}):
        with pytest.raises(InvalidOptions, match="'Chips per player' must be between 1 and 100"):
            WP.configure(4, bad)


def test_wp_7_loser_pays_every_worst_hand_pays_and_the_first_broke_loses():
    """WP-7: the worst hand pays a chip to the pool, tied worst hands each pay; the first player(s)
    to lose every chip lose the match, which ends there. Lives have no money value."""
    hands = {0: "4c 5d 7h 9s Jc", 1: "4d 5c 7s 9h Jd", 2: "8s 8h 8d Ks Kd"}
    _, state = table(hands, scoring="loser_pays", chips=2)
    events, state = knock_round(state)
    assert of(events, LosersPaid) == LosersPaid((0, 1), 2) and state.chips == (1, 1, 2)
    assert type(events[-1]) is HandStarted
    _, state = table(hands, scoring="loser_pays", chips=1)
    events, state = knock_round(state)
    assert of(events, GameEnded).losers == (0, 1) and of(events, GameEnded).winners == (2,)
    with pytest.raises(InvalidOptions, match="Money applies only to pot scoring"):
        WP.configure(3, {"scoring": "loser_pays", "chip_value": 100, "currency": "MXN"})
    with pytest.raises(InvalidOptions, match="'Lives' applies only to scoring 'Loser pays', not Pot"):
        WP.configure(3, {"lives": 3})


def test_wp_8_reduced_pack_sizes_and_refusals():
    """WP-8: ten up for two players, one rank lower per extra player (24 cards for 3, 40 for 7);
    2-7 players only; it implies points scoring."""
    assert len(reduced_pack(2)) == 20 and len(reduced_pack(3)) == 24 and len(reduced_pack(7)) == 40
    with pytest.raises(InvalidOptions, match="A reduced pack is for 2 to 7 players"):
        WP.configure(8, {"reduced_pack": True})
    with pytest.raises(InvalidOptions, match="implies points scoring, not Pot"):
        WP.configure(4, {"reduced_pack": True, "scoring": "pot"})
    config = WP.configure(7, {"reduced_pack": True})
    assert config["scoring"] == "points"
    events = WP.decide(WP.initial_state(config), {"type": "start"}, ctx(1, 7))
    deal = of(events, HandStarted)
    assert Counter(widow.cards_in(deal.hands)) + Counter(deal.widow_cards) == Counter(reduced_pack(7))
    assert not any(type(e) is AntesPaid for e in events)


def test_wp_8_points_best_hand_scores_and_target_points_win_together():
    """WP-8: the best hand of each deal scores a point (ties: each tied player); the first to
    target_points wins, together if they reach it in the same deal."""
    hands = {0: "Ac Kc Qd Jd 9h", 1: "As Ks Qs Js 9d", 2: "4c 5c 7h 8d Tc"}
    _, state = table(hands, options={"target_points": 2}, before=[PointsScored((0,), (1, 1, 0))])
    events, after = knock_round(state)
    assert of(events, PointsScored) == PointsScored((0, 1), (2, 2, 0))
    assert of(events, GameEnded).winners == (0, 1) and after.finished


def test_wp_8_reduced_pack_straights_run_only_inside_the_pack():
    """WP-8: in the 7-player pack (fives up) 5-6-7-8-9 and T-J-Q-K-A are straights; an ace does not
    sit below the fives."""
    hands = {k: v for k, v in enumerate(["5c 6d 7h 8s 9c", "Tc Jd Qh Ks Ac", "Ad 5d 6h 7s 8c", "Kc Kd 9h 9s Td"])}
    hands.update({4: "Qc Qd Jh Js 6c", 5: "Ah Th 8h 7c 6s", 6: "Jc 9d 8d 7d As"})
    config = WP.configure(7, {"reduced_pack": True})
    given = [
        GameStarted(tuple(range(7)), "points", 0, 0, None),
        FirstDealerDrawn(((6, "2c"),), 6),
        dealt(6, tuple(range(7)), hands, "5h 5s Ts Qs Kh", 7, pot=0),
    ]
    state = fold(WP, WP.initial_state(config), given)
    events, _ = knock_round(state, seats=7)
    categories = {hand.seat: hand.category for hand in of(events, ShowdownHeld).hands}
    assert categories[0] == "straight" and categories[1] == "straight" and categories[2] == "high_card"


def test_wp_9_views_show_own_hand_face_up_widow_and_given_cards_never_cards_taken_unseen():
    """WP-9: a player sees their own hand; the widow only while face up; the cards someone put
    into the widow; never the cards someone took from a face-down widow, never the stock."""
    hands = FULL_HOUSE_AT_2
    _, state = table(hands)
    assert WP.view(state, 1)["hand"] == hands[1].split() and WP.view(state, 1)["widow"] is None
    assert WP.view(state, None)["hand"] is None
    events, state = act(WP, state, 0, "exchange_all")
    for seat in (1, 2, None):
        seen = WP.view(state, seat)
        assert seen["widow"] == hands[0].split()
        assert not set(WIDOW.split()) & set(str(seen).replace("'", " ").split())
        assert "took" not in WP.view_event(events[0], seat)
    assert WP.view(state, 0)["hand"] == WIDOW.split()


LOSER_PAYS_HANDS = {0: "4c 5d 7h 9s Jc", 1: "4d 5c 7s 9h Jd", 2: "8s 8h 8d Ks Kd"}


def test_wp_7_the_audit_calls_the_paying_hands_pays_and_the_others_safe():
    """WP-7: under loser_pays the audit's showdown marks the tied worst hands `pays` and the best
    `safe`; no hand `wins`. Their tie is said in a sentence naming the players."""
    config, state = table(LOSER_PAYS_HANDS, scoring="loser_pays", chips=2)
    events, _ = knock_round(state)
    shown = {entry["seat"]: entry for entry in WP.audit.showdown({**config, "player_names": NAMES}, events)}
    assert {seat: entry["outcome"] for seat, entry in shown.items()} == {0: "pays", 1: "pays", 2: "safe"}
    assert shown[0]["tie_break"] == [
        {"rule": "WP-7", "sentence": "Ana and Bruno tie for the worst hand and each pays one chip to the pool"}
    ]
    assert shown[2]["tie_break"] == [] and shown[2]["category"] == "full_house"
    assert shown[2]["category_name"] == "full house" and shown[2]["description"] == "full house, eights full of kings"


def test_wp_7_the_hand_page_calls_the_paying_hands_pays_and_the_others_safe():
    """WP-7: the view's showdown (the hand page) says `pays` and `safe` too, seats named by number."""
    _, state = table(LOSER_PAYS_HANDS, scoring="loser_pays", chips=1)
    _, state = knock_round(state)
    assert state.finished
    shown = {entry["seat"]: entry for entry in WP.view(state, None)["showdown"]}
    assert {seat: entry["outcome"] for seat, entry in shown.items()} == {0: "pays", 1: "pays", 2: "safe"}
    assert shown[1]["tie_break"][0]["sentence"].startswith("seat 0 and seat 1 tie for the worst hand")


def test_wp_5_pot_scoring_still_wins_and_a_split_is_said():
    """WP-5: in pot scoring the best hand wins; tied best hands split, which a sentence says."""
    config, state = pot_table({0: "4c 5d 7h 9s Jc", 1: "As Ad Ac Qc Qh", 2: "8s 8h 8d Ks Kd"})
    events, _ = knock_round(state)
    shown = {entry["seat"]: entry["outcome"] for entry in WP.audit.showdown(config, events)}
    assert shown == {0: "loses", 1: "wins", 2: "loses"}
    config, state = pot_table({0: "4c 5d 7h 9c Jc", 1: "Ah Kh Qh Jh 9h", 2: "As Ks Qs Js 9s"})
    events, _ = knock_round(state)
    entries = {entry["seat"]: entry for entry in WP.audit.showdown({**config, "player_names": NAMES}, events)}
    assert [entries[seat]["outcome"] for seat in range(3)] == ["loses", "splits", "splits"]
    assert entries[1]["tie_break"][0]["sentence"] == "Bruno and Carla tie for the best hand and split the pot"
