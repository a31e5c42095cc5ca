"""Euchre rules (EU-1..EU-22): given events, when a command, then events or a refusal."""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import random
from collections import Counter

import pytest

from games.engine.codec import decode_event, decode_state, encode_event, encode_state
from games.engine.decider import Context, event_types_by_name
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.fairness import commitment, shuffled
from games.rules.euchre import DECIDER
from games.rules.euchre.cards import DECK, PACKETS, deal_hands, draw_first_dealer, effective_suit, trick_winner
from games.rules.euchre.events import (
    AceNoFaceDeclared,
    CardPlayed,
    ClaimDeclined,
    DealerDiscarded,
    FarmersHandSwapped,
    HandEnded,
    HandStarted,
    MatchStarted,
    MatchWon,
    Passed,
    TrickTaken,
    TrumpMade,
)
from tests.rules.playout_euchre import FAKE_TABLE_ID, hand_seed, next_context, play_match, step

# What every seat may send about its presence while the table runs, on its turn or not (CM-20).
PRESENT = [{"type": "sit_out"}, {"type": "leave"}]

TAG = "given"


def config(seats: int = 4, **options):
    return DECIDER.configure(seats, options)


def stacked_deck(hands: dict[int, list[str]], kitty: list[str], dealer: int, seats: int = 4, pattern: str = "2-3"):
    """The deck order that deals ``hands`` and leaves ``kitty`` (its first card turned up)."""
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    taken = dict.fromkeys(range(seats), 0)
    cards: list[str] = []
    for packets in PACKETS[(pattern, seats)]:
        for seat, count in zip(order, packets):
            cards += hands[seat][taken[seat] : taken[seat] + count]
            taken[seat] += count
    cards += kitty
    assert sorted(cards) == sorted(DECK)
    return tuple(cards)


def given(hands, kitty, dealer=0, seats=4, **options):
    """A table whose hand 1 deals exactly ``hands`` and ``kitty``."""
    cfg = config(seats, **options)
    state = DECIDER.initial_state(cfg)
    seed = hand_seed(TAG, 1)
    events = [
        MatchStarted(seats=seats, dealer=dealer, draws=()),
        HandStarted(
            hand_no=1,
            seats=seats,
            dealer=dealer,
            pattern="2-3",
            commitment=commitment(seed),
            next_commitment=None,
            client_seed="",
            turned_card=kitty[0],
            server_seed=seed.hex(),
            deck=stacked_deck(hands, kitty, dealer, seats),
        ),
    ]
    for event in events:
        state = DECIDER.evolve(state, event)
    return state


def when(state, seat, **command):
    """Decide and fold one command: the new state and its events."""
    return step(DECIDER, state, {**command, "seat": seat}, TAG)


def refused(state, seat, **command) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        DECIDER.decide(state, {**command, "seat": seat}, next_context(state, TAG))
    return caught.value


def run_out(state):
    """Play the hand out by timeouts (EU-22: lowest legal cards): the events until the hand ends."""
    log = []
    hand_no = state.hand_no
    while state.hand_no == hand_no and not DECIDER.is_finished(state) and state.phase != "between":
        (seat,) = DECIDER.to_act(state)
        state, events = step(DECIDER, state, {"type": "timeout", "seat": seat}, TAG)
        log += events
    return state, log


# A standard deal: dealer 3; seat 0 (dealer's left) holds both red bowers.
HANDS = {
    0: ["Jh", "Jd", "Ah", "Kc", "9s"],
    1: ["9h", "Th", "Ac", "Qc", "Ts"],
    2: ["Qh", "Ad", "Kd", "Qd", "As"],
    3: ["9c", "Tc", "Jc", "9d", "Td"],
}
KITTY = ["Kh", "Ks", "Qs", "Js"]  # Kh turned up


def test_eu_1_partners_sit_opposite_and_share_a_score():
    """EU-1: seats 0 and 2 against 1 and 3; both partners carry the side's score."""
    state = given(HANDS, KITTY, dealer=3)
    state, events = when(state, 0, type="order_up")
    made = events[0]
    assert isinstance(made, TrumpMade) and made.makers == (0, 2)
    state, _ = when(state, 3, type="discard", card="9c")
    state, log = run_out(state)
    ended = next(e for e in log if isinstance(e, HandEnded))
    assert ended.points[0] == ended.points[2] and ended.points[1] == ended.points[3]


def test_eu_2_cm_19_first_dealer_is_the_lowest_card_and_the_deal_passes_left():
    """EU-2, CM-19: 24 cards 9..A; the first dealer is drawn (aces low); each hand passes the deal left."""
    assert len(DECK) == 24 and {card[0] for card in DECK} == set("9TJQKA")
    seed = hand_seed("first", 1)
    state, events = step(DECIDER, DECIDER.initial_state(config()), {"type": "start"}, "first")
    started = events[0]
    cards = shuffled(DECK, seed, FAKE_TABLE_ID, 1, "", "first-dealer")
    assert (started.dealer, started.draws) == draw_first_dealer(cards, 4)
    values = {card: (1 if card[0] == "A" else "9TJQK".index(card[0]) + 9) for card in DECK}
    first_round = dict(started.draws[:4])
    assert values[first_round[started.dealer]] == min(values[card] for card in first_round.values())
    dealers = [state.dealer]
    numbers = [state.hand_no]
    while state.hand_no < 4:
        (seat,) = DECIDER.to_act(state)
        state, _ = step(DECIDER, state, {"type": "timeout", "seat": seat}, "first")
        if state.hand_no != numbers[-1]:
            dealers.append(state.dealer)
            numbers.append(state.hand_no)
    assert dealers == [(dealers[0] + i) % 4 for i in range(4)]
    assert numbers == [1, 2, 3, 4]


