"""Five-Card Draw at game level (FD-1..FD-12, FD-20, FD-21): the deal, the betting, the draw and
the pots, pure engine, hand-built decks (tests/rules/draw_decks.py). Variants, formats, hidden
information and the low hands are in test_five_card_draw_variants.py."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import fairness
from games.engine.cards import STANDARD_DECK
from games.engine.errors import IllegalAction, InvalidOptions
from games.rules.five_card_draw import DECIDER, cards
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    FirstDealerDrawn,
    ForcedBetsPosted,
    HandEnded,
    HandPassed,
    HandStarted,
    PlayerActed,
    PotsAwarded,
    PotShare,
    ShowdownHeld,
    StockReshuffled,
)
from games.rules.five_card_draw.state import State
from tests.rules.draw_decks import Table, every, of, table
from tests.rules.playout_draw import TABLE_ID, apply, hand_seed, new_table

NOTHING = {0: "2c 5d 8h Ts Qc", 1: "3c 6d 9h Js Kd", 2: "4c 7d 9c Th Kh"}  # no pair anywhere


def kinds(legal: list[dict]) -> list[str]:
    return [option["type"] for option in legal]


def option(legal: list[dict], kind: str) -> dict:
    return next(entry for entry in legal if entry["type"] == kind)


def dealt_cards(state: State) -> Counter:
    """Every card of the hand: the hands still in, the stock, the discards (folded hands included)."""
    hand = state.hand
    assert hand is not None
    held = [card for seat in hand.in_hand() for card in hand.cards[seat]]
    return Counter(held + list(hand.stock) + list(hand.discards))


# --- FD-1: table, deck and the button ------------------------------------------------------------


def cm_19_first_dealer(tag: str, seats: int) -> tuple[int, tuple[tuple[int, str], ...]]:
    """CM-19 by hand: hand 1's stream, purpose first-dealer, lowest card deals (aces low), ties draw again."""
    deck = fairness.shuffled(list(STANDARD_DECK), hand_seed(tag, 1), TABLE_ID, 1, "", "first-dealer")
    low = {rank: value for value, rank in enumerate("A23456789TJQK", start=1)}
    drawing, position, draws = list(range(seats)), 0, []
    while len(drawing) > 1:
        taken = [(seat, deck[position + k]) for k, seat in enumerate(drawing)]
        position += len(taken)
        draws += taken
        lowest = min(low[card[0]] for _, card in taken)
        drawing = [seat for seat, card in taken if low[card[0]] == lowest]
    return drawing[0], tuple(draws)


def test_fd_1_two_to_eight_seats() -> None:
    for seats in (1, 9):
        with pytest.raises(InvalidOptions, match="2 to 8 players"):
            DECIDER.configure(seats, {})
    for seats in (2, 8):
        assert DECIDER.configure(seats, {})["seats"] == seats


def test_fd_1_cm_19_first_button_is_drawn_and_the_deck_is_52_cards_without_jokers() -> None:
    ties = 0
    for number in range(12):
        tag = f"first-{number}"
        _, state = new_table(8)
        state, events = apply(state, {"type": "start"}, tag)
        dealer, draws = cm_19_first_dealer(tag, 8)
        assert of(events, FirstDealerDrawn) == FirstDealerDrawn(draws, dealer)
        assert of(events, HandStarted).button == dealer
        ties += len(draws) > 8
        deal = of(events, CardsDealt)
        dealt = [card for held in deal.hands for card in held] + list(deal.stock)
        assert Counter(dealt) == Counter(STANDARD_DECK)
    assert ties, "no draw had a tie for lowest: pick other tags"


def test_fd_1_fd_2_button_moves_clockwise_skipping_a_seat_that_cannot_post() -> None:
    """FD-2: a cash player short of the big blind sits the hand out; FD-1: the button skips them."""
    t = table(4, {"forced_bets": "blinds", "min_buy_in": 2}, button=1, stacks=[100, 100, 2, 100])
    assert of(t.log, HandStarted).players == (2, 3, 0, 1)
    assert of(t.log, ForcedBetsPosted).posts == ((2, 1), (3, 2))
    events = t.fold_out()
    assert t.state.stacks[2] == 1
    second = of(events, HandStarted)
    assert (second.button, second.players) == (3, (0, 1, 3))
    assert of(events, ForcedBetsPosted).posts == ((0, 1), (1, 2))
    assert of(events, CardsDealt).hands[2] == ()
    buttons = [of(t.fold_out(), HandStarted).button for _ in range(3)]
    assert buttons == [0, 1, 3]
    assert t.state.stacks[2] == 1


# --- FD-2, FD-3, FD-5: forced bets, the deal and who acts first --------------------------------


def test_fd_2_antes_every_player_posts_and_min_bet_defaults_to_the_ante() -> None:
    t = table(3, {"ante_amount": 5, "opening": "anything_opens"}, button=1)
    assert of(t.log, ForcedBetsPosted) == ForcedBetsPosted("ante", ((2, 5), (0, 5), (1, 5)), 0)
    assert t.state.pot == 15 and t.state.stacks == (95, 95, 95)
    assert option(t.legal(), "bet")["min"] == 5


def test_fd_2_blinds_left_of_the_button_min_bet_is_the_big_blind_and_big_bet_doubles() -> None:
    t = table(4, {"forced_bets": "blinds", "small_blind": 5, "big_blind": 10}, button=2)
    assert of(t.log, ForcedBetsPosted) == ForcedBetsPosted("blinds", ((3, 5), (0, 10)), 0)
    assert option(t.legal(), "raise")["min"] == 20  # the big blind is the bet: a raise of at least 10
    config = DECIDER.configure(3, {"betting": "fixed_limit", "small_bet": 3})
    assert (config["small_bet"], config["big_bet"]) == (3, 6)
    assert DECIDER.configure(3, {"forced_bets": "blinds", "big_blind": 6})["min_bet"] == 6


def test_fd_2_fd_5_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    t = table(2, {"forced_bets": "blinds"}, button=1, hands={0: "Ac Kd 7h 5s 3c", 1: "2c 4d 6h 8s Tc"})
    assert of(t.log, ForcedBetsPosted).posts == ((1, 1), (0, 2))
    assert t.to_act() == 1
    t.act(1, "call")
    assert t.to_act() == 0 and "check" in kinds(t.legal())
    t.act(0, "check")
    assert t.to_act() == 0  # the draw starts at the dealer's left
    t.act(0, "draw", discard=[])
    t.act(1, "draw", discard=[])
    assert t.to_act() == 0  # after the draw, the first still in to the dealer's left: the big blind


def recomputed_deck(tag: str) -> list[str]:
    return fairness.shuffled(list(cards.pack("none")), hand_seed(tag, 1), TABLE_ID, 1, "", "deck")


@pytest.mark.parametrize(
    ("seats", "forced_bets", "button", "first"),
    [(4, "blinds", 0, 1), (2, "blinds", 1, 1), (2, "blinds", 0, 0), (3, "ante", 2, 0), (5, "ante", 3, 4)],
)
def test_fd_3_five_cards_one_at_a_time_from_the_small_blind_or_the_dealers_left(
    seats: int, forced_bets: str, button: int, first: int
) -> None:
    opening = {"opening": "anything_opens"} if forced_bets == "blinds" else {}
    t = table(seats, {"forced_bets": forced_bets, **opening}, button=button)
    deck = recomputed_deck(t.tag)
    deal = of(t.log, CardsDealt)
    order = [(first + k) % seats for k in range(seats)]
    for k, seat in enumerate(order):
        assert deal.hands[seat] == tuple(deck[k + seats * round_] for round_ in range(5))
    assert deal.stock == tuple(deck[5 * seats :])