def test_cm_19_tied_lowest_cards_draw_again():
    """CM-19: seats tied for the lowest card draw again in seat order."""
    dealer, draws = draw_first_dealer(["9c", "Ts", "9h", "Kd", "Qc", "Ad"], 4)
    assert dealer == 2 and draws[4:] == ((0, "Qc"), (2, "Ad"))


@pytest.mark.parametrize(
    ("pattern", "seats", "sizes"),
    [("2-3", 4, [2, 3, 2, 3, 3, 2, 3, 2]), ("3-2", 4, [3, 2, 3, 2, 2, 3, 2, 3]), ("2-3", 3, [2, 3, 2, 3, 2, 3])],
)
def test_eu_3_deal_in_packets_from_the_dealers_left(pattern, seats, sizes):
    """EU-3: packets 2-3-2-3 then 3-2-3-2 (or the reverse), clockwise from the dealer's left; the
    rest is the kitty (4 cards, or 9 with 3 players)."""
    hands, kitty = deal_hands(DECK, 1, seats, pattern)
    order = [(1 + 1 + i) % seats for i in range(seats)] * 2
    position, expected = 0, {seat: [] for seat in range(seats)}
    for seat, size in zip(order, sizes):
        expected[seat] += DECK[position : position + size]
        position += size
    assert [list(hand) for hand in hands] == [expected[seat] for seat in range(seats)]
    assert list(kitty) == list(DECK[position:]) and len(kitty) == (4 if seats == 4 else 9)


def test_eu_3_a_dealers_pattern_is_kept_until_changed():
    """EU-3: the deal pattern is a setting of the dealer's seat, used when that seat deals."""
    state = DECIDER.initial_state(config(deal_pattern="2-3"))
    state, _ = step(DECIDER, state, {"type": "start"}, "pattern")
    dealer = state.dealer
    nxt = (dealer + 1) % 4
    state, events = when(state, nxt, type="set_deal_pattern", pattern="3-2")
    assert state.deal_patterns[nxt] == "3-2"
    while state.hand_no == 1:
        (seat,) = DECIDER.to_act(state)
        state, events = step(DECIDER, state, {"type": "timeout", "seat": seat}, "pattern")
    started = events[-1]
    assert isinstance(started, HandStarted) and started.dealer == nxt and started.pattern == "3-2"
    hands, _ = deal_hands(started.deck, nxt, 4, "3-2")
    assert state.hands == hands


def test_eu_4_order_up_the_dealer_picks_up_and_discards():
    """EU-4: an order up puts the turned card in the dealer's hand; the dealer discards one."""
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="pass")
    state, events = when(state, 1, type="order_up")
    assert events == [TrumpMade(1, 1, "h", False, (1, 3), -1, True)]
    assert state.phase == "discard" and DECIDER.to_act(state) == (3,) and "Kh" in state.hands[3]
    assert len(state.hands[3]) == 6
    state, events = when(state, 3, type="discard", card="9d")
    assert events == [DealerDiscarded(3, "9d")] and "9d" not in state.hands[3] and state.discard == "9d"
    assert state.phase == "play" and DECIDER.to_act(state) == (0,)


def test_eu_4_the_dealer_picks_up_and_others_order_up():
    """EU-4: the dealer's own order up is a pick up; others may not pick up."""
    state = given(HANDS, KITTY, dealer=3)
    for seat in (0, 1, 2):
        assert {"type": "order_up", "alone": False} in DECIDER.legal_actions(state, seat)
        assert "Only the dealer picks up" in refused(state, seat, type="pick_up").message
        state, _ = when(state, seat, type="pass")
    assert {"type": "pick_up", "alone": False} in DECIDER.legal_actions(state, 3)
    state, events = when(state, 3, type="pick_up")
    assert events[0].dealer_picks_up and events[0].makers == (1, 3)


def test_eu_5_second_round_names_another_suit_and_all_passing_throws_in():
    """EU-5: the turned suit cannot be named in round 2; if all pass, the hand is thrown in, the
    seed revealed, and the next dealer deals a new hand with its own number and commitment."""
    state = given(HANDS, KITTY, dealer=3)
    for seat in (0, 1, 2, 3):
        state, _ = when(state, seat, type="pass")
    assert state.bidding_round == 2 and state.turned_down
    assert "Hearts was turned down" in refused(state, 0, type="name_trump", suit="hearts").message
    suits = {a["suit"] for a in DECIDER.legal_actions(state, 0) if a["type"] == "name_trump"}
    assert suits == {"c", "d", "s"}
    for seat in (0, 1, 2):
        state, _ = when(state, seat, type="pass")
    state, events = when(state, 3, type="pass")
    ended, started = events[1], events[2]
    assert isinstance(ended, HandEnded) and ended.outcome == "thrown_in" and ended.points == (0, 0, 0, 0)
    assert ended.server_seed == hand_seed(TAG, 1).hex()
    assert isinstance(started, HandStarted) and started.hand_no == 2 and started.dealer == 0
    assert started.commitment == commitment(hand_seed(TAG, 2)) != commitment(hand_seed(TAG, 1))


def test_eu_6_makers_and_defenders():
    """EU-6: the side that names trump are the makers."""
    state = given(HANDS, KITTY, dealer=3)
    for seat in (0, 1, 2, 3):
        state, _ = when(state, seat, type="pass")
    state, _ = when(state, 0, type="pass")
    state, _ = when(state, 1, type="name_trump", suit="c")
    assert state.makers == (1, 3) and state.maker == 1 and state.trump == "c"


def test_eu_7_lone_hand_by_the_dealers_partner_the_dealer_does_not_pick_up():
    """EU-7: the dealer's partner orders up alone: the dealer sits out, keeps the turned card
    on the kitty, discards nothing and has no legal actions; play starts at once."""
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="pass")
    state, events = when(state, 1, type="order_up", alone=True)
    assert events == [TrumpMade(1, 1, "h", True, (1, 3), 3, False)]
    assert state.phase == "play" and state.kitty[0] == "Kh" and len(state.hands[3]) == 5
    assert "Kh" not in state.hands[3] and state.discard == ""
    assert DECIDER.legal_actions(state, 3) == PRESENT
    assert "sitting out" in refused(state, 3, type="play", card="9c").message
    view = DECIDER.view(state, 3)
    assert view["sitting_out"] == 3 and view["hand"] == HANDS[3]
    state, log = run_out(state)
    assert all(play[0] != 3 for e in log if isinstance(e, TrickTaken) for play in e.plays)
    assert all(len(e.plays) == 3 for e in log if isinstance(e, TrickTaken))


def test_eu_7_lone_hand_by_the_dealer_partner_sits_out_and_dealer_discards():
    """EU-7: a dealer who picks up alone still discards; the partner sits out."""
    state = given(HANDS, KITTY, dealer=0)
    for seat in (1, 2, 3):
        state, _ = when(state, seat, type="pass")
    state, events = when(state, 0, type="pick_up", alone=True)
    assert events[0].sitting_out == 2 and state.phase == "discard"
    assert DECIDER.legal_actions(state, 2) == PRESENT


def test_eu_8_bower_order_and_effective_suits():
    """EU-8: right bower, left bower, then A K Q 10 9 of trump; the left bower is a trump."""
    plays = ((0, "Ah"), (1, "Jd"), (2, "Jh"), (3, "Kh"))
    assert trick_winner(plays, "h") == 2
    assert trick_winner(((0, "Ah"), (1, "Jd"), (2, "Kh"), (3, "Qh")), "h") == 1
    assert effective_suit("Jd", "h") == "h" and effective_suit("Jd", "c") == "d"
    # Diamonds led with hearts trump: the left bower is no diamond, so Jd trumps it.
    assert trick_winner(((0, "Ad"), (1, "Jd"), (2, "Kd"), (3, "9c")), "h") == 1
    # Diamonds have no jack while it is the left bower: the ace leads the rest.
    assert trick_winner(((0, "Kd"), (1, "Ad"), (2, "Qd"), (3, "9d")), "h") == 1


def test_eu_9_first_lead_from_the_dealers_left_skipping_a_seat_sitting_out():
    """EU-9: the player to the dealer's left leads, or the next if that player sits out."""
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="pass")
    state, _ = when(state, 1, type="pass")
    state, _ = when(state, 2, type="order_up", alone=True)  # partner 0, on the dealer's left, sits out
    state, _ = when(state, 3, type="discard", card="9d")
    assert DECIDER.to_act(state) == (1,)


def test_eu_10_the_left_bower_follows_trump_not_its_printed_suit():
    """EU-10: hearts trump, diamonds led: Jd is a heart, so a player holding Jd and no other
    diamond may play anything but must not count Jd as a diamond; with hearts led, Jd must
    follow."""
    hands = {
        0: ["Ad", "9c", "Tc", "Qc", "Kc"],
        1: ["Jd", "9s", "Ts", "Qs", "Ks"],
        2: ["Ah", "Kh", "Qh", "Th", "9h"],
        3: ["Jh", "9d", "Td", "Qd", "Kd"],
    }
    kitty = ["As", "Js", "Jc", "Ac"]
    state = given(hands, kitty, dealer=3)
    for seat in (0, 1, 2, 3):
        state, _ = when(state, seat, type="pass")
    state, _ = when(state, 0, type="pass")
    state, _ = when(state, 1, type="name_trump", suit="h")
    state, _ = when(state, 0, type="play", card="Ad")
    legal = {a["card"] for a in DECIDER.legal_actions(state, 1) if a["type"] == "play"}
    assert legal == set(hands[1])  # no diamond held: Jd is a heart this hand
    state, _ = when(state, 1, type="play", card="Jd")
    assert DECIDER.legal_actions(state, 2) == [{"type": "play", "card": c} for c in hands[2]] + PRESENT
    state, _ = when(state, 2, type="play", card="9h")
    state, events = when(state, 3, type="play", card="9d")
    assert events[-1] == TrickTaken(1, 1, ((0, "Ad"), (1, "Jd"), (2, "9h"), (3, "9d")))


def test_eu_10_refusing_a_renege_names_the_suit_to_follow():
    """EU-10: hearts trump, hearts led: a player holding Jd must play it (or another heart), and
    the refusal names hearts and the left bower."""
    hands = {
        0: ["Ah", "9c", "Tc", "Qc", "Kc"],
        1: ["Jd", "9d", "Ts", "Qs", "Ks"],
        2: ["Jh", "Kh", "Qh", "Th", "9h"],
        3: ["9s", "Td", "Qd", "Kd", "Ad"],
    }
    kitty = ["As", "Js", "Jc", "Ac"]
    state = given(hands, kitty, dealer=3)
    for seat in (0, 1, 2, 3):
        state, _ = when(state, seat, type="pass")
    state, _ = when(state, 0, type="name_trump", suit="h")
    state, _ = when(state, 0, type="play", card="Ah")
    error = refused(state, 1, type="play", card="9d")
    assert error.message.startswith("You must follow hearts: hearts were led and you hold Jd.")
    assert "left bower" in error.message and error.legal == [{"type": "play", "card": "Jd"}, *PRESENT]
    state, _ = when(state, 1, type="play", card="Jd")
    state, _ = when(state, 2, type="play", card="9h")
    assert DECIDER.legal_actions(state, 3) == [{"type": "play", "card": c} for c in hands[3]] + PRESENT