def test_fd_5_first_round_left_of_the_big_blind_later_rounds_first_still_in_left_of_the_dealer() -> None:
    t = table(4, {"forced_bets": "blinds"}, button=0)
    assert t.to_act() == 3  # seat 1 small blind, seat 2 big blind
    t.act(3, "call")
    t.act(0, "call")
    t.act(1, "fold")  # the small blind, first to the dealer's left, folds
    t.act(2, "check")
    assert t.state.hand.drawing == (2, 3, 0)  # FD-7: the draw in turn from the dealer's left
    for seat in (2, 3, 0):
        t.act(seat, "draw", discard=[])
    assert t.to_act() == 2
    antes = table(3, {"opening": "anything_opens"}, button=1)
    assert antes.to_act() == 2


# --- FD-4: betting structures at game level -------------------------------------------------------


def test_fd_4_no_limit_minimum_raise_is_the_previous_bet_or_raise() -> None:
    t = table(3, {"opening": "anything_opens"}, button=2)
    t.act(0, "bet", amount=5)
    assert option(t.legal(), "raise") == {"type": "raise", "min": 10, "max": 99}
    with pytest.raises(IllegalAction, match="from 10 to 99"):
        t.act(1, "raise", amount=9)
    t.act(1, "raise", amount=17)
    assert option(t.legal(), "raise")["min"] == 29


def test_fd_4_pot_limit_maximum_is_the_pot_after_calling() -> None:
    t = table(3, {"opening": "anything_opens", "betting": "pot_limit"}, button=2)
    assert option(t.legal(), "bet") == {"type": "bet", "min": 1, "max": 3}  # three antes
    t.act(0, "bet", amount=3)
    assert option(t.legal(), "raise")["max"] == 12  # call 3, pot 9, raise 9
    with pytest.raises(IllegalAction):
        t.act(1, "raise", amount=13)


def test_fd_4_fixed_limit_small_bet_before_the_draw_big_bet_after_and_a_cap() -> None:
    t = table(3, {"opening": "anything_opens", "betting": "fixed_limit", "small_bet": 2}, button=2)
    assert option(t.legal(), "bet") == {"type": "bet", "min": 2, "max": 2}
    t.act(0, "bet", amount=2)
    for seat, to in ((1, 4), (2, 6), (0, 8)):
        assert option(t.legal(), "raise") == {"type": "raise", "min": to, "max": to}
        t.act(seat, "raise", amount=to)
    assert kinds(t.legal()) == ["fold", "call"]  # one bet and three raises
    t.act(1, "call")
    t.act(2, "call")
    for seat in (0, 1, 2):
        t.act(seat, "draw", discard=[])
    assert option(t.legal(), "bet") == {"type": "bet", "min": 4, "max": 4}


def test_fd_4_fd_14_triple_draw_fixed_limit_small_bet_two_rounds_big_bet_two_rounds() -> None:
    t = table(3, {"variant": "triple_draw_27", "betting": "fixed_limit"}, button=0)
    assert t.to_act() == 0  # blinds 1 and 2 by seats 1 and 2
    for to in (4, 6, 8):
        assert option(t.legal(), "raise") == {"type": "raise", "min": to, "max": to}
        t.act(t.to_act(), "raise", amount=to)
    assert kinds(t.legal()) == ["fold", "call"]  # the big blind is the bet, then three raises
    t.act(t.to_act(), "call")
    t.act(t.to_act(), "call")
    sizes = []
    for draw in range(3):
        for seat in (1, 2, 0):
            t.act(seat, "draw", discard=[])
        sizes.append(option(t.legal(), "bet")["max"])
        if draw < 2:
            for seat in (1, 2, 0):
                t.act(seat, "check")
    assert sizes == [2, 4, 4]
    assert option(t.legal(), "bet")["min"] == 4
    t.act(1, "bet", amount=4)
    for seat, to in ((2, 8), (0, 12), (1, 16)):
        t.act(seat, "raise", amount=to)
    assert kinds(t.legal()) == ["fold", "call"]


# --- FD-6: openers and passed hands ------------------------------------------------------------------


def test_fd_6_a_bet_without_jacks_or_better_is_refused_and_not_offered() -> None:
    hands = {0: "Tc Td 4h 5s 7c", 1: "Jc Jd 2h 3s 8c", 2: "Ac Kd Qh 9s 6c"}
    t = table(3, button=2, hands=hands)
    assert kinds(t.legal()) == ["fold", "check"]  # a pair of tens is not openers
    for command in ({"type": "bet", "amount": 1}, {"type": "all_in"}):
        with pytest.raises(IllegalAction) as refused:
            t.command({**command, "seat": 0})
        assert refused.value.code == "no_openers"
        assert kinds(refused.value.legal) == ["fold", "check", "sit_out", "leave"]  # CM-20 too
    t.act(0, "check")
    assert "bet" in kinds(t.legal())  # a pair of jacks opens
    t.act(1, "bet", amount=3)
    assert t.state.hand.opener == 1
    assert "raise" in kinds(t.legal())  # after the opening, no hand is needed to raise
    t.act(2, "raise", amount=6)
    assert t.state.stacks[2] == 93


def test_fd_6_fd_15_wild_cards_count_towards_openers() -> None:
    opener = {0: "Jc 2d 5h 7s 9c", 1: "3c 6d 8h Ts Kd", 2: "4c 7d 9h Th Kh"}
    plain = table(3, button=2, hands=opener)
    assert "bet" not in kinds(plain.legal())
    wild = table(3, {"wild": "deuces"}, button=2, hands=opener)
    assert "bet" in kinds(wild.legal())
    joker = table(3, {"wild": "joker"}, button=2, hands={**opener, 0: "X1 Qd 5h 7s 9c"})
    joker.act(0, "bet", amount=2)
    assert joker.state.hand.opener == 0


def test_fd_6_anything_opens_and_with_blinds_there_is_no_requirement() -> None:
    t = table(3, {"opening": "anything_opens"}, button=2, hands=NOTHING)
    assert of(t.act(0, "bet", amount=2), PlayerActed).to == 2
    blinds = table(3, {"forced_bets": "blinds"}, button=2, hands=NOTHING)
    assert blinds.to_act() == 2 and "raise" in kinds(blinds.legal())
    assert of(blinds.act(2, "raise", amount=4), PlayerActed).to == 4


def test_fd_6_nobody_opens_the_antes_stay_everyone_antes_again_and_the_deal_passes() -> None:
    t = table(3, button=2, hands=NOTHING)
    t.deal_next({0: "Qc Qd 2h 5s 8c", 1: "Kc Kd 3h 6s 9c", 2: "4c 7d Th Js Ah"})
    t.act(0, "check")
    t.act(1, "check")
    events = t.act(2, "check")
    assert of(events, HandPassed) == HandPassed(3, (1, 1, 1))
    assert not every(events, PotsAwarded) and not every(events, ShowdownHeld)
    assert of(events, HandStarted).button == 0
    assert of(events, ForcedBetsPosted) == ForcedBetsPosted("ante", ((1, 1), (2, 1), (0, 1)), 3)
    assert t.state.pot == 6 and t.state.stacks == (98, 98, 98)
    assert t.to_act() == 1
    t.act(1, "bet", amount=4)
    t.act(2, "fold")
    t.act(0, "call")
    t.act(1, "draw", discard=[])
    t.act(0, "draw", discard=[])
    events = t.check_down()
    awarded = of(events, PotsAwarded)
    assert awarded.pots == ((14, (0, 1)),)  # 3 carried + 3 antes + two bets of 4
    assert awarded.shares == (PotShare(0, 1, 14, "whole", True),)
    assert t.state.stacks[1] == 98 - 4 + 14 - 1  # less hand 3's ante


# --- FD-7, FD-8: the draw ---------------------------------------------------------------------------


def to_draw(t: Table) -> None:
    """Everyone checks the first round (anything opens)."""
    while t.state.hand.phase == "betting":
        t.act(t.to_act(), "check")