def test_eu_10_playing_the_left_bower_as_its_printed_suit_is_refused():
    """EU-10: diamonds led, hearts trump: a player holding Jd and Kd must play Kd; Jd is a heart."""
    hands = {
        0: ["Ad", "9c", "Tc", "Qc", "Kc"],
        1: ["Jd", "Kd", "Ts", "Qs", "Ks"],
        2: ["Ah", "Kh", "Qh", "Th", "9h"],
        3: ["Jh", "9d", "Td", "Qd", "9s"],
    }
    kitty = ["As", "Js", "Jc", "Ac"]
    state = given(hands, kitty, dealer=3)
    for seat in (0, 1, 2, 3):
        state, _ = when(state, seat, type="pass")
    state, _ = when(state, 0, type="name_trump", suit="h")
    state, _ = when(state, 0, type="play", card="Ad")
    error = refused(state, 1, type="play", card="Jd")
    assert "You must follow diamonds" in error.message and "Jd is the left bower" in error.message
    assert error.legal == [{"type": "play", "card": "Kd"}, *PRESENT]


def test_eu_11_highest_trump_wins_and_the_winner_leads():
    """EU-11: the highest trump wins; without trump, the highest of the suit led; the winner leads."""
    assert trick_winner(((0, "Ac"), (1, "9h"), (2, "Kc"), (3, "Th")), "h") == 3
    assert trick_winner(((0, "Qc"), (1, "As"), (2, "Kc"), (3, "9d")), "h") == 2
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="order_up")
    state, _ = when(state, 3, type="discard", card="9c")
    state, log = run_out(state)
    taken = [e for e in log if isinstance(e, TrickTaken)]
    assert len(taken) == 5
    for before, after in itertools.pairwise(taken):
        assert after.plays[0][0] == before.winner


def test_eu_11_each_trick_shown_to_players_says_who_took_it_in_words():
    """EU-11: the view's tricks keep their data (plays, winner) and add a sentence for players."""
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="order_up")
    state, _ = when(state, 3, type="discard", card="9c")
    while len(state.tricks) < 1:
        (seat,) = DECIDER.to_act(state)
        state, _ = step(DECIDER, state, {"type": "timeout", "seat": seat}, TAG)
    (trick,) = DECIDER.view(state, 1)["tricks"]
    card = next(play["card"] for play in trick["plays"] if play["seat"] == trick["winner"])
    assert trick["sentence"] == f"Trick 1: seat {trick['winner']} took it with {card}."
    assert trick["sentence"].msgid == "Trick {trick}: seat {seat} took it with {card}."


def _score_hand(hands, kitty, dealer, bidder, alone=False, **options):
    state = given(hands, kitty, dealer=dealer, **options)
    seat = (dealer + 1) % 4
    while seat != bidder:
        state, _ = when(state, seat, type="pass")
        seat = (seat + 1) % 4
    verb = "pick_up" if bidder == dealer else "order_up"
    state, _ = when(state, bidder, type=verb, alone=alone)
    if state.phase == "discard":
        state, _ = when(state, dealer, type="timeout")
    state, log = run_out(state)
    return next(e for e in log if isinstance(e, HandEnded))


def test_eu_12_eu_13_a_march_scores_2_and_a_lone_march_4():
    """EU-12, EU-13: tricks are counted after five; all five with a partner is 2, alone 4."""
    hands = {
        0: ["Jh", "Jd", "Ah", "Kh", "Qh"],
        1: ["9c", "Tc", "Qc", "Kc", "Ac"],
        2: ["9s", "Ts", "Qs", "Ks", "As"],
        3: ["9d", "Td", "Qd", "Kd", "Ad"],
    }
    kitty = ["Th", "9h", "Jc", "Js"]
    ended = _score_hand(hands, kitty, dealer=3, bidder=0)
    assert (ended.maker_tricks, ended.points) == (5, (2, 0, 2, 0))
    ended = _score_hand(hands, kitty, dealer=3, bidder=0, alone=True)
    assert (ended.maker_tricks, ended.points) == (5, (4, 0, 4, 0))


def test_eu_13_makers_euchred_give_the_defenders_2():
    """EU-13: makers with fewer than 3 tricks are euchred: the defenders score 2."""
    hands = {
        0: ["9h", "9c", "Tc", "9s", "Ts"],
        1: ["Jh", "Jd", "Ah", "Kh", "Qh"],
        2: ["Th", "Qc", "Kc", "Qs", "Ks"],
        3: ["9d", "Td", "Qd", "Kd", "Ad"],
    }
    kitty = ["Ac", "As", "Jc", "Js"]  # Ac turned: order clubs with few clubs
    ended = _score_hand(hands, kitty, dealer=3, bidder=0)
    assert ended.maker_tricks < 3 and ended.points == (0, 2, 0, 2)


def test_eu_13_three_or_four_tricks_score_1():
    """EU-13: makers with 3 or 4 tricks score 1, alone or not."""
    hands = {
        0: ["Jh", "Jd", "Ah", "9c", "9s"],
        1: ["9h", "Tc", "Qc", "Kc", "Ac"],
        2: ["Th", "Ts", "Qs", "Ks", "As"],
        3: ["9d", "Td", "Qd", "Kd", "Ad"],
    }
    kitty = ["Kh", "Qh", "Jc", "Js"]
    ended = _score_hand(hands, kitty, dealer=3, bidder=0)
    assert ended.maker_tricks in (3, 4) and ended.points == (1, 0, 1, 0)


def test_eu_14_the_first_side_to_the_target_wins_the_match():
    """EU-14: the match ends when a side reaches target_points; both partners win."""
    state, log = play_match(DECIDER, config(target_points=3), _random_chooser(random.Random(1)), "target")
    won = log[-1]
    assert isinstance(won, MatchWon) and DECIDER.is_finished(state)
    assert won.winners in ((0, 2), (1, 3)) and all(state.scores[s] >= 3 for s in won.winners)
    previous = next(e for e in reversed(log) if isinstance(e, HandEnded))
    assert all(score < 3 for score in (previous.scores[s] - previous.points[s] for s in range(4)))


def _all_pass_first_round(state, dealer):
    for i in range(4):
        state, _ = when(state, (dealer + 1 + i) % 4, type="pass")
    for i in range(3):
        state, _ = when(state, (dealer + 1 + i) % 4, type="pass")
    return state


def test_eu_15_stick_the_dealer_must_name_a_suit():
    """EU-15: with stick the dealer, the dealer may not pass in round 2; without no trump the
    choices are the other three suits (alone or not)."""
    state = _all_pass_first_round(given(HANDS, KITTY, dealer=3, stick_the_dealer=True), 3)
    assert "Stick the dealer" in refused(state, 3, type="pass").message
    legal = DECIDER.legal_actions(state, 3)
    assert {(a["type"], a.get("suit")) for a in legal} == {("name_trump", s) for s in "cds"} | {
        ("sit_out", None),
        ("leave", None),
    }
    assert "does not play no trump" in refused(state, 3, type="call_no_trump").message
    state, events = when(state, 3, type="name_trump", suit="spades")
    assert events[0].suit == "s" and events[0].makers == (1, 3)


def test_eu_15_eu_18_stick_the_dealer_with_no_trump():
    """EU-15, EU-18: a stuck dealer may call no trump: jacks are ordinary, the highest card of
    the suit led wins, the dealer's side are the makers and need 3 tricks."""
    state = _all_pass_first_round(given(HANDS, KITTY, dealer=3, stick_the_dealer=True, no_trump=True), 3)
    assert {"type": "call_no_trump", "alone": False} in DECIDER.legal_actions(state, 3)
    state, events = when(state, 3, type="call_no_trump")
    assert events[0].suit is None and events[0].makers == (1, 3) and state.trump is None
    assert trick_winner(((0, "Ad"), (1, "Jd"), (2, "Jh"), (3, "Kd")), None) == 0
    state, log = run_out(state)
    ended = next(e for e in log if isinstance(e, HandEnded))
    tricks = Counter(e.winner for e in log if isinstance(e, TrickTaken))
    makers = tricks[1] + tricks[3]
    assert ended.maker_tricks == makers
    assert ended.points == ((0, 2, 0, 2) if makers == 5 else (0, 1, 0, 1) if makers >= 3 else (2, 0, 2, 0))


def test_eu_18_no_trump_needs_stick_the_dealer_and_a_forced_dealer():
    """EU-18: only with stick the dealer, and only for the dealer forced to call; alone is a lone hand."""
    with pytest.raises(InvalidOptions, match="No trump needs stick the dealer"):
        DECIDER.configure(4, {"no_trump": True})
    state = given(HANDS, KITTY, dealer=3, stick_the_dealer=True, no_trump=True)
    for seat in (0, 1, 2, 3, 0):
        state, _ = when(state, seat, type="pass")
    assert "forced to call" in refused(state, 1, type="call_no_trump").message
    state = _all_pass_first_round(given(HANDS, KITTY, dealer=3, stick_the_dealer=True, no_trump=True), 3)
    state, events = when(state, 3, type="call_no_trump", alone=True)
    assert events[0].sitting_out == 1 and state.alone


def test_eu_16_farmers_hand_swaps_three_cards_with_the_kitty():
    """EU-16: a hand of nines and tens swaps three cards for the three kitty cards not turned up;
    offered in turn from the dealer's left; one swap per deal."""
    hands = {
        0: ["9h", "Th", "9c", "Tc", "9s"],
        1: ["Jh", "Jd", "Ah", "Kh", "Qh"],
        2: ["Ts", "9d", "Td", "Qc", "Kc"],
        3: ["Ad", "Kd", "Qd", "As", "Ks"],
    }
    kitty = ["Ac", "Jc", "Js", "Qs"]
    state = given(hands, kitty, dealer=3, farmers_hand=True)
    assert state.phase == "claims" and DECIDER.to_act(state) == (0,)
    swaps = [a for a in DECIDER.legal_actions(state, 0) if a["type"] == "farmers_swap"]
    assert len(swaps) == 10
    state, events = when(state, 0, type="farmers_swap", cards=["9c", "Tc", "9s"])
    assert events == [FarmersHandSwapped(0, tuple(hands[0]), ("9c", "Tc", "9s"), ("Jc", "Js", "Qs"))]
    assert sorted(state.hands[0]) == sorted(["9h", "Th", "Jc", "Js", "Qs"])
    assert state.kitty == ("Ac", "9c", "Tc", "9s") and state.turned_card == "Ac"
    public = DECIDER.view_event(events[0], 1)
    assert "given" not in public and "taken" not in public and public["shown"] == hands[0]
    assert DECIDER.view_event(events[0], 0)["taken"] == ["Jc", "Js", "Qs"]
    # Seat 2 is offered next; its hand is no farmer's hand, and the swap is used anyway.
    assert DECIDER.legal_actions(state, 2) == PRESENT
    assert DECIDER.legal_actions(state, 1) == [{"type": "keep_hand"}, *PRESENT]
    for seat in (1, 2, 3):
        state, events = when(state, seat, type="keep_hand")
        assert events == [ClaimDeclined(seat)]
    assert state.phase == "bidding" and DECIDER.to_act(state) == (0,)