def test_fd_7_zero_to_three_cards_from_the_top_of_the_stock_in_turn_from_the_dealers_left() -> None:
    t = table(3, {"opening": "anything_opens"}, button=1, hands=NOTHING, stock="Ah Ad As Qh")
    to_draw(t)
    assert t.to_act() == 2 and t.legal() == [{"type": "draw", "min": 0, "max": 3}]
    with pytest.raises(IllegalAction, match="at most 3"):
        t.act(2, "draw", discard=["4c", "7d", "9c", "Th"])
    with pytest.raises(IllegalAction, match="do not hold 2c"):
        t.act(2, "draw", discard=["2c"])
    with pytest.raises(IllegalAction, match="only once"):
        t.act(2, "draw", discard=["4c", "4c"])
    drawn = of(t.act(2, "draw", discard=["4c", "7d"]), CardsDrawn)
    assert (drawn.seat, drawn.count, drawn.received) == (2, 2, ("Ah", "Ad"))
    assert t.state.hand.cards[2] == ("9c", "Th", "Kh", "Ah", "Ad")
    t.act(0, "draw", discard=[])  # standing pat
    drawn = of(t.act(1, "draw", discard=["3c"]), CardsDrawn)
    assert drawn.received == ("As",)
    assert t.state.hand.drew == ((0,), (1,), (2,))


def test_fd_7_ace_rule_none_refuses_four_even_with_an_ace() -> None:
    t = table(3, {"opening": "anything_opens"}, button=2, hands={**NOTHING, 0: "As 5d 8h Tc Qc"})
    to_draw(t)
    assert t.legal() == [{"type": "draw", "min": 0, "max": 3}]
    with pytest.raises(IllegalAction, match="at most 3"):
        t.act(0, "draw", discard=["5d", "8h", "Tc", "Qc"], show="As")


def test_fd_7_four_with_ace_keeps_the_shown_ace_which_everyone_sees() -> None:
    hands = {**NOTHING, 0: "As 5d 8h Tc Qc"}
    t = table(3, {"opening": "anything_opens", "ace_rule": "four_with_ace"}, button=2, hands=hands)
    to_draw(t)
    # One draw action with its whole range; the ace rule says which counts need the ace (FD-7).
    assert [o for o in t.legal() if o["type"] == "draw"] == [
        {"type": "draw", "min": 0, "max": 4, "show_ace": {"min": 4, "max": 4, "aces": ["As"], "keep": True}}
    ]
    four = ["5d", "8h", "Tc", "Qc"]
    refusals = [
        ({"discard": four}, "show an ace"),
        ({"discard": four, "show": "5d"}, "show an ace"),
        ({"discard": four, "show": "Ah"}, "show an ace"),  # not held
        ({"discard": ["As", "5d", "8h", "Tc"], "show": "As"}, "keep the ace"),
        ({"discard": ["As", *four], "show": "As"}, "keep the ace"),
        ({"discard": ["5d"], "show": "As"}, "only to discard more than 3"),
    ]
    for fields, message in refusals:
        with pytest.raises(IllegalAction, match=message):
            t.act(0, "draw", **fields)
    drawn = of(t.act(0, "draw", discard=four, show="As"), CardsDrawn)
    assert (drawn.count, drawn.shown_ace) == (4, "As")
    for seat in (1, 2, None):
        seen = DECIDER.view(t.state, seat)
        assert seen["players"][0]["face_up"] == ["As"] and seen["players"][0]["drew"] == [4]
        public = DECIDER.view_event(drawn, seat)
        assert public["shown_ace"] == "As" and "discarded" not in public and "received" not in public


def test_fd_7_five_with_ace_discards_all_five_ace_included() -> None:
    hands = {**NOTHING, 0: "As 5d 8h Tc Qc"}
    t = table(3, {"opening": "anything_opens", "ace_rule": "five_with_ace"}, button=2, hands=hands, stock="2d 2h 3d")
    to_draw(t)
    assert [o for o in t.legal() if o["type"] == "draw"] == [
        {"type": "draw", "min": 0, "max": 5, "show_ace": {"min": 4, "max": 5, "aces": ["As"], "keep": False}}
    ]
    with pytest.raises(IllegalAction, match="show an ace"):
        t.act(0, "draw", discard=list(hands[0].split()), show="Qc")
    drawn = of(t.act(0, "draw", discard=hands[0].split(), show="As"), CardsDrawn)
    assert (drawn.count, drawn.shown_ace, drawn.received[:3]) == (5, "As", ("2d", "2h", "3d"))
    assert DECIDER.view_event(drawn, 1)["shown_ace"] == "As"
    assert "As" not in t.state.hand.cards[0]