def test_eu_17_ace_no_face_redeals_by_the_same_dealer_as_a_new_hand():
    """EU-17: an ace with only nines and tens may be declared; the same dealer deals a new hand
    with a new number, seed and commitment; the redeal ends the offers."""
    hands = {
        0: ["Jh", "Jd", "Ah", "Kh", "Qh"],
        1: ["Ac", "9c", "Tc", "9s", "Ts"],
        2: ["9h", "Th", "Qc", "Kc", "Jc"],
        3: ["9d", "Td", "Qd", "Kd", "Ad"],
    }
    kitty = ["As", "Ks", "Qs", "Js"]
    state = given(hands, kitty, dealer=3, ace_no_face=True, farmers_hand=True)
    assert DECIDER.legal_actions(state, 0) == [{"type": "keep_hand"}, *PRESENT]
    assert "ace-no-face" in refused(state, 0, type="ace_no_face").message.lower()
    state, _ = when(state, 0, type="keep_hand")
    assert {"type": "ace_no_face"} in DECIDER.legal_actions(state, 1)
    state, events = when(state, 1, type="ace_no_face")
    declared, ended, started = events
    assert declared == AceNoFaceDeclared(1, tuple(hands[1]))
    assert ended.outcome == "redeal" and ended.points == (0, 0, 0, 0) and ended.server_seed == hand_seed(TAG, 1).hex()
    assert started.hand_no == 2 and started.dealer == 3 and started.commitment == commitment(hand_seed(TAG, 2))
    assert state.phase == "claims" and DECIDER.to_act(state) == (0,)


def test_eu_17_ace_no_face_needs_exactly_one_ace():
    """EU-17: exactly one ace, the rest nines and tens. ``9d Ad Ah Ac Ts`` holds three aces: it
    is no ace-no-face and is not offered a redeal; ``9d Ad Th 9c Ts`` (one ace) is."""
    hands = {
        0: ["9d", "Ad", "Ah", "Ac", "Ts"],
        1: ["9h", "Th", "9c", "Tc", "Jd"],
        2: ["Qh", "Kh", "Qc", "Kc", "Jc"],
        3: ["Td", "Qd", "Kd", "As", "Ks"],
    }
    kitty = ["9s", "Qs", "Js", "Jh"]
    state = given(hands, kitty, dealer=3, ace_no_face=True)
    assert {"type": "ace_no_face"} not in DECIDER.legal_actions(state, 0)
    assert "exactly one ace" in refused(state, 0, type="ace_no_face").message
    one_ace = {**hands, 0: ["9d", "Ad", "Th", "9c", "Ts"], 1: ["9h", "Ah", "Ac", "Tc", "Jd"]}
    state = given(one_ace, kitty, dealer=3, ace_no_face=True)
    assert {"type": "ace_no_face"} in DECIDER.legal_actions(state, 0)


def test_eu_16_eu_17_the_offer_does_not_tell_the_others_who_can_claim():
    """EU-16, EU-17: the claims are offered to every seat in turn, so what another seat (or a
    spectator) sees during the offer is identical whether or not a seat can claim. Two deals
    differ only in seat 2's hand (and the hidden kitty cards): a farmer's hand, or none."""
    hands = {
        0: ["Jh", "Jd", "Ah", "Kh", "Qh"],
        1: ["Ac", "Kc", "Qc", "Jc", "As"],
        2: ["9c", "9d", "9h", "Tc", "Td"],
        3: ["Ks", "Qs", "Js", "9s", "Ts"],
    }
    claimer = given(hands, ["Th", "Qd", "Kd", "Ad"], dealer=3, farmers_hand=True, ace_no_face=True)
    hands_without = {**hands, 2: ["Qd", "Kd", "Ad", "9c", "9d"]}
    plain = given(hands_without, ["Th", "9h", "Tc", "Td"], dealer=3, farmers_hand=True, ace_no_face=True)
    others = (0, 1, 3, None)
    for seat in (0, 1, 2, 3):
        assert claimer.phase == plain.phase == "claims"
        assert DECIDER.to_act(claimer) == DECIDER.to_act(plain) == (seat,)
        for other in others:
            assert DECIDER.view(claimer, other) == DECIDER.view(plain, other), other
            if other is not None:
                assert DECIDER.legal_actions(claimer, other) == DECIDER.legal_actions(plain, other)
        if seat == 2:
            # Only seat 2 itself sees that it could claim; it keeps its hand.
            assert any(a["type"] == "farmers_swap" for a in DECIDER.legal_actions(claimer, 2))
            assert DECIDER.legal_actions(plain, 2) == [{"type": "keep_hand"}, *PRESENT]
        claimer, declined = when(claimer, seat, type="keep_hand")
        plain, declined_plain = when(plain, seat, type="keep_hand")
        for other in others:
            assert [DECIDER.view_event(e, other) for e in declined] == [
                DECIDER.view_event(e, other) for e in declined_plain
            ]
    assert claimer.phase == plain.phase == "bidding"
    assert all(DECIDER.view(claimer, other) == DECIDER.view(plain, other) for other in others)