def reshuffle_pool(t: Table, event: StockReshuffled) -> list[str]:
    """FD-8, CM-18: the event's cards put in canonical order and shuffled with purpose reshuffle-N."""
    hand = t.state.hand
    seed = bytes.fromhex(hand.server_seed)
    return fairness.reshuffled(
        event.cards, cards.pack("none"), seed, TABLE_ID, hand.hand_no, "", f"reshuffle-{event.number}"
    )


def test_fd_8_stock_runs_out_discards_and_folded_hands_reshuffled_not_the_drawers_own() -> None:
    t = table(8, {"opening": "anything_opens"}, button=7)
    folded = t.state.hand.cards[0]
    t.act(0, "fold")
    for seat in range(1, 8):
        t.act(seat, "check")
    thrown: list[str] = list(folded)
    for seat in range(1, 5):  # 3 + 3 + 3 + 2 of the 12 in the stock
        discard = list(t.state.hand.cards[seat][: 2 if seat == 4 else 3])
        t.act(seat, "draw", discard=discard)
        thrown += discard
    last = t.state.hand.stock
    assert len(last) == 1
    own = list(t.state.hand.cards[5][:3])
    events = t.act(5, "draw", discard=own)
    shuffle = of(events, StockReshuffled)
    assert (shuffle.number, shuffle.seat, shuffle.size) == (1, 5, 16)
    assert sorted(shuffle.cards) == sorted(thrown) and not set(own) & set(shuffle.cards)
    assert list(shuffle.stock) == reshuffle_pool(t, shuffle)
    assert of(events, CardsDrawn).received == (last[0], *shuffle.stock[:2])
    for seat in (6, 7):
        t.act(seat, "draw", discard=list(t.state.hand.cards[seat][:3]))
    assert dealt_cards(t.state) == Counter(STANDARD_DECK)


def test_fd_8_fd_14_triple_draw_eight_players_reshuffles_numbered_in_the_hand() -> None:
    t = table(8, {"variant": "triple_draw_27"}, button=7)
    while t.state.hand.phase == "betting":
        t.act(t.to_act(), "check" if "check" in kinds(t.legal()) else "call")
    shuffles: list[StockReshuffled] = []
    for draw in (1, 2):
        assert t.state.hand.draw == draw
        while t.state.hand.phase == "drawing":
            seat = t.to_act()
            own = set(t.state.hand.cards[seat])
            events = t.act(seat, "draw", discard=list(own))
            for shuffle in every(events, StockReshuffled):
                assert shuffle.seat == seat and not own & set(shuffle.cards)
                assert list(shuffle.stock) == reshuffle_pool(t, shuffle)
                shuffles.append(shuffle)
            assert dealt_cards(t.state) == Counter(STANDARD_DECK)
        while t.state.hand.phase == "betting":
            t.act(t.to_act(), "check")
    assert [shuffle.number for shuffle in shuffles] == list(range(1, len(shuffles) + 1))
    assert len(shuffles) >= 4