def test_eu_19_cutthroat_three_players_nine_card_kitty_and_scoring():
    """EU-19: 3 players, 5 cards each, a 9-card kitty; the maker plays alone against the other
    two; euchred, every other player scores 2; a march scores 2 (not a lone 4)."""
    hands = {
        0: ["Jh", "Jd", "Ah", "Kh", "Qh"],
        1: ["9c", "Tc", "Qc", "Kc", "Ac"],
        2: ["9s", "Ts", "Qs", "Ks", "As"],
    }
    kitty = ["Th", "9h", "Jc", "Js", "9d", "Td", "Qd", "Kd", "Ad"]
    state = given(hands, kitty, dealer=2, seats=3, cutthroat=True)
    assert len(state.kitty) == 9 and [len(h) for h in state.hands] == [5, 5, 5]
    assert DECIDER.legal_actions(state, 0) == [{"type": "pass"}, {"type": "order_up", "alone": False}, *PRESENT]
    assert "cutthroat" in refused(state, 0, type="order_up", alone=True).message
    state, events = when(state, 0, type="order_up")
    assert events[0].makers == (0,) and events[0].sitting_out == -1
    state, _ = when(state, 2, type="timeout")
    state, log = run_out(state)
    ended = next(e for e in log if isinstance(e, HandEnded))
    assert all(len(e.plays) == 3 for e in log if isinstance(e, TrickTaken))
    assert ended.maker_tricks == 5 and ended.points == (2, 0, 0)
    # Seat 1 orders hearts holding none while seat 2 holds the top five: euchred, both others score 2.
    hands2 = {0: hands[1], 1: hands[2], 2: hands[0]}
    state = given(hands2, kitty, dealer=0, seats=3, cutthroat=True)
    state, _ = when(state, 1, type="order_up")
    state, _ = when(state, 0, type="timeout")
    state, log = run_out(state)
    ended = next(e for e in log if isinstance(e, HandEnded))
    assert ended.maker_tricks < 3 and ended.points == (2, 0, 2)


def test_eu_19_cutthroat_tie_at_the_top_plays_on():
    """EU-19: several past the target with the same highest score play on; a single highest wins."""
    from games.rules.euchre.decide import match_winners

    state = DECIDER.initial_state(config(3, cutthroat=True, target_points=5))
    assert match_winners(state, (6, 6, 2)) == ()
    assert match_winners(state, (7, 6, 2)) == (0,)
    assert match_winners(state, (4, 4, 4)) == ()
    with pytest.raises(InvalidOptions, match="4 players"):
        DECIDER.configure(3, {})
    with pytest.raises(InvalidOptions, match="Cutthroat is played by 3 or 4 players"):
        DECIDER.configure(5, {"cutthroat": True})


def test_eu_21_stakes_go_to_escrow_and_the_winning_side_shares_the_prize():
    """EU-21: each stake goes wallet -> escrow at the start; the winners share, the remainder to
    the lowest seat; cutthroat's winner takes it all."""
    cfg = {**config(), "stake": 333, "currency": "MXN"}
    state = DECIDER.initial_state(cfg)
    moves = DECIDER.settlements(state, MatchStarted(4, 0, ()))
    assert [(m.source, m.destination, m.amount, m.unit) for m in moves] == [
        (("wallet", s), ("escrow",), 333, "MONEY") for s in range(4)
    ]
    moves = DECIDER.settlements(state, MatchWon((1, 3), (5, 10, 5, 10)))
    assert [(m.destination, m.amount) for m in moves] == [(("payout", 1), 666), (("payout", 3), 666)]
    cfg3 = {**config(3, cutthroat=True), "stake": 100}
    state3 = DECIDER.initial_state(cfg3)
    assert [(m.destination, m.amount) for m in DECIDER.settlements(state3, MatchWon((2,), (1, 2, 10)))] == [
        (("payout", 2), 300)
    ]
    odd = DECIDER.initial_state({**config(3, cutthroat=True), "stake": 101})
    assert sum(m.amount for m in DECIDER.settlements(odd, MatchWon((0,), (10, 0, 0)))) == 303
    assert DECIDER.settlements(DECIDER.initial_state(config()), MatchStarted(4, 0, ())) == []


def test_eu_22_timeouts_pass_name_the_first_allowed_suit_and_play_the_lowest_legal_card():
    """EU-22: a bidder passes; a stuck dealer names the first allowed of c, d, h, s; a player
    plays the lowest legal card by EU-8 order, ties by suit order."""
    state = given(HANDS, KITTY, dealer=3, stick_the_dealer=True)
    state, events = when(state, 0, type="timeout")
    assert events == [Passed(0, 1)]
    state = _all_pass_first_round(given(HANDS, KITTY, dealer=3, stick_the_dealer=True), 3)
    state, events = when(state, 3, type="timeout")
    assert events[0].suit == "c" and not events[0].alone
    state, events = when(state, 0, type="timeout")  # seat 0 leads: lowest is 9s (a non-trump nine)
    assert events == [CardPlayed(0, "9s")]
    state, events = when(state, 1, type="timeout")  # must follow spades with Ts
    assert events == [CardPlayed(1, "Ts")]
    with pytest.raises(IllegalAction):
        DECIDER.decide(state, {"type": "timeout", "seat": 0}, next_context(state, TAG))


def test_out_of_turn_and_unknown_commands_are_refused_with_the_legal_actions():
    """Acting out of turn names whose turn it is; wrong-phase verbs are refused."""
    state = given(HANDS, KITTY, dealer=3)
    error = refused(state, 2, type="pass")
    assert error.message == "It is seat 0's turn, not yours." and error.legal == PRESENT
    error = refused(state, 0, type="play", card="Jh")
    assert "trump is being made" in error.message and {"type": "pass"} in error.legal
    assert refused(state, 0, type="name_trump", suit="c").message.startswith("In the first round")
    assert refused(state, 0, type="dance").message.startswith("You cannot dance now")


def test_cm_1_cards_are_read_in_any_case_and_10_for_t():
    """CM-1: 'jh' is Jh and '10h' is Th in input."""
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="order_up")
    state, events = when(state, 3, type="discard", card="10d")
    assert events == [DealerDiscarded(3, "Td")]
    state, events = when(state, 0, type="play", card="jh")
    assert events == [CardPlayed(0, "Jh")]


# --- seeded random playouts ---------------------------------------------------------------


def _random_chooser(rng):
    return lambda state, seat, legal: rng.choice(legal)