def test_fd_8_amended_a_players_discards_of_earlier_draws_are_reshuffled_not_those_of_this_draw() -> None:
    """FD-8 (amended): the reshuffle keeps out only the cards the drawing player has just discarded
    in this draw; their discards of earlier draws (triple draw) are reshuffled like anyone's. Here
    only one player ever draws, so the third draw's reshuffle is made of nothing but that player's
    first two discards, which the old rule would have kept out (leaving nothing to reshuffle)."""
    t = table(8, {"variant": "triple_draw_27"}, button=7)
    drawer = None
    thrown: list[list[str]] = []
    while t.state.hand.draw < 3 or t.state.hand.phase != "drawing":
        if t.state.hand.phase == "betting":
            t.act(t.to_act(), "check" if "check" in kinds(t.legal()) else "call")
            continue
        seat = t.to_act()
        drawer = seat if drawer is None else drawer
        discard = list(t.state.hand.cards[seat]) if seat == drawer else []
        t.act(seat, "draw", discard=discard)
        if discard:
            thrown.append(discard)
    assert t.to_act() == drawer and len(thrown) == 2 and len(t.state.hand.stock) == 2
    now = list(t.state.hand.cards[drawer])
    events = t.act(drawer, "draw", discard=now)
    shuffle = of(events, StockReshuffled)
    assert (shuffle.number, shuffle.seat) == (1, drawer)
    assert sorted(shuffle.cards) == sorted(thrown[0] + thrown[1]) and not set(now) & set(shuffle.cards)
    assert list(shuffle.stock) == reshuffle_pool(t, shuffle)
    received = of(events, CardsDrawn).received
    assert set(received[2:]) <= set(thrown[0] + thrown[1])  # the drawer's own earlier discards come back
    assert dealt_cards(t.state) == Counter(STANDARD_DECK)


# --- FD-9, FD-10, FD-11: showdown and pots --------------------------------------------------------------


def test_fd_9_last_player_in_wins_unshown_otherwise_best_hand_at_a_showdown() -> None:
    t = table(3, {"opening": "anything_opens"}, button=2, hands=NOTHING)
    t.act(0, "bet", amount=5)
    events = t.fold_out()
    assert not every(events, ShowdownHeld)
    assert of(events, PotsAwarded).shares == (PotShare(0, 0, 8, "whole", False),)
    hands = {0: "9c 9d 9s 4s 4c", 1: "2h 7h 9h Jh Ah", 2: "Kc Kd Ks 3d 8c"}
    t = table(3, {"opening": "anything_opens"}, button=1, hands=hands)
    events = t.check_down()
    shown = of(events, ShowdownHeld).hands
    assert [hand.seat for hand in shown] == [2, 0, 1]  # from the dealer's left
    assert [hand.category for hand in shown] == ["three_of_a_kind", "full_house", "flush"]
    assert of(events, PotsAwarded).shares == (PotShare(0, 0, 3, "whole", True),)


def test_fd_10_odd_chips_go_one_at_a_time_to_the_tied_from_the_dealers_left() -> None:
    hands = {0: "Ac Kc 9d 7h 4s", 1: "Ad Kd 9h 7s 4c", 2: "2c 3d 5h 8s Jd", 3: "Ah Kh 9s 7c 4d"}
    t = table(4, {"opening": "anything_opens"}, button=1, hands=hands)
    t.act(2, "bet", amount=1)
    for seat in (3, 0, 1):
        t.act(seat, "call")
    events = t.check_down()
    assert of(events, PotsAwarded).shares == (
        PotShare(0, 3, 3, "whole", True),
        PotShare(0, 0, 3, "whole", True),
        PotShare(0, 1, 2, "whole", True),
    )


def test_fd_11_three_side_pots_with_a_folded_contributor_and_the_uncalled_part_returned() -> None:
    hands = {0: "2c 3d 5h 8s 9c", 1: "Ac Ad As Kc Kd", 2: "Qc Qd Qs 4c 4d", 3: "Jc Jd Js 3s 3h", 4: "2d 3c 4h 6s 8d"}
    t = table(5, {"opening": "anything_opens", "min_buy_in": 10}, button=4, stacks=[100, 10, 30, 60, 100], hands=hands)
    t.act(0, "bet", amount=5)
    for seat in (1, 2, 3):
        t.act(seat, "all_in")
    t.act(4, "raise", amount=90)
    t.act(0, "fold")
    events = []
    for seat in (1, 2, 3, 4):  # FD-20: the all-in players draw too; no betting round is left
        events += t.act(seat, "draw", discard=[])
    assert not every(events, PlayerActed)
    awarded = of(events, PotsAwarded)
    assert awarded.pots == ((46, (1, 2, 3, 4)), (60, (2, 3, 4)), (60, (3, 4)), (31, (4,)))
    assert awarded.shares == (
        PotShare(0, 1, 46, "whole", True),
        PotShare(1, 2, 60, "whole", True),
        PotShare(2, 3, 60, "whole", True),
        PotShare(3, 4, 31, "whole", False, "uncalled_bet"),
    )
    assert [hand.seat for hand in of(events, ShowdownHeld).hands] == [1, 2, 3, 4]
    assert t.state.stacks == (93, 45, 59, 59, 39)  # after hand 2's antes