VARIANTS = [
    (4, {}),
    (4, {"stick_the_dealer": True, "no_trump": True, "deal_pattern": "3-2"}),
    (4, {"farmers_hand": True, "ace_no_face": True}),
    (3, {"cutthroat": True, "farmers_hand": True, "ace_no_face": True}),
    (4, {"cutthroat": True, "stick_the_dealer": True}),
]


@functools.cache
def _playouts():
    games = []
    for i in range(200):
        seats, options = VARIANTS[i % len(VARIANTS)]
        cfg = config(seats, target_points=5, **options)
        rng = random.Random(hashlib.sha256(f"seed{i}".encode()).digest())
        state, log = play_match(DECIDER, cfg, _random_chooser(rng), f"seed{i}")
        games.append((cfg, state, log))
    return games


def _visible(state, seat):
    """Cards a seat may see in this state (EU-20)."""
    cards = {state.turned_card} | {card for _, card in state.first_dealer_draws}
    cards |= {card for plays in state.tricks for _, card in plays} | {card for _, card in state.trick}
    cards |= {card for _, shown in state.shown for card in shown}
    if seat is not None and state.hands:
        cards |= set(state.hands[seat])
        if seat == state.dealer:
            cards.add(state.discard)
    return cards


def _cards_in(data):
    text = json.dumps(data)
    return {card for card in DECK if f'"{card}"' in text}


def test_playouts_conserve_cards_replay_round_trip_and_end():
    """Random playouts: 24 cards always accounted for, replay equals state, JSON round-trips, every
    match ends with a winner past the target (EU-2, EU-14, EU-19)."""
    names = event_types_by_name(DECIDER)
    for cfg, final, log in _playouts():
        state = DECIDER.initial_state(cfg)
        for event in log:
            kind, public, secret = encode_event(event)
            assert decode_event(names, kind, json.loads(json.dumps(public)), secret) == event
            state = DECIDER.evolve(state, event)
            if state.hands:
                held = [c for h in state.hands for c in h] + list(state.kitty) + [state.discard] * bool(state.discard)
                played = [c for plays in state.tricks for _, c in plays] + [c for _, c in state.trick]
                assert sorted(held + played) == sorted(DECK)
        assert state == final and DECIDER.is_finished(final)
        assert decode_state(DECIDER.state_type, json.loads(json.dumps(encode_state(final)))) == final
        assert max(final.scores) >= cfg["target_points"] and final.winners


def test_eu_20_views_and_events_never_leak_hidden_cards():
    """EU-20: no view or event served to a seat holds a card it may not see before the hand ends:
    other hands, the kitty, the dealer's discard."""
    for cfg, _, log in _playouts()[:100]:
        state = DECIDER.initial_state(cfg)
        for event in log:
            before = state
            state = DECIDER.evolve(state, event)
            for seat in [None, *range(cfg["seats"])]:
                if not isinstance(event, (HandEnded, MatchWon)):
                    allowed = _visible(before, seat) | _visible(state, seat)
                    if isinstance(event, HandStarted) and seat is not None:
                        allowed |= set(state.hands[seat])
                    if isinstance(event, FarmersHandSwapped) and seat == event.seat:
                        allowed |= set(event.taken)
                    assert _cards_in(DECIDER.view_event(event, seat)) <= allowed, (event, seat)
                if state.phase not in ("between", "finished"):
                    assert _cards_in(DECIDER.view(state, seat)) <= _visible(state, seat), (event, seat)
            if isinstance(event, HandStarted):
                assert not {"server_seed", "deck"} & set(DECIDER.view_event(event, 0))
            if isinstance(event, HandEnded):
                assert DECIDER.view_event(event, None)["server_seed"] == before.server_seed


def test_eu_13_playout_points_follow_the_scoring_table():
    """EU-13, EU-19: every scored hand's points follow from its tricks, makers and lone flag."""
    for cfg, _, log in _playouts():
        alone, makers, tricks = False, (), Counter()
        for event in log:
            if isinstance(event, HandStarted):
                tricks = Counter()
            elif isinstance(event, TrumpMade):
                alone, makers = event.alone and not cfg["cutthroat"], event.makers
            elif isinstance(event, TrickTaken):
                tricks[event.winner] += 1
            elif isinstance(event, HandEnded) and event.outcome == "played":
                won = sum(tricks[s] for s in makers)
                value = (4 if alone else 2) if won == 5 else 1 if won >= 3 else 0
                expected = tuple(
                    (value if s in makers else 0) if won >= 3 else (0 if s in makers else 2)
                    for s in range(cfg["seats"])
                )
                assert (event.maker_tricks, event.points) == (won, expected)


def test_hand_seeds_are_the_contexts():
    """EU-2: every hand (thrown in and redealt ones too) is dealt from its own seed, its deck the
    shuffle of that seed, and its seed revealed when it ends (CM-10)."""
    for i, (_, _, log) in enumerate(_playouts()[:20]):
        starts = [e for e in log if isinstance(e, HandStarted)]
        ends = [e for e in log if isinstance(e, HandEnded)]
        assert [s.hand_no for s in starts] == list(range(1, len(starts) + 1))
        for started in starts:
            seed = hand_seed(f"seed{i}", started.hand_no)
            assert started.commitment == commitment(seed)
            assert started.deck == tuple(shuffled(DECK, seed, FAKE_TABLE_ID, started.hand_no, "", "deck"))
        assert [e.server_seed for e in ends] == [hand_seed(f"seed{i}", e.hand_no).hex() for e in ends]


def test_context_must_carry_the_next_hands_seed():
    """A hand that is due without its seed is a service bug, not a player's error."""
    state = DECIDER.initial_state(config())
    with pytest.raises(ValueError, match="server_seed"):
        DECIDER.decide(state, {"type": "start"}, Context(table_id=FAKE_TABLE_ID))