# --- FD-20, FD-21 -----------------------------------------------------------------------------------


def test_fd_20_all_in_player_draws_and_shows_and_is_skipped_in_later_betting() -> None:
    hands = {0: "9c 9d 4h 5s 7c", 1: "Kc Kd 2h 3s 8c", 2: "Ac Ad 6h Ts Jc"}
    t = table(3, {"opening": "anything_opens", "min_buy_in": 10}, button=2, stacks=[100, 100, 20], hands=hands)
    t.act(0, "bet", amount=10)
    t.act(1, "call")
    t.act(2, "all_in")  # 19: less than a full raise
    assert kinds(t.legal()) == ["fold", "call"]  # FD-4: it does not reopen the betting
    t.act(0, "call")
    t.act(1, "call")
    assert t.state.hand.drawing == (0, 1, 2)
    t.act(0, "draw", discard=[])
    t.act(1, "draw", discard=[])
    drawn = of(t.act(2, "draw", discard=["6h"]), CardsDrawn)
    assert (drawn.seat, drawn.count) == (2, 1)
    events = t.act(0, "bet", amount=10) + t.act(1, "call")
    assert {event.seat for event in every(events, PlayerActed)} == {0, 1}
    assert [hand.seat for hand in of(events, ShowdownHeld).hands] == [0, 1, 2]
    awarded = of(events, PotsAwarded)
    assert awarded.pots == ((60, (0, 1, 2)), (20, (0, 1)))
    assert awarded.shares == (PotShare(0, 2, 60, "whole", True), PotShare(1, 1, 20, "whole", True))


def test_fd_20_a_round_is_skipped_when_fewer_than_two_can_bet() -> None:
    t = table(2, {"variant": "triple_draw_27", "min_buy_in": 2}, button=0, stacks=[100, 30])
    assert t.to_act() == 0  # heads up: the button's small blind acts first
    t.act(0, "all_in")
    events = t.act(1, "call")
    for _ in range(3):
        assert t.state.hand.phase == "drawing"
        for seat in (1, 0):
            events += t.act(seat, "draw", discard=[])
    assert [event.seat for event in every(events, PlayerActed)] == [1]
    assert of(events, ShowdownHeld) and of(events, HandEnded).hand_no == 1
    assert of(events, PotsAwarded).pots == ((60, (0, 1)), (70, (0,)))


def test_fd_21_timeout_checks_if_it_can_else_folds_and_stands_pat_in_the_draw() -> None:
    t = table(3, {"opening": "anything_opens", "turn_seconds": 45}, button=2, hands=NOTHING)
    config = DECIDER.configure(3, {"turn_seconds": 45})
    assert DECIDER.deadline(t.state, config) == (45.0, {"type": "timeout", "seat": 0})
    assert t.act(0, "timeout") == [PlayerActed(0, "check", 0, 0, timeout=True)]
    t.act(1, "bet", amount=4)
    assert t.act(2, "timeout") == [PlayerActed(2, "fold", 0, 0, timeout=True)]
    t.act(0, "call")
    drawn = of(t.act(0, "timeout"), CardsDrawn)
    assert (drawn.seat, drawn.count, drawn.timeout) == (0, 0, True)
    assert t.state.hand.cards[0] == tuple(NOTHING[0].split())
